"""AMD's plain ld/st swizzling from Triton 3.5 fills a convert's short vector from warp bases (getVecBasisLdSt of
November 2025, `conversion._vbasis_from_warps`); from 3.8 its bank tiles follow the arch's banks and ds_read tiles
(`conversion.amd_banks_and_load_tile`).  A bias-like 1-D slice of an MFMA accumulator converted to a slice of a
blocked layout: 16,384 f32, where each side holds 64 and 32 registers.  Triton 3.5.1, 3.6.0, 3.7.0, 3.8.0 and
3.9.0's own allocation passes give 1,024 B (tools/refgen/real_shared.py, 2026-11-29); irkit's earlier vector gave
256 B.  With IRKIT_TRITON_PYTHONS they are measured again."""

from __future__ import annotations

import pytest
from real_allocation import release_measures

from irkit.analysis.shared_memory import analyze_shared_memory
from irkit.frontend.parser import Parser
from irkit.layout import conversion

SLICES = """#src = #ttg.slice<{dim = 1, parent = #ttg.amd_mfma<{MFMA, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = false}>}>
#dst = #ttg.slice<{dim = 0, parent = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [0, 1]}>}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  tt.func public @k(%x: tensor<16384xf32, #src>) -> tensor<16384xf32, #dst> {
    %c = ttg.convert_layout %x : tensor<16384xf32, #src> -> tensor<16384xf32, #dst>
    tt.return %c : tensor<16384xf32, #dst>
  }
}
"""
# 3.5 spells the CDNA generation versionMajor, 3.6 on `version`
SPELLING = {"3.5.1": "versionMajor = 3, versionMinor = 0", "3.6.0": "version = 3", "3.7.0": "version = 3",
            "3.8.0": "version = 3", "3.9.0": "version = 3"}


def _text(release: str) -> str:
    return SLICES.replace("MFMA", SPELLING[release])


@pytest.mark.parametrize("release", sorted(SPELLING))
def test_the_vector_filled_from_warps_gives_the_releases_scratch(release):
    assert analyze_shared_memory(Parser(_text(release), "m.mlir").parse(), version=release).total_bytes == 1024


def test_each_arch_has_its_banks_and_load_tile():
    """3.8's TargetInfo: CDNA4 has 64 banks and reads 128 bits over lanes 0, 1, 3, 4 at a time; CDNA3 32 banks and
    lanes 0, 1, 4; CDNA2 32 banks and no such tile."""
    assert conversion.amd_banks_and_load_tile("hip:gfx950") == (64, (0, 1, 3, 4))
    assert conversion.amd_banks_and_load_tile("hip:gfx942") == (32, (0, 1, 4))
    assert conversion.amd_banks_and_load_tile("hip:gfx90a") == (32, None)


def test_the_vector_is_the_common_registers_up_to_128_bits():
    """Registers common to both sides give the vector (here 2 of them: 4 f32); a vector under a bank word is
    filled from the warp bases the other side holds in registers, then cut to one word."""
    assert conversion._vbasis_from_warps([1, 2, 8, 16], [8, 16, 32], [0, 32], [0, 0], 32) == [8, 16]
    assert conversion._vbasis_from_warps([1, 4], [2, 8], [8], [4], 8) == [4, 8]  # 8-bit: filled to 4 elements


@pytest.mark.parametrize("release", sorted(SPELLING))
def test_the_release_measures_the_same(release, tmp_path):
    assert release_measures(release, _text(release), tmp_path) == 1024
