"""Two results of a pass compared as a compiler engineer reads them: the same ops with the same operands,
attributes and types, whatever the alias names, locations and value numbering.

Both modules are printed by irkit's printer with triton-opt's value numbering and no locations, and every
layout alias is replaced by its definition; what remains differs only where the IR differs.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass

_ALIAS_DEF = re.compile(r"^([#!][\w.$-]+) = (.*)$", re.M)
_OP = re.compile(r"^\s*(?:%[\w#:, %]+ = )?\"?([\w.]+)")


@dataclass(frozen=True)
class Comparison:
    same: bool
    kind: str = ""  # layout, operands-or-attributes, op, extra-op, missing-op (of the prototype's result)
    first: str = ""  # 'line N: prototype `...` / reference `...`'
    diff: str = ""  # unified diff, prototype first


def canonical_lines(parsed) -> list[str]:
    from irkit.frontend.printer import print_module

    text = print_module(parsed, mlir_value_names=True)
    aliases = dict(_ALIAS_DEF.findall(text))
    text = _ALIAS_DEF.sub("", text)
    if aliases:
        pattern = re.compile("|".join(re.escape(a) for a in sorted(aliases, key=len, reverse=True)) + r"(?![\w.$-])")
        for _ in range(3):  # aliases may use aliases (#mma inside a dot_op)
            text = pattern.sub(lambda m: aliases[m.group(0)], text)
    return [line.rstrip() for line in text.splitlines() if line.strip()]


def _without_layouts(line: str) -> str:
    """The line with every `#dialect.name<...>` (nested ones too) replaced by L."""
    out, i = [], 0
    while i < len(line):
        m = re.compile(r"#[\w.]+<").match(line, i)
        if not m:
            out.append(line[i])
            i += 1
            continue
        depth, j = 0, m.end() - 1
        while j < len(line):
            depth += {"<": 1, ">": -1}.get(line[j], 0)
            j += 1
            if depth == 0:
                break
        out.append("L")
        i = j
    return "".join(out)


def _op(line: str) -> str:
    m = _OP.match(line)
    return m.group(1) if m else line.strip()


def _kind(ours: str | None, theirs: str | None) -> str:
    if ours is None:
        return "missing-op"
    if theirs is None:
        return "extra-op"
    if _op(ours) != _op(theirs):
        return "op"
    if _without_layouts(ours) == _without_layouts(theirs):
        return "layout"
    return "operands-or-attributes"


def compare(ours: list[str], theirs: list[str], names: tuple[str, str] = ("prototype", "reference")) -> Comparison:
    if ours == theirs:
        return Comparison(True)
    matcher = difflib.SequenceMatcher(a=ours, b=theirs, autojunk=False)
    tag, i1, i2, j1, j2 = next(op for op in matcher.get_opcodes() if op[0] != "equal")
    a = ours[i1] if i1 < i2 else None
    b = theirs[j1] if j1 < j2 else None
    if tag == "replace":
        kind = _kind(a, b)
    else:
        kind = "extra-op" if tag == "delete" else "missing-op"
    first = f"line {i1 + 1}: {names[0]} `{(a or '').strip()}` / {names[1]} `{(b or '').strip()}`"
    diff = "".join(difflib.unified_diff([x + "\n" for x in ours], [x + "\n" for x in theirs], names[0], names[1], n=3))
    return Comparison(False, kind, first, diff)
