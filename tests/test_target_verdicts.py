"""Every kernel of a fresh corpus (tests/data/verdicts: our GEMMs compiled by real Triton 3.5.1 and 3.8.0 for
cuda:80, cuda:90, cuda:100, hip:gfx942 and hip:gfx950 by tools/verdict_corpus.py) gets, with no --limit, the
verdict Triton's launch gives it: OutOfResources when the compiler's `metadata.shared` is over the device's
limit (devices.json: the driver's figures, with their sources), else fits.  And a target irkit does not know
is never said to fit.
"""

import json
from pathlib import Path

import pytest

from irkit.cli.report import run
from irkit.frontend.parser import Parser
from irkit.frontend.printer import print_module
from irkit.report.model import build_module_report

DATA = Path(__file__).parent / "data" / "verdicts"
MANIFEST = json.loads((DATA / "manifest.json").read_text())
DEVICES = json.loads((DATA / "devices.json").read_text())["limits"]


def _triton_verdict(shared: int, limit: int) -> str:
    if shared > limit:  # CompiledKernel._init_handles: OutOfResources(metadata.shared, max_shared, "shared memory")
        return f"out of resource: shared memory, Required: {shared}, Hardware limit: {limit}"
    return "fits"


@pytest.mark.parametrize("entry", MANIFEST, ids=lambda e: e["path"])
def test_irkit_gives_tritons_verdict_with_no_limit(entry):
    text = (DATA / entry["path"]).read_text()
    report = build_module_report(Parser(text, entry["path"]).parse(), name=entry["path"])
    assert report.shared_bytes == entry["shared"]  # irkit's model of the allocation is the compiler's
    expected = _triton_verdict(entry["shared"], DEVICES[entry["target"]])
    assert report.limit == DEVICES[entry["target"]]
    if expected == "fits":
        assert report.fits and report.verdict.startswith("fits")
    else:
        assert report.fits is False and report.verdict == expected


@pytest.mark.parametrize("entry", MANIFEST, ids=lambda e: e["path"])
def test_the_fresh_corpus_prints_back_as_the_compiler_wrote_it(entry):
    """Byte for byte (the files were saved as Triton 3.5.1/3.8.0 print without locations)."""
    text = (DATA / entry["path"]).read_text()
    assert print_module(Parser(text, entry["path"]).parse()) == text


def test_the_corpus_covers_targets_versions_and_both_verdicts():
    assert {e["target"] for e in MANIFEST} == set(DEVICES)
    assert {e["triton"] for e in MANIFEST} == {"3.5.1", "3.8.0"}
    over = {e["target"] for e in MANIFEST if e["shared"] > DEVICES[e["target"]]}
    under = {e["target"] for e in MANIFEST if e["shared"] <= DEVICES[e["target"]]}
    assert over >= {"cuda:80", "hip:gfx942", "hip:gfx950"} and under == set(DEVICES)


def test_an_unknown_target_is_never_said_to_fit(tmp_path, capsys):
    entry = next(e for e in MANIFEST if e["target"] == "hip:gfx950")
    text = (DATA / entry["path"]).read_text().replace('"hip:gfx950"', '"hip:gfx1201"')
    path = tmp_path / "k.ttgir"
    path.write_text(text)
    assert run([str(path)]) == 0
    out = capsys.readouterr().out
    assert "target unknown" in out and "fits:" not in out
    assert run([str(path), "--target", "MI355X"]) == 0
    assert "163840" in capsys.readouterr().out


def test_b200_registers_come_from_tritons_blackwell_ptxas(tmp_path):
    """cuda:100 PTX needs the wheel's ptxas-blackwell (its plain ptxas rejects PTX 8.8): the screen gets
    registers and CTAs per SM for a B200 with Triton 3.6 on the CPU."""
    from test_amd_occupancy import _triton36

    from irkit.sweep.cli import run as sweep

    python = _triton36()
    if python is None:
        pytest.skip("no Triton 3.6 (IRKIT_TRITON_PYTHONS='3.6.0=/path/python')")
    rows = tmp_path / "rows.jsonl"
    kernels = Path(__file__).parent / "data" / "amd" / "kernels.py"
    assert sweep(["--screen", str(kernels), "--kernel", "matmul", "--target", "B200", "--config", "BLOCK_M=64",
                  "--config", "BLOCK_N=64", "--config", "BLOCK_K=32", "--triton-python", python, "-o", str(rows)]) == 0
    row = json.loads(rows.read_text())
    assert row["ok"] and 0 < row["registers"] <= 255 and row["ctas_per_sm"] >= 1 and row["fits"]
