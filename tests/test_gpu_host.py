"""MLIR GPU host code (seed 001): front end, launch-cost analysis, hoist-launch-stream, and the real oracle
(mlir-opt-22 lowering + mlir-runner-22 with irkit's counting mgpu runtime).  Oracle tests skip without
mlir-22-tools or a C compiler."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from irkit.analysis.launch_cost import lowering_hazards, scf_loops
from irkit.frontend.parser import parse_text
from irkit.frontend.printer import print_module

DATA = Path(__file__).parent / "data" / "gpu_host"
FILES = sorted(DATA.glob("*.mlir"))
MLIR_OPT = shutil.which("mlir-opt-22")
needs_oracle = pytest.mark.skipif(
    not (MLIR_OPT and shutil.which("mlir-runner-22") and (shutil.which("cc") or shutil.which("gcc"))),
    reason="needs mlir-opt-22, mlir-runner-22 (apt-get install mlir-22-tools lld-22) and a C compiler")


def _print(text: str, generic: bool = False, name: str = "<test>") -> str:
    pm = parse_text(text, name)
    return print_module(pm, generic=generic) if generic else print_module(pm)


def _irkit(tool: str, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", f"from irkit.{tool} import main; main()", *args],
                          input=stdin, capture_output=True, text=True)


def _hoisted(text: str) -> str:
    res = _irkit("cli.opt", "-", "--hoist-launch-stream", stdin=text)
    assert res.returncode == 0, res.stderr
    return res.stdout


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_round_trip_is_identical(path):
    text = path.read_text()
    assert _print(text) == text


@pytest.mark.skipif(not MLIR_OPT, reason="needs mlir-opt-22")
@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_mlir_opt_22_reads_what_irkit_prints(path):
    text = path.read_text()
    for out in (_print(text), _print(text, generic=True), _hoisted(text)):
        res = subprocess.run([MLIR_OPT, "-"], input=out, capture_output=True, text=True)
        assert res.returncode == 0, res.stderr
    # irkit's print is mlir-opt-22's own print of it (the files are mlir-opt-22 output)
    assert subprocess.run([MLIR_OPT, "-"], input=_print(text), capture_output=True, text=True).stdout.rstrip("\n") \
        == text.rstrip("\n")


def test_generic_form_round_trips():
    text = (DATA / "forms.mlir").read_text()
    assert _print(_print(text, generic=True)) == text


def test_bad_input_is_one_error_line():
    bad = (DATA / "seed.mlir").read_text().replace("threads in (%c1, %c1, %c1)", "threads in (%c1, %c1)", 1)
    res = _irkit("cli.opt", "-", stdin=bad)
    assert res.returncode == 1
    first = res.stderr.splitlines()[0]
    assert first.startswith("<stdin>:8:") and ": error: " in first and "Traceback" not in res.stderr


def test_calls_per_iteration_and_hazards():
    seed = parse_text((DATA / "seed.mlir").read_text(), "seed.mlir")
    (loop,) = scf_loops(seed.module, lambda op: "")
    assert (loop.trip_count, loop.per_iteration("22"), loop.per_iteration("14")) == (1000, 5, 7)
    hoisted = parse_text(_hoisted((DATA / "seed.mlir").read_text()), "h.mlir")
    (loop,) = scf_loops(hoisted.module, lambda op: "")
    assert loop.per_iteration("22") == 2
    forms = parse_text((DATA / "forms.mlir").read_text(), "forms.mlir")
    assert len(lowering_hazards(forms.module, lambda op: "")) == 2


def test_report_rows_and_warnings(tmp_path):
    res = _irkit("cli.report", str(DATA / "forms.mlir"), "--json")
    assert res.returncode == 0, res.stderr
    data = json.loads(res.stdout)
    assert len(data["launch_sites"]) == 3 and len(data["loops"]) == 1
    assert [w["where"] for w in data["warnings"]] == [f"{DATA / 'forms.mlir'}:6:10", f"{DATA / 'forms.mlir'}:11:5"]
    html = tmp_path / "r.html"
    assert _irkit("cli.report", str(DATA / "seed.mlir"), "--html", str(html)).returncode == 0
    assert "calls/iter MLIR 22" in html.read_text()


@needs_oracle
@pytest.mark.parametrize("name, creates_before, launches", [("seed.mlir", 1000, 1000), ("two_kernels.mlir", 2000, 2000),
                                                             ("nested.mlir", 1000, 1000)])
def test_real_lowering_counts_one_stream_after_the_pass(name, creates_before, launches):
    from irkit.check.mlir_gpu import count_calls

    text = (DATA / name).read_text()
    before, after = count_calls(text), count_calls(_hoisted(text))
    assert before["mgpuStreamCreate"] == creates_before and after["mgpuStreamCreate"] == 1
    assert before["mgpuLaunchKernel"] == after["mgpuLaunchKernel"] == launches
    # the analysis predicts what the real lowering calls, per iteration of the outer loop
    for t, counts in ((text, before), (_hoisted(text), after)):
        outer = scf_loops(parse_text(t, name).module, lambda op: "")[0]
        per_loop = sum(n for k, n in counts.items() if k not in ("mgpuModuleLoadJIT", "mgpuModuleUnload"))
        per_loop -= 2 if counts is after else 0  # the stream created before and destroyed after the loop
        per_loop -= 1 if counts is after else 0  # and its one synchronize
        assert outer.per_iteration("22") * outer.trip_count == per_loop


@needs_oracle
def test_keep_sync_synchronizes_every_iteration_on_one_stream():
    from irkit.check.mlir_gpu import count_calls

    res = _irkit("cli.opt", str(DATA / "seed.mlir"), "--hoist-launch-stream=keep-sync=true")
    assert res.returncode == 0, res.stderr
    counts = count_calls(res.stdout)
    assert (counts["mgpuStreamCreate"], counts["mgpuStreamSynchronize"], counts["mgpuStreamDestroy"]) == (1, 1001, 1)
    (loop,) = scf_loops(parse_text(res.stdout, "k.mlir").module, lambda op: "")
    assert loop.per_iteration("22") == 3


@needs_oracle
def test_irkit_check_mlir_gpu_mode(tmp_path):
    out = tmp_path / "check.json"
    page = tmp_path / "check.html"
    res = _irkit("check.cli", "-p", "hoist-launch-stream", str(DATA / "seed.mlir"), "--json", str(out), "--html", str(page))
    assert res.returncode == 0, res.stderr
    assert "<td>mgpuStreamCreate</td><td>1000</td><td>1</td>" in page.read_text()
    calls = json.loads(out.read_text())["modules"][0]["calls"]
    assert calls["mgpuStreamCreate"] == {"before": 1000, "after": 1}
    assert calls["mgpuLaunchKernel"] == {"before": 1000, "after": 1000}
    assert "mgpuStreamCreate" in res.stdout


def test_mlir14_spelling_is_read():
    """MLIR 14 wrote `func @main` (builtin.func) and the binary as a gpu.module attribute (`rocdl.hsaco`)."""
    pm = parse_text((DATA / "mlir14" / "seed.mlir").read_text(), "seed14.mlir")
    (loop,) = scf_loops(pm.module, lambda op: "")
    assert (loop.per_iteration("14"), loop.per_iteration("22")) == (7, 5)
    printed = print_module(pm)
    assert "func.func @main()" in printed and 'attributes {rocdl.hsaco = "HSACO"}' in printed


@pytest.mark.parametrize("name, per_iteration", [("seed_scf_to_cf.mlir", 5), ("seed_gpu_to_llvm.mlir", 5),
                                                 ("seed_hoisted_gpu_to_llvm.mlir", 2)])
def test_lowered_host_code_round_trips_and_counts_cf_loops(name, per_iteration):
    """After convert-scf-to-cf and gpu-to-llvm (mlir-opt-22 output), loops are back-edges; the calls per
    iteration are the ones the runner counts for the seed before (5) and after hoisting (2)."""
    from irkit.analysis.launch_cost import cf_loops

    text = (DATA / "lowered" / name).read_text()
    assert _print(text) == text
    (loop,) = cf_loops(parse_text(text, name).module, lambda op: "")
    assert loop.per_iteration("22") == per_iteration
    if MLIR_OPT:
        assert subprocess.run([MLIR_OPT, "-"], input=_print(text), capture_output=True, text=True).returncode == 0
