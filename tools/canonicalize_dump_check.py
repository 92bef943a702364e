"""Replay every canonicalizer run of Triton's IR dumps with irkit's canonicalize and count the equal ones.

    python tools/canonicalize_dump_check.py --triton-version 3.8.0 dump1.txt [dump2.txt.gz ...] [--json out.json]

A dump is what `MLIR_ENABLE_DUMP=1` writes while Triton compiles (the module before every pass).  Each
`Canonicalizer` run on the whole module is followed by the next module-level "before" dump, which is that
run's output.  irkit's canonicalize, told the version, runs on the first; the two printouts are compared with
locations, constants and value names set aside (MLIR hoists constants and numbers deduplicated names its own
way).  Runs on IR irkit does not read (after lowering to LLVM) are counted apart.  Exits 1 if any run differs.
"""

from __future__ import annotations

import argparse
import difflib
import json
import re
import sys
from pathlib import Path

from irkit.passes.canonicalize import CanonicalizePass
from xdsl.context import Context

from irkit.frontend.dumplog import read_text, split_sections
from irkit.frontend.lexer import ParseError
from irkit.frontend.parser import Parser
from irkit.frontend.printer import print_module

FUNC = re.compile(r"tt\.func (?:public |private )?@([\w.$-]+)")
CONSTANT = re.compile(r" = (arith\.constant|ub\.poison) ")  # constant-like: MLIR hoists them


def comparable(text: str) -> list[str]:
    """Lines without locations, constants and value names, with each layout alias written out (their
    numbering follows the order of first use, which hoisting constants changes)."""
    aliases = dict(re.findall(r"^(#[\w.$-]+) = (.*)$", text, re.M))
    lines = []
    for line in text.splitlines():
        line = re.sub(r"\s*loc\((?:[^()]|\([^()]*\))*\)", "", line).rstrip()
        if not line or line.startswith("#") or CONSTANT.search(line):
            continue
        line = re.sub(r"#[\w.$-]+", lambda m: aliases.get(m.group(), m.group()), line)
        lines.append(re.sub(r"%[\w.$-]+", "%_", line))
    return lines


def check(path: str, version: str) -> list[dict]:
    sections = [s for s in split_sections(read_text(path)) if not s.is_internal and s.kind == "before"]
    rows = []
    for here, after in zip(sections, sections[1:]):
        if "Canonicalizer" not in here.pass_class or {here.anchor_op, after.anchor_op} != {"builtin.module"}:
            continue
        row = {"dump": path, "section": here.index, "header_line": here.header_line}
        if FUNC.findall(here.text) != FUNC.findall(after.text):
            continue  # a log of several compiles: the next dump belongs to another kernel
        try:
            parsed = Parser(here.text, "in.mlir").parse()
        except ParseError as e:
            rows.append({**row, "result": "unread", "why": str(e)[:200]})
            continue
        CanonicalizePass(version=version).apply(Context(), parsed.module)
        mine, theirs = comparable(print_module(parsed)), comparable(after.text)
        diff = list(difflib.unified_diff(theirs, mine, "triton", "irkit", lineterm="", n=0))[:20]
        rows.append({**row, "result": "equal" if mine == theirs else "differs", "diff": diff})
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("dumps", nargs="+")
    ap.add_argument("--triton-version", required=True)
    ap.add_argument("--json", default=None)
    args = ap.parse_args(argv)
    rows = [row for path in args.dumps for row in check(path, args.triton_version)]
    for row in rows:
        if row["result"] == "differs":
            print(f"DIFFERS {row['dump']}:{row['header_line']}\n" + "\n".join(row["diff"]))
    counts = {k: sum(r["result"] == k for r in rows) for k in ("equal", "differs", "unread")}
    print(json.dumps({"triton_version": args.triton_version, "dumps": len(args.dumps), **counts}))
    if args.json:
        Path(args.json).write_text(json.dumps({"triton_version": args.triton_version, "runs": rows}, indent=1) + "\n")
    return 1 if counts["differs"] else 0


if __name__ == "__main__":
    sys.exit(main())
