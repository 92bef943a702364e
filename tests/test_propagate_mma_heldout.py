"""propagate-mma on rounds 23-27's held-out kernels (docs/propagate-mma-results/notes.md), compiled by the real
Triton 3.6 for cuda:90 as their launches specialise them: epilogues the earlier programs lack, an fp8 and an int8
wgmma (int32 accumulator, `arith.sitofp` in the epilogue) with row- and column-indexed scale vectors, a byte mask
loaded as a 2-D i8 tile, a persistent GEMM's epilogue inside its loop over tiles, a TMA-store epilogue (the
result staged through shared memory from the accumulator's layout, A, B and C host tensor descriptors), and a TF32
GEMM's epilogue.  What the H200 measured with
every conversion removed is in each name's comment.

The decision with the compiler's figures needs the real Triton 3.6 (IRKIT_TRITON_PYTHONS='3.6.0=/path/python')
and skips without it; the rest runs everywhere.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from test_propagate_mma_compiled import conversions, run
from test_real_parser import check, env_pythons, in_process_version

from irkit.analysis import real_compiler
from irkit.check import compiled_stats
from irkit.dialects.ttg import ConvertLayoutOp
from irkit.frontend.parser import Parser, parse_file
from irkit.frontend.printer import print_module
from irkit.verifier import verify_module

DATA = Path(__file__).resolve().parent / "data" / "propagate_mma"
FP8 = DATA / "gemm_rowwise_scaled_in_fp8_out_bf16_4096x4096x4096_128x128x128_w4_s3_cuda90_triton360.ttgir"  # 1.162
INT8 = DATA / "gemm_rowwise_scaled_in_int8_out_bf16_4096x4096x4096_128x128x64_w4_s4_cuda90_triton360.ttgir"  # 1.162
DROPOUT = DATA / "gemm_dropout_residual_out_bf16_3100x2700x1300_128x128x64_w4_s3_cuda90_triton360.ttgir"  # 0.824
# round 24: the tuned optimum of a persistent GEMM, whose epilogue sits in the loop over tiles; 1.072 rewritten
PERSISTENT = DATA / "gemm_persistent_residual_out_fp16_4096x4096x4096_256x128x64_w8_s3_cuda90_triton360.ttgir"
# round 26: the residual tile and bias row of a TMA-store epilogue at a masked size; 1.254 rewritten
TMA = DATA / "gemm_tma_epilogue_out_fp32_3000x2904x1496_128x128x64_w4_s4_cuda90_triton360.ttgir"
# round 26: a TF32 GEMM's masked fp32 epilogue, the IR model's marginal take; 1.063 rewritten
TF32 = DATA / "gemm_tf32_residual_out_fp32_2900x2700x1300_128x128x32_w8_s3_cuda90_triton360.ttgir"
KERNELS = (FP8, INT8, DROPOUT)


@pytest.mark.parametrize("path", KERNELS, ids=lambda p: p.name.split("_cuda90")[0])
def test_every_conversion_goes_and_every_name_stays(path):
    before = parse_file(str(path))
    seeds = [op for op in before.module.walk() if isinstance(op, ConvertLayoutOp)]
    assert len(seeds) == 4
    assert {len(op.result.type.get_shape()) for op in seeds} == {1, 2}  # vectors into slices, and tiles
    named = {name for op in before.module.walk() for r in op.results if (name := r.name_hint)}
    parsed, remarks = run(path, profit="always")
    assert conversions(parsed.module) == 0
    assert not verify_module(parsed.module)
    assert any(": moved to" in r for r in remarks)
    kept = {name for op in parsed.module.walk() for r in op.results if (name := r.name_hint)}
    # a conversion's own result goes with it; every other value keeps its name
    assert named - kept <= {op.result.name_hint for op in seeds}
    text = print_module(parsed)
    assert conversions(Parser(text, "out.ttgir").parse().module) == 0


def test_the_int8_epilogue_converts_the_accumulator_in_the_mma_layout():
    parsed, _ = run(INT8, profit="always")
    text = print_module(parsed)
    assert "arith.sitofp %acc" in text and "tensor<128x128xi32, #mma> to tensor<128x128xf32, #mma>" in text
    # the scales load straight into the accumulator's row and column slices
    assert "tensor<128x!tt.ptr<f32>, #ttg.slice<{dim = 1, parent = #mma}>>" in text
    assert "tensor<128x!tt.ptr<f32>, #ttg.slice<{dim = 0, parent = #mma}>>" in text


def test_the_byte_mask_loads_in_the_mma_layout():
    parsed, _ = run(DROPOUT, profit="always")
    assert "tensor<128x128x!tt.ptr<i8>, #mma>" in print_module(parsed)


@pytest.mark.parametrize("path", (FP8, INT8), ids=("fp8", "int8"))
def test_the_model_keeps_the_aligned_low_precision_epilogues(path):
    """The H200 ran both 16% slower with every conversion removed (round 23)."""
    with real_compiler.providing(None):
        parsed, remarks = run(path, profit="model")
    assert conversions(parsed.module) == 4
    assert not any(": moved to" in r for r in remarks)
    assert sum("conversion kept" in r for r in remarks) == 4



def test_the_default_decides_as_registered(triton36, monkeypatch):
    """With the real compiler the default keeps the fp8 epilogue and takes the dropout one by its spills, as
    r23_predictions_cpu.txt registered before the GPU run."""
    monkeypatch.setenv("IRKIT_TRITON_PYTHON", triton36)
    with real_compiler.providing(compiled_stats.TritonCompiler()):
        parsed, remarks = run(FP8, profit=None)
        assert conversions(parsed.module) == 4
        assert any("occupancy and spills decide: neither" in r for r in remarks)
        parsed, remarks = run(DROPOUT, profit=None)
        assert conversions(parsed.module) == 0
        assert any("so occupancy and spills decide: spills fall by 512 B or more" in r for r in remarks)


def test_real_triton_reads_the_rewritten_modules(tmp_path):
    if in_process_version() != "3.6.0" and "3.6.0" not in env_pythons():
        pytest.skip("no Triton 3.6.0: add 3.6.0=PYTHON to IRKIT_TRITON_PYTHONS")
    outputs = []
    for path in KERNELS:
        parsed, _ = run(path, profit="always")
        out = tmp_path / path.name
        out.write_text(print_module(parsed))
        outputs.append(out)
    assert {Path(p).name: r for p, r in check("3.6.0", outputs).items() if r is not None} == {}


def test_a_persistent_kernels_epilogue_is_not_weighed_as_its_main_loop(triton36, monkeypatch):
    """Round 24 took this rewrite with the loop over tiles counted as loop code (SASS cost -176) and it ran 7.2%
    slower; read from the innermost loop, the SASS cost moves within the middle band and the conversions stay."""
    monkeypatch.setenv("IRKIT_TRITON_PYTHON", triton36)
    with real_compiler.providing(compiled_stats.TritonCompiler()):
        parsed, remarks = run(PERSISTENT, profit=None)
    assert conversions(parsed.module) == 2
    assert any("the SASS cost moves less than -150/+300" in r for r in remarks)


def test_a_tma_store_epilogue_loads_its_residual_and_bias_in_the_mma_layout():
    """Triton already stores this tile from the accumulator's layout (`ttg.local_alloc`, then a TMA store); the
    conversions left are the loads'.  Removing them leaves the store as it was and keeps every other name."""
    before = parse_file(str(TMA))
    seeds = [op for op in before.module.walk() if isinstance(op, ConvertLayoutOp)]
    assert len(seeds) == 2
    named = {name for op in before.module.walk() for r in op.results if (name := r.name_hint)}
    parsed, remarks = run(TMA, profit="always")
    assert conversions(parsed.module) == 0 and not verify_module(parsed.module)
    text = print_module(parsed)
    assert "tensor<128x128x!tt.ptr<f32>, #mma>" in text
    assert "tensor<128x!tt.ptr<f16>, #ttg.slice<{dim = 0, parent = #mma}>>" in text
    assert "(tensor<128x128xf32, #mma>) -> !ttg.memdesc<128x128xf32" in text
    assert text.count("ttng.async_tma_copy_local_to_global") == 1
    kept = {name for op in parsed.module.walk() for r in op.results if (name := r.name_hint)}
    # the residual's zero fill, rebuilt in the mma layout, is the accumulator's zero constant already there: the
    # pass reuses an equivalent op rather than add a twin
    assert named - kept - {op.result.name_hint for op in seeds} == {"cst_12"}
    assert "%r_60 = tt.load %r_59, %r_52, %cst : tensor<128x128x!tt.ptr<f32>, #mma>" in text


def test_the_default_keeps_the_tma_epilogue_that_ran_25_percent_slower(triton36, monkeypatch, tmp_path):
    """As r26_predictions_cpu.txt registered before the GPU run: the SASS cost moves within the middle band and
    neither occupancy nor spills pay, so both conversions stay; the real parser reads `profit=always`'s module."""
    monkeypatch.setenv("IRKIT_TRITON_PYTHON", triton36)
    with real_compiler.providing(compiled_stats.TritonCompiler()):
        parsed, remarks = run(TMA, profit=None)
    assert conversions(parsed.module) == 2
    assert any("the SASS cost moves less than -150/+300" in r and "neither more CTAs" in r for r in remarks)
    if in_process_version() == "3.6.0" or "3.6.0" in env_pythons():
        out = tmp_path / TMA.name
        out.write_text(print_module(run(TMA, profit="always")[0]))
        read = check("3.6.0", [out])
        assert len(read) == 1 and list(read.values()) == [None]


def test_the_model_takes_the_tf32_epilogue_at_a_marginal_gain():
    """Both conversions (the residual tile and the bias row) go, at +246 cycles/CTA each: under
    `mma_profit.MARGINAL_GAIN`, so with a compiler the default asks it to confirm."""
    with real_compiler.providing(None):
        parsed, remarks = run(TF32, profit="model")
    assert conversions(parsed.module) == 0 and not verify_module(parsed.module)
    gains = [r for r in remarks if ": moved to" in r]
    assert len(gains) == 2 and all("(model: +246 cycles/CTA)" in r for r in gains)


def test_the_default_undoes_the_marginal_tf32_rewrite_that_ran_6_percent_slower(triton36, monkeypatch):
    """Round 26 ran this rewrite 6.3% slower, nothing the compiler reads being worse; the marginal-gain check
    (round 27) put both conversions back.  Since session 18 the stores rule, which comes first, does: its stores
    add 256 sector requests per warp and it saves 34 executed spill operations (ten trips assumed)."""
    monkeypatch.setenv("IRKIT_TRITON_PYTHON", triton36)
    with real_compiler.providing(compiled_stats.TritonCompiler()):
        parsed, remarks = run(TF32, profit=None)
    assert conversions(parsed.module) == 2
    undone = [r for r in remarks if "rewrite undone" in r]
    assert len(undone) == 2 and all("its stores add 256 sector requests per warp against 34 executed spill loads and "
                                    "stores saved" in r for r in undone)
