"""What irkit-opt reports around the passes, as mlir-opt does: `--mlir-timing`,
`--mlir-pass-statistics` and the `--mlir-print-ir-*` dumps."""

from __future__ import annotations

import time
from collections import Counter
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TextIO

from irkit.walk import walk_ops

RULE = "===" + "-" * 73 + "==="


def _banner(title: str) -> str:
    return f"{RULE}\n{title.center(len(RULE)).rstrip()}\n{RULE}\n"


@dataclass
class Timing:
    """Wall time per phase and per pass, summed over every module and `// -----` chunk."""

    start: float = field(default_factory=time.perf_counter)
    phases: dict[str, float] = field(default_factory=dict)  # Parser, Verifier, Output
    passes: dict[str, float] = field(default_factory=dict)  # pass label -> seconds

    @contextmanager
    def phase(self, name: str, is_pass: bool = False):
        t0 = time.perf_counter()
        try:
            yield
        finally:
            table = self.passes if is_pass else self.phases
            table[name] = table.get(name, 0.0) + time.perf_counter() - t0

    def report(self) -> str:
        """mlir-opt's `-mlir-timing` layout: total, then each phase with its share, passes nested
        under the `'builtin.module' Pipeline` line, the rest, the total."""
        total = time.perf_counter() - self.start
        rows: list[tuple[str, float]] = []
        if "Parser" in self.phases:
            rows.append(("Parser", self.phases["Parser"]))
        if "Verifier" in self.phases:
            rows.append(("Verifier", self.phases["Verifier"]))
        if self.passes:
            rows.append(("'builtin.module' Pipeline", sum(self.passes.values())))
            rows.extend(("  " + name, t) for name, t in self.passes.items())
        if "Output" in self.phases:
            rows.append(("Output", self.phases["Output"]))
        counted = sum(t for name, t in rows if not name.startswith("  "))
        rows.append(("Rest", max(0.0, total - counted)))
        rows.append(("Total", total))
        share = (lambda t: 100.0 * t / total) if total > 0 else (lambda t: 0.0)
        out = [_banner("... Execution time report ..."), f"  Total Execution Time: {total:.4f} seconds\n\n",
               "  ----Wall Time----  ----Name----\n"]
        out.extend(f"  {t:8.4f} ({share(t):5.1f}%)  {name}\n" for name, t in rows)
        return "".join(out)


def module_statistics(module) -> Counter:
    """What --mlir-pass-statistics counts for every pass: ops, and layout conversions."""
    from irkit.dialects.ttg import ConvertLayoutOp

    counts: Counter = Counter()
    for op in walk_ops(module):
        counts["ops"] += 1
        if isinstance(op, ConvertLayoutOp):
            counts["convert-layouts"] += 1
    return counts


@dataclass
class Statistics:
    """Per pass (label): the module's op and conversion counts before and after, summed over modules."""

    rows: dict[str, Counter] = field(default_factory=dict)

    def record(self, label: str, before: Counter, after: Counter) -> None:
        row = self.rows.setdefault(label, Counter())
        for key in ("ops", "convert-layouts"):
            row[f"{key}-before"] += before[key]
            row[f"{key}-after"] += after[key]

    def report(self) -> str:
        described = {
            "ops-before": "Number of operations before the pass",
            "ops-after": "Number of operations after the pass",
            "convert-layouts-before": "Number of ttg.convert_layout ops before the pass",
            "convert-layouts-after": "Number of ttg.convert_layout ops after the pass",
        }
        out = [_banner("... Pass statistics report ..."), "'builtin.module' Pipeline\n"]
        for label, row in self.rows.items():
            out.append(f"  {label}\n")
            out.extend(f"    (S) {row[key]:>6} {key} - {text}\n" for key, text in described.items())
        return "".join(out)


@dataclass
class IRPrinting:
    """Which --mlir-print-ir-* dumps to write, and where (stderr, like mlir-opt)."""

    before_all: bool
    after_all: bool
    after_change: bool
    before: set[str]  # canonical pass names
    after: set[str]
    out: TextIO

    @property
    def needs_before_text(self) -> bool:
        return self.after_change

    def wants_before(self, name: str) -> bool:
        return self.before_all or name in self.before

    def wants_after(self, name: str) -> bool:
        return self.after_all or name in self.after

    def dump(self, when: str, pass_class: str, written: str, text: str) -> None:
        self.out.write(f"// -----// IR Dump {when} {pass_class} ({written}) //----- //\n")
        self.out.write(text)
