"""Count operations in MLIR text without parsing it.

A dump log holds dozens of full modules, and the last few (LLVM dialect) are tens of megabytes that
irkit's parser does not read; the per-pass report still wants "how many ops, how many converts" for
every one of them.  MLIR's printer puts every operation on its own line, starting with the op name or
with its result list (`%a, %b:2 = dialect.op ...`), so a line scan finds them all.  The one thing the
text does not show is an elided terminator: a `scf.for` without `iter_args` and a `scf.if` without
results print their regions without the `scf.yield` the IR holds.  The scan adds those back, so its
total equals the number of operations a parser builds (module included), which tests/test_report.py
checks on the whole corpus.

Op names are counted in the current spelling (`triton_gpu.convert_layout` counts as
`ttg.convert_layout`).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from irkit.frontend.spelling import canonical_name

# optional result list, then the op name: bare `dialect.op`, quoted generic `"dialect.op"`, or `module`
_OP_LINE = re.compile(
    r"[ \t]*(?:%[^\s=,]+(?:\s*,\s*%[^\s=,]+)*\s*=\s*)?"
    r"(?:\"(?P<generic>[A-Za-z_][\w$.]*)\"|(?P<custom>[A-Za-z_][\w$]*\.[\w$.]+|module\b))"
)


@dataclass
class OpCount:
    """Operations found in one module's text."""

    total: int = 0
    by_name: Counter = field(default_factory=Counter)

    def count(self, name: str) -> int:
        return self.by_name.get(canonical_name(name)[0], 0)

    @property
    def converts(self) -> int:
        return self.by_name.get("ttg.convert_layout", 0)

    @property
    def local_allocs(self) -> int:
        return self.by_name.get("ttg.local_alloc", 0)


@dataclass
class _Region:
    implicit_yield: bool  # the owner prints this region without its (operand-less) terminator
    last_op: str = ""


def _opens_implicit_region(name: str, line: str) -> bool:
    if name == "scf.for":
        return "iter_args" not in line
    if name == "scf.if":
        # results are printed as `-> (types)` before the region's `{`
        return "->" not in line.split("{", 1)[0] if "{" in line else "->" not in line
    return False


def count_ops(text: str) -> OpCount:
    """Operations in `text` (one module or a sequence of top-level ops), by current-spelling name."""
    counts: Counter = Counter()
    stack: list[_Region] = []
    names: dict[str, str] = {}
    elided = 0
    for line in text.split("\n"):
        s = line.lstrip()
        if not s or s[0] in "#^/!" or s.startswith("loc("):
            continue
        if s[0] in "})":
            # a region closes; `} else {` / `} do {` open the next region of the same op
            closed = stack.pop() if stack else None
            if closed is not None and closed.implicit_yield and closed.last_op != "scf.yield":
                elided += 1
            if s.rstrip().endswith("{"):
                stack.append(_Region(closed.implicit_yield if closed is not None else False))
            continue
        m = _OP_LINE.match(line)
        if m is None:
            continue
        raw = m.group("generic") or m.group("custom")
        name = names.get(raw)
        if name is None:
            name = names[raw] = "builtin.module" if raw == "module" else canonical_name(raw)[0]
        counts[name] += 1
        if stack:
            stack[-1].last_op = name
        if line.rstrip().endswith("{"):
            stack.append(_Region(_opens_implicit_region(name, line)))
    if elided:
        counts["scf.yield"] += elided
    return OpCount(total=sum(counts.values()), by_name=counts)
