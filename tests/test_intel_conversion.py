"""Intel's convert rules: DPAS linear layouts (Intel's DPAStoLinearLayout), invertAndCompose, the sub-group
shuffle and transpose of Intel's allocation, and the layouts' own tiles of triton-xpu 3.3.0b1.

Sizes of whole modules are checked against the real triton-xpu 3.3.0b1 in
lit_tests/passes/Inputs/test-print-allocation-intel.mlir and tests/data/fresh (its compiled kernels); with
IRKIT_XPU_PYTHON, random PVC converts are run through its allocation pass here too."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from xdsl.dialects.builtin import Float32Type, IntegerType

from irkit.analysis.triton_versions import V33, V39, infer_version, reduce_rules
from irkit.dialects.encodings import BlockedEncodingAttr, DotOperandEncodingAttr, DpasEncodingAttr
from irkit.frontend.parser import Parser
from irkit.layout import intel_conversion, linear

ROOT = Path(__file__).resolve().parents[1]


def blocked(spt, tpw, wpc, order) -> BlockedEncodingAttr:
    return BlockedEncodingAttr.of(size_per_thread=spt, threads_per_warp=tpw, warps_per_cta=wpc, order=order)


def dot(op_idx: int, parent, k_width: int) -> DotOperandEncodingAttr:
    return DotOperandEncodingAttr.from_values(opIdx=op_idx, parent=parent, kWidth=k_width)


# one sub-group of 16 work-items, repCluster 2 along M: a 16 x 16 accumulator
DPAS_16 = DpasEncodingAttr.build(8, 8, 16, 2, 16, (1, 1), (2, 1))


def test_dpas_accumulator_puts_a_column_in_each_work_item():
    ll = linear.to_linear_layout(DPAS_16, (16, 16))
    assert ll.bases[linear.LANE] == [(0, 1), (0, 2), (0, 4), (0, 8)]
    # the instruction's 8 rows, then the repCluster's second instruction below them
    assert ll.bases[linear.REG] == [(1, 0), (2, 0), (4, 0), (8, 0)]


def test_dpas_operand_b_packs_its_ops_per_channel_first():
    ll = linear.to_linear_layout(dot(1, DPAS_16, 2), (16, 16))
    assert ll.bases[linear.REG][0] == (1, 0)  # opsPerChan = 2 consecutive K rows in one work-item
    assert ll.bases[linear.LANE] == [(0, 1), (0, 2), (0, 4), (0, 8)]


def test_dpas_sub_groups_split_the_accumulator_but_broadcast_operand_b():
    acc = DpasEncodingAttr.build(8, 8, 16, 2, 16, (4, 1), (1, 1))
    assert linear.to_linear_layout(acc, (32, 16)).bases[linear.WARP] == [(8, 0), (16, 0)]
    assert linear.to_linear_layout(dot(1, acc, 2), (16, 16)).bases[linear.WARP] == [(0, 0), (0, 0)]


def test_invert_and_compose_of_a_layout_with_itself_is_the_identity():
    ll = linear.to_linear_layout(blocked((1, 4), (4, 8), (2, 2), (1, 0)), (64, 64))
    comp = linear.invert_and_compose(ll, ll)
    for dim in (linear.REG, linear.LANE, linear.WARP):
        i = comp.out_dim_index(dim)
        assert [v[i] for v in comp.bases[dim]] == [1 << k for k in range(comp.in_dim_size_log2(dim))]
    assert comp.quotient([linear.BLOCK]).quotient([linear.WARP]) is not None


def test_invert_and_compose_maps_each_destination_element_to_its_source():
    src = linear.to_linear_layout(blocked((1, 1), (1, 16), (1, 4), (1, 0)), (16, 64))
    dst = linear.to_linear_layout(blocked((1, 16), (16, 1), (1, 4), (0, 1)), (16, 64))
    comp = linear.invert_and_compose(dst, src)
    for dim in (linear.REG, linear.LANE):
        for k in range(dst.in_dim_size_log2(dim)):
            hw = dict(zip(comp.out_dim_names, comp.bases[dim][k]))
            assert src.apply(hw) == dst.apply({dim: 1 << k})


def test_quotient_refuses_a_convert_across_sub_groups():
    src = linear.to_linear_layout(blocked((1, 1), (1, 16), (4, 1), (1, 0)), (16, 16))
    dst = linear.to_linear_layout(blocked((1, 1), (16, 1), (1, 4), (0, 1)), (16, 16))
    assert linear.invert_and_compose(dst, src).quotient([linear.BLOCK]).quotient([linear.WARP]) is None


TRANSPOSE = (blocked((1, 1), (1, 16), (1, 4), (1, 0)), blocked((1, 16), (16, 1), (1, 4), (0, 1)))


def test_sub_group_transpose_and_its_bytes():
    src, dst = TRANSPOSE
    assert intel_conversion.cvt_is_sub_group_transpose(src, dst, (16, 64), IntegerType(32))
    assert intel_conversion.cvt_is_sub_group_transpose(src, dst, (16, 64), Float32Type())
    assert not intel_conversion.cvt_is_sub_group_transpose(src, dst, (16, 64), IntegerType(128))
    assert not intel_conversion.cvt_is_sub_group_transpose(src, src, (16, 64), IntegerType(32))
    assert intel_conversion.sub_group_transpose_bytes(src, (16, 64), 4) == 64 * 17 * 4


def test_sub_group_shuffle_is_a_gather_of_every_lane():
    src = blocked((1, 1), (1, 16), (1, 1), (1, 0))
    dst = blocked((1, 16), (16, 1), (1, 1), (1, 0))
    assert intel_conversion.cvt_is_sub_group_shuffle(src, dst, (1, 16))
    assert not intel_conversion.cvt_is_sub_group_shuffle(*TRANSPOSE, (16, 64))


def test_dpas_to_operand_a_shortcut_needs_k_equal_to_the_execution_size():
    assert intel_conversion.is_dpas_to_dot_shortcut(DPAS_16, dot(0, DPAS_16, 1))
    assert not intel_conversion.is_dpas_to_dot_shortcut(DPAS_16, dot(1, DPAS_16, 2))
    int8 = DpasEncodingAttr.build(8, 8, 16, 4, 16, (1, 1), (2, 1))  # K = 32
    assert not intel_conversion.is_dpas_to_dot_shortcut(int8, dot(0, int8, 2))


def _module_attrs(attrs: str):
    return Parser(f"module attributes {{{attrs}}} {{\n}}\n", "m.mlir").parse().module


def test_intel_3_3_spelling_takes_the_3_3_rules():
    assert infer_version(_module_attrs('triton_intel_gpu.support_dpas, "ttg.num-warps" = 4 : i32')) == V33
    assert infer_version(_module_attrs('ttig.support_dpas, "ttg.num-warps" = 4 : i32')) == V39


def test_intel_main_keeps_the_srcshape_reduce():
    """Intel's fork sizes tt.reduce with getScratchSizeInBytesOld since April 2026 (3.9 rules otherwise)."""
    intel = _module_attrs('ttig.support_dpas, "ttg.num-warps" = 4 : i32, ttg.target = "xpu"')
    cuda = _module_attrs('"ttg.num-warps" = 4 : i32, ttg.target = "cuda:90"')
    assert reduce_rules(None, intel) == V33
    assert reduce_rules(None, cuda) == V39


def test_random_pvc_converts_match_triton_xpu():
    python = os.environ.get("IRKIT_XPU_PYTHON")
    if not python or not Path(python).exists():
        pytest.skip("no Intel XPU Triton: set IRKIT_XPU_PYTHON")
    proc = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "random_converts.py"), "--python", python, "--version", "3.3.0b1",
         "--target", "xpu", "--seed", "2", "--count", "80"],
        capture_output=True, text=True, timeout=600,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "xpu: 80/80 exact" in proc.stdout, proc.stdout
