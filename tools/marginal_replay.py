"""Which kernels does the marginal-gain check change (`mma_profit.marginal`, docs/propagate-mma-results/notes.md,
round 26)?  For every TTGIR in a folder: the IR model's own decision (`profit=model`); where it removed every
candidate conversion at a summed model gain under `MARGINAL_GAIN` cycles/CTA, the default's decision with the real
compiler, as the pass remarks it: the rewrite stands, is undone as worse (`occupancy.removal_is_worse`, unchanged)
or is undone as marginal (the new check).  Only those kernels can decide differently from before.

    /path/to/triton36/bin/python tools/cost_model_search.py compile --out /tmp/all_ttgir   # and heldout_register.py's
    IRKIT_TRITON_PYTHON=/path/to/triton36/bin/python .venv/bin/python tools/marginal_replay.py /tmp/all_ttgir \\
        --json docs/propagate-mma-results/r27_marginal_replay_cpu.json
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

from profit_rule_ceiling import model_figures  # tools/: the IR model's figures read from the pass's remarks

from irkit.analysis.mma_profit import MARGINAL_GAIN


def remarks(path: Path, pipeline: str) -> list[str]:
    run = subprocess.run([sys.executable, "-m", "irkit", "-p", pipeline, "--mlir-print-remarks", str(path)],
                         capture_output=True, text=True)
    if run.returncode:
        raise SystemExit(f"{path}: irkit-opt failed:\n{run.stderr}")
    return [line for line in run.stderr.splitlines() if "remark: propagate-mma" in line]


def model_takes_all(said: list[str]) -> int | None:
    """The summed model gain where the model removed every candidate conversion (the path the check is on)."""
    moved = [line for line in said if ": moved to" in line]
    if not moved or any("conversion kept" in line for line in said):
        return None
    return int(model_figures(moved)["model_gain"])  # whole cycles, as the remarks print them


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("ttgir", type=Path, help="a folder of TTGIRs")
    ap.add_argument("--json", type=Path, help="write the kernels found here")
    args = ap.parse_args(argv)
    found = []
    for path in sorted(args.ttgir.glob("*.ttgir")):
        gain = model_takes_all(remarks(path, "propagate-mma{profit=model}"))
        if gain is None or gain >= MARGINAL_GAIN:
            continue
        undone = [line for line in remarks(path, "propagate-mma") if "rewrite undone" in line]
        default = "marginal" if any("is marginal, so the rewrite stands only" in line for line in undone) else \
            "worse" if undone else "stands"
        print(path.stem, gain, default, flush=True)
        found.append({"kernel": path.stem, "model_gain": gain, "default": default})
    if args.json:
        args.json.write_text(json.dumps({"command": "tools/marginal_replay.py", "kernels": found}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
