"""Each kernel's latency schedule, before and after propagate-mma: cycles outside loops and per steady-state
loop iteration (`binary_metrics.sass_outside_loop_cycles`, `binary_metrics.sass_loop_cycles`: one warp issuing in
order, each instruction waiting for the registers it reads).  The figures behind round 21's rule, which round 22
refuted (docs/propagate-mma-results/notes.md), for the kernels timed so far, without a GPU.

    # under a Python with Triton 3.4+ (its wheel carries nvdisasm); no GPU is needed; compiles for cuda:90
    /path/to/triton36/bin/python tools/sass_schedule.py --before DIR --after DIR > pairs.jsonl

Each output line: {"kernel": the TTGIR's stem, "before": figures, "after": figures} for the files of the same
name in the two folders (the original TTGIRs, and `propagate-mma{profit=always}`'s outputs)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

# irkit's SASS reader from this checkout (plain Python): this tool runs under Triton's Python, where irkit need
# not be installed
sys.path[:0] = [str(Path(__file__).resolve().parents[1] / "irkit" / "check")]
import binary_metrics  # noqa: E402


def figures(sass: str) -> dict[str, float]:
    return {"cycles_outside_loops": binary_metrics.sass_outside_loop_cycles(sass),
            "cycles_per_iteration": binary_metrics.sass_loop_cycles(sass)}


def _compiled_sass(path: Path) -> str:
    import compile_worker
    import triton

    compiled = triton.compile(str(path), target=compile_worker.gpu_target("cuda:90"))
    return compile_worker.sass_of(triton, compiled.asm["cubin"])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--before", type=Path, required=True, help="folder of original TTGIRs")
    ap.add_argument("--after", type=Path, required=True, help="folder of the same names after the pass")
    args = ap.parse_args(argv)
    for before in sorted(args.before.glob("*.ttgir")):
        row: dict = {"kernel": before.stem}
        try:
            row["before"] = figures(_compiled_sass(before))
            row["after"] = figures(_compiled_sass(args.after / before.name))
        except Exception as exc:  # one kernel's failure is reported, the rest still run
            row["error"] = f"{type(exc).__name__}: {exc}"
        print(json.dumps(row), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
