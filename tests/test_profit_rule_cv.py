"""tools/profit_rule_cv.py: the compiler rule replayed on every kernel timed on the H100 and the H200, from the
compiled figures in docs/propagate-mma-results/.  The replay uses irkit's own rule (occupancy.removal_pays), so a
change of the rule that moves a recorded decision shows here, against the figures the docs report."""

from __future__ import annotations

import json
from pathlib import Path

from tools_dir import import_tool

ROOT = Path(__file__).resolve().parents[1]


def _tool():
    return import_tool("profit_rule_cv")


def test_the_replayed_rule_gives_the_reported_figures():
    cv = _tool()
    reported = json.loads((ROOT / "docs" / "propagate-mma-results" / "r14_cv.json").read_text())["implemented"]
    rows = cv.samples()
    for gpu in ("H100", "H200"):
        part = [x for x in rows if x["gpu"] == gpu]
        assert cv.score(part, cv.implemented) == (reported[gpu]["signs"], reported[gpu]["slower"])
        assert cv.score(part, lambda x: x["base"]) == (reported[gpu]["signs_before"], reported[gpu]["slower_before"])
    for program, gpu, timings in cv.HELD_OUT:
        part = cv.samples([(program, gpu, timings)])
        figures = reported[f"{program} ({gpu}, held out)"]
        assert cv.score(part, cv.implemented) == (figures["signs"], figures["slower"])


def test_the_gelu_loss_is_kept_and_the_swiglu_gain_taken():
    """The kernels behind the thresholds, as the replay sees them: the one loss the default took before the rule
    (gelu fp32 masked 256x128x64 w8 s3, 1.031 on the H100) and a 31% gain it left (swiglu Y=row 128x64x64 w4 s3)."""
    cv = _tool()
    rows = {(x["gpu"], x["kernel"]): x for x in cv.samples()}
    loss = rows[("H100", "gemm_gelu_residual_kernel_out_fp32_2900x3310x1400_256x128x64_w8_s3")]
    gain = rows[("H100", "gemm_swiglu_kernel_Y_row_3000x2730x1000_128x64x64_w4_s3")]
    assert loss["sign"] == "slower" and loss["base"] and not cv.implemented(loss)
    assert gain["sign"] == "faster" and not gain["base"] and cv.implemented(gain)


def test_the_band_rule_chosen_in_every_fold_is_the_recorded_one():
    """Round 21's selection, as docs/propagate-mma-results/r21_band_cv.json records it: with each program left
    out, the same three conditions for a take in the middle band, no more kernels slower on the left-out programs,
    more signs right.  (Round 22's held-out program then refuted the rule; the default does not use it.)"""
    cv = _tool()
    found = cv.band_rules(cv.samples(cv.RUNS + cv.HELD_OUT))
    recorded = json.loads((ROOT / "docs" / "propagate-mma-results" / "r21_band_cv.json").read_text())
    assert found["total"] == recorded["total"] and found["left_out"] == recorded["left_out"]
    assert {tuple(r["chosen"]) for r in found["left_out"]} == {("250+ registers", "shorter loop schedule", "4 warps")}
    assert found["total"]["slower"] == found["total"]["slower_before"]
