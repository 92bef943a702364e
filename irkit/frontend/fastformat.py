"""A one-regex reading of an op's declarative format, for the lines it fits.

The format interpreter (`Parser._walk`) reads an op element by element, a few
lexer calls per element.  Most op lines Triton prints are as plain as their
format gets: single-line, operands `%x`, types without aliases to resolve
anew, no optional group present.  For such formats this module compiles the
whole format into one regular expression; a line it matches is read from the
match groups, and everything else (an optional group that is present, an
attribute dictionary, a line break inside the op, anything unusual) falls back
to the interpreter, so the result and the errors are the interpreter's.

What a format may hold to be compiled: literals, single and variadic operands,
enum-keyword attributes, `type($x)` of one operand or result (not a
dialect-stripped one), `attr-dict`, and optional groups / oilists whose
absence can be seen from their first token.  The regex checks that absence;
a present group sends the line to the interpreter.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from irkit.frontend.lexer import SSA_SUFFIX
from irkit.frontend.opformat import (
    DEFAULT_STYLE,
    AttrDict,
    CompiledFormat,
    EnumStyle,
    Group,
    Lit,
    OIList,
    TypeOf,
    Var,
)

_SP = r"[ \t]*"
_VALUE = rf"%{SSA_SUFFIX}(?:#\d+)?"
_VALUE_PARTS = re.compile(rf"%({SSA_SUFFIX})(?:#(\d+))?")
# A type: a (possibly `!`-prefixed) name with an optional bracket body nested up to
# four deep, no strings inside.  What it captures is parsed by the type parser.
_NEST = r"<(?:[^<>\"\n]|<(?:[^<>\"\n]|<(?:[^<>\"\n]|<[^<>\"\n]*>)*>)*>)*>"
_TYPE = r"!?[A-Za-z_][\w.]*(?:" + _NEST + r")?"
# An attribute dictionary, braces nested up to three deep, strings allowed.
_STR = r'"(?:[^"\\\n]++|\\.)*+"'
_DICT = r"\{(?:[^{}\"\n]|" + _STR + r"|\{(?:[^{}\"\n]|" + _STR + r"|\{(?:[^{}\"\n]|" + _STR + r")*\})*\})*\}"
_KEYWORD = r"[A-Za-z_][\w$]*"


@dataclass(frozen=True)
class Slot:
    kind: str  # operand | operands | attr | type | attrdict
    name: str
    group: int  # regex group number


@dataclass(frozen=True)
class FastFormat:
    regex: re.Pattern[str]
    slots: tuple[Slot, ...]
    loc_alias_group: int  # the group of the `#alias` of a trailing `loc(#alias)`


class _NotCompilable(Exception):
    pass


_CACHE: dict[tuple[type, int], FastFormat | None] = {}


def fast_format(cls: type, fmt: CompiledFormat) -> FastFormat | None:
    """The one-regex form of `fmt` for op class `cls`, or None when it has none."""
    key = (cls, id(fmt))
    if key in _CACHE:
        return _CACHE[key]
    try:
        fast = _compile(cls, fmt)
    except _NotCompilable:
        fast = None
    _CACHE[key] = fast
    _KEEP.append(fmt)  # keep the id valid
    return fast


_KEEP: list[CompiledFormat] = []


def _literal(text: str) -> str:
    pattern = re.escape(text)
    if text[-1].isalnum() or text[-1] == "_":
        pattern += r"(?![\w.$])"  # a keyword ends at a word boundary, as Cursor.try_lit reads it
    return pattern


def _absent(first: Any, cls: type) -> str:
    """A lookahead that holds when an optional group starting with `first` is absent."""
    if isinstance(first, Lit) and first.text:
        return f"(?!{_SP}{_literal(first.text)})"
    if isinstance(first, Var) and first.kind in ("operand", "all_operands"):
        return f"(?!{_SP}%)"
    if isinstance(first, Var) and first.kind == "attr":
        style = getattr(cls, "ATTR_STYLES", {}).get(first.name, DEFAULT_STYLE)
        if type(style) is EnumStyle:
            words = "|".join(re.escape(k) for k in style.keywords)
            return f"(?!{_SP}(?:{words})(?![\\w$]))"
    raise _NotCompilable


def _compile(cls: type, fmt: CompiledFormat) -> FastFormat:
    parts: list[str] = []
    slots: list[Slot] = []
    stripped = getattr(cls, "STRIPPED", {})
    styles = getattr(cls, "ATTR_STYLES", {})
    op_def = cls.get_irdl_definition()
    variadic_names = {n for n, d in op_def.operands if _is_variadic(d)} | {n for n, d in op_def.results if _is_variadic(d)}

    def group() -> int:
        return len(slots) + 1

    for e in fmt.elements:
        if isinstance(e, Lit):
            if e.text.strip():
                parts.append(_SP + _literal(e.text))
        elif isinstance(e, Var):
            if e.kind == "operand":
                if e.variadic:
                    slots.append(Slot("operands", e.name, group()))
                    parts.append(f"{_SP}((?:{_VALUE}(?:{_SP},{_SP}{_VALUE})*)?)")
                else:
                    slots.append(Slot("operand", e.name, group()))
                    parts.append(f"{_SP}({_VALUE})")
            elif e.kind == "attr":
                style = styles.get(e.name, DEFAULT_STYLE)
                if type(style) is not EnumStyle:
                    raise _NotCompilable
                slots.append(Slot("attr", e.name, group()))
                parts.append(f"{_SP}({_KEYWORD})")
            else:
                raise _NotCompilable
        elif isinstance(e, TypeOf):
            if e.name in ("operands", "results") or e.name in stripped or e.name in variadic_names:
                raise _NotCompilable
            slots.append(Slot("type", e.name, group()))
            parts.append(f"{_SP}({_TYPE})")
        elif isinstance(e, AttrDict):
            if e.with_keyword:
                parts.append(f"(?!{_SP}attributes(?![\\w.$]))")
            else:
                slots.append(Slot("attrdict", "", group()))
                parts.append(f"(?:{_SP}({_DICT}))?")
        elif isinstance(e, Group):
            parts.append(_absent(e.elements[0], cls))
        elif isinstance(e, OIList):
            for clause in e.clauses:
                parts.append(_absent(clause[0], cls))
        else:  # functional-type and anything else: the interpreter reads it
            raise _NotCompilable
    # the op ends here; `loc(#alias)`, what nearly every line ends with, is read in the same match
    # (group "loc"); what follows is then a line end or the next op (any other location form is
    # left to the location parser)
    parts.append(f"(?P<loc>{_SP}loc\\((#[\\w$.\\-]+)\\))?")
    parts.append(f"(?={_SP}(?:loc\\(|\\n|$|//|\\}}))")
    return FastFormat(re.compile("".join(parts)), tuple(slots), len(slots) + 2)


def _is_variadic(d: Any) -> bool:
    from xdsl.irdl import VarOperandDef, VarResultDef

    return isinstance(d, (VarOperandDef, VarResultDef))


def value_uses(text: str, start: int) -> list[tuple[str, int, int]]:
    """(name, result number, position) of each `%x` / `%x#n` in a captured operand list."""
    return [(m.group(1), int(m.group(2)) if m.group(2) else 0, start + m.start()) for m in _VALUE_PARTS.finditer(text)]
