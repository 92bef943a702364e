"""Measure `propagate-mma` on the corpus with the REAL Triton compilers and write docs/propagate-mma-corpus.md.

For every corpus TTGIR tagged `epilogue:add_matrix` (GEMM + add-matrix epilogue; cuda:80, cuda:90, hip:gfx942,
hip:gfx90a; Triton 3.1, 3.3, 3.9; variants that compiled), this tool

1. counts the conversions between an accumulator layout and a blocked one in the TTGIR Triton produced;
2. runs irkit's `propagate-mma` on it and counts them again;
3. compiles both files with the Triton version that produced them, through its backend to the binary
   (`tools/refgen/check_compile.py`, i.e. `triton.compile(<file>.ttgir, target=...)`), and reads
   `metadata.shared` of each: the compiler's own shared-memory figure, checked against the device limit at
   kernel load time (A100 166,912 B; H100 232,448 B; MI300X/MI250X 65,536 B).

    /work/venv-dev/bin/python tools/propagate_mma_table.py                       # all variants, 2 jobs
    /work/venv-dev/bin/python tools/propagate_mma_table.py --only hip_gfx942 --jobs 2 --out /tmp/t.md

Needs the Triton venvs of tools/refgen/README.md (and ld.lld for HIP).  Figures in the table are only ever
what the real compiler reported; a variant the compiler rejects is listed with its error.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_CORPUS = ROOT / "tests" / "data" / "corpus"  # the copy shipped with the tests
CHECK_COMPILE = ROOT / "tools" / "refgen" / "check_compile.py"
LIMITS = {"cuda:80": 166912, "cuda:90": 232448, "hip:gfx942": 65536, "hip:gfx90a": 65536}
TARGETS = tuple(LIMITS)


@dataclass
class Row:
    version: str
    target: str
    variant: str
    ptr: str
    cvt_before: int
    cvt_after: int
    other_cvt_after: int
    before: dict
    after: dict

    @property
    def limit(self) -> int:
        return LIMITS[self.target]


def epilogue_variants(corpus: Path, only: str | None) -> list[dict]:
    rows = [json.loads(line) for line in (corpus / "manifest.jsonl").read_text().splitlines() if line.strip()]
    out = []
    for r in rows:
        if "epilogue:add_matrix" not in r["tags"] or r["status"] == "compile_error" or r["target"] not in TARGETS:
            continue
        if only and only not in r["files"]["ttgir"]:
            continue
        out.append(r)
    return out


def accumulator_conversions(module) -> list:
    from irkit.analysis.mma_slice import classify_conversion

    return [op for op in module.walk() if op.name == "ttg.convert_layout" and classify_conversion(op)[0] is not None]


def rewrite(path: Path, out: Path) -> tuple[int, int, int]:
    """Run propagate-mma on `path`, write `out`; (accumulator conversions before, after, other conversions after)."""
    from irkit.passes import all_passes

    from irkit import diagnostics
    from irkit.frontend.parser import Parser
    from irkit.frontend.printer import print_module
    from irkit.verifier import verify_module

    parsed = Parser(path.read_text(), path.name).parse()
    before = len(accumulator_conversions(parsed.module))
    all_passes()["propagate-mma"](profit="always").apply(None, parsed.module)  # every rewrite the pass can make
    diagnostics.take()
    errors = verify_module(parsed.module)
    if errors:
        raise RuntimeError(f"{path.name}: the rewritten module does not verify: {errors[0][1]}")
    after = len(accumulator_conversions(parsed.module))
    total = sum(1 for op in parsed.module.walk() if op.name == "ttg.convert_layout")
    out.write_text(print_module(parsed))
    return before, after, total - after


def real_compile(version: str, target: str, path: Path) -> dict:
    proc = subprocess.run(
        [sys.executable, str(CHECK_COMPILE), "--triton", version, "--target", target, str(path)],
        capture_output=True,
        text=True,
        timeout=900,
    )
    lines = [line for line in proc.stdout.splitlines() if line.startswith("{")]
    if not lines:
        return {"ok": False, "shared": None, "error": (proc.stderr or proc.stdout).strip()[-400:]}
    return json.loads(lines[-1])


def prepare(r: dict, corpus: Path, tmp: Path) -> tuple[Row, Path, Path]:
    """Rewrite one variant with irkit (in this process; the compiles run in parallel afterwards)."""
    version = ".".join(r["triton_version"].split(".")[:2])
    src = corpus / r["files"]["ttgir"]
    dst = tmp / f"{version}_{r['target'].replace(':', '_')}_{src.name}"
    before_n, after_n, other = rewrite(src, dst)
    ptr = next((t.split(":")[1] for t in r["tags"] if t.startswith("ptr:")), "?")
    return Row(r["triton_version"], r["target"], r["id"], ptr, before_n, after_n, other, {}, {}), src, dst


def measure(job: tuple[Row, Path, Path]) -> Row:
    row, src, dst = job
    version = ".".join(row.version.split(".")[:2])
    row.before = real_compile(version, row.target, src)
    row.after = real_compile(version, row.target, dst)
    return row


def fmt_bytes(result: dict) -> str:
    return f"{result['shared']:,}" if result.get("ok") else "rejected"


def fits(row: Row, result: dict) -> str:
    if not result.get("ok"):
        return "—"
    return "yes" if result["shared"] <= row.limit else "**no**"


def markdown(rows: list[Row]) -> str:
    lines = [
        "# propagate-mma on the corpus: measured by the real Triton compilers",
        "",
        "Generated by `tools/propagate_mma_table.py` (do not edit by hand).  For every GEMM + add-matrix TTGIR of",
        "the corpus (`epilogue:add_matrix`; `ptr` is how the kernel was written, the TTGIR has tensors of",
        "pointers on every target here), *before* is the TTGIR Triton produced and *after* is",
        "`irkit-opt --propagate-mma=profit=always` of it.  Both are compiled by the Triton version that produced the input,",
        "through its backend to the binary; *shared* is that compile's `metadata.shared`, the bytes checked",
        "against the device at kernel load (*limit*).  *cvt* counts conversions between the accumulator layout",
        "and a blocked one.",
        "",
        "| Triton | target | variant | ptr | cvt before | cvt after | shared before (B) | shared after (B) | limit (B)"
        " | fits before | fits after |",
        "|---|---|---|---|---:|---:|---:|---:|---:|---|---|",
    ]
    for r in rows:
        lines.append(
            f"| {r.version} | {r.target} | `{r.variant}` | {r.ptr} | {r.cvt_before} | {r.cvt_after} | "
            f"{fmt_bytes(r.before)} | {fmt_bytes(r.after)} | {r.limit:,} | {fits(r, r.before)} | {fits(r, r.after)} |"
        )
    ok = [r for r in rows if r.before.get("ok") and r.after.get("ok")]
    smaller = [r for r in ok if r.after["shared"] < r.before["shared"]]
    same = [r for r in ok if r.after["shared"] == r.before["shared"]]
    larger = [r for r in ok if r.after["shared"] > r.before["shared"]]
    newly_fit = [r for r in ok if r.before["shared"] > r.limit >= r.after["shared"]]
    still_over = [r for r in ok if r.after["shared"] > r.limit]
    rejected = [r for r in rows if not r.after.get("ok")]
    lines += [
        "",
        "## Summary",
        "",
        f"* {len(rows)} variants; conversions removed in {sum(1 for r in rows if r.cvt_after == 0 and r.cvt_before)}; "
        f"the real compiler accepted {len(rows) - len(rejected)} rewritten files.",
        f"* shared memory: smaller in {len(smaller)}, unchanged in {len(same)}, larger in {len(larger)}.  Unchanged means"
        " the peak is the software pipeline's buffers: the epilogue conversion's scratch already reused their space.",
        f"* {len(newly_fit)} variants go from over the limit to within it: "
        + ", ".join(f"{r.version} {r.target} `{r.variant}` ({r.before['shared']:,} → {r.after['shared']:,})" for r in newly_fit)
        + ".",
        f"* {len(still_over)} stay over the limit (their pipeline buffers alone exceed it)"
        + (": " + ", ".join(f"{r.version} {r.target} `{r.variant}` ({r.after['shared']:,})" for r in still_over) if still_over else "")
        + ".",
    ]
    for r in rejected:
        lines.append(f"* rejected after the rewrite: {r.version} {r.target} `{r.variant}`: {r.after.get('error')}")
    return "\n".join(lines) + "\n"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "propagate-mma-corpus.md")
    ap.add_argument("--json", type=Path, default=None, help="also write the raw results as JSON")
    ap.add_argument("--only", default=None, help="substring of the TTGIR path (e.g. 3.1.0/hip_gfx942)")
    ap.add_argument("--jobs", type=int, default=2)
    a = ap.parse_args()
    variants = epilogue_variants(a.corpus, a.only)
    with tempfile.TemporaryDirectory() as tmp:
        jobs = [prepare(r, a.corpus, Path(tmp)) for r in variants]
        with ThreadPoolExecutor(a.jobs) as pool:
            rows = list(pool.map(measure, jobs))
    rows.sort(key=lambda r: (r.version, r.target, r.variant))
    a.out.write_text(markdown(rows))
    if a.json:
        a.json.write_text(json.dumps([r.__dict__ for r in rows], indent=1) + "\n")
    print(f"{len(rows)} variants -> {a.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
