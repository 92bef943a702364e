"""Which converts Triton 3.4+ does with a warp shuffle when the source broadcasts over a warp bit that the
destination spreads over (docs/shared-memory.md).  The bytes below are each release's own allocation pass on the
same module (tools/refgen/real_shared.py with Triton 3.6.0, 3.8.0 and 3.9.0, 2026-11-29); with
IRKIT_TRITON_PYTHONS they are measured again here."""

from __future__ import annotations

import pytest
from convert_module import convert_module
from real_allocation import real_shared_bytes
from test_check_static import triton_python

from irkit.analysis.shared_memory import analyze_shared_memory
from irkit.frontend.parser import Parser
from irkit.layout import conversion
from irkit.layout.linear import LANE, REG, WARP, to_linear_layout

# src's first warp bit would split columns past the tensor's 64, so src broadcasts over it; dst spreads rows 4-7
# over that warp bit, rows src holds in its lanes
FROM_LANES = convert_module(
    "#ttg.blocked<{sizePerThread = [2, 8], threadsPerWarp = [4, 8], warpsPerCTA = [2, 2], order = [1, 0]}>",
    "#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>",
    "32x64xbf16")
# src broadcasts over its second warp bit (rows past 64); dst spreads columns 8-15 over it, which src holds in
# its registers
FROM_REGISTERS = convert_module(
    "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>",
    "#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [32, 1], warpsPerCTA = [2, 2], order = [0, 1]}>",
    "64x64xbf16")
MEASURED = [(FROM_LANES, {"3.6.0": 2048, "3.8.0": 2048, "3.9.0": 0}),
            (FROM_REGISTERS, {"3.6.0": 2048, "3.8.0": 2048, "3.9.0": 2048})]


@pytest.mark.parametrize("text,by_release", MEASURED, ids=["from-lanes", "from-registers"])
@pytest.mark.parametrize("release", ["3.6.0", "3.8.0", "3.9.0"])
def test_each_release_shuffles_what_it_measured(text, by_release, release):
    parsed = Parser(text, "m.mlir").parse()
    assert analyze_shared_memory(parsed, version=release).total_bytes == by_release[release]


def test_minimal_cvt_layout_keeps_the_warps_src_broadcasts_over():
    parsed = Parser(FROM_LANES, "m.mlir").parse().module
    cvt = next(op for op in parsed.walk() if op.name == "ttg.convert_layout")
    src, dst = cvt.operands[0].type, cvt.results[0].type
    shape = tuple(src.get_shape())
    ls, ld = to_linear_layout(src.encoding, shape), to_linear_layout(dst.encoding, shape)
    assert ls.bases[WARP][0] == (0, 0)  # src broadcasts
    minimal = conversion.minimal_cvt_layout(ls, ld)
    assert minimal.out_dim_names == [REG, LANE, WARP]
    # dst's first warp bit reads src's fifth lane bit
    assert minimal.bases[WARP][0] == (0, 16, 0)
    # a layout converted to itself keeps nothing but its registers, quotiented away too
    assert conversion.minimal_cvt_layout(ls, ls).out_dim_names == []


def test_the_cost_model_takes_the_releases_rule():
    from irkit.analysis.cost_model import conversion_cost

    cvt = next(op for op in Parser(FROM_LANES, "m.mlir").parse().module.walk() if op.name == "ttg.convert_layout")
    src, dst = cvt.operands[0].type, cvt.results[0].type
    assert conversion_cost(src, dst, "3.8.0", "cuda:90", 32).needs_shared
    assert not conversion_cost(src, dst, "3.9.0", "cuda:90", 32).needs_shared


@pytest.mark.parametrize("release", ["3.6.0", "3.8.0", "3.9.0"])
def test_the_release_measures_the_same(release, tmp_path):
    python = triton_python(release.rsplit(".", 1)[0])
    if python is None:
        pytest.skip(f"no Triton {release} (IRKIT_TRITON_PYTHONS)")
    for text, by_release in MEASURED:
        path = tmp_path / "m.ttgir"
        path.write_text(text)
        assert real_shared_bytes(python, path) == by_release[release]
