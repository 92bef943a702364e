"""Shared-memory model: partitioned_shared tensors, physical partitions, nvmma_shared alignment, holey
shared_linear.  Every total below is what the real Triton passes assign to the same module (measured with
tools/refgen/real_shared.py on the CPU: 3.3.1, 3.8.0 and 3.9.0)."""

from __future__ import annotations

from pathlib import Path

import pytest

from irkit.analysis.shared_memory import analyze_shared_memory
from irkit.dialects.encodings import partitioned_shared, shared_linear_offsets
from irkit.frontend.parser import Parser

INPUTS = Path(__file__).resolve().parents[1] / "lit_tests" / "passes" / "Inputs"


def _module(text: str):
    return Parser(text, "partitions.mlir").parse().module


TWO_PARTITIONS = """
#S = #ttg.swizzled_shared<{vec = 2, perPhase = 2, maxPhase = 4, order = [1, 0]}>
#P = #ttg.partitioned_shared<{numPartitions = 2, numGroups = 2, partitionDim = 0, partitionLayout = #S}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "TARGET", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @k() {
    %a = ttg.local_alloc : () -> !ttg.memdesc<64x32xf16, #P, #smem, mutable>
    ttg.local_dealloc %a : !ttg.memdesc<64x32xf16, #P, #smem, mutable>
    tt.return
  }
}
"""


@pytest.mark.parametrize("target, total", [("hip:gfx1250", 65_536 + 2048), ("hip:gfx950", 4096)])
def test_partitions_of_a_tensor_take_their_own_physical_partitions_on_gfx1250(target, total):
    """gfx1250's LDS has 64 KiB physical partitions (real 3.8.0 and 3.9.0: 67,584 bytes); elsewhere the two
    2048-byte partition buffers sit side by side."""
    report = analyze_shared_memory(_module(TWO_PARTITIONS.replace("TARGET", target)), version="3.9")
    assert sorted(b.bytes for b in report.buffers) == [2048, 2048]
    assert report.total_bytes == total
    # the option of the test pass overrides the target's
    assert analyze_shared_memory(_module(TWO_PARTITIONS.replace("TARGET", target)), version="3.9",
                                 partition_size=0).total_bytes == 4096


def test_the_partition_input_of_the_lit_test_matches_real_39():
    """Real 3.9.0 for gfx1250: 197,632 bytes (four 1 KiB partitions 64 KiB apart, the rest fills the gaps)."""
    module = _module((INPUTS / "test-print-allocation-partitions.mlir").read_text())
    assert analyze_shared_memory(module, version="3.9.0").total_bytes == 197_632


def test_verbatim_layouts_are_read():
    module = _module((INPUTS / "test-print-allocation-partitions.mlir").read_text())
    encodings = [op.results[0].type.encoding for op in module.walk() if op.name == "ttg.local_alloc"]
    parts = [partitioned_shared(e) for e in encodings]
    assert parts[0] is None
    assert (parts[1].num_partitions, parts[1].num_groups, parts[1].paddings) == (2, 2, ((256, 8),))
    assert (parts[2].num_partitions, parts[2].num_groups, parts[2].paddings) == (4, 1, None)
    holey = _module("""
#H = #ttg.shared_linear<{offset = [[0, 1], [0, 0], [1, 0], [2, 0]], block = []}, alignment = 32>
module {
  tt.func @k() {
    %a = ttg.local_alloc : () -> !ttg.memdesc<4x2xi32, #H, #ttg.shared_memory, mutable>
    tt.return
  }
}""")
    enc = next(op.results[0].type.encoding for op in holey.walk() if op.name == "ttg.local_alloc")
    assert shared_linear_offsets(enc) == (4, 32)
    buffer = analyze_shared_memory(holey, version="3.9").buffers[0]
    assert (buffer.bytes, buffer.alignment) == (64, 32)
    assert analyze_shared_memory(holey, version="3.3").buffers[0].bytes == 32
