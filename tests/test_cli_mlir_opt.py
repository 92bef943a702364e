"""irkit-opt reads a command line as mlir-opt/triton-opt do (issue 8, item 1): pass flags take
options only after '=', one or two dashes, no abbreviations, Triton's pass names, MLIR's
textual pipelines, and the -mlir-* instrumentation flags."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
from test_cli import SMALL, assert_tool_error, run

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "addmm_gfx942_256x256.ttgir"

# one load and one store through a tensor of pointers: coalesce gives them 4 elements per thread
COALESCE_ME = """\
#blocked = #triton_gpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"triton_gpu.num-warps" = 4 : i32, "triton_gpu.num-ctas" = 1 : i32, "triton_gpu.threads-per-warp" = 32 : i32} {
  tt.func @f(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
    %0 = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #blocked>
    %1 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #blocked>
    %2 = tt.addptr %1, %0 : tensor<512x!tt.ptr<f32>, #blocked>, tensor<512xi32, #blocked>
    %3 = tt.load %2 : tensor<512x!tt.ptr<f32>, #blocked>
    tt.store %2, %3 : tensor<512x!tt.ptr<f32>, #blocked>
    tt.return
  }
}
"""


@pytest.fixture
def small(tmp_path) -> Path:
    p = tmp_path / "small.mlir"
    p.write_text(SMALL)
    return p


@pytest.fixture
def coalesce_me(tmp_path) -> Path:
    p = tmp_path / "k.ttgir"
    p.write_text(COALESCE_ME)
    return p


def test_pass_flag_before_the_input_reads_the_input(tmp_path):
    # the command on the README's front page: the flag must not swallow the file as its options
    before = run(["--propagate-mma", str(EXAMPLE)])
    after = run([str(EXAMPLE), "--propagate-mma"])
    assert before.code == 0, before
    assert before.out == after.out
    untouched = run([str(EXAMPLE)]).out
    assert before.out.count("convert_layout") < untouched.count("convert_layout")


def test_pass_flag_never_takes_the_next_word(coalesce_me):
    # with the old parser `--coalesce skip-unchanged=true` read the option; now it is a second input
    assert_tool_error(run(["--coalesce", str(coalesce_me), "skip-unchanged=true"]), "unrecognized arguments")
    by_eq = run(["--coalesce=skip-unchanged=true", str(coalesce_me)])
    by_braces = run(["-coalesce={skip-unchanged=true}", str(coalesce_me)])
    by_quoted = run(["-coalesce=skip-unchanged=true", str(coalesce_me)])
    assert by_eq.code == 0, by_eq
    assert by_eq.out == by_braces.out == by_quoted.out


def test_one_or_two_dashes(tmp_path):
    src = tmp_path / "s.mlir"
    src.write_text(SMALL + "// -----\n" + SMALL)
    one = run([str(src), "-split-input-file", "-mlir-print-op-generic"])
    two = run([str(src), "--split-input-file", "--mlir-print-op-generic"])
    assert one.code == 0, one
    assert one.out == two.out and one.out.count("// -----") == 1 and '"tt.func"' in one.out
    out = tmp_path / "o.mlir"
    assert run([str(src), "-o=" + str(out)]).code == 0 and out.read_text().startswith("module")
    out.unlink()
    assert run(["-o", str(out), str(src)]).code == 0 and out.is_file()


@pytest.mark.parametrize("flag", ["--prop", "--propagate", "-coal", "--split-input", "--mlir-print-op"])
def test_no_prefix_abbreviations(flag, small):
    assert_tool_error(run([str(small), flag]), "unrecognized arguments", flag.lstrip("-"))


def test_triton_pass_names_are_the_same_passes(coalesce_me):
    ours = run([str(coalesce_me), "--coalesce"])
    triton = run([str(coalesce_me), "-tritongpu-coalesce"])
    assert ours.code == 0, ours
    assert ours.out == triton.out
    assert "sizePerThread = [4]" in ours.out
    in_pipeline = run([str(coalesce_me), "--pass-pipeline=builtin.module(tritongpu-coalesce)"])
    assert in_pipeline.out == ours.out


# Intel TTGIR with 2D block IO: Intel's rules keep some block pointers, upstream's rewrites all
INTEL_BLOCK_POINTERS = ROOT / "lit_tests" / "passes" / "Inputs" / "seed-2378.ttgir"


def test_intel_pass_name_implies_its_rule_and_mode_overrides_it():
    src = str(INTEL_BLOCK_POINTERS)
    intel = run([src, "-tritonintelgpu-rewrite-tensor-pointer"])
    assert intel.code == 0, intel
    assert intel.out == run([src, "--rewrite-tensor-pointer=mode=intel-2420"]).out
    assert "tt.make_tensor_ptr" in intel.out
    pre = run([src, "-tritonintelgpu-rewrite-tensor-pointer=mode=intel-pre-2400"])
    assert pre.out == run([src, "-p", "rewrite-tensor-pointer{mode=intel-pre-2400}"]).out != intel.out
    upstream = run([src, "-tritonintelgpu-rewrite-tensor-pointer=mode=upstream"])
    assert upstream.out == run([src, "-triton-rewrite-tensor-pointer"]).out == run([src, "--rewrite-tensor-pointer"]).out
    assert "tt.make_tensor_ptr" not in upstream.out  # upstream rewrites them all


def test_help_names_the_default_rule_and_the_upstream_names():
    text = run(["--help"]).out
    line = next(x for x in text.splitlines() if x.startswith("  --rewrite-tensor-pointer"))
    assert "mode=upstream" in line and "tritonintelgpu-rewrite-tensor-pointer (mode=intel-2420)" in line
    assert "tritongpu-coalesce" in text
    # and why: the pass's docstring, printed under its line
    below = text.split(line, 1)[1].split("\n  --", 1)[0]
    assert "Default: upstream" in below and "default is intel-2420" in below


@pytest.mark.parametrize(
    "pipeline",
    [
        "builtin.module(coalesce)",
        "builtin.module(tritongpu-coalesce{skip-unchanged=false})",
        "builtin.module(tt.func(coalesce))",
        " builtin.module( tt.func( tritongpu-coalesce ) ) ",
        "coalesce",
    ],
)
def test_textual_pipelines(pipeline, coalesce_me):
    ours = run([str(coalesce_me), "--coalesce"]).out
    result = run([str(coalesce_me), f"--pass-pipeline={pipeline}"])
    assert result.code == 0, result
    assert result.out == ours


@pytest.mark.parametrize(
    "pipeline, fragment",
    [
        ("builtin.module(coalesce", "expected ',' or ')'"),
        ("tt.func(coalesce)", "anchored on 'tt.func'"),
        ("builtin.module(no-such-pass)", "unknown pass 'no-such-pass'"),
        ("builtin.module(coalesce{skip-unchanged=true)", "unbalanced"),
        ("builtin.module(coalesce) extra", "unexpected text"),
        ("builtin.module", "op name"),
    ],
)
def test_bad_textual_pipelines(pipeline, fragment, coalesce_me):
    assert_tool_error(run([str(coalesce_me), "--pass-pipeline", pipeline]), fragment)


def test_print_ir_before_and_after(coalesce_me):
    result = run([str(coalesce_me), "-mlir-print-ir-before-all", "--tritongpu-coalesce", "--coalesce"])
    assert result.code == 0, result
    headers = re.findall(r"^// -----// IR Dump (Before|After) \w+ \(([\w-]+)\) //----- //$", result.err, re.MULTILINE)
    assert headers == [("Before", "tritongpu-coalesce"), ("Before", "coalesce")]
    first = result.err.split("//----- //\n")[1].split("// -----//")[0]
    assert first == run([str(coalesce_me)]).out

    after = run([str(coalesce_me), "--coalesce", "--mlir-print-ir-after=tritongpu-coalesce"])
    assert re.findall(r"IR Dump After \w+ \(([\w-]+)\)", after.err) == ["coalesce"]
    assert after.err.split("//----- //\n", 1)[1] == after.out


def test_print_ir_after_change_skips_passes_that_change_nothing(coalesce_me):
    # the second coalesce finds every access already coalesced (skip-unchanged keeps it as it is)
    result = run([str(coalesce_me), "--coalesce", "--coalesce=skip-unchanged=true", "--mlir-print-ir-after-change"])
    assert result.code == 0, result
    assert re.findall(r"IR Dump After \w+ \(([^)]*)\)", result.err) == ["coalesce"]
    every = run([str(coalesce_me), "--coalesce", "--coalesce=skip-unchanged=true", "--mlir-print-ir-after-all"])
    assert len(re.findall(r"IR Dump After", every.err)) == 2


def test_unknown_pass_in_print_ir_after(small):
    assert_tool_error(run([str(small), "--mlir-print-ir-after=nope"]), "unknown pass 'nope'")


def test_timing_report(coalesce_me):
    result = run([str(coalesce_me), "--tritongpu-coalesce", "--mlir-timing", "--mlir-disable-threading"])
    assert result.code == 0, result
    assert "... Execution time report ..." in result.err
    rows = re.findall(r"^\s+(\d+\.\d{4}) \(\s*([\d.]+)%\)  (.+)$", result.err, re.MULTILINE)
    names = [name for _, _, name in rows]
    assert names == ["Parser", "Verifier", "'builtin.module' Pipeline", "  CoalescePass (tritongpu-coalesce)",
                     "Output", "Rest", "Total"]
    total = float(rows[-1][0])
    top = sum(float(t) for t, _, n in rows[:-1] if not n.startswith("  "))
    assert abs(top - total) < 0.002  # the top-level rows add up to the total (rounding aside)
    assert result.out == run([str(coalesce_me), "--coalesce"]).out  # stdout keeps only the IR


def test_pass_statistics_count_ops_and_conversions(coalesce_me):
    result = run([str(coalesce_me), "--coalesce", "--mlir-pass-statistics"])
    stats = {k: int(v) for v, k in re.findall(r"\(S\)\s+(\d+) ([\w-]+) - ", result.err)}
    assert stats["convert-layouts-before"] == 0
    assert stats["convert-layouts-after"] == result.out.count("triton_gpu.convert_layout") > 0
    assert stats["ops-after"] - stats["ops-before"] == stats["convert-layouts-after"]


def test_version_and_python_m_irkit(coalesce_me):
    version = run(["--version"])
    assert version.code == 0 and version.out.startswith("irkit-opt (irkit ")
    proc = subprocess.run([sys.executable, "-m", "irkit", "-tritongpu-coalesce", str(coalesce_me)],
                          capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == run([str(coalesce_me), "--coalesce"]).out


def test_remarks_print_as_mlir_opt_prints_them():
    result = run(["--propagate-mma", "--mlir-print-remarks", str(EXAMPLE)])
    assert result.code == 0, result
    first = result.err.splitlines()[:3]
    m = re.match(r"^(.+):(\d+):(\d+): remark: \S", first[0])
    assert m is not None and m.group(1) == str(EXAMPLE), first
    line, col = int(m.group(2)), int(m.group(3))
    assert first[1] == EXAMPLE.read_text().splitlines()[line - 1]  # the source line, then a caret
    assert first[2] == " " * (col - 1) + "^"


def test_verify_diagnostics_only_expected(tmp_path):
    src = tmp_path / "d.mlir"
    src.write_text(
        "tt.func @a() {\n"
        "  // expected-error@+1 {{custom op 'tt.bogus' is unknown}}\n"
        "  tt.bogus\n"
        "}\n"
    )
    assert run([str(src), "--verify-diagnostics"]).code == 0
    assert run([str(src), "-verify-diagnostics=only-expected"]).code == 0
    src.write_text("tt.func @a() {\n  tt.bogus\n}\n")
    assert run([str(src), "--verify-diagnostics"]).code == 1
    # only-expected lets an unexpected diagnostic through, as MLIR's does
    assert run([str(src), "--verify-diagnostics=only-expected"]).code == 0
    assert_tool_error(run([str(src), "--verify-diagnostics=sometimes"]), "invalid choice")


TWO_MODULES = """\
#blocked = #triton_gpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"triton_gpu.num-warps" = 4 : i32, "triton_gpu.num-ctas" = 1 : i32} {
  tt.func @first(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
    %0 = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #blocked>
    %1 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #blocked>
    %2 = tt.addptr %1, %0 : tensor<512x!tt.ptr<f32>, #blocked>, tensor<512xi32, #blocked>
    %3 = tt.load %2 : tensor<512x!tt.ptr<f32>, #blocked>
    tt.return
  }
}
module attributes {"triton_gpu.num-warps" = 8 : i32, "triton_gpu.num-ctas" = 1 : i32} {
  tt.func @second(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
    tt.return
  }
}
"""


def test_two_top_level_modules_each_get_the_passes(tmp_path):
    src = tmp_path / "two.mlir"
    src.write_text(TWO_MODULES)
    plain = run([str(src)])
    assert plain.code == 0, plain
    # printed as triton-opt prints such a file: both modules inside one unnamed module
    assert "\nmodule {\n  module attributes" in plain.out and plain.out.count("module attributes") == 2
    result = run([str(src), "-tritongpu-coalesce"])
    assert result.code == 0, result  # num-warps is read from each module, not the unnamed wrapper
    assert "sizePerThread = [4]" in result.out


# -- dump logs: one default section for irkit-opt and irkit-report -----------------------------------

def _dump_log_text(sections: list[tuple[str, str]]) -> str:
    return "".join(
        f"// -----// IR Dump Before {cls} ({arg}) ('builtin.module' operation) //----- //\n{body}\n"
        for cls, arg, body in ((c, a, b) for c, (a, b) in sections)
    )


TTIR_BODY = "module {\n  tt.func @k() {\n    tt.return\n  }\n}"
TTGIR_BODY = ('module attributes {"triton_gpu.num-warps" = 4 : i32, "triton_gpu.num-ctas" = 1 : i32} {\n'
              "  tt.func @k() {\n    tt.return\n  }\n}")
TTGIR_BODY_8 = TTGIR_BODY.replace("= 4 : i32", "= 8 : i32")
LLVM_BODY = 'module attributes {"triton_gpu.num-warps" = 4 : i32} {\n  llvm.func @k() {\n    llvm.return\n  }\n}'


def test_dump_log_default_is_the_last_ttgir_section(tmp_path):
    from irkit.cli import report

    log = tmp_path / "log.txt"
    log.write_text(_dump_log_text([
        ("Inliner", ("inline", TTIR_BODY)),
        ("TritonGPUCoalesce", ("tritongpu-coalesce", TTGIR_BODY)),
        ("TritonGPURemoveLayoutConversions", ("tritongpu-remove-layout-conversions", TTGIR_BODY_8)),
        ("ConvertTritonGPUToLLVM", ("convert-triton-gpu-to-llvm", LLVM_BODY)),
    ]))
    chosen = run([str(log)])
    assert chosen.code == 0, chosen
    assert '"triton_gpu.num-warps" = 8' in chosen.out  # the last TTGIR section, not the LLVM one
    assert chosen.out == run([str(log), "--dump-section=2"]).out
    # irkit-report reads the same section
    read = report.read_one(str(log), SimpleNamespace(list_sections=False, dump_section=None, dump_after=False))
    assert '"triton_gpu.num-warps" = 8' in read.text and "llvm.func" not in read.text


def test_dump_log_without_ttgir_names_dump_section(tmp_path):
    log = tmp_path / "log.txt"
    log.write_text(_dump_log_text([("Inliner", ("inline", TTIR_BODY)), ("Canonicalizer", ("canonicalize", TTIR_BODY))]))
    assert_tool_error(run([str(log)]), "--dump-section", "no section of the log holds TritonGPU IR")
    assert run([str(log), "--dump-section=-1"]).code == 0


# -- files with several top-level modules --------------------------------------------------------------

KERNELS = ROOT / "tests" / "data" / "kernels" / "3.1.0"


def _renamed_aliases(text: str, prefix: str) -> str:
    """The same module with every alias renamed, so two files can share one text."""
    return re.sub(r"#([A-Za-z_]\w*)(?![\w.])", lambda m: f"#{prefix}{m.group(1)}", text)


def _two_real_modules(tmp_path) -> tuple[Path, Path, Path]:
    first = KERNELS / "cuda_80" / "batched_dot_fp16.ttgir"
    second = KERNELS / "hip_gfx942" / "histogram_i32.ttgir"
    both = tmp_path / "both.ttgir"
    both.write_text(first.read_text() + "\n" + _renamed_aliases(second.read_text(), "m2_"))
    return first, second, both


def test_report_gives_each_module_its_own_report(tmp_path):
    import json

    from irkit.cli import report

    first, second, both = _two_real_modules(tmp_path)

    def report_json(*argv) -> dict:
        out = tmp_path / "r.json"
        assert report.run([*map(str, argv), "--json", "-o", str(out)]) == 0
        return json.loads(out.read_text())

    together = report_json(both)
    alone = [report_json(first), report_json(second)]
    assert together["mode"] == "modules" and len(together["modules"]) == 2
    for mod, single in zip(together["modules"], alone):
        assert single["shared_bytes"] > 0 or single is alone[1]
        for key in ("shared_bytes", "convert_count", "num_warps", "target", "functions", "ops"):
            assert mod[key] == single[key], key
    assert together["modules"][0]["target"] != together["modules"][1]["target"]  # cuda:80, then hip:gfx942


def test_opt_processes_each_module_and_reads_its_own_output(tmp_path):
    _, _, both = _two_real_modules(tmp_path)
    once = run([str(both), "-tritongpu-coalesce"])
    assert once.code == 0, once
    again = run(["-", "--coalesce=skip-unchanged=true"], stdin=once.out)
    assert again.code == 0, again
    assert again.out == once.out  # the printed wrapper module is split again, each module kept as it is


# -- quoted enum cases, as Triton's tests write them -------------------------------------------------------


def test_quoted_predicates_parse_and_print_bare(tmp_path):
    src = tmp_path / "q.mlir"
    src.write_text(
        "tt.func @f(%a: i32, %b: i32, %x: f32, %y: f32) {\n"
        '  %0 = arith.cmpi "slt", %a, %b : i32\n'
        '  %1 = arith.cmpf "oge", %x, %y : f32\n'
        "  %2 = arith.cmpi uge, %a, %b : i32\n"
        "  tt.return\n"
        "}\n"
    )
    result = run([str(src)])
    assert result.code == 0, result
    assert "arith.cmpi slt, %a, %b : i32" in result.out
    assert "arith.cmpf oge, %x, %y : f32" in result.out
    assert "arith.cmpi uge" in result.out
    src.write_text('tt.func @f(%a: i32) {\n  %0 = arith.cmpi "less", %a, %a : i32\n  tt.return\n}\n')
    bad = run([str(src)])
    assert bad.code == 1 and bad.err.startswith(f"{src}:2:") and "'less'" in bad.err


# -- tools/run_upstream_lit.py on a checkout we write ourselves ---------------------------------------------


def _load_runner():
    import importlib.util

    spec = importlib.util.spec_from_file_location("run_upstream_lit", ROOT / "tools" / "run_upstream_lit.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_run_upstream_lit_rewrites_only_the_tool_name():
    runner = _load_runner()
    text = ("// RUN: triton-opt %s -split-input-file -tritongpu-coalesce | FileCheck %s\n"
            "// CHECK: triton-opt stays in a CHECK line\n"
            "tt.func @f() attributes {note = \"triton-opt\"} {\n")
    out = runner.rewrite_run_lines(text)
    assert out.splitlines()[0] == "// RUN: irkit-opt %s -split-input-file -tritongpu-coalesce | FileCheck %s"
    assert out.splitlines()[1:] == text.splitlines()[1:]


def test_run_upstream_lit_reports_files_and_failing_check_lines(tmp_path, coalesce_me, capsys):
    import json

    runner = _load_runner()
    checkout = tmp_path / "triton"
    (checkout / "test" / "TritonGPU").mkdir(parents=True)
    good = checkout / "test" / "TritonGPU" / "good.mlir"
    good.write_text("// RUN: triton-opt %s -tritongpu-coalesce | FileCheck %s\n"
                    "// CHECK: sizePerThread = [4]\n" + COALESCE_ME)
    bad = checkout / "test" / "TritonGPU" / "bad.mlir"
    bad.write_text("// RUN: triton-opt %s -tritongpu-coalesce | FileCheck %s\n"
                   "// CHECK-LABEL: tt.func @f\n"
                   "// CHECK: sizePerThread = [8]\n" + COALESCE_ME)
    summary = tmp_path / "s.json"
    code = runner.main([str(checkout), "test/TritonGPU/good.mlir", "test/TritonGPU/bad.mlir", "--json", str(summary)])
    assert code == 1
    files = json.loads(summary.read_text())["files"]
    assert [f["passed"] for f in files] == [True, False]
    assert [f["line"] for f in files[1]["failing_check_lines"]] == [3]
    assert "1 of 2 upstream files pass" in capsys.readouterr().out
    assert good.read_text().startswith("// RUN: triton-opt")  # the checkout is left as it was


def test_run_upstream_lit_names_values_as_triton_opt(tmp_path, capsys):
    """Upstream's CHECKs were written against triton-opt's printer (`%arg0`); the runner stands in for it,
    and `--input-names` gives irkit's own default (names as written), which such a CHECK rejects."""
    runner = _load_runner()
    checkout = tmp_path / "triton"
    (checkout / "test" / "Triton").mkdir(parents=True)
    (checkout / "test" / "Triton" / "names.mlir").write_text(
        "// RUN: triton-opt %s -canonicalize | FileCheck %s\n"
        "// CHECK: tt.return %arg0 : i32\n"
        "tt.func @f(%width: i32) -> i32 {\n  tt.return %width : i32\n}\n")
    assert runner.main([str(checkout), "test/Triton/names.mlir"]) == 0
    assert runner.main([str(checkout), "test/Triton/names.mlir", "--input-names"]) == 1
    capsys.readouterr()


def test_the_environment_asks_for_triton_opt_names(tmp_path, monkeypatch):
    src = tmp_path / "k.mlir"
    src.write_text("tt.func @f(%width: i32) -> i32 {\n  tt.return %width : i32\n}\n")
    monkeypatch.setenv("IRKIT_MLIR_PRINT_TRITON_NAMES", "1")
    named = run([str(src)])
    monkeypatch.setenv("IRKIT_MLIR_PRINT_TRITON_NAMES", "0")
    kept = run([str(src)])
    assert named.code == kept.code == 0
    assert "tt.return %arg0 : i32" in named.out and "tt.return %width : i32" in kept.out


def test_report_screen_takes_each_module_as_a_config(tmp_path):
    import json

    from irkit.cli import report

    _, _, both = _two_real_modules(tmp_path)
    out = tmp_path / "screen.json"
    assert report.run(["--screen", str(both), "--coalesce", "--json", "-o", str(out)]) == 0
    configs = json.loads(out.read_text())["configs"]
    assert [c["name"] for c in configs] == [f"{both} (module 1 of 2)", f"{both} (module 2 of 2)"]
    assert all(not c["error"] for c in configs), configs
    assert [c["target"] for c in configs] == ["cuda:80", "hip:gfx942"]
    assert all(c["after_converts"] is not None for c in configs)


def test_a_version_option_is_a_word_not_a_number():
    """`version=3.10` reaches the pass as the text "3.10" (xDSL's option parser would read the number 3.1)."""
    from types import SimpleNamespace

    from irkit.cli.opt import build_pipeline

    for text, version in (("coalesce{version=3.10}", "3.10"), ("tritongpu-coalesce{version=3.9}", "3.9")):
        (scheduled,) = build_pipeline(SimpleNamespace(pipeline=text, pass_flags=[])).passes
        assert scheduled.instance.version == version
