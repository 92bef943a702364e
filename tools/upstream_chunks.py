"""Read Triton's own lit inputs with irkit, chunk by chunk: parse, verify, print.

    python tools/upstream_chunks.py /path/to/triton/test [--json out.json] [--show 20]

Takes a test folder of a Triton checkout or export that you made (nothing is fetched or copied into
this repository).  Every `.mlir` file outside Conversion, LLVMIR, Proton and Gluon is split at
`// -----` as `--split-input-file` does; a chunk that expects a diagnostic (`expected-error`,
`expected-warning`, `expected-remark`) is negative and left out.  Each positive chunk goes through
`irkit-opt` in this process with no pass: it counts as read when irkit-opt exits 0 and prints a module.
Failures are grouped by their first error line with the op or token named in it, most frequent first.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import re
import sys
import tempfile
from collections import Counter
from pathlib import Path

EXCLUDED_DIRS = ("Conversion", "LLVMIR", "Proton", "Gluon", "TritonGEN", "Tools", "lib", "include")
NEGATIVE = re.compile(r"expected-(error|warning|remark|note)")
SPLIT = re.compile(r"^// -----.*$", re.M)


def run_flags(text: str) -> list[str]:
    """The RUN-line flags that change what the parser accepts."""
    runs = " ".join(re.findall(r"^//\s*RUN:(.*)$", text, re.M))
    return ["--allow-unregistered-dialect"] if "allow-unregistered-dialect" in runs else []


def positive_chunks(path: Path) -> list[tuple[int, str]]:
    """(first line, text) of each chunk of a lit input that expects no diagnostic."""
    text = path.read_text(errors="replace")
    chunks, line = [], 1
    for part in SPLIT.split(text):
        if not NEGATIVE.search(part) and re.search(r"^\s*(module|tt\.func|func\.func|#|!|\"builtin)", part, re.M):
            chunks.append((line, part))
        line += part.count("\n")
    return chunks


def read_chunk(text: str, flags: list[str]) -> tuple[bool, str]:
    """Run irkit-opt on one chunk; (read, first error line)."""
    from irkit.cli.opt import run

    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp, "chunk.mlir")
        src.write_text(text)
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                rc = run([str(src), *flags, "-o", str(Path(tmp, "out.mlir"))])
            except SystemExit as e:
                rc = e.code if isinstance(e.code, int) else 1
            except Exception as e:  # noqa: BLE001 - a crash is a finding, not a stop
                return False, f"internal error: {type(e).__name__}: {e}"
        if rc == 0 and Path(tmp, "out.mlir").exists():
            return True, ""
        first = next((ln for ln in err.getvalue().splitlines() if "error" in ln), err.getvalue()[:200])
        return False, re.sub(r"^.*?chunk\.mlir:\d+:\d+: ", "", first).strip()


def failure_kind(message: str) -> str:
    """A short key grouping similar failures: the quoted op/token names, numbers dropped."""
    quoted = re.findall(r"'([^']{1,60})'", message)
    key = re.sub(r"\d+", "N", message)[:90] if not quoted else message.split(":")[0][:40] + " " + " ".join(quoted[:2])
    return key


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("test_dir", type=Path)
    ap.add_argument("--json", type=Path)
    ap.add_argument("--show", type=int, default=25, help="failure groups to print")
    args = ap.parse_args(argv)
    files = sorted(p for p in args.test_dir.rglob("*.mlir")
                   if not set(p.relative_to(args.test_dir).parts[:-1]) & set(EXCLUDED_DIRS))
    total = read = 0
    kinds: Counter[str] = Counter()
    failures: list[dict] = []
    for path in files:
        flags = run_flags(path.read_text(errors="replace"))
        for line, chunk in positive_chunks(path):
            total += 1
            ok, message = read_chunk(chunk, flags)
            if ok:
                read += 1
                continue
            kinds[failure_kind(message)] += 1
            failures.append({"file": str(path.relative_to(args.test_dir)), "line": line, "error": message})
    pct = 100.0 * read / total if total else 0.0
    print(f"{read} of {total} positive chunks read ({pct:.1f}%) in {len(files)} files")
    for kind, n in kinds.most_common(args.show):
        print(f"{n:5d}  {kind}")
    if args.json:
        args.json.write_text(json.dumps({"read": read, "total": total, "files": len(files),
                                         "failures": failures}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
