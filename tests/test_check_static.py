"""irkit-check static mode end to end, with the real Triton 3.1 (skips without one).

The Triton comes from IRKIT_TRITON_PYTHONS ("3.1.0=/path/to/python:...") or this interpreter when it
has Triton 3.1.  The input is the real 3.1 TTGIR of a GEMM with an add-matrix epilogue (block pointers,
cuda:90, 256x256x32 tiles, 8 warps, 2 stages): propagate-mma removes its epilogue conversion, and the
real compiler then needs half the shared memory (with `profit=always`: the pass's default cost model keeps
this conversion, its loads being narrower afterwards).
"""

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from irkit.check.cli import run
from irkit.check.static import version_mismatch

DATA = Path(__file__).parent / "data" / "check"
ADDMM_31 = DATA / "addmm_bp_cuda90_256x256x32_w8_s2_triton31.ttgir"


def triton_python(version: str) -> str | None:
    for entry in filter(None, os.environ.get("IRKIT_TRITON_PYTHONS", "").split(":")):
        v, _, python = entry.partition("=")
        if v.strip().startswith(version) and Path(python.strip()).exists():
            return python.strip()
    if importlib.util.find_spec("triton") is not None:
        from importlib.metadata import version as dist_version

        if dist_version("triton").startswith(version):
            return sys.executable
    return None


@pytest.fixture(scope="module")
def triton31():
    python = triton_python("3.1")
    if python is None:
        pytest.skip("no Triton 3.1 (set IRKIT_TRITON_PYTHONS='3.1.0=/path/python' or install the triton extra)")
    return python


def test_propagate_mma_halves_the_real_shared_memory(triton31, tmp_path, capsys):
    out = tmp_path / "out.json"
    # profit=always: the cost model alone (profit=model) keeps this conversion
    rc = run(["-p", "propagate-mma{profit=always}", str(ADDMM_31), "--json", str(out), "--triton-python", triton31])
    assert rc == 0
    report = json.loads(out.read_text())
    assert report["triton"]["version"].startswith("3.1")
    module = report["modules"][0]
    before, after = module["before"]["real"], module["after"]["real"]
    assert (before["shared"], after["shared"]) == (133120, 65536)
    assert (module["before"]["predicted"]["shared"], module["after"]["predicted"]["shared"]) == (133120, 65536)
    assert module["disagreements"] == [] and module["changed"]
    # the epilogue moved into the mma layout: no more round trip through shared memory, narrower accesses
    assert (before["ttgir_convert_layout"], after["ttgir_convert_layout"]) == (1, 0)
    assert max(before["global_loads"], key=len).startswith("v4") and list(after["global_loads"]) == ["v2.b32"]
    assert before["shared_and_barriers"]["st.shared"] > 0 and "st.shared" not in after["shared_and_barriers"]
    assert before["registers"] > 0 and after["spill_store_bytes"] < before["spill_store_bytes"]
    assert "133,120" in capsys.readouterr().out


def test_version_mismatch_is_one_line_and_exit_1(tmp_path):
    other = triton_python("3.6") or triton_python("3.9") or triton_python("3.3")
    if other is None:
        pytest.skip("no Triton >= 3.2 to mismatch with (IRKIT_TRITON_PYTHONS)")
    p = subprocess.run([sys.executable, "-m", "irkit.check.cli", "-p", "propagate-mma", str(ADDMM_31),
                        "--triton-python", other], capture_output=True, text=True, check=False)
    assert p.returncode == 1
    assert p.stderr.count("\n") == 1 and "Triton 3.1 IR" in p.stderr and "installed Triton is 3." in p.stderr


def test_version_rules():
    assert version_mismatch(None, True, "3.1.0") is None
    assert "3.6.0" in version_mismatch(None, True, "3.6.0")
    assert "ttg" in version_mismatch(None, False, "3.1.0")
    assert version_mismatch("3.6.0", False, "3.6.1") is None
    assert "3.3.1" in version_mismatch("3.3.1", False, "3.6.0")


def test_missing_triton_is_one_line_and_exit_1(tmp_path):
    env = dict(os.environ, IRKIT_TRITON_PYTHON=str(tmp_path / "no-python"))
    p = subprocess.run([sys.executable, "-m", "irkit.check.cli", "-p", "propagate-mma", str(ADDMM_31)],
                       capture_output=True, text=True, env=env, check=False)
    assert p.returncode == 1 and p.stderr.count("\n") == 1 and "no-python" in p.stderr


def test_bad_inputs_are_one_line_and_exit_1(tmp_path):
    for argv in (["-p", "propagate-mma", str(tmp_path / "missing.ttgir")],
                 ["-p", "no-such-pass", str(ADDMM_31)],
                 ["-p", "propagate-mma"]):
        p = subprocess.run([sys.executable, "-m", "irkit.check.cli", *argv], capture_output=True, text=True, check=False)
        assert p.returncode == 1 and p.stderr.count("\n") == 1, (argv, p.stderr)


def test_amd_registers_and_lds_from_the_code_object(tmp_path):
    """Triton 3.6, hip:gfx942 (our addmm example, 128x128x64, 8 warps, 2 stages): AMDGCN metrics."""
    python = triton_python("3.6")
    if python is None:
        pytest.skip("no Triton 3.6 (IRKIT_TRITON_PYTHONS='3.6.0=/path/python')")
    out = tmp_path / "out.json"
    rc = run(["-p", "propagate-mma{profit=always}", str(DATA / "addmm_gfx942_128x128x64_w8_s2_triton36.ttgir"),
              "--json", str(out), "--triton-python", python])
    assert rc == 0
    module = json.loads(out.read_text())["modules"][0]
    before, after = module["before"]["real"], module["after"]["real"]
    assert module["target"] == "hip:gfx942" and module["limit"] == 65536 and module["disagreements"] == []
    assert (before["shared"], after["shared"]) == (65536, 16384)
    assert before["registers"] > 0 and before["vgpr_spill_count"] == 0
    assert all(k.startswith(("global_load", "buffer_load")) for k in before["global_loads"])
    # the epilogue's LDS round trip is gone: fewer ds_write/ds_read, fewer barriers
    assert sum(after["shared_and_barriers"].values()) < sum(before["shared_and_barriers"].values())


def test_intel_xpu_reports_what_triton_xpu_gives():
    python = os.environ.get("IRKIT_XPU_PYTHON")
    if not python:
        pytest.skip("no Intel XPU Triton (IRKIT_XPU_PYTHON=/path/python)")
    report_path = DATA.parent / "intel" / "addmm_bp_bf16_256x256x32_w32_s2.ttgir"
    from irkit.check.static_mode import check_static, read_module_input

    report = check_static([read_module_input(str(report_path))], "propagate-mma{profit=always}", python)
    module = report["modules"][0]
    assert module["target"] == "xpu" and module["before"]["real"]["shared"] == 263168
    assert module["after"]["real"]["shared"] < module["limit"] < module["before"]["real"]["shared"]
    assert "build_flags" in module["before"]["real"]


def test_a_cache_entry_says_its_version(triton31, tmp_path):
    """A Triton cache entry's JSON names the version that wrote it; a different installed one is refused."""
    entry = tmp_path / "cache" / "HASH"
    entry.mkdir(parents=True)
    (entry / "matmul_addmm_bp_kernel.ttgir").write_text(ADDMM_31.read_text())
    (entry / "matmul_addmm_bp_kernel.json").write_text(json.dumps({"shared": 133120, "triton_version": "3.3.1"}))
    p = subprocess.run([sys.executable, "-m", "irkit.check.cli", "-p", "propagate-mma", str(tmp_path / "cache"),
                        "--triton-python", triton31], capture_output=True, text=True, check=False)
    assert p.returncode == 1 and p.stderr.count("\n") == 1
    assert "Triton 3.3.1 IR" in p.stderr and "installed Triton is 3.1" in p.stderr


def test_cache_dir_and_dump_log_inputs(triton31, tmp_path):
    """A Triton cache folder and an MLIR_ENABLE_DUMP log, in one call; from the log, irkit-check takes the
    last section still in TTGIR form (the log ends inside the LLVM lowering)."""
    from irkit.check.static_mode import final_ttgir_section

    dumps = Path(__file__).parent / "data" / "corpus" / "dumps"
    kernel = "matmul_addmm_bp__bf16__BM256_BN256_BK32_G8__w8_s3"
    cache = dumps / "kernel_dump_and_cache" / "3.1.0" / "cuda_80" / kernel / "TRITON_CACHE_DIR"
    log = dumps / "3.1.0" / "cuda_80" / kernel / "mlir_dump.ttgir.txt.gz"
    assert final_ttgir_section(str(log)) == "34"  # before SCFToControlFlow; 35 on has cf.br
    out = tmp_path / "out.json"
    rc = run(["-p", "propagate-mma{profit=always}", str(cache), str(log), "--json", str(out),
              "--triton-python", triton31])
    assert rc == 0
    from_cache, from_log = json.loads(out.read_text())["modules"]
    assert from_cache["target"] == from_log["target"] == "cuda:80"
    assert (from_cache["before"]["real"]["shared"], from_cache["after"]["real"]["shared"]) == (66560, 65536)
    assert from_log["before"]["real"]["shared"] == 66560 and from_log["disagreements"] == []
