"""tools/heldout_register.py: a held-out program's launches as its GPU run names and specialises them, and the
figures a registration line takes from the pass's remark."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from tools_dir import import_tool

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def tool():
    return import_tool("heldout_register")


def test_launches_follow_the_programs_sweeps(tool):
    rowwise = list(tool.PROGRAMS["rowwise"]())
    dropout = list(tool.PROGRAMS["dropout"]())
    sigmoid = list(tool.PROGRAMS["sigmoid"]())
    # 8 configs times (fp8, int8) at the aligned size and (bf16, fp32 out) at the masked one
    assert len(rowwise) == 32 and len(dropout) == 24 and len(sigmoid) == 24
    # every later program sweeps 24 kernels, each named once
    later_programs = ("persistent", "tma", "tf32", "softplus", "f16acc", "geluaux", "fp8out", "skinny", "router",
                      "accumulate", "lora")
    for later in later_programs:
        keys = {tool.launches.kernel_key(k) for k in tool.PROGRAMS[later]()}
        assert len(keys) == 24, later
    # round 35's: 8 configs at two masked sizes, fp16 and fp32 out each
    assert len({tool.launches.kernel_key(k) for k in tool.PROGRAMS["latent"]()}) == 32
    # round 36's: 8 configs at K = 768 (fp16 and fp32 out), 588 and 1536
    assert len({tool.launches.kernel_key(k) for k in tool.PROGRAMS["patch"]()}) == 32
    # and its probe: gemm_latent_up's 8 configs at 2900 x 4100, K = 1024 and 2048, fp16 and fp32 out
    assert len({tool.launches.kernel_key(k) for k in tool.PROGRAMS["latentk"]()}) == 32
    keys = [tool.launches.kernel_key(k) for k in rowwise]
    assert len(set(keys)) == 32
    assert "gemm_rowwise_scaled_kernel_in_int8_out_bf16_4096x4096x4096_128x128x128_w8_s3" in keys
    assert "gemm_rowwise_scaled_kernel_in_fp8_out_fp32_2900x2300x1700_64x64x128_w4_s3" in keys
    masked = next(k for k in rowwise if k["family"][1][:3] == [2900, 2300, 1700] and k["config"]["OUT_F32"])
    assert masked["config"]["INT8"] is False


def test_signature_types_the_operands_by_the_launch_name(tool):
    launch = tool.launches.GEMM_LAUNCHES["gemm_rowwise_scaled_kernel"]
    int8 = next(k for k in tool.PROGRAMS["rowwise"]() if "in=int8" in k["name"])
    fp8_fp32 = next(k for k in tool.PROGRAMS["rowwise"]() if k["name"].endswith("in=fp8 out=fp32"))
    typed = tool.launches.pointer_types(launch, fp8_fp32["name"], fp8_fp32["config"])
    assert typed["b_ptr"] == "*fp8e4nv" and typed["c_ptr"] == "*fp32" and typed["sa_ptr"] == "*fp32"
    pointers = tool.launches.pointer_types(launch, int8["name"], int8["config"])
    sig, consts, values = tool.launches._gemm_signature(pointers, launch.ints, launch.flags, int8["config"],
                                                        int8["family"][1])
    assert sig["a_ptr"] == "*i8" and sig["c_ptr"] == "*bf16"
    # B is stored N x K: its K stride, A's and C's column strides are 1, which a launch makes constexprs
    assert {n for n in launch.ints if consts.get(n) == 1} == {"sak", "sbk", "scn"}
    assert consts["INT8"] is True
    # every aligned integer and pointer is divisible by 16; the masked size's are not
    assert tool.launches._divisible(values) == [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 13]


def test_descriptor_arguments_take_the_configs_block_and_no_alignment(tool):
    launch = tool.launches.GEMM_LAUNCHES["gemm_tma_epilogue_kernel"]
    kernels = list(tool.PROGRAMS["tma"]())
    assert len(kernels) == 24
    wide = next(k for k in kernels if k["name"].endswith("out=fp32") and k["config"]["BLOCK_N"] == 256)
    typed = tool.launches.pointer_types(launch, wide["name"], wide["config"])
    assert typed["a_desc"] == "tensordesc<fp16[128,64]>" and typed["b_desc"] == "tensordesc<fp16[64,256]>"
    assert typed["c_desc"] == "tensordesc<fp32[128,256]>" and typed["r_ptr"] == "*fp32"
    sig, consts, values = tool.launches._gemm_signature(typed, launch.ints, launch.flags, wide["config"],
                                                        wide["family"][1])
    # Triton specialises a pointer as 16-byte aligned, never a descriptor; R's column stride is 1, a constexpr;
    # 3000, 2904 and 1496 are not multiples of 16
    assert values[:5] == ["desc", "desc", "desc", "ptr", "ptr"] and consts["srn"] == 1
    assert tool.launches._divisible(values) == [3, 4]
    aligned = next(k for k in kernels if k["family"][1][0] == 4096)
    _, _, values = tool.launches._gemm_signature(
        tool.launches.pointer_types(launch, aligned["name"], aligned["config"]), launch.ints, launch.flags,
        aligned["config"], aligned["family"][1])
    assert tool.launches._divisible(values) == [3, 4, 5, 6, 7, 8]


REMARK = ("k.ttgir:214:10: remark: propagate-mma: conversion kept: narrows 32 store(s)/thread to b32 (model: -627 "
          "cycles/CTA); profit=auto: compiled with it 126 registers/thread; SASS cost -4 (loop instructions 104 -> "
          "104, instructions outside loops 691 -> 651); loop schedule 238 -> 240 cycles/iteration; the SASS cost "
          "moves less than -150/+300, so occupancy and spills decide: neither more CTAs nor spills 512 B fewer")


def test_figures_come_from_the_compiler_check_remark(tool):
    assert tool._figures(REMARK) == ("SASS cost -4; loop schedule 238 -> 240; the SASS cost moves less than "
                                     "-150/+300, so occupancy and spills decide: neither more CTAs nor spills "
                                     "512 B fewer")
    # a take's figures sit in brackets inside the rewrite's remark: the criterion ends with them
    taken = REMARK.replace("the SASS cost moves", "the SASS cost falls by 150 or more); alone: widens; was").replace(
        "-4 (", "-222 (")
    figures = tool._figures(taken)
    assert figures.startswith("SASS cost -222;") and figures.endswith("the SASS cost falls by 150 or more")
    assert not re.search(r"alone", figures)
    # a criterion with parentheses of its own (the stores rule's) is kept whole, in a keep and in a take
    stores = ("the SASS cost falls by 150 or more, but that fall rests on the instructions outside loops (loop terms "
              "-1), and its stores add 768 sector requests per warp against 52 executed spill loads and stores saved "
              "(fewer than 0.35 per sector), so they take nothing")
    kept = REMARK[:REMARK.index("the SASS cost moves")] + stores
    assert tool._figures(kept).endswith("; " + stores)
    assert tool._figures(kept.replace("profit=auto:", "(profit=auto:") + "); alone: moves").endswith("; " + stores)


def test_registered_lines_are_read_by_the_round_summary(tool, tmp_path):
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import propagate_mma_round
    finally:
        sys.path.remove(str(ROOT / "tools"))
    line = ("rowwise gemm_rowwise_scaled_kernel_in_fp8_out_fp32_2900x2300x1700_128x128x128_w8_s3: rewrite; "
            "conversions 1 -> 0; the IR model's own rewrite (model: +246 cycles/CTA), not undone")
    (tmp_path / "p.txt").write_text("# header\n" + line + "\n")
    assert propagate_mma_round.registered(tmp_path / "p.txt") == {
        "gemm_rowwise_scaled_kernel_in_fp8_out_fp32_2900x2300x1700_128x128x128_w8_s3": True}


def test_a_launch_is_registered_with_its_ctas_as_irkit_check_gives_them(tool):
    """`decide` gives the pass each launch's CTAs on the H200's 132 SMs, as irkit-check does from the grid: one CTA
    per output tile; a persistent program launches otherwise, so it gets none."""
    attn = {tool.launches.kernel_key(k): tool._launch_ctas("attnout", k) for k in tool.PROGRAMS["attnout"]()}
    assert attn["gemm_attn_out_residual_kernel_out_fp32_8192x512x512_64x128x32_w4_s4"] == 128 * 4
    assert attn["gemm_attn_out_residual_kernel_out_fp32_6304x768x768_64x128x32_w4_s4"] == 99 * 6
    assert attn["gemm_attn_out_residual_kernel_out_fp32_3152x1024x1024_256x128x32_w8_s3"] == 13 * 8
    assert all(tool._launch_ctas("persistent", k) is None for k in tool.PROGRAMS["persistent"]())
