"""propagate-mma's `version`: the Triton release that made the module.  Its allocation rules price the conversions
(one function at a time as a whole module: `function_allocation` follows the release as `analyze_shared_memory`
does), and on AMD 3.3-3.6, where the compile fits a module over the LDS first (optimize-amd-lds-usage), a
rewrite does not "bring shared memory under the limit" that compile already fits.  On real compiled kernels."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from irkit.passes import all_passes
from xdsl.context import Context

from irkit import diagnostics
from irkit.analysis.mma_profit import ModuleFacts
from irkit.analysis.shared_memory import analyze_shared_memory, function_allocation
from irkit.analysis.triton_versions import V31, V33, V39
from irkit.dialects.tt import FuncOp
from irkit.dialects.ttg import ConvertLayoutOp
from irkit.frontend.parser import parse_file

ROOT = Path(__file__).resolve().parents[1]
# Triton 3.6.0, gfx942, 8 warps: 262,144 B as written; its compile fits it in 33,792 B (tests/data/amd_lds)
AMD_GEMM = ROOT / "tests" / "data" / "amd_lds" / "gemm_add_matrix_256x256_w8_triton360.ttgir"
# Triton 3.4.0 kernels, whose converts take the larger of their swizzled and padded scratch
FRESH_34 = sorted((ROOT / "tests" / "data" / "fresh" / "3.4.0").glob("*/*.ttgir"))


def run(path: Path, **options):
    parsed = parse_file(str(path))
    all_passes()["propagate-mma"](**options).apply(Context(allow_unregistered=True), parsed.module)
    remarks = [d.message for d in diagnostics.take() if d.severity == "remark"]
    return sum(isinstance(op, ConvertLayoutOp) for op in parsed.module.walk()), remarks


@pytest.mark.parametrize("version", ["", "3.7.0", "3.8.0"])
def test_a_module_no_compile_fits_is_brought_under_the_limit(version):
    converts, remarks = run(AMD_GEMM, profit="model", version=version)
    assert converts == 0
    assert "shared memory 262,144 -> 16,384 B predicted" in remarks[0]
    assert "brings shared memory under the limit" in remarks[0]


@pytest.mark.parametrize("version", ["3.5.1", "3.6.0"])
def test_a_module_the_compile_fits_is_judged_on_its_speed(version):
    """Triton 3.5/3.6 fit it first (33,792 B): the rewrite unlocks nothing, and the model calls it a loss."""
    converts, remarks = run(AMD_GEMM, profit="model", version=version)
    assert converts == 1
    assert remarks[0].startswith("propagate-mma: conversion kept: ")
    assert "brings shared memory under the limit" not in remarks[0] and "(model: -10,752 cycles/CTA)" in remarks[0]


def test_irkit_opt_gives_the_pass_its_triton_version():
    def remarks(*flags: str) -> str:
        p = subprocess.run([sys.executable, "-m", "irkit.cli.opt", str(AMD_GEMM), "-p", "propagate-mma{profit=model}",
                            "--mlir-print-remarks", *flags], capture_output=True, text=True, timeout=300)
        assert p.returncode == 0, p.stderr
        return p.stderr

    assert "brings shared memory under the limit" in remarks()
    assert "conversion kept" in remarks("--triton-version", "3.6.0")


def test_a_bad_version_is_an_error():
    p = subprocess.run([sys.executable, "-m", "irkit.cli.opt", str(AMD_GEMM), "-p", "propagate-mma{version=abc}"],
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 1 and "error: propagate-mma: bad Triton version 'abc'" in p.stderr
    assert "Traceback" not in p.stderr


def test_a_release_brings_its_rule_set():
    module = parse_file(str(AMD_GEMM)).module
    assert (ModuleFacts(module, "3.1.0").version, ModuleFacts(module, "3.3.1").version) == (V31, V33)
    facts = ModuleFacts(module, "3.6.0")
    assert (facts.version, facts.release) == (V39, "3.6.0")
    assert ModuleFacts(module).release is None


@pytest.mark.parametrize("path", FRESH_34, ids=lambda p: p.parent.name)
def test_one_function_is_allocated_as_the_whole_module_is(path):
    """What the pass refreshes after a rewrite is what the whole analysis gives, release rules included."""
    module = parse_file(str(path)).module
    (func,) = [f for f in module.walk() if isinstance(f, FuncOp)]
    for version in ("3.4.0", "3.9"):
        whole = analyze_shared_memory(module, version=version, as_compiled=False).total_bytes
        assert function_allocation(module, func, version, {})[0] == whole
    assert analyze_shared_memory(module, version="3.4.0").total_bytes != \
        analyze_shared_memory(module, version="3.9").total_bytes  # the release's rules matter on these
