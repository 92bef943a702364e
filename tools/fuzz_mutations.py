"""Seeded mutation campaign, larger than the suite's (tests/test_mutations.py), with passes.

    python tools/fuzz_mutations.py --count 5000 --json docs/mutations.json

Three kinds of runs, all in-process through `irkit.cli.opt.main` (the command's own path):

- text mutants of the corpus kernels (the suite's mutation operators), each run through
  irkit-opt with no pass or one of coalesce / propagate-mma / rewrite-tensor-pointer;
- rule mutants: a real TTGIR kernel made to break one of the ported Triton verifier rules
  (a load/store/atomic mask replaced by a value that is not i1 of the pointer's shape, a
  convert_layout whose result shape is transposed, a module num-warps that disagrees with the
  layouts, an SSA name like `%88x`); each must fail with exit 1, never succeed;
- 10,000 nested regions (once).

Outcomes: ok (exit 0, output parses back), error (exit 1 with a positioned diagnostic),
internal (a traceback, `internal error`, exit 2), bad-error (exit 1 but the diagnostic is
malformed), wrong-success (a rule mutant that exited 0).  Failing inputs are kept under
--keep for reproduction.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

import test_mutations  # noqa: E402  (the suite's mutation operators and checker)

# the real Tritons each version's mutants are checked against (override: IRKIT_TRITON_PYTHONS="3.1.0=/py:...")
ORACLE_VERSIONS = ("3.1.0", "3.3.1", "3.9.0")
DEFAULT_PYTHONS = {v: f"/work/venvs/t{v}/bin/python" for v in ORACLE_VERSIONS}
ORACLE_BATCH = 200  # files per Triton process: importing triton costs seconds, parsing a kernel milliseconds


def triton_pythons() -> dict[str, str]:
    found = dict(DEFAULT_PYTHONS)
    for item in filter(None, os.environ.get("IRKIT_TRITON_PYTHONS", "").split(":")):
        version, _, python = item.partition("=")
        found[version] = python
    return {v: p for v, p in found.items() if v in ORACLE_VERSIONS and Path(p).exists()}


def real_triton_verdicts(python: str, paths: list[Path]) -> dict[str, str | None]:
    """None for each file the real Triton's parser (and verifier) accepts, else its diagnostics; many
    files per process, each parsed in a forked child (input that crashes the C++ parser costs one result)."""
    verdicts: dict[str, str | None] = {}
    for at in range(0, len(paths), ORACLE_BATCH):
        batch = [str(p) for p in paths[at : at + ORACLE_BATCH]]
        done = subprocess.run([python, str(ROOT / "tests" / "real_triton_check.py"), "--isolate", *batch],
                              capture_output=True, text=True, timeout=3600,
                              env={**os.environ, "TRITON_DEFAULT_FP_FUSION": "1"})
        if done.returncode != 0:
            raise RuntimeError(f"{python} real_triton_check.py failed: {done.stderr[-600:]}")
        verdicts.update(json.loads(done.stdout.strip().splitlines()[-1])["results"])
    return verdicts


# -- near-valid mutants: one plausible edit that a verifier (not the lexer) must judge ---------------------------
import re  # noqa: E402

_DEF_TYPE = re.compile(r"^ *%[\w.$-]+ = [^\n]*?(?:->|:) (tensor<[^\n]*?>|i1|i32|i64|f16|f32|bf16|!tt\.ptr<\w+>)(?= loc|$)", re.M)
_TYPED_INT = re.compile(r"\b(-?\d+) : (i1|i8|i16|i32|i64)\b")
_LAYOUT_NUMBER = re.compile(r"^#\w+ = #[\w.]+<\{[^\n]*$", re.M)
_LOC_REF = re.compile(r"loc\((#loc\d*)\)")
_ALIAS_DEF = re.compile(r"^(#[\w$.-]+) = ", re.M)
_VALUE_USE = re.compile(r"(?<=[ (\[,])%[\w.$-]+(?:#\d+)?(?=[ ,)\]:])")
_ELEMENT = re.compile(r"\b(i1|i8|i16|i32|i64|f16|bf16|f32|f64)\b")


def retype_definition(rng, text):
    """A result type changed where the value is defined only (its uses keep the old one)."""
    m = rng.choice(list(_DEF_TYPE.finditer(text)))
    old = m.group(1)
    els = list(_ELEMENT.finditer(old))
    if els and rng.random() < 0.7:
        e = rng.choice(els)
        new = old[: e.start()] + rng.choice(["i1", "i8", "i32", "i64", "f16", "f32", "bf16"]) + old[e.end():]
    else:
        new = old.replace("x", "x2x", 1) if "x" in old else rng.choice(["i32", "i64", "f32"])
    return text[: m.start(1)] + new + text[m.end(1):], f"definition type {old!r} -> {new!r} at {m.start(1)}"


def retype_integer_attribute(rng, text):
    """`N : iK` with another value or width (`axis = 0 : i1`, `-1`, 2^31)."""
    m = rng.choice(list(_TYPED_INT.finditer(text)))
    value = rng.choice([m.group(1), "-1", "0", "1", "2", "3", "2147483647", "-2147483648", "64"])
    width = rng.choice([m.group(2), "i1", "i8", "i16", "i32", "i64"])
    new = f"{value} : {width}"
    return text[: m.start()] + new + text[m.end():], f"integer {m.group(0)!r} -> {new!r} at {m.start()}"


def layout_number(rng, text):
    """A number in a layout alias replaced by a small or negative one (vec, perPhase, swizzlingByteWidth, ...)."""
    line = rng.choice(list(_LAYOUT_NUMBER.finditer(text)))
    nums = list(re.finditer(r"-?\d+", line.group(0)))
    n = rng.choice(nums)
    new = rng.choice(["-1", "0", "1", "2", "3", "8", "16", "64", "128", "256", "4096"])
    at = line.start() + n.start()
    return text[:at] + new + text[line.start() + n.end():], f"layout number {n.group(0)} -> {new} at {at}"


def layout_keyword(rng, text):
    """A key of a layout alias dropped, duplicated or renamed."""
    line = rng.choice(list(_LAYOUT_NUMBER.finditer(text)))
    keys = list(re.finditer(r"(\w+) = ([^,}]*|\[[^\]]*\])(, )?", line.group(0)))
    k = rng.choice(keys)
    at, end = line.start() + k.start(), line.start() + k.end()
    choice = rng.random()
    if choice < 0.4:
        return text[:at] + text[end:], f"drop layout key {k.group(1)} at {at}"
    if choice < 0.7:
        return text[:at] + k.group(0) + (", " if not k.group(3) else "") + text[at:], f"duplicate layout key {k.group(1)}"
    new = rng.choice(test_mutations.LAYOUT_KEYS)
    return text[:at] + new + text[line.start() + k.end(1):], f"rename layout key {k.group(1)} -> {new}"


def location_reference(rng, text):
    """A `loc(#locN)` pointing at another location alias (maybe one defined later: a forward reference
    inside an alias definition)."""
    refs = list(_LOC_REF.finditer(text))
    names = sorted({m.group(1) for m in refs} | {m.group(1) for m in _ALIAS_DEF.finditer(text) if m.group(1).startswith("#loc")})
    m = rng.choice(refs)
    new = rng.choice(names + ["#loc99999"])
    return text[: m.start(1)] + new + text[m.end(1):], f"loc ref {m.group(1)} -> {new} at {m.start(1)}"


def unused_alias(rng, text):
    """A new alias nobody uses, with a body of an unknown dialect, a bad layout or a forward reference."""
    bodies = ["#nodialect.thing<1>", "#ttg.nolayout<{}>", "#ttg.blocked<{sizePerThread = [1]}>", "loc(#loc_later)",
              "#builtin.nope", "!tt.ptr<f32>", "#ttg.shared_memory", "unit", "[#nope.x]", "loc(\"f\":1:2)",
              "#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>", "{a = #x.y}"]
    body = rng.choice(bodies)
    lines = text.split("\n")
    i = rng.randrange(len(lines) + 1)
    name = rng.choice(["#zz_unused", "#loc_later", "#loc_unused"])
    lines.insert(i, f"{name} = {body}")
    return "\n".join(lines), f"alias {name} = {body} at line {i + 1}"


def swap_operand(rng, text):
    """A value use replaced by another value of the same function."""
    uses = list(_VALUE_USE.finditer(text))
    m = rng.choice(uses)
    others = [u.group(0) for u in uses if u.group(0) != m.group(0)]
    new = rng.choice(others)
    return text[: m.start()] + new + text[m.end():], f"use {m.group(0)} -> {new} at {m.start()}"


NEAR_VALID = [retype_definition, retype_integer_attribute, layout_number, layout_keyword, location_reference,
              unused_alias, swap_operand]


def near_valid_mutant(rng, text):
    fn = rng.choice(NEAR_VALID)
    try:
        out, what = fn(rng, text)
    except (IndexError, ValueError):
        return test_mutations.mutate(rng, text)
    return out, f"{fn.__name__}: {what}"


def other_commands(path: Path, text: str, opt_code) -> dict[str, str]:
    """The same mutant through irkit-report, irkit-sweep's kernel row and irkit-check's front (its rewrite
    of the module by irkit-opt's driver and its prediction): "agrees" (accepts or rejects as irkit-opt does,
    no internal error), "internal", or "disagrees"."""
    import io

    from irkit.check.rewrite import rewrite_module
    from irkit.cli import report
    from irkit.sweep.inputs import KernelTask
    from irkit.sweep.kernel import SweepOptions, sweep_kernel

    verdicts: dict[str, str] = {}
    out, err = io.StringIO(), io.StringIO()
    saved = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = out, err
    try:
        try:
            report.main([str(path), "-o", os.devnull])
            code = 0
        except SystemExit as e:
            code = e.code
        except BaseException as e:  # noqa: BLE001 - anything that escapes is an internal error
            code = f"raised {type(e).__name__}"
        row = sweep_kernel(KernelTask(str(path)), SweepOptions(None))
        try:
            checked = rewrite_module(text, str(path), "coalesce")
            check = "ok" if checked.text is not None else "error"
            if checked.error and ("internal error" in checked.error or "Traceback" in checked.error):
                check = "internal"
            if any("prediction failed" in r for r in checked.remarks):
                check = "internal"
        except BaseException as e:  # noqa: BLE001
            check = f"internal ({type(e).__name__})"
    finally:
        sys.stdout, sys.stderr = saved
    report_err = err.getvalue()
    if "Traceback" in report_err or "internal error" in report_err or code not in (0, 1):
        verdicts["irkit-report"] = "internal"
    else:
        verdicts["irkit-report"] = "agrees" if (code == 0) == (opt_code == 0) else "disagrees"
    if row["error_kind"] in ("internal", "worker-died"):
        verdicts["irkit-sweep"] = "internal"
    else:
        verdicts["irkit-sweep"] = "agrees" if (row["status"] == "ok") == (opt_code == 0) else "disagrees"
    if check.startswith("internal"):
        verdicts["irkit-check"] = "internal"
    else:
        # a rejected module must be rejected (a pass may still fail on a module irkit-opt accepts)
        verdicts["irkit-check"] = "agrees" if opt_code == 0 or check == "error" else "disagrees"
    return verdicts


def oracle_campaign(count: int, seed: int, work: Path, with_commands: bool = False) -> dict:
    """`count` text mutants of the corpus kernels of Triton 3.1/3.3/3.9 (a third each), run through
    irkit-opt; every mutant irkit accepts is parsed and verified by the real Triton of its version.
    wrong-success: irkit exits 0 where the real Triton rejects; over-strict: irkit rejects what Triton
    accepts (told apart only for a sample: each mutant irkit rejects is checked too)."""
    pythons = triton_pythons()
    files = [f for f in test_mutations.base_files() if test_mutations.version_of(f) in pythons]
    by_version = {v: [f for f in files if test_mutations.version_of(f) == v] for v in pythons}
    rng = random.Random(seed)
    runs: list[dict] = []
    outcomes: Counter[str] = Counter()
    commands: dict[str, Counter[str]] = {}
    for k in range(count):
        version = list(pythons)[k % len(pythons)]
        base = rng.choice(by_version[version])
        # half the suite's mutations (mostly bad syntax), half near-valid edits only a verifier can judge
        mutate = test_mutations.mutate if k % 2 else near_valid_mutant
        text, what = mutate(rng, test_mutations.base_text(base))
        path = test_mutations.write_mutant(work, f"o{k}_{version}.mlir", text)
        code, out, err = test_mutations.run_in_process([str(path)])
        outcome = classify(path, text, code, out, err)
        outcomes[outcome] += 1
        others = other_commands(path, text, code) if with_commands else {}
        for command, verdict in others.items():
            commands.setdefault(command, Counter())[verdict] += 1
        runs.append({"path": path, "version": version, "base": str(base), "mutation": what, "irkit": outcome,
                     "stderr": err[:300], "others": {c: v for c, v in others.items() if v not in ("agrees",)}})
        if k % 500 == 499:
            print(f"{k + 1} oracle mutants: {dict(outcomes)}", file=sys.stderr)
    verdict: dict[str, str | None] = {}
    for version, python in pythons.items():
        verdict.update(real_triton_verdicts(python, [r["path"] for r in runs if r["version"] == version]))
    # a wrong success on one version: does another of the three Tritons accept the same text?  (irkit reads
    # 3.1-3.9 alike where nothing in the file says which version wrote it: a TTIR, or a rule one version added)
    suspects = [r for r in runs if r["irkit"] == "ok" and verdict.get(str(r["path"]), "") is not None]
    elsewhere: dict[str, list[str]] = {}
    for version, python in pythons.items():
        others = [r["path"] for r in suspects if r["version"] != version]
        for path, v in real_triton_verdicts(python, others).items():
            if v is None:
                elsewhere.setdefault(path, []).append(version)
    table: dict[str, Counter[str]] = {}
    failures = []
    for r in runs:
        real = verdict.get(str(r["path"]), "not checked")
        accepted = real is None
        key = {("ok", True): "both accept", ("ok", False): "wrong success", ("error", False): "both reject",
               ("error", True): "irkit rejects, Triton accepts"}.get((r["irkit"], accepted), r["irkit"])
        if key == "wrong success" and str(r["path"]) in elsewhere:
            key = "version-dependent (another Triton accepts)"
            r["accepted_by"] = elsewhere[str(r["path"])]
        table.setdefault(r["version"], Counter())[key] += 1
        if key in ("wrong success", "internal", "bad-error") or key.startswith("version-dependent") or r["others"]:
            keep = work / f"failing_{r['path'].name}"
            keep.write_bytes(r["path"].read_bytes())
            failures.append({"input": str(keep), "version": r["version"], "base": r["base"], "mutation": r["mutation"],
                             "outcome": key, "accepted_by": r.get("accepted_by"), "triton": (real or "")[:300],
                             "stderr": r["stderr"], "other_commands": r["others"]})
        elif key == "irkit rejects, Triton accepts":
            keep = work / f"strict_{r['path'].name}"
            keep.write_bytes(r["path"].read_bytes())
        r["path"].unlink()
    return {"mutants": count, "seed": seed, "pythons": pythons, "irkit_opt": dict(outcomes),
            "by_version": {v: dict(c) for v, c in table.items()},
            "other_commands": {c: dict(v) for c, v in commands.items()}, "failures": failures}


PASSES = [[], [], ["--coalesce"], ["--propagate-mma"], ["--propagate-mma=profit=always"], ["--rewrite-tensor-pointer"]]


def classify(path: Path, text: str, code, out: str, err: str) -> str:
    problems = test_mutations.problems_of(path, text, code, out, err, False)
    if not problems:
        return "ok" if code == 0 else "error"
    if problems[0].startswith("internal error") or code == 2:
        return "internal"
    return "bad-error"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--count", type=int, default=5000, help="text mutants (rule mutants: a fifth of that more)")
    ap.add_argument("--seed", type=int, default=20261124)
    ap.add_argument("--keep", type=Path, default=ROOT / "bench" / ".work" / "fuzz")
    ap.add_argument("--json", type=Path, default=None)
    ap.add_argument("--no-deep", action="store_true")
    ap.add_argument("--oracle", type=int, default=0, metavar="N",
                    help="instead: N mutants checked against the real Tritons 3.1/3.3/3.9")
    ap.add_argument("--all-commands", action="store_true",
                    help="with --oracle: each mutant also through irkit-report, irkit-sweep and irkit-check's front")
    args = ap.parse_args(argv)
    args.keep.mkdir(parents=True, exist_ok=True)
    if args.oracle:
        start = time.time()
        result = oracle_campaign(args.oracle, args.seed, args.keep, with_commands=args.all_commands)
        result["command"] = "python tools/fuzz_mutations.py " + " ".join(argv if argv is not None else sys.argv[1:])
        result["seconds"] = round(time.time() - start)
        print(json.dumps({k: v for k, v in result.items() if k != "failures"}, indent=1))
        for f in result["failures"][:30]:
            print(f, file=sys.stderr)
        if args.json:
            args.json.write_text(json.dumps(result, indent=1) + "\n")
        wrong = sum(c.get(k, 0) for c in result["by_version"].values() for k in ("wrong success", "internal", "bad-error"))
        wrong += sum(c.get("internal", 0) + c.get("disagrees", 0) for c in result["other_commands"].values())
        return 1 if wrong else 0
    files = test_mutations.base_files()
    if not files:
        print("no corpus files (../shared/corpus): nothing to mutate")
        return 1
    rng = random.Random(args.seed)
    outcomes: Counter[str] = Counter()
    by_pass: dict[str, Counter[str]] = {}
    rule_outcomes: dict[str, Counter[str]] = {}
    failures: list[dict] = []
    work = args.keep
    start = time.time()
    for k in range(args.count):
        base = rng.choice(files)
        text, what = test_mutations.mutate(rng, test_mutations.base_text(base))
        flags = rng.choice(PASSES)
        path = test_mutations.write_mutant(work, f"t{k}.mlir", text)
        code, out, err = test_mutations.run_in_process([str(path), *flags])
        outcome = classify(path, text, code, out, err)
        outcomes[outcome] += 1
        by_pass.setdefault(" ".join(flags) or "(none)", Counter())[outcome] += 1
        if outcome in ("internal", "bad-error"):
            keep = test_mutations.write_mutant(work, f"failing_t{k}.mlir", text)
            failures.append({"input": str(keep), "base": str(base), "mutation": what, "flags": flags,
                             "outcome": outcome, "stderr": err[:400]})
        path.unlink()
        if k % 500 == 499:
            print(f"{k + 1} text mutants, {time.time() - start:.0f} s: {dict(outcomes)}", file=sys.stderr)
    ttgir = [f for f in files if f.suffix == ".ttgir"]
    rule_count = 0
    for k in range(args.count // 5):
        base = rng.choice(ttgir)
        made = test_mutations.rule_mutant(rng, test_mutations.base_text(base))
        if made is None:
            continue
        text, rule, expect = made
        rule_count += 1
        path = test_mutations.write_mutant(work, f"r{k}.mlir", text)
        code, out, err = test_mutations.run_in_process([str(path)])
        outcome = classify(path, text, code, out, err)
        if outcome == "ok":
            outcome = "wrong-success"
        elif outcome == "error" and not any(e in err for e in expect):
            outcome = "error (other rule first)"
        rule_outcomes.setdefault(rule, Counter())[outcome] += 1
        if outcome in ("internal", "bad-error", "wrong-success"):
            keep = test_mutations.write_mutant(work, f"failing_r{k}.mlir", text)
            failures.append({"input": str(keep), "base": str(base), "rule": rule, "outcome": outcome, "stderr": err[:400]})
        path.unlink()
    deep = None
    if not args.no_deep:
        path = test_mutations.write_mutant(work, "deep.mlir", test_mutations.nested_ifs(10_000))
        t0 = time.time()
        code, out, err = test_mutations.run_in_process([str(path)])
        deep = {"levels": 10_000, "exit": code, "seconds": round(time.time() - t0, 1), "stderr": err[:200]}
        path.unlink()
    result = {
        "command": "python tools/fuzz_mutations.py " + " ".join(argv if argv is not None else sys.argv[1:]),
        "seed": args.seed, "text_mutants": args.count, "outcomes": dict(outcomes),
        "by_pass": {k: dict(v) for k, v in by_pass.items()},
        "rule_mutants": rule_count, "rule_outcomes": {k: dict(v) for k, v in rule_outcomes.items()},
        "deep_nesting": deep, "failures": failures[:50], "seconds": round(time.time() - start),
    }
    print(json.dumps({k: v for k, v in result.items() if k != "failures"}, indent=1))
    for f in failures[:20]:
        print(f, file=sys.stderr)
    if args.json:
        args.json.write_text(json.dumps(result, indent=1) + "\n")
    bad = outcomes["internal"] + outcomes["bad-error"] + sum(
        c[o] for c in rule_outcomes.values() for o in ("internal", "bad-error", "wrong-success"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
