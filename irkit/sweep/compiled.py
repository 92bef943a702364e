"""`--compile`: the real compiler's figures for a kernel before and after the pipeline.

Through irkit-check's static mode (`irkit.check.static.compile_metrics`): the kernel and its rewrite are
compiled by the installed Triton in a subprocess of the Python that has it, and the binaries measured.
A sweep may hold kernels of several Triton versions; each goes to the first of the given Pythons whose
Triton can compile it (irkit-check's version rule), and a kernel no Triton matches gets a compile_error.
"""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

COLUMNS = ("compile_triton", "compile_shared_before", "compile_shared_after", "compile_registers_before",
           "compile_registers_after", "compile_spills_before", "compile_spills_after", "compile_agrees",
           "compile_error")


def probe(pythons: list[str]) -> tuple[tuple[str, str], ...]:
    """(Triton version, python) for each Python given (default: irkit-check's choice); CliError if none."""
    from irkit.check.static import find_triton_python, installed_triton_version

    chosen = pythons or [find_triton_python(None)]
    return tuple((installed_triton_version(find_triton_python(p)), find_triton_python(p)) for p in chosen)


def _spills(real: dict) -> int | None:
    for key in ("spill_store_bytes", "vgpr_spill_count"):
        if real.get(key) is not None:
            return real[key]
    return None


def compile_columns(before_text: str, after_text: str, target: str | None, module_version: str | None,
                    predicted: tuple[int, int], tritons: tuple[tuple[str, str], ...]) -> dict:
    """The compile_* columns of one kernel (after = before when the pipeline changed nothing).
    `module_version`: the exact Triton version from the kernel's metadata, when known."""
    from irkit.check.static import compile_metrics, version_mismatch
    from irkit.cli.entry import CliError

    out = dict.fromkeys(COLUMNS)
    spelling_31 = bool(re.search(r"\btriton_gpu\.", before_text))
    python = None
    whys = []
    for installed, candidate in tritons:
        why = version_mismatch(module_version, spelling_31, installed)
        if why is None:
            out["compile_triton"], python = installed, candidate
            break
        whys.append(why)
    if python is None:
        out["compile_error"] = f"no Triton to compile it with: {whys[0] if whys else 'none given'}"
        return out
    same = before_text == after_text
    with tempfile.TemporaryDirectory(prefix="irkit-sweep-") as d:
        paths = []
        for side, text in (("before", before_text), ("after", after_text))[: 1 if same else 2]:
            p = Path(d) / side / "kernel.ttgir"
            p.parent.mkdir()
            p.write_text(text)
            paths.append(p)
        try:
            _, rows = compile_metrics(paths, [target] * len(paths), python)
        except CliError as e:
            out["compile_error"] = str(e)
            return out
    real_before, real_after = rows[0], rows[-1]
    for side, real in (("before", real_before), ("after", real_after)):
        if not real["ok"]:
            out["compile_error"] = out["compile_error"] or f"{side}: {real['error']}"
            continue
        out[f"compile_shared_{side}"] = real.get("shared")
        out[f"compile_registers_{side}"] = real.get("registers")
        out[f"compile_spills_{side}"] = _spills(real)
    if real_before["ok"] and real_after["ok"]:
        out["compile_agrees"] = (out["compile_shared_before"], out["compile_shared_after"]) == predicted
    return out
