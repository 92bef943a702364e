"""Runs the lit/FileCheck suite in lit_tests/ as part of pytest: under the Python `filecheck`
package, and again under LLVM's FileCheck when one is installed (Debian's `llvm` package ships
/usr/lib/llvm-*/bin/FileCheck), so our lit files stay portable to triton-opt's test suite."""

import glob
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def llvm_filecheck() -> str | None:
    """LLVM's FileCheck: $LLVM_FILECHECK, else `FileCheck` on PATH, else the newest Debian llvm-N."""
    explicit = os.environ.get("LLVM_FILECHECK")
    if explicit:
        return explicit
    on_path = shutil.which("FileCheck")
    if on_path:
        return on_path
    versions = sorted(glob.glob("/usr/lib/llvm-*/bin/FileCheck"), key=lambda p: int(p.split("llvm-")[1].split("/")[0]))
    return versions[-1] if versions else None


def run_lit(filecheck: str | None, *paths: str) -> subprocess.CompletedProcess:
    cmd = [sys.executable, "-c", "from lit.main import main; main()", "-q"]
    if filecheck:
        cmd += ["-D", f"FILECHECK={filecheck}"]
    return subprocess.run([*cmd, *(paths or [str(ROOT / "lit_tests")])], capture_output=True, text=True, check=False)


def test_lit_suite_python_filecheck():
    proc = run_lit(None)
    assert proc.returncode == 0, proc.stdout[-8000:] + proc.stderr[-4000:]


def test_lit_suite_llvm_filecheck():
    found = llvm_filecheck()
    if found is None:
        pytest.skip("LLVM FileCheck not installed (apt-get install llvm); the suite ran under Python filecheck")
    proc = run_lit(found)
    assert proc.returncode == 0, proc.stdout[-8000:] + proc.stderr[-4000:]


def test_filecheck_parameter_is_honoured(tmp_path):
    # a FileCheck that does not exist stops lit at configuration, naming the choice
    proc = run_lit(str(tmp_path / "no-such-FileCheck"), str(ROOT / "lit_tests" / "frontend" / "ops-tt.mlir"))
    assert proc.returncode != 0
    assert "no-such-FileCheck" in proc.stdout + proc.stderr
