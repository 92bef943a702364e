"""tools/marginal_replay.py: which kernels the marginal-gain check can decide differently, read from the remarks."""

from __future__ import annotations

from tools_dir import import_tool

marginal_replay = import_tool("marginal_replay")

MOVED = ("k.ttgir:119:13: remark: propagate-mma: moved to #nvidia_mma: 1 conversion(s) removed; remove: moves 64 "
         "load(s)/thread to b32 (was 64 x b32; 8 vs 1 lines/instr); saves 65,536 B scratch (model: +246 cycles/CTA)")


def test_the_model_gain_is_summed_where_every_conversion_moved():
    assert marginal_replay.model_takes_all([MOVED, MOVED.replace("+246", "+1,204")]) == 1450
    assert marginal_replay.model_takes_all([MOVED.replace("+246", "-8")]) == -8


def test_a_kept_conversion_or_no_move_puts_the_kernel_off_that_path():
    kept = "k.ttgir:9:1: remark: propagate-mma: conversion kept: narrows 32 store(s)/thread (model: -627 cycles/CTA)"
    assert marginal_replay.model_takes_all([MOVED, kept]) is None
    assert marginal_replay.model_takes_all([kept]) is None
    assert marginal_replay.model_takes_all([]) is None
