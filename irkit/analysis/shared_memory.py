"""Shared-memory allocation model: what Triton's Allocation analysis assigns, per buffer and in total.

`analyze_shared_memory(module)` predicts `kernel.metadata.shared`, the bytes Triton's
`allocate-shared-memory` pass writes into the `ttg.shared` / `triton_gpu.shared` module attribute and the
driver checks against the device limit (docs/triton-passes.md §5).  The model, per function:

1. **Buffers** (`lib/Analysis/Allocation.cpp`)
   * explicit: each `ttg.local_alloc` in shared memory: `prod(shapePerCTA) * bits / 8` bytes (padding,
     fp4Padded and holey shared_linear layouts: `algebra.allocation_elements`), aligned to its `alignment`
     attribute, else (3.1) 1024 if larger than 256 bytes and 8 otherwise, (3.2+) the layout's
     (`algebra.shared_alignment`: nvmma_shared 1024 in 3.3, 128 * maxPhase from 3.4) or 16; a
     partitioned_shared tensor is one buffer per partition, kept in different physical partitions where
     the target has them (gfx1250: 64 KiB);
   * scratch (alignment 128), live only at their op: `convert_layout` between distributed layouts
     (padded-repShape formula in 3.1/3.3, swizzled linear-layout formula in 3.9), `tt.reduce`, `tt.scan`,
     `tt.histogram`, `tt.gather` (3.3+), scalar `tt.atomic_rmw`/`tt.atomic_cas` (1 element; 3.3+ only if
     the result is used), `ttng.tensormap_create` / `tt.experimental_tensormap_create` (128 B, 3.2+);
   * virtual: `tt.call` reserves the callee's whole allocation.
2. **Liveness**: operations are numbered in post-order (an op after everything nested in it); an explicit
   buffer lives over the liveness of its value and of every value aliasing it (memdesc views and region
   arguments/results of `scf.for`/`scf.if`/`scf.while`), `[first, last + 1)`, computed like MLIR's
   `Liveness::resolveLiveness`; scratch and virtual buffers live over `[id, id + 1)`.
3. **Packing**: `calculateStarts` (the triple-map first fit of "Algorithms for Compile-Time Memory
   Optimization"), then first-fit graph colouring repeated until no two buffers that are live at the same
   time overlap.  From Triton 3.2 on the buffers are first sorted by size, largest first.
4. **Total**: the maximum over functions that nobody calls of `max(offset + size)`.

Versions: "3.1" (Triton 3.1.x, legacy `triton_gpu.*` spelling), "3.3" (3.2-3.3: padded formula on the
linear-encoding order/contiguity, padding skipped for a single run), "3.9" (3.4+: swizzled scratch,
warp-shuffle converts free, linear-layout reduce).  Inferred from the module's attribute spelling when
not given: `triton_gpu.*` means 3.1, `ttg.*` means 3.9.

What is approximate is recorded in `Buffer.note` and `SharedMemoryReport.notes` (see
docs/shared-memory.md for the measured accuracy).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from math import prod
from typing import TypeGuard

from xdsl.dialects import scf
from xdsl.dialects.builtin import (
    ArrayAttr,
    CallSiteLoc,
    FileLineColLoc,
    FusedLoc,
    NameLoc,
    StringAttr,
    SymbolRefAttr,
    TensorType,
)
from xdsl.ir import Attribute, Operation, OpResult, SSAValue

from irkit.analysis import amd_lds_usage
from irkit.analysis.liveness import _Liveness
from irkit.analysis.scratch import (
    _tensor,
    atomic_scratch_bytes,
    cvt_scratch_bytes,
    gather_scratch_bytes,
    histogram_scratch_bytes,
    reduce_scratch_bytes,
    scan_scratch_bytes,
)
from irkit.analysis.triton_versions import (
    APPROX,
    V31,
    V39,
    amd_ldst_rules,
    attr_int,
    broadcast_warps_shuffle,
    cvt_takes_larger_scratch,
    infer_version,
    matrix_tiles_leave_reps,
    names_a_release,
    normalize_version,
    reduce_rules,
    release_of,
)
from irkit.analysis.walk import post_order as _post_order
from irkit.analysis.walk import pre_order as _pre_order
from irkit.dialects.encodings import memory_space_name, partitioned_shared
from irkit.dialects.families import CALL_OPS, FUNCTION_OPS
from irkit.dialects.module_attrs import module_int, module_target
from irkit.dialects.tt import (
    AtomicCASOp,
    AtomicRMWOp,
    ExperimentalTensormapCreateOp,
    GatherOp,
    HistogramOp,
    ReduceOp,
    ScanOp,
    TransOp,
)
from irkit.dialects.ttg import (
    ConvertLayoutOp,
    LocalAllocOp,
    MemDescIndexOp,
    MemDescReinterpretOp,
    MemDescReshapeOp,
    MemDescSubsliceOp,
    MemDescSubviewOp,
    MemDescTransOp,
    WarpSpecializeOp,
    WarpYieldOp,
)
from irkit.dialects.ttng import TensormapCreateOp, TMEMSubSliceOp
from irkit.dialects.types import MemDescType
from irkit.layout import algebra
from irkit.names import exact_name

# ---------------------------------------------------------------------------------------------
# Targets
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Target:
    name: str
    triple: str  # as Triton's module attribute writes it: "cuda:80", "hip:gfx942", "xpu"
    limit: int  # bytes of shared memory a CTA may use (what OutOfResources is checked against)
    warp_size: int


# The limits are what Triton's launch checks `metadata.shared` against (the driver's opt-in maximum per block /
# workgroup): cudaDevAttrMaxSharedMemoryPerBlockOptin (A100 163 KiB, H100 and B200 227 KiB), hipDeviceAttribute
# MaxSharedMemoryPerBlock (64 KiB on gfx90a/gfx942, 160 KiB on gfx950); docs/amd.md lists the sources.
TARGETS: dict[str, Target] = {
    "A100": Target("A100", "cuda:80", 166912, 32),
    "H100": Target("H100", "cuda:90", 232448, 32),
    "B200": Target("B200", "cuda:100", 232448, 32),
    "MI300X": Target("MI300X", "hip:gfx942", 65536, 64),
    "MI250X": Target("MI250X", "hip:gfx90a", 65536, 64),
    "MI355X": Target("MI355X", "hip:gfx950", 163840, 64),
    "PVC": Target("PVC", "xpu", 131072, 16),
}
_BY_TRIPLE = {t.triple: t for t in TARGETS.values()}


def shared_memory_partition_size(triple: str | None) -> int:
    """Bytes of one physical partition of a target's shared memory, which the partitions of one
    partitioned_shared tensor must not share (AMD TargetFeatures::getSharedMemoryPartitionSize: 64 KiB on
    gfx1250, none elsewhere; real 3.9.0 measured: a 2-partition 64x32xf16 tensor takes 67,584 B there)."""
    return 64 * 1024 if triple == "hip:gfx1250" else 0


def resolve_target(spec: str | Target | None) -> Target | None:
    """A target from a name ("H100"), a triple ("cuda:90", "hip:gfx942", "xpu", "gfx942") or None."""
    if spec is None or isinstance(spec, Target):
        return spec
    s = spec.strip()
    for name, t in TARGETS.items():
        if s.lower() == name.lower():
            return t
    if s in _BY_TRIPLE:
        return _BY_TRIPLE[s]
    if s.startswith("gfx") and f"hip:{s}" in _BY_TRIPLE:
        return _BY_TRIPLE[f"hip:{s}"]
    if s.startswith("xpu"):
        return TARGETS["PVC"]
    return None


# ---------------------------------------------------------------------------------------------
# Report
# ---------------------------------------------------------------------------------------------


@dataclass
class Buffer:
    """One allocation of the model (Triton's BufferT)."""

    id: int
    kind: str  # "explicit" | "scratch" | "virtual"
    op_name: str
    value: str  # SSA name of the allocated value / the op's first result ("" when it had a numeric name)
    bytes: int
    alignment: int
    start: int = 0  # live range [start, end) in post-order op ids
    end: int = 0
    offset: int = 0
    line: int | None = None
    location: str | None = None
    function: str = ""
    note: str = ""
    op: Operation | None = field(default=None, repr=False, compare=False)
    # the ids of the other partitions of one partitioned_shared tensor, to be put in other physical
    # partitions of shared memory (AMD gfx1250; Triton's BufferT::neighbors)
    neighbors: tuple[int, ...] = ()

    @property
    def live_range(self) -> tuple[int, int]:
        return (self.start, self.end)


@dataclass
class SharedMemoryReport:
    version: str
    target: Target | None
    limit: int | None
    total_bytes: int
    buffers: list[Buffer]
    functions: dict[str, int]
    notes: list[str] = field(default_factory=list)

    def fits(self, limit: int | None = None) -> bool:
        lim = limit if limit is not None else self.limit
        return lim is None or self.total_bytes <= lim

    def verdict(self, limit: int | None = None) -> str:
        return verdict(self, limit)

    def to_text(self) -> str:
        lines = [
            f"shared memory: {self.total_bytes} bytes (Triton {self.version}"
            + (f", {self.target.name} {self.target.triple}" if self.target else "")
            + ")"
        ]
        for b in self.buffers:
            where = f" line {b.line}" if b.line is not None else ""
            note = f"  [{b.note}]" if b.note else ""
            lines.append(
                f"  {b.kind:8s} {b.op_name:28s} {b.value or '-':14s} offset {b.offset:7d} size {b.bytes:7d} "
                f"align {b.alignment:4d} live [{b.start}, {b.end}){where}{note}"
            )
        if self.limit is not None:
            lines.append(verdict(self))
        lines.extend(f"note: {n}" for n in self.notes)
        return "\n".join(lines)


def verdict(report: SharedMemoryReport | int, limit: int | None = None) -> str:
    """Triton's launch-time check: the exact OutOfResources message, "fits" with the margin, or, with no limit
    known, that the target is unknown."""
    total = report if isinstance(report, int) else report.total_bytes
    if limit is None and not isinstance(report, int):
        limit = report.limit
    if limit is None:  # never "fits" against nothing
        return f"target unknown: {total} bytes, no shared-memory limit known (name one: --target or --limit)"
    if total > limit:
        return f"out of resource: shared memory, Required: {total}, Hardware limit: {limit}"
    return f"fits: {total} <= {limit} bytes"


# ---------------------------------------------------------------------------------------------
# Op identification (current spelling)
# ---------------------------------------------------------------------------------------------

# ops whose result is a view of (an alias of) their first memdesc operand
VIEW_OPS = (
    MemDescSubviewOp,
    MemDescIndexOp,
    MemDescSubsliceOp,
    MemDescTransOp,
    MemDescReshapeOp,
    MemDescReinterpretOp,
    TransOp,  # 3.1: tt.trans also transposes memdescs
    TMEMSubSliceOp,
)
def _is_memdesc(t: Attribute) -> TypeGuard[MemDescType]:
    return isinstance(t, MemDescType)


def _in_shared_memory(t: MemDescType) -> bool:
    return "tensor_memory" not in memory_space_name(t.memory_space)


def _value_name(v: SSAValue) -> str:
    """The SSA name as written, or "" (the parser keeps names like %acc but not numeric ones like %105)."""
    name = exact_name(v)
    return "%" + name if name else ""


def _location(op: Operation) -> tuple[int | None, str | None]:
    """(line, "file:line:col") of the user's source line: the caller end of a callsite chain."""
    loc = getattr(op, "location", None)
    seen = 0
    while loc is not None and seen < 32:
        seen += 1
        if isinstance(loc, FileLineColLoc):
            return loc.line.data, f"{loc.filename.data}:{loc.line.data}:{loc.column.data}"
        if isinstance(loc, CallSiteLoc):
            loc = loc.caller
        elif isinstance(loc, NameLoc):
            loc = loc.location
        elif isinstance(loc, FusedLoc):
            locs = loc.locations.data if isinstance(loc.locations, ArrayAttr) else ()
            loc = locs[0] if locs else None
        else:
            break
    return None, None


# ---------------------------------------------------------------------------------------------
# Alias analysis (SharedMemoryAliasAnalysis)
# ---------------------------------------------------------------------------------------------


def _alias_sets(func: Operation) -> dict[SSAValue, frozenset]:
    """For every memdesc value: the local_alloc results it may point into (dataflow to a fixpoint)."""
    sets: dict[SSAValue, frozenset] = {}

    def get(v: SSAValue) -> frozenset:
        return sets.get(v, frozenset())

    def join(v: SSAValue, s: frozenset) -> bool:
        if not s:
            return False
        old = sets.get(v, frozenset())
        new = old | s
        if new != old:
            sets[v] = new
            return True
        return False

    ops = list(_pre_order(func))
    changed = True
    rounds = 0
    while changed and rounds < 64:
        rounds += 1
        changed = False
        for op in ops:
            if isinstance(op, LocalAllocOp) and op.results and _is_memdesc(op.results[0].type):
                changed |= join(op.results[0], frozenset([op.results[0]]))
            elif isinstance(op, VIEW_OPS) and op.operands and op.results and _is_memdesc(op.results[0].type):
                changed |= join(op.results[0], get(op.operands[0]))
            elif isinstance(op, scf.ForOp):
                n_lb = 3
                inits = list(op.operands[n_lb:])
                body = op.regions[0].blocks[0]
                iter_args = list(body.args[1:])
                yld = body.last_op
                yields = list(yld.operands) if yld is not None else []
                for i, init in enumerate(inits):
                    s = get(init) | (get(yields[i]) if i < len(yields) else frozenset())
                    if i < len(iter_args):
                        changed |= join(iter_args[i], s)
                    if i < len(op.results):
                        changed |= join(op.results[i], s)
            elif isinstance(op, scf.IfOp):
                for region in op.regions:
                    for block in region.blocks:
                        yld = block.last_op
                        if not isinstance(yld, scf.YieldOp):
                            continue
                        for i, v in enumerate(yld.operands):
                            if i < len(op.results):
                                changed |= join(op.results[i], get(v))
            elif isinstance(op, scf.WhileOp):
                before = op.regions[0].blocks[0]
                after = op.regions[1].blocks[0] if len(op.regions) > 1 else None
                cond = before.last_op
                after_yield = after.last_op if after is not None else None
                for i, init in enumerate(op.operands):
                    s = get(init)
                    if after_yield is not None and i < len(after_yield.operands):
                        s |= get(after_yield.operands[i])
                    if i < len(before.args):
                        changed |= join(before.args[i], s)
                if isinstance(cond, scf.ConditionOp):
                    fwd = list(cond.operands[1:])
                    for i, v in enumerate(fwd):
                        if after is not None and i < len(after.args):
                            changed |= join(after.args[i], get(v))
                        if i < len(op.results):
                            changed |= join(op.results[i], get(v))
            elif isinstance(op, WarpSpecializeOp):
                # the default region's ttg.warp_yield values become the op's results
                for block in op.defaultRegion.blocks:
                    yld = block.last_op
                    if isinstance(yld, WarpYieldOp):
                        for i, v in enumerate(yld.operands):
                            if i < len(op.results):
                                changed |= join(op.results[i], get(v))
                # captures flow into the partition regions' arguments
                for region in op.regions[1:]:
                    for block in region.blocks:
                        for i, a in enumerate(block.args):
                            if i < len(op.operands):
                                changed |= join(a, get(op.operands[i]))
    return sets


# ---------------------------------------------------------------------------------------------
# Packing
# ---------------------------------------------------------------------------------------------


def _align(x: int, a: int) -> int:
    return -(-x // a) * a if a > 1 else x


def _intersects(a: tuple[int, int], b: tuple[int, int]) -> bool:
    return a[0] < b[1] and b[0] < a[1]


_UNBOUNDED = (0, 1 << 62)


def _async_place(op: Operation | None) -> tuple[Operation, object] | None:
    """The nearest ttg.warp_specialize around `op` (Triton's AsyncRegions trait) and the region holding `op`."""
    if op is None:
        return None
    ws = op.parent_op()
    while ws is not None and not isinstance(ws, WarpSpecializeOp):
        ws = ws.parent_op()
    return None if ws is None else (ws, op.parent_region())


def _partitions(offset: int, nbytes: int, partition_size: int) -> tuple[int, int]:
    """The physical partitions (first, last) a buffer at `offset` covers."""
    return offset // partition_size, (offset + nbytes - 1) // partition_size


def compute_offsets(buffers: list[Buffer], sort_by_size: bool, partition_size: int = 0) -> int:
    """calculateStarts + the interference-graph colouring loop; returns the allocation size.  With a
    `partition_size` (TestAllocation's partition-size, the physical partitions of gfx1250's LDS) the
    partitions of one tensor (`Buffer.neighbors`) never share a physical partition."""
    if not buffers:
        return 0
    order = sorted(buffers, key=lambda b: -b.bytes) if sort_by_size else list(buffers)
    rng = {b.id: (b.start, b.end) for b in order}
    by_id = {b.id: b for b in order}
    placed: set[int] = set()

    def clear_of_neighbors(x: Buffer, offset: int) -> bool:
        if not partition_size or not x.neighbors:
            return True
        lo, hi = _partitions(offset, x.bytes, partition_size)
        for n in x.neighbors:
            if n in placed:
                n_lo, n_hi = _partitions(by_id[n].offset, by_id[n].bytes, partition_size)
                if lo <= n_hi and n_lo <= hi:
                    return False
        return True

    def past_partitions_of(y: Buffer) -> int:
        return (_partitions(y.offset, y.bytes, partition_size)[1] + 1) * partition_size

    # calculateStarts: triple map {offset -> live interval}; a multimap iterated by offset, then insertion
    triples: list[tuple[int, int, tuple[int, int]]] = [(0, 0, _UNBOUNDED)]
    seq = 1
    pending = list(order)
    while pending and triples:
        triples.sort(key=lambda t: (t[0], t[1]))
        off, _, r = triples.pop(0)
        eligible = [x for x in pending
                    if _intersects(rng[x.id], r) and not any(_intersects(t[2], rng[x.id]) for t in triples)]
        found = next((x for x in eligible if clear_of_neighbors(x, _align(off, x.alignment))), None)
        if found is None:
            if eligible:  # every candidate shares a partition with a placed neighbour: reopen the slot above
                reopen = min(max([0, *(past_partitions_of(by_id[n]) for n in x.neighbors if n in placed)])
                             for x in eligible)
                triples.append((reopen, seq, r))
                seq += 1
            continue
        x = found
        xr = rng[x.id]
        x.offset = _align(off, x.alignment)
        placed.add(x.id)
        triples.append((x.offset + x.bytes, seq, (max(r[0], xr[0]), min(r[1], xr[1]))))
        seq += 1
        if r[0] < xr[0]:
            triples.append((off, seq, (r[0], xr[1])))
            seq += 1
        if xr[1] < r[1]:
            triples.append((off, seq, (xr[0], r[1])))
            seq += 1
        pending.remove(x)

    concurrent = {b.id: _async_place(b.op) for b in order}

    def interference() -> dict[int, list[Buffer]]:
        g: dict[int, list[Buffer]] = {}
        for x in order:
            for y in order:
                if x is y or not _intersects((x.offset, x.offset + x.bytes), (y.offset, y.offset + y.bytes)):
                    continue
                # live at once, or in two regions of one warp_specialize (they run at the same time)
                cx, cy = concurrent[x.id], concurrent[y.id]
                if _intersects(rng[x.id], rng[y.id]) or (
                        cx is not None and cy is not None and cx[0] is cy[0] and cx[1] is not cy[1]):
                    g.setdefault(x.id, []).append(y)
            if partition_size:  # partitions of one tensor in one physical partition
                lo, hi = _partitions(x.offset, x.bytes, partition_size)
                for n in x.neighbors:
                    y = by_id[n]
                    n_lo, n_hi = _partitions(y.offset, y.bytes, partition_size)
                    if lo <= n_hi and n_lo <= hi and y not in g.get(x.id, []):
                        g.setdefault(x.id, []).append(y)
        return g

    size = 0
    graph = interference()
    rounds = 0
    while True:
        rounds += 1
        size = 0
        colors: dict[int, int] = {b.id: (0 if b is order[0] else -1) for b in order}
        for x in order:
            avail = [True] * len(order)
            for y in graph.get(x.id, []):
                c = colors[y.id]
                if c >= 0:
                    avail[c] = False
            colors[x.id] = avail.index(True) if True in avail else len(order)
        for x in order:
            new_off = 0
            for y in graph.get(x.id, []):
                neighbor = partition_size and y.id in x.neighbors
                new_off = max(new_off, past_partitions_of(y) if neighbor else y.offset + y.bytes)
            if colors[x.id] != 0:
                x.offset = _align(new_off, x.alignment)
            size = max(size, x.offset + x.bytes)
        graph = interference()
        if not graph or rounds > 10000:
            break
    return size


# ---------------------------------------------------------------------------------------------
# The analysis
# ---------------------------------------------------------------------------------------------


def _func_name(op: Operation) -> str:
    n = op.properties.get("sym_name") or op.attributes.get("sym_name")
    return n.data if isinstance(n, StringAttr) else "<anonymous>"


def _callee(op: Operation) -> str | None:
    c = op.properties.get("callee") or op.attributes.get("callee")
    if isinstance(c, SymbolRefAttr):
        return c.root_reference.data
    if isinstance(c, StringAttr):
        return c.data
    return None


def function_allocation(module: Operation, func: Operation, version: str, callee_sizes: dict[str, int]) -> tuple[int, list[Buffer]]:
    """One function's allocation (its size and buffers) exactly as `analyze_shared_memory` computes it, given its
    callees' sizes: what a pass that changed only `func` needs to refresh, in time linear in the function.  `version`
    as `analyze_shared_memory`'s (a release brings its own rules)."""
    ctx, _ = _context(module, version, None)
    fa = _FunctionAllocation(func, ctx, callee_sizes)
    return fa.size, fa.buffers


def func_name(func: Operation) -> str:
    """A function's symbol, as the allocation's `functions` and `Buffer.function` name it."""
    return _func_name(func)


def function_callees(func: Operation) -> list[str]:
    """The symbols `func` calls (tt.call and its kin)."""
    return [c for op in _pre_order(func) if isinstance(op, CALL_OPS) and (c := _callee(op))]


# LocalAllocOp default alignment from Triton 3.2 on (measured with the 3.3.1 and 3.9.0 passes)
_DEFAULT_ALLOC_ALIGN = 16


class _FunctionAllocation:
    def __init__(self, func: Operation, ctx: _Context, callee_sizes: dict[str, int]):
        self.func = func
        self.ctx = ctx
        self.name = _func_name(func)
        self.buffers: list[Buffer] = []
        self.notes: list[str] = []
        self._next_id = ctx.next_id
        explicit: list[tuple[Buffer, SSAValue]] = []
        scratch: list[Buffer] = []
        virtual: list[Buffer] = []
        for op in _pre_order(func):
            explicit.extend((b, op.results[0]) for b in self._explicit(op))
            b = self._scratch(op, callee_sizes)
            if b is not None:
                (virtual if b.kind == "virtual" else scratch).append(b)
        ctx.next_id = self._next_id

        op_id = {op: i for i, op in enumerate(_post_order(func))}
        liveness = _Liveness(func)
        aliases = _alias_sets(func)

        def live_range(v: SSAValue) -> tuple[int, int]:
            ops = liveness.resolve(v)
            ids = [op_id[o] for o in ops if o in op_id]
            if not ids:
                owner = v.op if isinstance(v, OpResult) else None
                i = op_id.get(owner, 0) if owner is not None else 0
                return (i, i + 1)
            return (min(ids), max(ids) + 1)

        by_alloc: dict[SSAValue, list[Buffer]] = {}
        for b, v in explicit:
            b.start, b.end = live_range(v)
            by_alloc.setdefault(v, []).append(b)
        # values aliasing allocations: every operand and result that carries an alias set
        seen: set = set()
        for op in _pre_order(func):
            for v in list(op.operands) + list(op.results):
                if v in seen:
                    continue
                seen.add(v)
                allocs = aliases.get(v)
                if not allocs:
                    continue
                s, e = live_range(v)
                for a in allocs:
                    for b in by_alloc.get(a, ()):
                        b.start, b.end = min(b.start, s), max(b.end, e)
        for b in scratch + virtual:
            if b.op is func:  # the function's own buffer (warp specialization) lives throughout
                b.start, b.end = _UNBOUNDED
                continue
            assert b.op is not None  # scratch and virtual buffers come from an op
            i = op_id[b.op]
            b.start, b.end = i, i + 1
        self.buffers = [b for b, _ in explicit] + scratch + virtual
        self.size = compute_offsets(self.buffers, sort_by_size=ctx.version != V31, partition_size=ctx.partition_size)

    def _new_buffer(self, kind: str, op: Operation, nbytes: int, align: int, value: str = "", note: str = "") -> Buffer:
        line, loc = _location(op)
        b = Buffer(
            id=self._next_id,
            kind=kind,
            op_name=op.name,
            value=value or (_value_name(op.results[0]) if op.results else ""),
            bytes=int(nbytes),
            alignment=int(align),
            line=line,
            location=loc,
            function=_func_name(self.func),
            note=note,
            op=op,
        )
        self._next_id += 1
        return b

    def _explicit(self, op: Operation) -> list[Buffer]:
        """The buffers of a local_alloc: one, or one per partition of a partitioned_shared tensor (each
        holding its numGroups pieces), which the packing keeps in separate physical partitions."""
        if not isinstance(op, LocalAllocOp) or not op.results:
            return []
        t = op.results[0].type
        if not _is_memdesc(t) or not _in_shared_memory(t):
            return []
        shape = t.get_shape()
        alloc_shape = t.alloc_shape
        if alloc_shape is not None and hasattr(alloc_shape, "data"):
            shape = tuple(d.data for d in alloc_shape.data)
        shape_cta = algebra.shape_per_cta(t.encoding, shape)
        bits = algebra.elem_bits(t)
        version = self.ctx.version
        elements = algebra.allocation_elements(t.encoding, shape_cta, linear=version == V39)
        align = attr_int(op.properties.get("alignment") or op.attributes.get("alignment"))
        if align is None:
            if version == V31:
                # LocalAllocOp::getAlignmentOrDefault @3.1: 1024 for anything over 256 bytes (swizzling)
                approx = prod(shape_cta) * (bits // 8)
                align = 1024 if approx > 256 else 8
            else:
                align = algebra.shared_alignment(t.encoding, version == V39) or _DEFAULT_ALLOC_ALIGN
        parts = partitioned_shared(t.encoding)
        if parts is None:
            return [self._new_buffer("explicit", op, elements * bits // 8, align)]
        piece = elements * bits // 8 // (parts.num_partitions * parts.num_groups)
        buffers = [self._new_buffer("explicit", op, piece * parts.num_groups, align)
                   for _ in range(parts.num_partitions)]
        ids = [b.id for b in buffers]
        for b in buffers:
            b.neighbors = tuple(i for i in ids if i != b.id)
        return buffers

    def _scratch(self, op: Operation, callee_sizes: dict[str, int]) -> Buffer | None:
        ctx = self.ctx
        nbytes, note, kind = 0, "", "scratch"
        if isinstance(op, CALL_OPS):
            callee = _callee(op)
            nbytes = callee_sizes.get(callee or "", 0)
            if callee not in callee_sizes:
                note = f"{APPROX}callee @{callee} not in the module: 0 bytes assumed"
            kind = "virtual"
        elif ctx.scratch_size is not None and op is not self.func:
            nbytes = ctx.scratch_size(op)
            align = 8 if isinstance(op, WarpSpecializeOp) else 128
            return self._new_buffer(kind, op, nbytes, align) if nbytes > 0 else None
        elif isinstance(op, ConvertLayoutOp):
            src, dst = _tensor(op.operands[0].type), _tensor(op.results[0].type)
            if src is not None and dst is not None:
                # AMD's allocation takes the padded scratch where optimize-amd-lds-usage asked for it
                padded = bool(ctx.target_triple and ctx.target_triple.startswith("hip:")) \
                    and amd_lds_usage.uses_padded_scratch(op)
                nbytes, note = cvt_scratch_bytes(src, dst, ctx.version, ctx.target_triple, ctx.cvt_leaves_reps,
                                                 ctx.cvt_broadcast_warps, padded=padded, larger=ctx.cvt_larger_scratch,
                                                 amd_ldst=ctx.cvt_amd_ldst)
        elif isinstance(op, ReduceOp):
            nbytes, note = reduce_scratch_bytes(op, ctx.reduce_version or ctx.version)
        elif isinstance(op, ScanOp):
            nbytes, note = scan_scratch_bytes(op, ctx.num_warps, ctx.version)
        elif isinstance(op, HistogramOp):
            nbytes = histogram_scratch_bytes(op, ctx.threads_per_warp)
        elif isinstance(op, (AtomicRMWOp, AtomicCASOp)):
            nbytes = atomic_scratch_bytes(op, ctx.version)
        elif isinstance(op, GatherOp) and ctx.version != V31:
            nbytes = gather_scratch_bytes(op)
        elif isinstance(op, (TensormapCreateOp, ExperimentalTensormapCreateOp)) and ctx.version != V31:
            # the descriptor is built in shared memory: 128 B (3.2/3.3 spell the op tt.experimental_tensormap_create;
            # the real 3.3.1 pass gives each one a buffer at offset 0, before the pipeline buffers are live)
            nbytes = 128
        elif isinstance(op, WarpSpecializeOp) and ctx.version != V31:
            # its explicit captures, packed like a struct, 8-byte aligned (WarpSpecializeOp::getCaptureSize)
            nbytes = warp_specialize_capture_bytes(op)
            return self._new_buffer(kind, op, nbytes, 8) if nbytes > 0 else None
        elif op is self.func and ctx.version != V31:
            # one i8 per warp of the widest warp_specialize's partitions, for the whole function
            widths = [total_partition_warps(ws) for ws in _pre_order(op) if isinstance(ws, WarpSpecializeOp)]
            nbytes = (ctx.partition_warps or max(widths)) if widths else 0
            return self._new_buffer(kind, op, nbytes, 4) if nbytes > 0 else None
        if note.startswith(APPROX) and note not in self.notes:
            self.notes.append(note)
        if nbytes <= 0:
            return None
        return self._new_buffer(kind, op, nbytes, 128, note=note)


def warp_group_warps(module: Operation, version: str | None, triple: str | None) -> int | None:
    """The partition warps of every `ttg.warp_specialize` after AllocateWarpGroups, which the backends run just
    before allocate-shared-memory (NVIDIA from 3.4, AMD from 3.7): each is padded with empty partitions to the
    module's widest, rounded up to whole warp groups of 4 (Triton 3.5.1, 3.8.0, 3.9.0 on cuda:100: partitions
    of 1 + 2 warps own 4 bytes).  None when the module has been through it (`ttg.total-num-warps`), for the
    rules before 3.4, or for a backend that does not run it."""
    rules = normalize_version(version) if version is not None else infer_version(module)
    if rules != V39 or module_int(module, "total-num-warps") is not None:
        return None
    if not (triple or "").startswith("cuda") and not ((triple or "").startswith("hip")
                                                        and release_of(version, module) >= (3, 7, 0)):
        return None
    widest = max((total_partition_warps(ws) for ws in _pre_order(module) if isinstance(ws, WarpSpecializeOp)),
                 default=0)
    return -(-widest // 4) * 4 or None


def total_partition_warps(op: WarpSpecializeOp) -> int:
    """WarpSpecializeOp::getTotalPartitionWarps: the warps of all its partitions."""
    warps = op.partitionNumWarps
    return sum(int(w) for w in getattr(warps, "get_values", lambda: ())())


def _capture_bytes(t: Attribute) -> int:
    """getSharedMemorySize of one capture: scalars their bytes, pointers and descriptors 8, a memdesc 8 (plus
    4 per dimension when it is in shared memory)."""
    if isinstance(t, MemDescType):
        return 8 + 4 * len(t.get_shape()) if _in_shared_memory(t) else 8
    width = getattr(t, "bitwidth", None) or getattr(t, "width", None)
    if isinstance(width, int):
        return -(-width // 8)
    if isinstance(data := getattr(width, "data", None), int):
        return -(-data // 8)
    return 8


def warp_specialize_capture_bytes(op: WarpSpecializeOp) -> int:
    """WarpSpecializeOp::getCaptureSize: the explicit captures of its partitions op, tightly packed."""
    holder = op.partitionOpHolder.blocks.first
    partitions = holder.first_op if holder is not None else None
    if partitions is None:
        return 0
    return sum(_capture_bytes(v.type) for v in partitions.operands)


@dataclass
class _Context:
    version: str
    target_triple: str | None
    num_warps: int
    threads_per_warp: int
    next_id: int = 0
    # replaces the scratch size of every op but calls and functions (TestAllocation's
    # get-scratch-size-function); None: the model's sizes
    scratch_size: Callable[[Operation], int] | None = None
    # bytes of one physical partition of shared memory (TestAllocation's partition-size); 0: one
    partition_size: int = 0
    # the rules of tt.reduce's scratch when they are not `version`'s (triton_versions.reduce_rules)
    reduce_version: str | None = None
    # the ld/stmatrix swizzling of converts keeps some reps in the segment (3.6 on; matrix_tiles_leave_reps)
    cvt_leaves_reps: bool = True
    # a dst warp bit that src broadcasts over may stay in a warp shuffle (3.9 on; broadcast_warps_shuffle)
    cvt_broadcast_warps: bool = True
    # a convert takes the larger of the swizzled and the padded scratch (3.4; cvt_takes_larger_scratch)
    cvt_larger_scratch: bool = False
    # AMD's ld/st swizzling of the release (3.5 on; amd_ldst_rules)
    cvt_amd_ldst: str | None = None
    # warps of every warp_specialize's partitions once AllocateWarpGroups has padded them to whole warp
    # groups (None: as written; `warp_group_warps`)
    partition_warps: int | None = None


def analyze_shared_memory(
    module: Operation,
    version: str | None = None,
    target: str | Target | None = None,
    limit: int | None = None,
    scratch_size: Callable[[Operation], int] | None = None,
    partition_size: int | None = None,
    warp_groups: bool = True,
    as_compiled: bool = True,
) -> SharedMemoryReport:
    """Predict Triton's shared-memory allocation for a TTGIR module.

    `version`: "3.1", "3.3", "3.9" or a release ("3.5.1": 3.9's rules with that release's differences,
    `reduce_rules`, `matrix_tiles_leave_reps` and `broadcast_warps_shuffle`); inferred from the module attribute spelling when
    None.  `target`: a `TARGETS` name or a triple; defaults to the module's `ttg.target`.  `limit`:
    overrides the target's shared-memory limit.  `scratch_size`: the scratch bytes of every op but calls and
    functions, in place of the model's (Triton's AllocationAnalysisScratchSizeFn).  `partition_size`: the
    bytes of one physical partition of shared memory, which the partitions of a partitioned_shared tensor
    must not share (0: no partitions; None: the target's, as its compiler has it).  `warp_groups`: size the
    warp_specialize partitions as the compiler does after AllocateWarpGroups (`warp_group_warps`); False: as
    written, as allocate-shared-memory alone does.  `as_compiled`: price the module the compile allocates, after
    AMD's optimize-amd-lds-usage where the release runs it (`amd_lds_usage`); False: the allocation pass alone,
    as `-test-print-allocation` runs it."""
    module = getattr(module, "module", module)  # a ParsedModule from irkit.frontend.parser
    ctx, tgt = _context(module, version, target, scratch_size, partition_size, warp_groups)
    lim = limit if limit is not None else (tgt.limit if tgt else None)
    sizes, buffers, notes, roots = _allocate(module, ctx)
    total = max((sizes[n] for n in roots), default=0)
    lds = tgt.limit if tgt is not None else lim
    release = release_of(version, module)
    gen = amd_lds_usage.generation(release, ctx.target_triple)
    over = lds is not None and total > lds and scratch_size is None
    if as_compiled and over and gen is not None and lds is not None:
        # the compile runs optimize-amd-lds-usage before its allocation: price the module it leaves
        copy = module.clone()
        origin = dict(zip(copy.walk(), module.walk()))  # each op of the copy -> the module's own
        sizes, buffers, notes, roots = _allocate(copy, ctx)
        fitted, stand_ins = _fit_converts(copy, buffers, roots, ctx, lds, amd_lds_usage.padded_attr_name(release),
                                          gen)
        if fitted:
            sizes, buffers, notes, roots = _allocate(copy, ctx)
            notes = [*notes, *fitted]
        for b in buffers:  # the report speaks of the module's ops: a new convert of the one it replaced
            op = stand_ins.get(b.op, b.op) if b.op is not None else None
            b.op = origin.get(op, b.op) if op is not None else None
        total = max((sizes[n] for n in roots), default=0)
    elif as_compiled and over and not names_a_release(version) and amd_lds_usage.generation((3, 6), ctx.target_triple):
        notes = [*notes, f"{APPROX}over the LDS: if Triton 3.3-3.6 made this module, its compile first fits it with "
                         f"optimize-amd-lds-usage; give the release (--triton-version 3.6.0) to price what that leaves"]
    return SharedMemoryReport(
        version=ctx.version, target=tgt, limit=lim, total_bytes=total, buffers=buffers, functions=sizes, notes=notes
    )


def _context(module: Operation, version: str | None, target: str | Target | None,
             scratch_size: Callable[[Operation], int] | None = None, partition_size: int | None = None,
             warp_groups: bool = True) -> tuple[_Context, Target | None]:
    """The allocation rules of `version` for `module` on `target` (see `analyze_shared_memory`), and the target."""
    ver = normalize_version(version) if version is not None else infer_version(module)
    triple = module_target(module)
    tgt = resolve_target(target) if target is not None else resolve_target(triple)
    if isinstance(target, str) and tgt is None:
        triple = target
    elif tgt is not None and target is not None:
        triple = tgt.triple
    tpw = module_int(module, "threads-per-warp") or (tgt.warp_size if tgt else 32)
    ctx = _Context(ver, triple or (tgt.triple if tgt else None), module_int(module, "num-warps") or 4, tpw,
                   scratch_size=scratch_size)
    ctx.partition_size = partition_size if partition_size is not None else shared_memory_partition_size(ctx.target_triple)
    ctx.reduce_version = reduce_rules(version, module)
    ctx.cvt_leaves_reps = matrix_tiles_leave_reps(version, module)
    ctx.cvt_broadcast_warps = broadcast_warps_shuffle(version, module)
    ctx.cvt_larger_scratch = cvt_takes_larger_scratch(version, module)
    ctx.cvt_amd_ldst = amd_ldst_rules(version, module)
    ctx.partition_warps = warp_group_warps(module, version, ctx.target_triple) if warp_groups else None
    return ctx, tgt


def optimize_lds_usage(module: Operation, version: str | None = None, target: str | Target | None = None,
                       lds_limit: int = 0) -> list[str]:
    """AMD's optimize-amd-lds-usage on `module`, in place, as the release of `version` runs it (the newest
    generation where that release has none); `lds_limit` 0: the target's LDS.  A note per convert it rewrote."""
    ctx, tgt = _context(module, version, target)
    lds = lds_limit or (tgt.limit if tgt is not None else 0)
    release = release_of(version, module)
    # asked by name, the pass runs on any module, as the release's triton-opt would (the newest where it has none)
    gen = amd_lds_usage.GENERATIONS.get(release[:2], amd_lds_usage.V35)
    sizes, buffers, _, roots = _allocate(module, ctx)
    if not lds or max((sizes[n] for n in roots), default=0) <= lds:
        return []
    return _fit_converts(module, buffers, roots, ctx, lds, amd_lds_usage.padded_attr_name(release), gen)[0]


def _fit_converts(module: Operation, buffers: list[Buffer], roots: list[str], ctx: _Context, lds: int,
                  padded_attr: str, gen: str) -> tuple[list[str], dict[Operation, Operation]]:
    """optimize-amd-lds-usage on `module` (in place) from its allocation `buffers`: each convert of a root
    function whose scratch is more than its share of the peak, tried through an intermediate layout.  A note per
    convert it rewrote, and each new convert -> the one it replaced."""
    def scratch(src: TensorType, dst: TensorType, padded: bool) -> int:
        return cvt_scratch_bytes(src, dst, ctx.version, ctx.target_triple, ctx.cvt_leaves_reps,
                                 ctx.cvt_broadcast_warps, padded=padded, amd_ldst=ctx.cvt_amd_ldst)[0]

    explicit = [b for b in buffers if b.kind == "explicit"]
    candidates: list[tuple[ConvertLayoutOp, int]] = []
    for b in buffers:
        if b.kind != "scratch" or not isinstance(b.op, ConvertLayoutOp) or b.function not in roots:
            continue
        # the buffers live at the convert (Allocation::getLiveBuffers): its own scratch and the explicit ones
        live = [(x.offset, x.bytes) for x in explicit if x.function == b.function and x.start <= b.start < x.end]
        target = amd_lds_usage.target_bytes(b.bytes, b.offset, [*live, (b.offset, b.bytes)], lds)
        if b.bytes > target:
            candidates.append((b.op, target))
    notes: list[str] = []
    stand_ins: dict[Operation, Operation] = {}
    for op, target in candidates:
        line, name = _location(op)[0], _value_name(op.results[0])
        done = amd_lds_usage.fit_convert(op, target, lds, ctx.num_warps, ctx.threads_per_warp, scratch, padded_attr,
                                         gen)
        if done:
            text, new_ops = done
            where = f"{name} (line {line})" if line is not None else name or "a convert"
            notes.append(f"optimize-amd-lds-usage, as Triton {gen} runs it on AMD: {where} {text}")
            stand_ins.update((new, op) for new in new_ops)
    return notes, stand_ins


def _allocate(module: Operation, ctx: _Context) -> tuple[dict[str, int], list[Buffer], list[str], list[str]]:
    """Every function's allocation, callees first: (its size by name, the buffers, the notes, the root
    functions' names)."""
    funcs = [op for op in _pre_order(module) if isinstance(op, FUNCTION_OPS)]
    by_name = {_func_name(f): f for f in funcs}
    calls: dict[str, list[str]] = {n: [] for n in by_name}
    for n, f in by_name.items():
        for op in _pre_order(f):
            if isinstance(op, CALL_OPS):
                c = _callee(op)
                if c:
                    calls[n].append(c)
    called = {c for cs in calls.values() for c in cs}
    # callees first (post-order over the call graph)
    ordered: list[str] = []
    state: dict[str, int] = {}

    def visit(n: str) -> None:
        if state.get(n) == 2 or n not in by_name:
            return
        if state.get(n) == 1:
            return  # recursion: Triton rejects it; cut the cycle
        state[n] = 1
        for c in calls.get(n, []):
            visit(c)
        state[n] = 2
        ordered.append(n)

    for n in by_name:
        visit(n)
    sizes: dict[str, int] = {}
    buffers: list[Buffer] = []
    notes: list[str] = []
    for n in ordered:
        fa = _FunctionAllocation(by_name[n], ctx, sizes)
        sizes[n] = fa.size
        buffers.extend(fa.buffers)
        for note in fa.notes:
            if note not in notes:
                notes.append(note)
    roots = [n for n in by_name if n not in called] or list(by_name)
    return sizes, buffers, notes, roots
