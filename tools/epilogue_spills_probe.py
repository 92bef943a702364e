"""Where would the epilogue's spills take a rewrite at another line?  A probe of the rule that lets the compiler's
figures take a rewrite in a launch that is its epilogue (`occupancy._epilogue_spills_pay`, session 20; notes.md,
session 21).

`log` runs the pass on each kernel of `heldout_register.py compile`'s folders (one per program, named as the program)
as `heldout_register.py decide` does, with the rule wrapped so that every call records the spills either way and
what its three guards answer (fewer CTAs, the SASS veto, the stores against the spill traffic saved).  `table` sets
those records against the latest runs' `profit=always` signs (`propagate_mma_round.latest_runs`): how many the rule
would take at each line, and each kernel the guards let through.

    IRKIT_TRITON_PYTHON=/path/to/triton36/bin/python .venv/bin/python tools/epilogue_spills_probe.py log \\
        /tmp/r49_ttgir/{lora,latent,...} > docs/propagate-mma-results/r49_epilogue_spills_cpu.jsonl
    .venv/bin/python tools/epilogue_spills_probe.py table docs/propagate-mma-results/r49_epilogue_spills_cpu.jsonl

`opt` is irkit-opt with the rule wrapped, what `log` runs for each kernel.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import cost_model_search as launches  # tools/: kernel keys
import heldout_register  # tools/: the programs' kernels and the pipeline their launches run
import propagate_mma_round as rounds  # tools/: each program's latest run

RECORD = "epilogue-spills: "  # the prefix of a record on irkit-opt's stderr
LINES = (128, 256, 384, 448, 512, 576, 640)  # spill falls (B per thread) `table` counts takes at


def opt(argv: list[str]) -> None:
    """irkit-opt, every call of the epilogue-bound rule recorded on stderr."""
    import irkit.analysis.occupancy as occupancy
    from irkit.cli.opt import main

    rule = occupancy._epilogue_spills_pay

    def recorded(kept, removed, num_warps, trips, store_sectors_added, fewer_ctas, change, figures):
        stores = occupancy.stores_outweigh_spills(kept, removed, store_sectors_added, num_warps, trips)
        print(RECORD + json.dumps({
            "spills": [kept.spill_bytes, removed.spill_bytes], "trips": trips, "fewer_ctas": fewer_ctas,
            "vetoed": occupancy.sass_cost_decides(change) is False, "stores_outweigh": stores is not None,
            "store_sectors_added": store_sectors_added,
            "spill_ops": [occupancy.spill_ops_executed(kept, trips), occupancy.spill_ops_executed(removed, trips)]}),
            file=sys.stderr)
        return rule(kept, removed, num_warps, trips, store_sectors_added, fewer_ctas, change, figures)

    occupancy._epilogue_spills_pay = recorded
    sys.argv = ["irkit-opt", *argv]
    main()


def log(folders: list[Path]) -> None:
    """One JSON line per kernel: its program, its key and the rule's calls (none where the launch is not its
    epilogue)."""
    for folder in folders:
        program = folder.name
        for k in heldout_register.PROGRAMS[program]():
            key = launches.kernel_key(k)
            path = folder / f"{key}.ttgir"
            run = subprocess.run([sys.executable, __file__, "opt", "-p", heldout_register.launch_pipeline(program, k, path),
                                  "--mlir-print-remarks", str(path)], capture_output=True, text=True)
            if run.returncode:
                raise SystemExit(f"{path}: irkit-opt failed:\n{run.stderr}")
            calls = [json.loads(line[len(RECORD):]) for line in run.stderr.splitlines() if line.startswith(RECORD)]
            print(json.dumps({"program": program, "kernel": key, "calls": calls}), flush=True)


def passes_guards(call: dict) -> bool:
    return not (call["fewer_ctas"] or call["vetoed"] or call["stores_outweigh"])


def takes_at(records: list[dict], signs: dict[str, str], line: int) -> Counter:
    """The measured signs of the kernels the rule would take were its line `line` B: the first call's spills fall by
    that much and its guards pass."""
    taken: Counter = Counter()
    for r in records:
        if r["calls"] and r["kernel"] in signs:
            call = r["calls"][0]
            if call["spills"][0] - call["spills"][1] >= line and passes_guards(call):
                taken[signs[r["kernel"]]] += 1
    return taken


def table(files: list[Path]) -> None:
    """`log`'s records against the latest runs' `profit=always` signs."""
    rows = rounds.latest_rows()
    signs = {key: row["sign"] for key, row in rows.items()}
    records = [json.loads(line) for f in files for line in f.read_text().splitlines() if line.strip()]
    print(f"{sum(bool(r['calls']) for r in records)} epilogue-bound kernels of {len(records)}")
    for line in LINES:
        print(f"line {line} B: takes {dict(sorted(takes_at(records, signs, line).items()))}")
    print("guards pass, spills fall by 100 B or more (fall, before -> after, profit=always's sign and ratio):")
    passed = [(r["calls"][0], r) for r in records if r["calls"] and r["kernel"] in signs and passes_guards(r["calls"][0])]
    for call, r in sorted(passed, key=lambda p: p[0]["spills"][1] - p[0]["spills"][0]):
        fall = call["spills"][0] - call["spills"][1]
        if fall >= 100:
            print(f"  {fall:5d} B ({call['spills'][0]} -> {call['spills'][1]})  {signs[r['kernel']]:6s} "
                  f"{rows[r['kernel']]['always']['ratio']:.3f}  {r['program']} {r['kernel']}")


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["opt"]:
        opt(argv[1:])
        return 0
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("step", choices=("log", "table"))
    ap.add_argument("paths", nargs="+", type=Path, help="log: heldout_register's folders; table: log's records")
    args = ap.parse_args(argv)
    (log if args.step == "log" else table)(args.paths)
    return 0


if __name__ == "__main__":
    sys.exit(main())
