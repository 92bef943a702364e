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
import random
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

import test_mutations  # noqa: E402  (the suite's mutation operators and checker)

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
    args = ap.parse_args(argv)
    args.keep.mkdir(parents=True, exist_ok=True)
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
