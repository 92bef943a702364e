"""The end-of-sweep summary: what the pipeline did, by Triton version and target.

Computed from the rows alone (the results file is the truth), so summarising a finished file gives
the same table as the sweep printed.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field


@dataclass
class Group:
    triton_version: str
    target: str
    kernels: int = 0
    ok: int = 0
    changed: int = 0
    converts_removed: int = 0
    shared_saved: int = 0
    out_of_resources: int = 0  # predicted out of resources before the pipeline
    unlocked: int = 0
    failures: Counter = field(default_factory=Counter)

    def add(self, row: dict) -> None:
        self.kernels += 1
        if row.get("status") != "ok":
            self.failures[row.get("error_kind") or "internal"] += 1
            return
        self.ok += 1
        self.changed += bool(row.get("changed"))
        self.converts_removed += row.get("converts_removed") or 0
        self.shared_saved += row.get("shared_saved") or 0
        self.out_of_resources += row.get("fits_before") is False
        self.unlocked += bool(row.get("unlocked"))

    def to_dict(self) -> dict:
        d = {k: getattr(self, k) for k in ("triton_version", "target", "kernels", "ok", "changed", "converts_removed",
                                           "shared_saved", "out_of_resources", "unlocked")}
        d["failures"] = dict(sorted(self.failures.items()))
        return d


def _minor(version: str | None) -> str:
    """'3.9.0' -> '3.9': an exact version from metadata and the rules version (3.1, 3.3, 3.9) group together."""
    if not version:
        return "?"
    return ".".join(str(version).split(".")[:2])


def summarise(rows: list[dict]) -> list[Group]:
    """One group per (Triton major.minor, target), sorted, then a total row (version and target '*')."""
    groups: dict[tuple[str, str], Group] = defaultdict(lambda: Group("", ""))
    total = Group("*", "*")
    for row in rows:
        key = (_minor(row.get("triton_version")), str(row.get("target") or "?"))
        g = groups[key]
        g.triton_version, g.target = key
        g.add(row)
        total.add(row)
    return [groups[k] for k in sorted(groups)] + [total]


def render(groups: list[Group]) -> str:
    head = ("version", "target", "kernels", "changed", "converts removed", "shared bytes saved",
            "out of resources", "unlocked", "failures")
    lines = []
    for g in groups:
        fails = ", ".join(f"{k} {v}" for k, v in sorted(g.failures.items())) or "-"
        lines.append((g.triton_version, g.target, f"{g.kernels:,}", f"{g.changed:,}", f"{g.converts_removed:,}",
                      f"{g.shared_saved:,}", f"{g.out_of_resources:,}", f"{g.unlocked:,}", fails))
    widths = [max(len(h), *(len(r[i]) for r in lines)) for i, h in enumerate(head)]
    left = {0, 1, 8}

    def fmt(cells) -> str:
        return "  ".join(c.ljust(w) if i in left else c.rjust(w) for i, (c, w) in enumerate(zip(cells, widths))).rstrip()

    out = [fmt(head), fmt(["-" * w for w in widths])]
    out.extend(fmt(r) for r in lines[:-1])
    out.append(fmt(["-" * w for w in widths]))
    out.append(fmt(lines[-1]))
    return "\n".join(out) + "\n"
