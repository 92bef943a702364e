"""Reliability round 3 (issue 23): each defect the hostile-input campaign found, as a test.

Wrong successes (real Triton rejects, irkit accepted), one verifier for every command, types in
messages as MLIR writes them, bounded work at any depth, irkit-sweep's output rule and faults, HTML
escaping, manifest paths, --per-pass on a garbage section.  The campaign itself is
`tools/fuzz_mutations.py --oracle` (docs/reliability.md)."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest
from test_mutations import run_in_process

from irkit.cli import report

ROOT = Path(__file__).resolve().parents[1]
KERNELS = ROOT / "tests" / "data" / "kernels"
INT_ARITH = KERNELS / "3.1.0" / "cuda_80" / "int_arith.ttgir"
BATCHED = KERNELS / "3.1.0" / "cuda_80" / "batched_dot_fp16.ttgir"


def _main(main, argv: list[str]) -> tuple[int, str, str]:
    """A command's `main` in-process: exit status, stdout, stderr."""
    out, err = io.StringIO(), io.StringIO()
    saved = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = out, err
    try:
        main(argv)
    except SystemExit as e:
        code = e.code
    finally:
        sys.stdout, sys.stderr = saved
    return code, out.getvalue(), err.getvalue()


def _report(argv: list[str]) -> tuple[int, str, str]:
    return _main(report.main, argv)


def _mutant(tmp_path: Path, base: Path, old: str, new: str, count: int = 1) -> Path:
    text = base.read_text()
    assert old in text, old
    path = tmp_path / base.name
    path.write_text(text.replace(old, new, count))
    return path


def _rejected(path: Path, *expected: str) -> str:
    code, out, err = run_in_process([str(path)])
    assert code == 1 and out == "", err
    assert err.startswith(f"{path}:"), err
    for e in expected:
        assert e in err, err
    assert "Traceback" not in err and "#builtin.int" not in err
    return err


# -- wrong successes: what the real Triton rejects -----------------------------------------------------------


def test_a_use_typed_differently_from_its_definition(tmp_path):
    # the tt.splat result retyped; tt.addptr still uses it as tensor<512x!tt.ptr<i32>> (its format infers ptr's type)
    path = _mutant(tmp_path, INT_ARITH, "%7 = tt.splat %arg0 : !tt.ptr<i32> -> tensor<512x!tt.ptr<i32>, #blocked>",
                   "%7 = tt.splat %arg0 : !tt.ptr<i32> -> tensor<512x!tt.ptr<f32>, #blocked>")
    err = _rejected(path)
    # the message writes types as MLIR does
    assert "tensor<512x!tt.ptr<f32>, #ttg.blocked<{sizePerThread = [4]" in err or "!tt.ptr<f32>" in err
    assert " none" not in err


def test_a_functional_type_checks_its_operands(tmp_path):
    base = KERNELS / "3.1.0" / "cuda_80" / "attention_fwd_fp16.ttgir"
    m = re.search(r"local_alloc (%\w+) : \((tensor<[^)]*>)\)", base.read_text())
    assert m
    path = _mutant(tmp_path, base, m.group(0), m.group(0).replace(m.group(2), "tensor<0xf32>"))
    _rejected(path, f"use of value '{m.group(1)}' expects different type than prior uses: 'tensor<0xf32>'")


def test_an_integer_attribute_of_the_wrong_width(tmp_path):
    path = _mutant(tmp_path, BATCHED, "{axis = 0 : i32}", "{axis = 0 : i1}")
    _rejected(path, "'axis' failed to satisfy constraint: 32-bit signless integer attribute")


def test_a_negative_layout_parameter(tmp_path):
    text = (KERNELS / "3.9.0" / "cuda_90").glob("*.ttgir")
    for f in sorted(text):
        if "swizzlingByteWidth = " in f.read_text():
            base = f
            break
    else:
        pytest.skip("no nvmma_shared layout in the kernels")
    path = _mutant(tmp_path, base, "swizzlingByteWidth = ", "swizzlingByteWidth = -")
    _rejected(path, "expected an unsigned integer value in swizzlingByteWidth")


def test_a_location_alias_that_refers_to_a_later_one(tmp_path):
    text = INT_ARITH.read_text()
    defs = re.findall(r"^(#loc\d+) = loc\(", text, re.M)
    first, last = defs[0], defs[-1]
    # an op may name a location defined further down (Triton prints them after the module) ...
    assert text.index(f"{first} = ") > text.index(f"loc({first})")
    # ... an alias definition may not
    path = tmp_path / "fwd.ttgir"
    path.write_text(re.sub(rf"^{first} = loc\([^\n]*\)$", f"{first} = loc(callsite({last} at {last}))", text, count=1,
                           flags=re.M))
    _rejected(path, f"undefined symbol alias id '{last[1:]}'")


@pytest.mark.parametrize("body", ["#x.y", "{a = #nodialect.thing<1>}", "#ttg.nolayout<{}>", "#builtin.nope"])
def test_an_unknown_attribute_in_an_unused_alias(tmp_path, body):
    path = tmp_path / "alias.ttgir"
    path.write_text(f"#unused = {body}\n" + INT_ARITH.read_text())
    _rejected(path)


def test_a_dialect_spelled_both_ways(tmp_path):
    path = tmp_path / "mixed.ttgir"
    path.write_text("#s = #ttg.shared_memory\n" + INT_ARITH.read_text())  # a 3.1 file: triton_gpu.*
    _rejected(path, "spells the dialect both 'triton_gpu' and 'ttg'")


UNDEF_KERNEL = KERNELS / "3.1.0" / "cuda_80" / "block_ptr_matmul_fp16.source.ttir"
UNDEF_LINE = "    %16 = llvm.mlir.undef : i32 loc(#loc8)\n"


@pytest.mark.parametrize("type_, accepted", [
    ("tensor<4xi32>", False), ("index", False), ("ui32", False), ("f8E5M2", False), ("!tt.ptr<f32>", False),
    ("vector<2x2xf32>", False), ("i128", True), ("vector<4xf8E5M2>", True), ("!llvm.ptr<1>", True)])
def test_llvm_undef_of_a_type_llvm_has_not(tmp_path, type_, accepted):
    # LLVM_Type (isCompatibleOuterType), as Triton 3.1-3.9 check it: a signless integer, f16..f128, an llvm
    # dialect type or a 1-D vector; a retyped `llvm.mlir.undef : tensor<4xi32>` passed before
    path = _mutant(tmp_path, UNDEF_KERNEL, UNDEF_LINE, UNDEF_LINE + f"    %undef_x = llvm.mlir.undef : {type_}\n")
    if accepted:
        code, _, err = run_in_process([str(path), "-o", os.devnull])
        assert code == 0, err
    else:
        _rejected(path, "'llvm.mlir.undef' op result #0 must be LLVM dialect-compatible type, but got '")


@pytest.mark.parametrize("attr, bad, most", [("elem_type", -2147483648, 15), ("elem_type", 16, 15),
                                             ("swizzle_mode", 4, 3), ("interleave_layout", 3, 2), ("fill_mode", 2, 1)])
def test_tensormap_create_enums_are_bounded(tmp_path, attr, bad, most):
    base = KERNELS / "3.9.0" / "cuda_90" / "tensor_desc_matmul_fp16.ttgir"
    old = re.search(rf"{attr} = \d+ : i32", base.read_text()).group(0)
    path = _mutant(tmp_path, base, old, f"{attr} = {bad} : i32")
    _rejected(path, f"attribute '{attr}' failed to satisfy constraint: 32-bit signless integer attribute whose value "
                    f"is non-negative whose maximum value is {most}")
    path = _mutant(tmp_path, base, old, f"{attr} = {most} : i32")
    code, _, err = run_in_process([str(path), "-o", os.devnull])
    assert code == 0, err


@pytest.mark.parametrize("base, old, new, expected", [
    # the default CTA layout (1 CTA) of a layout without CTA fields, held against the module's num-ctas
    (INT_ARITH, 'num-ctas" = 1 : i32', 'num-ctas" = 2 : i32', "Layout has a total of 1 CTAs per CGA"),
    # DotOperandEncodingAttr::verify: an Ampere parent needs kWidth; 3.1 allows it on Ampere only
    (BATCHED, "parent = #mma, kWidth = 2", "parent = #mma", "kWidth parameter is mandatory for Ampere MMA parent"),
    (BATCHED, "versionMajor = 2, versionMinor = 0", "versionMajor = 3, versionMinor = 0",
     "kWidth parameter can only be non-zero for Ampere MMA parent"),
    # Triton 3.9 aborts on an Ampere instrShape that has not one entry per dim
    (BATCHED, "instrShape = [1, 16, 8]", "instrShape = [16, 8]", "of an Ampere layout must have one entry per dimension"),
    # a Hopper instrShape whose N is no multiple of 8 (Triton 3.9 aborts: n % (kWidth * 4) == 0)
    (KERNELS / "3.9.0" / "cuda_90" / "tensor_desc_matmul_fp16.ttgir", "instrShape = [16, 128, 16]",
     "instrShape = [16, 1, 16]", "of a Hopper layout needs N a multiple of 8"),
    # `-0` in a dense array, as in a scalar (Triton 3.1 and 3.3: integer constant out of range)
    (UNDEF_KERNEL, "array<i32: 1, 0>", "array<i32: 1, -0>", "integer constant out of range"),
    # and in a layout's parameters, which Triton reads as an MLIR dictionary attribute (3.1, 3.3 and 3.9)
    (INT_ARITH, "order = [0]", "order = [-0]", "integer constant out of range for attribute"),
    # MLIR lexes a float only with its decimal point: `1e400` is the integer 1, then `e400` (3.9: expected '>')
    (KERNELS / "3.9.0" / "cuda_90" / "tensor_desc_matmul_fp16.ttgir", "dense<0.000000e+00>", "dense<1e400>",
     "a float literal needs a decimal point before its exponent"),
])
def test_layout_and_attribute_rules_of_the_oracle_campaign(tmp_path, base, old, new, expected):
    _rejected(_mutant(tmp_path, base, old, new), expected)


def test_a_bool_attribute_given_an_integer(tmp_path):
    base = KERNELS / "3.9.0" / "cuda_90" / "tensor_desc_matmul_fp16.ttgir"
    if "bCluster = false" not in base.read_text():
        pytest.skip("no ttng.fence_async_shared in the kernel")
    _rejected(_mutant(tmp_path, base, "bCluster = false", "bCluster = -5 : i32"),
              "attribute 'bCluster' failed to satisfy constraint: bool attribute")


def test_a_value_of_a_later_block_used_in_the_entry_block(tmp_path):
    # the final campaign's one wrong success: `tt.return %1` in the entry block, %1 defined in ^bb1
    path = tmp_path / "cfg.ttir"
    path.write_text("module {\n  tt.func @f() -> f32 {\n    tt.return %1 : f32\n  ^bb1:\n"
                    "    %1 = ub.poison : f32\n    tt.return %1 : f32\n  }\n}\n")
    _rejected(path, "operand #0 does not dominate this use")


def test_real_kernels_still_verify():
    for path in sorted(KERNELS.glob("*/*/*.ttgir"))[::7]:
        code, _, err = run_in_process([str(path), "-o", os.devnull])
        assert code == 0, err


# -- one verifier for every command --------------------------------------------------------------------------


def test_irkit_report_runs_the_verifier_first(tmp_path):
    path = _mutant(tmp_path, BATCHED, "{axis = 0 : i32}", "{axis = 0 : i1}")
    opt_err = _rejected(path)
    code, out, err = _report([str(path)])
    assert code == 1 and err.strip() == opt_err.strip()


def test_irkit_sweep_runs_the_verifier_without_a_pipeline(tmp_path):
    from irkit.sweep.inputs import KernelTask
    from irkit.sweep.kernel import SweepOptions, sweep_kernel

    path = _mutant(tmp_path, BATCHED, "{axis = 0 : i32}", "{axis = 0 : i1}")
    row = sweep_kernel(KernelTask(str(path)), SweepOptions(None))
    assert row["status"] == "error" and row["error_kind"] == "verify" and "32-bit signless" in row["error"]


def test_axis_info_of_a_load_whose_mask_has_another_rank():
    from irkit.analysis.axis_info import AxisInfo, _visit_load

    info = _visit_load(None, [AxisInfo((4,), (16,), (1,)), AxisInfo.pessimistic(0)])
    assert info.rank == 1


def test_per_pass_on_a_garbage_section_exits_1(tmp_path):
    log = tmp_path / "log.txt"
    header = "// -----// IR Dump Before TritonGPUCoalesce (tritongpu-coalesce) ('builtin.module' operation) //----- //\n"
    log.write_text(header + "this is not IR\nnor is this\n" + header.replace("Coalesce", "Pipeline") + INT_ARITH.read_text())
    code, out, err = _report(["--per-pass", str(log)])
    assert code == 1 and f"{log}:1:1: error: section 0" in err and "holds no MLIR module" in err


# -- bounded work at any depth ---------------------------------------------------------------------------------

DEPTH = 10_000


def _nested(kind: str) -> str:
    if kind == "array":
        return f"module attributes {{x = {'[' * DEPTH}1{']' * DEPTH}}} {{\n}}\n"
    if kind == "dictionary":
        return f"module attributes {{x = {'{a = ' * DEPTH}1{'}' * DEPTH}}} {{\n}}\n"
    if kind == "tensor":
        return f"module attributes {{x = {'tensor<1x' * DEPTH}i32{'>' * DEPTH}}} {{\n}}\n"
    if kind == "pointer":
        return f"module attributes {{x = {'!tt.ptr<' * DEPTH}i32{'>' * DEPTH}}} {{\n}}\n"
    inner = '"f":1:1'
    for _ in range(DEPTH):
        inner = f'callsite({inner} at "g":2:2)'
    return f"#loc1 = loc({inner})\nmodule {{\n}} loc(#loc1)\n"


def _peak_mb(argv: list[str]) -> tuple[int, float, str]:
    """Exit status, peak RSS (MB) and stderr of one command in a child process."""
    code = ("import resource, subprocess, sys; p = subprocess.run(sys.argv[1:], capture_output=True, text=True); "
            "print(p.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024); "
            "sys.stderr.write(p.stderr)")
    done = subprocess.run([sys.executable, "-c", code, *argv], capture_output=True, text=True, timeout=600)
    status, peak = done.stdout.split()
    return int(status), float(peak), done.stderr


@pytest.mark.parametrize("kind", ["array", "dictionary", "tensor", "pointer", "callsite"])
def test_nesting_ten_thousand_deep_in_attributes_types_and_locations(tmp_path, kind):
    path = tmp_path / f"{kind}.mlir"
    path.write_text(_nested(kind))
    for command in ("irkit.cli.opt", "irkit.cli.report"):
        code, peak, err = _peak_mb([sys.executable, "-c", f"from {command} import main; main()", str(path), "-o",
                                    os.devnull])
        assert code == 0, err
        assert peak < 1024, f"{command} on {kind}: {peak:.0f} MB"


def test_a_ten_megabyte_string_attribute_stays_small(tmp_path):
    path = tmp_path / "string.mlir"
    path.write_text('module attributes {x = "' + "a" * (10 << 20) + '"} {\n}\n')
    code, peak, err = _peak_mb([sys.executable, "-m", "irkit", str(path), "-o", os.devnull])
    assert code == 0, err
    assert peak < 400, f"{peak:.0f} MB for a 10 MB string (was 1.44 GB)"


# -- irkit-sweep: the output rule, one writer, faults -----------------------------------------------------------


def _sweep(argv: list[str]) -> tuple[int, str, str]:
    from irkit.sweep import cli

    return _main(cli.main, argv)


@pytest.fixture
def kernels(tmp_path) -> Path:
    folder = tmp_path / "k"
    folder.mkdir()
    (folder / "int_arith.ttgir").write_text(INT_ARITH.read_text())
    return folder


def _rows(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_sweep_output_onto_a_symlink_keeps_the_link(tmp_path, kernels):
    target = tmp_path / "real.jsonl"
    link = tmp_path / "link.jsonl"
    link.symlink_to(target)
    code, _, err = _sweep([str(kernels), "-o", str(link), "--workers", "1", "--no-progress"])
    assert code == 0, err
    assert link.is_symlink() and len(_rows(target)) == 1


def test_a_second_sweep_onto_the_same_file_refuses(tmp_path, kernels):
    from irkit.sweep.results import WriterLock

    out = tmp_path / "out.jsonl"
    first = WriterLock(str(out))
    first.acquire()  # a sweep in progress
    try:
        code, _, err = _sweep([str(kernels), "-o", str(out), "--workers", "1", "--no-progress"])
    finally:
        first.release()
    assert code == 1 and len(err.strip().splitlines()) == 1 and "is being written by another irkit-sweep" in err
    assert not out.exists()
    code, _, err = _sweep([str(kernels), "-o", str(out), "--workers", "1", "--no-progress"])  # once it is done
    assert code == 0 and len(_rows(out)) == 1 and not Path(str(out) + ".lock").exists()


def test_a_full_disk_is_one_line_and_exit_1(tmp_path, kernels):
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full")
    out = tmp_path / "full.jsonl"
    out.symlink_to("/dev/full")
    code, _, err = _sweep([str(kernels), "-o", str(out), "--workers", "1", "--no-progress"])
    assert code == 1 and len(err.strip().splitlines()) == 1, err
    assert "No space left on device" in err and "--resume" in err


def test_a_read_only_output_folder_is_one_line_and_exit_1(tmp_path, kernels, monkeypatch):
    import errno

    from irkit.sweep import results

    def read_only(*args, **kwargs):
        raise OSError(errno.EROFS, "Read-only file system", str(tmp_path / "out.jsonl"))

    monkeypatch.setattr(results.RowSink, "add", read_only)
    code, _, err = _sweep([str(kernels), "-o", str(tmp_path / "out.jsonl"), "--workers", "1", "--no-progress"])
    assert code == 1 and len(err.strip().splitlines()) == 1 and "Read-only file system" in err, err


def test_a_non_utf8_file_name_is_one_error_row(tmp_path, kernels):
    bad = os.fsdecode(os.fsencode(str(kernels)) + b"/bad\xffname.ttgir")
    with open(bad, "w") as f:
        f.write(INT_ARITH.read_text())
    out = tmp_path / "out.jsonl"
    code, _, err = _sweep([str(kernels), "-o", str(out), "--workers", "1", "--no-progress"])
    assert code == 0, err
    rows = {r["path"].rsplit("/", 1)[-1]: r for r in _rows(out)}
    assert rows["int_arith.ttgir"]["status"] == "ok"
    assert rows["bad\\xffname.ttgir"]["status"] == "error" and "not valid UTF-8" in rows["bad\\xffname.ttgir"]["error"]


def test_irkit_sweep_does_not_offer_debug():
    from irkit.cli.entry import run_command

    def buggy(argv):
        raise RuntimeError("boom")

    err = io.StringIO()
    saved, sys.stderr = sys.stderr, err
    try:
        assert run_command("irkit-sweep", buggy, [], debug_option=False) == 2
    finally:
        sys.stderr = saved
    assert "--debug" not in err.getvalue() and "IRKIT_TRACEBACK=1" in err.getvalue()


# -- HTML and manifests ----------------------------------------------------------------------------------------


class _Scripts(HTMLParser):
    def __init__(self):
        super().__init__()
        self.count = 0

    def handle_starttag(self, tag, attrs):
        self.count += tag == "script"


def test_html_escapes_markup_in_its_embedded_json():
    from irkit.report.html import Picture, _pictures

    svg = '<svg><g id="node1" class="node"><title>op3</title></g></svg>'
    html = _pictures({"g": Picture(svg, {"op3": (1, 'loc("<!--<script>":1:1) & </script>')})}, None)
    scripts = _Scripts()
    scripts.feed(html)
    assert scripts.count == 2  # the data element and the page's script, nothing swallowed
    data = re.search(r'class="irkit-lines">(.*?)</script>', html, re.S).group(1)
    assert "<" not in data and json.loads(data)["op3"][1] == 'loc("<!--<script>":1:1) & </script>'


def test_manifest_paths_stay_under_the_manifest_folder(tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("root:SECRET-FIRST-LINE\n")
    folder = tmp_path / "m"
    folder.mkdir()
    manifest = folder / "m.jsonl"
    manifest.write_text(json.dumps({"id": "x", "ttgir": "../secret.txt"}) + "\n")
    code, _, err = _report(["--screen", "--manifest", str(manifest)])
    assert code == 1 and "outside the manifest's folder" in err and "SECRET" not in err
    code, _, err = _report(["--screen", "--manifest", str(manifest), "--manifest-any-path"])
    assert code == 1 and "not an MLIR file" in err and "SECRET" not in err
