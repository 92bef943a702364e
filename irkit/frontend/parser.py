"""Text -> xDSL IR for Triton's TTIR/TTGIR, in either dialect spelling.

The parser builds xDSL operations of irkit's IRDL classes directly.  It keeps
what a faithful printer needs and xDSL does not store: SSA name hints (as
`name_hint`), the alias names of attributes and locations, which location
aliases the file defined before the module, and the spelling.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from typing import Any

from xdsl.dialects.builtin import (
    DenseArrayBase,
    FunctionType,
    IntegerType,
    ModuleOp,
    UnknownLoc,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    VarOperandDef,
    VarResultDef,
)
from xdsl.parser.core import ForwardDeclaredValue
from xdsl.utils.exceptions import VerifyException

from irkit.dialects.registry import OPS
from irkit.frontend import (
    custom_syntax,
    gpu_syntax,  # noqa: F401  (registers the gpu.* parsers and printers)
)
from irkit.frontend.attributes import LOCATION_TYPES, AliasTable, AttrParser
from irkit.frontend.construct import gc_paused, new_op
from irkit.frontend.fastformat import fast_format, value_uses
from irkit.frontend.gpu_syntax import FUNC_DEFAULT_DIALECT_NAMES, LEGACY_OP_NAMES
from irkit.frontend.lexer import SSA_SUFFIX, Cursor, ParseError
from irkit.frontend.opformat import (
    DEFAULT_STYLE,
    AttrDict,
    CompiledFormat,
    FunctionalType,
    Group,
    Lit,
    OIList,
    TypeOf,
    Var,
    compiled_format,
)
from irkit.frontend.parsed import ParsedModule
from irkit.frontend.spelling import CURRENT_TO_LEGACY, Spelling
from irkit.names import set_exact_name

_NUMERIC = re.compile(r"\d+$")

# What one module may hold: parsed, a module takes about 20x its text in irkit-opt and 40x in
# irkit-report (100k ops, 11 MB of text: 198 MB and 455 MB peak), so 24 MiB keeps every tool under
# 1 GB on any input.  Real Triton kernels are well under 1 MiB; IRKIT_MAX_MODULE_MB changes it.
MAX_MODULE_CHARS = int(float(os.environ.get("IRKIT_MAX_MODULE_MB", "24")) * (1 << 20))
# `%name = dialect.op`: one result bound, then a custom-form op name
_ONE_RESULT_HEAD = re.compile(rf"%({SSA_SUFFIX})[ \t]*=[ \t]*([A-Za-z_][\w$.\-]*)")
# Triton 3.1-3.3 print an absent optional operand of these ops as a second blank (3.4 made it optional group)
_PRE34_SPACING = re.compile(r"\b(?:ttg|triton_gpu)\.(?:local_alloc|async_wait)  [:{]")


class _Scope:
    __slots__ = ("values", "isolated")

    def __init__(self, isolated: bool = False):
        self.values: dict[str, SSAValue] = {}
        self.isolated = isolated


class _VisibleValues:
    """The SSA names a use can see, as MLIR's parser keeps them: one flat map over the nested scopes (a name
    to its definitions, innermost last) and the depth of the innermost isolated scope, so that a lookup or
    a definition costs the same at any nesting depth (walking the scopes made 10,000 nested regions
    quadratic)."""

    __slots__ = ("scopes", "defs", "floors")

    def __init__(self) -> None:
        self.scopes: list[_Scope] = []
        self.defs: dict[str, list[tuple[int, SSAValue]]] = {}
        self.floors: list[int] = []  # depths of the isolated scopes, innermost last

    def push(self, scope: _Scope) -> None:
        if scope.isolated:
            self.floors.append(len(self.scopes))
        self.scopes.append(scope)

    def pop(self) -> None:
        scope = self.scopes.pop()
        for name in scope.values:
            defs = self.defs[name]
            defs.pop()
            if not defs:
                del self.defs[name]
        if scope.isolated:
            self.floors.pop()

    def get(self, name: str) -> SSAValue | None:
        """The definition of `name` a use in the innermost scope sees (none across an isolated scope)."""
        defs = self.defs.get(name)
        if defs is None:
            return None
        depth, value = defs[-1]
        return value if depth >= self.floors[-1] else None

    def define(self, name: str, value: SSAValue) -> None:
        depth = len(self.scopes) - 1
        self.scopes[-1].values[name] = value
        self.defs.setdefault(name, []).append((depth, value))


@dataclass
class _FormatState:
    operands: dict[str, list[tuple[str, int, int]]] = field(default_factory=dict)
    types: dict[str, list[Attribute]] = field(default_factory=dict)
    props: dict[str, Attribute] = field(default_factory=dict)
    attrs: dict[str, Attribute] = field(default_factory=dict)


class Parser:
    """Parses one MLIR text (one `// -----` chunk) into a `ParsedModule`."""

    def __init__(self, text: str, filename: str = "<stdin>", allow_unregistered: bool = False):
        self.text = text
        self.filename = filename
        self.allow_unregistered = allow_unregistered
        self.cur = Cursor(text)
        self.aliases = AliasTable(text)
        self.attrs = AttrParser(self.cur, self.aliases)
        self.visible = _VisibleValues()
        self.visible.push(_Scope(isolated=True))
        self.scopes = self.visible.scopes
        self.forward_values: dict[str, tuple[ForwardDeclaredValue, int, tuple[_Scope, ...]]] = {}
        self.block_scopes: list[dict[str, tuple[Block, int | None]]] = []
        # version-dependent spellings of one op seen in this file (printed back alike)
        self.variants: dict[str, str] = {}
        self.op_positions: dict[Operation, int] = {}
        # type text -> type, for the one-regex reading of op lines (per file: aliases differ)
        self._fast_types: dict[str, Attribute] = {}
        self._pending_loc: Attribute | None = None  # the location _fast_walk read with the op
        # op name as written -> (class, legacy spelling, custom parser): looked up once per name
        self._custom_ops: dict[str, tuple[type[Operation], bool, Any]] = {}

    # -- entry ------------------------------------------------------------------------
    def parse(self) -> ParsedModule:
        if len(self.cur.text) > MAX_MODULE_CHARS:
            raise ParseError(0, f"this module holds {len(self.cur.text) / (1 << 20):.0f} MiB of text; irkit parses at "
                                f"most {MAX_MODULE_CHARS >> 20} MiB in one module, to stay under 1 GB of memory "
                                f"(IRKIT_MAX_MODULE_MB changes it)")
        try:
            with gc_paused():
                return self._parse_text()
        except VerifyException as e:
            # xDSL checks attribute parameters when they are built; a value it
            # rejects that no check of ours caught is still bad input, not a bug
            raise ParseError(self.cur.pos, f"invalid attribute or type: {str(e).splitlines()[-1].strip()}") from None

    def _parse_text(self) -> ParsedModule:
        cur = self.cur
        top_ops: list[Operation] = []
        top_aliases: set[str] = set()
        seen_op = False
        while True:
            pos = cur.skip()
            if pos >= len(self.text):
                break
            c = self.text[pos]
            if c in "#!" and self._at_alias_definition(pos):
                key, end = self._alias_definition(pos)
                if not seen_op:
                    top_aliases.add(key)
                cur.pos = end
                continue
            if self.text.startswith("{-#", pos):
                end = self.text.find("#-}", pos)
                if end < 0:
                    raise ParseError(pos, "unterminated file-level metadata block '{-#'")
                cur.pos = end + 3
                continue
            top_ops.append(self.parse_operation())
            seen_op = True
        if self.forward_values:
            name, (_, upos, _) = next(iter(self.forward_values.items()))
            raise ParseError(upos, f"use of undeclared SSA value name '%{name}'")
        implicit = not (len(top_ops) == 1 and isinstance(top_ops[0], ModuleOp))
        if implicit:
            module = ModuleOp.create(regions=[Region(Block())])
            for op in top_ops:
                module.body.block.add_op(op)
        else:
            module = top_ops[0]
        return self._result(module, implicit, top_aliases)

    def _at_alias_definition(self, pos: int) -> bool:
        return re.compile(r"[#!][\w$.\-]+[ \t]*=", re.ASCII).match(self.text, pos) is not None

    def _alias_definition(self, pos: int) -> tuple[str, int]:
        m = re.compile(r"([#!][\w$.\-]+)[ \t]*=", re.ASCII).match(self.text, pos)
        assert m
        key = m.group(1)
        if self.aliases.starts.get(key, pos) != pos:
            raise ParseError(pos, f"redefinition of {'type' if key[0] == '!' else 'attribute'} alias id '{key[1:]}'")
        self.aliases.resolve(key, self.attrs, pos)
        return key, self.aliases.ends[key]

    def _result(self, module: ModuleOp, implicit: bool, top_aliases: set[str]) -> ParsedModule:
        from xdsl.dialects.builtin import CallSiteLoc, FileLineColLoc, FusedLoc, NameLoc

        loc_types = (UnknownLoc, FileLineColLoc, NameLoc, CallSiteLoc, FusedLoc)
        pm = ParsedModule(module, self._spelling(module), self.filename, implicit_module=implicit)
        pm.alias_order = [k[1:] for k in self.aliases.order]
        pm.text = self.text
        pm.op_positions = self.op_positions
        pm.variants = dict(self.variants)
        if pm.spelling is Spelling.CURRENT and (
            self.variants.get("ttg.async_commit_group") == "plain" or _PRE34_SPACING.search(self.text)
        ):
            pm.variants["syntax"] = "pre3.4"
        if pm.spelling is Spelling.CURRENT:
            # Triton 3.2/3.3 already write ttg.* but still amdgpu.* (amdg.* from 3.4 on); Intel's XPU backend
            # 3.3 writes ttg.* beside triton_intel_gpu.*: such a dialect prints back in its old name
            for dialect in self.attrs.legacy_dialects - self.attrs.current_dialects:
                pm.variants["dialect." + dialect] = CURRENT_TO_LEGACY[dialect]
        for key in self.aliases.order:
            value = self.aliases.values.get(key)
            if value is None:
                continue
            if key[0] == "!":
                pm.type_aliases.setdefault(value, key[1:])
            elif isinstance(value, loc_types):
                pm.loc_aliases.setdefault(value, key[1:])
                if key in top_aliases:
                    pm.top_loc_aliases.add(key[1:])
            else:
                pm.attr_aliases.setdefault(value, key[1:])
                pm.alias_values[key[1:]] = value
        return pm

    def _spelling(self, module: ModuleOp) -> Spelling:
        if self.attrs.saw_legacy and not self.attrs.saw_current:
            return Spelling.LEGACY
        if self.attrs.saw_current:
            return Spelling.CURRENT
        for key in module.attributes:
            if key.startswith(("triton_gpu.", "triton_intel_gpu.")):
                return Spelling.LEGACY
        return Spelling.CURRENT

    # -- values -------------------------------------------------------------------------
    def lookup(self, name: str, index: int, pos: int, type_hint: Attribute | None = None) -> SSAValue:
        v = self.visible.get(name)
        if v is not None:
            value = v if index == 0 and type(v) is not _Group else self._result_of(v, name, index, pos)
            if type_hint is not None and value.type is not type_hint and value.type != type_hint:
                # the type written at a use must be the value's type (MLIR's resolveOperand)
                from irkit.frontend.printer import mlir_text

                raise ParseError(pos, f"use of value '%{name}' expects different type than prior uses: "
                                      f"'{mlir_text(type_hint)}' vs '{mlir_text(value.type)}'")
            return value
        if index:
            raise ParseError(pos, f"use of undeclared SSA value name '%{name}#{index}'")
        if type_hint is None:
            raise ParseError(pos, f"use of undeclared SSA value name '%{name}'")
        fwd = self.forward_values.get(name)
        if fwd is None:
            # the scopes the use sits in: only a definition in one of them can resolve it
            fwd = (ForwardDeclaredValue(type_hint), pos, tuple(self.scopes))
            self.forward_values[name] = fwd
        return fwd[0]

    def _result_of(self, v: SSAValue, name: str, index: int, pos: int) -> SSAValue:
        if index == 0 and not isinstance(v, _Group):
            return v
        if isinstance(v, _Group):
            if index >= len(v.values):
                raise ParseError(pos, f"result number {index} out of range for '%{name}' ({len(v.values)} results)")
            return v.values[index]
        raise ParseError(pos, f"'%{name}' is a single value, not a result group")

    def define(self, name: str, value: SSAValue | _Group, pos: int) -> None:
        scope = self.scopes[-1]
        if self.visible.get(name) is not None:  # no shadowing of a value of an enclosing region either
            raise ParseError(pos, f"redefinition of SSA value '%{name}'")
        self.visible.define(name, value)
        fwd = self.forward_values.get(name)
        # A definition inside a nested region (an scf.for body defining the name its
        # own step used) does not resolve a use outside it: that use stays undeclared.
        if fwd is not None and any(s is scope for s in fwd[2]):
            del self.forward_values[name]
            real = value.values[0] if isinstance(value, _Group) else value
            if real.type != fwd[0].type:
                from irkit.frontend.printer import mlir_text

                raise ParseError(fwd[1], f"use of value '%{name}' expects different type than prior uses: "
                                         f"'{mlir_text(fwd[0].type)}' vs '{mlir_text(real.type)}'")
            fwd[0].replace_all_uses_with(real)

    # -- operations ------------------------------------------------------------------------
    def parse_operation(self) -> Operation:
        cur = self.cur
        results: list[tuple[str, int, int]] = []
        start = cur.skip()
        head = _ONE_RESULT_HEAD.match(self.text, start)
        if head is not None:
            # `%x = dialect.op`, most lines: one regular expression for what the general path reads
            results.append((head.group(1), 1, start))
            num_results = 1
            name_pos = head.start(2)
            cur.pos = head.end()
            op = self._custom_operation(head.group(2), name_pos, 1)
        elif cur.peek() == "%":
            while True:
                pos = cur.skip()
                d = cur.try_value_def()
                if d is None:
                    raise cur.error("expected SSA value name")
                results.append((d[0], d[1], pos))
                if not cur.try_lit(","):
                    break
            cur.expect("=", "after result names")
        if head is not None:
            pass
        elif cur.peek() == '"':
            num_results = sum(n for _, n, _ in results)
            name_pos = cur.skip()
            op = self._generic_operation()
        else:
            num_results = sum(n for _, n, _ in results)
            name_pos = cur.skip()
            raw = cur.try_bare_id()
            if raw is None:
                raise cur.error(f"expected operation name, found {cur._describe_next()}")
            op = self._custom_operation(raw, name_pos, num_results if results else None)
        loc = self._pending_loc
        if loc is None:
            loc = self.attrs.try_location()
        else:
            self._pending_loc = None
        if loc is not None:
            op.location = loc
        self.op_positions[op] = name_pos
        if results:
            if num_results != len(op.results):
                raise ParseError(
                    start,
                    f"operation defines {len(op.results)} results but was provided {num_results} to bind",
                )
            if head is not None and num_results == 1:  # `%x = ...`: the loop below, for one result
                r = op.results[0]
                name = results[0][0]
                if not _NUMERIC.match(name):
                    set_exact_name(r, name)
                self.define(name, r, start)
                return op
            i = 0
            for name, count, pos in results:
                group = list(op.results[i : i + count])
                for r in group:
                    if not _NUMERIC.match(name):
                        set_exact_name(r, name)
                self.define(name, group[0] if count == 1 else _Group(group), pos)
                i += count
        return op

    def _op_class(self, raw: str, pos: int, custom: bool) -> tuple[type[Operation] | None, bool]:
        upstream = FUNC_DEFAULT_DIALECT_NAMES.get(raw) or LEGACY_OP_NAMES.get(raw, raw)  # `return`, MLIR 14's `func`
        name = "builtin.module" if raw == "module" else self.attrs.canonical(upstream)
        legacy = name != raw and raw != "module"
        cls = OPS.get(name)
        if cls is None and not self.allow_unregistered:
            if custom:
                raise ParseError(pos, f"custom op '{raw}' is unknown")
            raise ParseError(pos, f"unregistered operation '{raw}' found in generic form (use --allow-unregistered-dialect)")
        return cls, legacy

    def _custom_operation(self, raw: str, pos: int, num_results: int | None) -> Operation:
        known = self._custom_ops.get(raw)
        if known is None:
            cls, legacy = self._op_class(raw, pos, custom=True)
            if cls is None:
                raise ParseError(pos, f"custom op '{raw}' is unknown (unregistered ops must use the generic form)")
            known = self._custom_ops[raw] = (cls, legacy, custom_syntax.PARSERS.get(cls.name))
        cls, legacy, hook = known
        if hook is not None:
            return hook(self, cls, legacy, num_results)
        fmt = compiled_format(cls, legacy)
        if fmt is None:
            raise ParseError(pos, f"'{raw}' has no custom assembly form; write it in generic form")
        if legacy or getattr(cls, "FORMAT_LEGACY", None) is None:
            return self.parse_with_format(cls, fmt, num_results)
        start = self.cur.pos
        try:
            return self.parse_with_format(cls, fmt, num_results)
        except ParseError:
            # Some ops went back to their older format under the new spelling (the AMD buffer ops: 3.9 writes
            # `: !tt.ptr<f16> -> tensor<..>`, 3.4-3.8 and main `cacheModifier = cg : tensor<..>`): read the
            # other one, and print the module's ops the way it wrote them
            self.cur.pos = start
            try:
                op = self.parse_with_format(cls, compiled_format(cls, True), num_results)
            except ParseError:
                self.cur.pos = start
                return self.parse_with_format(cls, fmt, num_results)
            self.variants["format." + cls.name] = "legacy"
            return op

    # -- generic form --------------------------------------------------------------------------
    def _generic_operation(self) -> Operation:
        cur = self.cur
        pos = cur.skip()
        raw = cur.string()
        cls, _ = self._op_class(raw, pos, custom=False)
        cur.expect("(", "to start operand list")
        uses: list[tuple[str, int, int]] = []
        if not cur.try_lit(")"):
            while True:
                upos = cur.skip()
                u = cur.value_use()
                uses.append((u[0], u[1], upos))
                if cur.try_lit(")"):
                    break
                cur.expect(",", "or ')' in operand list")
        successors: list[Block] = []
        if cur.try_lit("["):
            while True:
                spos = cur.skip()
                b = cur.try_block_id()
                if b is None:
                    raise cur.error("expected block reference")
                successors.append(self.block_ref(b, spos))
                if cur.try_lit("]"):
                    break
                cur.expect(",")
        props: dict[str, Attribute] = {}
        if cur.peek(2) == "<{":
            cur.expect("<")
            props = self.attrs.parse_attr_entries("{", "}")
            cur.expect(">")
        regions: list[Region] = []
        if cur.peek(2) in ("({", "( "):
            save = cur.pos
            cur.expect("(")
            if cur.peek() == "{":
                while True:
                    regions.append(self.parse_region())
                    if cur.try_lit(")"):
                        break
                    cur.expect(",")
            else:
                cur.pos = save
        attrs: dict[str, Attribute] = {}
        if cur.peek() == "{":
            attrs = self.attrs.parse_attr_entries("{", "}")
        cur.expect(":", "before the generic op's function type")
        tpos = cur.skip()
        ftype = self.attrs.parse_type("function type")
        if not isinstance(ftype, FunctionType):
            raise ParseError(tpos, "expected a function type '(...) -> (...)'")
        inputs = list(ftype.inputs.data)
        if len(inputs) != len(uses):
            raise ParseError(tpos, f"expected {len(uses)} operand types, got {len(inputs)}")
        operands = [self.lookup(n, i, p, t) for (n, i, p), t in zip(uses, inputs)]
        for (n, _, p), v, t in zip(uses, operands, inputs):
            if v.type != t:
                from irkit.frontend.printer import mlir_text

                raise ParseError(p, f"use of value '%{n}' expects different type than prior uses: "
                                    f"'{mlir_text(t)}' vs '{mlir_text(v.type)}'")
        result_types = list(ftype.outputs.data)
        if cls is None:
            from xdsl.dialects.builtin import UnregisteredOp
            from xdsl.ir import Operation as _Op  # noqa: F401

            op_cls = UnregisteredOp.with_name(raw)
            return op_cls.create(
                operands=operands, result_types=result_types, properties=props,
                attributes=attrs, successors=successors, regions=regions,
            )
        declared = cls.get_irdl_definition().properties
        # inherent attributes written in the attribute dictionary (pre-properties style)
        for k in list(attrs):
            if k in declared and k not in props:
                props[k] = attrs.pop(k)
        for k in list(props):
            if k not in declared:
                attrs[k] = props.pop(k)
        if getattr(cls, "CAPTURES_HERE_BEFORE", None) and operands and regions and regions[-1].blocks:
            # an older release's form: the captures go to the op ending the last region (its partitions op)
            holder = regions[-1].blocks.first.last_op
            if holder is not None and not holder.operands:
                holder.operands = operands
                operands = []
        if getattr(cls, "SEGMENTS_SINCE", None) and "resultSegmentSizes" not in props:
            # an older release's definition without segments: its results are the leading defs, one value each
            n_defs = len(cls.get_irdl_definition().results)
            props["resultSegmentSizes"] = _segment_sizes((1,) * len(result_types) + (0,) * (n_defs - len(result_types)))
        return cls.create(
            operands=operands, result_types=result_types, properties=props,
            attributes=attrs, successors=successors, regions=regions,
        )

    # -- format-driven custom form ----------------------------------------------------------------
    def parse_with_format(self, cls: type[Operation], fmt: CompiledFormat, num_results: int | None) -> Operation:
        st = self._fast_walk(cls, fmt)
        if st is None:
            st = _FormatState()
            self._walk(fmt.elements, st, cls)
        return self.build(cls, st, num_results)

    def _fast_walk(self, cls: type[Operation], fmt: CompiledFormat) -> _FormatState | None:
        """What _walk collects, read from one regular-expression match of the whole op
        (irkit.frontend.fastformat); None when the line needs the interpreter."""
        fast = fast_format(cls, fmt)
        if fast is None:
            return None
        cur = self.cur
        start = cur.pos
        m = fast.regex.match(self.text, start)
        if m is None:
            return None
        st = _FormatState()
        types = self._fast_types
        try:
            for slot in fast.slots:
                g = slot.group
                kind = slot.kind
                if kind == "operand":
                    text, pos = m.group(g), m.start(g)
                    name, _, number = text[1:].partition("#")
                    st.operands[slot.name] = [(name, int(number) if number else 0, pos)]
                elif kind == "type":
                    text = m.group(g)
                    t = types.get(text)
                    if t is None:
                        cur.pos = m.start(g)
                        t = self.attrs.parse_type()
                        if cur.pos != m.end(g):
                            cur.pos = start
                            return None
                        types[text] = t
                    st.types[slot.name] = [t]
                elif kind == "operands":
                    st.operands[slot.name] = value_uses(m.group(g), m.start(g))
                elif kind == "attr":
                    cur.pos = m.start(g)
                    st.props[slot.name] = cls.ATTR_STYLES[slot.name].parse(self)
                    if cur.pos != m.end(g):
                        cur.pos = start
                        return None
                elif m.group(g) is not None:  # attr-dict
                    cur.pos = m.start(g)
                    st.attrs.update(self.attrs.parse_attr_entries("{", "}"))
                    if cur.pos != m.end(g):
                        cur.pos = start
                        return None
            end = m.end()
            alias = m.group(fast.loc_alias_group)
            if alias is not None:  # `loc(#alias)` after the op, read in the same match
                loc = self.aliases.resolve(alias, self.attrs, m.start(fast.loc_alias_group))
                if isinstance(loc, LOCATION_TYPES):
                    self._pending_loc = loc
                else:
                    end = m.start("loc")  # not a location: the location parser says so
        except ParseError:
            cur.pos = start  # the interpreter reports it, with its own message
            return None
        cur.pos = end
        return st

    def _walk(self, elements: list[Any], st: _FormatState, cls: type[Operation]) -> None:
        cur = self.cur
        for e in elements:
            kind = type(e)  # the element classes are final: `is` is the cheapest test
            if kind is Lit:
                if e.text.strip():  # `` ` ` `` (a blank) only spaces the printout
                    cur.expect(e.text)
            elif kind is Var:
                if e.kind == "operand" or e.kind == "all_operands":
                    if e.variadic and not e.optional:
                        st.operands[e.name] = self._use_list()
                    else:
                        pos = cur.skip()
                        u = cur.try_value_use() if e.optional else cur.value_use()
                        st.operands[e.name] = [] if u is None else [(u[0], u[1], pos)]
                elif e.kind == "attr":
                    style = cls.ATTR_STYLES.get(e.name, DEFAULT_STYLE) if hasattr(cls, "ATTR_STYLES") else DEFAULT_STYLE
                    value = style.parse(self)
                    st.props[e.name] = value
                else:
                    raise cur.error(f"cannot parse result '{e.name}' in operand position")
            elif kind is TypeOf:
                st.types[e.name] = self._types_for(e.name, st, cls)
            elif isinstance(e, FunctionalType):
                cur.expect("(")
                ins: list[Attribute] = []
                if not cur.try_lit(")"):
                    ins.append(self.attrs.parse_type())
                    while cur.try_lit(","):
                        ins.append(self.attrs.parse_type())
                    cur.expect(")")
                cur.expect("->")
                outs = self.attrs.parse_result_types()
                st.types[e.inputs] = ins
                st.types[e.outputs] = outs
            elif isinstance(e, AttrDict):
                if e.with_keyword:
                    if cur.try_lit("attributes"):
                        st.attrs.update(self.attrs.parse_attr_entries("{", "}"))
                elif cur.peek() == "{":
                    st.attrs.update(self.attrs.parse_attr_entries("{", "}"))
            elif isinstance(e, Group):
                if self._group_present(e, cls):
                    self._walk(e.elements, st, cls)
            elif isinstance(e, OIList):
                done: set[int] = set()
                progress = True
                while progress:
                    progress = False
                    for i, clause in enumerate(e.clauses):
                        if i in done:
                            continue
                        first = clause[0]
                        if isinstance(first, Lit) and cur.try_lit(first.text):
                            self._walk(clause[1:], st, cls)
                            done.add(i)
                            progress = True
            else:  # pragma: no cover - compile_format produces only the above
                raise cur.error(f"unsupported format element {e}")

    def _group_present(self, g: Group, cls: type[Operation]) -> bool:
        cur = self.cur
        first = g.elements[0]
        if isinstance(first, Lit):
            save = cur.pos
            if first.text and cur.try_lit(first.text):
                cur.pos = save
                return True
            return False
        if isinstance(first, Var):
            if first.kind in ("operand", "all_operands"):
                return cur.peek() == "%"
            style = cls.ATTR_STYLES.get(first.name, DEFAULT_STYLE) if hasattr(cls, "ATTR_STYLES") else DEFAULT_STYLE
            return style.starts_here(self)
        return False

    def _use_list(self) -> list[tuple[str, int, int]]:
        cur = self.cur
        out: list[tuple[str, int, int]] = []
        if cur.peek() != "%":
            return out
        while True:
            pos = cur.skip()
            u = cur.value_use()
            out.append((u[0], u[1], pos))
            save = cur.pos
            if cur.try_lit(",") and cur.peek() == "%":
                continue
            cur.pos = save
            return out

    def _types_for(self, name: str, st: _FormatState, cls: type[Operation]) -> list[Attribute]:
        cur = self.cur
        stripped = getattr(cls, "STRIPPED", {}).get(name) or getattr(cls, "READ_STRIPPED", {}).get(name)
        if name in ("operands", "results"):
            count = sum(len(v) for v in st.operands.values()) if name == "operands" else None
        else:
            kind = _type_slot(cls, name)
            if kind == "operand":
                count = len(st.operands.get(name, []))
            elif kind == "single":
                count = 1
            elif kind == "var_result":
                count = None
            else:
                raise cur.error(f"format refers to unknown '{name}'")
        if count == 1:
            return [self._one_type(stripped)]
        out: list[Attribute] = []
        if count == 0:
            return out
        out.append(self._one_type(stripped))
        while (count is None or len(out) < count):
            save = cur.pos
            if not cur.try_lit(","):
                break
            t = self.attrs.try_type() if stripped is None else self._maybe_type(stripped)
            if t is None:
                cur.pos = save
                break
            out.append(t)
        return out

    def _maybe_type(self, stripped: str) -> Attribute | None:
        if self.cur.peek() in ("<", "!", "t", "i", "f", "b", "("):
            return self._one_type(stripped)
        return None

    def _one_type(self, stripped: str | None) -> Attribute:
        cur = self.cur
        if stripped is not None and cur.peek() == "<":
            prefix = stripped
            if stripped == "ttg.memdesc":
                prefix = "ttg.memdesc"
            return self.attrs.dialect_type(prefix, prefix, stripped=True)
        return self.attrs.parse_type()

    def build(self, cls: type[Operation], st: _FormatState, num_results: int | None) -> Operation:
        """Create the op from what the format walk collected."""
        plan = _build_plan(cls)
        operands: list[SSAValue] = []
        sizes: list[int] = []
        types = st.types
        all_uses = st.operands.get("operands")
        if all_uses is not None:
            hint = types.get("operands", [])
            flat = [self.lookup(n, i, p, hint[k] if k < len(hint) else None) for k, (n, i, p) in enumerate(all_uses)]
            at = 0
            for oname, variadic in plan.operands:
                n = len(flat) - plan.singles if variadic else 1
                vals = flat[at : at + n]
                at += n
                operands.extend(vals)
                sizes.append(len(vals))
                types[oname] = [v.type for v in vals]
        else:
            lookup = self.lookup
            for oname, variadic in plan.operands:
                uses = st.operands.get(oname, ())
                hint = types.get(oname, ())
                if not variadic and len(uses) == 1:  # the common case of the general lines below
                    n, i, p = uses[0]
                    v = lookup(n, i, p, hint[0] if hint else None)
                    operands.append(v)
                    sizes.append(1)
                    types[oname] = [v.type]
                    continue
                vals = [lookup(n, i, p, hint[k] if k < len(hint) else None) for k, (n, i, p) in enumerate(uses)]
                if not variadic and len(vals) != 1:
                    raise self.cur.error(f"missing operand '{oname}' of {cls.name}")
                operands.extend(vals)
                sizes.append(len(vals))
                types[oname] = [v.type for v in vals]
            written = types.get("operands")  # `functional-type(operands, ...)` over named operands
            if written is not None:
                self._check_written_types(plan, st, operands, written)
        if plan.infers:
            cls.infer_types(types)
        result_types: list[Attribute] = []
        all_results = types.get("results")
        if all_results is not None:
            result_types = list(all_results)
        else:
            for rname, variadic in plan.results:
                ts = types.get(rname)
                if ts is None:
                    if variadic:
                        ts = []
                    else:
                        raise self.cur.error(f"cannot infer the type of result '{rname}' of {cls.name}")
                result_types.extend(ts)
        props = dict(st.props)
        attrs: dict[str, Attribute] = {}
        declared = plan.properties
        for k, v in st.attrs.items():
            if k in declared:
                props[k] = v
            else:
                attrs[k] = v
        if plan.segments:
            props["operandSegmentSizes"] = _segment_sizes(tuple(sizes))
        return new_op(cls, operands, result_types, props, attrs, owned=True)

    def _check_written_types(self, plan: _BuildPlan, st: _FormatState, operands: list[SSAValue],
                             written: list[Attribute]) -> None:
        """Each operand's type against the one the functional type writes for it (MLIR resolves the
        operands with those types: a use of another type is an error)."""
        uses = [u for oname, _ in plan.operands for u in st.operands.get(oname, ())]
        if len(written) != len(operands):
            raise self.cur.error(f"{len(operands)} operands present, but expected {len(written)}")
        for (name, _, pos), value, t in zip(uses, operands, written):
            if value.type is not t and value.type != t:
                from irkit.frontend.printer import mlir_text

                raise ParseError(pos, f"use of value '%{name}' expects different type than prior uses: "
                                      f"'{mlir_text(t)}' vs '{mlir_text(value.type)}'")

    # -- regions and blocks ---------------------------------------------------------------------------
    def parse_region(
        self,
        entry_args: list[tuple[str, Attribute, Attribute | None, int]] | None = None,
        isolated: bool = False,
    ) -> Region:
        """`{ ops }` or `{ ^bb0(...): ops ^bb1: ... }`; `entry_args` are defined by the op."""
        cur = self.cur
        cur.expect("{", "to begin a region")
        self.visible.push(_Scope(isolated=isolated))
        self.block_scopes.append({})
        region = Region()
        try:
            if cur.try_lit("}"):
                if entry_args:
                    block = Block(arg_types=[t for _, t, _, _ in entry_args])
                    self._name_args(block, entry_args)
                    region.add_block(block)
                return region
            block: Block | None = None
            if cur.peek() != "^":
                block = Block(arg_types=[t for _, t, _, _ in (entry_args or [])])
                self._name_args(block, entry_args or [])
                region.add_block(block)
            elif entry_args:
                raise cur.error("entry block arguments are defined by the operation; no label expected")
            while True:
                pos = cur.skip()
                if cur.try_lit("}"):
                    break
                if self.text.startswith("^", pos):
                    block = self._block_header()
                    region.add_block(block)
                    continue
                if block is None:  # pragma: no cover - handled above
                    raise cur.error("expected block")
                block.add_op(self.parse_operation())
            for label, (blk, upos) in self.block_scopes[-1].items():
                if blk.parent is None:
                    raise ParseError(upos or cur.pos, f"reference to an undefined block '^{label}'")
            return region
        finally:
            self.visible.pop()
            self.block_scopes.pop()

    def _name_args(self, block: Block, args: list[tuple[str, Attribute, Attribute | None, int]]) -> None:
        for arg, (name, _, loc, pos) in zip(block.args, args):
            if loc is not None:
                arg.location = loc
            if name and not _NUMERIC.match(name):
                set_exact_name(arg, name)
            self.define(name, arg, pos)

    def block_ref(self, label: str, pos: int) -> Block:
        scope = self.block_scopes[-1] if self.block_scopes else None
        if scope is None:
            raise ParseError(pos, "block reference outside a region")
        entry = scope.get(label)
        if entry is None:
            entry = (Block(), pos)
            scope[label] = entry
        return entry[0]

    def _block_header(self) -> Block:
        cur = self.cur
        pos = cur.skip()
        label = cur.try_block_id()
        if label is None:
            raise ParseError(pos, "expected block name after '^'")
        scope = self.block_scopes[-1]
        entry = scope.get(label)
        if entry is not None and entry[0].parent is not None:
            raise ParseError(pos, f"redefinition of block '^{label}'")
        block = entry[0] if entry is not None else Block()
        scope[label] = (block, None)
        block.name_hint = label if not _NUMERIC.match(label) else None
        if cur.peek() == "(":
            args = self.typed_args("block argument")
            for _, t, _, _ in args:
                block.insert_arg(t, len(block.args))
            self._name_args(block, args)
        cur.expect(":", "after block label")
        return block

    # -- helpers for custom syntax ---------------------------------------------------------------------
    def typed_args(self, what: str) -> list[tuple[str, Attribute, Attribute | None, int]]:
        """`(%a: T loc(...), ...)`: (name, type, location or None, offset) of each."""
        cur = self.cur
        cur.expect("(")
        args: list[tuple[str, Attribute, Attribute | None, int]] = []
        if cur.try_lit(")"):
            return args
        while True:
            apos = cur.skip()
            d = cur.try_value_def()
            if d is None or ":" in cur.text[apos : cur.pos]:
                raise ParseError(apos, f"expected a {what} '%name: type'")
            cur.expect(":")
            t = self.attrs.parse_type()
            args.append((d[0], t, self.attrs.try_location(), apos))
            if cur.try_lit(")"):
                return args
            cur.expect(",")

    def operand(self, type_hint: Attribute | None = None) -> SSAValue:
        pos = self.cur.skip()
        n, i = self.cur.value_use()
        return self.lookup(n, i, pos, type_hint)

    def optional_attr_dict(self) -> dict[str, Attribute]:
        if self.cur.peek() == "{":
            return self.attrs.parse_attr_entries("{", "}")
        return {}


@dataclass(frozen=True)
class _BuildPlan:
    """What build() needs from an op's IRDL definition, worked out once per class."""

    operands: tuple[tuple[str, bool], ...]  # (name, variadic or optional)
    singles: int  # operands that are neither
    results: tuple[tuple[str, bool], ...]
    properties: frozenset[str]
    segments: bool  # AttrSizedOperandSegments
    infers: bool  # has an infer_types classmethod (irkit's ops; not xDSL's own)


_BUILD_PLANS: dict[type, _BuildPlan] = {}
_SEGMENT_SIZES: dict[tuple[int, ...], Attribute] = {}


def _build_plan(cls: type[Operation]) -> _BuildPlan:
    plan = _BUILD_PLANS.get(cls)
    if plan is None:
        op_def = cls.get_irdl_definition()
        operands = tuple((n, isinstance(d, VarOperandDef)) for n, d in op_def.operands)
        plan = _BuildPlan(
            operands=operands,
            singles=sum(1 for _, variadic in operands if not variadic),
            results=tuple((n, isinstance(d, VarResultDef)) for n, d in op_def.results),
            properties=frozenset(op_def.properties),
            segments=any(isinstance(o, AttrSizedOperandSegments) for o in op_def.options),
            infers=hasattr(cls, "infer_types"),
        )
        _BUILD_PLANS[cls] = plan
    return plan


def _segment_sizes(sizes: tuple[int, ...]) -> Attribute:
    attr = _SEGMENT_SIZES.get(sizes)
    if attr is None:
        attr = _SEGMENT_SIZES[sizes] = DenseArrayBase.from_list(IntegerType(32), list(sizes))
    return attr


_TYPE_SLOTS: dict[tuple[type, str], str] = {}


def _type_slot(cls: type[Operation], name: str) -> str:
    """What `type($name)` of `cls` reads: "single" (one operand or result), "operand"
    (a variadic operand: as many types as operands), "var_result", or "unknown"."""
    key = (cls, name)
    kind = _TYPE_SLOTS.get(key)
    if kind is None:
        op_def = cls.get_irdl_definition()
        res = dict(op_def.results)
        opnds = dict(op_def.operands)
        if name in opnds:
            kind = "operand" if isinstance(opnds[name], VarOperandDef) else "single"
        elif name in res:
            kind = "var_result" if isinstance(res[name], VarResultDef) else "single"
        else:
            kind = "unknown"
        _TYPE_SLOTS[key] = kind
    return kind


class _Group:
    """The results `%x:3` bind: `%x#0`, `%x#1`, ..."""

    __slots__ = ("values",)

    def __init__(self, values: list[SSAValue]):
        self.values = values

    @property
    def type(self) -> Attribute:  # for forward-reference checks
        return self.values[0].type


def parse_text(text: str, filename: str = "<stdin>", allow_unregistered: bool = False) -> ParsedModule:
    """Parse MLIR text; raises ParseError (with the offset of the problem)."""
    return Parser(text, filename, allow_unregistered).parse()


def parse_file(path: str, allow_unregistered: bool = False) -> ParsedModule:
    """Parse a .ttir/.ttgir/.mlir file (gzip is fine)."""
    from irkit.frontend.dumplog import read_text

    return parse_text(read_text(path), str(path), allow_unregistered)


def split_input_file(text: str) -> list[tuple[str, int]]:
    """Chunks separated by `// -----` lines, with the line number each starts at."""
    chunks: list[tuple[str, int]] = []
    line = 1
    for part in re.split(r"^// -----[^\n]*$", text, flags=re.MULTILINE):
        chunks.append((part, line))
        line += part.count("\n")
    return chunks


__all__ = ["Parser", "split_input_file"]
