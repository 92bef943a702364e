"""Memory bounds on any input: one module past the module cap is a one-line positioned error, exit 1.

The caps are read from the environment when irkit is imported, so each case runs irkit-opt in a
subprocess with a small cap and an input just over it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "addmm_gfx942_256x256.ttgir"


def _run(path: Path, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "irkit", str(path), "-o", os.devnull],
        capture_output=True, text=True, env={**os.environ, **env}, timeout=120,
    )


def test_module_over_the_module_cap_is_one_error_line(tmp_path):
    big = tmp_path / "big.ttgir"
    # a real module padded with comment lines past 1 MiB: still one module, over a 1 MiB cap
    big.write_text(EXAMPLE.read_text() + ("// padding padding padding padding padding padding\n" * 25_000))
    result = _run(big, IRKIT_MAX_MODULE_MB="1")
    assert result.returncode == 1, result.stderr
    first = result.stderr.splitlines()[0]
    assert first.startswith(f"{big}:1:1: error: this module holds 1 MiB of text; irkit parses at most 1 MiB")
    assert "Traceback" not in result.stderr


def test_module_under_the_cap_still_parses(tmp_path):
    result = _run(EXAMPLE, IRKIT_MAX_MODULE_MB="1")
    assert result.returncode == 0, result.stderr
