"""Summarize tools/gpu_host_timing/run.sh output: median µs per launch before/after, with the calls counted and
irkit's predicted per-iteration cost (irkit/analysis/launch_cost.py) beside the measured one.

    python tools/gpu_host_timing/summarize.py docs/gpu-host/h100-seed-loop.jsonl > docs/gpu-host/h100-seed-loop.json
"""

from __future__ import annotations

import json
import statistics
import sys
from pathlib import Path

from irkit.analysis.launch_cost import COST_US, scf_loops
from irkit.frontend.parser import parse_text

ROOT = Path(__file__).resolve().parents[2]


def predicted(text: str) -> dict:
    (loop,) = scf_loops(parse_text(text, "x.mlir").module, lambda op: "")
    return {"calls_per_iter_mlir22": loop.per_iteration("22"),
            "us_per_iter": {rt: round(loop.cost_us("22", rt), 1) for rt in COST_US}}


def main(path: str) -> None:
    rows = [json.loads(line) for line in Path(path).read_text().splitlines() if line.strip()]
    seed = (ROOT / "tests/data/gpu_host/seed.mlir").read_text()
    from irkit.check.rewrite import rewrite_module

    after_text = rewrite_module(seed, "seed.mlir", "hoist-launch-stream").text
    out = {"input": "tests/data/gpu_host/seed.mlir (1000 launches of an empty kernel, 1x1x1)", "variants": {}}
    for variant, text in (("before", seed), ("after", after_text)):
        mine = [r for r in rows if r.get("variant") == variant and "us_per_call" in r]
        per_launch = [t / r["launches_per_call"] for r in mine for t in r["us_per_call"]]
        per_process = [statistics.median(r["us_per_call"]) / r["launches_per_call"] for r in mine]
        counts = mine[0]["counts_timed_calls"] if mine else {}
        calls = {k: v // sum(len(r["us_per_call"]) for r in mine[:1]) for k, v in counts.items()}
        out["variants"][variant] = {
            "processes": len(mine), "timed_calls_per_process": len(mine[0]["us_per_call"]) if mine else 0,
            "median_us_per_launch": round(statistics.median(per_launch), 2),
            "per_process_median_us_per_launch": [round(x, 2) for x in per_process],
            "calls_per_1000_launch_call": calls,
            "predicted": predicted(text)}
    b, a = out["variants"]["before"]["median_us_per_launch"], out["variants"]["after"]["median_us_per_launch"]
    out["speedup"] = round(b / a, 2)
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main(sys.argv[1])
