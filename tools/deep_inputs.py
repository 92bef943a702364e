"""Heavy inputs under the caps: nesting 10,000 deep in regions, attributes, types and locations, a 10 MB
string, 50,000 nested dictionaries, one million `[`; wall time and peak RSS of irkit-opt and irkit-report.

    python tools/deep_inputs.py --json docs/deep-inputs.json

Each command runs in a child process; its peak RSS is the child's ru_maxrss.  The figures go to
docs/reliability.md (machine and load as said there)."""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

DEPTH = 10_000


def inputs() -> dict[str, str]:
    from test_mutations import nested_ifs

    callsite = '"f":1:1'
    fused = '"f":1:1'
    name = '"f":1:1'
    for _ in range(DEPTH):
        callsite = f'callsite({callsite} at "g":2:2)'
        fused = f"fused[{fused}]"
        name = f'"n"({name})'
    blocked = "#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>"
    slice_ = blocked
    for _ in range(DEPTH):
        slice_ = f"#ttg.slice<{{dim = 0, parent = {slice_}}}>"
    return {
        "regions: 10,000 nested scf.if": nested_ifs(DEPTH),
        "attribute: 10,000 nested [": f"module attributes {{x = {'[' * DEPTH}1{']' * DEPTH}}} {{\n}}\n",
        "attribute: 10,000 nested dictionaries": f"module attributes {{x = {'{a = ' * DEPTH}1{'}' * DEPTH}}} {{\n}}\n",
        "attribute: 50,000 nested dictionaries": f"module attributes {{x = {'{a = ' * 50_000}1{'}' * 50_000}}} {{\n}}\n",
        "attribute: 10,000 nested #ttg.slice": f"module attributes {{x = {slice_}}} {{\n}}\n",
        "type: 10,000 nested tensor<>": f"module attributes {{x = {'tensor<1x' * DEPTH}i32{'>' * DEPTH}}} {{\n}}\n",
        "type: 10,000 nested !tt.ptr<>": f"module attributes {{x = {'!tt.ptr<' * DEPTH}i32{'>' * DEPTH}}} {{\n}}\n",
        "location: 10,000 nested callsite (in an alias)": f"#loc1 = loc({callsite})\nmodule {{\n}} loc(#loc1)\n",
        "location: 10,000 nested fused": f"module {{\n}} loc({fused})\n",
        "location: 10,000 nested names": f"module {{\n}} loc({name})\n",
        "string: 10 MB attribute": 'module attributes {x = "' + "a" * (10 << 20) + '"} {\n}\n',
        "attribute: 1,000,000 nested [ (past the nesting limit)": f"module attributes {{x = {'[' * 1_000_000}1{']' * 1_000_000}}} {{\n}}\n",
    }


def measure(command: str, path: Path) -> dict:
    probe = ("import resource, subprocess, sys, time; t = time.time(); "
             "p = subprocess.run(sys.argv[1:], capture_output=True, text=True, timeout=300); "
             "print(p.returncode, round(time.time() - t, 2), resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024); "
             "sys.stderr.write(p.stderr[:300])")
    argv = [sys.executable, "-c", f"from irkit.cli.{command} import main; main()", str(path), "-o", os.devnull]
    done = subprocess.run([sys.executable, "-c", probe, *argv], capture_output=True, text=True, timeout=400)
    code, seconds, peak = done.stdout.split()
    first = done.stderr.splitlines()[0][:160] if done.stderr else ""
    return {"exit": int(code), "seconds": float(seconds), "peak_mb": int(peak), "stderr": first}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--json", type=Path, default=None)
    args = ap.parse_args(argv)
    rows = []
    start = time.time()
    with tempfile.TemporaryDirectory() as tmp:
        for i, (what, text) in enumerate(inputs().items()):
            path = Path(tmp) / f"in{i}.mlir"
            path.write_text(text)
            for command in ("opt", "report"):
                row = {"input": what, "bytes": len(text.encode()), "command": f"irkit-{command}", **measure(command, path)}
                rows.append(row)
                print(f"{what:55} irkit-{command:7} exit {row['exit']} {row['seconds']:6.2f} s {row['peak_mb']:5d} MB "
                      f"{row['stderr'][:60]}")
    result = {"command": "python tools/deep_inputs.py " + " ".join(argv if argv is not None else sys.argv[1:]),
              "rows": rows, "seconds": round(time.time() - start), "max_rss_limit_mb": 1024,
              "cpus": os.cpu_count(), "load": os.getloadavg()}
    if args.json:
        args.json.write_text(json.dumps(result, indent=1) + "\n")
    bad = [r for r in rows if r["seconds"] > 30 or r["peak_mb"] > 1024 or r["exit"] not in (0, 1)
           or "internal error" in r["stderr"] or "Traceback" in r["stderr"]]
    return 1 if bad else 0


if __name__ == "__main__":
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    sys.exit(main())
