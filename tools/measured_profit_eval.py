"""Judge propagate-mma's measured decisions (`profit=auto` under irkit-check's run mode, which times the candidates
on the GPU: irkit/analysis/kernel_timer.py) against each program's latest `profit=always` run, an earlier and
independent measurement of the same kernels (`propagate_mma_round.latest_runs`).

    .venv/bin/python tools/measured_profit_eval.py RUN_DIR [--prefix s24_] [--json OUT.json]

RUN_DIR holds `<prefix><program>_default.json`, irkit-check's reports of the new runs (`tools/propagate_mma_gpu_run.sh`
with FLAGS="--each-size --max-pairs 0"). Each kernel found in both runs (`cost_model_search.kernel_key`) counts:
- its decision: rewritten or kept, and the decision's own timing (the remark's after/before [95%]);
- its sign: `profit=always`'s in the earlier run, beyond 1% and its interval (`propagate_mma_results.measured_sign`);
  either decision agrees within noise;
- slower: a rewrite whose earlier `profit=always` run was slower than 1% (the same code where the decision took
  every conversion out); gains left alone: kept where `profit=always` was faster.
- a partial rewrite (the decision took the model's module where it differs from `profit=always`'s) is judged by
  the latest default run's own timing of it instead, where that run rewrote the kernel too (the same practice as
  `propagate_mma_round.py latest`'s "each partial rewrite judged by its own run"); `sign_by` says which.
The static default's signs on the same kernels (the latest default run's decisions) are given beside.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

import propagate_mma_results as table  # tools/: the measured sign
import propagate_mma_round as rounds  # tools/: each program's latest runs
from cost_model_search import kernel_key

TIMED = re.compile(r"(every conversion removed|the model's rewrite): after/before ([\d.]+) \[([\d.]+), ([\d.]+)\]")


def decision_timings(remarks: list[str]) -> dict[str, list[float]]:
    """What the pass timed before deciding, from its remarks: candidate -> [ratio, low, high]."""
    out: dict[str, list[float]] = {}
    for remark in remarks:
        for m in TIMED.finditer(remark):
            out[m.group(1)] = [float(m.group(2)), float(m.group(3)), float(m.group(4))]
    return out


def picked(timed: dict[str, list[float]]) -> str | None:
    """The candidate the measured decision took (`PropagateMmaPass._measure`): of those whose whole interval lies
    below 1, the one of lowest ratio.  The remarks print three decimals, so a bound printed 1.000 may lie below 1:
    it counts (`timed` comes from a rewritten kernel's remarks, or from a kept one's, where none is below)."""
    faster = {what: t for what, t in timed.items() if t[2] <= 1.0}
    return min(faster, key=lambda what: faster[what][0]) if faster else None


def judge(run_dir: Path, prefix: str = "") -> dict:
    latest = rounds.latest_runs()
    programs = {}
    for report in sorted(run_dir.glob(f"{prefix}*_default.json")):
        program = report.name[len(prefix): -len("_default.json")]
        if program not in latest:
            continue
        judged_file, always_file = latest[program]
        always = {kernel_key(k): k for k in json.loads((table.DATA / always_file).read_text())["kernels"]
                  if k.get("timing")}
        static = {kernel_key(k): k for k in json.loads((table.DATA / judged_file).read_text())["kernels"]}
        rows, unmatched = [], 0
        for k in json.loads(report.read_text())["kernels"]:
            if k.get("status") not in ("checked", "unchanged"):
                continue
            key = kernel_key(k)
            if key not in always:
                unmatched += 1
                continue
            sign = table.measured_sign(always[key]["timing"])
            changed = k["status"] == "checked"
            before = static.get(key)
            static_changed = before is not None and before.get("status") == "checked"
            timed = decision_timings(k.get("remarks", []))
            always_sign, sign_by, judged_ratio = sign, "always", always[key]["timing"]["ratio"]
            partial = changed and picked(timed) == "the model's rewrite" and "every conversion removed" in timed
            if partial and static_changed and before.get("timing"):
                sign_by, judged_ratio = "own earlier run", before["timing"]["ratio"]
                sign = table.measured_sign(before["timing"])
            rows.append({"kernel": key, "changed": changed, "sign": sign, "sign_by": sign_by, "always_sign": always_sign,
                         "always_ratio": always[key]["timing"]["ratio"], "judged_ratio": judged_ratio,
                         "partial": partial,
                         "agree": sign == "noise" or (sign == "faster") == changed,
                         "static_changed": static_changed if before is not None else None,
                         "static_agree": (sign == "noise" or (sign == "faster") == static_changed)
                         if before is not None else None,
                         "bit_identical": k.get("bit_identical") if changed else None, "timed": timed,
                         # a rewrite into profit=always's module: did it compile to the very kernel the judge timed
                         # (equal registers, spills and instruction counts, as propagate_mma_results' same_code)?
                         "same_code_as_judge": (k.get("static", {}).get("after") == always[key].get("static", {})
                                                .get("after") is not None) if changed and sign_by == "always" else None})
        programs[program] = {"always_run": always_file, "static_run": judged_file, "kernels": rows,
                             "not_in_always_run": unmatched}
    return summarise(programs)


def _counts(rows: list[dict]) -> dict:
    static = [r for r in rows if r["static_agree"] is not None]
    gains = [r for r in rows if r["always_sign"] == "faster"]
    return {"kernels": len(rows),
            # as `propagate_mma_round.py`: where profit=always was faster, the decisions' speed-up (1/ratio - 1, by
            # the run judging each) summed, over profit=always's
            "gain_kept": sum(1 / r["judged_ratio"] - 1 for r in gains if r["changed"]),
            "gain_all": sum(1 / r["always_ratio"] - 1 for r in gains), "rewrites": sum(r["changed"] for r in rows),
            "partial_rewrites": sum(r["partial"] for r in rows),
            "judged_by_own_earlier_run": sum(r["sign_by"] != "always" for r in rows),
            "signs": sum(r["agree"] for r in rows),
            "slower_rewrites": [f"{r['kernel']} {r['judged_ratio']:.3f} ({r['sign_by']})" for r in rows
                                if r["changed"] and r["sign"] == "slower"],
            "gains_left_alone": [f"{r['kernel']} {r['always_ratio']:.3f}" for r in rows
                                 if not r["changed"] and r["sign"] == "faster"],
            "not_bit_identical": [r["kernel"] for r in rows if r["changed"] and r["bit_identical"] is False],
            "same_code_as_judge": sum(bool(r["same_code_as_judge"]) for r in rows),
            "judged_as_always": sum(r["same_code_as_judge"] is not None for r in rows),
            "static_kernels": len(static), "static_signs": sum(r["static_agree"] for r in static)}


def summarise(programs: dict) -> dict:
    every = [r for p in programs.values() for r in p["kernels"]]
    return {"programs": {name: dict(_counts(p["kernels"]), always_run=p["always_run"], static_run=p["static_run"],
                                    not_in_always_run=p["not_in_always_run"]) for name, p in programs.items()},
            "all": _counts(every), "rows": every}


def show(result: dict) -> str:
    lines = []

    def line(name: str, c: dict) -> str:
        return (f"{name:11s} {c['kernels']:4d} kernels; rewrites {c['rewrites']:3d} ({c['partial_rewrites']} partial, "
                f"{c['judged_by_own_earlier_run']} judged by their own earlier run); signs {c['signs']:4d} "
                f"({c['signs'] / max(1, c['kernels']):.1%}); slower rewrites {len(c['slower_rewrites'])}; gains left "
                f"alone {len(c['gains_left_alone'])}; static default's signs {c['static_signs']} of "
                f"{c['static_kernels']} ({c['static_signs'] / max(1, c['static_kernels']):.1%}); gain kept "
                f"{c['gain_kept']:.3f} of {c['gain_all']:.3f}")

    for name, c in result["programs"].items():
        lines.append(line(name, c) + (f"; {c['not_in_always_run']} not in the always run"
                                      if c["not_in_always_run"] else ""))
    lines.append(line("all", result["all"]))
    c = result["all"]
    lines.append(f"  rewrites judged by profit=always's run that compiled to its very kernel: {c['same_code_as_judge']} "
                 f"of {c['judged_as_always']}")
    for what in ("slower_rewrites", "gains_left_alone", "not_bit_identical"):
        for item in result["all"][what]:
            lines.append(f"  {what.replace('_', ' ')}: {item}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("run_dir", type=Path)
    ap.add_argument("--prefix", default="", help="the reports' names start with this (s24_addmm_default.json)")
    ap.add_argument("--json", type=Path)
    args = ap.parse_args(argv)
    result = judge(args.run_dir, args.prefix)
    if not result["programs"]:
        print(f"{args.run_dir}: no <program>_default.json of a known program", file=sys.stderr)
        return 1
    print(show(result))
    if args.json:
        args.json.write_text(json.dumps(result, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
