"""The cost model (irkit/analysis/cost_model.py) on layouts whose costs can be counted by hand, its verdicts on
real Triton 3.6 TTGIR for an H100 (lit_tests/passes/Inputs/h100-*.ttgir, compiled on the CPU by
tools/h100_static_metrics.py), and the verdict irkit-report prints."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from xdsl.dialects.builtin import Float32Type, TensorType

from irkit.analysis import cost_model, mma_profit, mma_slice
from irkit.analysis.mma_profit import ModuleFacts, assess_module, judge_plan
from irkit.cli import report as report_cli
from irkit.dialects.encodings import BlockedEncodingAttr, NvidiaMmaEncodingAttr
from irkit.frontend.parser import Parser

ROOT = Path(__file__).resolve().parents[1]
INPUTS = ROOT / "lit_tests" / "passes" / "Inputs"

BLOCKED = BlockedEncodingAttr.from_values(
    sizePerThread=[1, 4], threadsPerWarp=[1, 32], warpsPerCTA=[4, 1], order=[1, 0],
    CTAsPerCGA=[1, 1], CTASplitNum=[1, 1], CTAOrder=[1, 0])
MMA_V3 = NvidiaMmaEncodingAttr.from_values(
    versionMajor=3, versionMinor=0, warpsPerCTA=[4, 1], instrShape=[16, 128, 16],
    CTAsPerCGA=[1, 1], CTASplitNum=[1, 1], CTAOrder=[1, 0])


def test_blocked_access_is_v4_and_one_row_per_warp_instruction():
    a = cost_model.global_access_cost(BLOCKED, (128, 128), 32, num_warps=4, warp_size=32, contiguity=(1, 128),
                             divisibility_bytes=(16, 16))
    assert (a.vector, a.elems_per_thread, a.instructions, a.warp_instructions) == (4, 128, 32, 128)
    # 32 lanes x 16 B = 512 contiguous bytes: 16 sectors, 4 lines, all bytes used
    assert (a.sectors_per_instruction, a.lines_per_instruction, a.sector_efficiency) == (16, 4, 1.0)


def test_mma_v3_access_is_v2_over_eight_rows():
    a = cost_model.global_access_cost(MMA_V3, (128, 128), 32, num_warps=4, warp_size=32, contiguity=(1, 128),
                             divisibility_bytes=(16, 16))
    # each thread holds pairs of f32 along N; a warp instruction covers 8 rows x 32 B
    assert (a.vector, a.instructions, a.sectors_per_instruction, a.lines_per_instruction) == (2, 64, 8, 8)
    assert a.sector_efficiency == 1.0


def test_alignment_and_contiguity_cap_the_vector():
    a = cost_model.global_access_cost(BLOCKED, (128, 128), 32, 4, 32, contiguity=(1, 128), divisibility_bytes=(4, 4))
    assert a.vector == 1 and a.instructions == 128
    b = cost_model.global_access_cost(BLOCKED, (128, 128), 32, 4, 32, contiguity=(1, 2), divisibility_bytes=(16, 16))
    assert b.vector == 2


def test_conversion_rounds_follow_the_scratch():
    """Triton 3.6's PTX for these kernels has 3 barriers for the 128x128 w4 conversion and 1 for 128x256 w8:
    2 rounds and 1 round (2 * rounds - 1 barriers)."""
    t = TensorType(Float32Type(), [128, 128], MMA_V3)
    u = TensorType(Float32Type(), [128, 128], BLOCKED)
    c = cost_model.conversion_cost(t, u, "3.9", "cuda:90", 32)
    assert c.needs_shared and c.tensor_bytes == 65536 and c.scratch_bytes == 32768
    assert (c.rounds, c.barriers) == (2, 3)
    assert c.live_registers == 128  # 64 KiB of f32 over 128 threads


def test_unlocking_wins_over_a_loss():
    narrow = cost_model.AccessCost("#mma", 32, 128, 1, 128, 512, 8, 8, 256)
    wide = cost_model.AccessCost("#blocked", 32, 128, 4, 32, 128, 16, 4, 512)
    one_round = cost_model.ConversionCost(65536, True, 65536, 1, 32, 32, 1, 1, 128)
    loss = cost_model.judge([one_round], [], [("store", wide, narrow)])
    assert loss.gain < 0 and not loss.take and loss.word == "keep"
    unlocked = cost_model.judge([one_round], [], [("store", wide, narrow)], unlocks=True)
    assert unlocked.take and "brings shared memory under the limit" in unlocked.summary()


def _module(name: str):
    path = INPUTS / name
    return Parser(path.read_text(), str(path)).parse()


def test_verdicts_on_real_h100_kernels():
    keep = assess_module(_module("h100-gemm-128x256x64-w8s3.ttgir").module)
    assert [a.word for a in keep if a.word != "-"] == ["keep"]
    assert "narrows 64 store(s)/thread to v2" in keep[0].text and "saves 131,072 B scratch" in keep[0].text
    remove = assess_module(_module("h100-gemm-256x128x64-w8s3.ttgir").module)
    assert [a.word for a in remove if a.word != "-"] == ["remove"]
    joint = [a for a in assess_module(_module("h100-addmm-64x256x64-w4s4.ttgir").module) if a.word != "-"]
    # alone, the C store's conversion is a loss (-538) and the D load's a gain (+842); together a gain
    assert [a.word for a in joint] == ["remove", "remove"]
    assert joint[0].gain > 0 > joint[1].gain and joint[0].gain + joint[1].gain > 0
    assert "taken with this function's other rewrites (+304 cycles/CTA together)" in joint[1].text


def test_a_loss_goes_with_the_rest_only_when_the_whole_gains():
    loss = cost_model.Verdict(-538, 0, False)
    assert mma_profit.completes_rewrite(842, loss)
    assert not mma_profit.completes_rewrite(500, loss)  # the whole would lose
    assert not mma_profit.completes_rewrite(0, loss)  # nothing else was taken: the loss stays alone
    assert not mma_profit.completes_rewrite(-100, cost_model.Verdict(200, 0, False))
    # a second loss is weighed against what the first one left: 842 - 538 - 538 < 0
    assert not mma_profit.completes_rewrite(842 - 538, loss)


def test_plan_judgement_counts_the_scratch_the_report_counts():
    parsed = _module("h100-gemm-256x128x64-w8s3.ttgir")
    cvt = next(op for op in parsed.module.walk() if op.name == "ttg.convert_layout")
    candidate, _ = mma_slice.classify_conversion(cvt)
    j = judge_plan(mma_slice.plan_mma_propagation(cvt, candidate), ModuleFacts(parsed.module))
    assert j.verdict.saved_scratch == 65536  # irkit-report's bytes for this conversion, not the 131,072 B tensor
    assert j.shared_before == j.shared_after == 147456  # the pipeline buffers set the peak


def _report(argv: list[str], capsys) -> str:
    with pytest.raises(SystemExit) as e:
        report_cli.main(argv)
    out, err = capsys.readouterr()
    assert e.value.code == 0, err
    return out


def test_report_shows_the_verdict(capsys):
    path = str(INPUTS / "h100-addmm-64x256x64-w4s4.ttgir")
    text = _report([path], capsys)
    assert "propagate-mma cost model: remove 2" in text
    data = json.loads(_report(["--json", path], capsys))
    assert data["model_verdict"] == "remove 2"
    assert [v["verdict"] for v in data["model_verdicts"]] == ["remove", "remove"]
    keep = json.loads(_report(["--json", str(INPUTS / "h100-gemm-128x256x64-w8s3.ttgir")], capsys))
    assert [v["verdict"] for v in keep["model_verdicts"]] == ["keep"]


def test_a_verdict_counts_the_sector_requests_its_stores_add():
    """The figure the compiler check weighs against the spill traffic saved: stores only (a load's extra
    sectors are L1 hits), per CTA.  The latent probe's fp16 128x256x32 w8 store: 128 b16 stores per thread, each
    warp instruction one line before and eight after."""
    def access(sectors: int, lines: int) -> cost_model.AccessCost:
        return cost_model.AccessCost("x", 16, 128, 1, 128, 128 * 8, sectors, lines, 64)

    store = ("store", access(2, 1), access(8, 8))
    load = ("load", access(2, 1), access(8, 8))
    assert cost_model.Verdict(0, 0, False, accesses=[store, load]).store_sectors_added == 1024 * 6
    assert cost_model.Verdict(0, 0, False, accesses=[load]).store_sectors_added == 0
    assert cost_model.Verdict(0, 0, False, accesses=[("store", access(8, 8), access(2, 1))]).store_sectors_added == -6144
