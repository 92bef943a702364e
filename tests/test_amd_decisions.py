"""AMD in the tools: propagate-mma's compiled decision on a HIP module (the CDNA rule: a wave more per SIMD or
fewer spilled VGPRs), irkit-check's static mode showing waves/SIMD and the limiter before and after, and the
knob screen (irkit-sweep --screen).  The decisions run with the compiler's answers given; the rest end to end
with the real Triton 3.6 when IRKIT_TRITON_PYTHONS names one, else they skip.

The module: our C = A @ B + D (tests/data/amd/kernels.py, matmul_add) compiled by Triton 3.6 for gfx942,
128x128x64 tiles, 4 warps, 2 stages: its epilogue converts D into the #mma layout.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_propagate_mma_compiled import conversions, run, the_tools_provide_triton  # noqa: F401 (autouse)

from irkit.analysis.occupancy import CompiledKernel
from irkit.sweep.screen import grid, parse_axis

DATA = Path(__file__).parent / "data" / "amd"
ADDMM = DATA / "addmm_gfx942_128x128x64_w4_s2_triton36.ttgir"


def test_a_wave_more_per_simd_takes_the_rewrite(monkeypatch):
    parsed, remarks = run(ADDMM, monkeypatch, [CompiledKernel(300, 0, 32768, 24), CompiledKernel(256, 0, 32768, 24)])
    assert conversions(parsed.module) == 0
    assert "compiled with it 300 VGPRs, 1 waves/SIMD (vgpr 300; next ≤256); without it 256 VGPRs, 2 waves/SIMD" in remarks[0]


def test_fewer_spills_take_it_and_no_gain_keeps_it(monkeypatch):
    parsed, _ = run(ADDMM, monkeypatch, [CompiledKernel(256, 4 * 40, 32768), CompiledKernel(256, 4 * 9, 32768)])
    assert conversions(parsed.module) == 0
    parsed, remarks = run(ADDMM, monkeypatch, [CompiledKernel(300, 0, 32768), CompiledKernel(296, 0, 32768)])
    assert conversions(parsed.module) == 1
    assert "profit=compiled: compiled with it 300 VGPRs, 1 waves/SIMD" in remarks[0]
    assert "spilled VGPRs 0 -> 0" in remarks[0]


def test_the_screens_grid():
    assert parse_axis("BLOCK_M=64,128") == ("BLOCK_M", [64, 128])
    plan = grid({"BLOCK_M": [64, 128]}, {"num_warps": [4, 8], "waves_per_eu": [0, 2, 3]})
    assert len(plan) == 2 * (1 + 1 + 2)  # per tile: the base, then each knob's other values alone
    assert plan[0] == {"constexprs": {"BLOCK_M": 64}, "options": {"num_warps": 4, "waves_per_eu": 0}}
    assert len(grid({"BLOCK_M": [64]}, {"num_warps": [4, 8], "kpack": [1, 2]}, full=True)) == 4
    own = [{"constexprs": {"BLOCK_M": 64}, "options": {"num_warps": 4, "waves_per_eu": 2}},
           {"constexprs": {"BLOCK_M": 128}, "options": {"num_warps": 8}}]
    assert grid({}, {}, autotuned=own) == own
    assert [c["options"]["num_warps"] for c in grid({}, {"num_warps": [4, 8]}, autotuned=own)] == [4, 8, 4, 8]



def test_static_check_shows_waves_per_simd(triton36, tmp_path, capsys):
    from irkit.check.cli import run as check

    out = tmp_path / "out.json"
    assert check(["-p", "propagate-mma{profit=always}", str(ADDMM), "--json", str(out), "--triton-python", triton36]) == 0
    module = json.loads(out.read_text())["modules"][0]
    for side in ("before", "after"):
        real = module[side]["real"]
        assert real["waves_per_simd"] == real["compiler_occupancy"]  # LDS does not limit this GEMM
        assert real["limited_by"] == "vgpr" and real["accum_offset"] + real["agpr_count"] == real["registers"]
    text = capsys.readouterr().out
    assert "waves/SIMD (limiter)" in text and "VGPR+AGPR / SGPR" in text


def test_the_screen_end_to_end(triton36, tmp_path, capsys):
    from irkit.sweep.cli import run as sweep

    rows, page = tmp_path / "rows.jsonl", tmp_path / "screen.html"
    assert sweep(["--screen", str(DATA / "kernels.py"), "--kernel", "matmul", "--target", "hip:gfx950",
                  "--config", "BLOCK_M=64", "--config", "BLOCK_N=64", "--config", "BLOCK_K=32",
                  "--knob", "num_warps=4,8", "--knob", "waves_per_eu=0,4", "--triton-python", triton36,
                  "-o", str(rows), "--html", str(page)]) == 0
    got = [json.loads(line) for line in rows.read_text().splitlines()]
    assert [(r["num_warps"], r["waves_per_eu"]) for r in got] == [(4, 0), (8, 0), (4, 4)]
    for r in got:
        assert r["ok"] and r["fits"] and r["waves_per_simd"] == r["compiler_occupancy"]
    assert got[2]["vgprs"] <= 128  # waves_per_eu=4: a budget of 128 VGPRs
    assert page.read_text().count("<svg") == 2  # one chart per knob
    assert "real compiles" in capsys.readouterr().out


def test_the_real_compiler_decides_on_amd(triton36, monkeypatch):
    """128x128x32: the model calls the removal a loss (its loads stay b16), but the real compiler makes 272
    VGPRs of the kept module and 200 of the other: a second wave per SIMD, so profit=auto takes it."""
    monkeypatch.setenv("IRKIT_TRITON_PYTHON", triton36)
    gemm = DATA / "addmm_gfx942_128x128x32_w4_s2_triton36.ttgir"
    parsed, remarks = run(gemm, profit="model")
    assert conversions(parsed.module) == 1
    parsed, remarks = run(gemm, profit=None)  # the default: auto
    assert conversions(parsed.module) == 0
    assert "(profit=auto: compiled with it 272 VGPRs, 1 waves/SIMD (vgpr 272; next ≤256); without it 200 VGPRs, " \
           "2 waves/SIMD" in remarks[0]


@pytest.mark.parametrize("argv, message", [
    (["--knob", "warps=4"], "unknown knob(s) warps"),
    (["--knob", "num_warps"], "expected NAME=V1,V2"),
    ([], "name the kernel to screen (--kernel NAME)"),
])
def test_the_screen_says_what_is_wrong(argv, message, capsys):
    from irkit.sweep.cli import main

    with pytest.raises(SystemExit) as e:
        main(["--screen", str(DATA / "kernels.py"), "--target", "hip:gfx942", "-o", "/dev/null", *argv])
    assert e.value.code == 1
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_the_screen_of_a_saved_ttir(triton36, tmp_path):
    """A TTIR's tiles are fixed; the knobs still apply (here a 3.6 TTIR made for cuda:90, compiled for MI355X)."""
    from irkit.sweep.cli import run as sweep

    rows = tmp_path / "rows.csv"
    ttir = Path(__file__).parent / "data" / "triton36" / "cuda_90" / "gemm_bf16_128x128x32_w4_s3.ttir"
    assert sweep(["--screen", str(ttir), "--target", "hip:gfx950", "--knob", "num_warps=4,8",
                  "--triton-python", triton36, "-o", str(rows)]) == 0
    lines = rows.read_text().splitlines()
    assert len(lines) == 3 and "waves_per_simd" in lines[0]


def test_an_autotuned_kernel_brings_its_configs(triton36, tmp_path):
    """No --config: the screen takes the kernel's @triton.autotune configs, their AMD knobs included."""
    from irkit.sweep.cli import run as sweep

    rows = tmp_path / "rows.jsonl"
    assert sweep(["--screen", str(DATA / "autotuned.py"), "--kernel", "matmul", "--target", "hip:gfx942",
                  "--triton-python", triton36, "-o", str(rows)]) == 0
    got = [json.loads(line) for line in rows.read_text().splitlines()]
    assert [(r["BLOCK_M"], r["num_warps"], r.get("waves_per_eu"), r.get("matrix_instr_nonkdim")) for r in got] == [
        (64, 4, 2, None), (128, 8, None, 16)]
    assert got[0]["limited_by"] == "waves_per_eu" and got[0]["waves_per_simd"] == got[0]["compiler_occupancy"] == 2
