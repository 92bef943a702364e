"""propagate-mma{profit=compiled}: the model's module against the one with every conversion removed, compiled
by the real Triton, on real Triton 3.6 TTGIR for an H100 (the plain GEMM of examples/gpu/addmm.py); and the
default, profit=auto: the same where a Triton that reads the module is at hand, the model alone elsewhere.

The decision is tested with the compiler's answers given (so it runs everywhere), and end to end with the
real Triton 3.6 when IRKIT_TRITON_PYTHONS names one (or this Python has it).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from irkit.passes import all_passes
from xdsl.context import Context

from irkit import diagnostics
from irkit.analysis import real_compiler
from irkit.analysis.occupancy import CompiledKernel
from irkit.analysis.real_compiler import CompileUnavailable
from irkit.check import compiled_stats
from irkit.dialects.ttg import ConvertLayoutOp
from irkit.frontend.parser import Parser, parse_file
from irkit.frontend.printer import print_module

INPUTS = Path(__file__).resolve().parents[1] / "lit_tests" / "passes" / "Inputs"
GEMM_128 = INPUTS / "h100-gemm-128x128x32-w4s3.ttgir"  # ptxas: 176 registers; 168 without the conversion
GEMM_64 = INPUTS / "h100-gemm-64x128x32-w4s3.ttgir"  # 110; 96 without it
MASKED_256 = INPUTS / "h100-addmm-masked-256x128x64-w8s3.ttgir"  # spill stores 2,434 B; 1,302 without them
MEASURED = Path(__file__).resolve().parent / "data" / "propagate_mma"
# round 13 (docs/propagate-mma-results.md): the masked fp16 256x128x64 w8 s3 kernel of the held-out
# gemm_gated_residual.py ran 0.869 with its conversions removed; the loop-reload rule of f087d65 kept it
# (uncovered spill reloads in its loops 1738 -> 2575), which refuted the rule
GATED_WINNER = MEASURED / "gemm_gated_residual_out_fp16_2200x2900x1800_256x128x64_w8_s3_cuda90_triton360.ttgir"
# rounds 11 and 12: the masked fp32 256x128x64 w8 s3 kernel of gemm_gelu_residual.py ran 1.031 (H100) and 1.036
# (H200) with its conversions removed, which the spill rule alone took (3584 -> 1494 B)
GELU_LOSER = MEASURED / "gemm_gelu_residual_out_fp32_2900x3310x1400_256x128x64_w8_s3_cuda90_triton360.ttgir"
# round 10: the masked Y=row 128x64x64 w4 s3 kernel of gemm_swiglu.py ran 0.693 with its conversion removed; spills
# fall only 202 B, the default kept it; the SASS cost falls 1,497
SWIGLU_WINNER = MEASURED / "gemm_swiglu_Y_row_3000x2730x1000_128x64x64_w4_s3_cuda90_triton360.ttgir"
# round 17: the IR model alone removes the store conversion of gemm_at_clamp's fp32 masked 128x128x64 w8 s3 kernel,
# which ran 1.109 without it (ptxas spills 48 -> 136 B)
AT_CLAMP_LOSER = MEASURED / "gemm_at_clamp_out_fp32_1900x2600x1400_128x128x64_w8_s3_cuda90_triton360.ttgir"


# round 34: the masked bf16 128x128x16 w4 s2 kernel of the held-out gemm_lora_up.py (K = 16: its main loop runs
# once) ran 1.502 with its conversions removed, which the SASS cost took on its epilogue's instructions alone
LORA_LOSER = INPUTS / "h100-lora-up-masked-128x128x16-w4s2.ttgir"


@pytest.fixture(autouse=True)
def the_tools_provide_triton():
    """As irkit-opt, irkit-check and irkit-sweep do when they build a pipeline."""
    with real_compiler.providing(compiled_stats.TritonCompiler()):
        yield


def give_answers(monkeypatch, answers) -> None:
    """A fake Triton: found at once, and it answers with `answers` (the compiler's figures for each module)."""

    def fake(modules, python):
        assert python == "/fake/triton/python"
        assert len(modules) == 2  # the model's module, then the one with every conversion removed
        return answers

    monkeypatch.setattr(compiled_stats, "triton_python", lambda: "/fake/triton/python")
    monkeypatch.setattr(compiled_stats, "find_compiler", lambda modules: "/fake/triton/python")
    monkeypatch.setattr(compiled_stats, "compile_modules", fake)


def run(path: Path, monkeypatch=None, answers=None, profit: str | None = "compiled", **options):
    """propagate-mma on `path` with `profit` (None: the default) and `options`; the module and its remarks."""
    parsed = parse_file(str(path))
    if answers is not None:
        give_answers(monkeypatch, answers)
    if profit is not None:
        options["profit"] = profit
    all_passes()["propagate-mma"](**options).apply(Context(allow_unregistered=True), parsed.module)
    remarks = [d.message for d in diagnostics.take() if d.severity == "remark"]
    return parsed, remarks


def conversions(module) -> int:
    return sum(isinstance(op, ConvertLayoutOp) for op in module.walk())


def test_more_ctas_where_few_were_resident_takes_the_rewrite(monkeypatch):
    parsed, remarks = run(GEMM_128, monkeypatch, [CompiledKernel(176, 0, 49152), CompiledKernel(168, 0, 49152)])
    assert conversions(parsed.module) == 0
    assert len(remarks) == 1
    assert remarks[0].startswith("propagate-mma: moved with every other conversion (profit=compiled: compiled with it "
                                 "176 registers/thread, 2 CTA(s)/SM (8 warps, by registers); without it 168")
    assert "3 CTA(s)/SM (12 warps, by registers)" in remarks[0]
    assert "alone: narrows 64 store(s)/thread to v2" in remarks[0]  # the model's own reason is kept
    # the same module profit=always gives, names and all
    always = parse_file(str(GEMM_128))
    all_passes()["propagate-mma"](profit="always").apply(Context(allow_unregistered=True), always.module)
    diagnostics.take()
    assert print_module(parsed) == print_module(always)


def test_kept_when_the_sm_was_already_busy_or_it_spills(monkeypatch):
    parsed, remarks = run(GEMM_64, monkeypatch, [CompiledKernel(110, 0, 36864), CompiledKernel(96, 0, 36864)])
    assert conversions(parsed.module) == 1
    assert remarks[0].startswith("propagate-mma: conversion kept: ")
    assert remarks[0].endswith("profit=compiled: compiled with it 110 registers/thread, 4 CTA(s)/SM (16 warps, by "
                               "registers); without it 96 registers/thread, 5 CTA(s)/SM (20 warps, by registers); "
                               "spills 0 -> 0 B; occupancy and spills decide: neither more CTAs on an SM that held 8 "
                               "or fewer warps and 96 KB or less of shared memory nor spills 512 B fewer")
    parsed, remarks = run(GEMM_128, monkeypatch, [CompiledKernel(176, 0, 49152), CompiledKernel(168, 8, 49152)])
    assert conversions(parsed.module) == 1 and "spills 0 -> 8 B" in remarks[0]
    assert remarks[0].endswith("; occupancy and spills decide: more CTAs on an SM that held 8 or fewer warps and 96 KB "
                               "or less of shared memory, but with more spills")


def test_a_cta_more_is_not_taken_where_the_ctas_held_much_shared_memory(monkeypatch):
    """Round 28's and round 30's losses: 2 -> 3 CTAs of 64 KB each (4 stages), kept; the remark says what held."""
    parsed, remarks = run(GEMM_128, monkeypatch, [CompiledKernel(254, 0, 65536), CompiledKernel(168, 0, 65536)])
    assert conversions(parsed.module) == 1
    assert remarks[0].startswith("propagate-mma: conversion kept: ")
    assert "without it 168 registers/thread, 3 CTA(s)/SM (12 warps, by registers)" in remarks[0]
    assert remarks[0].endswith("nor spills 512 B fewer (a CTA more, but its CTAs held 128 KB of shared memory)")


def test_far_fewer_spills_take_the_rewrite(monkeypatch):
    parsed, remarks = run(GEMM_64, monkeypatch, [CompiledKernel(110, 1200, 36864), CompiledKernel(110, 400, 36864)])
    assert conversions(parsed.module) == 0
    assert "spills 1200 -> 400 B" in remarks[0] and remarks[0].startswith("propagate-mma: moved with every other")


def test_dry_run_says_what_it_would_do(monkeypatch):
    parsed, remarks = run(GEMM_128, monkeypatch, [CompiledKernel(176, 0, 49152), CompiledKernel(168, 0, 49152)],
                          dry_run=True)
    assert conversions(parsed.module) == 1
    assert remarks[0].startswith("propagate-mma: would move with every other conversion (profit=compiled: ")


def test_a_failed_compile_leaves_the_model_to_decide(monkeypatch):
    parsed, remarks = run(GEMM_128, monkeypatch, ["error: could not lower", CompiledKernel(168, 0, 49152)])
    assert conversions(parsed.module) == 1
    assert remarks[0].endswith("profit=compiled: the real compiler failed (error: could not lower), the model decides")


def test_no_figures_for_other_targets(monkeypatch):
    text = GEMM_128.read_text().replace('ttg.target = "cuda:90"', 'ttg.target = "cuda:75"')
    parsed = Parser(text, "sm75.ttgir").parse()

    def never(*args):
        raise AssertionError("nothing to compile for a target without occupancy figures")

    monkeypatch.setattr(compiled_stats, "find_compiler", never)
    monkeypatch.setattr(compiled_stats, "compile_modules", never)
    all_passes()["propagate-mma"](profit="compiled").apply(Context(allow_unregistered=True), parsed.module)
    remarks = [d.message for d in diagnostics.take() if d.severity == "remark"]
    assert remarks[0].endswith("profit=compiled: no occupancy figures for target cuda:75, the model decides")


def test_without_a_triton_it_is_one_error_line(tmp_path):
    env = {"PATH": "/usr/bin:/bin", "IRKIT_TRITON_PYTHON": str(tmp_path / "no-python")}
    p = subprocess.run([sys.executable, "-m", "irkit.cli.opt", "-p", "propagate-mma{profit=compiled}", str(GEMM_128)],
                       capture_output=True, text=True, env=env, check=False)
    assert p.returncode == 1
    assert "Traceback" not in p.stderr
    first = p.stderr.splitlines()[0]
    assert first.startswith(f"{GEMM_128}:") and "error: propagate-mma: profit=compiled needs the real Triton: " in first
    assert "does not exist or is not executable" in first


def test_compile_unavailable_names_a_mismatched_triton(monkeypatch):
    from irkit.check import static

    monkeypatch.setattr(static, "find_triton_python", lambda explicit=None: "/opt/triton31/python")
    monkeypatch.setattr(static, "installed_triton_version", lambda python: "3.1.0")
    with pytest.raises(CompileUnavailable, match=r"the module is Triton 3.2\+ IR .* installed Triton is 3.1.0"):
        compiled_stats.compile_modules([parse_file(str(GEMM_128)).module])


def test_the_default_asks_the_compiler_where_one_is_at_hand(monkeypatch):
    parsed, remarks = run(GEMM_128, monkeypatch, [CompiledKernel(176, 0, 49152), CompiledKernel(168, 0, 49152)],
                          profit=None)
    assert conversions(parsed.module) == 0
    assert remarks[0].startswith("propagate-mma: moved with every other conversion (profit=auto: compiled with it "
                                 "176 registers/thread, 2 CTA(s)/SM")
    parsed, remarks = run(GEMM_64, monkeypatch, [CompiledKernel(110, 0, 36864), CompiledKernel(96, 0, 36864)],
                          profit=None)
    assert conversions(parsed.module) == 1
    assert "; profit=auto: compiled with it 110 registers/thread, 4 CTA(s)/SM" in remarks[0]


def test_the_default_without_a_triton_is_the_model_and_says_so(monkeypatch, tmp_path):
    def never(*args):
        raise AssertionError("without a Triton, profit=auto starts no Python")

    monkeypatch.setenv("IRKIT_TRITON_PYTHON", str(tmp_path / "no-python"))
    monkeypatch.setattr(compiled_stats, "find_compiler", never)
    parsed, remarks = run(GEMM_128, profit=None)
    assert conversions(parsed.module) == 1
    assert remarks[0].startswith("propagate-mma: conversion kept: narrows 64 store(s)/thread to v2")
    assert remarks[0].endswith("; profit=auto: no Triton here to compile with, the model decides")
    model, _ = run(GEMM_128, profit="model")
    assert print_module(parsed) == print_module(model)


def test_the_default_with_a_triton_of_another_generation_is_the_model(monkeypatch):
    from irkit.check import static

    monkeypatch.setattr(static, "find_triton_python", lambda explicit=None: "/opt/triton31/python")
    monkeypatch.setattr(static, "installed_triton_version", lambda python: "3.1.0")
    parsed, remarks = run(GEMM_128, profit=None)
    assert conversions(parsed.module) == 1
    assert remarks[0].endswith("; profit=auto: the module is Triton 3.2+ IR (ttg.* spelling) but the installed "
                               "Triton is 3.1.0, the model decides")


def test_a_stuck_compiler_leaves_the_default_to_the_model(monkeypatch, tmp_path):
    """A Triton whose compile never ends is killed after COMPILE_TIMEOUT_S; the pass does not hang."""
    stuck = tmp_path / "python"
    stuck.write_text('#!/bin/sh\nif [ "$1" = "-c" ]; then echo 3.6.0; else exec sleep 60; fi\n')
    stuck.chmod(0o755)
    monkeypatch.setenv("IRKIT_TRITON_PYTHON", str(stuck))
    monkeypatch.setattr(compiled_stats, "COMPILE_TIMEOUT_S", 1)
    parsed, remarks = run(GEMM_128, profit=None)
    assert conversions(parsed.module) == 1
    assert remarks[0].endswith("; profit=auto: the real compiler did not finish in 1 s, the model decides")


def test_the_default_is_the_model_alone_for_amd_without_figures(monkeypatch, tmp_path):
    """No occupancy figures for an RDNA target (CDNA's are in occupancy.CU_LIMITS, tests/test_amd_decisions.py):
    auto never looks for a compiler, and says nothing about one."""

    def never(*args):
        raise AssertionError("profit=auto looked for a compiler for an AMD module")

    monkeypatch.setattr(compiled_stats, "triton_python", never)
    monkeypatch.setattr(compiled_stats, "find_compiler", never)
    monkeypatch.setattr(compiled_stats, "compile_modules", never)
    example = tmp_path / "addmm_gfx1100_256x256.ttgir"
    cdna = Path(__file__).resolve().parents[1] / "examples" / "addmm_gfx942_256x256.ttgir"
    example.write_text(cdna.read_text().replace('"hip:gfx942"', '"hip:gfx1100"'))
    parsed, remarks = run(example, profit=None)
    model, model_remarks = run(example, profit="model")
    assert print_module(parsed) == print_module(model) and remarks == model_remarks
    assert remarks and not any("profit=" in r for r in remarks)



def test_the_real_compiler_decides_as_measured_on_the_h100(triton36, monkeypatch):
    monkeypatch.setenv("IRKIT_TRITON_PYTHON", triton36)
    parsed, remarks = run(GEMM_128)
    assert conversions(parsed.module) == 0
    assert "176 registers/thread, 2 CTA(s)/SM" in remarks[0] and "168 registers/thread, 3 CTA(s)/SM" in remarks[0]
    parsed, remarks = run(GEMM_64)
    assert conversions(parsed.module) == 1
    assert "110 registers/thread, 4 CTA(s)/SM" in remarks[0] and "96 registers/thread, 5 CTA(s)/SM" in remarks[0]
    parsed, remarks = run(MASKED_256)
    assert conversions(parsed.module) == 0 and len(remarks) == 2
    assert all("spills 2434 -> 1302 B" in r for r in remarks)
    parsed, remarks = run(GEMM_128, profit=None)  # the default asks the same compiler
    assert conversions(parsed.module) == 0 and "(profit=auto: compiled with it 176 registers/thread" in remarks[0]


def test_irkit_check_lends_its_triton_to_the_pass(triton36, monkeypatch, tmp_path):
    """Static irkit-check with --triton-python: the pass, with its default options, compiles with that Triton,
    no environment needed."""
    import json

    from irkit.check.cli import run as check

    monkeypatch.delenv("IRKIT_TRITON_PYTHON", raising=False)
    out = tmp_path / "report.json"
    assert check(["-p", "propagate-mma", str(GEMM_128), "--triton-python", triton36,
                  "--json", str(out)]) == 0
    module = json.loads(out.read_text())["modules"][0]
    assert module["changed"] and "(profit=auto: compiled with it 176 registers/thread, 2 CTA(s)/SM" in module["remarks"][0]
    assert (module["before"]["real"]["registers"], module["after"]["real"]["registers"]) == (176, 168)


def test_without_a_provided_compiler_the_default_is_the_model_and_says_so():
    """A program running the pass itself, with no compiler provided: the model decides, and the remark says why."""
    with real_compiler.providing(None):
        parsed, remarks = run(GEMM_128, profit=None)
        assert conversions(parsed.module) == 1
        assert remarks[0].endswith("; profit=auto: no real compiler provided to the pass, the model decides")
        with pytest.raises(Exception, match="profit=compiled needs the real Triton"):
            run(GEMM_128, profit="compiled")


def test_passes_import_nothing_from_the_tools():
    """passes/ sits below the tools: it reaches the real compiler only through irkit.analysis.real_compiler."""
    import ast

    root = Path(__file__).resolve().parents[1]
    offenders = []
    for path in sorted((root / "passes").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            offenders += [f"{path.name}: {n}" for n in names if n.startswith(("irkit.cli", "irkit.check"))]
    assert offenders == []
    code = ("import sys, irkit.passes as p; p.all_passes(); "
            "print(sorted(m for m in sys.modules if m.startswith(('irkit.cli', 'irkit.check'))))")
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert loaded == "[]"



def test_the_sass_cost_decides_as_measured(triton36, monkeypatch):
    """The SASS of both candidates is read (occupancy.sass_cost_change) and decides where it moves far: each of
    these three ran as the default now decides, and the default before this rule got the last two wrong."""
    monkeypatch.setenv("IRKIT_TRITON_PYTHON", triton36)
    # 5 KB fewer spills; the loops' reloads rise, but 247 fewer loop instructions: under the veto, taken (13% faster)
    parsed, remarks = run(GATED_WINNER, profit=None)
    assert conversions(parsed.module) == 0
    assert "spills 5252 -> 1644 B; SASS cost +208 (loop instructions 1115 -> 868, uncovered spill reloads in loops " \
           "1738 -> 2575" in remarks[0]
    # 2 KB fewer spills, but the loop's reloads move next to their uses: vetoed (3-4% slower)
    parsed, remarks = run(GELU_LOSER, profit=None)
    assert conversions(parsed.module) == 2
    assert all("spills 3584 -> 1494 B; SASS cost +382" in r and "conversion kept" in r for r in remarks)
    # few spills saved, but the loop's reloads are covered far better: taken (31% faster)
    parsed, remarks = run(SWIGLU_WINNER, profit=None)
    assert conversions(parsed.module) == 0
    assert "spills 1968 -> 1766 B; SASS cost -1497 (loop instructions 898 -> 866" in remarks[0]


def test_the_models_rewrite_is_undone_where_it_compiles_worse(triton36, monkeypatch):
    """Where the model removes every conversion itself, the compiler still compiles both modules, and puts the
    conversion back when the rewrite spills more: round 17's 10.9% loss."""
    monkeypatch.setenv("IRKIT_TRITON_PYTHON", triton36)
    assert conversions(run(AT_CLAMP_LOSER, profit="model")[0].module) == 0  # the model's own decision
    parsed, remarks = run(AT_CLAMP_LOSER, profit=None)
    assert conversions(parsed.module) == 1
    undone = [r for r in remarks if "rewrite undone" in r]
    assert len(undone) == 1 and "spills 48 -> 136 B" in undone[0]
    parsed, remarks = run(AT_CLAMP_LOSER, profit=None, dry_run=True)
    assert conversions(parsed.module) == 1 and any("rewrite would be undone" in r for r in remarks)


def test_the_models_rewrite_stands_where_the_compiler_finds_it_no_worse(monkeypatch):
    """A gain the model puts at 2,325 cycles/CTA stands on the model's word where the compiler finds it no worse."""
    parsed, remarks = run(INPUTS / "h100-gemm-256x128x64-w8s3.ttgir", monkeypatch,
                          answers=[CompiledKernel(232, 0, 65536), CompiledKernel(232, 0, 65536)], profit=None)
    assert conversions(parsed.module) == 0 and not any("undone" in r for r in remarks)
    parsed, remarks = run(AT_CLAMP_LOSER, monkeypatch, answers=["the compile failed"], profit=None)
    assert conversions(parsed.module) == 0  # no figures: the model's rewrite stands


def test_the_models_rewrite_check_decides_from_the_compiled_figures_alone():
    """`mma_profit.check_models_rewrite`, the decision the pass applies to the model's own full rewrite."""
    from irkit.analysis.mma_profit import check_models_rewrite
    from irkit.analysis.occupancy import SM_LIMITS

    h100 = SM_LIMITS[90]
    third_cta = CompiledKernel(176, 0, 49152), CompiledKernel(168, 0, 49152)
    assert check_models_rewrite(*third_cta, h100, 4, 300)[:2] == (
        "kept", "the model's gain (+300 cycles/CTA) is marginal, so the rewrite stands only where the compiler's "
        "figures take it too, and they do")
    assert check_models_rewrite(*third_cta, h100, 4, 962)[:2] == (None, "")  # not marginal: it stands, unsaid
    # a CTA more of 64 KB each is no take, so a marginal gain is undone; a large one stands
    busy = CompiledKernel(254, 0, 65536), CompiledKernel(168, 0, 65536)
    assert check_models_rewrite(*busy, h100, 4, 300)[0] == "undone"
    assert check_models_rewrite(*busy, h100, 4, 2000)[0] is None
    # more spills: undone whatever the gain
    spills = CompiledKernel(176, 0, 49152), CompiledKernel(168, 8, 49152)
    assert check_models_rewrite(*spills, h100, 4, 5000)[:2] == ("undone", "it compiles worse without it")
    # a launch whose loop executes fewer instructions than the code outside it: the compiler's figures take
    # nothing, so a marginal gain is undone even where they would take it otherwise (round 34's fp32 128x128x16 w8
    # s2 kernel, +492 cycles/CTA by the model, ran 11% slower rewritten); since session 19 a large one too
    third_cta = CompiledKernel(176, 0, 49152, 0, 0, 100, 1000), CompiledKernel(168, 0, 49152, 0, 0, 100, 990)
    assert check_models_rewrite(*third_cta, h100, 4, 300, loop_trips=10)[0] == "undone"
    assert check_models_rewrite(*third_cta, h100, 4, 300, loop_trips=11)[0] == "kept"
    assert check_models_rewrite(*third_cta, h100, 4, 962, loop_trips=1)[0] == "undone"
    assert check_models_rewrite(*third_cta, h100, 4, 962, loop_trips=11)[0] is None
    # round 40's fp32 256x64x64 w8 s3 (figures of a CPU compile, Triton 3.6): the model's +6,237 cycles/CTA, no spills
    # either way, its loop 10 instructions longer; its stores add 2,048 sector requests per CTA, and it ran 7.5% and
    # 11.5% slower.  Undone whatever the gain; with stores that add nothing, it stands
    token = (CompiledKernel(190, 0, 106496, 0, 0, 168, 1430, spill_ops_loop=0, spill_ops_outside=0),
             CompiledKernel(211, 0, 106496, 0, 0, 178, 1044, spill_ops_loop=0, spill_ops_outside=0))
    outcome, reason, _ = check_models_rewrite(*token, h100, 8, 6237, loop_trips=16, store_sectors_added=2048)
    assert outcome == "undone" and reason == (
        "what it gains in the compiled kernel rests on the instructions outside loops (loop terms +10), and its stores "
        "add 256 sector requests per warp against 0 executed spill loads and stores saved (fewer than 0.35 per sector)")
    assert check_models_rewrite(*token, h100, 8, 6237, loop_trips=16)[0] is None
    # round 42's fp32 128x128x64 w8 s3 (a CPU compile, Triton 3.6): the model's +1,925 cycles/CTA, no spills, stores
    # adding nothing; at K = 256 its loop runs 4 times, and it ran 1.1% slower.  Where the launch is its epilogue
    # (outside-loop instructions 1,038 >= 113 x trips: up to 9 trips), any gain is undone; past that it stands
    bottleneck = (CompiledKernel(232, 0, 98304, 0, 0, 113, 1038, spill_ops_loop=0, spill_ops_outside=0),
                  CompiledKernel(178, 0, 98304, 0, 0, 105, 734, spill_ops_loop=0, spill_ops_outside=0))
    outcome, reason, _ = check_models_rewrite(*bottleneck, h100, 8, 1925, loop_trips=4)
    assert outcome == "undone" and reason == (
        "the model's gain (+1,925 cycles/CTA) does not stand alone where the launch is its epilogue, so the rewrite "
        "stands only where the compiler's figures take it too, and they do not")
    assert check_models_rewrite(*bottleneck, h100, 8, 1925, loop_trips=9)[0] == "undone"
    assert check_models_rewrite(*bottleneck, h100, 8, 1925, loop_trips=10)[0] is None
    assert check_models_rewrite(*bottleneck, h100, 8, 1925)[0] is None  # trips not known: not epilogue-bound


def test_a_marginal_model_gain_stands_only_where_the_compiler_takes_it_too(monkeypatch):
    """The model puts this rewrite at +246 cycles/CTA (`mma_profit.marginal`): no worse is not enough, the
    compiler's figures must take it by themselves (here: spill stores 1,000 B fewer per thread)."""
    parsed, remarks = run(AT_CLAMP_LOSER, monkeypatch, answers=[CompiledKernel(255, 136, 65536),
                                                              CompiledKernel(255, 0, 32768)], profit=None)
    assert conversions(parsed.module) == 1
    undone = [r for r in remarks if "rewrite undone" in r]
    assert len(undone) == 1 and "the model's gain (+246 cycles/CTA) is marginal" in undone[0]
    assert "spills fall by 512 B or more" not in undone[0] and "spills 136 -> 0 B" in undone[0]
    parsed, remarks = run(AT_CLAMP_LOSER, monkeypatch, answers=[CompiledKernel(255, 1136, 65536),
                                                              CompiledKernel(255, 136, 32768)], profit=None)
    assert conversions(parsed.module) == 0 and not any("undone" in r for r in remarks)
    kept = [r for r in remarks if "rewrite kept" in r]
    assert len(kept) == 1 and "is marginal, so the rewrite stands only" in kept[0] and "spills fall by 512 B or more" in kept[0]
    # a dry run says what it would do and changes nothing
    parsed, remarks = run(AT_CLAMP_LOSER, monkeypatch, answers=[CompiledKernel(255, 136, 65536),
                                                              CompiledKernel(255, 0, 32768)], profit=None, dry_run=True)
    assert conversions(parsed.module) == 1 and any("rewrite would be undone" in r and "is marginal" in r for r in remarks)


def test_a_main_loop_run_few_times_leaves_the_decision_to_the_model(monkeypatch):
    """Round 34: the compiler's figures for the kernel as compiled and with every conversion removed (from its
    remark): the SASS cost falls 183, all of it outside loops.  Taken where the launch is not known; kept where
    it runs the main loop once: the compiler's figures take nothing but a large fall of the epilogue's spills (these
    fall by 344 B), and the IR model keeps both conversions (-1,254 cycles/CTA each)."""
    figures = [CompiledKernel(255, 424, 8192, 0, 0, 80, 3978), CompiledKernel(255, 80, 8192, 0, 0, 84, 2110)]
    parsed, remarks = run(LORA_LOSER, monkeypatch, figures, profit=None)
    assert conversions(parsed.module) == 0 and "the SASS cost falls by 150 or more" in remarks[0]
    for trips, runs in ((1, "once at this launch: 80"), (49, "49 times at this launch: 3,920")):
        parsed, remarks = run(LORA_LOSER, monkeypatch, figures, profit=None, main_loop_trips=trips)
        assert conversions(parsed.module) == 2 and len(remarks) == 2
        assert all(r.startswith("propagate-mma: conversion kept: ") and "(model: -1,254 cycles/CTA)" in r and
                   r.endswith(f"SASS cost -183 (loop instructions 80 -> 84, uncovered spill reloads in loops 0 -> 0, "
                              f"instructions outside loops 3978 -> 2110); the main loop runs {runs} loop "
                              "instructions against 3,978 outside loops, so the kernel is its epilogue, which these "
                              "figures do not weigh, and they take nothing but the epilogue's spills, which fall by "
                              "less than 512 B")
                   for r in remarks)
    parsed, remarks = run(LORA_LOSER, monkeypatch, figures, profit=None, main_loop_trips=50)  # 4,000 in the loop
    assert conversions(parsed.module) == 0
