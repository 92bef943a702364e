"""irkit-check's static mode: compile a module before and after a pipeline with the real Triton, and compare
what the binaries say with what irkit predicts.  No GPU is needed.  The compiling itself is
`irkit.check.static` (which the passes' compiler, `compiled_stats`, also uses: it reaches no tool).
"""

from __future__ import annotations

import argparse
import json
import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from irkit.check.static import (
    _module_target,
    _triton_python_env,
    compile_metrics,
    find_triton_python,
    installed_triton_version,
    version_mismatch,
)
from irkit.cli.entry import CliError

# -- inputs -------------------------------------------------------------------------------------------------


@dataclass
class ModuleInput:
    name: str  # what the report calls it
    text: str
    line_offset: int = 0
    recorded_version: str | None = None  # from the cache entry's JSON, when there is one
    recorded_shared: int | None = None


def read_module_input(path: str, dump_section: str | None = None, dump_after: bool = False) -> ModuleInput:
    """A .ttgir file, a Triton cache entry or dump folder, or one section of an MLIR_ENABLE_DUMP log."""
    from irkit.cli.opt import read_input

    if dump_section is None and not dump_after:
        dump_section = final_ttgir_section(path)
    args = argparse.Namespace(input=path, list_sections=False, dump_section=dump_section, dump_after=dump_after)
    inp = read_input(args)
    version, shared = None, None
    source = Path(path)
    meta_dirs = [source] if source.is_dir() else [source.parent]
    for d in meta_dirs:
        for meta in sorted(d.glob("*.json")) + sorted(d.glob("*/*.json")):
            try:
                data = json.loads(meta.read_text())
            except (OSError, ValueError):
                continue
            if isinstance(data, dict) and "shared" in data and (source.is_dir() or meta.stem.startswith(source.stem)):
                version = version or data.get("triton_version")
                shared = data.get("shared") if shared is None else shared
    return ModuleInput(inp.name, inp.text, inp.line_offset, version, shared)


_LOWERED = re.compile(r"^\s*(?:%[\w.#:]+\s*=\s*)?(?:llvm\.|cf\.)|\b(?:ttg|triton_gpu)\.shared\s*=", re.M)


def final_ttgir_section(path: str) -> str | None:
    """For an MLIR_ENABLE_DUMP log: the index of the last section still in TTGIR form (no `cf.`/`llvm.` ops,
    no `ttg.shared` allocation attribute), i.e. what `triton.compile` of a .ttgir expects; None otherwise.
    The log's last section is usually inside the LLVM-lowering stage, which a .ttgir compile would redo."""
    from irkit.frontend import dumplog

    p = Path(path)
    if p.is_dir():
        return None
    try:
        text = dumplog.read_text(p)
    except (OSError, EOFError):
        return None
    if not dumplog.is_dump_log(text[: 1 << 16]):
        return None
    sections = dumplog.split_sections(text)
    ttgir = [sec.index for sec in sections if "tt.func" in sec.text and not _LOWERED.search(sec.text)]
    return str(ttgir[-1]) if ttgir else None


# -- the comparison ---------------------------------------------------------------------------------------


@dataclass
class StaticCheck:
    name: str
    target: str | None
    limit: int | None
    changed: bool
    remarks: list[str] = field(default_factory=list)
    before: dict = field(default_factory=dict)  # {"real": compile_metrics row, "predicted": rewrite.predict}
    after: dict = field(default_factory=dict)
    disagreements: list[str] = field(default_factory=list)
    error: str | None = None

    def to_dict(self) -> dict:
        return dict(self.__dict__)


def disagreements(side: str, real: dict, predicted: dict | None, limit: int | None) -> list[str]:
    """Where irkit's prediction and the real compiler differ (shared bytes, fits the target)."""
    if not predicted or not real.get("ok"):
        return []
    out = []
    if predicted.get("shared") is not None and real.get("shared") is not None and predicted["shared"] != real["shared"]:
        out.append(f"{side}: shared memory predicted {predicted['shared']:,} B, compiler {real['shared']:,} B")
    if (limit is not None and predicted.get("shared") is not None and real.get("shared") is not None
            and (predicted["shared"] <= limit) != (real["shared"] <= limit)):
        out.append(f"{side}: fits {limit:,} B predicted {predicted['shared'] <= limit}, compiler {real['shared'] <= limit}")
    return out


def check_static(inputs: list[ModuleInput], pipeline_spec: str, triton_python: str | None = None,
                 module_version: str | None = None, target: str | None = None) -> dict:
    """The whole static check: rewrite each module, compile both versions, compare."""
    from irkit.analysis.shared_memory import resolve_target
    from irkit.check.rewrite import parse_pipeline, rewrite_module

    pipeline = parse_pipeline(pipeline_spec)
    python = find_triton_python(triton_python)
    installed = installed_triton_version(python)
    checks: list[StaticCheck] = []
    with tempfile.TemporaryDirectory(prefix="irkit-check-") as d:
        paths, targets, pending = [], [], []
        for i, inp in enumerate(inputs):
            why = version_mismatch(module_version or inp.recorded_version,
                                   bool(re.search(r"\btriton_gpu\.", inp.text)), installed)
            if why:
                raise CliError(f"{inp.name}: {why} ('{python}'); pass --triton-python with a matching Triton")
            with _triton_python_env(python):  # what propagate-mma (profit=auto, compiled) compiles with
                res = rewrite_module(inp.text, inp.name, pipeline, module_version or inp.recorded_version or installed,
                                     inp.line_offset)
            if res.error:
                raise CliError(res.error)
            tgt = target or _module_target(inp.text)
            known = resolve_target(tgt)
            check = StaticCheck(inp.name, tgt, known.limit if known else None, res.changed, res.remarks)
            check.before["predicted"], check.after["predicted"] = res.predicted_before, res.predicted_after
            stem = re.sub(r"[^\w.-]", "_", Path(inp.name).stem)
            before, after = Path(d) / f"{i}_before" / f"{stem}.ttgir", Path(d) / f"{i}_after" / f"{stem}.ttgir"
            for p, text in ((before, inp.text), (after, res.text)):
                p.parent.mkdir()
                p.write_text(text)
            paths += [before, after]
            targets += [tgt, tgt]
            pending.append(check)
        version, rows = compile_metrics(paths, targets, python)
    for i, check in enumerate(pending):
        check.before["real"], check.after["real"] = rows[2 * i], rows[2 * i + 1]
        if not check.before["real"]["ok"]:
            raise CliError(f"{check.name}: the real Triton {version} rejects the input module: "
                           f"{check.before['real']['error']}")
        if not check.after["real"]["ok"]:
            check.error = f"the real Triton {version} rejects the rewritten module: {check.after['real']['error']}"
        for side in ("before", "after"):
            check.disagreements += disagreements(side, getattr(check, side)["real"],
                                                 getattr(check, side)["predicted"], check.limit)
        checks.append(check)
    return {"mode": "static", "pipeline": pipeline_spec, "triton": {"version": version, "python": python},
            "modules": [c.to_dict() for c in checks]}
