"""Check irkit on the TTGIR of tools/fresh_kernels.py: round trip, real parsers, shared memory, propagate-mma.

For every `<out>/<version>/<target>/<name>.ttgir` that tools/fresh_kernels.py wrote (with the compiler's
`metadata.shared` in `<out>/<version>/index.json`), run irkit's commands in-process, as a user would run them:

* `irkit-opt FILE` (no passes), `irkit-opt --mlir-print-op-generic --mlir-print-debuginfo FILE` and
  `irkit-opt --mlir-print-debuginfo FILE`: exit 0, and the last prints the file back byte for byte;
* `irkit-report --json FILE`: exit 0; `shared_bytes` against the compiler's `shared`;
* `irkit-opt -p 'propagate-mma'` and `-p 'propagate-mma{profit=always}'`: exit 0;
* the real Triton of the same version (`--pythons`, default IRKIT_TRITON_PYTHONS) parses irkit's outputs
  (custom and generic form, both propagate-mma outputs), through tests/real_triton_check.py;
* no command prints a Python traceback or an `internal error`.

Every command gets `--triton-version <the compiler's>`, what irkit reads from the JSON next to a kernel in
Triton's cache.

    IRKIT_TRITON_PYTHONS=3.5.1=/work/venvs/t3.5.1/bin/python:3.8.0=...:3.9.0=... \\
      .venv/bin/python tools/fresh_sweep.py /tmp/fresh --json docs/fresh-sweep.json
    (Intel's triton-xpu: add `3.3.0b1=/work/venvs/xpu/bin/python` to the pythons.)

Prints the table of docs/printer-fidelity.md's held-out section (one row per version x target).  The default
`propagate-mma` decides with the model (no Triton is importable from irkit's own Python here).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))
from real_parser_check import parse_pythons  # noqa: E402

from irkit.cli import opt, report  # noqa: E402

PROPAGATE = {"mma": "propagate-mma", "mma_always": "propagate-mma{profit=always}"}


def run_cli(main, argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            main(argv)
            code = 0
        except SystemExit as e:
            code = e.code if isinstance(e.code, int) else 1
        except BaseException as e:  # noqa: BLE001  (a crash past run_command is exactly what we look for)
            err.write(f"Traceback (escaped run_command): {type(e).__name__}: {e}\n")
            code = 99
    return code, out.getvalue(), err.getvalue()


def _crashed(code: int, err: str) -> bool:
    return code not in (0, 1) or "Traceback" in err or "internal error" in err


def check_file(path: Path, work: Path, version: str) -> dict:
    rec: dict = {"outputs": {}, "errors": {}}
    text = path.read_text()
    stem = work / path.stem
    given = ["--triton-version", version]  # what the JSON next to a kernel in Triton's cache tells irkit
    for label, argv in [("plain", [str(path), "-o", f"{stem}.plain.mlir"]),
                        ("generic", [str(path), "--mlir-print-op-generic", "--mlir-print-debuginfo",
                                     "-o", f"{stem}.generic.mlir"]),
                        ("debuginfo", [str(path), "--mlir-print-debuginfo"]),
                        *[(k, [str(path), "-p", p, "-o", f"{stem}.{k}.mlir"]) for k, p in PROPAGATE.items()]]:
        code, out, err = run_cli(opt.main, given + argv)
        rec[label] = code == 0
        if code != 0:
            rec["errors"][label] = err.strip().splitlines()[-1][:400] if err.strip() else f"exit {code}"
        if _crashed(code, err):
            rec.setdefault("crashes", []).append(label)
        if label == "debuginfo":
            rec["exact_round_trip"] = code == 0 and out == text
        elif code == 0:
            rec["outputs"][label] = argv[-1]
    code, out, err = run_cli(report.main, ["--json", *given, str(path)])
    if _crashed(code, err):
        rec.setdefault("crashes", []).append("report")
    if code == 0:
        rec["irkit_shared"] = json.loads(out)["shared_bytes"]
    else:
        rec["errors"]["report"] = err.strip()[-400:]
    return rec


def real_parse(python: str, paths: list[str]) -> dict[str, str | None]:
    proc = subprocess.run([python, str(ROOT / "tests" / "real_triton_check.py"), "--isolate", *paths],
                          capture_output=True, text=True, check=False, timeout=3600)
    if proc.returncode != 0:
        raise RuntimeError(proc.stderr[-2000:])
    return json.loads(proc.stdout)["results"]


def table(rows: list[dict]) -> str:
    lines = ["| Triton | target | kernels (rejected) | irkit parse + print | exact round trip | real parser reads irkit "
             "(custom, generic) | propagate-mma / {profit=always} ok, read | shared exact "
             "| shared off (kernel: irkit - compiler) | crashes |", "|" + "---|" * 10]
    for key in sorted({(r["version"], r["target"]) for r in rows}):
        mine = [r for r in rows if (r["version"], r["target"]) == key]
        ok = [r for r in mine if "ttgir" in r]
        n = len(ok)
        off = [r for r in ok if r.get("irkit_shared") != r["shared"]]
        offs = ", ".join(f"{r['name']}: {r['irkit_shared'] - r['shared']:+}" if r.get("irkit_shared") is not None
                         else f"{r['name']}: no report" for r in off)
        prop = "/".join(f"{sum(bool(r.get(k)) for r in ok)}, {sum(r.get('real', {}).get(k) is None and k in r.get('real', {}) for r in ok)}"
                        for k in PROPAGATE)
        lines.append(
            f"| {key[0]} | {key[1]} | {n} ({len(mine) - n}) | {sum(bool(r.get('plain')) for r in ok)} "
            f"| {sum(bool(r.get('exact_round_trip')) for r in ok)} "
            f"| {sum(r.get('real', {}).get('plain', 'x') is None for r in ok)}, "
            f"{sum(r.get('real', {}).get('generic', 'x') is None for r in ok)} | {prop} "
            f"| {n - len(off)} | {offs or '-'} | {sum(bool(r.get('crashes')) for r in ok)} |")
    return "\n".join(lines)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folder", type=Path, help="the --out folder of tools/fresh_kernels.py")
    ap.add_argument("--pythons", default=os.environ.get("IRKIT_TRITON_PYTHONS", ""))
    ap.add_argument("--json", type=Path)
    ap.add_argument("--only", default="", help="comma-separated kernel names")
    ap.add_argument("--versions", default="", help="comma-separated Triton versions (default: every folder)")
    args = ap.parse_args()
    for var in ("IRKIT_TRITON_PYTHON", "IRKIT_TRITON_PYTHONS"):  # the default propagate-mma: the model decides
        os.environ.pop(var, None)
    pythons = parse_pythons(args.pythons)
    rows: list[dict] = []
    for index in sorted(args.folder.glob("*/index.json")):
        version = json.loads(index.read_text())["triton"]
        if args.versions and version not in args.versions.split(","):
            continue
        work = Path(tempfile.mkdtemp(prefix=f"fresh-{version}-"))
        mine = []
        for case in json.loads(index.read_text())["cases"]:
            if args.only and case["name"] not in args.only.split(","):
                continue
            row = {"version": version, **{k: case[k] for k in ("name", "target")}}
            if "ttgir" not in case:
                row["compiler_error"] = case["error"]
                rows.append(row)
                continue
            row.update(ttgir=case["ttgir"], shared=case["shared"])
            sub = work / case["target"].replace(":", "_")
            sub.mkdir(exist_ok=True)
            row.update(check_file(args.folder / case["ttgir"], sub, version))
            mine.append(row)
            rows.append(row)
            print(f"{version} {case['target']:10} {case['name']:24} shared {row.get('irkit_shared')} vs {case['shared']}"
                  f" {row['errors'] or ''} {row.get('crashes', '')}", flush=True)
        if version in pythons:
            paths = [p for r in mine for p in r["outputs"].values()]
            results = real_parse(pythons[version], paths)
            for r in mine:
                r["real"] = {k: results[p] for k, p in r["outputs"].items()}
        for r in mine:
            del r["outputs"]
    print(table(rows))
    if args.json:
        args.json.write_text(json.dumps({"command": " ".join(sys.argv), "rows": rows}, indent=1, sort_keys=True) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
