"""The real Triton's shared memory for a module, as the tests that measure irkit against it ask for it: its
allocation pass run in that Triton's Python (tools/refgen/real_shared.py)."""

from __future__ import annotations

import subprocess
from pathlib import Path

REAL_SHARED = Path(__file__).resolve().parents[1] / "tools" / "refgen" / "real_shared.py"


def real_shared_bytes(python: str, path: Path, as_compiled: bool = False) -> int:
    """The bytes the allocation of the Triton behind `python` gives the module at `path`; `as_compiled`: after
    the passes make_llir runs before it (AMD's optimize-amd-lds-usage)."""
    flags = ["--as-compiled"] if as_compiled else []
    out = subprocess.run([python, str(REAL_SHARED), *flags, str(path)], capture_output=True, text=True, timeout=300,
                         check=True).stdout
    return int(out.split()[-1])


def release_measures(release: str, text: str, tmp_path: Path, as_compiled: bool = False) -> int:
    """The bytes Triton `release` ("3.6.0") gives the module `text`; skips the test where that Triton is not named
    (IRKIT_TRITON_PYTHONS)."""
    import pytest
    from test_check_static import triton_python

    python = triton_python(release.rsplit(".", 1)[0])
    if python is None:
        pytest.skip(f"no Triton {release} (IRKIT_TRITON_PYTHONS)")
    path = tmp_path / "m.ttgir"
    path.write_text(text)
    return real_shared_bytes(python, path, as_compiled)
