"""Intel IR as the Intel XPU backend (triton-xpu 3.3.0b1) prints it: tests/data/intel/ (tools/intel_xpu_kernels.py:
GEMM and GEMM + add-matrix, plain and block pointers, PVC target).  That compiler writes core ops as `ttg.*` and
its own as `triton_intel_gpu.*` / `#triton_intel_gpu.dpas`: irkit reads it, prints it back in that same spelling,
and the real Intel compiler parses irkit's output (custom form, with locations, and generic form).

The real compiler is found through `IRKIT_XPU_PYTHON` (a Python with triton-xpu), else /work/.venv-xpu; the
checks that need it skip without it.
"""

from __future__ import annotations

import json
import os
from functools import cache
from pathlib import Path

import pytest
from test_real_parser import broken_copies, check_with

from irkit.frontend.parser import Parser
from irkit.frontend.printer import print_module
from irkit.verifier import verify_module

DATA = Path(__file__).resolve().parent / "data" / "intel"
FILES = sorted(p for p in DATA.iterdir() if p.suffix in (".ttir", ".ttgir"))
TTGIR = [p for p in FILES if p.suffix == ".ttgir"]


def xpu_python() -> str | None:
    python = os.environ.get("IRKIT_XPU_PYTHON") or "/work/.venv-xpu/bin/python"
    return python if Path(python).exists() else None


@cache
def _parsed(path: Path):
    return Parser(path.read_text(), str(path)).parse()


def test_index_lists_every_kernel():
    index = json.loads((DATA / "index.json").read_text())
    names = {c["name"] for c in index["cases"]}
    assert {p.stem for p in FILES} == names
    kinds = {(c["block_pointers"], c["add_matrix"]) for c in index["cases"]}
    assert kinds == {(False, False), (False, True), (True, False), (True, True)}
    assert all(c["shared"] >= 0 for c in index["cases"])


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_round_trip_in_the_input_spelling(path):
    parsed = _parsed(path)
    errors = verify_module(parsed.module)
    assert not errors, [msg for _, msg in errors]
    text = path.read_text()
    assert print_module(parsed, debuginfo=True) == text  # byte for byte, aliases named by irkit's policy
    assert print_module(parsed, debuginfo=True, mlir_value_names=True) == text  # it names values as MLIR does


@pytest.mark.parametrize("path", TTGIR, ids=lambda p: p.name)
def test_intel_names_stay_triton_intel_gpu(path):
    text = path.read_text()
    assert "triton_intel_gpu." in text and "ttg." in text  # the mixed spelling of the XPU backend
    for generic in (False, True):
        printed = print_module(_parsed(path), generic=generic)
        assert "ttig." not in printed
        assert "#triton_intel_gpu.dpas<" in printed
        assert ("triton_intel_gpu.prefetch" in printed) == ("triton_intel_gpu.prefetch" in text)


@pytest.mark.parametrize("debuginfo, generic", [(False, False), (True, False), (True, True)],
                         ids=["plain", "debuginfo", "generic"])
def test_real_intel_compiler_parses_irkit_output(debuginfo, generic, tmp_path):
    python = xpu_python()
    if python is None:
        pytest.skip("no Intel XPU Triton: set IRKIT_XPU_PYTHON or create /work/.venv-xpu")
    outputs = []
    for path in FILES:
        out = tmp_path / (path.name + ".mlir")
        out.write_text(print_module(_parsed(path), debuginfo=debuginfo, generic=generic))
        outputs.append(out)
    broken = broken_copies(print_module(_parsed(TTGIR[0]), debuginfo=debuginfo), tmp_path)
    version, results = check_with(python, outputs + broken)
    assert version.startswith("3.3"), version
    for b in broken:
        assert results[str(b)] is not None, f"the Intel compiler accepted the broken file {b.name}"
    failures = {Path(p).name: r for p, r in results.items() if r is not None and Path(p) not in broken}
    assert failures == {}
