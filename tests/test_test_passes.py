"""The test-print passes (Triton's -test-print-allocation / -test-print-alignment reports) through irkit-opt.

Their report formats are pinned by lit_tests/passes/test-print-{allocation,alignment}.mlir; here: the
version option, bad options, and that the report agrees with the analyses it prints."""

from __future__ import annotations

from pathlib import Path

from irkit.analysis.shared_memory import analyze_shared_memory
from irkit.cli.opt import run
from irkit.frontend.parser import Parser

LIT = Path(__file__).resolve().parents[1] / "lit_tests" / "passes"

KERNEL = """
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @k(%x: tensor<64x64xf16, #blocked>) -> tensor<64x64xf16, #blocked1> {
    %0 = ttg.convert_layout %x : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #blocked1>
    tt.return %0 : tensor<64x64xf16, #blocked1>
  }
}
"""


def report(tmp_path, capsys, text, *flags):
    src = tmp_path / "in.mlir"
    src.write_text(text)
    code = run([str(src), *flags, "-o", str(tmp_path / "out.mlir")])
    return code, capsys.readouterr().err


def test_allocation_version_option_changes_the_rules(tmp_path, capsys):
    """The same convert, as the real passes size it: 3.3.1 pads a 32 x 32 rep (32 x (32 + 1) f16 = 2112 B),
    3.9.0 stores the whole swizzled 64 x 64 f16 tile (8192 B)."""
    code, err33 = report(tmp_path, capsys, KERNEL, "--test-print-allocation=version=3.3")
    assert code == 0
    assert err33.splitlines() == ["k", "scratch offset = 0, size = 2112", "size = 2112"]
    code, err39 = report(tmp_path, capsys, KERNEL, "--test-print-allocation")
    assert code == 0 and err39.splitlines()[1] == "scratch offset = 0, size = 8192"
    parsed = Parser(KERNEL, "in.mlir").parse()
    assert analyze_shared_memory(parsed, version="3.9").total_bytes == 8192


def test_allocation_bad_version_is_an_error(tmp_path, capsys):
    code, err = report(tmp_path, capsys, KERNEL, "--test-print-allocation=version=abc")
    assert code == 1 and "error" in err and "Traceback" not in err


def test_allocation_leaves_the_ir_unchanged(tmp_path, capsys):
    assert report(tmp_path, capsys, KERNEL, "--test-print-allocation")[0] == 0
    plain = tmp_path / "plain.mlir"
    assert run([str(tmp_path / "in.mlir"), "-o", str(plain)]) == 0
    assert (tmp_path / "out.mlir").read_text() == plain.read_text()


def test_alignment_report_has_one_line_per_result(tmp_path, capsys):
    text = (LIT / "test-print-alignment.mlir").read_text().split("// -----")[0]
    code, err = report(tmp_path, capsys, text, "--test-print-alignment")
    assert code == 0
    lines = err.splitlines()
    assert lines[0] == "@row_pointers"
    assert len(lines) == 1 + 10  # ten ops with one result each
    assert all(" => contiguity = [" in line for line in lines[1:])


RESHAPE = """
tt.func @reshape() {
  %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  %s = tt.reshape %r : tensor<128xi32> -> tensor<1x128xi32>
  tt.return
}
"""


def test_alignment_version_39_knows_reshape(tmp_path, capsys):
    """Triton 3.9's ReshapeOpAxisInfoVisitor keeps the run along the dim whose stride is the source's;
    3.1 has no rule for tt.reshape (pessimistic)."""
    code, err = report(tmp_path, capsys, RESHAPE, "--test-print-alignment=version=3.9")
    assert code == 0
    assert err.splitlines()[2].endswith(
        "=> contiguity = [1, 128], divisibility = [1, 1073741824], constancy = [1, 1], constant_value = <none>"
    )
    code, err = report(tmp_path, capsys, RESHAPE, "--test-print-alignment=version=3.1")
    assert err.splitlines()[2].endswith("=> contiguity = [1, 1], divisibility = [1, 1], constancy = [1, 1], constant_value = <none>")
    # unset, a module that is not in 3.1's spelling gets the newest rules
    code, err = report(tmp_path, capsys, RESHAPE, "--test-print-alignment")
    assert err.splitlines()[2].endswith("=> contiguity = [1, 128], divisibility = [1, 1073741824], constancy = [1, 1], "
                                        "constant_value = <none>")
