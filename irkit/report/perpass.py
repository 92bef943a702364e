"""Per-pass report over an MLIR_ENABLE_DUMP log: one row per section.

A log is dozens of whole modules (the 3.1 add-matrix log: 44 sections, 37 MB, six of them LLVM-dialect
modules of 2-26 MB), so each column is computed the cheapest exact way:

* ops, convert_layouts, local_allocs: a line scan (`irkit.analysis.opcount`), which counts what the
  parser would build, elided terminators included, without parsing;
* predicted shared memory: the allocation model needs the IR, so the section is parsed, but only when
  it is a TritonGPU module (module attribute `num-warps`) holding an op the model allocates for
  (convert_layout, local_alloc, reduce, scan, histogram, atomics, gather, tensormap_create, call);
  a TritonGPU module without any such op needs 0 bytes, and a TTIR module has no layouts yet;
* recorded shared memory: the `ttg.shared` module attribute that Triton's allocate-shared-memory pass
  writes (the compiler's own figure), read from the module line;
* identical section texts (a pass that changed nothing) are analysed once.

Rows describe the IR entering each pass (Triton dumps only "IR Dump Before"); `changed` and
`converts_delta` say what the pass itself did, by comparing with the next section.

LLVM-dialect sections are never parsed: they get counts and the recorded figure.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

from irkit.analysis.opcount import OpCount, count_ops
from irkit.frontend.dumplog import DumpSection
from irkit.progress import progress_bar

# ops the allocation model can give shared memory (irkit.analysis.shared_memory)
SHARED_MEMORY_OPS = frozenset(
    {
        "ttg.convert_layout",
        "ttg.local_alloc",
        "tt.reduce",
        "tt.scan",
        "tt.histogram",
        "tt.atomic_rmw",
        "tt.atomic_cas",
        "tt.gather",
        "ttng.tensormap_create",
        "tt.experimental_tensormap_create",  # 3.2/3.3
        "tt.call",
        "func.call",
    }
)
_MODULE_LINE = re.compile(r"^module\b[^\n]*", re.M)
_NUM_WARPS = re.compile(r"\b(?:ttg|triton_gpu)\.num-warps\b")
_RECORDED = re.compile(r"\b(?:ttg|triton_gpu)\.shared = (\d+)")


@dataclass
class SectionRow:
    index: int
    pass_class: str
    pass_arg: str
    anchor: str
    kind: str  # "before" | "after"
    header_line: int
    stage: str  # "ttir" | "ttgir" | "llvm" | "empty"
    ops: int
    converts: int
    local_allocs: int
    shared: int | None  # predicted by the allocation model; None when not applicable or failed
    recorded_shared: int | None  # the module's ttg.shared attribute, once allocate-shared-memory ran
    # what this pass did: the next section (the IR it produced) against this one; None for the last
    # section, whose pass's output was not dumped
    changed: bool | None = None
    converts_delta: int | None = None
    note: str = ""

    @property
    def label(self) -> str:
        anchor = f" @{self.anchor}" if self.anchor else ""
        return f"{self.pass_class}{anchor}"

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass
class PerPassReport:
    file: str
    version: str
    rows: list[SectionRow]
    final: object | None = field(default=None, repr=False)  # ModuleReport of the last parsed TritonGPU section
    final_index: int | None = None

    @property
    def shared_bytes(self) -> int:
        """The last figure of the log: recorded when the compiler wrote one, else predicted."""
        for row in reversed(self.rows):
            if row.recorded_shared is not None:
                return row.recorded_shared
            if row.shared is not None and row.stage == "ttgir":
                return row.shared
        return 0

    def to_dict(self) -> dict:
        final = self.final
        return {
            "mode": "per-pass",
            "file": self.file,
            "triton_version": self.version,
            "shared_bytes": self.shared_bytes,
            "converts": [c.to_dict() for c in final.converts] if final is not None else [],
            "converts_section": self.final_index,
            "sections": [r.to_dict() for r in self.rows],
        }


def infer_log_version(sections: Sequence[DumpSection]) -> str:
    """Triton 3.9 headers read `Pass: arg{opts}`; 3.1/3.3 read `Pass (arg)`, 3.1 writes `triton_gpu.*`."""
    for s in sections:
        if s.kind == "before" and not s.is_internal and f"{s.pass_class}: " in s.header_text:
            return "3.9"
    for s in sections:
        head = s.text[:4096]
        if "triton_gpu." in head:
            return "3.1"
        if "ttg." in head:
            return "3.3"
    return "3.9"


@dataclass
class _Facts:
    stage: str
    counts: OpCount
    shared: int | None
    recorded: int | None
    note: str
    parsed: object | None = None


def _analyse(text: str, version: str, name: str, line_offset: int) -> _Facts:
    counts = count_ops(text)
    m = _MODULE_LINE.search(text)
    module_line = m.group(0) if m else ""
    rec = _RECORDED.search(module_line)
    recorded = int(rec.group(1)) if rec else None
    if counts.total == 0:
        return _Facts("empty", counts, None, recorded, "no IR in this section")
    if "llvm.func" in counts.by_name:  # lowered: TTIR may hold an llvm.mlir.undef, never an llvm.func
        return _Facts("llvm", counts, None, recorded, "")
    if not _NUM_WARPS.search(module_line):
        return _Facts("ttir", counts, None, recorded, "")
    if not any(n in SHARED_MEMORY_OPS for n in counts.by_name):
        return _Facts("ttgir", counts, 0, recorded, "")
    from irkit.analysis.shared_memory import analyze_shared_memory
    from irkit.frontend.lexer import ParseError
    from irkit.frontend.parser import Parser

    try:
        parsed = Parser(text, name).parse()
        parsed.line_offset = line_offset
    except ParseError as e:
        line = text.count("\n", 0, e.pos) + 1 + line_offset
        return _Facts("ttgir", counts, None, recorded, f"not parsed (line {line}: {e.message})")
    except RecursionError:
        return _Facts("ttgir", counts, None, recorded, "not parsed (nests too deeply)")
    from irkit.verifier import verify_parsed

    errors = verify_parsed(parsed, text, name, line_offset)
    if errors:  # the analysis runs on verified IR only, as in every other command
        return _Facts("ttgir", counts, None, recorded, f"not verified (line {errors[0].line}: {errors[0].message})")
    try:
        shared = analyze_shared_memory(parsed.module, version=version).total_bytes
    except Exception as e:  # a layout the model cannot size: say so in the row
        return _Facts("ttgir", counts, None, recorded, f"model failed: {type(e).__name__}: {e}", parsed)
    return _Facts("ttgir", counts, shared, recorded, "", parsed)


def build_per_pass_report(
    sections: Sequence[DumpSection], *, name: str, version: str | None = None, with_final: bool = True
) -> PerPassReport:
    """One row per section of a split dump log (see the module docstring for how each is computed).
    `with_final` also builds the module report of the last parsed TritonGPU section (its converts)."""
    from irkit.analysis.triton_versions import normalize_version

    ver = normalize_version(version) if version else infer_log_version(sections)
    cache: dict[str, _Facts] = {}
    rows: list[SectionRow] = []
    texts: list[str] = []
    final_parsed, final_index = None, None
    for s in progress_bar(sections, desc=f"{Path(name).name}: passes", unit="section"):
        text = s.text
        texts.append(text)
        facts = cache.get(text)
        if facts is None:
            facts = _analyse(text, ver, name, s.body_first_line - 1)
            cache[text] = facts
        if facts.parsed is not None:
            final_parsed, final_index = facts.parsed, s.index
        rows.append(
            SectionRow(
                index=s.index,
                pass_class=s.pass_class,
                pass_arg=s.pass_arg,
                anchor=s.anchor_sym or "",
                kind=s.kind,
                header_line=s.header_line,
                stage=facts.stage,
                ops=facts.counts.total,
                converts=facts.counts.converts,
                local_allocs=facts.counts.local_allocs,
                shared=facts.shared,
                recorded_shared=facts.recorded,
                note=facts.note,
            )
        )
    for i, row in enumerate(rows[:-1]):
        row.changed = texts[i + 1] != texts[i]
        row.converts_delta = rows[i + 1].converts - row.converts
    final = None
    if with_final and final_parsed is not None:
        from irkit.report.model import build_module_report

        final = build_module_report(final_parsed, name=f"{name} (section {final_index})", version=ver)
    return PerPassReport(name, ver, rows, final, final_index)
