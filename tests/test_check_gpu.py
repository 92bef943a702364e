"""On a machine with a GPU, torch and Triton >= 3.4: a short run of the addmm example under irkit-check
passes (every rewritten kernel bit-identical, the table printed).  Skips elsewhere (CI has no GPU)."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from irkit.check.runmode import gpu_present

ROOT = Path(__file__).resolve().parents[1]


def _gpu_python_ready() -> bool:
    if not gpu_present():
        return False
    probe = "import torch, triton; assert torch.cuda.is_available(); print(triton.__version__)"
    p = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=False)
    return p.returncode == 0 and tuple(int(x) for x in p.stdout.strip().split(".")[:2]) >= (3, 4)


@pytest.mark.skipif(not _gpu_python_ready(), reason="needs a GPU, torch and Triton >= 3.4")
def test_addmm_quick_run_is_bit_identical(tmp_path):
    out = tmp_path / "report.json"
    p = subprocess.run([sys.executable, "-m", "irkit.check.cli", "-p", "propagate-mma{profit=always}", "--json", str(out),
                        "--max-seconds", "3", "--", sys.executable, str(ROOT / "examples/gpu/addmm.py"), "--quick"],
                       capture_output=True, text=True, check=False, timeout=900)
    assert p.returncode == 0, p.stderr[-3000:]
    report = json.loads(out.read_text())
    checked = [k for k in report["kernels"] if k["status"] == "checked"]
    assert checked and all(k["bit_identical"] for k in checked)
    assert all(k["static"]["after"]["convert_layout"] < k["static"]["before"]["convert_layout"] for k in checked)
    assert report["best"] and "tuned optimum" in p.stdout
