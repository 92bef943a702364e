"""MLIR's declarative assembly format, interpreted.

Each irkit op class carries `FORMAT`, written exactly as the `assemblyFormat`
of Triton's TableGen definition (`$ptr (`,` $mask^)? ... attr-dict `:`
type($ptr)`).  This module compiles such a string once per class into a small
element tree, and the parser and printer walk that tree.  Spacing follows
MLIR's generated printers (OpFormatGen), so printed lines match triton-opt's.

Extras an op class may declare next to `FORMAT`:
  ATTR_STYLES: how a `$attr` element reads and writes (enum keywords, bare ints)
  STRIPPED:    operands/results whose `type(...)` prints without the dialect
               prefix (`: <tensor<...>>`), as MLIR does for dialect-specific
               type constraints; both forms parse.
  infer_types: a classmethod filling types the format does not spell out.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from xdsl.dialects.builtin import IntegerAttr, IntegerType
from xdsl.ir import Attribute, Operation
from xdsl.irdl import (
    OptOperandDef,
    OptResultDef,
    VarOperandDef,
    VarResultDef,
)

from irkit.frontend.construct import integer_attr

# -- elements -------------------------------------------------------------------------


@dataclass
class Lit:
    text: str


@dataclass
class Var:
    name: str
    kind: str = ""  # operand | result | attr ; resolved at bind time
    variadic: bool = False
    optional: bool = False


@dataclass
class TypeOf:
    name: str  # operand/result name, or "operands" / "results"
    qualified: bool = False


@dataclass
class FunctionalType:
    inputs: str
    outputs: str


@dataclass
class AttrDict:
    with_keyword: bool = False


@dataclass
class Group:
    elements: list[Any]
    anchor: Any = None


@dataclass
class OIList:
    clauses: list[list[Any]]


@dataclass
class CompiledFormat:
    elements: list[Any]
    # names whose values the format prints outside attr-dict (elided there)
    used_attrs: set[str] = field(default_factory=set)


_TOKEN = re.compile(
    r"\s*(?:(`[^`]*`)|(\$[\w]+\^?)|(attr-dict-with-keyword|attr-dict)|(functional-type)\(|"
    r"(qualified)\(|(type)\(|(oilist)\(|(\()|(\)\??)|(\|)|(,)|(\^)|(operands)\b)"
)


class FormatError(Exception):
    pass


def compile_format(fmt: str, op_def: Any) -> CompiledFormat:
    """Compile an assembly format string for an op with IRDL definition `op_def`."""
    operands = {name: d for name, d in op_def.operands}
    results = {name: d for name, d in op_def.results}
    pos = 0
    used: set[str] = set()

    def bind(name: str) -> Var:
        if name in operands:
            d = operands[name]
            return Var(name, "operand", isinstance(d, VarOperandDef), isinstance(d, OptOperandDef))
        if name in results:
            d = results[name]
            return Var(name, "result", isinstance(d, VarResultDef), isinstance(d, OptResultDef))
        used.add(name)
        return Var(name, "attr")

    def parse_seq(stop: str | None) -> list[Any]:
        nonlocal pos
        out: list[Any] = []
        while pos < len(fmt):
            m = _TOKEN.match(fmt, pos)
            if not m or m.end() == pos:
                if fmt[pos:].strip() == "":
                    pos = len(fmt)
                    break
                raise FormatError(f"bad format near {fmt[pos:]!r}")
            lit, var, ad, ft, qual, typ, oil, lpar, rpar, bar, comma, caret, all_ops = m.groups()
            if rpar is not None or bar is not None or comma is not None:
                if stop is None:
                    raise FormatError(f"unexpected {m.group(0)!r}")
                return out  # the caller consumes the terminator
            pos = m.end()
            if lit is not None:
                out.append(Lit(lit[1:-1]))
            elif var is not None:
                v = bind(var[1:].rstrip("^"))
                if var.endswith("^"):
                    out.append(("anchor", v))
                else:
                    out.append(v)
            elif ad is not None:
                out.append(AttrDict(ad == "attr-dict-with-keyword"))
            elif ft is not None:
                a = _arg()
                pos_comma()
                b = _arg()
                close()
                out.append(FunctionalType(a, b))
            elif qual is not None:
                m2 = re.compile(r"\s*type\(").match(fmt, pos)
                if not m2:
                    raise FormatError("qualified() takes type()")
                pos = m2.end()
                name = _arg()
                close()
                close()
                out.append(TypeOf(name, qualified=True))
            elif typ is not None:
                name = _arg()
                close()
                out.append(TypeOf(name))
            elif oil is not None:
                clauses: list[list[Any]] = []
                while True:
                    clauses.append(parse_seq("|)"))
                    m3 = re.compile(r"\s*(\||\))").match(fmt, pos)
                    if not m3:
                        raise FormatError("unterminated oilist")
                    pos = m3.end()
                    if m3.group(1) == ")":
                        break
                out.append(OIList(clauses))
            elif lpar is not None:
                elems = parse_seq(")")
                m4 = re.compile(r"\s*\)(\?)?").match(fmt, pos)
                if not m4:
                    raise FormatError("unterminated group")
                pos = m4.end()
                anchor = None
                flat: list[Any] = []
                for e in elems:
                    if isinstance(e, tuple):
                        anchor = e[1]
                        flat.append(e[1])
                    else:
                        flat.append(e)
                        if isinstance(e, Group) and e.anchor is not None and anchor is None:
                            pass
                if anchor is None:
                    raise FormatError("optional group without anchor")
                out.append(Group(flat, anchor))
            elif all_ops is not None:
                out.append(Var("operands", "all_operands", True, False))
            elif caret is not None:
                if not out or isinstance(out[-1], tuple):
                    raise FormatError("stray ^")
                out[-1] = ("anchor", out[-1])
        return out

    def _arg() -> str:
        nonlocal pos
        m = re.compile(r"\s*\$?([\w]+)").match(fmt, pos)
        if not m:
            raise FormatError("expected directive argument")
        pos = m.end()
        return m.group(1)

    def pos_comma() -> None:
        nonlocal pos
        m = re.compile(r"\s*,").match(fmt, pos)
        if not m:
            raise FormatError("expected ','")
        pos = m.end()

    def close() -> None:
        nonlocal pos
        m = re.compile(r"\s*\)").match(fmt, pos)
        if not m:
            raise FormatError("expected ')'")
        pos = m.end()

    elements = parse_seq(None)
    # an anchor at top level is meaningless; unwrap
    elements = [e[1] if isinstance(e, tuple) else e for e in elements]
    return CompiledFormat(elements, used)


# -- attribute styles -----------------------------------------------------------------


def _int_type(width: int) -> IntegerType:
    from irkit.frontend.attributes import integer_type

    return integer_type(width)


class AttrStyle:
    """How a `$attr` element is read and written; default: a full attribute."""

    def parse(self, p: Any) -> Attribute:
        return p.attrs.parse_attribute()

    def print(self, pr: Any, value: Attribute) -> str:
        return pr.attribute(value)

    def starts_here(self, p: Any) -> bool:
        c = p.cur.peek()
        return c != "" and c not in ":,)]}"


@dataclass
class IntStyle(AttrStyle):
    """An integer attribute of a fixed type, written bare (`16384`)."""

    width: int = 32

    def parse(self, p: Any) -> Attribute:
        return integer_attr(p.cur.integer(), _int_type(self.width))

    def print(self, pr: Any, value: Attribute) -> str:
        return str(value.value.data)

    def starts_here(self, p: Any) -> bool:
        c = p.cur.peek()
        return c.isdigit() or c == "-"


def keyword_or_string(p: Any) -> str | None:
    """MLIR's parseOptionalKeywordOrString: an enum case may be written quoted (`arith.cmpi "slt", ...`,
    as Triton's own lit tests do); it prints back bare."""
    word = p.cur.try_keyword()
    if word is None and p.cur.peek() == '"':
        word = p.cur.try_string()
    return word


@dataclass
class EnumStyle(AttrStyle):
    """An enum written as a keyword (`sgt`, `x`, `tf32`), stored as an integer attribute."""

    keywords: tuple[str, ...] = ()
    width: int = 32
    base: int = 0  # integer value of the first keyword

    def parse(self, p: Any) -> Attribute:
        pos = p.cur.skip()
        word = keyword_or_string(p)
        if word is None or word not in self.keywords:
            raise p.cur.error(
                f"expected one of [{', '.join(self.keywords)}], found {p.cur._describe_next() if word is None else repr(word)}",
                pos,
            )
        return integer_attr(self.keywords.index(word) + self.base, _int_type(self.width))

    def print(self, pr: Any, value: Attribute) -> str:
        index = value.value.data - self.base if isinstance(value, IntegerAttr) else -1
        if 0 <= index < len(self.keywords):
            return self.keywords[index]
        return pr.attribute(value)

    def starts_here(self, p: Any) -> bool:
        save = p.cur.pos
        word = keyword_or_string(p)
        p.cur.pos = save
        return word in self.keywords


DEFAULT_STYLE = AttrStyle()


class BareI32ListStyle(AttrStyle):
    """`custom<Offsets>`: an i32 array written as `0, 16` (brackets come from the format)."""

    def parse(self, p: Any) -> Attribute:
        from xdsl.dialects.builtin import DenseArrayBase

        vals = [p.cur.integer()]
        while p.cur.try_lit(","):
            vals.append(p.cur.integer())
        return DenseArrayBase.from_list(IntegerType(32), vals)

    def print(self, pr: Any, value: Attribute) -> str:
        return ", ".join(str(v) for v in value.get_values())


class DenseArrayStyle(AttrStyle):
    """A `DenseI64ArrayAttr` (or i32) in a format: written `[0, 16]`, stored as a dense array."""

    def __init__(self, width: int = 64):
        self.width = width

    def parse(self, p: Any) -> Attribute:
        from xdsl.dialects.builtin import DenseArrayBase

        p.cur.expect("[")
        vals: list[int] = []
        if not p.cur.try_lit("]"):
            vals.append(p.cur.integer())
            while p.cur.try_lit(","):
                vals.append(p.cur.integer())
            p.cur.expect("]")
        return DenseArrayBase.from_list(IntegerType(self.width), vals)

    def print(self, pr: Any, value: Attribute) -> str:
        return "[" + ", ".join(str(v) for v in value.get_values()) + "]"

    def starts_here(self, p: Any) -> bool:
        return p.cur.peek() == "["


class UnitStyle(AttrStyle):
    """A unit attribute whose presence a keyword in an optional group shows."""

    def parse(self, p: Any) -> Attribute:
        from xdsl.dialects.builtin import UnitAttr

        return UnitAttr()

    def print(self, pr: Any, value: Attribute) -> str:
        return ""


@dataclass
class ValuedEnumStyle(AttrStyle):
    """An enum keyword whose integer values are not consecutive (`propagateNan = all` is 0xFFFF)."""

    cases: tuple[tuple[str, int], ...] = ()
    width: int = 32

    def parse(self, p: Any) -> Attribute:
        pos = p.cur.skip()
        word = keyword_or_string(p)
        values = dict(self.cases)
        if word not in values:
            found = p.cur._describe_next() if word is None else repr(word)
            raise p.cur.error(f"expected one of [{', '.join(values)}], found {found}", pos)
        return IntegerAttr(values[word], IntegerType(self.width))

    def print(self, pr: Any, value: Attribute) -> str:
        if isinstance(value, IntegerAttr):
            for word, v in self.cases:
                if v == value.value.data:
                    return word
        return pr.attribute(value)

    def starts_here(self, p: Any) -> bool:
        save = p.cur.pos
        word = p.cur.try_keyword()
        p.cur.pos = save
        return word in dict(self.cases)


class StringStyle(AttrStyle):
    """A StrAttr written as a bare string literal: no `: type` suffix is read after it (`tt.assert %c,
    "msg" : i1` - the `: i1` belongs to the op)."""

    def parse(self, p: Any) -> Attribute:
        from xdsl.dialects.builtin import StringAttr

        return StringAttr(p.cur.string("string literal"))

    def print(self, pr: Any, value: Attribute) -> str:
        return pr.attribute(value)

    def starts_here(self, p: Any) -> bool:
        return p.cur.peek() == '"'


# -- the format of each op class, compiled once ---------------------------------------------------------

# assemblyFormats for the reused xDSL ops that are not hand-written in custom_syntax
EXTERNAL_FORMATS: dict[str, str] = {
    "scf.yield": "attr-dict ($arguments^ `:` type($arguments))?",
    "scf.condition": "`(` $condition `)` attr-dict ($args^ `:` type($args))?",
    "cf.assert": "$arg `,` $msg attr-dict",
    "gpu.barrier": "attr-dict",
    "builtin.unrealized_conversion_cast": "($inputs^ `:` type($inputs))? `to` type($outputs) attr-dict",
}


def format_of(cls: type[Operation], legacy: bool, pre34: bool = False) -> str | None:
    """The op's assembly format: Triton 3.1's (`legacy`), or up to 3.3's (`pre34`), where they differ."""
    if legacy:
        fmt = getattr(cls, "FORMAT_LEGACY", None)
        if fmt is not None:
            return fmt
    if legacy or pre34:
        fmt = getattr(cls, "FORMAT_PRE34", None)
        if fmt is not None:
            return fmt
    fmt = getattr(cls, "FORMAT", None)
    if fmt is not None:
        return fmt
    return EXTERNAL_FORMATS.get(cls.name)


_COMPILED: dict[tuple[str, bool, bool], CompiledFormat | None] = {}


def compiled_format(cls: type[Operation], legacy: bool, pre34: bool = False) -> CompiledFormat | None:
    """The compiled format of an op class (its Triton 3.1 variant when `legacy`, 3.1-3.3's when `pre34`),
    None for ops with hand-written syntax or none; compiled on first use, shared by parser and printer."""
    key = (cls.name, legacy, pre34)
    if key not in _COMPILED:
        fmt = format_of(cls, legacy, pre34)
        _COMPILED[key] = None if fmt is None else compile_format(fmt, cls.get_irdl_definition())
    return _COMPILED[key]
