"""Where ptxas's spill code sits in a kernel: local-memory stores and loads (STL/LDL) and barriers inside
loops and outside them, in the SASS of TTGIR files compiled for cuda:90, one JSON object per file.

    /path/to/triton36/bin/python tools/sass_loop_spills.py KERNEL.ttgir ... > spills.jsonl

Runs under a Python with Triton (3.4+, whose wheel carries nvdisasm); no GPU is needed.  A loop is the span
from a label to a later branch back to it.  Spill bytes alone (ptxas -v, what `propagate-mma{profit=auto}`
reads) do not say where the spill code runs: a reload inside the main loop runs once per iteration, one in the
epilogue once.  Used for docs/propagate-mma-results.md, round 10.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

# irkit's SASS reader and the compile worker's disassembly (both plain Python) from this checkout: this tool runs
# under Triton's Python, where irkit need not be installed
sys.path[:0] = [str(Path(__file__).resolve().parents[1] / "irkit" / "check")]
import binary_metrics  # noqa: E402
import compile_worker  # noqa: E402


def sass_of(path: str) -> str:
    import triton
    from triton.backends.compiler import GPUTarget

    kernel = triton.compile(path, target=GPUTarget("cuda", 90, 32))
    return compile_worker.sass_of(triton, kernel.asm["cubin"])


def counts(sass: str) -> dict[str, int]:
    """Spill stores, reloads and barriers inside loops and outside (binary_metrics.sass_instruction_counts)."""
    by_family = binary_metrics.sass_instruction_counts(sass)
    return {f"{family}_{where}": by_family.get(f"{family}_{key}", 0)
            for family in ("stl", "ldl", "bar") for key, where in (("loop", "in_loops"), ("out", "outside"))}


def main(argv: list[str]) -> int:
    for path in argv:
        print(json.dumps({"file": os.path.basename(path), **counts(sass_of(path))}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
