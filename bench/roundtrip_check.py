"""Correctness guard for front-end speed work: every corpus file must still
round-trip, and the text irkit prints must still be accepted by the real parser.

For each `.ttir`/`.ttgir` file of the corpus:
  * parse, verify (no errors), print with locations: equal to the input up to
    whitespace;
  * print without locations, parse that, print again: identical (idempotent);
  * print in generic form, parse that, print with locations: equal to the
    first print (reported separately: the generic form is a second syntax).
With `--triton-python PY` (a Python that imports Triton; several allowed), the
location-free and generic prints of each file whose Triton version matches are
handed to Triton's own parser (`ir.parse_mlir_module`), which must accept them.

    python bench/roundtrip_check.py [--corpus DIR] [--triton-python PY ...] [-j N]

Exit status 1 when any round trip or real-parser check fails.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_CORPUS = ROOT / "tests" / "data" / "corpus"  # the copy shipped with the tests


def _norm(text: str) -> str:
    return " ".join(text.split())


def _flat(path: str) -> str:
    """A file name unique across versions and targets: `3.1.0__cuda_80__<id>.ttgir`."""
    parts = Path(path).parts
    return "__".join(parts[-3:])


def check_file(path: str, keep_dir: str | None) -> dict:
    from irkit.frontend.parser import Parser
    from irkit.frontend.printer import print_module
    from irkit.verifier import verify_module

    text = Path(path).read_text()
    problems: list[str] = []
    generic_ok = True
    try:
        pm = Parser(text, path).parse()
        errors = verify_module(pm.module)
        if errors:
            problems.append(f"verify: {errors[0][1]}")
        with_locs = print_module(pm, debuginfo=True)
        if _norm(with_locs) != _norm(text):
            problems.append("round trip with locations differs from the input")
        plain = print_module(pm)
        if "loc(" in plain:
            problems.append("location-free print has loc(")
        if print_module(Parser(plain, path).parse()) != plain:
            problems.append("location-free print is not idempotent")
        generic = print_module(pm, generic=True, debuginfo=True)
        if print_module(Parser(generic, path).parse(), debuginfo=True) != with_locs:
            generic_ok = False
        if keep_dir is not None:
            stem = Path(keep_dir) / _flat(path)
            Path(str(stem) + ".plain.mlir").write_text(plain)
            Path(str(stem) + ".generic.mlir").write_text(print_module(pm, generic=True))
    except Exception as e:  # noqa: BLE001 - any failure is a finding
        problems.append(f"{type(e).__name__}: {e}")
    return {"path": path, "problems": problems, "generic_ok": generic_ok}


_REAL_PARSER = r"""
import glob, json, sys
from triton._C.libtriton import ir

def context():
    ctx = ir.context(); ir.load_dialects(ctx)
    for mod in ("nvidia", "amd"):
        try:
            getattr(__import__("triton._C.libtriton", fromlist=[mod]), mod).load_dialects(ctx)
        except Exception:
            pass
    return ctx

bad = []
for f in sorted(glob.glob(sys.argv[1] + "/*.mlir")):
    ctx = context()  # one per file: a failed parse can leave a context unusable
    try:
        ir.parse_mlir_module(f, ctx)
    except Exception as e:
        bad.append([f, str(e).splitlines()[0][:200] if str(e) else "rejected"])
import triton
print(json.dumps({"version": triton.__version__, "bad": bad}))
"""


def triton_version(python: str) -> str:
    out = subprocess.run([python, "-c", "import triton; print(triton.__version__)"], capture_output=True, text=True)
    return out.stdout.strip()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpus", type=Path, default=Path(os.environ.get("IRKIT_CORPUS", DEFAULT_CORPUS)))
    ap.add_argument("--triton-python", action="append", default=[], help="a Python with Triton (repeatable)")
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1)
    args = ap.parse_args(argv)
    files = sorted(str(p) for p in args.corpus.glob("ir/*/*/*.tt*ir"))
    if not files:
        print(f"roundtrip_check: no corpus at {args.corpus}; nothing to check")
        return 0
    versions = {triton_version(py): py for py in args.triton_python}
    keep = tempfile.mkdtemp(prefix="irkit-rt-") if versions else None
    start = time.perf_counter()
    with ProcessPoolExecutor(args.jobs) as pool:
        results = list(pool.map(check_file, files, [keep] * len(files), chunksize=4))
    failed = [r for r in results if r["problems"]]
    generic_bad = [r["path"] for r in results if not r["generic_ok"]]
    for r in failed:
        for p in r["problems"]:
            print(f"FAIL {r['path']}: {p}")
    for p in generic_bad:
        print(f"GENERIC {p}: generic print does not read back to the same module")
    print(
        f"round trip: {len(files) - len(failed)}/{len(files)} files ok; "
        f"generic form: {len(files) - len(generic_bad)}/{len(files)} ok ({time.perf_counter() - start:.1f} s)"
    )
    real_bad = 0
    for version, py in sorted(versions.items()):
        folder = tempfile.mkdtemp(prefix=f"irkit-rt-{version}-")
        n = 0
        for r in results:
            if f"/ir/{version}/" in r["path"] and not r["problems"]:
                stem = Path(keep) / _flat(r["path"])
                for kind in ("plain", "generic"):
                    src = Path(f"{stem}.{kind}.mlir")
                    (Path(folder) / f"{_flat(r['path'])}.{kind}.mlir").write_text(src.read_text())
                    n += 1
        out = subprocess.run([py, "-c", _REAL_PARSER, folder], capture_output=True, text=True)
        try:
            report = json.loads(out.stdout.strip().splitlines()[-1])
        except (IndexError, json.JSONDecodeError):
            print(f"real parser {version}: could not run ({out.stderr.strip()[-300:]})")
            real_bad += 1
            continue
        for f, msg in report["bad"]:
            print(f"REAL-PARSER {version} {Path(f).name}: {msg}")
        real_bad += len(report["bad"])
        print(f"real parser {version}: {n - len(report['bad'])}/{n} printed files accepted")
    return 1 if failed or real_bad else 0


if __name__ == "__main__":
    sys.exit(main())
