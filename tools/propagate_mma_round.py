"""Sum up one GPU round of propagate-mma: for each program, what the default did to its kernels against what was
registered before the run, and what the GPU measured (docs/propagate-mma-results/notes.md, round 19).

    .venv/bin/python tools/propagate_mma_round.py r19 --predictions r19_predictions_cpu.txt \\
        --json docs/propagate-mma-results/r19_summary.json
    .venv/bin/python tools/propagate_mma_round.py latest --json docs/propagate-mma-results/latest_summary.json

`latest` sums up each program's latest run with the default options instead (the results page's FAMILIES, the
highest round), and lists its misses by kernel: gains the default left alone, rewrites `profit=always` ran slower,
and rewrites slower than 1% in their own run.  With `--predictions` (today's default decided on this CPU,
`tools/heldout_register.py decide`) it also replays the runs with those decisions (`replayed`).

Reads docs/propagate-mma-results/<round>_<program>_default.json and <round>_<program>_always.json (irkit-check's
reports, `tools/propagate_mma_gpu_run.sh`) for every program of the script found there.  Per program and in all:
- rewrites: kernels the default changed; against the registered decisions (`kernel: rewrite | keep` lines);
- the rewrites' own timings: bit-identical, faster, within noise, slower than 1% (`measured_sign`);
- signs: the default's decision against `profit=always`'s measured sign (either decision agrees within noise);
  with `latest`, also with each partial rewrite judged by its own run instead (`signs_partial_own`);
- gain kept: where `profit=always` is faster, the default's speed-up summed over those kernels, over `profit=always`'s;
- tuned optimum: the fastest config of each kernel and size, before and with the default.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

import propagate_mma_results as table  # tools/: kernel names, rows and the measured sign
from cost_model_search import kernel_key

DATA = table.DATA
PROGRAMS = tuple(table.PROGRAMS)  # the names tools/propagate_mma_gpu_run.sh gives them


def registered(path: Path) -> dict[str, bool]:
    """kernel key -> whether the default was registered to rewrite it."""
    out = {}
    for line in path.read_text().splitlines():
        m = re.match(r"\S+ (\S+): (rewrite|keep);", line)
        if m:
            out[m.group(1)] = m.group(2) == "rewrite"
    return out


def _judged_kernels(report: str) -> dict[tuple[str, str], dict]:
    """The kernels of the run judged, by the (group, config) its rows (`propagate_mma_results._rows`) carry."""
    return {(table.group_of(k), table.config_of(k)): k for k in json.loads((DATA / report).read_text())["kernels"]}


def _round_of(report: str) -> int:
    """The round a report's file name carries: r47_lora_default.json, h100_addmm_default_r6.json."""
    m = re.match(r"r(\d+)_", report) or re.search(r"_r(\d+)\.json$", report)
    return int(m.group(1)) if m else 0


def latest_runs() -> dict[str, tuple[str, str]]:
    """program -> its latest run with the default options and the `profit=always` run it is judged against."""
    name_of = {path: name for name, path in table.PROGRAMS.items()}
    latest: dict[str, tuple[str, str]] = {}
    for program, _, judged, always, _, _, options in table.FAMILIES:
        name = name_of[program]
        if options == "default" and (name not in latest or _round_of(judged) > _round_of(latest[name][0])):
            latest[name] = (judged, always)
    return latest


def latest_rows() -> dict[str, dict]:
    """kernel key -> its row (`propagate_mma_results._rows`: `profit=always`'s sign and timing, the decision) in its
    program's latest run."""
    rows = {}
    for judged, always in latest_runs().values():
        kernels = _judged_kernels(judged)
        rows |= {kernel_key(kernels[(r["group"], r["config"])]): r for r in table._rows(judged, always)}
    return rows


def misses(default_file: str, always_file: str) -> dict[str, list[str]]:
    """A run's kernels where the default and the GPU disagree, each as `key ratio`: gains left alone (`profit=always`
    faster, kernel kept), rewrites `profit=always` ran slower, and rewrites slower than 1% in their own run."""
    default = _judged_kernels(default_file)
    out: dict[str, list[str]] = {"gains_left_alone": [], "slower_rewrites": [], "own_run_slower": []}
    for r in table._rows(default_file, always_file):
        k = default[(r["group"], r["config"])]
        always = f"{kernel_key(k)} {r['always']['ratio']:.3f}"
        if r["sign"] == "faster" and not r["changed"]:
            out["gains_left_alone"].append(always)
        if r["sign"] == "slower" and r["changed"]:
            out["slower_rewrites"].append(always)
        if r["changed"] and table.measured_sign(k["timing"]) == "slower":
            out["own_run_slower"].append(f"{kernel_key(k)} {k['timing']['ratio']:.3f}")
    return out


def replayed(default_file: str, always_file: str, predicted: dict[str, bool]) -> dict:
    """A run's kernels as the registered decisions (`predicted`, today's default on this CPU) would have run them:
    signs, and the rewrites slower than 1%, by the run's own timing where the decision is the run's and by
    `profit=always`'s where the decision now rewrites a kernel the run kept (the same code where the rewrite is
    whole).  Kernels with no registered decision count as run."""
    default = _judged_kernels(default_file)
    signs, slower, flipped = 0, [], []
    for r in table._rows(default_file, always_file):
        k = default[(r["group"], r["config"])]
        key = kernel_key(k)
        rewrites = predicted.get(key, r["changed"])
        if rewrites != r["changed"]:
            flipped.append(f"{key}: {'rewrite' if rewrites else 'keep'} (always {r['always']['ratio']:.3f})")
        signs += r["sign"] == "noise" or (r["sign"] == "faster") == rewrites
        timing = (k["timing"] if r["changed"] else r["always"]) if rewrites else None
        if timing is not None and table.measured_sign(timing) == "slower":
            slower.append(f"{key} {timing['ratio']:.3f}")
    return {"signs": signs, "own_run_slower": slower, "decided_otherwise": flipped}


def _agrees_as_run(row: dict, kernel: dict) -> bool:
    """The row's sign, except that a partial rewrite (some conversions kept) is judged by its own run: its code is
    not `profit=always`'s, so that run's sign is another kernel's."""
    if row["changed"] and row["verdict"] == "partial":
        return table.measured_sign(kernel["timing"]) != "slower"
    return row["agree"]


def signs_partial_own(default_file: str, always_file: str) -> int:
    """A run's signs with each partial rewrite judged by its own run (`_agrees_as_run`)."""
    default = _judged_kernels(default_file)
    return sum(_agrees_as_run(r, default[(r["group"], r["config"])]) for r in table._rows(default_file, always_file))


def program_summary(default_file: str, always_file: str, predicted: dict[str, bool]) -> dict:
    rows = table._rows(default_file, always_file)
    default = _judged_kernels(default_file)
    rewrites, mismatched, identical, own = [], [], 0, {"faster": 0, "noise": 0, "slower": 0}
    gain_always = gain_default = 0.0
    registered_kernels = registered_rewrites = 0
    for r in rows:
        k = default[(r["group"], r["config"])]
        key = kernel_key(k)
        registered_kernels += key in predicted
        registered_rewrites += predicted.get(key, False)
        if key in predicted and predicted[key] != r["changed"]:
            mismatched.append(f"{key}: {'rewritten' if r['changed'] else 'kept'}")
        if r["changed"]:
            rewrites.append(key)
            identical += bool(k.get("bit_identical"))
            own[table.measured_sign(k["timing"])] += 1
        if r["sign"] == "faster":
            gain_always += 1 / r["always"]["ratio"] - 1
            gain_default += 1 / r["model_ratio"] - 1
    optimum = {}
    for group, rs in table._by_group(rows).items():
        before = max(r["tflops"][0] for r in rs)
        optimum[group] = {"before_tflops": round(before), "default_tflops": round(max(r["tflops"][2] for r in rs)),
                          "always_tflops": round(max(r["tflops"][1] for r in rs))}
    return {"kernels": len(rows), "rewrites": len(rewrites), "registered": registered_kernels,
            "registered_rewrites": registered_rewrites, "not_as_registered": mismatched, "bit_identical": identical,
            "rewrites_measured": own,
            "signs": sum(r["agree"] for r in rows), "always_faster": sum(r["sign"] == "faster" for r in rows),
            "always_slower": sum(r["sign"] == "slower" for r in rows),
            "gain_always": round(gain_always, 4), "gain_default": round(gain_default, 4), "tuned_optimum": optimum}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("round", help="the files' prefix in docs/propagate-mma-results/, e.g. r19; or `latest`, each "
                                  "program's latest run with the default options")
    ap.add_argument("--predictions", help="the registered decisions, a file in docs/propagate-mma-results/")
    ap.add_argument("--json", type=Path, help="write the summary here")
    ap.add_argument("--always-from", metavar="ROUND",
                    help="for a program this round ran with the default only, that round's profit=always run (the "
                         "same compiled kernels; round 19 measured their signs repeatable)")
    args = ap.parse_args(argv)
    predicted = registered(DATA / args.predictions) if args.predictions else {}
    if args.predictions and not predicted:
        ap.error(f"{args.predictions}: no `PROGRAM KERNEL: rewrite | keep;` lines (rounds before 19 registered "
                 "theirs in another form)")
    report: dict = {"command": "tools/propagate_mma_round.py " + " ".join(sys.argv[1:] if argv is None else argv),
                    "programs": {}}
    latest = latest_runs() if args.round == "latest" else {}
    for program in PROGRAMS:
        files = latest.get(program) or (f"{args.round}_{program}_default.json", f"{args.round}_{program}_always.json")
        if args.always_from and not (DATA / files[1]).exists():
            files = (files[0], f"{args.always_from}_{program}_always.json")
        if all((DATA / f).exists() for f in files):
            report["programs"][program] = program_summary(*files, predicted)
            if latest:
                report["programs"][program] |= {"runs": list(files), **misses(*files),
                                                 "signs_partial_own": signs_partial_own(*files)}
                if predicted:
                    report["programs"][program]["replayed"] = replayed(*files, predicted)
    keys = ("kernels", "rewrites", "registered", "registered_rewrites", "bit_identical", "signs", "always_faster",
            "always_slower", "gain_always", "gain_default")
    total = {k: round(sum(p[k] for p in report["programs"].values()), 4) for k in keys}
    total["rewrites_measured"] = {s: sum(p["rewrites_measured"][s] for p in report["programs"].values())
                                  for s in ("faster", "noise", "slower")}
    total["not_as_registered"] = sum(len(p["not_as_registered"]) for p in report["programs"].values())
    report["total"] = total
    for program, p in [*report["programs"].items(), ("all", total)]:
        m, off = p["rewrites_measured"], p["not_as_registered"]
        print(f"{program:10s} {p['kernels']:3d} kernels; rewrites {p['rewrites']:3d} (registered "
              f"{p['registered_rewrites']}, not as registered {off if isinstance(off, int) else len(off)}); "
              f"bit-identical {p['bit_identical']}; ran faster {m['faster']}, noise {m['noise']}, slower {m['slower']}; "
              f"signs {p['signs']} ({p['signs'] / p['kernels']:.1%}); gain kept {p['gain_default']:.3f} of "
              f"{p['gain_always']:.3f}")
    if latest:
        total["signs_partial_own"] = sum(p["signs_partial_own"] for p in report["programs"].values())
        print(f"signs with each partial rewrite judged by its own run: {total['signs_partial_own']} "
              f"({total['signs_partial_own'] / total['kernels']:.1%})")
    for program, p in report["programs"].items():
        for miss in p["not_as_registered"]:
            print(f"  not as registered: {program} {miss}")
    if latest and predicted:
        replays = [p["replayed"] for p in report["programs"].values()]
        total["replayed"] = {"signs": sum(r["signs"] for r in replays),
                             "own_run_slower": sum(len(r["own_run_slower"]) for r in replays),
                             "decided_otherwise": sum(len(r["decided_otherwise"]) for r in replays)}
        print(f"replayed with the registered decisions: signs {total['replayed']['signs']} "
              f"({total['replayed']['signs'] / total['kernels']:.1%}); decided otherwise than run "
              f"{total['replayed']['decided_otherwise']}; rewrites slower than 1% {total['replayed']['own_run_slower']}")
        for program, p in report["programs"].items():
            print("".join(f"  {program} {m}\n" for m in p["replayed"]["decided_otherwise"]), end="")
            print("".join(f"  slower: {program} {m}\n" for m in p["replayed"]["own_run_slower"]), end="")
    if latest:
        for kind in ("gains_left_alone", "slower_rewrites", "own_run_slower"):
            found = [f"{program} {m}" for program, p in report["programs"].items() for m in p[kind]]
            total[kind] = len(found)
            print(f"{kind.replace('_', ' ')}: {len(found)}")
            if kind != "gains_left_alone":
                print("".join(f"  {m}\n" for m in found), end="")
    if args.json:
        args.json.write_text(json.dumps(report, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
