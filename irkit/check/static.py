"""The real Triton as irkit-check's static mode and the passes' compiler use it: find a Python with Triton,
compile modules there and read what the binaries say.  No GPU is needed (irkit/check/static_mode.py is the
before/after comparison built on it).

The real compiler runs in a subprocess of the Python that has Triton (`find_triton_python`), through
`compile_worker.py`, so irkit never imports triton.  `compile_metrics` is the API other tools use:

    from irkit.check.static import compile_metrics
    version, metrics = compile_metrics(["a.ttgir", "b.ttgir"])   # one subprocess for all files
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from irkit.check import binary_metrics
from irkit.cli.entry import CliError

WORKER = Path(__file__).with_name("compile_worker.py")
ENV_PYTHON = "IRKIT_TRITON_PYTHON"


def find_triton_python(explicit: str | None = None) -> str:
    """The Python whose Triton compiles: `explicit`, else $IRKIT_TRITON_PYTHON, else this interpreter
    when it can import triton.  CliError when there is none."""
    chosen = explicit or os.environ.get(ENV_PYTHON)
    if chosen:
        if not (os.path.isfile(chosen) and os.access(chosen, os.X_OK)):
            raise CliError(f"the Triton Python '{chosen}' does not exist or is not executable")
        return chosen
    if importlib.util.find_spec("triton") is not None:
        return sys.executable
    raise CliError("no Triton to compile with: install it in this Python (pip install 'irkit[triton]') "
                   f"or name a Python that has it with --triton-python or {ENV_PYTHON}")


def installed_triton_version(python: str) -> str:
    """The Triton version of `python`, without importing triton (cheap)."""
    probe = ("import importlib.metadata as metadata\n"
             "for d in ('triton', 'pytorch-triton', 'pytorch-triton-xpu', 'triton-xpu', 'pytorch-triton-rocm'):\n"
             "    try:\n        print(metadata.version(d)); break\n    except metadata.PackageNotFoundError: pass\n"
             "else:\n    import triton; print(triton.__version__)\n")
    p = subprocess.run([python, "-c", probe], capture_output=True, text=True, check=False)
    if p.returncode != 0 or not p.stdout.strip():
        last = (p.stderr.strip().splitlines() or ["no output"])[-1]
        raise CliError(f"'{python}' has no usable Triton ({last})")
    return p.stdout.strip().splitlines()[-1]


def _major_minor(version: str) -> tuple[int, int]:
    m = re.match(r"(\d+)\.(\d+)", version)
    return (int(m.group(1)), int(m.group(2))) if m else (0, 0)


def version_mismatch(module_version: str | None, spelling_31: bool, installed: str) -> str | None:
    """Why `installed` Triton cannot compile the module, or None.  An exact module version (from the cache
    entry's JSON or --module-version) must match in major.minor; otherwise the dialect spelling decides:
    `triton_gpu.*` is Triton <= 3.1, `ttg.*` is 3.2 and newer."""
    have = _major_minor(installed)
    if module_version:
        if _major_minor(module_version) != have:
            return f"the module is Triton {module_version} IR but the installed Triton is {installed}"
        return None
    if spelling_31 and have >= (3, 2):
        return f"the module is Triton 3.1 IR (triton_gpu.* spelling) but the installed Triton is {installed}"
    if not spelling_31 and have < (3, 2):
        return f"the module is Triton 3.2+ IR (ttg.* spelling) but the installed Triton is {installed}"
    return None


class CompileTimeout(CliError):
    """The real compiler ran past its time limit (and was killed)."""


def compile_metrics(paths: list[str | Path], targets: list[str | None] | None = None,
                    triton_python: str | None = None, timeout_s: float | None = None,
                    options: list[dict | None] | None = None) -> tuple[str, list[dict]]:
    """Compile each TTGIR file with the real Triton (all in one subprocess) and measure the binaries.

    Returns (Triton version, one dict per file): {"ok", "shared", "error", "name", plus
    `binary_metrics.binary_summary`: registers, spill bytes, global loads/stores by width, shared-memory
    instructions and barriers}.  `targets`: "cuda:90", "hip:gfx942", "xpu"; None reads the module's
    `ttg.target`.  `timeout_s`: a CliError when the compiles take longer (the subprocess is killed).
    `options`: Triton compile options per file (AMD's waves_per_eu acts after TTGIR)."""
    python = find_triton_python(triton_python)
    jobs = []
    for i, path in enumerate(paths):
        target = (targets or [None] * len(paths))[i] or _module_target(Path(path).read_text())
        if target is None:
            raise CliError(f"{path}: the module names no target (ttg.target); pass --target")
        jobs.append({"path": str(Path(path).resolve()), "target": target})
        if options and options[i]:
            jobs[-1]["options"] = options[i]
    with tempfile.TemporaryDirectory(prefix="irkit-check-") as d:
        request = Path(d) / "request.json"
        request.write_text(json.dumps({"jobs": jobs}))
        try:
            p = subprocess.run([python, str(WORKER), str(request)], capture_output=True, text=True, check=False,
                               timeout=timeout_s)
        except subprocess.TimeoutExpired:
            raise CompileTimeout(f"the Triton in '{python}' did not finish compiling in {timeout_s:g} s") from None
    if p.returncode != 0 or not p.stdout.strip():
        last = (p.stderr.strip().splitlines() or ["no output"])[-1]
        raise CliError(f"the Triton in '{python}' failed to start: {last}")
    answer = json.loads(p.stdout.strip().splitlines()[-1])
    out = []
    for job, res in zip(jobs, answer["results"]):
        row = {"ok": res["ok"], "target": job["target"], "shared": res.get("shared"), "name": res.get("name"),
               "error": None if res["ok"] else _one_line_error(res)}
        if res["ok"]:
            row.update(binary_metrics.binary_summary(res.get("asm", {}), res.get("ptxas_log"), res.get("name")))
            row["ttgir_convert_layout"] = binary_metrics.convert_layout_count(Path(job["path"]).read_text())
            for key in ("build_flags", "n_regs", "n_spills"):
                if key in res:
                    row[key] = res[key]
            row.update(amd_occupancy(row, job["target"], res.get("num_warps"), res.get("waves_per_eu")))
        out.append(row)
    return answer["triton_version"], out


def amd_occupancy(row: dict, target: str | None, num_warps: int | None, waves_per_eu: int | None = None) -> dict:
    """Waves per SIMD and the limiter of a compiled HIP kernel (`occupancy.waves_per_simd`, LDS included);
    nothing for other targets."""
    from irkit.analysis.occupancy import cu_limits, waves_per_simd

    cu = cu_limits(target)
    if cu is None or row.get("registers") is None:
        return {}
    sgprs = row.get("occupancy_sgprs") or row.get("sgpr_count") or 0
    w = waves_per_simd(cu, row["registers"], num_warps or 4, row.get("shared") or 0, sgprs, waves_per_eu or 0)
    return {"waves_per_simd": w.waves, "limited_by": w.limited_by, "occupancy": str(w),
            "next_vgprs": w.next_vgprs, "next_lds": w.next_lds}


@contextmanager
def _triton_python_env(python: str) -> Iterator[None]:
    """$IRKIT_TRITON_PYTHON set to `python` for the block: passes that compile use the checker's Triton."""
    saved = os.environ.get(ENV_PYTHON)
    os.environ[ENV_PYTHON] = python
    try:
        yield
    finally:
        if saved is None:
            del os.environ[ENV_PYTHON]
        else:
            os.environ[ENV_PYTHON] = saved


def _one_line_error(res: dict) -> str:
    diags = [d for d in res.get("diagnostics", []) if "error" in d]
    text = diags[-1] if diags else res.get("error") or "compile failed"
    return " ".join(text.split())[:400]


def _module_target(text: str) -> str | None:
    m = re.search(r'"?(?:ttg|triton_gpu)\.target"?\s*=\s*"([^"]+)"', text)
    return m.group(1) if m else None
