"""Parse and print CPU time of irkit's front end on given files (best and median of N fresh runs).

    python bench/print_speed.py [--irkit DIR] [--reps N] FILE...

`--irkit DIR` puts DIR first on sys.path, so an older checkout's `irkit` package (e.g. one exported with
`git archive <commit> irkit | tar -x -C /tmp/old`) can be timed against this one on the same machine.
Prints one JSON object: per file, ops, and the seconds of `Parser(...).parse()`, `print_module(...)`
and `print_module(..., debuginfo=True)`.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="+")
    ap.add_argument("--irkit", help="a folder holding the irkit package to time")
    ap.add_argument("--reps", type=int, default=9)
    args = ap.parse_args(argv)
    if args.irkit:
        sys.path.insert(0, args.irkit)
    import irkit
    from irkit.frontend.parser import Parser
    from irkit.frontend.printer import print_module

    out = {"irkit": irkit.__file__, "reps": args.reps, "files": {}}
    for path in args.files:
        text = open(path).read()
        parsed = Parser(text, path).parse()
        row = {"ops": sum(1 for _ in parsed.module.walk())}
        runs = {
            "parse": lambda text=text, path=path: Parser(text, path).parse(),
            "print": lambda parsed=parsed: print_module(parsed),
            "print_debuginfo": lambda parsed=parsed: print_module(parsed, debuginfo=True),
        }
        for name, fn in runs.items():
            times = []
            for _ in range(args.reps):
                t0 = time.process_time()
                fn()
                times.append(time.process_time() - t0)
            row[name] = {"best": round(min(times), 4), "median": round(statistics.median(times), 4)}
        out["files"][path] = row
    json.dump(out, sys.stdout, indent=1)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
