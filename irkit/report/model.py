"""Report data: one module, a before/after pair, an autotuning screen.

Built from parsed modules; nothing here reads files, runs passes or changes IR.  Every report has
`to_dict()` (its JSON form: `shared_bytes` is an int, `converts` a list of conversion records).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass, field
from typing import Any

import networkx as nx

from irkit.analysis import graph as graph_analysis
from irkit.analysis.shared_memory import TARGETS, SharedMemoryReport, verdict
from irkit.analysis.triton_versions import infer_version, normalize_version
from irkit.frontend.parsed import ParsedModule


@dataclass
class TargetVerdict:
    """The predicted total against one GPU's shared-memory limit."""

    name: str
    triple: str
    limit: int
    fits: bool
    margin: int  # limit - bytes: spare bytes, or (negative) how much too much
    module_target: bool  # the target the module was compiled for (or --target)

    def to_dict(self) -> dict:
        return asdict(self)


def target_verdicts(total: int, own: str | None, own_limit: int | None) -> list[TargetVerdict]:
    out = []
    for t in TARGETS.values():
        limit = own_limit if (t.triple == own and own_limit is not None) else t.limit
        out.append(TargetVerdict(t.name, t.triple, limit, total <= limit, limit - total, t.triple == own))
    return out


@dataclass
class ModelVerdict:
    """The propagate-mma cost model's verdict on one conversion (irkit.analysis.mma_profit)."""

    line: int | None
    value: str
    verdict: str  # "remove" | "keep" | "-" (not a candidate)
    why: str

    def to_dict(self) -> dict:
        return asdict(self)


def model_verdicts(parsed: ParsedModule, version: str) -> list[ModelVerdict]:
    from irkit.analysis.mma_profit import assess_module
    from irkit.names import exact_name

    out = []
    for a in assess_module(parsed.module, version):
        name = exact_name(a.op.results[0]) or ""
        out.append(ModelVerdict(parsed.op_line(a.op), f"%{name}" if name else "", a.word, a.text))
    return out


@dataclass
class ModuleReport:
    """Conversions, local_allocs and predicted shared memory of one module."""

    file: str
    version: str  # the Triton rules the allocation model used ("3.1", "3.3", "3.9")
    target: str | None  # triple ("cuda:80")
    target_name: str | None
    limit: int | None
    num_warps: int | None
    functions: list[str]
    ops: int
    op_histogram: dict[str, int]
    converts: list[graph_analysis.ConvertRecord]
    chains: list[graph_analysis.ConversionChain]
    local_allocs: list[graph_analysis.AllocRecord]
    shared_bytes: int
    buffers: list[dict]
    fits: bool | None
    verdict: str  # Triton's own wording: "out of resource: shared memory, Required: ..., Hardware limit: ..."
    targets: list[TargetVerdict]
    recorded_shared: int | None = None  # what the compiler itself wrote (cache JSON / ttg.shared attribute)
    notes: list[str] = field(default_factory=list)
    graph: nx.MultiDiGraph | None = field(default=None, repr=False, compare=False)
    verdicts: list[ModelVerdict] = field(default_factory=list)  # propagate-mma's cost model, per conversion

    @property
    def module_verdict(self) -> str:
        """One line for the module: what propagate-mma (profit=model) would do with its conversions."""
        remove = [v for v in self.verdicts if v.verdict == "remove"]
        keep = [v for v in self.verdicts if v.verdict == "keep"]
        if not remove and not keep:
            return "no conversion between an mma and a blocked layout"
        parts = []
        if remove:
            parts.append(f"remove {len(remove)}")
        if keep:
            parts.append(f"keep {len(keep)}")
        return ", ".join(parts)

    @property
    def convert_bytes(self) -> int:
        """Scratch of all conversions added up (each lives only at its op, so they need not coexist)."""
        return sum(c.bytes for c in self.converts)

    @property
    def largest_convert_bytes(self) -> int:
        return max((c.bytes for c in self.converts), default=0)

    def chain_values(self, chain: graph_analysis.ConversionChain) -> list[str]:
        nodes = {c.node: c for c in self.converts}
        return [nodes[n].value if n in nodes else n for n in chain.nodes]

    def to_dict(self) -> dict:
        return {
            "mode": "module",
            "file": self.file,
            "triton_version": self.version,
            "target": self.target,
            "target_name": self.target_name,
            "limit": self.limit,
            "num_warps": self.num_warps,
            "functions": self.functions,
            "ops": self.ops,
            "op_histogram": dict(self.op_histogram),
            "shared_bytes": self.shared_bytes,
            "recorded_shared": self.recorded_shared,
            "fits": self.fits,
            "verdict": self.verdict,
            "converts": [c.to_dict() for c in self.converts],
            "convert_count": len(self.converts),
            "chains": [dict(ch.to_dict(), values=self.chain_values(ch)) for ch in self.chains],
            "local_allocs": [a.to_dict() for a in self.local_allocs],
            "buffers": self.buffers,
            "targets": [t.to_dict() for t in self.targets],
            "notes": self.notes,
            "model_verdict": self.module_verdict,
            "model_verdicts": [v.to_dict() for v in self.verdicts],
        }


def _buffer_dict(b) -> dict:
    return {
        "kind": b.kind,
        "op": b.op_name,
        "value": b.value,
        "bytes": b.bytes,
        "offset": b.offset,
        "alignment": b.alignment,
        "live": [b.start, b.end],
        "line": b.line,
        "location": b.location,
        "function": b.function,
        "note": b.note,
    }


def build_module_report(
    parsed: ParsedModule,
    *,
    name: str | None = None,
    version: str | None = None,
    target: str | None = None,
    limit: int | None = None,
    recorded_shared: int | None = None,
) -> ModuleReport:
    """Analyse one parsed module.  `version` picks the allocation rules (inferred from the dialect
    spelling when None); `target`/`limit` override the module's `ttg.target` and its limit."""
    module = parsed.module
    ver = normalize_version(version) if version else infer_version(module)
    # the release itself, not its rule set: a few rules changed within one set (triton_versions.reduce_rules)
    smem: SharedMemoryReport = graph_analysis.shared_memory_of(module, version=version or ver, target=target, limit=limit)
    graph = graph_analysis.build_graph(parsed, version=ver, smem=smem, name=name)
    hist = Counter(d["op"] for _, d in graph.nodes(data=True))
    functions = [d["function"] for _, d in graph.nodes(data=True) if d["op"] in graph_analysis.FUNC_OPS]
    triple = smem.target.triple if smem.target else (target or graph.graph.get("target"))
    if recorded_shared is None:
        from irkit.dialects.module_attrs import module_int

        recorded_shared = module_int(module, "shared")
    return ModuleReport(
        file=name or parsed.filename,
        version=ver,
        target=triple,
        target_name=smem.target.name if smem.target else None,
        limit=smem.limit,
        num_warps=graph.graph.get("num_warps"),
        functions=functions,
        ops=graph.number_of_nodes(),
        op_histogram=dict(sorted(hist.items())),
        converts=graph_analysis.convert_ops(graph),
        chains=graph_analysis.conversion_chains(graph),
        local_allocs=graph_analysis.local_allocs(graph),
        shared_bytes=smem.total_bytes,
        buffers=[_buffer_dict(b) for b in smem.buffers],
        fits=None if smem.limit is None else smem.fits(),
        verdict=verdict(smem),
        targets=target_verdicts(smem.total_bytes, triple, smem.limit),
        recorded_shared=recorded_shared,
        notes=list(smem.notes),
        graph=graph,
        verdicts=model_verdicts(parsed, version or ver),  # the release: its rules and its compile
    )


# ---------------------------------------------------------------------------------------------
# Before / after
# ---------------------------------------------------------------------------------------------


@dataclass
class VerdictChange:
    name: str
    triple: str
    limit: int
    before_fits: bool
    after_fits: bool
    module_target: bool

    @property
    def change(self) -> str:
        if self.before_fits == self.after_fits:
            return ""
        return "now fits" if self.after_fits else "no longer fits"

    def to_dict(self) -> dict:
        return dict(asdict(self), change=self.change)


@dataclass
class DiffReport:
    """What changed between two versions of a module."""

    before: ModuleReport
    after: ModuleReport
    pipeline: str | None  # the pass pipeline that made `after`, when one did
    removed: list[graph_analysis.ConvertRecord]  # converts of `before` with no counterpart in `after`
    added: list[graph_analysis.ConvertRecord]
    verdicts: list[VerdictChange]

    @property
    def converts_eliminated(self) -> int:
        return len(self.before.converts) - len(self.after.converts)

    @property
    def bytes_saved(self) -> int:
        return self.before.shared_bytes - self.after.shared_bytes

    @property
    def own_verdict(self) -> VerdictChange | None:
        for v in self.verdicts:
            if v.module_target:
                return v
        return None

    def to_dict(self) -> dict:
        own = self.own_verdict
        return {
            "mode": "diff",
            "pipeline": self.pipeline,
            "before_file": self.before.file,
            "after_file": self.after.file,
            "shared_bytes": self.after.shared_bytes,
            "shared_bytes_before": self.before.shared_bytes,
            "bytes_saved": self.bytes_saved,
            "converts": [c.to_dict() for c in self.after.converts],
            "converts_before": len(self.before.converts),
            "converts_after": len(self.after.converts),
            "converts_eliminated": self.converts_eliminated,
            "removed": [c.to_dict() for c in self.removed],
            "added": [c.to_dict() for c in self.added],
            "ops_before": self.before.ops,
            "ops_after": self.after.ops,
            "verdict_before": self.before.verdict,
            "verdict_after": self.after.verdict,
            "verdict_change": own.change if own else "",
            "targets": [v.to_dict() for v in self.verdicts],
            "before": self.before.to_dict(),
            "after": self.after.to_dict(),
        }


def _match_converts(before: list[graph_analysis.ConvertRecord], after: list[graph_analysis.ConvertRecord]):
    """Multiset difference on what identifies a conversion (layout definitions, shape, element
    type, source position): the removed ones and the added ones, each in program order."""
    left = Counter(c.key() for c in after)
    removed = []
    for c in before:
        if left[c.key()] > 0:
            left[c.key()] -= 1
        else:
            removed.append(c)
    right = Counter(c.key() for c in before)
    added = []
    for c in after:
        if right[c.key()] > 0:
            right[c.key()] -= 1
        else:
            added.append(c)
    return removed, added


def build_diff_report(before: ModuleReport, after: ModuleReport, pipeline: str | None = None) -> DiffReport:
    removed, added = _match_converts(before.converts, after.converts)
    verdicts = []
    for b, a in zip(before.targets, after.targets):
        verdicts.append(VerdictChange(b.name, b.triple, a.limit, b.fits, a.fits, b.module_target or a.module_target))
    return DiffReport(before, after, pipeline, removed, added, verdicts)


@dataclass
class ModuleSetReport:
    """A file with several top-level modules (Triton's test-allocation.mlir): one report per module,
    each with its own num-warps, target and shared memory."""

    file: str
    reports: list  # ModuleReport or DiffReport, one per module, in file order

    def to_dict(self) -> dict:
        return {"mode": "modules", "file": self.file, "modules": [r.to_dict() for r in self.reports]}


# ---------------------------------------------------------------------------------------------
# Autotuning screen
# ---------------------------------------------------------------------------------------------


@dataclass
class ScreenEntry:
    """One autotuning config: does it fit, and does the pipeline make it fit?"""

    name: str
    file: str
    report: ModuleReport | None
    after: ModuleReport | None = None
    error: str = ""  # the config could not be read, parsed or transformed

    @property
    def limit(self) -> int | None:
        return self.report.limit if self.report else None

    @property
    def fits(self) -> bool | None:
        return self.report.fits if self.report else None

    @property
    def after_fits(self) -> bool | None:
        return self.after.fits if self.after else None

    @property
    def rescued(self) -> bool:
        """Exceeds the limit now, fits after the pipeline."""
        return self.fits is False and self.after_fits is True

    def to_dict(self) -> dict:
        r, a = self.report, self.after
        return {
            "name": self.name,
            "file": self.file,
            "error": self.error,
            "target": r.target if r else None,
            "limit": self.limit,
            "shared_bytes": r.shared_bytes if r else None,
            "recorded_shared": r.recorded_shared if r else None,
            "fits": self.fits,
            "converts": len(r.converts) if r else None,
            "after_shared_bytes": a.shared_bytes if a else None,
            "after_fits": self.after_fits,
            "after_converts": len(a.converts) if a else None,
            "rescued": self.rescued,
        }


@dataclass
class ScreenReport:
    entries: list[ScreenEntry]
    pipeline: str | None

    @property
    def exceeding(self) -> list[ScreenEntry]:
        return [e for e in self.entries if e.fits is False]

    @property
    def rescued(self) -> list[ScreenEntry]:
        return [e for e in self.entries if e.rescued]

    def to_dict(self) -> dict[str, Any]:
        worst = max((e.report.shared_bytes for e in self.entries if e.report), default=0)
        converts = []
        for e in self.entries:
            if e.report:
                converts.extend(dict(c.to_dict(), config=e.name) for c in e.report.converts)
        return {
            "mode": "screen",
            "pipeline": self.pipeline,
            "shared_bytes": worst,
            "converts": converts,
            "configs": [e.to_dict() for e in self.entries],
            "exceeding": [e.name for e in self.exceeding],
            "rescued": [e.name for e in self.rescued],
            "errors": [e.name for e in self.entries if e.error],
        }


def build_screen_report(entries: list[ScreenEntry], pipeline: str | None = None) -> ScreenReport:
    return ScreenReport(entries, pipeline)
