"""Static figures of a kernel's compiled code, before and after `propagate-mma{profit=always}`: what ptxas
allocated (registers, spill bytes) and, in the SASS, how many instructions of each kind sit inside loops and
outside them.  One JSON object per TTGIR, for fitting and cross-checking profit rules against the timings in
docs/propagate-mma-results/ (docs/propagate-mma-results.md, "Round 14").

    .venv/bin/irkit-opt -p 'propagate-mma{profit=always}' K.ttgir -o K.after.ttgir     # for each kernel
    /path/to/triton36/bin/python tools/loop_features.py K.ttgir K.after.ttgir ... > features.jsonl

Runs under a Python with Triton (3.4+, whose wheel carries nvdisasm); no GPU is needed.  Compiles for cuda:90.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

# irkit's SASS and ptxas readers and the compile worker (plain Python) from this checkout: this tool runs under
# Triton's Python, where irkit need not be installed
sys.path[:0] = [str(Path(__file__).resolve().parents[1] / "irkit" / "check")]
import binary_metrics  # noqa: E402
import compile_worker  # noqa: E402


def figures(path: str) -> dict:
    import triton

    compiled = triton.compile(path, target=compile_worker.gpu_target("cuda:90"))
    ptx = compiled.asm["ptx"]
    log = compile_worker.ptxas_log(ptx, compile_worker.ptxas_path(triton, ptx)) or ""
    res = binary_metrics.ptxas_resources(log) or {}
    sass = compile_worker.sass_of(triton, compiled.asm["cubin"])
    return {"registers": res.get("registers"), "spill_store_bytes": res.get("spill_store_bytes"),
            "spill_load_bytes": res.get("spill_load_bytes"), "shared": compiled.metadata.shared,
            "reload_exposure": binary_metrics.sass_loop_reload_exposure(sass),
            **binary_metrics.sass_instruction_counts(sass)}


def main(argv: list[str]) -> int:
    for path in argv:
        try:
            row = {"file": os.path.basename(path), **figures(path)}
        except Exception as exc:  # one kernel's failure is reported, the rest still run
            row = {"file": os.path.basename(path), "error": f"{type(exc).__name__}: {exc}"}
        print(json.dumps(row), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
