"""The real oracle for MLIR GPU host code (seed 001): lower with the real `mlir-opt-22`, run the host code
with `mlir-runner-22` against a counting `mgpu*` runtime (irkit/check/runtime/mgpu_count.c, built with the
system C compiler), and count each runtime entry point's calls, before and after an irkit pipeline.

The lowering is MLIR 22's (docs/seed-notes and docs/passes/hoist-launch-stream.md): the kernels go through
NVVM to PTX (`gpu-module-to-binary{format=isa}` needs no CUDA), the host through `gpu-to-llvm`, and the
runner never touches a GPU: only the counts are real.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from functools import cache
from pathlib import Path

LOWERING = ("builtin.module(nvvm-attach-target{chip=sm_90 O=3},convert-scf-to-cf,gpu.module(convert-gpu-to-nvvm),"
            "gpu-to-llvm,reconcile-unrealized-casts,gpu-module-to-binary{format=isa})")
RUNTIME_SOURCE = Path(__file__).with_name("runtime") / "mgpu_count.c"


class OracleUnavailable(RuntimeError):
    """mlir-opt-22, mlir-runner-22 or a C compiler is missing."""


def tools() -> dict[str, str]:
    found = {}
    for key, names in (("mlir-opt", ("mlir-opt-22", "mlir-opt")), ("mlir-runner", ("mlir-runner-22", "mlir-runner")),
                       ("cc", ("cc", "gcc", "clang"))):
        env = os.environ.get("IRKIT_" + key.upper().replace("-", "_"))
        path = env or next((p for p in map(shutil.which, names) if p), None)
        if not path:
            raise OracleUnavailable(f"{names[0]} not found (Debian: apt-get install mlir-22-tools lld-22)")
        found[key] = path
    return found


@cache
def counting_runtime() -> str:
    """Build the counting runtime once per process; the path of the shared library."""
    out = Path(tempfile.mkdtemp(prefix="irkit-mgpu-")) / "libmgpucount.so"
    res = subprocess.run([tools()["cc"], "-shared", "-fPIC", "-O1", "-o", str(out), str(RUNTIME_SOURCE)],
                         capture_output=True, text=True)
    if res.returncode != 0:
        raise OracleUnavailable(f"building the counting runtime failed: {res.stderr.strip()[:300]}")
    return str(out)


def lower(text: str) -> str:
    """The module's host and kernels lowered by the real mlir-opt (LLVM dialect, binary embedded)."""
    res = subprocess.run([tools()["mlir-opt"], "-", f"--pass-pipeline={LOWERING}"], input=text,
                         capture_output=True, text=True, timeout=300)
    if res.returncode != 0:
        raise RuntimeError("mlir-opt failed: " + (res.stderr.strip().splitlines() or ["?"])[0])
    return res.stdout


def count_calls(text: str, entry: str = "main") -> dict[str, int]:
    """Run the lowered module's `entry` (no arguments, no result) and return the calls per `mgpu*` entry point."""
    lowered = lower(text)
    with tempfile.TemporaryDirectory(prefix="irkit-count-") as d:
        src = Path(d) / "lowered.mlir"
        src.write_text(lowered)
        counts = Path(d) / "counts.txt"
        env = dict(os.environ, MGPU_COUNT_OUT=str(counts))
        res = subprocess.run([tools()["mlir-runner"], str(src), "-e", entry, "--entry-point-result=void",
                              f"--shared-libs={counting_runtime()}"], capture_output=True, text=True, env=env,
                             timeout=300)
        if res.returncode != 0:
            raise RuntimeError("mlir-runner failed: " + (res.stderr.strip().splitlines() or ["?"])[0])
        pairs = (line.split() for line in counts.read_text().splitlines() if line.strip()) if counts.exists() else []
        return {name: int(n) for name, n in pairs}


def check_gpu_host(inputs: list[tuple[str, str]], pipeline_spec: str) -> dict:
    """Before/after runtime call counts for each (name, text) module under the irkit pipeline."""
    from irkit.check.rewrite import rewrite_module

    modules = []
    for name, text in inputs:
        entry: dict = {"name": name}
        res = rewrite_module(text, name, pipeline_spec)
        if res.error or res.text is None:
            entry["error"] = res.error or "the pipeline failed"
            modules.append(entry)
            continue
        entry["remarks"] = [r for r in res.remarks if "irkit's prediction failed" not in r]
        try:
            before, after = count_calls(text), count_calls(res.text)
        except RuntimeError as e:
            entry["error"] = str(e)
            modules.append(entry)
            continue
        entry["calls"] = {k: {"before": before.get(k, 0), "after": after.get(k, 0)} for k in sorted({*before, *after})}
        modules.append(entry)
    return {"mode": "mlir-gpu", "pipeline": pipeline_spec, "lowering": LOWERING, "modules": modules}


def render_text(report: dict) -> str:
    lines = [f"irkit-check (MLIR GPU host code, real mlir-opt + mlir-runner, counting runtime): -p {report['pipeline']}"]
    for m in report["modules"]:
        lines.append("")
        lines.append(m["name"])
        if m.get("error"):
            lines.append(f"  error: {m['error']}")
            continue
        width = max([len(k) for k in m["calls"]] + [len("runtime entry point")])
        lines.append(f"  {'runtime entry point':<{width}}  {'before':>8}  {'after':>8}")
        for k, v in m["calls"].items():
            lines.append(f"  {k:<{width}}  {v['before']:>8}  {v['after']:>8}")
        for r in m.get("remarks", []):
            lines.append(f"  {r}")
    return "\n".join(lines) + "\n"


def render_html(report: dict) -> str:
    import html

    e = html.escape
    parts = ["<!doctype html><meta charset='utf-8'><title>irkit-check: runtime calls</title>",
             f"<h1>irkit-check -p {e(report['pipeline'])}</h1><p>lowering: <code>{e(report['lowering'])}</code></p>"]
    for m in report["modules"]:
        parts.append(f"<h2>{e(m['name'])}</h2>")
        if m.get("error"):
            parts.append(f"<p>error: {e(m['error'])}</p>")
            continue
        parts.append("<table><tr><th>runtime entry point</th><th>before</th><th>after</th></tr>")
        parts += [f"<tr><td>{e(k)}</td><td>{v['before']}</td><td>{v['after']}</td></tr>" for k, v in m["calls"].items()]
        parts.append("</table>")
    return "\n".join(parts) + "\n"
