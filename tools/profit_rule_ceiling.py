"""How far can a static profit rule go on the kernels timed so far?  Five questions, answered from the recorded
runs in docs/propagate-mma-results/ (docs/propagate-mma-results/notes.md, round 19):

1. Is the measured sign repeatable?  Every kernel timed twice with the same compiled code (the default's run and
   `profit=always`'s where they compiled the same kernel, and the same program run again on the same GPU; then
   the H100's runs against round 19's on the H200): how often the two signs contradict each other (one faster,
   the other slower), and how far their ratios lie apart.
2. Does the sign belong to the compiled code, or to the problem size too?  Round 20 timed each compiled kernel
   at several sizes of one specialisation (`irkit-check --each-size`): how many kernels' signs contradict
   between sizes, and how far their ratios move.
3. Can the static figures tell the signs apart on a program not seen?  Leave one program out, fit a learner on
   the rest, decide the left-out program's kernels: decision trees, a random forest and gradient boosting over
   every figure `tools/loop_features.py` records (registers, spills, shared memory, each SASS family inside and
   outside loops, before and after, and the change), the tile config, the warps and the output type.  Each is
   scored like the default (`tools/profit_rule_cv.py`: signs right, kernels taken that ran slower), at its own
   0.5 threshold and at the lowest threshold that takes no slower kernel of the training programs (the forest
   and boosting fit their training kernels so closely that the two thresholds coincide).
4. Do two other kinds of static figure help (round 21)?  The forest and boosting again, with the IR model's
   figures that propagate-mma's remarks give (its estimated gain, scratch and shared-memory rounds saved, the
   lines and sectors of the global accesses it moves: `model_figures`, read from round 19's default runs), with
   a latency schedule of each compiled kernel's SASS (`tools/sass_schedule.py`, r21_schedule_cpu.json), and
   with both.
5. Does what they learnt hold on programs none of this saw (round 23)?  Each learner fitted on every recorded
   timing decides round 23's three programs (gemm_rowwise_scaled, gemm_dropout_residual and gemm_sigmoid_gate,
   whose figures r23_features_cpu.json holds), with the recorded figures and with the IR model's as well.
6. With every program run since (session 23: each program's latest run, `propagate_mma_round.latest_runs`), do
   the learners reach the default, or add to it without a loss?  Over the figures irkit-check records for each
   kernel itself (`static`: registers, spills, shared memory, global loads and stores and their widths, shared and
   barrier ops, of the kernel before and after `profit=always`), the tile, the launch's size, trips and CTAs, and
   the IR model's figures from the default's remarks; each program left out in turn; the learner deciding alone,
   and taking only where the default kept (the default's takes stand).  Needs no compile: `--latest` asks this
   question alone.

    .venv/bin/pip install scikit-learn        # for this tool only: irkit does not depend on it
    .venv/bin/python tools/profit_rule_ceiling.py --json docs/propagate-mma-results/r23_ceiling.json
    .venv/bin/python tools/profit_rule_ceiling.py --latest --json docs/propagate-mma-results/s23_ceiling_latest.json

scikit-learn is the field's library for these learners; writing trees and boosting here would only add code to
check.  Without it the tool answers question 1 and says so.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from statistics import median

import profit_rule_cv as cv  # tools/: the recorded timings, their static figures and the default's replay
import propagate_mma_results as table
import propagate_mma_round as round_tool  # tools/: a round's registered decisions
from cost_model_search import kernel_key

DATA = cv.DATA
# (GPU, run, run): the same program on the same GPU timed twice, on different days or in one session
REPEATS = [
    ("H200", "h200_addmm_always_r5.json", "h200_addmm_always_r6.json"),
    ("H200", "h200_addmm_always_r6.json", "r19_addmm_always.json"),
    ("H100", "h100_addmm_always_r5.json", "h100_addmm_always_r6.json"),
    ("H100", "h100_addmm_always_r6.json", "r7_addmm_always.json"),
    ("H100", "h100_attention_always.json", "h100_attention_always_r6.json"),
    ("H100", "h100_shapes_always.json", "h100_shapes_always_r6.json"),
    ("H100", "r7_bias_always.json", "r8_bias_always.json"),
    ("H200", "r12_gelu_h200_always.json", "r19_gelu_always.json"),
    ("H200", "r12_batched_always.json", "r19_batched_always.json"),
    ("H200", "r13_gated_always.json", "r19_gated_always.json"),
    ("H200", "r14_silu_always.json", "r19_silu_always.json"),
    ("H200", "r15_linear_always.json", "r19_linear_always.json"),
    ("H200", "r16_rowsum_always.json", "r19_rowsum_always.json"),
    ("H200", "r17_atclamp_always.json", "r19_atclamp_always.json"),
    ("H200", "r18_btscale_always.json", "r19_btscale_always.json"),
]
# the same program timed on the H100 and, in round 19, on the H200: does the sign carry over between the GPUs?
CROSS_GPU = [("h100_addmm_always_r6.json", "r19_addmm_always.json"),
             ("h100_attention_always_r6.json", "r19_attention_always.json"),
             ("h100_shapes_always_r6.json", "r19_shapes_always.json"), ("r8_bias_always.json", "r19_bias_always.json"),
             ("r8_scale_always.json", "r19_scale_always.json"), ("r9_colmajor_always.json", "r19_colmajor_always.json"),
             ("r10_swiglu_always.json", "r19_swiglu_always.json"), ("r11_gelu_always.json", "r19_gelu_always.json")]
# round 20: each compiled kernel timed at every size (irkit-check --each-size)
EACH_SIZE = ["r20_sizes_always.json", "r20_shapes_always.json"]
# the default's run against profit=always's in one session: the kernels both compiled the same way
SAME_SESSION = [(f"r{n}_{p}_default.json", f"r{n}_{p}_always.json") for n, p in
                [(10, "swiglu"), (11, "gelu"), (12, "batched"), (12, "gelu_h200"), (13, "gated"), (14, "silu"),
                 (15, "linear"), (16, "rowsum"), (17, "atclamp"), (18, "btscale")]]


def _timed(name: str) -> dict[tuple[str, str], dict]:
    return {(table.group_of(k), table.config_of(k)): k for k in json.loads((DATA / name).read_text())["kernels"]
            if "timing" in k}


def repeatability(pairs: list[tuple[str, str]]) -> dict:
    """Pairs of timings of the same compiled kernel: how often their signs contradict, how far the ratios differ."""
    found, same, contradicting, gaps = 0, 0, [], []
    for first, second in pairs:
        a, b = _timed(first), _timed(second)
        for key in a.keys() & b.keys():
            sa, sb = a[key].get("static", {}).get("after"), b[key].get("static", {}).get("after")
            if sa is None or sa != sb:  # different code after the pass: not the same kernel timed twice
                continue
            found += 1
            signs = {table.measured_sign(a[key]["timing"]), table.measured_sign(b[key]["timing"])}
            same += len(signs) == 1
            if signs == {"faster", "slower"}:
                contradicting.append(f"{first} / {second}: {key[0]} {key[1]}")
            gaps.append(abs(a[key]["timing"]["ratio"] - b[key]["timing"]["ratio"]))
    gaps.sort()
    return {"pairs_of_runs": len(pairs), "kernels_timed_twice": found, "signs_equal": same,
            "signs_contradicting": contradicting,
            "ratio_gap_median": round(median(gaps), 4), "ratio_gap_p95": round(gaps[int(0.95 * len(gaps))], 4),
            "ratio_gap_max": round(gaps[-1], 4)}


def across_sizes(runs: list[str]) -> dict:
    """The same compiled kernel (one hash) timed at several problem sizes: do the signs contradict?"""
    by_code: dict[str, list[dict]] = {}
    for name in runs:
        for k in json.loads((DATA / name).read_text())["kernels"]:
            if "timing" in k:
                by_code.setdefault(k["hash"], []).append(k)
    contradicting, spreads = [], []
    for timed in by_code.values():
        signs = {table.measured_sign(k["timing"]) for k in timed}
        if {"faster", "slower"} <= signs:
            contradicting.append(f"{table.group_of(timed[0])} {table.config_of(timed[0])}")
        ratios = [k["timing"]["ratio"] for k in timed]
        spreads.append(max(ratios) - min(ratios))
    return {"kernels": len(by_code), "timings": sum(len(t) for t in by_code.values()),
            "sizes_per_kernel": [min(map(len, by_code.values())), max(map(len, by_code.values()))],
            "signs_contradicting": contradicting,
            "ratio_spread_median": round(median(spreads), 4), "ratio_spread_max": round(max(spreads), 4)}


ONLY_BEST = ("random forest (300 trees)", "gradient boosting")  # the learners the extra figures are tried with
TILE = re.compile(r"_(\d+)x(\d+)x(\d+)_(\d+)x(\d+)(?:x(\d+))?_w(\d+)_s(\d+)$")


def features(x: dict, figures: dict) -> dict[str, float]:
    """Every static figure of a timed kernel: before, and the change after profit=always; its tile and type."""
    before, after = figures["before"], figures["after"]
    out: dict[str, float] = {}
    for key in before.keys() | after.keys():
        if key == "error":
            continue
        b, a = before.get(key) or 0, after.get(key) or 0
        out[f"before_{key}"], out[f"change_{key}"] = b, a - b
    m = TILE.search(x["kernel"])
    tile = [int(g or 0) for g in m.groups()] if m else [0] * 8
    out.update(zip(("M", "N", "K", "BLOCK_M", "BLOCK_N", "BLOCK_K", "warps", "stages"), tile))
    out["masked"] = float(any(size % 128 for size in tile[:3]))
    out["fp32_out"] = float("fp32" in x["kernel"] or "float32" in x["kernel"])
    return out


def schedule_figures() -> dict[str, dict[str, float]]:
    """Each kernel's latency schedule (`tools/sass_schedule.py`, round 21), before and its change, by kernel."""
    out = {}
    for row in json.loads((DATA / "r21_schedule_cpu.json").read_text())["kernels"]:
        before, after = row["before"], row["after"]
        out[row["kernel"]] = {f"{side}_{key}": value for key in before
                              for side, value in (("before", before[key]), ("change", after[key] - before[key]))}
    return out


_MODEL_FIGURES = {  # the IR model's figures in propagate-mma's remarks, summed over a kernel's conversions
    "model_gain": re.compile(r"\(model: ([+-]?[\d,]+) cycles/CTA\)"),
    "model_scratch_saved": re.compile(r"saves ([\d,]+) B scratch"),
    "model_shared_rounds": re.compile(r"\((\d+) shared-memory round"),
}
_MODEL_PAIRS = {  # "<after> vs <before> ..." in the same remarks: both sides, summed
    "model_lines": re.compile(r"(\d+) vs (\d+) lines/instr"),
    "model_sectors": re.compile(r"([\d,]+) vs ([\d,]+) sector requests"),
}


def model_figures(remarks: list[str]) -> dict[str, float]:
    """What the IR model (`irkit.analysis.cost_model`) said of a kernel's conversions, from the default's remarks:
    its estimated gain, the scratch and shared-memory rounds it saves, the lines and sectors its global accesses
    touch before and after, and how many conversions it left alone."""
    out: dict[str, float] = dict.fromkeys([*_MODEL_FIGURES, "model_left_alone"], 0.0)
    for key in _MODEL_PAIRS:
        out[f"{key}_after"] = out[f"{key}_before"] = 0.0
    for remark in remarks:
        out["model_left_alone"] += "left alone" in remark
        for key, pattern in _MODEL_FIGURES.items():
            m = pattern.search(remark)
            out[key] += int(m.group(1).replace(",", "")) if m else 0
        for key, pattern in _MODEL_PAIRS.items():
            m = pattern.search(remark)
            if m:
                out[f"{key}_after"] += int(m.group(1).replace(",", ""))
                out[f"{key}_before"] += int(m.group(2).replace(",", ""))
    return out


def remarked_figures() -> dict[str, dict[str, float]]:
    """`model_figures` of every kernel of round 19's default runs (the pass as it is), by kernel."""
    out = {}
    for program in table.PROGRAMS:
        path = DATA / f"r19_{program}_default.json"
        if path.exists():
            for k in json.loads(path.read_text())["kernels"]:
                out[kernel_key(k)] = model_figures(k.get("remarks", []))
    return out


def _learners(only: tuple[str, ...] = ()) -> dict:
    """The learners tried (those named in `only`, else all), each a maker of a fresh classifier."""
    from sklearn.ensemble import GradientBoostingClassifier, RandomForestClassifier
    from sklearn.tree import DecisionTreeClassifier

    makers = {
        "decision tree, depth 2": lambda: DecisionTreeClassifier(max_depth=2, min_samples_leaf=5, random_state=0),
        "decision tree, depth 3": lambda: DecisionTreeClassifier(max_depth=3, min_samples_leaf=5, random_state=0),
        "decision tree, depth 4": lambda: DecisionTreeClassifier(max_depth=4, min_samples_leaf=5, random_state=0),
        "random forest (300 trees)": lambda: RandomForestClassifier(300, min_samples_leaf=3, random_state=0),
        "gradient boosting": lambda: GradientBoostingClassifier(random_state=0),
    }
    return {name: make for name, make in makers.items() if not only or name in only}


def _matrix(rows: list[dict], figures: dict, extra: tuple[dict[str, dict[str, float]], ...],
            names: list[str] | None = None):
    """(the figures' names, one row of figures per kernel, and whether each ran faster / slower / within noise)."""
    import numpy as np

    feats = [features(x, figures[x["kernel"]]) for x in rows]
    for more in extra:
        for x, f in zip(rows, feats):
            f.update(more.get(x["kernel"], {}))
    names = names or sorted({k for f in feats for k in f})
    X = np.array([[f.get(k, 0.0) for k in names] for f in feats])
    signs = np.array([x["sign"] for x in rows])
    return names, X, signs == "faster", signs == "slower", signs == "noise"


def _fit_and_decide(make, X_train, faster, slower, X_test, threshold: str):
    """Fit on the training kernels (a slower one weighs 3) and decide the test ones: take where the learner's
    probability of faster reaches 0.5, or, for `threshold` "no training kernel slower", where it passes every
    training kernel that ran slower."""
    import numpy as np

    model = make()
    model.fit(X_train, faster, sample_weight=np.where(slower, 3.0, 1.0))
    cut = 0.5
    if threshold != "0.5":
        seen = model.predict_proba(X_train)[:, 1][slower]
        cut = max(0.5, float(seen.max()) + 1e-9) if len(seen) else 0.5
    return model.predict_proba(X_test)[:, 1] >= cut


THRESHOLDS = ("0.5", "no training kernel slower")


def learners_left_out(rows: list[dict], extra: tuple[dict[str, dict[str, float]], ...] = (),
                      only: tuple[str, ...] = ()) -> dict:
    """Each learner (those named in `only`, else all) with each program left out in turn, over the recorded
    figures and the `extra` ones (kernel -> figures; a kernel missing from one gets zeros)."""
    import numpy as np

    figures = {r["kernel"]: r for r in json.loads((DATA / "r14_features_cpu.json").read_text())["kernels"]}
    names, X, faster, slower, noise = _matrix(rows, figures, extra)
    programs = np.array([x["program"] for x in rows])
    out = {}
    for name, make in _learners(only).items():
        for threshold in THRESHOLDS:
            signs = losses = 0
            for program in sorted(set(programs)):
                train, test = programs != program, programs == program
                take = _fit_and_decide(make, X[train], faster[train], slower[train], X[test], threshold)
                signs += int((noise[test] | (take == faster[test])).sum())
                losses += int((take & slower[test]).sum())
            out[f"{name}, threshold {threshold}"] = {"signs": signs, "slower": losses}
    return {"features": len(names), "kernels": len(rows), "programs": len(set(programs)), "left_out": out}


# round 23: programs none of the above saw, each with its profit=always run and its default run (for the remarks)
NEW_PROGRAMS = [("rowwise", "r23_rowwise_always.json", "r23_rowwise_default.json"),
                ("dropout", "r23_dropout_always.json", "r23_dropout_default.json"),
                ("sigmoid", "r22_sigmoid_always.json", "r23_sigmoid_default.json")]


def new_program_rows() -> tuple[list[dict], dict, dict[str, dict[str, float]]]:
    """Round 23's kernels: (each kernel's program, key and measured sign; its static figures,
    r23_features_cpu.json; the IR model's figures from the default's remarks)."""
    rows, model = [], {}
    for program, always, default in NEW_PROGRAMS:
        for k in json.loads((DATA / always).read_text())["kernels"]:
            if "timing" in k:
                rows.append({"program": program, "kernel": kernel_key(k), "sign": table.measured_sign(k["timing"])})
        for k in json.loads((DATA / default).read_text())["kernels"]:
            model[kernel_key(k)] = model_figures(k.get("remarks", []))
    figures = {r["kernel"]: r for r in json.loads((DATA / "r23_features_cpu.json").read_text())["kernels"]}
    return rows, figures, model


def learners_on_new_programs(rows: list[dict], with_model_figures: bool = False,
                             only: tuple[str, ...] = ()) -> dict:
    """Each learner fitted on every recorded timing (`rows`), then deciding round 23's three programs, which
    none of the recorded figures, rules or learners saw."""
    new, new_figures, new_model = new_program_rows()
    figures = {r["kernel"]: r for r in json.loads((DATA / "r14_features_cpu.json").read_text())["kernels"]}
    extra, new_extra = ((remarked_figures(),), (new_model,)) if with_model_figures else ((), ())
    names, X, faster, slower, _ = _matrix(rows, figures, extra)
    _, X_new, new_faster, new_slower, new_noise = _matrix(new, new_figures, new_extra, names)
    out = {}
    for name, make in _learners(only).items():
        for threshold in THRESHOLDS:
            take = _fit_and_decide(make, X, faster, slower, X_new, threshold)
            out[f"{name}, threshold {threshold}"] = {
                "signs": int((new_noise | (take == new_faster)).sum()), "slower": int((take & new_slower).sum()),
                "taken": int(take.sum())}
    registered = round_tool.registered(DATA / "r23_predictions_cpu.txt")
    default = [registered[x["kernel"]] for x in new]
    return {"features": len(names), "trained_on": len(rows), "kernels": len(new),
            "never_rewriting": int((~new_faster).sum()),
            "default": {"signs": sum(cv.right(x, take) for x, take in zip(new, default)),
                        "slower": sum(cv.slower(x, take) for x, take in zip(new, default)), "taken": sum(default)},
            "decided": out}


_WIDTH = re.compile(r"^(?:v(\d+)\.)?[a-z]+(\d+)$")  # "v4.b32", "b16": the vector width and the element bits


def _accesses(counts: dict[str, int] | None) -> tuple[int, int]:
    """(instructions, bytes per thread) of one kind of global access that irkit-check's `static` counts by width."""
    instructions = size = 0
    for kind, n in (counts or {}).items():
        m = _WIDTH.match(kind)
        if m:
            instructions += n
            size += n * int(m.group(1) or 1) * int(m.group(2)) // 8
    return instructions, size


def recorded_figures(compiled: dict) -> dict[str, float]:
    """One side (before or after) of irkit-check's `static` figures of a kernel, as numbers."""
    loads, stores = _accesses(compiled.get("global_loads")), _accesses(compiled.get("global_stores"))
    shared = compiled.get("shared_and_barriers", {})
    return {"registers": compiled.get("registers", 0), "spill_stores": compiled.get("spill_store_bytes", 0),
            "spill_loads": compiled.get("spill_load_bytes", 0), "shared": compiled.get("shared", 0),
            "load_instructions": loads[0], "load_bytes": loads[1], "store_instructions": stores[0],
            "store_bytes": stores[1], "barriers": shared.get("bar", 0), "shared_loads": shared.get("ld.shared", 0),
            "shared_stores": shared.get("st.shared", 0), "async_copies": shared.get("cp.async", 0),
            "conversions": compiled.get("convert_layout", 0)}


def launch_figures(kernel: dict, sms: int = 132) -> dict[str, float]:
    """The tile and the launch: block sizes, warps, stages, an fp32 output, the problem size, the main loop's trips
    (K over BLOCK_K) and the CTAs, also in waves over the device's `sms`."""
    config, sizes = kernel.get("config", {}), kernel.get("sizes") or {}
    out = {name: float(config.get(name) or 0) for name in ("BLOCK_M", "BLOCK_N", "BLOCK_K", "num_warps", "num_stages")}
    out["fp32_out"] = float("_out_fp32_" in kernel_key(kernel))
    for dim in ("M", "N", "K"):
        out[dim] = float(sizes.get(dim) or 0)
    out["trips"] = -(-out["K"] // out["BLOCK_K"]) if out["K"] and out["BLOCK_K"] else 0.0
    grid = kernel.get("grid") or [1, 1, 1]
    out["ctas"] = float(grid[0] * grid[1] * grid[2])
    out["waves"] = out["ctas"] / sms
    return out


def latest_rows() -> list[dict]:
    """Every kernel of each program's latest run with the default options that both runs compiled and timed: its
    program, key, `profit=always`'s sign, the default's decision, and its figures (`recorded_figures` before, after
    and the change; `launch_figures`; `model_figures` of the default's remarks)."""
    rows = []
    for program, (default_file, always_file) in round_tool.latest_runs().items():
        always = _timed(always_file)
        default = {(table.group_of(k), table.config_of(k)): k for k in
                   json.loads((DATA / default_file).read_text())["kernels"]}
        for row in table._rows(default_file, always_file):
            key = (row["group"], row["config"])
            static = always[key].get("static") or {}
            if "before" not in static or "after" not in static:
                continue
            before, after = recorded_figures(static["before"]), recorded_figures(static["after"])
            figures = launch_figures(always[key]) | model_figures(default[key].get("remarks", []))
            for name in before:
                figures |= {f"{name}_before": before[name], f"{name}_change": after[name] - before[name]}
            rows.append({"program": program, "kernel": kernel_key(always[key]), "sign": row["sign"],
                         "default_takes": row["changed"], "figures": figures})
    return rows


def learners_on_latest_runs(only: tuple[str, ...] = ()) -> dict:
    """Question 6: each learner with each program of the latest runs left out in turn, deciding alone and taking only
    where the default kept; against the default and never rewriting, scored the same way."""
    import numpy as np

    rows = latest_rows()
    names = sorted({k for x in rows for k in x["figures"]})
    X = np.array([[x["figures"].get(k, 0.0) for k in names] for x in rows])
    signs = np.array([x["sign"] for x in rows])
    faster, slower, noise = signs == "faster", signs == "slower", signs == "noise"
    default = np.array([x["default_takes"] for x in rows])
    programs = np.array([x["program"] for x in rows])

    def scored(take) -> dict[str, int]:
        return {"signs": int((noise | (take == faster)).sum()), "slower": int((take & slower).sum()),
                "taken": int(take.sum())}

    out = {}
    for name, make in _learners(only).items():
        for threshold in THRESHOLDS:
            take = np.zeros(len(rows), dtype=bool)
            for program in sorted(set(programs)):
                train, test = (programs != program) & ~noise, programs == program
                take[test] = _fit_and_decide(make, X[train], faster[train], slower[train], X[test], threshold)
            out[f"{name}, threshold {threshold}"] = {"alone": scored(take), "beside the default": scored(take | default)}
    return {"features": len(names), "kernels": len(rows), "programs": len(set(programs)),
            "always_faster": int(faster.sum()), "always_slower": int(slower.sum()), "within_noise": int(noise.sum()),
            "default": scored(default), "never_rewriting": scored(np.zeros(len(rows), dtype=bool)),
            "left_out": out}


def print_latest(latest: dict) -> None:
    print(f"Question 6: the latest runs, {latest['kernels']} kernels of {latest['programs']} programs "
          f"(profit=always faster {latest['always_faster']}, slower {latest['always_slower']}, within noise "
          f"{latest['within_noise']}); learners over {latest['features']} figures, each program left out in turn")
    for title in ("default", "never_rewriting"):
        r = latest[title]
        print(f"  {title.replace('_', ' '):60s} signs {r['signs']} ({r['signs'] / latest['kernels']:.1%}), slower "
              f"{r['slower']}, taken {r['taken']}")
    for name, both in latest["left_out"].items():
        for how, r in both.items():
            print(f"  {name + ', ' + how:60s} signs {r['signs']} ({r['signs'] / latest['kernels']:.1%}), slower "
                  f"{r['slower']}, taken {r['taken']}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--json", type=Path, help="write the figures here")
    ap.add_argument("--latest", action="store_true", help="question 6 alone (each program's latest run)")
    args = ap.parse_args(argv)
    report: dict = {"command": "tools/profit_rule_ceiling.py" + (" --latest" if args.latest else "")}
    if args.latest:
        report["learners, latest runs"] = learners_on_latest_runs()
        print_latest(report["learners, latest runs"])
        if args.json:
            args.json.write_text(json.dumps(report, indent=1) + "\n")
        return 0
    same_gpu = [(a, b) for _, a, b in REPEATS] + SAME_SESSION
    for title, pairs in (("same GPU", same_gpu), ("H100 then H200", CROSS_GPU)):
        rep = report[f"repeatability, {title}"] = repeatability(pairs)
        print(f"Kernels timed twice with the same code, {title}: {rep['kernels_timed_twice']} (over "
              f"{rep['pairs_of_runs']} pairs of runs); signs equal {rep['signs_equal']}, contradicting (one faster, "
              f"the other slower) {len(rep['signs_contradicting'])}; ratio gap median {rep['ratio_gap_median']}, "
              f"95th percentile {rep['ratio_gap_p95']}, largest {rep['ratio_gap_max']}")
    sizes = report["same code, several sizes"] = across_sizes(EACH_SIZE)
    print(f"The same compiled kernel at several sizes: {sizes['kernels']} kernels, {sizes['timings']} timings "
          f"({sizes['sizes_per_kernel'][0]}-{sizes['sizes_per_kernel'][1]} sizes each); "
          f"signs contradicting between sizes {len(sizes['signs_contradicting'])}; each kernel's ratios span "
          f"{sizes['ratio_spread_median']} at the median, {sizes['ratio_spread_max']} at most")
    rows = cv.samples(cv.RUNS + cv.HELD_OUT)
    right, slow = cv.score(rows, cv.implemented)
    never = cv.score(rows, lambda x: False)[0]
    report["default"] = {"kernels": len(rows), "signs": right, "slower": slow, "signs_never_rewriting": never}
    print(f"The default over the {len(rows)} timings (its rule chosen on 298 of them): signs {right}, slower {slow}; "
          f"never rewriting: signs {never}")
    try:
        report["learners"] = learners_left_out(rows)
    except ImportError:
        print("scikit-learn is not installed: the learners are skipped (pip install scikit-learn)")
    else:
        learned = report["learners"]
        print(f"Each of {learned['programs']} programs left out in turn, learners over {learned['features']} static "
              f"figures (signs right of {learned['kernels']}, kernels taken that ran slower):")
        for name, r in learned["left_out"].items():
            print(f"  {name:60s} signs {r['signs']} ({r['signs'] / learned['kernels']:.1%}), slower {r['slower']}")
        # round 21: two more kinds of static figure, alone and together, for the learners that did best
        model, latency = remarked_figures(), schedule_figures()
        sets: dict[str, tuple[dict[str, dict[str, float]], ...]] = {
            "the IR model's figures": (model,), "the SASS latency schedule": (latency,), "both": (model, latency)}
        report["learners, more figures"] = {}
        for title, extra in sets.items():
            more = report["learners, more figures"][title] = learners_left_out(rows, extra, ONLY_BEST)
            print(f"The same, with {title} ({more['features']} figures):")
            for name, r in more["left_out"].items():
                print(f"  {name:60s} signs {r['signs']} ({r['signs'] / more['kernels']:.1%}), slower {r['slower']}")
        if (DATA / "r23_features_cpu.json").exists():
            report["learners, round 23's programs"] = {}
            for title, with_model in (("the recorded figures", False), ("with the IR model's figures", True)):
                new = report["learners, round 23's programs"][title] = learners_on_new_programs(rows, with_model)
                d = new["default"]
                print(f"Fitted on all {new['trained_on']} timings, deciding round 23's {new['kernels']} kernels "
                      f"(3 programs none of them saw), {title} ({new['features']} figures; never rewriting: signs "
                      f"{new['never_rewriting']}; the default: signs {d['signs']}, slower {d['slower']}, taken "
                      f"{d['taken']}):")
                for name, r in new["decided"].items():
                    print(f"  {name:60s} signs {r['signs']} ({r['signs'] / new['kernels']:.1%}), slower "
                          f"{r['slower']}, taken {r['taken']}")
    if args.json:
        args.json.write_text(json.dumps(report, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(cv.ROOT))
    sys.exit(main())
