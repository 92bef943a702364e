"""propagate-mma on the epilogues issue 22 names, on real Triton IR: Blackwell's tensor-memory epilogue (cuda:100,
Triton 3.5.1 and 3.8.0), 1-D operands broadcast into the accumulator (a bias row, on cuda:100 and cuda:90), a
remark for every conversion left alone, one decision procedure for the pass and irkit-report, and the
whole-module analyses done once per module, not once per function (what kept the pass linear in size)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from irkit.passes import all_passes
from test_check_static import triton_python
from test_propagate_mma import observable_terms, run_pass
from xdsl.context import Context

from irkit import diagnostics
from irkit.analysis import mma_profit, mma_slice
from irkit.analysis.mma_profit import assess_module
from irkit.dialects.tt import FuncOp, LoadOp, StoreOp
from irkit.dialects.ttg import ConvertLayoutOp
from irkit.frontend.parser import parse_file
from irkit.frontend.printer import print_module
from irkit.layout import algebra
from irkit.verifier import verify_module

DATA = Path(__file__).resolve().parent / "data"
BLACKWELL = sorted((DATA / "blackwell").glob("*.ttgir"))
HOPPER_BIAS = DATA / "propagate_mma" / "gemm_bias_res_cuda90_128x128x64_w4_s4_triton360.ttgir"
INPUTS = Path(__file__).resolve().parents[1] / "lit_tests" / "passes" / "Inputs"
# convert_layout ops before, and after profit=always: what stays converts index arithmetic feeding the K loop's
# pointers (blocked -> blocked), no accumulator value
CONVERSIONS = {
    "addmm_cuda100_128x128x64_w4_s3_triton351": (1, 0),
    "addmm_cuda100_128x128x64_w4_s3_triton380": (1, 0),
    "bias_cuda100_128x128x64_w4_s3_triton351": (2, 0),
    "bias_cuda100_128x128x64_w4_s3_triton380": (5, 2),
    "gemm_bias_res_cuda100_128x128x64_w4_s3_triton380": (5, 2),
}


def conversions(module) -> list:
    return [op for op in module.walk() if isinstance(op, ConvertLayoutOp)]


def touches_the_accumulator(cvt, accumulators) -> bool:
    """Converts a value in an accumulator layout (or a #slice of one), either way."""
    def acc(layout) -> bool:
        if algebra.is_slice(layout):
            return acc(algebra.slice_parent(layout))
        return algebra.is_mma(layout) or layout in accumulators

    return any(acc(mma_slice.layout_of(v.type)) for v in (cvt.operands[0], cvt.results[0]))


def run(module, **options) -> list[str]:
    """propagate-mma on `module`; its remarks."""
    return [d.message for d in run_pass(module, **options) if d.severity == "remark"]


# -- Blackwell ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", BLACKWELL, ids=[p.stem for p in BLACKWELL])
def test_always_removes_the_tensor_memory_epilogue_conversions(path):
    before = parse_file(str(path)).module
    after = parse_file(str(path)).module
    (func,) = [f for f in after.walk() if isinstance(f, FuncOp)]
    accumulators = mma_slice.accumulator_layouts(func)
    assert accumulators, "the epilogue reads the accumulator with ttng.tmem_load"
    assert any(touches_the_accumulator(c, accumulators) for c in conversions(after))
    said = run(after, profit="always")
    assert (len(conversions(before)), len(conversions(after))) == CONVERSIONS[path.stem]
    assert not any(touches_the_accumulator(c, accumulators) for c in conversions(after))
    assert any("moved to #" in r for r in said)
    assert verify_module(after) == []
    terms: dict = {}
    assert observable_terms(after, terms) == observable_terms(before, terms)  # only layouts changed


def test_the_bias_row_loads_in_a_slice_of_the_tensor_memory_layout():
    module = parse_file(str(DATA / "blackwell" / "bias_cuda100_128x128x64_w4_s3_triton380.ttgir")).module
    said = run(module, profit="always")
    (acc_layout,) = mma_slice.accumulator_layouts(next(f for f in module.walk() if isinstance(f, FuncOp)))
    bias = next(op for op in module.walk() if isinstance(op, LoadOp) and len(op.results[0].type.get_shape()) == 1)
    layout = mma_slice.layout_of(bias.results[0].type)
    assert algebra.is_slice(layout) and algebra.slice_parent(layout) == acc_layout and algebra.slice_dim(layout) == 0
    assert any(r.startswith("propagate-mma: moved to #slice: 1 conversion(s) removed") for r in said)
    (store,) = [op for op in module.walk() if isinstance(op, StoreOp)]
    assert mma_slice.layout_of(store.operands[1].type) == acc_layout


def test_the_default_says_what_it_decided_on_blackwell_and_why():
    """Without a real compiler the default is the model: each epilogue conversion's remark gives its verdict,
    the model's figures, and that the model decided."""
    module = parse_file(str(DATA / "blackwell" / "addmm_cuda100_128x128x64_w4_s3_triton380.ttgir")).module
    from irkit.analysis import real_compiler

    with real_compiler.providing(None):
        (said,) = run(module)
    assert said.startswith("propagate-mma: conversion kept: ")
    assert "store(s)/thread" in said and "cycles/CTA" in said  # why: the tmem layout stores one row per thread
    assert said.endswith("; profit=auto: no real compiler provided to the pass, the model decides")
    assert len(conversions(module)) == 1


@pytest.mark.parametrize("version", ["3.5", "3.8"])
def test_real_triton_compiles_the_rewritten_blackwell_gemms(version, tmp_path):
    """The rewritten modules compile for cuda:100 with the Triton that wrote them (on the CPU: ptxas makes the
    cubin), with no more shared memory than the originals."""
    python = triton_python(version)
    if python is None:
        pytest.skip(f"no Triton {version} (IRKIT_TRITON_PYTHONS='{version}.x=/path/python')")
    from irkit.check import static

    tag = "triton" + version.replace(".", "")
    paths = []
    for path in [p for p in BLACKWELL if tag in p.stem]:
        parsed = parse_file(str(path))
        run(parsed.module, profit="always")
        out = tmp_path / path.name
        out.write_text(print_module(parsed))
        paths += [path, out]
    _, rows = static.compile_metrics(paths, triton_python=python, timeout_s=600)
    for original, rewritten in zip(rows[::2], rows[1::2]):
        assert original["ok"] and rewritten["ok"], rewritten.get("error")
        assert rewritten["shared"] <= original["shared"]
        assert rewritten["ttgir_convert_layout"] < original["ttgir_convert_layout"]


# -- the bias row on the H100 ---------------------------------------------------------------------------------


def test_the_bias_row_follows_the_accumulator_on_hopper():
    """examples/gpu/gemm_bias.py's kernel (Triton 3.6, cuda:90): with profit=always the bias row loads in
    `#slice<{dim = 0, parent = #mma}>` and no conversion is left; the model keeps it alone (a few cycles)."""
    before = parse_file(str(HOPPER_BIAS)).module
    module = parse_file(str(HOPPER_BIAS)).module
    assert len(conversions(module)) == 4
    said = run(module, profit="always")
    assert conversions(module) == []
    bias = next(op for op in module.walk() if isinstance(op, LoadOp) and len(op.results[0].type.get_shape()) == 1)
    layout = mma_slice.layout_of(bias.results[0].type)
    assert algebra.is_slice(layout) and algebra.is_nvidia_mma(algebra.slice_parent(layout))
    assert sum(r.startswith("propagate-mma: moved to") for r in said) == 4
    terms: dict = {}
    assert observable_terms(module, terms) == observable_terms(before, terms)


# -- every conversion left alone says why ---------------------------------------------------------------------

EVERY_INPUT = [*sorted(INPUTS.glob("*.ttgir")), *BLACKWELL, HOPPER_BIAS, *sorted((DATA / "check").glob("*.ttgir")),
               *sorted((DATA / "kernels" / "3.9.0" / "cuda_100").glob("*.ttgir"))]


@pytest.mark.parametrize("options", [{"profit": "model"}, {"profit": "always"}, {"profit": "always", "loads_only": True},
                                     {"profit": "model", "targets": ("dpas",)}, {"profit": "model", "min_bytes": 1 << 20}],
                         ids=["model", "always", "loads-only", "targets", "min-bytes"])
def test_every_conversion_left_alone_has_a_remark(options):
    missing = []
    for path in EVERY_INPUT:
        module = parse_file(str(path)).module
        before = conversions(module)
        all_passes()["propagate-mma"](**options).apply(Context(allow_unregistered=True), module)
        spoken = {id(d.op) for d in diagnostics.take() if d.op is not None}
        missing += [f"{path.name}: {c}" for c in before if c.parent is not None and id(c) not in spoken]
    assert missing == []


# -- one decision procedure -----------------------------------------------------------------------------------


@pytest.mark.parametrize("path", [*sorted(INPUTS.glob("h100-*.ttgir")), *BLACKWELL, HOPPER_BIAS],
                         ids=lambda p: p.stem)
def test_the_report_says_what_the_pass_does(path):
    report = assess_module(parse_file(str(path)).module)
    module = parse_file(str(path)).module
    moved = [r for r in run(module, profit="model") if ": moved to" in r]
    assert sum(a.word == "remove" for a in report) == len(moved)


def test_the_loads_only_fallback_is_the_reports_too(monkeypatch):
    """A plan the model calls a loss whose loads-only variant is a gain: the pass applies the variant, and
    irkit-report says so (it used to replay the pass without this step)."""
    judge = mma_profit.judge_plan

    def only_loads_pay(plan, facts, *args):
        j = judge(plan, facts, *args)
        return replace(j, verdict=replace(j.verdict, gain=100.0 if plan.loads_only else -100.0, unlocks=False,
                                          saved_scratch=0))

    monkeypatch.setattr(mma_profit, "judge_plan", only_loads_pay)
    path = INPUTS / "h100-addmm-64x256x64-w4s4.ttgir"
    report = assess_module(parse_file(str(path)).module)
    module = parse_file(str(path)).module
    said = run(module, profit="model")
    # the D load's conversion goes by its loads-only variant; the store's has none (it is the store)
    assert [a.word for a in report if a.word != "-"] == ["remove", "keep"]
    assert report[0].text.startswith("loads only (the store keeps its layout)")
    assert sum(": moved to" in r for r in said) == 1
    (store,) = [op for op in module.walk() if isinstance(op, StoreOp)]
    assert algebra.is_blocked(mma_slice.layout_of(store.operands[1].type))  # the store kept its layout
    assert len(conversions(module)) == 1


# -- linear in the number of functions ------------------------------------------------------------------------


def test_whole_module_analyses_run_once_however_many_functions(monkeypatch):
    """The cost model's AxisInfo and shared-memory analyses cover the whole module once; each rewrite refreshes
    only its function.  (They were redone after every rewrite: quadratic in the number of functions.)"""
    from irkit.analysis import axis_info

    calls = {"axis": 0, "shared": 0}
    axis_init, shared = axis_info.AxisInfoAnalysis.__init__, mma_profit.analyze_shared_memory

    def counting_axis(self, *a, **k):
        calls["axis"] += 1
        axis_init(self, *a, **k)

    def counting_shared(*a, **k):
        calls["shared"] += 1
        return shared(*a, **k)

    monkeypatch.setattr(axis_info.AxisInfoAnalysis, "__init__", counting_axis)
    monkeypatch.setattr(mma_profit, "analyze_shared_memory", counting_shared)
    text = (INPUTS / "h100-addmm-64x256x64-w4s4.ttgir").read_text()
    copies = 6
    head, body = text.split("module attributes", 1)
    attrs, rest = body.split("{\n", 1)
    func = rest[: rest.rindex("}")]
    functions = "".join(func.replace("@matmul_kernel", f"@matmul_kernel_{i}", 1) for i in range(copies))
    from irkit.frontend.parser import Parser

    module = Parser(f"{head}module attributes{attrs}{{\n{functions}}}\n", "many.ttgir").parse().module
    assert sum(isinstance(f, FuncOp) for f in module.walk()) == copies
    moved = [r for r in run(module, profit="model") if ": moved to" in r]
    assert len(moved) == 2 * copies  # every function rewritten, each refreshing only itself
    assert calls == {"axis": 1, "shared": 1}


# -- the H100's losers stay losers ----------------------------------------------------------------------------

# Triton 3.6 cuda:90 compiles of examples/gpu/gemm_bias.py (RES=False, 4096^3) whose default rewrite ran slower
# on the H100 in round 7 (docs/propagate-mma-results.md): the fp16 store conversion of a 4-warp CTA alone on
# its SM (5.7% slower), the bias row pulling the store's conversion in at 8 warps (9.0%), and the bias row
# alone (1.3%).  Round 8's held-out examples/gpu/gemm_scale.py (bf16 out, 1-D row and column scales) added
# one more: its 1-D column scale's conversion to a #slice pulled the store's in (10.5% slower).  Round 10's
# held-out examples/gpu/gemm_swiglu.py one more: its column-major bf16 store's conversion runs 8 rounds of 4
# registers, which a rule charging such rounds at any warp count (316956f, reverted) took out (4.5% slower).
# The model now keeps each of them.
MEASURED_SLOWER = (  # the H100's time ratio of the old default's rewrite after each name
    "gemm_scale_BIAS_False_4096x4096x4096_128x256x64_w8_s4_cuda90_triton360",  # 1.105
    "gemm_bias_RES_False_4096x4096x4096_128x128x64_w4_s4_cuda90_triton360",  # 1.057
    "gemm_bias_RES_False_4096x4096x4096_128x256x64_w8_s3_cuda90_triton360",  # 1.090
    "gemm_bias_RES_False_4096x4096x4096_64x128x64_w4_s4_cuda90_triton360",  # 1.013
    "gemm_swiglu_Ycol_4096x4096x4096_128x128x64_w8_s3_cuda90_triton360",  # 1.045
    "gemm_gelu_residual_out_fp16_2900x3310x1400_128x64x64_w4_s4_cuda90_triton360",  # 1.144 (round 11)
)


@pytest.mark.parametrize("name", MEASURED_SLOWER)
def test_the_model_keeps_what_the_h100_measured_slower(name):
    module = parse_file(str(DATA / "propagate_mma" / f"{name}.ttgir")).module
    before = len(conversions(module))
    said = run(module, profit="model")
    assert len(conversions(module)) == before
    assert not any(": moved to" in r for r in said)
    assert sum("conversion kept" in r for r in said) >= 1


# Round 12 (docs/propagate-mma-results.md), on an H200: examples/gpu/gemm_batched_rowscale.py at the masked
# 3x1500x1800x1000, its decisions registered from these compiles before the run.  The model alone moves the fp32
# 128x128x64 w8 s3 epilogue (measured 0.733) and keeps the bf16 128x64x64 w4 s4 one, which profit=always made
# 1.351x slower, the configuration that lost in both outputs of rounds 11 and 12.
ROUND_12 = (  # (name, whether the model moves its conversions)
    ("gemm_batched_rowscale_out_fp32_1500x1800x1000_128x128x64_w8_s3_cuda90_triton360", True),
    ("gemm_batched_rowscale_out_bf16_1500x1800x1000_128x64x64_w4_s4_cuda90_triton360", False),
)


@pytest.mark.parametrize("name, moves", ROUND_12)
def test_the_model_decides_round_12_as_registered(name, moves):
    module = parse_file(str(DATA / "propagate_mma" / f"{name}.ttgir")).module
    before = len(conversions(module))
    said = run(module, profit="model")
    assert before >= 2
    assert len(conversions(module)) == (0 if moves else before)
    assert any(": moved to" in r for r in said) == moves
