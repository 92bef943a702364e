"""Triton 3.4 sizes every convert at the larger of its swizzled and its padded scratch ("pessimistically take the
max", lib/Analysis/Allocation.cpp of June-July 2025; `triton_versions.cvt_takes_larger_scratch`).  The bytes below
are Triton 3.4.0's own allocation pass on each module (tools/refgen/real_shared.py --triton 3.4, cuda:90,
2026-11-29; the first modules of `tools/random_converts.py --seed 1`); with IRKIT_TRITON_PYTHONS they are
measured again here.  3.5 takes the swizzled scratch alone."""

from __future__ import annotations

import pytest
from convert_module import convert_module
from real_allocation import real_shared_bytes
from test_check_static import triton_python

from irkit.analysis.shared_memory import analyze_shared_memory
from irkit.frontend.parser import Parser

# (module, Triton 3.4.0's bytes, the swizzled scratch alone as 3.5 takes it)
MEASURED = [
    (convert_module("#ttg.blocked<{sizePerThread = [2, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [1, 0]}>",
             "#ttg.blocked<{sizePerThread = [8, 8], threadsPerWarp = [32, 1], warpsPerCTA = [2, 2], order = [0, 1]}>",
             "32x64xf16"), 2112, 2048),
    (convert_module("#ttg.blocked<{sizePerThread = [8, 8], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [1, 0]}>",
             "#ttg.blocked<{sizePerThread = [4, 2], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [1, 0]}>",
             "32x32xf16"), 2560, 512),
    (convert_module("#ttg.blocked<{sizePerThread = [4, 2], threadsPerWarp = [16, 2], warpsPerCTA = [2, 2], order = [1, 0]}>",
             "#ttg.blocked<{sizePerThread = [4, 8], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [1, 0]}>",
             "64x128xf16"), 17408, 4096),
]


@pytest.mark.parametrize("text,triton34,swizzled", MEASURED, ids=["padded-by-64", "padded-5x", "padded-4x"])
def test_34_takes_the_larger_scratch_and_35_the_swizzled(text, triton34, swizzled):
    parsed = Parser(text, "m.mlir").parse()
    assert analyze_shared_memory(parsed, version="3.4.0").total_bytes == triton34
    assert analyze_shared_memory(parsed, version="3.5.1").total_bytes == swizzled


def test_the_release_measures_the_same(tmp_path):
    python = triton_python("3.4")
    if python is None:
        pytest.skip("no Triton 3.4 (IRKIT_TRITON_PYTHONS)")
    for text, triton34, _ in MEASURED:
        path = tmp_path / "m.ttgir"
        path.write_text(text)
        assert real_shared_bytes(python, path) == triton34
