"""Runs the lit/FileCheck suite in lit_tests/ as part of pytest."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_lit_suite():
    proc = subprocess.run(
        [sys.executable, "-c", "from lit.main import main; main()", "-q", str(ROOT / "lit_tests")],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stdout[-8000:] + proc.stderr[-4000:]
