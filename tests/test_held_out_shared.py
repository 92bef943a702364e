"""Shared-memory predictions on held-out kernels: real compiles the model was not tuned on.

* Triton 3.1.0, Hopper (cuda:90): our flash-attention kernel compiled by the real 3.1.0 to the cubin
  (tools/refgen/shared_held_out.py); `index.json` holds `metadata.shared` of 80 configurations, 4 of them
  ship their TTGIR.  The second dot reads the first dot's Hopper accumulator as operand A, a convert that
  3.1.0 does without shared memory for 8/16-bit elements whatever the dot operand's kWidth (a Hopper
  dot_op has none in 3.1: `matchMmaV3AndDotOperandLayout` before Triton #4125).  irkit predicted 8,704 B of
  scratch for it and over-predicted these kernels by up to 33,790 B before that rule.
* Intel PVC, triton-xpu 3.3.0b1: see the section below.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from xdsl.dialects.builtin import Float16Type, Float32Type, TensorType

from irkit.analysis import scratch, shared_memory
from irkit.dialects.encodings import (
    BlockedEncodingAttr,
    DotOperandEncodingAttr,
    DpasEncodingAttr,
    NvidiaMmaEncodingAttr,
)
from irkit.frontend.parser import Parser
from irkit.layout import algebra, conversion, linear

DATA = Path(__file__).parent / "data" / "shared_held_out"


def hopper_mma(warps):
    return NvidiaMmaEncodingAttr.from_values(versionMajor=3, versionMinor=0, warpsPerCTA=warps, instrShape=(16, 64, 16))


def lone_convert_bytes(src_enc, dst_enc, elem, shape=(128, 64), version="3.1"):
    return scratch.cvt_scratch_bytes(TensorType(elem, shape, src_enc), TensorType(elem, shape, dst_enc), version)[0]


@pytest.mark.parametrize("warps", [(4, 1), (8, 1)])
def test_hopper_accumulator_to_operand_a_is_a_shortcut_in_31(warps):
    """Measured with the real 3.1.0 pass on a lone 128x64 f16 convert: triton_gpu.shared = 2 (4 and 8 warps)."""
    mma = hopper_mma(warps)
    a_operand = DotOperandEncodingAttr.from_values(opIdx=0, parent=mma)
    assert conversion.is_mma_to_dot_shortcut(mma, a_operand, Float16Type(), "3.1")
    assert lone_convert_bytes(mma, a_operand, Float16Type()) == 2


def test_hopper_shortcut_needs_both_mmas_with_one_warp_column_in_31():
    """isMmaToMmaShortcut(parent, src): both Hopper with warpsPerCTA[1] == 1 (a parent that is another such
    mma counts too); f32 operands are not shortcuts (the real 3.1.0 asserts in the padded formula)."""
    m41, m81, m42 = hopper_mma((4, 1)), hopper_mma((8, 1)), hopper_mma((4, 2))
    f16 = Float16Type()
    assert conversion.is_mma_to_dot_shortcut(m41, DotOperandEncodingAttr.from_values(opIdx=0, parent=m81), f16, "3.1")
    assert not conversion.is_mma_to_dot_shortcut(m42, DotOperandEncodingAttr.from_values(opIdx=0, parent=m42), f16, "3.1")
    assert not conversion.is_mma_to_dot_shortcut(m41, DotOperandEncodingAttr.from_values(opIdx=1, parent=m41), f16, "3.1")
    assert not conversion.is_mma_to_dot_shortcut(m41, DotOperandEncodingAttr.from_values(opIdx=0, parent=m41), Float32Type(), "3.1")


def test_hopper_shortcut_in_33_still_needs_kwidth():
    """From 3.2 on a Hopper dot_op carries kWidth, and the shortcut requires kWidth == 32 / bits."""
    mma = hopper_mma((4, 1))
    f16 = Float16Type()
    assert not conversion.is_mma_to_dot_shortcut(mma, DotOperandEncodingAttr.from_values(opIdx=0, parent=mma), f16, "3.3")
    assert conversion.is_mma_to_dot_shortcut(mma, DotOperandEncodingAttr.from_values(opIdx=0, parent=mma, kWidth=2), f16, "3.3")


def test_batched_ampere_shortcut_reads_warps_dim_1_in_31():
    """3.1.0 tests warpsPerCTA[1] == 1 of an mma v2 (not the last dim): a rank-3 [2, 2, 1] mma is not a
    shortcut (the real 3.1.0 goes to the padded formula, and asserts), [4, 1, 1] is (2 bytes)."""
    def v2(warps):
        return NvidiaMmaEncodingAttr.from_values(versionMajor=2, versionMinor=0, warpsPerCTA=warps, instrShape=(1, 16, 8))

    f16 = Float16Type()
    for warps, shortcut in (((2, 2, 1), False), ((4, 1, 1), True), ((1, 2, 2), False)):
        mma = v2(warps)
        dot = DotOperandEncodingAttr.from_values(opIdx=0, parent=mma, kWidth=2)
        assert conversion.is_mma_to_dot_shortcut(mma, dot, f16, "3.1") is shortcut


def held_out_cases(version_dir: str, target_dir: str):
    index = DATA / version_dir / target_dir / "index.json"
    cases = json.loads(index.read_text())["cases"]
    return [c for c in cases if c.get("ttgir")]


@pytest.mark.parametrize(
    "case", held_out_cases("3.1.0", "cuda_90"), ids=lambda c: c["name"]
)
def test_attention_31_hopper_exact(case):
    path = DATA / "3.1.0" / "cuda_90" / case["ttgir"]
    parsed = Parser(path.read_text(), path.name).parse()
    report = shared_memory.analyze_shared_memory(parsed)
    assert report.version == "3.1"
    assert report.total_bytes == case["shared"]


# -- Intel PVC (triton-xpu 3.3.0b1) --------------------------------------------------------------------
#
# tests/data/intel-shared/ (tools/refgen/intel_shared.py): the block-pointer GEMM + add-matrix compiled by the
# real Intel XPU compiler for PVC, 128/256 x 128/256 tiles, 16 and 32 warps.  The D tile's #blocked -> #dpas
# convert dominates; Triton 3.3's padded scratch takes its order from the DPAS linear encoding, M first (a
# work-item holds a column of rows), so the pad goes on dim 0: 256x128 w32 pads to 257 x 128 f32 = 131,584 B
# where the layout's own order [1, 0] would give 256 x 129 = 132,096 B.

INTEL = Path(__file__).parent / "data" / "intel-shared"


def intel_cases():
    return json.loads((INTEL / "index.json").read_text())["cases"]


@pytest.mark.parametrize("case", intel_cases(), ids=lambda c: c["name"])
@pytest.mark.parametrize("version", ["3.3", None])
def test_intel_pvc_addmm_exact(case, version):
    """Exact with the 3.3 rules (the compiler's) and with the default for a ttg.* module (3.9 rules, whose
    swizzled scratch needs a linear layout: DPAS falls back to the same padded formula)."""
    path = INTEL / case["ttgir"]
    parsed = Parser(path.read_text(), path.name).parse()
    assert shared_memory.analyze_shared_memory(parsed, version=version, target="xpu").total_bytes == case["shared"]


def test_dpas_scratch_pads_dim_0():
    """#blocked (2x8 warps) -> #dpas (8x2 warps, repCluster [4, 2]) on 256x128 f32: rep 256 x 128, pad 1 on
    dim 0, as the real compiler allocates it (131,584 B)."""
    dpas = DpasEncodingAttr.build(8, 8, 16, 2, 16, (8, 2), (4, 2))
    # its linear layout walks the rows first (a work-item holds a column), though the layout's getOrder says [1, 0]
    assert linear.ll_order(linear.to_linear_layout(dpas, (256, 128), True)) == (0, 1) and algebra.get_order(dpas) == (1, 0)
    blocked = BlockedEncodingAttr.from_values(sizePerThread=(1, 1), threadsPerWarp=(1, 16), warpsPerCTA=(2, 8), order=(1, 0))
    src, dst = TensorType(Float32Type(), (256, 128), blocked), TensorType(Float32Type(), (256, 128), dpas)
    assert scratch.padded_rep_shape_33(src, dst, layout_tiles=True) == ([257, 128], 1, 1)
    assert scratch.cvt_scratch_bytes(src, dst, "3.3", "xpu")[0] == 131584
