"""CDNA occupancy (irkit.analysis.occupancy) against the real compiler.

tests/data/amd/ holds what real Triton 3.6 HIP compiles (gfx90a, gfx942, gfx950; tools/amd_occupancy_golden.py)
said about our kernels over tiles, num_warps, num_stages, waves_per_eu, matrix_instr_nonkdim and kpack: the
AMDGCN lines with registers, spills, scratch and the compiler's `; Occupancy`, and `metadata.shared`.  irkit
reads the figures with its own parser and must give the compiler's waves per SIMD where LDS does not limit,
and the LDS term where it does (the compiler's comment ignores Triton's dynamic LDS).  One more compile per
arch runs live when a Triton 3.6 is at hand (IRKIT_TRITON_PYTHONS="3.6.0=/path/python"), with a config the
data does not hold.
"""

import json
import os
import subprocess
import tempfile
from pathlib import Path

import pytest

from irkit.analysis.occupancy import (
    CU_LIMITS,
    CompiledKernel,
    cu_limits,
    limits_of,
    removal_pays,
    sm_limits,
    vgpr_budget,
    waves_by_sgprs,
    waves_by_vgprs,
    waves_per_simd,
)
from irkit.check.binary_metrics import amdgcn_memory_ops, amdgcn_resources, binary_summary

DATA = Path(__file__).parent / "data" / "amd"
GOLDEN = json.loads((DATA / "golden.json").read_text())["rows"]
WORKER = Path(__file__).parent.parent / "irkit" / "sweep" / "knob_worker.py"


def _figures(row: dict) -> dict:
    return amdgcn_resources((DATA / "amdgcn" / f"{row['id']}.txt").read_text())


def test_vgpr_steps_are_the_cdna_table():
    cu = CU_LIMITS["gfx942"]
    assert [vgpr_budget(cu, w) for w in range(1, 9)] == [512, 256, 168, 128, 96, 80, 72, 64]
    assert [waves_by_vgprs(cu, v) for v in (512, 257, 256, 169, 168, 129, 128, 65, 64, 1)] == [1, 1, 2, 2, 3, 3, 4, 7, 8, 8]
    assert waves_by_vgprs(cu, 161) == 3  # granule 8: 161 counts as 168
    assert [waves_by_sgprs(cu, s) for s in (24, 100, 101, 106)] == [8, 8, 7, 7]


def test_targets():
    assert cu_limits("hip:gfx950").lds_bytes == 163840
    assert cu_limits("gfx942:sramecc+:xnack-").lds_bytes == 65536
    assert cu_limits("hip:gfx1100") is None and cu_limits("cuda:90") is None and cu_limits(None) is None
    assert limits_of("hip:gfx90a") is CU_LIMITS["gfx90a"]
    assert limits_of("cuda:100") is sm_limits("cuda:100")


@pytest.mark.parametrize("row", [r for r in GOLDEN if r["ok"]], ids=lambda r: r["id"])
def test_waves_per_simd_is_the_compilers_occupancy(row):
    fig = _figures(row)
    cu = cu_limits(row["arch"])
    # the unified register file: the metadata has no .agpr_count; AGPRs start at accum_offset
    assert fig["total_vgprs"] == fig["vgpr_count"]
    if fig["agprs"]:
        assert fig["accum_offset"] + fig["agprs"] == fig["vgpr_count"]
    hint = row.get("waves_per_eu", 0)
    registers_only = waves_per_simd(cu, fig["vgpr_count"], row["num_warps"], 0, fig["occupancy_sgprs"], hint)
    assert registers_only.waves == fig["occupancy"]
    with_lds = waves_per_simd(cu, fig["vgpr_count"], row["num_warps"], row["shared"], fig["occupancy_sgprs"], hint)
    assert with_lds.waves <= fig["occupancy"]
    if with_lds.limited_by != "lds":
        assert with_lds.waves == fig["occupancy"]


def test_the_data_covers_archs_knobs_and_an_lds_limit():
    ok = [r for r in GOLDEN if r["ok"]]
    assert {r["arch"] for r in ok} == {"gfx90a", "gfx942", "gfx950"}
    assert {r["num_warps"] for r in ok} >= {1, 2, 4, 8}
    assert {k for r in ok for k in ("waves_per_eu", "matrix_instr_nonkdim", "kpack") if k in r} == {
        "waves_per_eu", "matrix_instr_nonkdim", "kpack"}
    assert {_figures(r)["occupancy"] for r in ok} >= {1, 2, 3, 8}
    assert any(_figures(r)["vgpr_spill_count"] for r in ok)  # waves_per_eu forces spills


@pytest.mark.parametrize("arch, shape, waves, next_lds", [
    # the transpose goes through LDS with ~70 VGPRs (the compiler says 7 waves): LDS holds whole workgroups
    ("gfx942", "64x128x1_num_warps4", 2, 21845),  # 64 KiB / 32 KiB = 2 workgroups of 4 waves: 2 per SIMD
    ("gfx950", "64x128x1_num_warps4", 5, 27306),  # 160 KiB / 32 KiB = 5
    ("gfx942", "128x128x1_num_warps8", 2, 32768),  # one workgroup of 8 waves (64 KiB): 2 per SIMD
])
def test_lds_limits_the_transpose(arch, shape, waves, next_lds):
    row = next(r for r in GOLDEN if r["id"].startswith(f"{arch}_transpose_{shape}"))
    fig = _figures(row)
    w = waves_per_simd(cu_limits(arch), fig["vgpr_count"], row["num_warps"], row["shared"], fig["occupancy_sgprs"])
    assert fig["occupancy"] == 7 and w.limited_by == "lds"
    assert (w.waves, w.next_lds) == (waves, next_lds)
    assert str(w).startswith(f"{waves} waves/SIMD (lds")


def test_the_next_step_and_the_limiter():
    cu = CU_LIMITS["gfx942"]
    w = waves_per_simd(cu, 328, 4, 16384, 26)  # the seed's GEMM: 1 wave, 256 VGPRs for the second
    assert (w.waves, w.limited_by, w.next_vgprs, str(w)) == (1, "vgpr", 256, "1 waves/SIMD (vgpr 328; next ≤256)")
    w = waves_per_simd(cu, 256, 8, 32768, 26)  # 256x256x64 w8: a workgroup puts 2 waves on each SIMD
    assert (w.waves, w.workgroups) == (2, 1)
    assert waves_per_simd(cu, 64, 4, 0, 110).limited_by == "sgpr"
    assert waves_per_simd(cu, 64, 4, 0, 24).limited_by == "max_waves"  # 8 waves: the SIMD is full
    # waves_per_eu=2 on a GEMM that needs only 104 VGPRs (a real gfx942 compile: `; Occupancy: 2`)
    assert (waves_per_simd(cu, 104, 4, 8192, 102, 2).waves, waves_per_simd(cu, 104, 4, 8192, 102, 2).limited_by) == (
        2, "waves_per_eu")


def test_amd_removal_pays_on_a_wave_or_fewer_spills():
    cu = CU_LIMITS["gfx942"]
    take, figures = removal_pays(CompiledKernel(328, 0, 16384, 26), CompiledKernel(256, 0, 16384, 26), cu, 4)
    assert take and "1 waves/SIMD" in figures and "2 waves/SIMD" in figures
    assert figures.endswith("; spilled VGPRs 0 -> 0; a wave more per SIMD")
    fewer_spills = removal_pays(CompiledKernel(256, 160, 16384), CompiledKernel(256, 40, 16384), cu, 4)
    assert fewer_spills[0] and fewer_spills[1].endswith("; spilled VGPRs 40 -> 10; fewer spilled VGPRs")
    still_one = removal_pays(CompiledKernel(328, 0, 16384), CompiledKernel(320, 0, 16384), cu, 4)
    assert not still_one[0] and still_one[1].endswith("; neither a wave more per SIMD nor fewer spilled VGPRs")
    spills = removal_pays(CompiledKernel(328, 0, 16384), CompiledKernel(256, 40, 16384), cu, 4)
    assert not spills[0] and spills[1].endswith("; a wave more per SIMD, but with more spills")


def test_binary_summary_of_a_whole_hip_kernel():
    asm = (DATA / "gfx942_matmul_32x32x32_w1.amdgcn").read_text()
    s = binary_summary({"amdgcn": asm})
    assert s["registers"] == s["accum_offset"] + s["agpr_count"] and s["agpr_count"] > 0
    assert s["compiler_occupancy"] == 3 and s["vgpr_spill_count"] == 0 and s["scratch_bytes"] == 0
    ops = amdgcn_memory_ops(asm)
    assert ops["loads"] and all(op.startswith(("global_load", "buffer_load")) for op in ops["loads"])
    assert any(op.startswith("ds_write") or op.startswith("ds_read") for op in ops["shared"])


def _triton36() -> str | None:
    for entry in filter(None, os.environ.get("IRKIT_TRITON_PYTHONS", "").split(":")):
        v, _, python = entry.partition("=")
        if v.strip().startswith("3.6") and Path(python.strip()).exists():
            return python.strip()
    return None


@pytest.mark.parametrize("arch, num_warps, waves_per_eu", [("gfx90a", 8, 0), ("gfx942", 2, 2), ("gfx950", 4, 0)])
def test_live_compile_agrees(arch, num_warps, waves_per_eu):
    """A config the data does not hold (96x64x32), compiled now."""
    python = _triton36()
    if python is None:
        pytest.skip("no Triton 3.6 (IRKIT_TRITON_PYTHONS='3.6.0=/path/python')")
    request = {"source": str(DATA / "kernels.py"), "kernel": "matmul_add", "target": f"hip:{arch}",
               "configs": [{"constexprs": {"BLOCK_M": 64, "BLOCK_N": 64, "BLOCK_K": 32},
                            "options": {"num_warps": num_warps, "num_stages": 3, "waves_per_eu": waves_per_eu}}]}
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "request.json"
        path.write_text(json.dumps(request))
        answer = json.loads(subprocess.run([python, str(WORKER), str(path)], capture_output=True, text=True,
                                           check=True).stdout)
    res = answer["results"][0]
    assert res["ok"], res.get("error")
    fig = amdgcn_resources(res["asm"]["amdgcn"])
    w = waves_per_simd(cu_limits(arch), fig["vgpr_count"], res["num_warps"], 0, fig["occupancy_sgprs"], waves_per_eu)
    assert w.waves == fig["occupancy"]
