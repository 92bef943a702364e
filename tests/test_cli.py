"""`irkit-opt`: every option, the error contract and the input kinds.

Error contract: an error tied to the input is `file:line:col: error: ...`
(MLIR's form), any other `irkit-opt: error: ...`; either way exit status 1
and never a Python traceback.  Most cases run `irkit.cli.opt.main` in-process
(fast); a few run the installed entry point as a subprocess.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from frontend_corpus import CORPUS, IR, normalize

from irkit.cli import opt
from irkit.frontend import dumplog
from irkit.frontend.parser import Parser
from irkit.frontend.printer import print_module

POSITIONED = re.compile(r"^(?P<file>[^\n]+?):(?P<line>\d+):(?P<col>\d+): error: ")


class Result:
    def __init__(self, code: int, out: str, err: str):
        self.code, self.out, self.err = code, out, err

    def __repr__(self) -> str:
        return f"Result(code={self.code}, err={self.err[:500]!r})"


def run(argv: list[str], stdin: str | None = None, monkeypatch=None) -> Result:
    """`irkit-opt ARGV` in-process; checks the no-traceback contract on every call."""
    out, err = io.StringIO(), io.StringIO()
    saved = sys.stdin, sys.stdout, sys.stderr
    sys.stdin = io.StringIO(stdin or "")
    sys.stdout, sys.stderr = out, err
    code = None
    try:
        opt.main(argv)
    except SystemExit as e:
        code = e.code
    finally:
        sys.stdin, sys.stdout, sys.stderr = saved
    result = Result(code, out.getvalue(), err.getvalue())
    assert "Traceback" not in result.err and "internal error" not in result.err, result
    assert code in (0, 1), result
    return result


def run_process(argv: list[str], stdin: str | None = None) -> Result:
    exe = shutil.which("irkit-opt", path=os.path.dirname(sys.executable))
    cmd = [exe] if exe else [sys.executable, "-m", "irkit.cli.opt"]
    proc = subprocess.run([*cmd, *argv], input=stdin, capture_output=True, text=True)
    result = Result(proc.returncode, proc.stdout, proc.stderr)
    assert "Traceback" not in result.err, result
    return result


def assert_positioned_error(result: Result, file: str, line: int | None = None) -> re.Match:
    assert result.code == 1, result
    m = POSITIONED.match(result.err)
    assert m is not None, result
    assert m.group("file") == file, result
    if line is not None:
        assert int(m.group("line")) == line, result
    return m


def assert_tool_error(result: Result, *fragments: str) -> None:
    assert result.code == 1, result
    assert result.err.startswith("irkit-opt: error: "), result
    for f in fragments:
        assert f in result.err, result
    assert result.out == ""


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


SMALL = """\
module {
  tt.func @f(%x: i32) -> i32 {
    %0 = arith.addi %x, %x : i32
    tt.return %0 : i32
  }
}
"""


@pytest.fixture
def small(tmp_path) -> Path:
    p = tmp_path / "small.mlir"
    p.write_text(SMALL)
    return p


def corpus_file(version: str, pattern: str) -> Path:
    files = sorted((IR / version).glob(f"*/{pattern}"))
    assert files, f"tests/data/corpus has no {version}/*/{pattern}"
    return files[0]


def passes() -> dict:
    from irkit.passes import all_passes

    return all_passes()


def need_pass(name: str):
    if name not in passes():
        pytest.skip(f"pass {name} is not registered")


# -- input and output ---------------------------------------------------------------------------------


def test_input_file_stdin_and_dash(small):
    by_file = run([str(small)])
    by_dash = run(["-"], stdin=SMALL)
    default = run([], stdin=SMALL)
    assert by_file.code == by_dash.code == default.code == 0
    assert by_file.out == by_dash.out == default.out == SMALL


def test_stdin_errors_name_stdin():
    result = run(["-"], stdin=SMALL.replace("arith.addi", "arith.nope"))
    assert_positioned_error(result, "<stdin>", 3)
    assert ":3:10: error: custom op 'arith.nope' is unknown" in result.err


def test_output_file_is_written_whole_and_the_input_is_untouched(tmp_path, corpus):
    src = corpus_file("3.9.0", "matmul_addmm__*.ttgir")
    inp = tmp_path / src.name
    shutil.copy(src, inp)
    before = digest(inp)
    out = tmp_path / "out" / "result.ttgir"
    out.parent.mkdir()
    result = run([str(inp), "--mlir-print-debuginfo", "-o", str(out)])
    assert result.code == 0 and result.out == "" and result.err == ""
    assert digest(inp) == before
    assert normalize(out.read_text()) == normalize(inp.read_text())
    assert sorted(p.name for p in out.parent.iterdir()) == ["result.ttgir"]  # no temporary left


def test_output_is_replaced_atomically(tmp_path, small, monkeypatch):
    """The output is written to a temporary in the same folder and renamed over
    the target: a reader sees the old file or the complete new one."""
    out = tmp_path / "out.mlir"
    out.write_text("OLD\n")
    seen = []
    real_replace = os.replace

    def spy(src, dst):
        seen.append((Path(src).read_text(), Path(dst).read_text(), Path(src).parent == Path(dst).parent))
        return real_replace(src, dst)

    monkeypatch.setattr(os, "replace", spy)
    assert run([str(small), "-o", str(out)]).code == 0
    assert seen == [(SMALL, "OLD\n", True)]
    assert out.read_text() == SMALL


def test_failed_run_leaves_the_output_alone(tmp_path, small):
    out = tmp_path / "out.mlir"
    out.write_text("OLD\n")
    bad = tmp_path / "bad.mlir"
    bad.write_text(SMALL.replace("i32 {", "i32 {{"))
    before = digest(bad)
    result = run([str(bad), "-o", str(out)])
    assert_positioned_error(result, str(bad), 2)
    assert out.read_text() == "OLD\n" and digest(bad) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.mlir", "out.mlir", "small.mlir"]


def test_output_into_a_missing_folder(small, tmp_path):
    assert_tool_error(run([str(small), "-o", str(tmp_path / "nowhere" / "x.mlir")]), "does not exist")


def test_missing_input_file(tmp_path):
    assert_tool_error(run([str(tmp_path / "absent.ttgir")]), "could not open input file", "absent.ttgir")


def test_binary_input_is_reported_at_its_position(tmp_path):
    p = tmp_path / "k.cubin"
    p.write_bytes(b"module {\n  \x00\x7fELF\n}\n")
    result = run([str(p)])
    assert_positioned_error(result, str(p), 2)
    assert "binary file" in result.err


# -- printing options -----------------------------------------------------------------------------------


@pytest.mark.parametrize("version", ["3.1.0", "3.9.0"])
def test_generic_output_parses_back_to_the_same_ir(version, tmp_path, corpus):
    src = corpus_file(version, "matmul_addmm__*.ttgir")
    custom = run([str(src)])
    generic = run([str(src), "--mlir-print-op-generic"])
    assert custom.code == generic.code == 0
    assert generic.out.startswith(("#", '"builtin.module"')) and "tt.func public @" not in generic.out
    assert '"tt.func"()' in generic.out
    assert run(["-"], stdin=generic.out).out == custom.out
    with_locs = run([str(src), "--mlir-print-op-generic", "--mlir-print-debuginfo"])
    back = run(["-", "--mlir-print-debuginfo"], stdin=with_locs.out)
    assert normalize(back.out) == normalize(src.read_text())


def test_debuginfo_option(corpus):
    src = corpus_file("3.3.1", "matmul_addmm__*.ttgir")
    plain, located = run([str(src)]), run([str(src), "--mlir-print-debuginfo"])
    assert "loc(" not in plain.out
    assert normalize(located.out) == normalize(src.read_text())


# -- passes -------------------------------------------------------------------------------------------------


def test_list_passes():
    result = run(["--list-passes"])
    assert result.code == 0
    listed = re.findall(r"^  --([\w-]+)\s+(\S.*)$", result.out, re.MULTILINE)
    assert [n for n, _ in listed] == list(passes())
    assert all(summary for _, summary in listed)


def test_every_pass_has_a_flag_and_help():
    result = run(["--help"])
    assert result.code == 0
    for name in passes():
        assert f"--{name}" in result.out


def _rtp_input() -> Path:
    return corpus_file("3.1.0", "matmul_addmm_bp__*.source.ttir")


def test_pipeline_and_pass_flags_are_the_same(corpus):
    need_pass("rewrite-tensor-pointer")
    src = str(_rtp_input())
    by_pipeline = run([src, "-p", "rewrite-tensor-pointer{mode=upstream}"])
    by_long = run([src, "--pass-pipeline", "rewrite-tensor-pointer{mode=upstream}"])
    by_flag = run([src, "--rewrite-tensor-pointer=mode=upstream"])
    by_braces = run([src, "-rewrite-tensor-pointer={mode=upstream}"])
    by_anchor = run([src, "--pass-pipeline=builtin.module(rewrite-tensor-pointer{mode=upstream})"])
    by_upstream_name = run(["-triton-rewrite-tensor-pointer", src])
    default = run([src, "--rewrite-tensor-pointer"])
    assert by_pipeline.code == 0, by_pipeline
    outs = {r.out for r in (by_pipeline, by_long, by_flag, by_braces, by_anchor, by_upstream_name, default)}
    assert len(outs) == 1
    assert "tt.make_tensor_ptr" in run([src]).out and "tt.make_tensor_ptr" not in by_pipeline.out


def test_two_passes_in_a_pipeline_run_in_order(corpus):
    need_pass("rewrite-tensor-pointer")
    need_pass("coalesce")
    src = str(corpus_file("3.1.0", "vector_add__*.ttgir"))
    chained = run([src, "-p", "rewrite-tensor-pointer{mode=upstream},coalesce{skip-unchanged=false}"])
    flags = run([src, "--rewrite-tensor-pointer=mode=upstream", "--coalesce=skip-unchanged=false"])
    assert chained.code == 0, chained
    first = run([src, "--rewrite-tensor-pointer"])
    second = run(["-", "--coalesce"], stdin=first.out)
    assert chained.out == second.out
    assert flags.code == 0 and flags.out == chained.out


def test_print_ir_after_all(corpus):
    names = [n for n in ("rewrite-tensor-pointer", "coalesce") if n in passes()]
    if not names:
        pytest.skip("no pass to run")
    src = str(corpus_file("3.1.0", "vector_add__*.ttgir"))
    result = run([src, *(f"--{n}" for n in names), "--mlir-print-ir-after-all"])
    assert result.code == 0, result
    headers = re.findall(r"^// -----// IR Dump After \w+ \(([\w-]+)\) //----- //$", result.err, re.MULTILINE)
    assert headers == names
    last_dump = result.err.rsplit("//----- //\n", 1)[1]
    assert last_dump == result.out


@pytest.mark.parametrize(
    "argv, fragment",
    [
        (["-p", "no-such-pass"], "unknown pass 'no-such-pass'"),
        (["-p", "rewrite-tensor-pointer{"], "invalid pass pipeline"),
        (["-p", "rewrite-tensor-pointer{mode=bogus}"], "mode"),
        (["-p", "rewrite-tensor-pointer{nonexistent=1}"], "nonexistent"),
        (["--rewrite-tensor-pointer=mode=bogus"], "mode"),
        (["-p", ",,"], "invalid pass pipeline"),
        (["--no-such-flag"], "unrecognized arguments: --no-such-flag"),
        (["-o"], "expected one argument"),
        (["--dump-section"], "expected one argument"),
        (["a.mlir", "b.mlir"], "unrecognized arguments: b.mlir"),
    ],
)
def test_wrong_options(argv, fragment, small):
    if any("rewrite-tensor-pointer" in a for a in argv):
        need_pass("rewrite-tensor-pointer")
    full = argv if argv[0] == "a.mlir" else [str(small), *argv]
    assert_tool_error(run(full), fragment)


def test_wrong_options_exit_1_as_a_process(small):
    result = run_process([str(small), "--no-such-flag"])
    assert result.code == 1 and result.err.startswith("irkit-opt: error: ")


# -- --split-input-file ----------------------------------------------------------------------------------

SPLIT = """\
tt.func @a() {
  tt.return
}
// -----
tt.func @b() {
  tt.bogus
}
// -----
tt.func @c(%x: i32) {
  %0 = arith.addi %x, %x : i32
  tt.return
}
"""


def test_split_input_file(tmp_path):
    p = tmp_path / "split.mlir"
    p.write_text(SPLIT)
    result = run([str(p), "--split-input-file"])
    assert_positioned_error(result, str(p), 6)  # the line in the whole file, not in the chunk
    assert result.err.count("error:") == 1
    chunks = result.out.split("// -----\n")
    assert len(chunks) == 2 and "@a()" in chunks[0] and "@c(%x: i32)" in chunks[1]
    whole = run([str(p)])
    assert_positioned_error(whole, str(p))  # unsplit, the '// -----' lines are just comments


# -- --verify-diagnostics ---------------------------------------------------------------------------------

EXPECTED = """\
tt.func @a() {
  // expected-error@+1 {{custom op 'tt.bogus' is unknown}}
  tt.bogus
}
// -----
tt.func @b(%x: i32) {
  // expected-error@below {{requires the same type for all operands and results}}
  %0 = "arith.addi"(%x, %x) : (i32, i32) -> i64
  tt.return
}
// -----
tt.func @c(%x: i32) {
  %0 = "arith.addi"(%x, %x) : (i32, i32) -> i64 // expected-error {{'arith.addi' op requires the same type}}
  tt.return
}
// -----
tt.func @d() {
  tt.return
}
"""


def test_verify_diagnostics_passes_when_every_expectation_is_met(tmp_path):
    p = tmp_path / "expected.mlir"
    p.write_text(EXPECTED)
    result = run([str(p), "--split-input-file", "--verify-diagnostics"])
    assert result.code == 0, result
    assert result.err == ""


@pytest.mark.parametrize(
    "change, messages",
    [
        (("{{custom op 'tt.bogus' is unknown}}", "{{something else}}"),
         ["expected error \"something else\" was not produced", "unexpected error: custom op 'tt.bogus' is unknown"]),
        (("expected-error@+1 {{custom", "expected-error@+2 {{custom"),
         ["was not produced", "unexpected error"]),
        (("tt.func @d() {\n  tt.return", "tt.func @d() {\n  // expected-error@+1 {{never}}\n  tt.return"),
         ["expected error \"never\" was not produced"]),
    ],
    ids=["wrong-text", "wrong-line", "not-produced"],
)
def test_verify_diagnostics_fails_on_a_mismatch(tmp_path, change, messages):
    p = tmp_path / "expected.mlir"
    p.write_text(EXPECTED.replace(*change))
    result = run([str(p), "--split-input-file", "--verify-diagnostics"])
    assert result.code == 1
    for m in messages:
        assert m in result.err, result
    for line in result.err.splitlines():
        assert POSITIONED.match(line), line


def test_errors_without_verify_diagnostics_are_reported(tmp_path):
    p = tmp_path / "expected.mlir"
    p.write_text(EXPECTED)
    result = run([str(p), "--split-input-file"])
    assert_positioned_error(result, str(p), 3)
    found = [int(x) for x in re.findall(rf"^{re.escape(str(p))}:(\d+):\d+: error:", result.err, re.MULTILINE)]
    assert found == [3, 8, 13], result


# -- --allow-unregistered-dialect ----------------------------------------------------------------------------

UNREGISTERED = """\
module {
  tt.func @f(%x: i32) {
    %0 = "mydialect.op"(%x) {attr = 1 : i32} : (i32) -> i32
    "mydialect.region"(%0) ({
    ^bb0(%y: i32):
      "mydialect.yield"(%y) : (i32) -> ()
    }) : (i32) -> ()
    tt.return
  }
}
"""


def test_allow_unregistered_dialect(tmp_path):
    p = tmp_path / "unreg.mlir"
    p.write_text(UNREGISTERED)
    result = run([str(p), "--allow-unregistered-dialect"])
    assert result.code == 0 and result.out == UNREGISTERED
    generic = run([str(p), "--allow-unregistered-dialect", "--mlir-print-op-generic"])
    assert run(["-", "--allow-unregistered-dialect"], stdin=generic.out).out == UNREGISTERED


def test_unregistered_op_without_the_flag_is_an_error(tmp_path):
    p = tmp_path / "unreg.mlir"
    p.write_text(UNREGISTERED)
    result = run([str(p)])
    m = assert_positioned_error(result, str(p), 3)
    assert m.group("col") == "10" and "unregistered operation 'mydialect.op'" in result.err


def test_unknown_op_in_custom_form_is_an_error_even_with_the_flag(tmp_path):
    p = tmp_path / "unreg.mlir"
    p.write_text(UNREGISTERED.replace('"mydialect.op"(%x) {attr = 1 : i32} : (i32) -> i32', "mydialect.op %x : i32"))
    result = run([str(p), "--allow-unregistered-dialect"])
    assert_positioned_error(result, str(p), 3)
    assert "custom op 'mydialect.op' is unknown" in result.err


# -- MLIR_ENABLE_DUMP logs -------------------------------------------------------------------------------------


def _dump_log() -> tuple[Path, list[dict]]:
    d = CORPUS / "dumps" / "3.1.0" / "cuda_80"
    (log,) = d.glob("softmax*/mlir_dump.ttgir.txt")
    logs = [log]
    return logs[0], json.loads((logs[0].parent / "sections.json").read_text())["sections"]


def _section_module(log: Path, index: int) -> str:
    section = dumplog.split_sections(dumplog.read_text(log))[index]
    return print_module(Parser(section.text, str(log)).parse())


def test_dump_section_by_index_and_by_pass(corpus):
    log, sections = _dump_log()
    coalesce = next(s["index"] for s in sections if s["pass"] == "TritonGPUCoalesce")
    by_index = run([str(log), f"--dump-section={coalesce}"])
    by_class = run([str(log), "--dump-section=TritonGPUCoalesce"])
    by_arg = run([str(log), "--dump-section=tritongpu-coalesce"])
    assert by_index.code == 0, by_index
    assert by_index.out == by_class.out == by_arg.out == _section_module(log, coalesce)


def test_dump_after(corpus):
    log, sections = _dump_log()
    coalesce = next(s["index"] for s in sections if s["pass"] == "TritonGPUCoalesce")
    after = run([str(log), "--dump-section=TritonGPUCoalesce", "--dump-after"])
    assert after.code == 0 and after.out == _section_module(log, coalesce + 1)
    assert after.out != run([str(log), "--dump-section=TritonGPUCoalesce"]).out


def test_dump_section_kth_occurrence(corpus):
    log, sections = _dump_log()
    canon = [s["index"] for s in sections if s["pass"] == "Canonicalizer"]
    assert len(canon) >= 3
    for k in (0, 2):
        result = run([str(log), f"--dump-section=Canonicalizer#{k}"])
        assert result.code == 0 and result.out == _section_module(log, canon[k])
    assert_tool_error(run([str(log), f"--dump-section=Canonicalizer#{len(canon)}"]), "out of range")


def test_dump_log_default_is_the_last_tritongpu_section_and_gz_works(corpus):
    log, _ = _dump_log()
    sections = dumplog.split_sections(dumplog.read_text(log))
    last_ttgir = max(s.index for s in sections if "llvm.func" not in s.text and "triton_gpu." in s.text)
    chosen = run([str(log)])
    assert chosen.code == 0 and chosen.out == _section_module(log, last_ttgir)
    assert chosen.out == run([str(log), f"--dump-section={last_ttgir}"]).out
    full = log.parent / "mlir_dump.full.txt.gz"
    if full.is_file():
        gz = run([str(full), "--dump-section=TritonGPUCoalesce"])
        assert gz.out == run([str(log), "--dump-section=TritonGPUCoalesce"]).out


def test_list_sections(corpus):
    """The whole log (gzipped, to LLVM IR) against the corpus' own parsed headers."""
    log, sections = _dump_log()
    full = log.parent / "mlir_dump.full.txt.gz"
    result = run([str(full), "--list-sections"])
    assert result.code == 0
    listed = re.findall(r"^\s*(\d+)\s+(\S+) \(", result.out, re.MULTILINE)
    assert [(int(i), c) for i, c in listed] == [(s["index"], s["pass"]) for s in sections]


@pytest.mark.parametrize(
    "argv, fragment",
    [
        (["--dump-section=NoSuchPass"], "no pass named 'NoSuchPass'"),
        (["--dump-section=99999"], "out of range"),
        (["--dump-after"], "--dump-after needs --dump-section"),
    ],
)
def test_dump_selection_errors(argv, fragment, corpus):
    log, _ = _dump_log()
    assert_tool_error(run([str(log), *argv]), fragment)


def test_dump_section_on_a_plain_file_is_an_error(small):
    assert_tool_error(run([str(small), "--dump-section=0"]), "needs an MLIR_ENABLE_DUMP log")


def test_error_in_a_dump_section_points_into_the_log(tmp_path, corpus):
    log, sections = _dump_log()
    coalesce = next(s for s in sections if s["pass"] == "TritonGPUCoalesce")
    lines = log.read_text().split("\n")
    target = next(i for i in range(coalesce["first_line"], coalesce["last_line"]) if "tt.splat" in lines[i])
    lines[target] = lines[target].replace("tt.splat", "tt.splatt", 1)
    broken = tmp_path / "mlir_dump.txt"
    broken.write_text("\n".join(lines))
    result = run([str(broken), "--dump-section=TritonGPUCoalesce"])
    assert_positioned_error(result, str(broken), target + 1)
    assert "custom op 'tt.splatt' is unknown" in result.err


# -- Triton cache / kernel dump folders ----------------------------------------------------------------------


def _cache_dirs() -> list[Path]:
    return sorted((CORPUS / "dumps" / "kernel_dump_and_cache").glob("*/*/*/TRITON_CACHE_DIR"))


@pytest.mark.parametrize("level", ["entry", "cache_dir", "dump_dir"])
def test_triton_cache_directory_input(level, corpus):
    cache = _cache_dirs()[0]
    entry = next(p for p in cache.iterdir() if list(p.glob("*.ttgir")))
    ttgir = next(entry.glob("*.ttgir"))
    target = {"entry": entry, "cache_dir": cache, "dump_dir": cache.parent / "TRITON_DUMP_DIR"}[level]
    result = run([str(target)])
    assert result.code == 0, result
    expected_file = ttgir if level != "dump_dir" else next(target.glob("*/*.ttgir"))
    assert result.out == run([str(expected_file)]).out
    assert result.out.startswith("#") and "tt.func public @" in result.out


def test_folder_without_ttgir(tmp_path):
    (tmp_path / "abc").mkdir()
    assert_tool_error(run([str(tmp_path)]), "no .ttgir file")


def test_folder_with_several_ttgir(tmp_path):
    for h in ("a", "b"):
        (tmp_path / h).mkdir()
        (tmp_path / h / "k.ttgir").write_text(SMALL)
    assert_tool_error(run([str(tmp_path)]))


# -- error positions ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "old, new, line, at, message",
    [
        ("arith.addi %x, %x : i32", "arith.addi %x, %y : i32", 3, "%y", "use of undeclared SSA value name '%y'"),
        ("tt.return %0 : i32", "tt.return %0 : i64", 4, "%0", "expects different type"),
        ("arith.addi %x, %x :", "arith.addi %x, %x, %x :", 3, ", %x :", "expected ':'"),
        ("-> i32 {", "-> i32 {{", 2, "{\n", "expected operation name, found '{'"),
        ("tt.return %0 : i32", "tt.return", 2, "tt.func", "'tt.func' op tt.return returns 0 value(s)"),
    ],
    ids=["undeclared", "type-mismatch", "extra-operand", "extra-brace", "verifier"],
)
def test_error_positions(tmp_path, old, new, line, at, message):
    p = tmp_path / "e.mlir"
    p.write_text(SMALL.replace(old, new, 1))
    result = run([str(p)])
    m = assert_positioned_error(result, str(p), line)
    col = (p.read_text().splitlines()[line - 1] + "\n").index(at) + 1
    assert int(m.group("col")) == col, result
    assert message in result.err
    # the source line and a caret under the column follow
    src_line, caret = result.err.splitlines()[1:3]
    assert src_line == p.read_text().splitlines()[line - 1]
    assert caret == " " * (col - 1) + "^"


def test_errors_as_a_process(tmp_path):
    p = tmp_path / "e.mlir"
    p.write_text(SMALL.replace("arith.addi", "arith.nope"))
    result = run_process([str(p)])
    assert result.code == 1 and result.err.startswith(f"{p}:3:10: error: custom op 'arith.nope' is unknown")
    assert run_process([str(tmp_path / "missing.mlir")]).err.startswith("irkit-opt: error: could not open")
