"""The latency schedule of SASS (irkit.check.binary_metrics: one warp issuing in order; tools/sass_schedule.py
records it for the timed kernels) and the IR model's figures that tools/profit_rule_ceiling.py reads from
propagate-mma's remarks, on hand-written SASS and remarks."""

from __future__ import annotations

from pathlib import Path

import pytest
from tools_dir import import_tool

from irkit.check import binary_metrics as bm

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def ceiling():
    return import_tool("profit_rule_ceiling")


def _sass(*lines: str, loop: tuple[int, int] | None = None) -> str:
    """nvdisasm-shaped text: one instruction per line at consecutive addresses; `loop` wraps lines [a, b) in a
    label and a branch back to it."""
    out = []
    for n, text in enumerate(lines):
        if loop and n == loop[0]:
            out.append(".L_x_0:")
        out.append(f"        /*{n * 16:04x}*/                   {text} ;")
        if loop and n == loop[1] - 1:
            out.append(f"        /*{n * 16 + 8:04x}*/                   @P0 BRA `(.L_x_0) ;")
    return "\n".join(out)


def test_a_read_waits_for_its_load_and_independent_work_does_not():
    waits = _sass("LDG.E R2, desc[UR4][R4.64]", "FADD R3, R2, R2")
    apart = _sass("LDG.E R2, desc[UR4][R4.64]", "FADD R3, R6, R6")
    assert bm.sass_outside_loop_cycles(waits) == 1 + bm.LATENCY["LDG"] + bm.DEFAULT_LATENCY
    assert bm.sass_outside_loop_cycles(apart) == 1 + bm.LATENCY["LDG"]  # the load is still in flight at the end
    assert bm.sass_loop_cycles(waits) == bm.sass_loop_cycles(apart) == 0


def test_vector_loads_write_every_register_and_stores_read_theirs():
    (load, use), = [bm.sass_instructions(_sass("LDS.128 R8, [R2]", "STG.E.128 desc[UR4][R6.64], R8"))]
    assert load.writes == ("R8", "R9", "R10", "R11")
    assert {"R8", "R9", "R10", "R11", "R6"} <= set(use.reads) and use.writes == ()
    # the store reads the load's registers, so it and what follows it wait for the load
    after = "FADD R20, R21, R21"
    waits = bm.sass_instructions(_sass("LDS.128 R8, [R2]", "STG.E.128 desc[UR4][R6.64], R8", after))
    apart = bm.sass_instructions(_sass("LDS.128 R8, [R2]", "STG.E.128 desc[UR4][R6.64], R12", after))
    assert bm.sass_schedule(waits) == 1 + bm.LATENCY["LDS"] + 1 + bm.DEFAULT_LATENCY
    assert bm.sass_schedule(apart) == 1 + bm.LATENCY["LDS"]


def test_a_barrier_waits_for_the_last_shared_store():
    code = bm.sass_instructions(_sass("STS [R2], R4", "BAR.SYNC.DEFER_BLOCKING 0x0", "LDS R5, [R3]"))
    barrier_issue = 1 + bm.SHARED_STORE_SETTLE + bm.BARRIER
    assert bm.sass_schedule(code) == barrier_issue + 1 + bm.LATENCY["LDS"]


def test_a_value_carried_around_the_loop_is_waited_for():
    carried = _sass("LDL R2, [R1]", "IADD3 R1, R2, 0x4, RZ", loop=(0, 2))
    fresh = _sass("LDL R2, [R1]", "IADD3 R7, R6, 0x4, RZ", loop=(0, 2))
    # each iteration's reload waits for the previous one's add, which waits for its reload
    assert bm.sass_loop_cycles(carried) == bm.LATENCY["LDL"] + bm.DEFAULT_LATENCY
    assert bm.sass_loop_cycles(fresh) < 10
    assert bm.sass_outside_loop_cycles(carried) == 0


def test_the_ir_models_figures_are_read_from_the_remarks(ceiling):
    remarks = [
        "k.ttgir:1:1: remark: propagate-mma: conversion kept: moves 64 load(s)/thread to b16 (was 64 x b16; 8 vs 1 "
        "lines/instr; 2,048 vs 512 sector requests); drops 1 conversion(s) (2 shared-memory round(s) of 16 "
        "regs/thread, 4 warps, 9 CTAs per SM); saves 8,192 B scratch (model: -627 cycles/CTA); profit=auto: ...",
        "k.ttgir:2:1: remark: propagate-mma: conversion left alone: both sides are accumulator layouts",
        "k.ttgir:3:1: remark: propagate-mma: moved to #nvidia_mma: ... (model: +246 cycles/CTA)",
    ]
    got = ceiling.model_figures(remarks)
    assert got == {"model_gain": -381, "model_scratch_saved": 8192, "model_shared_rounds": 2, "model_left_alone": 1,
                   "model_lines_after": 8, "model_lines_before": 1, "model_sectors_after": 2048,
                   "model_sectors_before": 512}
    assert set(ceiling.model_figures([]).values()) == {0}


def test_the_recorded_schedule_covers_every_kernel_with_figures():
    """docs/propagate-mma-results/r21_schedule_cpu.json has each kernel of r14_features_cpu.json, both sides."""
    import json

    results = ROOT / "docs" / "propagate-mma-results"
    kernels = {r["kernel"] for r in json.loads((results / "r14_features_cpu.json").read_text())["kernels"]}
    rows = json.loads((results / "r21_schedule_cpu.json").read_text())["kernels"]
    assert {r["kernel"] for r in rows} == kernels and len(rows) == len(kernels)
    for r in rows:
        assert "error" not in r
        for side in ("before", "after"):
            assert r[side]["cycles_outside_loops"] > 0 and r[side]["cycles_per_iteration"] >= 0
