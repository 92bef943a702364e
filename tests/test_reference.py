"""irkit-ref (the C++ pass a prototype mirrors, irkit-opt's interface) and irkit-sweep --against.

The Tritons come from IRKIT_TRITON_PYTHONS ("3.9.0=/path/python:..."); without the one a test needs it skips.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from irkit.reference.compare import compare
from irkit.reference.passes import NoCounterpart, upstream_pass

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
KERNELS = ROOT / "tests" / "data" / "coalesce39"


def triton_python(major_minor: str) -> str | None:
    for entry in filter(None, os.environ.get("IRKIT_TRITON_PYTHONS", "").split(":")):
        version, _, python = entry.partition("=")
        if version.startswith(major_minor + ".") and os.access(python, os.X_OK):
            return python
    return None


def need(major_minor: str) -> str:
    python = triton_python(major_minor)
    if python is None:
        pytest.skip(f"no Triton {major_minor} (IRKIT_TRITON_PYTHONS='{major_minor}.0=/path/python')")
    return python


def test_prototype_options_map_to_the_cxx_pass_or_are_refused():
    assert upstream_pass("coalesce", "") .name == "tritongpu-coalesce"
    assert upstream_pass("coalesce", "version=3.1").version == "3.1"
    assert upstream_pass("rewrite-tensor-pointer", "").name == "triton-rewrite-tensor-pointer"
    assert upstream_pass("rewrite-tensor-pointer", "mode=intel-2420").name == "tritonintelgpu-rewrite-tensor-pointer"
    assert upstream_pass("tritonintelgpu-remove-layout-conversions", "").name == "tritonintelgpu-remove-layout-conversions"
    with pytest.raises(NoCounterpart, match="skip-unchanged=true"):
        upstream_pass("coalesce", "skip-unchanged=true")
    with pytest.raises(NoCounterpart, match="mode=intel-2400"):
        upstream_pass("rewrite-tensor-pointer", "mode=intel-2400")


def test_compare_names_the_first_difference_and_its_kind():
    ours = ["tt.func @f() {", "%0 = tt.load %p : tensor<4x!tt.ptr<f32>, #ttg.blocked<{sizePerThread = [4]}>>", "tt.return"]
    theirs = [ours[0], ours[1].replace("[4]", "[2]"), ours[2]]
    assert compare(ours, list(ours)).same
    c = compare(ours, theirs)
    assert not c.same and c.kind == "layout" and c.first.startswith("line 2:")
    assert "-%0 = tt.load" in c.diff and "+%0 = tt.load" in c.diff
    assert compare(ours, [ours[0], ours[2]]).kind == "extra-op"
    assert compare(ours, [ours[0], ours[1].replace("tt.load", "tt.store"), ours[2]]).kind == "op"


def test_irkit_ref_prints_what_irkit_opt_prints_for_coalesce():
    python = need("3.9")
    src = KERNELS / "atomic_add_f32.in.ttgir"
    ref = subprocess.run([BIN / "irkit-ref", "--triton-python", python, str(src), "--coalesce"],
                         capture_output=True, text=True, timeout=300)
    assert ref.returncode == 0, ref.stderr
    ours = subprocess.run([BIN / "irkit-opt", str(src), "--coalesce"], capture_output=True, text=True, timeout=300)
    # same IR; value names as written are restored for the ops the C++ pass kept (not always the suffix)
    from irkit.frontend.parser import Parser
    from irkit.reference.compare import canonical_lines

    assert compare(canonical_lines(Parser(ours.stdout, "ours").parse()), canonical_lines(Parser(ref.stdout, "ref").parse())).same
    assert "%0 = ttg.convert_layout" not in ref.stdout or "%0 = ttg.convert_layout" in ours.stdout


def test_irkit_ref_refuses_an_option_without_counterpart(tmp_path):
    src = KERNELS / "atomic_add_f32.in.ttgir"
    p = subprocess.run([BIN / "irkit-ref", "--triton-python", sys.executable, str(src), "--coalesce=skip-unchanged=true"],
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 1 and "Traceback" not in p.stderr
    assert "irkit-ref: error: 'coalesce' with skip-unchanged=true: no C++ pass does that" in p.stderr


def _sweep(tmp_path, pipeline, against, python, *inputs):
    out = tmp_path / "r.jsonl"
    p = subprocess.run([BIN / "irkit-sweep", "-p", pipeline, "--against", against, "--reference-python", python,
                        *map(str, inputs), "-o", str(out), "--workers", "1", "--no-progress"],
                       capture_output=True, text=True, timeout=600, env={**os.environ, "IRKIT_TRITON_PYTHON": python})
    assert p.returncode == 0, p.stderr
    return [json.loads(line) for line in out.read_text().splitlines()], p.stdout


def test_sweep_against_the_cxx_coalesce_is_the_same_and_a_wrong_port_is_caught(tmp_path):
    python = need("3.9")
    kernels = [KERNELS / "atomic_add_f32.in.ttgir", KERNELS / "colmajor_scale_f32_w8.in.ttgir"]
    rows, out = _sweep(tmp_path, "coalesce", "tritongpu-coalesce", python, *kernels)
    assert [r["reference_same"] for r in rows] == [True, True], out
    assert "2 of 2 kernel(s) the same" in out
    # the 3.1 rules (one rule differs: ties broken column-major) are a wrong port of 3.9's pass here
    rows, out = _sweep(tmp_path, "coalesce{version=3.1}", "tritongpu-coalesce", python, *kernels)
    differ = [r for r in rows if r["reference_same"] is False]
    assert differ, out
    for r in differ:
        assert r["reference_difference"] in ("layout", "operands-or-attributes", "op", "extra-op", "missing-op")
        assert Path(r["reference_diff"]).read_text().count("\n-") >= 1


def test_reference_skip_markers_name_the_tritons_they_mean():
    from irkit.reference.cli import skip_reason

    text = "// REFERENCE-SKIP(triton<3.4): new in 3.4\n// REFERENCE-SKIP(triton>=3.9): gone in 3.9\n"
    assert skip_reason(text, "3.1.0") == "new in 3.4"
    assert skip_reason(text, "3.3.1") == "new in 3.4"
    assert skip_reason(text, "3.6.0") is None
    assert skip_reason(text, "3.9.0") == "gone in 3.9"
    assert skip_reason("// REFERENCE-SKIP: never\n", "3.6.0") == "never"
    assert skip_reason("// no marker\n", "3.1.0") is None


def test_lit_files_pass_against_the_cxx_passes():
    """lit_tests/passes/{coalesce,rewrite-tensor-pointer}.mlir, unchanged, with irkit-opt replaced by irkit-ref:
    coalesce's 3.1 RUN line against Triton 3.1's tritongpu-coalesce, its default one against 3.9's;
    rewrite-tensor-pointer against Triton 3.3's (3.9 has no such pass)."""
    pythons = [need(v) for v in ("3.9", "3.3", "3.1")]
    ref = "irkit-ref " + " ".join(f"--triton-python {p}" for p in pythons)
    files = [ROOT / "lit_tests" / "passes" / f for f in ("coalesce.mlir", "rewrite-tensor-pointer.mlir")]
    p = subprocess.run([BIN / "lit", "-v", "-D", f"IRKIT_OPT={ref}", *map(str, files)], capture_output=True, text=True,
                       timeout=600, env={**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"})
    assert p.returncode == 0, p.stdout[-4000:]
    assert "Passed: 2" in p.stdout


def test_a_one_rule_mutant_of_the_reference_is_caught(tmp_path):
    python = need("3.9")
    mutant = ROOT / "examples" / "porting" / "mutant-coalesce.sh"
    kernel = tmp_path / "k.ttgir"
    kernel.write_text((KERNELS / "attention_fwd_fp16.in.ttgir").read_text())
    env_path = f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"
    os.environ["PATH"], saved = env_path, os.environ.get("PATH", "")
    try:
        rows, out = _sweep(tmp_path, "coalesce", str(mutant), python, kernel)
    finally:
        os.environ["PATH"] = saved
    assert rows[0]["reference_same"] is False, out
    assert rows[0]["reference_difference"] == "layout"
    diff = Path(rows[0]["reference_diff"]).read_text()
    assert "sizePerThread = [1, 8]" in diff and "sizePerThread = [1, 4]" in diff


def test_propagate_mma_against_intels_remove_layout_conversions(tmp_path):
    """On the compiler's final TTGIR Intel's C++ pass changes nothing; propagate-mma removes the conversion of the
    add-matrix operand that Intel's pass keeps: reported as a layout difference, with a diff."""
    python = os.environ.get("IRKIT_XPU_PYTHON") or "/work/.venv-xpu/bin/python"
    if not Path(python).exists():
        pytest.skip("no Intel XPU Triton (IRKIT_XPU_PYTHON)")
    kernel = ROOT / "tests" / "data" / "intel" / "addmm_bf16_128x128x32_w8_s2.ttgir"
    ref = subprocess.run([BIN / "irkit-ref", "--triton-python", python, str(kernel), "--tritonintelgpu-remove-layout-conversions"],
                         capture_output=True, text=True, timeout=300)
    assert ref.returncode == 0, ref.stderr
    unchanged = subprocess.run([BIN / "irkit-opt", str(kernel)], capture_output=True, text=True, timeout=300)
    assert ref.stdout == unchanged.stdout and ref.stdout.count("ttg.convert_layout") == 2
    rows, out = _sweep(tmp_path, "propagate-mma", "tritonintelgpu-remove-layout-conversions", python, kernel)
    assert rows[0]["reference_same"] is False and rows[0]["reference_difference"] == "layout", out
    diff = Path(rows[0]["reference_diff"]).read_text()
    lines = diff.splitlines()[3:]
    assert [x for x in lines if x.startswith("+") and "ttg.convert_layout" in x]  # Intel's pass keeps them
    assert not [x for x in lines if x.startswith("-") and "ttg.convert_layout" in x]  # propagate-mma has none
