"""xDSL IR -> text the way triton-opt prints it.

What MLIR does and xDSL's printer does not: attribute aliases (`#blocked =
...`) are emitted at the top and used in the body, keeping the names the input
had and naming new attributes the way Triton's dialects do (`#blocked3`,
`#mma1`); locations print as `loc(#locN)` with the alias definitions after the
module; values keep their name hints, unnamed ones are numbered per function;
multi-result ops bind `%x:3` and uses read `%x#1`.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from xdsl.dialects.builtin import (
    ArrayAttr,
    CallSiteLoc,
    DenseArrayBase,
    DictionaryAttr,
    FileLineColLoc,
    FloatAttr,
    FunctionType,
    FusedLoc,
    IndexType,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    NameLoc,
    NoneAttr,
    NoneType,
    Signedness,
    StringAttr,
    SymbolRefAttr,
    TensorType,
    UnitAttr,
    UnknownLoc,
    VectorType,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.irdl import VarOperandDef, VarResultDef

from irkit.dialects import encodings as enc
from irkit.dialects.builtin_extras import DenseElementsAttr, format_float
from irkit.dialects.types import (
    AsyncTokenType,
    GpuAsyncTokenType,
    MemDescType,
    OpaqueType,
    PointerType,
    TensorDescType,
)
from irkit.frontend import custom_syntax
from irkit.frontend.aliases import AliasNamer, alias_kind
from irkit.frontend.attributes import ALIAS_USE, LOCATION_TYPES, scalar_type_name
from irkit.frontend.construct import gc_paused
from irkit.frontend.gpu_syntax import FUNC_DEFAULT_DIALECT_OPS
from irkit.frontend.lexer import BARE_KEY, quote_string, symbol
from irkit.frontend.opformat import (
    DEFAULT_STYLE,
    AttrDict,
    CompiledFormat,
    FunctionalType,
    Group,
    Lit,
    OIList,
    TypeOf,
    UnitStyle,
    Var,
    compiled_format,
)
from irkit.frontend.parsed import ParsedModule
from irkit.frontend.spelling import Spelling, memdesc_prefix, spelled
from irkit.frontend.ssa_names import ValueNames, is_isolated

_SEGMENTS = ("operandSegmentSizes", "resultSegmentSizes")
_UNKNOWN: Any = object()


@dataclass
class PrintOptions:
    debuginfo: bool = False
    generic: bool = False
    spelling: Spelling = Spelling.CURRENT
    variants: dict[str, str] = field(default_factory=dict)
    # "mlir": aliases named and placed as triton-opt does (irkit/frontend/aliases.py); "input": the names
    # of the AliasState given (the input's), new layouts named after them (labels in reports)
    alias_names: str = "input"
    mlir_value_names: bool = False  # name values as triton-opt does (%0, %arg0, %c0_i32, %cst), not as written
    # (major, minor, patch) of the Triton the text is for, when known: the generic form follows that release's
    # op definitions (an op's `SEGMENTS_SINCE`)
    release: tuple[int, int, int] | None = None


@dataclass
class AliasState:
    """Alias names in force while printing one module."""

    attr_names: dict[Attribute, str] = field(default_factory=dict)
    loc_names: dict[Attribute, str] = field(default_factory=dict)
    type_names: dict[Attribute, str] = field(default_factory=dict)
    top_locs: set[str] = field(default_factory=set)
    order: list[str] = field(default_factory=list)  # the input's alias names in file order
    used_attrs: dict[str, Attribute] = field(default_factory=dict)
    used_locs: dict[str, Attribute] = field(default_factory=dict)
    used_types: dict[str, Attribute] = field(default_factory=dict)
    input_values: dict[str, Attribute] = field(default_factory=dict)  # attribute aliases by their input names


# Texts of attributes and types are memoized only up to this size: each level of a deeply nested one
# (`tensor<1xtensor<...>>` 10,000 deep) would otherwise keep its own copy of everything inside it
_MEMO_TEXT_CHARS = 4096


class Printer:
    def __init__(self, options: PrintOptions, aliases: AliasState | None = None):
        self.o = options
        self.aliases = aliases or AliasState()
        self.namer: AliasNamer | None = AliasNamer() if options.alias_names == "mlir" else None
        self._early_locations = self.namer is not None and options.debuginfo
        self.out: list[str] = []
        self.indent = 0
        self._line_starts: list[str] = []
        self.scopes: list[ValueNames] = [ValueNames(options.mlir_value_names)]
        self._attr_text: dict[int, tuple[Attribute, str]] = {}
        # per-object and per-class memos: a module repeats a few locations,
        # types and op kinds thousands of times
        self._loc_text: dict[int, tuple[Attribute, str]] = {}
        self._stripped_text: dict[int, tuple[Attribute, str]] = {}
        self._formats: dict[type, CompiledFormat | None] = {}
        # ops with unit flags and a Triton 3.1 form: (flag names, the 3.1 format)
        self._flag_formats: dict[type, tuple[list[str], CompiledFormat | None]] = {}
        self._spelled: dict[str, str] = {}

    # -- module ---------------------------------------------------------------------------
    def module_text(self, module: ModuleOp, implicit: bool = False) -> str:
        top = ValueNames(self.o.mlir_value_names)
        top.number(module.body)
        self.scopes.append(top)
        if self.namer is not None:
            return self._module_text_mlir_aliases(module)
        # like mlir-opt, a file of bare ops prints inside the implicit `module {}`
        self.print_op(module)
        self.out.append("\n")
        body = "".join(self.out)
        head: list[str] = []
        # attribute aliases first, in the order they were defined (new ones last)
        emitted: set[str] = set()
        pending = list(self.aliases.used_attrs.items())
        while pending:
            name, attr = pending.pop(0)
            if name in emitted:
                continue
            text = self._attr_body(attr)
            head.append(f"#{name} = {text}\n")
            emitted.add(name)
            for n, a in self.aliases.used_attrs.items():
                if n not in emitted and (n, a) not in pending:
                    pending.append((n, a))
        head = self._merge_top(head, [])
        for name, t in self.aliases.used_types.items():
            head.append(f"!{name} = {self._type_body(t)}\n")
        tail: list[str] = []
        if self.o.debuginfo:
            loc_lines = self._location_alias_lines()
            top = [line for name, line in loc_lines if name in self.aliases.top_locs]
            tail = [line for name, line in loc_lines if name not in self.aliases.top_locs]
            head = self._merge_top(head, top)
        text = "".join(head) + body + "".join(tail)
        return text

    def _module_text_mlir_aliases(self, module: ModuleOp) -> str:
        namer = self.namer
        assert namer is not None
        if self.o.generic:
            self._visit_generic(module)
        self.print_op(module)
        self.out.append("\n")
        body = "".join(self.out)
        top, tail = namer.finish()
        head = "".join(self._alias_definition(i) for i in top)
        rest = "".join(self._alias_definition(i) for i in tail)
        return namer.substitute(head + body + rest)

    def _alias_definition(self, i: int) -> str:
        namer = self.namer
        assert namer is not None
        entry = namer.entries[i]
        if entry.kind == "loc":
            return f"{namer.ref(i)} = loc({self._loc_inner(entry.attr, top=True)})\n"
        return f"{namer.ref(i)} = {self._attr_body(entry.attr)}\n"

    def _visit_generic(self, op: Operation) -> None:
        """Meet what the generic form of `op` prints in the order MLIR's alias dry run meets it: the
        location, the regions, operand and result types, then the attributes."""
        namer = self.namer
        assert namer is not None
        debuginfo = self.o.debuginfo
        if debuginfo:
            namer.visit(op.location, deferrable=True)
        for region in op.regions:
            for block in region.blocks:
                for arg in block.args:
                    namer.visit(arg.type)
                    if debuginfo:
                        namer.visit(arg.location)
                for inner in block.ops:
                    self._visit_generic(inner)
        for v in op.operands:
            namer.visit(v.type)
        for r in op.results:
            namer.visit(r.type)
        for a in op.properties.values():
            namer.visit(a)
        for a in op.attributes.values():
            namer.visit(a)

    def _merge_top(self, attr_lines: list[str], loc_lines: list[str]) -> list[str]:
        """Aliases before the module keep the input's order; new ones go last."""
        index = {n: i for i, n in enumerate(self.aliases.order)}
        merged = attr_lines + loc_lines
        return sorted(merged, key=lambda line: index.get(line[1 : line.index(" ")], len(index)))

    def _location_alias_lines(self) -> list[tuple[str, str]]:
        names = self.aliases.loc_names
        wanted: dict[str, Attribute] = dict(self.aliases.used_locs)
        # aliases used inside other alias definitions
        stack = list(wanted.values())
        while stack:
            loc = stack.pop()
            for child in _loc_children(loc):
                n = names.get(child)
                if n is not None and n not in wanted:
                    wanted[n] = child
                    stack.append(child)
        order = list(names.values())
        index = {n: i for i, n in enumerate(order)}
        lines = []
        for n in sorted(wanted, key=lambda x: index.get(x, len(index))):
            lines.append((n, f"#{n} = loc({self._loc_inner(wanted[n], top=True)})\n"))
        return lines

    # -- operations -------------------------------------------------------------------------
    def w(self, s: str) -> None:
        self.out.append(s)

    def newline(self) -> None:
        self.out.append(self._line_start(self.indent))

    def _line_start(self, indent: int) -> str:
        """A new line indented `indent` levels: one string per level, shared by every line at that level
        (10,000 nested regions print 200 MB of indentation; built anew per line it was made twice)."""
        starts = self._line_starts
        indent = max(indent, 0)
        while len(starts) <= indent:
            starts.append("\n" + "  " * len(starts))
        return starts[indent]

    def print_op(self, op: Operation) -> None:
        # MLIR meets an op's location before what the op prints
        loc_text = self._op_location_text(op.location) if self._early_locations else None
        if op.results:
            self.w(self._result_binding(op) + " = ")
        name = op.name
        hook = None if self.o.generic else _custom_printers().get(name)
        if hook is not None:
            self.w("module" if name == "builtin.module" else self.spell(name))
            hook(self, op)
        else:
            fmt = None if self.o.generic else self._format_for(op)
            if fmt is not None:
                self.w(self.spell(name))
                self.print_with_format(op, fmt)
            else:
                self.print_generic(op)
        if loc_text is not None:
            self.w(loc_text)
        else:
            self.print_location(op.location)

    def _format_for(self, op: Operation) -> CompiledFormat | None:
        cls = type(op)
        fmt = self._formats.get(cls, _UNKNOWN)
        if fmt is _UNKNOWN:
            fmt = self._formats[cls] = self._compiled_format(cls, op, self._legacy_syntax(op))
            flags = [n for n, st in getattr(cls, "ATTR_STYLES", {}).items() if isinstance(st, UnitStyle)]
            if fmt is not None and flags and getattr(cls, "FORMAT_LEGACY", None):
                self._flag_formats[cls] = (flags, self._compiled_format(cls, op, True))
        if self._flag_formats:
            alt = self._flag_formats.get(cls)
            if alt is not None and any(self._non_unit_flag(op, a) for a in alt[0]):
                # a flag holding a BoolAttr (Triton 3.1's `allow_reorder = true`): the op is in its 3.1 form,
                # where every flag sits in the attribute dictionary
                return alt[1]
        return fmt

    def _legacy_syntax(self, op: Operation) -> bool:
        """Ops print in their Triton 3.1 syntax in 3.1 modules (and where the name keeps its old spelling)."""
        return (self.o.spelling is Spelling.LEGACY or self.spell(op.name) != op.name
                or self.o.variants.get("format." + op.name) == "legacy")

    def _compiled_format(self, cls: type, op: Operation, legacy: bool) -> CompiledFormat | None:
        try:
            return compiled_format(cls, legacy, self.o.variants.get("syntax") == "pre3.4")
        except Exception:  # an op class without a definition (unregistered)
            return None

    def spell(self, name: str) -> str:
        """`name` (current spelling) as this module writes it: the module's spelling, except a dialect the
        module wrote in its old name (Triton 3.3's `amdgpu.*` beside `ttg.*`)."""
        text = self._spelled.get(name)
        if text is None:
            text = self._spelled[name] = self._spell(name)
        return text

    def _spell(self, name: str) -> str:
        if name in FUNC_DEFAULT_DIALECT_OPS and not self.o.generic:
            return name.partition(".")[2]  # func.func's body has `func` as its default dialect
        if self.o.spelling is Spelling.CURRENT:
            dialect, dot, rest = name.partition(".")
            old = self.o.variants.get("dialect." + dialect)
            if old and dot:
                return f"{old}.{rest}"
            return name
        return spelled(name, self.o.spelling)

    def print_location(self, loc: Attribute) -> None:
        if not self.o.debuginfo:
            return
        hit = self._loc_text.get(id(loc))
        if hit is not None and hit[0] is loc:
            self.w(hit[1])
            return
        text = " loc(" + self._loc_inner(loc) + ")"  # (records the aliases it uses, once is enough)
        self._loc_text[id(loc)] = (loc, text)
        self.w(text)

    def _op_location_text(self, loc: Attribute) -> str:
        assert self.namer is not None
        hit = self._loc_text.get(id(loc))
        if hit is not None and hit[0] is loc:
            return hit[1]
        text = " loc(" + self.namer.ref(self.namer.visit(loc, deferrable=True)) + ")"
        self._loc_text[id(loc)] = (loc, text)
        return text

    def inline_location(self, loc: Attribute) -> str:
        """Block-argument locations: MLIR writes them out (children still by alias)
        and still defines the alias the location has."""
        if self.namer is not None:
            self.namer.visit(loc)  # not deferrable: the alias stands before the module
            return "loc(" + self._loc_inner(loc, top=True) + ")"
        name = self.aliases.loc_names.get(loc)
        if name is not None:
            self.aliases.used_locs.setdefault(name, loc)
        return "loc(" + self._loc_inner(loc, top=True) + ")"

    def _loc_inner(self, loc: Attribute, top: bool = False) -> str:
        if not top and self.namer is not None:
            i = self.namer.index.get(loc)  # met with the location holding it
            return self.namer.ref(i if i is not None else self.namer.visit(loc))
        if not top:
            name = self.aliases.loc_names.get(loc)
            if name is not None:
                self.aliases.used_locs.setdefault(name, loc)
                return "#" + name
        if isinstance(loc, UnknownLoc):
            return "unknown"
        if isinstance(loc, FileLineColLoc):
            return f"{quote_string(loc.filename.data)}:{loc.line.data}:{loc.column.data}"
        if isinstance(loc, NameLoc):
            if isinstance(loc.location, NoneAttr):
                return quote_string(loc.desc.data)
            return f"{quote_string(loc.desc.data)}({self._loc_inner(loc.location)})"
        if isinstance(loc, CallSiteLoc):
            return f"callsite({self._loc_inner(loc.callee)} at {self._loc_inner(loc.caller)})"
        if isinstance(loc, FusedLoc):
            meta = "" if isinstance(loc.metadata, NoneAttr) else f"<{self.attribute(loc.metadata)}>"
            return f"fused{meta}[" + ", ".join(self._loc_inner(x) for x in loc.locations.data) + "]"
        return "unknown"

    # -- value names ------------------------------------------------------------------------------
    def _result_binding(self, op: Operation) -> str:
        names = self.scopes[-1]
        if len(op.results) == 1:
            return "%" + names.values[op.results[0]]
        return ", ".join(f"%{n}" if k == 1 else f"%{n}:{k}" for n, k in names.groups[op])

    def value(self, v: SSAValue) -> str:
        for scope in reversed(self.scopes):
            n = scope.values.get(v)
            if n is not None:
                return "%" + n
        return "%<<UNKNOWN SSA VALUE>>"

    def values(self, vs: Any) -> str:
        return ", ".join(self.value(v) for v in vs)

    def block_name(self, block: Block) -> str:
        for scope in reversed(self.scopes):
            n = scope.blocks.get(block)
            if n is not None:
                return "^" + n
        return "^<<UNKNOWN BLOCK>>"

    # -- regions ------------------------------------------------------------------------------------
    def print_region(
        self,
        region: Region,
        entry_args: bool = True,
        terminators: bool = True,
        isolated: bool = False,
    ) -> None:
        """`{ ... }`; `entry_args=False` when the op prints the entry block's
        arguments itself (tt.func signature, scf.for induction variable)."""
        if isolated:
            names = ValueNames(self.o.mlir_value_names)
            names.number(region)
            self.scopes.append(names)
        self.w("{")
        blocks = list(region.blocks)
        self.indent += 1
        for i, block in enumerate(blocks):
            if i > 0 or (entry_args and len(block.args) > 0):
                self._block_header(block)
            ops = list(block.ops)
            if not terminators and ops and not ops[-1].operands and not ops[-1].results and _elidable_terminator(ops[-1]):
                ops = ops[:-1]
            for op in ops:
                self.newline()
                self.print_op(op)
        self.indent -= 1
        self.newline()
        self.w("}")
        if isolated:
            self.scopes.pop()

    def _block_header(self, block: Block) -> None:
        self.out.append(self._line_start(self.indent - 1))
        self.w(self.block_name(block))
        comment = self._predecessors_comment(block)
        if block.args:
            parts = []
            for a in block.args:
                s = f"{self.value(a)}: {self.type(a.type)}"
                if self.o.debuginfo:
                    s += " " + self.inline_location(a.location)
                parts.append(s)
            self.w("(" + ", ".join(parts) + ")")
        self.w(":")
        if comment:
            self.w("  " + comment)

    def _predecessors_comment(self, block: Block) -> str:
        region = block.parent
        if region is None or block is region.blocks.first:
            return ""
        preds: list[Block] = []
        for b in region.blocks:
            last = b.last_op
            if last is not None and block in last.successors and b not in preds:
                preds.append(b)
        if not preds:
            return "// no predecessors"
        names = ", ".join(self.block_name(b) for b in preds)
        return f"// pred: {names}" if len(preds) == 1 else f"// {len(preds)} preds: {names}"

    # -- generic form -------------------------------------------------------------------------------
    def print_generic(self, op: Operation) -> None:
        self.w(quote_string(self.spell(op.name if not hasattr(op, "op_name") else op.op_name.data)))
        operands = self.generic_operands(op)
        self.w("(" + self.values(operands) + ")")
        if op.successors:
            self.w("[" + ", ".join(self.block_name(b) for b in op.successors) + "]")
        props = dict(op.properties)
        if getattr(op, "LEGACY_NO_SEGMENTS", False) and self.spell(op.name) != op.name:
            props.pop("operandSegmentSizes", None)  # the op's Triton 3.1 definition has no segments
        since = getattr(op, "SEGMENTS_SINCE", None)
        if since is not None and self.o.release is not None and self.o.release < since:
            props.pop("resultSegmentSizes", None)  # that release's definition has no segments
        if props:
            self.w(" <" + self.attr_dict_text(props) + ">")
        if op.regions:
            self.w(" (")
            for i, r in enumerate(op.regions):
                if i:
                    self.w(", ")
                self.print_region(r, entry_args=True, terminators=True, isolated=is_isolated(op))
            self.w(")")
        attrs = dict(op.attributes)
        attrs.pop("op_name__", None)  # where xDSL's UnregisteredOp keeps its name
        if attrs:
            self.w(" " + self.attr_dict_text(attrs))
        ins = ", ".join(self.type(v.type) for v in operands)
        outs = [r.type for r in op.results]
        self.w(f" : ({ins}) -> " + self.result_types(outs))

    def generic_operands(self, op: Operation) -> list[SSAValue]:
        """The operands the generic form writes.  An op whose `CAPTURES_HERE_BEFORE` is after the release
        writes those of the op ending its last region (which then writes none), as that release defines them."""
        release = self.o.release
        if release is None:
            return list(op.operands)
        since = getattr(op, "CAPTURES_HERE_BEFORE", None)
        if since is not None and release < since and op.regions and op.regions[-1].blocks:
            holder = op.regions[-1].blocks.first.last_op
            return list(holder.operands) if holder is not None else []
        parent = op.parent_op()
        since = getattr(parent, "CAPTURES_HERE_BEFORE", None)
        if since is not None and release < since and parent is not None and op.parent_region() is parent.regions[-1]:
            return []
        return list(op.operands)

    def result_types(self, ts: list[Attribute]) -> str:
        if len(ts) == 1 and not isinstance(ts[0], FunctionType):
            return self.type(ts[0])
        return "(" + ", ".join(self.type(t) for t in ts) + ")"

    # -- format-driven custom form ----------------------------------------------------------------------
    def print_with_format(self, op: Operation, fmt: CompiledFormat) -> None:
        state = _SpaceState()
        self._emit(op, fmt, fmt.elements, state)

    def _present(self, op: Operation, v: Var) -> bool:
        if v.kind == "operand":
            x = getattr(op, v.name)
            if isinstance(x, tuple) or isinstance(x, list):
                return len(x) > 0
            return x is not None
        if v.kind == "all_operands":
            return len(op.operands) > 0
        if v.kind == "attr":
            return self._attr_value(op, v.name) is not None and not self._non_unit_flag(op, v.name)
        return True

    @staticmethod
    def _non_unit_flag(op: Operation, name: str) -> bool:
        """A UnitAttr flag of the format holding another value (Triton 3.1's `allow_reorder = false`
        BoolAttr): the format's keyword does not show it, the attribute dictionary does."""
        style = getattr(op, "ATTR_STYLES", {}).get(name)
        value = op.properties.get(name, op.attributes.get(name))
        return isinstance(style, UnitStyle) and value is not None and not isinstance(value, UnitAttr)

    def _attr_value(self, op: Operation, name: str) -> Attribute | None:
        if name in op.properties:
            return op.properties[name]
        return op.attributes.get(name)

    def _emit(self, op: Operation, fmt: CompiledFormat, elements: list[Any], s: _SpaceState, top: bool = True) -> None:
        for e in elements:
            kind = type(e)  # the element classes are final: `is` is the cheapest test
            if kind is Lit:
                s.literal(self, e.text)
            elif kind is Var:
                if e.kind == "operand":
                    x = _named(op, e.name)
                    text = self.values(x) if isinstance(x, (tuple, list)) else ("" if x is None else self.value(x))
                elif e.kind == "all_operands":
                    text = self.values(op.operands)
                else:
                    value = self._attr_value(op, e.name)
                    style = getattr(op, "ATTR_STYLES", {}).get(e.name, DEFAULT_STYLE)
                    text = "" if value is None or isinstance(value, UnitAttr) else style.print(self, value)
                if text or (top and e.kind != "attr"):
                    # OpFormatGen writes the space before an operand element outside optional groups even
                    # when it prints nothing (`ttg.local_alloc  : () -> ...`, `ttg.async_wait  {num = 0 : i32}`)
                    s.variable(self, text)
            elif kind is TypeOf:
                s.variable(self, self._types_text(op, e))
            elif kind is AttrDict and not op.properties and not op.attributes:
                pass  # nothing to print
            elif isinstance(e, FunctionalType):
                ins = self._named_types(op, e.inputs)
                outs = self._named_types(op, e.outputs)
                s.variable(self, "(" + ", ".join(self.type(t) for t in ins) + ") -> " + self.result_types(outs))
            elif isinstance(e, AttrDict):
                elided = {a for a in fmt.used_attrs if not self._non_unit_flag(op, a)}
                # segment sizes are inherent (properties) where the op has them; a discardable copy (Intel's
                # prefetch inherits its load's attributes) prints like any other attribute
                merged = {k: v for k, v in op.properties.items() if k not in elided and k not in _SEGMENTS}
                merged.update({k: v for k, v in op.attributes.items() if k not in elided})
                if merged:
                    prefix = " attributes " if e.with_keyword else " "
                    self.w(prefix + self.attr_dict_text(merged))
                    s.after_attr_dict()
            elif isinstance(e, Group):
                if self._present(op, e.anchor) if isinstance(e.anchor, Var) else self._types_present(op, e.anchor):
                    self._emit(op, fmt, e.elements, s, False)
            elif isinstance(e, OIList):
                for clause in e.clauses:
                    var = next((x for x in clause if isinstance(x, Var)), None)
                    if var is not None and self._present(op, var):
                        self._emit(op, fmt, clause, s)

    def _types_present(self, op: Operation, t: Any) -> bool:
        if isinstance(t, TypeOf):
            return len(self._named_types(op, t.name)) > 0
        return True

    def _named_types(self, op: Operation, name: str) -> list[Attribute]:
        if name == "operands":
            return [v.type for v in op.operands]
        if name == "results":
            return [r.type for r in op.results]
        x = _named(op, name)
        if isinstance(x, (tuple, list)):
            return [v.type for v in x]
        return [] if x is None else [x.type]

    def _types_text(self, op: Operation, e: TypeOf) -> str:
        stripped = getattr(op, "STRIPPED", {}).get(e.name)
        ts = self._named_types(op, e.name)
        if stripped is not None and not e.qualified:
            return ", ".join(self._stripped_type(t) for t in ts)
        return ", ".join(self.type(t) for t in ts)

    def _stripped_type(self, t: Attribute) -> str:
        hit = self._stripped_text.get(id(t))
        if hit is not None and hit[0] is t:
            return hit[1]
        text = self._type_body(t, stripped=True)
        self._stripped_text[id(t)] = (t, text)
        return text

    # -- attributes -------------------------------------------------------------------------------------
    def attr_dict_text(self, attrs: dict[str, Attribute]) -> str:
        parts = []
        for k in sorted(attrs):
            v = attrs[k]
            key = k if BARE_KEY.match(k) else quote_string(k)
            if isinstance(v, UnitAttr):
                parts.append(key)
            else:
                parts.append(f"{key} = {self.attribute(v)}")
        return "{" + ", ".join(parts) + "}"

    def attribute(self, a: Attribute) -> str:
        cached = self._attr_text.get(id(a))
        if cached is not None and cached[0] is a:
            return cached[1]
        text = self._attribute(a)
        if len(text) <= _MEMO_TEXT_CHARS:
            self._attr_text[id(a)] = (a, text)
        return text

    def _attribute(self, a: Attribute) -> str:
        namer = self.namer
        if namer is not None:
            i = namer.visit(a)
            if namer.entries[i].kind is not None:
                return namer.ref(i)
            return self._attr_body(a)
        name = self.aliases.attr_names.get(a)
        if name is None:
            prefix = alias_kind(a)
            if prefix is not None and prefix != "loc":  # locations print through print_location
                name = self._new_alias(prefix, a)
        if name is not None:
            self.aliases.used_attrs.setdefault(name, a)
            return "#" + name
        return self._attr_body(a)

    def _new_alias(self, prefix: str, a: Attribute) -> str:
        taken = set(self.aliases.attr_names.values()) | set(self.aliases.loc_names.values())
        name = prefix
        i = 0
        while name in taken:
            i += 1
            name = f"{prefix}{i}"
        self.aliases.attr_names[a] = name
        return name

    def _attr_body(self, a: Attribute) -> str:
        if (isinstance(a, IntegerAttr) and isinstance(a.type, IntegerType) and a.type.width.data == 1):
            return "true" if a.value.data else "false"
        if isinstance(a, IntegerAttr):
            return f"{a.value.data} : {self.type(a.type)}"
        if isinstance(a, FloatAttr):
            return f"{format_float(a.value.data, a.type)} : {self.type(a.type)}"
        if isinstance(a, StringAttr):
            return quote_string(a.data)
        if isinstance(a, ArrayAttr):
            return "[" + ", ".join(self.attribute(x) for x in a.data) + "]"
        if isinstance(a, DenseArrayBase):
            vals = a.get_values()
            et = self.type(a.elt_type)
            if not vals:
                return f"array<{et}>"
            if a.elt_type == IntegerType(1):
                items = ["true" if v else "false" for v in vals]
            elif isinstance(a.elt_type, IntegerType):
                items = [str(v) for v in vals]
            else:
                items = [format_float(v, a.elt_type) for v in vals]
            return f"array<{et}: " + ", ".join(items) + ">"
        if isinstance(a, DictionaryAttr):
            return self.attr_dict_text(dict(a.data))
        if isinstance(a, UnitAttr):
            return "unit"
        if isinstance(a, SymbolRefAttr):
            parts = [a.root_reference.data] + [r.data for r in a.nested_references.data]
            return "::".join(symbol(p) for p in parts)
        if isinstance(a, DenseElementsAttr):
            return f"dense<{a.body.data}> : {self.type(a.type)}"
        if isinstance(a, enc.StructLayoutAttr):
            fields = []
            kinds = dict(a.FIELDS)
            for k, v in a.values().items():
                fields.append(f"{k} = {self._struct_value(kinds[k], v)}")
            return f"#{self.spell(a.name)}<{{" + ", ".join(fields) + "}>"
        if isinstance(a, enc.SharedMemorySpaceAttr):
            return "#" + self.spell(a.name)
        if isinstance(a, enc.OpaqueAttr):
            return "#" + a.dialect_name.data + a.body.data
        if isinstance(a, LOCATION_TYPES):
            if self.o.debuginfo or self.namer is not None:
                return "loc(" + self._loc_inner(a) + ")"
            # without debuginfo no location alias is defined: write the location out
            saved, self.aliases.loc_names = self.aliases.loc_names, {}
            try:
                return "loc(" + self._loc_inner(a, top=True) + ")"
            finally:
                self.aliases.loc_names = saved
        return self.type(a)

    def _struct_value(self, kind: str, v: Any) -> str:
        if kind == enc.BOOL:
            return "true" if v else "false"
        if kind == enc.INT:
            return str(v)
        if kind == enc.INTS:
            return "[" + ", ".join(str(x) for x in v) + "]"
        if kind == enc.INTSS:
            return "[" + ", ".join("[" + ", ".join(str(x) for x in b) + "]" for b in v) + "]"
        return self.attribute(v)

    # -- types ----------------------------------------------------------------------------------------
    def type(self, t: Attribute) -> str:
        cached = self._attr_text.get(id(t))
        if cached is not None and cached[0] is t:
            return cached[1]
        if self.namer is not None:
            self.namer.visit(t)  # no type aliases in Triton's dialects, but what it holds may have some
            name = None
        else:
            name = self.aliases.type_names.get(t)
        if name is not None:
            self.aliases.used_types.setdefault(name, t)
            text = "!" + name
        else:
            text = self._type_body(t)
        if len(text) <= _MEMO_TEXT_CHARS:
            self._attr_text[id(t)] = (t, text)
        return text

    def _type_body(self, t: Attribute, stripped: bool = False) -> str:
        if isinstance(t, IntegerType):
            sign = {Signedness.SIGNLESS: "i", Signedness.SIGNED: "si", Signedness.UNSIGNED: "ui"}[t.signedness.data]
            return f"{sign}{t.width.data}"
        if isinstance(t, IndexType):
            return "index"
        if isinstance(t, NoneType):
            return "none"
        s = scalar_type_name(t)
        if s is not None:
            return s
        if isinstance(t, TensorType):
            dims = "".join(("?" if d == -1 else str(d)) + "x" for d in t.get_shape())
            encoding = "" if isinstance(t.encoding, NoneAttr) else ", " + self.attribute(t.encoding)
            return f"tensor<{dims}{self.type(t.element_type)}{encoding}>"
        if isinstance(t, VectorType):
            dims = "".join(str(d) + "x" for d in t.get_shape())
            return f"vector<{dims}{self.type(t.element_type)}>"
        if isinstance(t, PointerType):
            space = "" if t.address_space.data == 1 else f", {t.address_space.data}"
            body = f"<{self.type(t.pointee)}{space}>"
            return body if stripped else "!tt.ptr" + body
        if isinstance(t, MemDescType):
            dims = "".join(str(d) + "x" for d in t.get_shape())
            parts = [f"{dims}{self.type(t.element_type)}"]
            if not isinstance(t.encoding, NoneAttr):
                parts.append(self.attribute(t.encoding))
            if not isinstance(t.memory_space, NoneAttr):
                parts.append(self.attribute(t.memory_space))
            if t.is_mutable:
                parts.append("mutable")
            if not isinstance(t.alloc_shape, NoneAttr):
                parts.append("x".join(str(d.data) for d in t.alloc_shape.data))
            body = "<" + ", ".join(parts) + ">"
            return body if stripped else "!" + memdesc_prefix(self.o.spelling) + body
        if isinstance(t, TensorDescType):
            if t.wrapped.data:
                body = f"<{self.type(t.block_type)}>"
            else:
                full = self._type_body(t.block_type)
                body = "<" + full[len("tensor<") :]
            return body if stripped else "!tt.tensordesc" + body
        if isinstance(t, AsyncTokenType):
            return "!" + spelled("ttg.async.token", self.o.spelling)
        if isinstance(t, GpuAsyncTokenType):
            return "!gpu.async.token"
        if isinstance(t, OpaqueType):
            return "!" + t.dialect_name.data + self._verbatim_body(t.body.data)
        if isinstance(t, FunctionType):
            ins = ", ".join(self.type(x) for x in t.inputs.data)
            return f"({ins}) -> " + self.result_types(list(t.outputs.data))
        return str(t)


    def _verbatim_body(self, body: str) -> str:
        """A body irkit keeps as text, with each alias it names (by the input's name) under the name this
        printout gives that attribute."""
        values = self.aliases.input_values
        if "#" not in body or not values:
            return body

        def renamed(m: Any) -> str:
            attr = values.get(m.group(0)[1:])
            return m.group(0) if attr is None else self.attribute(attr)

        return ALIAS_USE.sub(renamed, body)


class _SpaceState:
    """MLIR's OpFormatGen spacing: `shouldEmitSpace` and `lastWasPunctuation`."""

    __slots__ = ("should_space", "last_punct")

    def __init__(self) -> None:
        self.should_space = True
        self.last_punct = False  # as OpFormatGen starts: `scf.condition(%c)`, no space before a leading `(`

    def literal(self, p: Printer, value: str) -> None:
        if value == "":
            self.should_space = False
            self.last_punct = True
            return
        if value == " ":  # OpFormatGen's genSpacePrinter: exactly one blank, none added before what follows
            p.w(" ")
            self.should_space = False
            self.last_punct = False
            return
        if self.should_space and _space_before(value, self.last_punct):
            p.w(" ")
        p.w(value)
        self.should_space = len(value) != 1 or value[0] not in "<({["
        self.last_punct = value[0] != "_" and not value[0].isalpha()

    def variable(self, p: Printer, text: str) -> None:
        if self.should_space or not self.last_punct:
            p.w(" ")
        p.w(text)
        self.last_punct = False
        self.should_space = True

    def after_attr_dict(self) -> None:
        self.last_punct = False
        self.should_space = True


def _space_before(value: str, last_punct: bool) -> bool:
    if len(value) != 1 and value != "->":
        return True
    if last_punct:
        return value[0] not in ">)}],"
    return value[0] not in "<>(){}[],"


def _loc_children(loc: Attribute) -> list[Attribute]:
    if isinstance(loc, NameLoc):
        return [] if isinstance(loc.location, NoneAttr) else [loc.location]
    if isinstance(loc, CallSiteLoc):
        return [loc.callee, loc.caller]
    if isinstance(loc, FusedLoc):
        return list(loc.locations.data)
    return []


_FIXED_SLOTS: dict[type, dict[str, tuple[bool, int]]] = {}


def _named(op: Operation, name: str) -> Any:
    """`getattr(op, name)` for an operand or result of the op's definition.  xDSL's
    accessor works out operand segments on every call; when every operand (or
    result) of the op is a single value, the position is fixed and read directly."""
    slots = _FIXED_SLOTS.get(type(op))
    if slots is None:
        slots = _FIXED_SLOTS[type(op)] = _fixed_slots(type(op))
    slot = slots.get(name)
    if slot is None:
        return getattr(op, name)
    is_result, index = slot
    return op.results[index] if is_result else op._operands[index]  # noqa: SLF001


def _fixed_slots(cls: type[Operation]) -> dict[str, tuple[bool, int]]:
    try:
        op_def = cls.get_irdl_definition()
    except Exception:  # an op class without an IRDL definition
        return {}
    slots: dict[str, tuple[bool, int]] = {}
    for is_result, defs in ((False, op_def.operands), (True, op_def.results)):
        if all(not isinstance(d, (VarOperandDef, VarResultDef)) for _, d in defs):
            for i, (n, _) in enumerate(defs):
                slots[n] = (is_result, i)
    return slots


def _custom_printers() -> dict:
    return custom_syntax.PRINTERS


def _elidable_terminator(op: Operation) -> bool:
    return op.name in ("scf.yield", "tt.reduce.return", "tt.scan.return")


def print_module(
    parsed: Any,
    debuginfo: bool = False,
    generic: bool = False,
    spelling: Spelling | None = None,
    input_aliases: bool = False,
    mlir_value_names: bool = False,
    release: tuple[int, int, int] | None = None,
) -> str:
    """Print a `ParsedModule` (or a bare ModuleOp) as text, as triton-opt prints it.

    Aliases are those triton-opt prints, named and ordered as it does (irkit/frontend/aliases.py), unless
    `input_aliases` keeps the names the input gave them.  Values keep the names the input wrote, or with
    `mlir_value_names` get triton-opt's (`%0`, `%arg0`, `%c0_i32`, `%cst`).  `release`: the Triton the text
    is for, when known (generic forms follow its op definitions; None: the newest)."""
    if isinstance(parsed, ParsedModule):
        aliases = AliasState(
            attr_names=dict(parsed.attr_aliases),
            loc_names=dict(parsed.loc_aliases),
            type_names=dict(parsed.type_aliases),
            top_locs=set(parsed.top_loc_aliases),
            order=list(parsed.alias_order),
            input_values=dict(parsed.alias_values),
        )
        module, implicit = parsed.module, parsed.implicit_module
        spelling = spelling or parsed.spelling
    else:
        aliases, module, implicit = AliasState(), parsed, False
        spelling = spelling or Spelling.CURRENT
    variants = dict(getattr(parsed, "variants", {}) or {})
    options = PrintOptions(debuginfo, generic, spelling, variants, "input" if input_aliases else "mlir",
                           mlir_value_names, release)
    printer = Printer(options, aliases)
    with gc_paused():
        return printer.module_text(module, implicit)


def operation_text(op: Operation, spelling: Spelling = Spelling.CURRENT) -> str:
    """One operation (with its regions) as MLIR's `Operation::print` gives it for an op inside a module: the
    values named as when the whole enclosing function is printed, attributes by alias name (no alias block).
    What test passes print next to their results (Triton's -test-print-alignment)."""
    printer = Printer(PrintOptions(spelling=spelling))
    scope = op.parent_op()
    while scope is not None and not is_isolated(scope):
        scope = scope.parent_op()
    if scope is not None:
        names = ValueNames()
        names.number(scope.regions[0])
        printer.scopes.append(names)
    printer.print_op(op)
    return "".join(printer.out)


class _InlinePrinter(Printer):
    """Attributes written out in full, as MLIR's diagnostics write them (no alias names)."""

    def _attribute(self, a: Attribute) -> str:
        return self._attr_body(a)

    def type(self, t: Attribute) -> str:
        return self._type_body(t)


def mlir_text(a: Attribute) -> str:
    """A type or attribute as MLIR writes it in a diagnostic (`tensor<4x!tt.ptr<f32>, #ttg.blocked<{...}>>`),
    never in xDSL's generic form (`#builtin.int<1>`, `none`)."""
    try:
        return _InlinePrinter(PrintOptions()).attribute(a)
    except Exception:  # noqa: BLE001 - a half-built attribute in a message: xDSL's text rather than none
        return _XDSL_STR(a)


_XDSL_STR = Attribute.__str__


@contextmanager
def mlir_messages() -> Iterator[None]:
    """Inside the block, `str(attribute)` (what verifiers put in their messages, xDSL's own included) is
    MLIR's text (mlir_text)."""
    saved = Attribute.__str__
    Attribute.__str__ = mlir_text  # type: ignore[method-assign]
    try:
        yield
    finally:
        Attribute.__str__ = saved  # type: ignore[method-assign]


__all__ = ["print_module", "operation_text", "Printer", "PrintOptions", "mlir_text"]
