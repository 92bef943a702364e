"""The dataflow graph of a module: one node per operation, one edge per SSA use.

`build_graph(parsed)` turns a parsed module into a `networkx.MultiDiGraph` and never changes the IR.

Nodes are `"op<N>"` (N = the op's pre-order index; `op0` is the module) with attributes

    op            op name, current spelling ("ttg.convert_layout")
    values        names of its results as the file writes them (["%50"])
    results       result types as the file writes them, layouts by alias ("tensor<256x256xf32, #mma>")
    layouts       the layouts of those results (["#mma"]; "" for a result without one)
    bytes         shared memory the allocation model gives this op (scratch or buffer), else 0
    shared_kind   "scratch" | "explicit" | "virtual" | ""
    line          line of the op in the input text (None for an op without one)
    loc           the user's source position "file:line:col" (the caller end of a callsite), or ""
    function      the enclosing tt.func
    parent        node of the enclosing op (None for the module); `depth` its nesting level
    region        "op3.r0": which region of the parent the op sits in
    is_convert    True for ttg.convert_layout, with src_layout / dst_layout / needs_shared

Edges go from the op defining a value to each op using it (key = the operand index); a block
argument (a loop's iteration argument, a function argument) is defined by the op owning the block, so
an `scf.for` node has an edge to every use of its induction variable and iteration arguments.  Edge
attributes: `value`, `type`, `layout`, `operand` (index in the user), `result` (index in the
definer), `block_arg`.

Graph attributes (`G.graph`): `file`, `version` (the Triton rules used), `target`, `limit`,
`shared_bytes`, `num_warps`, `layout_defs` (alias -> definition text).

Queries: `convert_ops`, `local_allocs`, `shared_memory_users`, `layout_regions`, `conversion_chains`.
Exporters: `to_dot`, `to_graphml`, `to_json`, `render` (SVG/PNG through Graphviz `dot`).
"""

from __future__ import annotations

import re
import shutil
import subprocess
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import networkx as nx
from xdsl.dialects.builtin import (
    ArrayAttr,
    CallSiteLoc,
    FileLineColLoc,
    FusedLoc,
    NameLoc,
    NoneAttr,
    StringAttr,
    TensorType,
)
from xdsl.ir import Attribute, BlockArgument, Operation, OpResult, SSAValue

from irkit.analysis.shared_memory import Buffer, SharedMemoryReport, analyze_shared_memory, resolve_target
from irkit.analysis.triton_versions import infer_version, normalize_version
from irkit.dialects.families import FUNCTION_OPS
from irkit.dialects.ttg import ConvertLayoutOp, LocalAllocOp
from irkit.dialects.types import MemDescType
from irkit.frontend.parsed import ParsedModule
from irkit.frontend.printer import AliasState, Printer, PrintOptions
from irkit.frontend.spelling import Spelling
from irkit.names import exact_name

# A node's `op` field is the op's name (current spelling): the graph is data for reports and pictures.
CONVERT = ConvertLayoutOp.name
LOCAL_ALLOC = LocalAllocOp.name
FUNC_OPS = frozenset(cls.name for cls in FUNCTION_OPS)

# ---------------------------------------------------------------------------------------------
# Names as the file writes them
# ---------------------------------------------------------------------------------------------

_RESULT_NAME = re.compile(r"%([^\s=,:#]+)(?::(\d+))?")


class _Spelling:
    """Types, layouts and value names spelled as in the input file (aliases kept)."""

    def __init__(self, parsed: ParsedModule | None):
        self.parsed = parsed
        if parsed is not None:
            aliases = AliasState(
                attr_names=dict(parsed.attr_aliases),
                type_names=dict(parsed.type_aliases),
                order=list(parsed.alias_order),
            )
            spelling = parsed.spelling
        else:
            aliases, spelling = AliasState(), Spelling.CURRENT
        self.printer = Printer(PrintOptions(spelling=spelling), aliases)
        self._result_names: dict[Operation, list[str]] = {}

    def type(self, t: Attribute) -> str:
        try:
            return self.printer.type(t)
        except Exception:  # a type the printer does not know: xDSL's own spelling
            return str(t)

    def layout(self, enc: Attribute | None) -> str:
        if enc is None or isinstance(enc, NoneAttr):
            return ""
        try:
            return self.printer.attribute(enc)
        except Exception:
            return str(enc)

    def layout_definition(self, enc: Attribute) -> str:
        try:
            return self.printer._attr_body(enc)  # noqa: SLF001 - the un-aliased text of a layout
        except Exception:
            return str(enc)

    def results(self, op: Operation) -> list[str]:
        names = self._result_names.get(op)
        if names is None:
            names = self._names_from_text(op) or [_hint(r) for r in op.results]
            self._result_names[op] = names
        return names

    def _names_from_text(self, op: Operation) -> list[str] | None:
        if self.parsed is None or not op.results:
            return None
        pos = self.parsed.op_positions.get(op)
        if pos is None:
            return None
        text = self.parsed.text
        start = text.rfind("\n", 0, pos) + 1
        names: list[str] = []
        for m in _RESULT_NAME.finditer(text, start, pos):
            n = int(m.group(2) or 1)
            names.extend([f"%{m.group(1)}"] if n == 1 else [f"%{m.group(1)}#{i}" for i in range(n)])
        return names if len(names) == len(op.results) else None

    def value(self, v: SSAValue) -> str:
        if isinstance(v, OpResult):
            names = self.results(v.op)
            return names[v.index] if v.index < len(names) else _hint(v)
        return _hint(v)


def _hint(v: SSAValue) -> str:
    name = exact_name(v)
    if name:
        return "%" + name
    if isinstance(v, BlockArgument):
        return f"%arg{v.index}"
    return f"%{v.op.name}#{v.index}" if isinstance(v, OpResult) else "%?"


def source_location(op: Operation) -> str:
    """The user's source position of `op` ("file:line:col"): the caller end of a callsite chain,
    i.e. the kernel line that called an inlined helper."""
    loc = getattr(op, "location", None)
    for _ in range(32):
        if isinstance(loc, FileLineColLoc):
            return f"{loc.filename.data}:{loc.line.data}:{loc.column.data}"
        if isinstance(loc, CallSiteLoc):
            loc = loc.caller
        elif isinstance(loc, NameLoc):
            loc = loc.location
        elif isinstance(loc, FusedLoc):
            locs = list(loc.locations.data) if isinstance(loc.locations, ArrayAttr) else []
            loc = locs[0] if locs else None
        else:
            break
    return ""


def _layout_of(t: Attribute) -> Attribute | None:
    if isinstance(t, (TensorType, MemDescType)):
        enc = t.encoding
        return None if isinstance(enc, NoneAttr) else enc
    return None


def _func_name(op: Operation) -> str:
    n = op.properties.get("sym_name") or op.attributes.get("sym_name")
    return n.data if isinstance(n, StringAttr) else ""


def _needs_shared(src: TensorType, dst: TensorType, version: str, target: str | None) -> bool | None:
    from irkit.layout import conversion

    try:
        return bool(conversion.cvt_needs_shared_memory(
            src.encoding, dst.encoding, tuple(src.get_shape()), src.element_type, version, target))
    except Exception:  # a layout the layout algebra does not model
        return None


# ---------------------------------------------------------------------------------------------
# Building
# ---------------------------------------------------------------------------------------------


def _walk(op: Operation, parent: Operation | None, region: str, depth: int, function: str):
    """(op, parent, region, depth, function) in pre-order, with its own stack (irkit.walk says why)."""
    stack = [(op, parent, region, depth, function)]
    while stack:
        item = stack.pop()
        yield item
        op, _, _, depth, function = item
        fn = _func_name(op) if isinstance(op, FUNCTION_OPS) else function
        children = [(child, op, f"r{ri}", depth + 1, fn)
                    for ri, reg in enumerate(op.regions) for block in reg.blocks for child in block.ops]
        stack.extend(reversed(children))


def _source_line(parsed: ParsedModule | None, op: Operation) -> str:
    """The input line an op starts on, stripped ("" when the module has no text)."""
    pos = parsed.op_positions.get(op) if parsed is not None else None
    if parsed is None or pos is None:
        return ""
    text = parsed.text
    end = text.find("\n", pos)
    return text[text.rfind("\n", 0, pos) + 1 : end if end >= 0 else len(text)].strip()[:400]


def build_graph(
    source: ParsedModule | Operation,
    *,
    version: str | None = None,
    target: str | None = None,
    limit: int | None = None,
    smem: SharedMemoryReport | None = None,
    name: str | None = None,
) -> nx.MultiDiGraph:
    """The dataflow graph of a module (see the module docstring).  `smem` reuses an allocation
    report already computed for this module; otherwise the model runs with `version`/`target`."""
    parsed = source if isinstance(source, ParsedModule) else None
    module: Operation = source.module if isinstance(source, ParsedModule) else source
    ver = normalize_version(version) if version else (smem.version if smem else infer_version(module))
    if smem is None:
        smem = shared_memory_of(module, version=ver, target=target, limit=limit)
    spell = _Spelling(parsed)
    buffers: dict[Operation, Buffer] = {}
    for b in smem.buffers:  # an op's scratch: its largest (a convert AMD's LDS pass split in two has two)
        if b.op is not None and b.kind != "explicit" and (b.op not in buffers or b.bytes > buffers[b.op].bytes):
            buffers[b.op] = b
    explicit = {b.op: b for b in smem.buffers if b.op is not None and b.kind == "explicit"}

    G = nx.MultiDiGraph()
    ids: dict[Operation, str] = {}
    layout_defs: dict[str, str] = {}
    for index, (op, parent, region, depth, function) in enumerate(_walk(module, None, "", 0, "")):
        node = f"op{index}"
        ids[op] = node
        types = [r.type for r in op.results]
        layouts = []
        for t in types:
            enc = _layout_of(t)
            alias = spell.layout(enc)
            layouts.append(alias)
            if enc is not None and alias and alias not in layout_defs:
                layout_defs[alias] = spell.layout_definition(enc)
        buf = explicit.get(op) or buffers.get(op)
        attrs: dict[str, Any] = dict(
            op=op.name,
            values=spell.results(op),
            results=[spell.type(t) for t in types],
            layouts=layouts,
            bytes=buf.bytes if buf is not None else 0,
            shared_kind=buf.kind if buf is not None else "",
            line=parsed.op_line(op) if parsed is not None else None,
            text=_source_line(parsed, op),
            loc=source_location(op),
            function=_func_name(op) if isinstance(op, FUNCTION_OPS) else function,
            parent=ids.get(parent) if parent is not None else None,
            region=f"{ids[parent]}.{region}" if parent is not None else "",
            depth=depth,
            is_convert=isinstance(op, ConvertLayoutOp),
        )
        if isinstance(op, ConvertLayoutOp) and op.operands and isinstance(op.operands[0].type, TensorType):
            src, dst = op.operands[0].type, op.results[0].type
            attrs.update(
                src_layout=spell.layout(_layout_of(src)),
                dst_layout=spell.layout(_layout_of(dst)),
                shape=list(src.get_shape()),
                element_type=spell.type(src.element_type),
                needs_shared=_needs_shared(src, dst, ver, smem.target.triple if smem.target else None)
                if isinstance(dst, TensorType) else None,
            )
            enc = _layout_of(src)
            if enc is not None and attrs["src_layout"] not in layout_defs:
                layout_defs[attrs["src_layout"]] = spell.layout_definition(enc)
        G.add_node(node, **attrs)

    def definer(v: SSAValue) -> tuple[Operation | None, int, bool]:
        if isinstance(v, OpResult):
            return v.op, v.index, False
        if isinstance(v, BlockArgument):
            return v.block.parent_op(), v.index, True
        return None, 0, False

    for op, node in ids.items():
        for i, v in enumerate(op.operands):
            d, index, is_arg = definer(v)
            if d is None or d not in ids:
                continue
            enc = _layout_of(v.type)
            G.add_edge(
                ids[d],
                node,
                key=i,
                value=spell.value(v),
                type=spell.type(v.type),
                layout=spell.layout(enc),
                operand=i,
                result=index,
                block_arg=is_arg,
            )

    G.graph.update(
        file=name or (parsed.filename if parsed is not None else ""),
        version=ver,
        target=smem.target.triple if smem.target else None,
        target_name=smem.target.name if smem.target else None,
        limit=smem.limit,
        shared_bytes=smem.total_bytes,
        num_warps=_num_warps(module),
        layout_defs=layout_defs,
        notes=list(smem.notes),
    )
    return G


def is_tritongpu(module: Operation) -> bool:
    """A TritonGPU module carries `ttg.num-warps`; a TTIR module has no layouts yet."""
    return _num_warps(module) is not None


def shared_memory_of(
    module: Operation, version: str | None = None, target: str | None = None, limit: int | None = None
) -> SharedMemoryReport:
    """The allocation model's report; for TTIR (no layouts, nothing allocated yet) an empty one."""
    if is_tritongpu(module):
        return analyze_shared_memory(module, version=version, target=target, limit=limit)
    ver = normalize_version(version) if version else infer_version(module)
    tgt = resolve_target(target)
    lim = limit if limit is not None else (tgt.limit if tgt else None)
    note = "TTIR: no layouts yet; shared memory is allocated after convert-triton-to-tritongpu"
    return SharedMemoryReport(ver, tgt, lim, 0, [], {}, [note])


def _num_warps(module: Operation) -> int | None:
    from irkit.dialects.module_attrs import module_int

    return module_int(module, "num-warps")


# ---------------------------------------------------------------------------------------------
# Queries
# ---------------------------------------------------------------------------------------------


@dataclass
class ConvertRecord:
    """One `convert_layout`, as reports list it."""

    node: str
    value: str
    src_layout: str
    dst_layout: str
    shape: list[int]
    element_type: str
    needs_shared: bool | None
    bytes: int
    line: int | None
    loc: str
    function: str
    src_definition: str = ""
    dst_definition: str = ""

    @property
    def type_text(self) -> str:
        return "x".join(str(d) for d in self.shape) + "x" + self.element_type

    def key(self) -> tuple:
        """What identifies "the same conversion" across two versions of a module: layouts by their
        definition (alias names differ between files), shape, element type, source position."""
        return (self.src_definition, self.dst_definition, tuple(self.shape), self.element_type, self.loc)

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass
class AllocRecord:
    node: str
    value: str
    type: str
    layout: str
    bytes: int
    line: int | None
    loc: str
    function: str

    def to_dict(self) -> dict:
        return asdict(self)


def _ordered(G: nx.MultiDiGraph, nodes: Iterable[str]) -> list[str]:
    return sorted(nodes, key=lambda n: int(n[2:]))


def convert_ops(G: nx.MultiDiGraph) -> list[ConvertRecord]:
    """Every convert_layout in program order."""
    defs = G.graph.get("layout_defs", {})
    out = []
    for n in _ordered(G, (n for n, d in G.nodes(data=True) if d.get("is_convert"))):
        d = G.nodes[n]
        if "src_layout" not in d:
            continue
        out.append(
            ConvertRecord(
                node=n,
                value=d["values"][0] if d["values"] else "",
                src_layout=d["src_layout"],
                dst_layout=d["dst_layout"],
                shape=list(d["shape"]),
                element_type=d["element_type"],
                needs_shared=d["needs_shared"],
                bytes=d["bytes"],
                line=d["line"],
                loc=d["loc"],
                function=d["function"],
                src_definition=defs.get(d["src_layout"], d["src_layout"]),
                dst_definition=defs.get(d["dst_layout"], d["dst_layout"]),
            )
        )
    return out


def local_allocs(G: nx.MultiDiGraph) -> list[AllocRecord]:
    """Every ttg.local_alloc in program order, with the bytes the model gives its buffer."""
    out = []
    for n in _ordered(G, (n for n, d in G.nodes(data=True) if d["op"] == LOCAL_ALLOC)):
        d = G.nodes[n]
        out.append(
            AllocRecord(
                node=n,
                value=d["values"][0] if d["values"] else "",
                type=d["results"][0] if d["results"] else "",
                layout=d["layouts"][0] if d["layouts"] else "",
                bytes=d["bytes"],
                line=d["line"],
                loc=d["loc"],
                function=d["function"],
            )
        )
    return out


def shared_memory_users(G: nx.MultiDiGraph) -> list[str]:
    """Nodes the allocation model gives shared memory (buffers, scratch, callee frames)."""
    return _ordered(G, (n for n, d in G.nodes(data=True) if d.get("bytes", 0) > 0))


@dataclass
class LayoutRegion:
    """A connected set of ops exchanging values of one layout (converts sit on its border)."""

    layout: str
    nodes: list[str]
    values: int  # SSA values of this layout flowing inside the region
    entries: list[str] = field(default_factory=list)  # converts producing this layout
    exits: list[str] = field(default_factory=list)  # converts consuming it


def layout_regions(G: nx.MultiDiGraph, min_nodes: int = 1) -> list[LayoutRegion]:
    """Connected components of the edges that carry one layout, per layout."""
    by_layout: dict[str, nx.Graph] = {}
    for u, v, d in G.edges(data=True):
        lay = d.get("layout") or ""
        if not lay:
            continue
        g = by_layout.setdefault(lay, nx.Graph())
        g.add_edge(u, v)
        g.nodes[u].setdefault("vals", set()).add((u, d.get("result"), d.get("block_arg")))
    out = []
    for lay, g in by_layout.items():
        for comp in nx.connected_components(g):
            if len(comp) < min_nodes:
                continue
            nodes = _ordered(G, comp)
            vals = set()
            for n in nodes:
                vals |= g.nodes[n].get("vals", set())
            entries = [n for n in nodes if G.nodes[n].get("is_convert") and G.nodes[n].get("dst_layout") == lay]
            exits = [n for n in nodes if G.nodes[n].get("is_convert") and G.nodes[n].get("src_layout") == lay]
            out.append(LayoutRegion(lay, nodes, len(vals), entries, exits))
    out.sort(key=lambda r: int(r.nodes[0][2:]))
    return out


@dataclass
class ConversionChain:
    """Converts where each one's result reaches the next through ops of one layout only,
    e.g. `#mma -> #blocked` (a load in #blocked) `-> #mma`: a round trip when it ends where it began."""

    nodes: list[str]
    layouts: list[str]  # src of the first, then the dst of each

    @property
    def round_trip(self) -> bool:
        return len(self.layouts) > 2 and self.layouts[0] == self.layouts[-1]

    def to_dict(self) -> dict:
        return {"nodes": self.nodes, "layouts": self.layouts, "round_trip": self.round_trip}


def _reach_in_layout(G: nx.MultiDiGraph, start: str, layout: str) -> set[str]:
    seen, stack = {start}, [start]
    while stack:
        n = stack.pop()
        for _, m, d in G.out_edges(n, data=True):
            if m in seen or d.get("layout") != layout:
                continue
            seen.add(m)
            if not G.nodes[m].get("is_convert"):
                stack.append(m)
    return seen


def conversion_links(G: nx.MultiDiGraph) -> list[tuple[str, str]]:
    """(a, b): convert b consumes, through ops of a's destination layout only, what convert a made."""
    links = []
    for a in _ordered(G, (n for n, d in G.nodes(data=True) if d.get("is_convert") and "dst_layout" in d)):
        lay = G.nodes[a]["dst_layout"]
        for b in _ordered(G, _reach_in_layout(G, a, lay) - {a}):
            if G.nodes[b].get("is_convert") and G.nodes[b].get("src_layout") == lay:
                links.append((a, b))
    return links


def conversion_chains(G: nx.MultiDiGraph, limit: int = 1000) -> list[ConversionChain]:
    """Maximal chains of linked converts (see `conversion_links`); single converts are not chains."""
    links = conversion_links(G)
    succ: dict[str, list[str]] = {}
    has_pred: set[str] = set()
    for a, b in links:
        succ.setdefault(a, []).append(b)
        has_pred.add(b)
    chains: list[ConversionChain] = []

    def extend(path: list[str]) -> None:
        if len(chains) >= limit:
            return
        nxt = [b for b in succ.get(path[-1], []) if b not in path]
        if not nxt:
            if len(path) > 1:
                lays = [G.nodes[path[0]]["src_layout"]] + [G.nodes[n]["dst_layout"] for n in path]
                chains.append(ConversionChain(list(path), lays))
            return
        for b in nxt:
            extend(path + [b])

    for a in _ordered(G, succ):
        if a not in has_pred:
            extend([a])
    return chains


# ---------------------------------------------------------------------------------------------
# Export
# ---------------------------------------------------------------------------------------------

_PALETTE = [
    "#1f77b4", "#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#bcbd22", "#7f7f7f",
    "#ff7f0e", "#393b79", "#637939", "#8c6d31", "#843c39", "#7b4173", "#3182bd", "#31a354",
    "#756bb1", "#636363", "#e6550d", "#969696",
]
CONVERT_FILL = "#ff9e9e"
SHARED_FILL = "#ffd27f"


def layout_colors(G: nx.MultiDiGraph, nodes: set[str] | None = None) -> dict[str, str]:
    """A colour per layout alias, in order of first appearance among the edges drawn."""
    colors: dict[str, str] = {}
    for u, v, d in sorted(G.edges(data=True), key=lambda e: int(e[0][2:])):
        if nodes is not None and (u not in nodes or v not in nodes):
            continue
        lay = d.get("layout") or ""
        if lay and lay not in colors:
            colors[lay] = _PALETTE[len(colors) % len(_PALETTE)]
    return colors


def _q(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def _short_type(t: str) -> str:
    return t.replace("tensor<", "<").replace("!tt.ptr<", "ptr<")


def _node_label(d: dict) -> str:
    vals = ", ".join(d["values"])
    head = f"{vals} = {d['op']}" if vals else d["op"]
    lines = [head]
    if d.get("is_convert") and "src_layout" in d:
        lines.append(f"{d['src_layout']} -> {d['dst_layout']}")
        lines.append("x".join(map(str, d["shape"])) + "x" + d["element_type"])
    elif d["results"] and d["op"] not in FUNC_OPS:
        lines.append(_short_type(d["results"][0]) + (" ..." if len(d["results"]) > 1 else ""))
    if d.get("bytes"):
        lines.append(f"{d['bytes']:,} B shared")
    where = []
    if d.get("line") is not None:
        where.append(f"line {d['line']}")
    if d.get("loc"):
        where.append(d["loc"].rsplit("/", 1)[-1])
    if where:
        lines.append("  ".join(where))
    return "\n".join(lines)


def focus_nodes(G: nx.MultiDiGraph, radius: int = 1) -> set[str]:
    """Converts, shared-memory users and their neighbours within `radius` dataflow steps, plus the
    other operands of what a convert feeds (the load a converted value is added to, say)."""
    core = {n for n, d in G.nodes(data=True) if d.get("is_convert") or d.get("bytes", 0) > 0}
    keep = set(core)
    for n in core:
        if G.nodes[n].get("is_convert"):
            for user in G.successors(n):
                keep.update(G.predecessors(user))
    frontier = set(core)
    U = G.to_undirected(as_view=True)
    for _ in range(radius):
        nxt = set()
        for n in frontier:
            nxt.update(U.neighbors(n))
        nxt -= keep
        keep |= nxt
        frontier = nxt
    # region-holding ancestors keep the clusters readable
    for n in list(keep):
        p = G.nodes[n].get("parent")
        while p is not None and p not in keep:
            keep.add(p)
            p = G.nodes[p].get("parent")
    return keep


def _cluster_style(d: dict) -> str:
    where = f" (line {d['line']})" if d.get("line") is not None else ""
    name = f" @{d['function']}" if d["op"] in FUNC_OPS and d.get("function") else ""
    return f'label={_q(d["op"] + name + where)}; style="rounded,dashed"; color="#999999";'


def to_dot(
    G: nx.MultiDiGraph,
    *,
    nodes: Iterable[str] | None = None,
    hide_ops: Sequence[str] = ("builtin.module",),
    title: str | None = None,
) -> str:
    """Graphviz DOT text: one cluster per region-holding op (functions, loops, ifs), converts in red,
    other shared-memory users in orange, edges coloured by the layout of the value they carry."""
    keep = set(nodes) if nodes is not None else set(G.nodes)
    keep = {n for n in keep if G.nodes[n]["op"] not in hide_ops}
    colors = layout_colors(G, keep)
    children: dict[str | None, list[str]] = {}
    holders = {G.nodes[n]["parent"] for n in keep}
    for n in _ordered(G, keep):
        p = G.nodes[n]["parent"]
        while p is not None and (p not in keep and G.nodes[p]["op"] in hide_ops):
            p = G.nodes[p]["parent"]
        children.setdefault(p, []).append(n)
    out = ["digraph irkit {"]
    out.append('  graph [rankdir=TB, fontname="Helvetica", fontsize=10, newrank=true];')
    out.append('  node [shape=box, style="rounded,filled", fillcolor="#f4f4f4", fontname="Helvetica", fontsize=9];')
    out.append('  edge [fontname="Helvetica", fontsize=8, arrowsize=0.6];')
    if title:
        out.append(f"  label={_q(title)}; labelloc=t;")

    def drawn_edges(n: str) -> bool:
        return any(u in keep for u in G.predecessors(n)) or any(v in keep for v in G.successors(n))

    def emit(parent: str | None, indent: str) -> None:
        for n in children.get(parent, []):
            d = G.nodes[n]
            if d["op"] in FUNC_OPS and not drawn_edges(n):
                # the cluster's label names the function; a node without edges adds nothing
                out.append(f"{indent}subgraph {_q('cluster_' + n)} {{")
                out.append(f"{indent}  {_cluster_style(d)}")
                emit(n, indent + "  ")
                out.append(f"{indent}}}")
                continue
            attrs = {"label": _node_label(d)}
            if d.get("is_convert"):
                attrs.update(fillcolor=CONVERT_FILL, color="#c00000", penwidth="2")
            elif d.get("bytes", 0) > 0:
                attrs.update(fillcolor=SHARED_FILL, color="#c07000", penwidth="2")
            attr_text = ", ".join(f"{k}={_q(v)}" for k, v in attrs.items())
            if n in holders and children.get(n):
                # a region-holding op is drawn inside its own cluster, above what it holds
                out.append(f"{indent}subgraph {_q('cluster_' + n)} {{")
                out.append(f"{indent}  {_cluster_style(d)}")
                out.append(f"{indent}  {_q(n)} [{attr_text}];")
                emit(n, indent + "  ")
                out.append(f"{indent}}}")
            else:
                out.append(f"{indent}{_q(n)} [{attr_text}];")

    emit(None, "  ")
    shown: dict[str, str] = {}
    for u, v, _k, d in sorted(G.edges(keys=True, data=True), key=lambda e: (int(e[0][2:]), int(e[1][2:]), e[2])):
        if u not in keep or v not in keep:
            continue
        lay = d.get("layout") or ""
        attrs = {"color": colors.get(lay, "#444444")}
        if lay:
            shown[lay] = attrs["color"]
            attrs["tooltip"] = f"{d['value']}: {d['type']}"
        if d.get("block_arg"):
            attrs["style"] = "dashed"
        out.append(f"  {_q(u)} -> {_q(v)} [{', '.join(f'{a}={_q(b)}' for a, b in attrs.items())}];")
    if keep:
        rows = "".join(
            f'<TR><TD BGCOLOR="{c}" WIDTH="14"></TD><TD ALIGN="LEFT">{_html(lay)}</TD></TR>' for lay, c in shown.items()
        )
        # the legend is the graph's label, top left with the title: where a picture opens, never under
        # a node or off to the side of a wide graph
        heading = f'<TR><TD ALIGN="LEFT">{_html(title)}</TD></TR>' if title else ""
        legend = (
            f'<<TABLE BORDER="0" CELLBORDER="0">{heading}<TR><TD ALIGN="LEFT">'
            '<TABLE BORDER="0" CELLBORDER="0" CELLSPACING="2">'
            f'<TR><TD BGCOLOR="{CONVERT_FILL}" WIDTH="14"></TD><TD ALIGN="LEFT">convert_layout</TD></TR>'
            f'<TR><TD BGCOLOR="{SHARED_FILL}" WIDTH="14"></TD><TD ALIGN="LEFT">other shared-memory user</TD></TR>'
            f"{rows}</TABLE></TD></TR></TABLE>>"
        )
        out.append(f"  label={legend}; labelloc=t; labeljust=l;")
    out.append("}")
    return "\n".join(out) + "\n"


def _html(s: str) -> str:
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def _scalar(v: Any) -> Any:
    if v is None:
        return ""
    if isinstance(v, (bool, int, float, str)):
        return v
    if isinstance(v, (list, tuple)):
        return "; ".join(str(x) for x in v)
    if isinstance(v, dict):
        return "; ".join(f"{k}={x}" for k, x in v.items())
    return str(v)


def to_graphml(G: nx.MultiDiGraph) -> str:
    """GraphML text (lists become "; "-joined strings, missing values empty strings)."""
    H = nx.MultiDiGraph()
    H.graph.update({k: _scalar(v) for k, v in G.graph.items()})
    for n, d in G.nodes(data=True):
        H.add_node(n, **{k: _scalar(v) for k, v in d.items()})
    for u, v, k, d in G.edges(keys=True, data=True):
        H.add_edge(u, v, key=k, **{a: _scalar(b) for a, b in d.items()})
    return "\n".join(nx.generate_graphml(H)) + "\n"


def to_json(G: nx.MultiDiGraph) -> dict:
    """{"graph": {...}, "nodes": [{"id": ..., ...}], "edges": [{"source", "target", "key", ...}]}."""
    return {
        "graph": dict(G.graph),
        "nodes": [{"id": n, **d} for n, d in G.nodes(data=True)],
        "edges": [{"source": u, "target": v, "key": k, **d} for u, v, k, d in G.edges(keys=True, data=True)],
    }


def dot_available() -> bool:
    return shutil.which("dot") is not None


class RenderError(RuntimeError):
    pass


def render(dot_text: str, fmt: str = "svg", timeout: float = 60.0) -> bytes:
    """Run Graphviz `dot -T<fmt>` on DOT text; RenderError if `dot` is missing or fails."""
    exe = shutil.which("dot")
    if exe is None:
        raise RenderError("Graphviz 'dot' is not installed (apt-get install graphviz)")
    try:
        proc = subprocess.run([exe, f"-T{fmt}"], input=dot_text.encode(), capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise RenderError(f"dot -T{fmt} took longer than {timeout:.0f} s") from None
    if proc.returncode != 0:
        raise RenderError(f"dot -T{fmt} failed: {proc.stderr.decode(errors='replace').strip()}")
    return proc.stdout

