"""An FMA dot's operands (a dot_op of a #blocked parent) as linear layouts (Triton's fmaDotToLinearLayout), and the
converts to and from them.  The bytes below are each release's own allocation pass on the module (tools/refgen/
real_shared.py with Triton 3.3.1, 3.6.0 and 3.9.0, 2026-11-29); with IRKIT_TRITON_PYTHONS they are measured again
here.  Random such converts: docs/random-converts-fma.txt."""

from __future__ import annotations

import pytest
from real_allocation import release_measures

from irkit.analysis.shared_memory import analyze_shared_memory
from irkit.dialects.encodings import BlockedEncodingAttr, DotOperandEncodingAttr
from irkit.frontend.parser import Parser
from irkit.layout.linear import LANE, REG, WARP, to_linear_layout

PARENT = BlockedEncodingAttr.of(size_per_thread=(2, 1), threads_per_warp=(4, 8), warps_per_cta=(1, 4), order=(1, 0))

# operand B (16 x 16, K rows) of an FMA dot to a blocked layout
MODULE = """#src = #ttg.blocked<{sizePerThread = [8, 8], threadsPerWarp = [2, 16], warpsPerCTA = [1, 4], order = [1, 0]}>
#parent = #ttg.blocked<{sizePerThread = [2, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [1, 0]}>
#dot = #ttg.dot_op<{opIdx = 1, parent = #parent}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @k(%x: tensor<16x16xf32, #dot>) -> tensor<16x16xf32, #src> {
    %c = ttg.convert_layout %x : tensor<16x16xf32, #dot> -> tensor<16x16xf32, #src>
    tt.return %c : tensor<16x16xf32, #src>
  }
}
"""
MEASURED = {"3.3.1": 1280, "3.6.0": 128, "3.9.0": 128}


def test_each_thread_holds_the_whole_k_and_lanes_and_warps_broadcast_along_it():
    a = to_linear_layout(DotOperandEncodingAttr.from_values(opIdx=0, parent=PARENT), (16, 32))
    # K (dim 1) wholly in registers: 32 columns, then the parent's 2 rows per thread
    assert [v for v in a.bases[REG] if v[1]] == [(0, 1), (0, 2), (0, 4), (0, 8), (0, 16)]
    # the parent's 8 lanes and 4 warps along K hold the same data (zero bases); its 4 lanes along M do not
    assert a.bases[LANE] == [(0, 0), (0, 0), (0, 0), (2, 0), (4, 0)]
    assert a.bases[WARP] == [(0, 0), (0, 0)]
    b = to_linear_layout(DotOperandEncodingAttr.from_values(opIdx=1, parent=PARENT), (32, 16))
    assert [v for v in b.bases[REG] if v[0]] == [(1, 0), (2, 0), (4, 0), (8, 0), (16, 0)]
    # N's 16 columns: 8 lanes, then the first of the parent's warp bits; the second reaches past N and repeats
    assert b.bases[WARP] == [(0, 8), (0, 0)]


@pytest.mark.parametrize("release", sorted(MEASURED))
def test_the_convert_takes_what_the_release_measured(release):
    assert analyze_shared_memory(Parser(MODULE, "m.mlir").parse(), version=release).total_bytes == MEASURED[release]


@pytest.mark.parametrize("release", sorted(MEASURED))
def test_the_release_measures_the_same(release, tmp_path):
    assert release_measures(release, MODULE, tmp_path) == MEASURED[release]
