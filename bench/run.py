"""irkit's benchmarks, side by side with MLIR C++ (Triton's own parser and passes).

    python bench/run.py                      # everything; MLIR C++ too when `import triton` works
    python bench/run.py --triton-python /path/to/venv-with-triton/bin/python
    python bench/run.py --quick              # 1 repetition, no 100k module
    python bench/run.py --json results.json  # also write the raw figures
    python bench/run.py --report-only --json docs/performance-report.json   # irkit-report vs irkit-opt

Inputs: the real corpus files (tests/data/corpus, or --corpus / $IRKIT_CORPUS), one real
kernel, and modules of about 10k and 100k operations made by bench/gen_big.py from real
Triton 3.1 TTGIR functions (renamed copies; written under bench/.work/, never committed).
Without the corpus, the shipped example kernel is the source and the corpus rows are
skipped.

For each input and tool, each repetition is a fresh process (repetitions run round-robin over all
inputs and tools): irkit parses, verifies,
prints (with locations) and runs --propagate-mma=profit=model (its own work); Triton parses (parse_mlir_module, which
verifies too), prints (module.str(), with locations) and runs remove-layout-conversions.
Times are CPU seconds of the measuring process (so other load on the machine does not
inflate them), best of --reps; peak memory is the process's maximum resident set.
End-to-end commands (irkit-report --per-pass on the public dump log, irkit-opt --help)
are wall-clock, best of --reps.  The run ends with the targets and whether each is met.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
sys.path.insert(0, str(BENCH))

import gen_big  # noqa: E402

DEFAULT_CORPUS = Path(os.environ.get("IRKIT_CORPUS", ROOT / "tests" / "data" / "corpus"))
DUMP_LOG = "dumps/3.1.0/cuda_80/matmul_addmm_bp__bf16__BM256_BN256_BK32_G8__w8_s3/mlir_dump.full.txt.gz"
ONE_KERNEL = "ir/3.1.0/cuda_80/matmul_addmm_bp__bf16__BM256_BN256_BK32_G8__w8_s3.ttgir"
EXAMPLE = ROOT / "examples" / "addmm_gfx942_256x256.ttgir"

# the targets of the performance issue
PARSE_PRINT_FRACTION = 1 / 5  # irkit parse+print ops/s at least this fraction of MLIR's
SCALING_LIMIT = 11.0  # a 10x larger module may cost at most this many times more
REPORT_LIMIT_S = 5.0
REPORT_OVER_OPT_LIMIT = 3.0  # irkit-report on a module at most this many times irkit-opt's time
# propagate-mma over many functions: at most 5.5x the time for 4x the ops (2.5k -> 10k ops), i.e. this
# much time ratio per ops ratio (issue 22)
PASS_SCALING_PER_OPS = 5.5 / 4
HELP_LIMIT_S = 0.5
MEMORY_LIMIT_MB = 1024.0


# -- running workers ---------------------------------------------------------------------------


def _worker(python: str, script: str, files: list[str], extra: list[str], timeout: float) -> dict:
    cmd = [python, str(BENCH / script), *files, *extra]
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, cwd=ROOT)
    if out.returncode != 0:
        raise RuntimeError(f"{script} failed on {files[:1]}...: {out.stderr.strip()[-800:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def aggregate(runs: list[dict]) -> dict:
    """Best (minimum) CPU and wall time per phase over fresh-process runs, plus the medians."""
    out = dict(runs[0])
    for clock in ("cpu", "wall"):
        out[clock] = {k: min(r[clock][k] for r in runs) for k in runs[0][clock]}
        out[clock + "_median"] = {k: statistics.median(r[clock][k] for r in runs) for k in runs[0][clock]}
    out["rss_peak_mb"] = max(r["rss_peak_mb"] for r in runs)
    out["rss_base_mb"] = min(r["rss_base_mb"] for r in runs)
    out["reps"] = len(runs)
    return out


def wall_best(cmd: list[str], reps: int, timeout: float) -> tuple[float, subprocess.CompletedProcess]:
    best = float("inf")
    last = None
    for _ in range(reps):
        start = time.perf_counter()
        last = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, cwd=ROOT)
        best = min(best, time.perf_counter() - start)
    assert last is not None
    return best, last


def child_cpu(cmd: list[str]) -> tuple[float, float, int]:
    """(CPU seconds, peak RSS MB, exit status) of one fresh process: CPU time, so the other
    load on a shared machine does not inflate it."""
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=ROOT)
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, proc.returncode


# propagate-mma as irkit-opt runs it, on irkit's own work (the default, profit=auto, adds the real compiler's
# time where a Triton is installed)
OPT_PASS = "propagate-mma{profit=model}"
REPORT_TOOLS = ("irkit-opt", "irkit-opt -p propagate-mma", "irkit-report")


def report_vs_opt(inputs: list[dict], reps: int) -> list[dict]:
    """irkit-opt (parse, verify, print), irkit-opt with propagate-mma and irkit-report on each generated module:
    CPU s of `reps` fresh processes (best and median), repetitions round-robin over modules and tools."""
    bindir = str(Path(sys.executable).parent)
    opt = shutil.which("irkit-opt", path=bindir) or shutil.which("irkit-opt")
    report = shutil.which("irkit-report", path=bindir) or shutil.which("irkit-report")
    if not opt or not report:
        return []
    work = BENCH / ".work"
    rows = []
    jobs = []
    for inp in inputs:
        if inp["kind"] != "big":
            continue
        path = inp["files"][0]
        row = {"input": inp["name"], "size": inp["size"], "functions": inp.get("functions"),
               "file": os.path.relpath(path, ROOT)}
        commands = {
            "irkit-opt": [opt, path, "-o", str(work / "opt_out.ttgir")],
            "irkit-opt -p propagate-mma": [opt, path, "-p", OPT_PASS, "-o", str(work / "opt_pass_out.ttgir")],
            "irkit-report": [report, path, "-o", str(work / "report_out.txt")],
        }
        for tool, cmd in commands.items():
            row[tool] = {"command": " ".join(Path(c).name if c in (opt, report) else
                                             c if not os.path.isabs(c) else os.path.relpath(c, ROOT) for c in cmd)}
            jobs.append((row, tool, cmd))
        rows.append(row)
    samples: dict[tuple[int, str], list[tuple[float, float, int]]] = {}
    for rep in range(reps):
        sys.stderr.write(f"irkit-opt / irkit-report: repetition {rep + 1} of {reps} ...\n")
        for row, tool, cmd in jobs:
            samples.setdefault((id(row), tool), []).append(child_cpu(cmd))
    for row, tool, cmd in jobs:
        runs = samples[(id(row), tool)]
        if any(r[2] != 0 for r in runs):
            raise RuntimeError(f"{' '.join(cmd)} failed")
        cpu = [r[0] for r in runs]
        row[tool].update({"cpu_s": min(cpu), "cpu_s_median": statistics.median(cpu), "cpu_s_all": cpu,
                          "rss_peak_mb": max(r[1] for r in runs)})
    for row in rows:
        for stat in ("cpu_s", "cpu_s_median"):
            suffix = "" if stat == "cpu_s" else "_median"
            opt_s = row["irkit-opt"][stat]
            row["report_over_opt" + suffix] = row["irkit-report"][stat] / opt_s
            row["opt_pass_over_opt" + suffix] = row["irkit-opt -p propagate-mma"][stat] / opt_s
    return rows


def print_report_rows(rows: list[dict], reps: int) -> tuple[float | None, float | None]:
    """The table; returns (worst ratio to irkit-opt of irkit-report and irkit-opt with the pass, medians;
    irkit-report's scaling over ops scaling, 10k -> the largest module)."""
    print(f"## irkit-opt, irkit-opt -p {OPT_PASS} and irkit-report on one module "
          f"(CPU s, median [best] of {reps} fresh processes)\n")
    lines = []
    for r in rows:
        cells = [r["input"]]
        for tool in REPORT_TOOLS:
            cells.append(f"{r[tool]['cpu_s_median']:.2f} [{r[tool]['cpu_s']:.2f}]")
        cells += [f"{r['opt_pass_over_opt_median']:.2f}x [{r['opt_pass_over_opt']:.2f}x]",
                  f"{r['report_over_opt_median']:.2f}x [{r['report_over_opt']:.2f}x]",
                  f"{r['irkit-report']['rss_peak_mb']:.0f}"]
        lines.append(cells)
    print(table(["input", "irkit-opt s", "with the pass s", "irkit-report s", "with the pass / opt", "report / opt",
                 "report peak RSS MB"], lines))
    print()
    worst = max((max(r["report_over_opt_median"], r["opt_pass_over_opt_median"]) for r in rows), default=None)
    scaling = None
    if len(rows) >= 2:
        small = next((r for r in rows if r["size"] == 10000), rows[0])
        large = rows[-1]
        if large is not small:
            t = large["irkit-report"]["cpu_s_median"] / small["irkit-report"]["cpu_s_median"]
            scaling = t / (large["size"] / small["size"])
            print(f"irkit-report {small['input']} -> {large['input']}: {t:.1f}x the time (medians) for "
                  f"{large['size'] / small['size']:.0f}x the ops (time ratio / ops ratio = {scaling:.2f}; 1.0 is linear)\n")
    return worst, scaling


def triton_python(explicit: str | None) -> str | None:
    if explicit:
        return explicit
    if importlib.util.find_spec("triton") is not None:
        return sys.executable
    return None


def _version_of(python: str) -> str:
    out = subprocess.run([python, "-c", "import triton; print(triton.__version__)"], capture_output=True, text=True)
    return out.stdout.strip()


# -- inputs -----------------------------------------------------------------------------------------


def make_inputs(args) -> list[dict]:
    """[{name, files, mlir}] where `mlir` says whether Triton's parser can read the files."""
    inputs: list[dict] = []
    corpus = args.corpus
    has_corpus = (corpus / "ir").is_dir()
    tver = args.triton_version
    if has_corpus:
        every = sorted(str(p) for p in corpus.glob("ir/*/*/*.tt*ir"))
        inputs.append({"name": f"corpus, all {len(every)} files", "files": every, "mlir": False, "kind": "corpus"})
        if tver and (corpus / "ir" / tver).is_dir():
            same = sorted(str(p) for p in corpus.glob(f"ir/{tver}/*/*.tt*ir"))
            inputs.append({"name": f"corpus, {len(same)} Triton {tver} files", "files": same, "mlir": True, "kind": "corpus"})
        one = corpus / ONE_KERNEL
        sources = gen_big.default_sources(corpus)
    else:
        one = EXAMPLE
        sources = [EXAMPLE]
    inputs.append({"name": f"one kernel ({one.stem.split('__')[0]})", "files": [str(one)], "mlir": True, "kind": "one"})
    work = BENCH / ".work"
    work.mkdir(exist_ok=True)
    parsed_sources = [gen_big.split_source(p) for p in sources]
    for size in args.sizes:
        text, ops, copies = gen_big.build(parsed_sources, size)
        path = work / f"big_{size_label(size)}.ttgir"
        if not path.exists() or path.read_text() != text:
            path.write_text(text)
        inputs.append({"name": f"{size_label(size)}-op module ({copies} functions)", "files": [str(path)], "mlir": True,
                       "kind": "big", "size": size, "functions": copies})
    # the generated module is MLIR-readable only by the Triton version that wrote its sources
    source_version = "3.1.0"
    for inp in inputs:
        if inp["kind"] in ("one", "big") and tver != source_version:
            inp["mlir"] = False
    return inputs


# -- formatting -------------------------------------------------------------------------------------


def size_label(size: int) -> str:
    """2500 -> '2.5k', 10000 -> '10k'."""
    return f"{size / 1000:g}k"


def _s(x: float | None) -> str:
    if x is None:
        return "-"
    return f"{x:.3f}" if x < 10 else f"{x:.1f}"


def _rate(ops: int, seconds: float | None) -> str:
    if not seconds:
        return "-"
    r = ops / seconds
    return f"{r / 1000:.1f}k" if r < 1e6 else f"{r / 1e6:.2f}M"


def _ratio(a: float | None, b: float | None) -> str:
    if not a or not b:
        return "-"
    return f"{a / b:.1f}x"


def table(headers: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(headers) + " |", "|" + "|".join("---" for _ in headers) + "|"]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)


def _the_10k(bigs: list[dict]) -> dict:
    """The 10k-op module (the base of the 10x scaling figures), else the smallest."""
    return next((r for r in bigs if r["input"].get("size") == 10000), bigs[0])


def print_pass_scaling(bigs: list[dict]) -> float | None:
    """The passes' own CPU time on every generated module, against the smallest; returns propagate-mma's
    time ratio / ops ratio from 2.5k to 10k ops (medians), None without both."""
    if not bigs:
        return None
    base = bigs[0]
    rows = []
    for r in bigs:
        ops_ratio = r["irkit"]["ops"] / base["irkit"]["ops"]
        cells = [r["input"]["name"], f"{r['irkit']['ops']:,}", f"{ops_ratio:.2f}x"]
        for tool in ("irkit", "mlir"):
            if r[tool] is None or "pass" not in r[tool]["cpu"]:
                cells += ["-", "-", "-"]
                continue
            best, median = r[tool]["cpu"]["pass"], r[tool]["cpu_median"]["pass"]
            b_best, b_median = base[tool]["cpu"]["pass"], base[tool]["cpu_median"]["pass"]
            cells += [f"{median:.3f} [{best:.3f}]", f"{median / r['irkit']['ops'] * 1e6:.0f}",
                      f"{median / b_median:.2f}x [{best / b_best:.2f}x]"]
        rows.append(cells)
    print(f"## Passes over module size (many functions; CPU s of the pass alone, median [best] of {base['irkit']['reps']})\n")
    print(table(["input", "ops", "ops vs smallest", "propagate-mma s", "us/op", "vs smallest",
                 "MLIR remove-layout-conversions s", "us/op", "vs smallest"], rows))
    print()
    by_size = {r["input"].get("size"): r for r in bigs}
    small, large = by_size.get(2500), by_size.get(10000)
    if small is None or large is None or "pass" not in small["irkit"]["cpu_median"]:
        return None
    t = large["irkit"]["cpu_median"]["pass"] / small["irkit"]["cpu_median"]["pass"]
    n = large["irkit"]["ops"] / small["irkit"]["ops"]
    print(f"propagate-mma {small['input']['name']} -> {large['input']['name']}: {t:.2f}x the time (medians) for "
          f"{n:.2f}x the ops (time ratio / ops ratio = {t / n:.3f}; target: 5.5x for 4x, {PASS_SCALING_PER_OPS:.3f})\n")
    return t / n


# -- main ---------------------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    ap.add_argument("--triton-python", default=None, help="a Python that imports triton (default: this one, if it does)")
    ap.add_argument("--reps", type=int, default=3, help="fresh processes per measurement (best is reported)")
    ap.add_argument("--quick", action="store_true", help="1 repetition, no 100k-op module")
    ap.add_argument("--sizes", default="2500,5000,10000,100000", help="op counts of the generated modules")
    ap.add_argument("--json", type=Path, default=None, help="write all figures here")
    ap.add_argument("--report-only", action="store_true", help="only irkit-report vs irkit-opt on the generated modules")
    args = ap.parse_args(argv)
    args.sizes = [int(s) for s in args.sizes.split(",") if s]
    if args.quick:
        args.reps = 1
        args.sizes = [s for s in args.sizes if s <= 10000]
    tpy = triton_python(args.triton_python)
    args.triton_version = _version_of(tpy) if tpy else None
    if tpy and not args.triton_version:
        print(f"note: {tpy} cannot import triton; MLIR C++ columns skipped")
        tpy = None

    env = {
        "python": platform.python_version(),
        "machine": f"{platform.machine()}, {os.cpu_count()} CPUs",
        "load_average": os.getloadavg(),
        "irkit_commit": subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=ROOT).stdout.strip(),
        "triton": args.triton_version,
        "reps": args.reps,
    }
    try:
        import xdsl

        env["xdsl"] = str(getattr(xdsl, "__version__", "?"))
    except ImportError:
        env["xdsl"] = "?"
    print(f"# irkit benchmarks\n\n{json.dumps(env)}\n")
    inputs = make_inputs(args)
    if args.report_only:
        rows = report_vs_opt(inputs, args.reps)
        worst, scaling = print_report_rows(rows, args.reps)
        if args.json:
            args.json.write_text(json.dumps({"env": env, "command": "python bench/run.py " + " ".join(argv or sys.argv[1:]),
                                             "report_vs_opt": rows}, indent=1) + "\n")
        return 0
    if tpy is None:
        print("note: triton is not importable (install the `triton` extra or pass --triton-python): MLIR C++ columns skipped\n")

    has_pass = importlib.util.find_spec("irkit.passes.propagate_mma") is not None
    if not has_pass:
        print("note: no propagate-mma pass in this checkout: its column is skipped\n")
    # Repetitions run round-robin over every (input, tool) measurement, so a burst of other
    # load on the machine touches all of them alike instead of one input's five runs.
    jobs = []
    for inp in inputs:
        extra = ["--pass", "propagate-mma"] if has_pass and inp["kind"] != "corpus" else []
        jobs.append((inp["name"], "irkit", sys.executable, "_irkit_worker.py", inp["files"], extra))
        if tpy and inp["mlir"]:
            mextra = ["--pass", "remove-layout-conversions"] if inp["kind"] != "corpus" else []
            jobs.append((inp["name"], "mlir", tpy, "_mlir_worker.py", inp["files"], mextra))
    runs: dict[tuple[str, str], list[dict]] = {(j[0], j[1]): [] for j in jobs}
    for rep in range(args.reps):
        sys.stderr.write(f"repetition {rep + 1} of {args.reps} ...\n")
        for name, tool, python, script, files, extra in jobs:
            runs[(name, tool)].append(_worker(python, script, files, extra, 1800))
    results = []
    for inp in inputs:
        ml = runs.get((inp["name"], "mlir"))
        results.append({"input": inp, "irkit": aggregate(runs[(inp["name"], "irkit")]),
                        "mlir": aggregate(ml) if ml else None})

    # -- table 1: figures per tool
    rows = []
    for r in results:
        ik, ml, ops = r["irkit"], r["mlir"], r["irkit"]["ops"]
        c = ik["cpu"]
        rows.append([
            r["input"]["name"], f"{ops:,}", "irkit",
            f"{_s(c['parse'])} ({_rate(ops, c['parse'])})", _s(c["verify"]), f"{_s(c['print'])} ({_rate(ops, c['print'])})",
            _rate(ops, c["parse"] + c["print"]),
            _s(c.get("pass")) + (" ({}->{})".format(*ik["converts_before_after"]) if ik.get("converts_before_after") else ""),
            f"{ik['rss_peak_mb']:.0f}",
        ])
        if ml is not None:
            m = ml["cpu"]
            rows.append([
                "", "", f"MLIR {ml['triton_version']}",
                f"{_s(m['parse'])} ({_rate(ops, m['parse'])})", "(in parse)", f"{_s(m['print'])} ({_rate(ops, m['print'])})",
                _rate(ops, m["parse"] + m["print"]),
                _s(m.get("pass")) + (" ({}->{})".format(*ml["converts_before_after"]) if ml.get("converts_before_after") else ""),
                f"{ml['rss_peak_mb']:.0f}",
            ])
    print(f"## Parse, verify, print, pass (CPU s, best of {args.reps} fresh processes; ops/s in brackets)\n")
    print(table(["input", "ops", "tool", "parse s", "verify s", "print s", "parse+print ops/s",
                 "pass s (converts before->after)", "peak RSS MB"], rows))
    print("\npass = irkit --propagate-mma / MLIR remove-layout-conversions (different passes over the same IR).\n")

    # -- table 2: ratios
    rows = []
    ratio_10k = None
    for r in results:
        ik, ml = r["irkit"], r["mlir"]
        if ml is None:
            continue
        c, m = ik["cpu"], ml["cpu"]
        pp = (c["parse"] + c["print"]) / (m["parse"] + m["print"])
        ppv = (c["parse"] + c["verify"] + c["print"]) / (m["parse"] + m["print"])
        if r["input"].get("size") == 10000 or (ratio_10k is None and r["input"]["kind"] == "big"):
            ratio_10k = pp
        rows.append([r["input"]["name"], _ratio(c["parse"], m["parse"]), _ratio(c["parse"] + c["verify"], m["parse"]),
                     _ratio(c["print"], m["print"]), f"{pp:.1f}x", f"{ppv:.1f}x",
                     _ratio(c.get("pass"), m.get("pass")),
                     _ratio(ik["rss_peak_mb"] - ik["rss_base_mb"], ml["rss_peak_mb"] - ml["rss_base_mb"])])
    if rows:
        print("## irkit time / MLIR C++ time (lower is better; 5.0x = one fifth of MLIR's ops/s)\n")
        print(table(["input", "parse", "parse+verify vs parse", "print", "parse+print", "parse+verify+print",
                     "pass (different passes)", "memory over baseline"], rows))
        print()

    # -- table 3: scaling
    bigs = [r for r in results if r["input"]["kind"] == "big"]
    worst_scaling = None
    if len(bigs) >= 2 and bigs[-1] is not _the_10k(bigs):
        small, large = _the_10k(bigs), bigs[-1]
        n_ratio = large["irkit"]["ops"] / small["irkit"]["ops"]
        rows = []
        for tool in ("irkit", "mlir"):
            if small[tool] is None or large[tool] is None:
                continue
            for stat in ("cpu", "cpu_median"):
                a, b = small[tool][stat], large[tool][stat]
                cells = []
                for phase in ("parse", "verify", "print", "pass"):
                    if phase in a and phase in b and a[phase] > 0:
                        ratio = b[phase] / a[phase]
                        cells.append(f"{ratio:.1f}x")
                        if tool == "irkit" and stat == "cpu":  # best-of-N, as every ratio here
                            worst_scaling = max(worst_scaling or 0, ratio)
                    else:
                        cells.append("-")
                mem = (large[tool]["rss_peak_mb"] - large[tool]["rss_base_mb"]) / max(
                    small[tool]["rss_peak_mb"] - small[tool]["rss_base_mb"], 1e-9)
                label = f"{tool}, {'best' if stat == 'cpu' else 'median'} of {large[tool]['reps']}"
                rows.append([label, *cells, f"{mem:.1f}x" if stat == "cpu" else ""])
        print(f"## Scaling {small['input']['name']} -> {large['input']['name']} ({n_ratio:.2f}x the ops)\n")
        print(table(["tool", "parse", "verify", "print", "pass", "memory over baseline"], rows))
        print()
    pass_scaling = print_pass_scaling(bigs)

    # -- end-to-end commands
    print(f"## End-to-end commands (wall-clock s, best of {max(args.reps, 3)})\n")
    rows = []
    opt = shutil.which("irkit-opt", path=str(Path(sys.executable).parent)) or shutil.which("irkit-opt")
    help_s = None
    if opt:
        help_s, _ = wall_best([opt, "--help"], max(args.reps, 3), 60)
        rows.append(["irkit-opt --help", _s(help_s), ""])
    report_s = None
    log = args.corpus / DUMP_LOG
    report = shutil.which("irkit-report", path=str(Path(sys.executable).parent)) or shutil.which("irkit-report")
    if report and log.is_file():
        report_s, proc = wall_best([report, "--per-pass", str(log)], max(args.reps, 3), 600)
        ok = proc.returncode == 0
        last = proc.stdout.strip().splitlines()[-1] if proc.stdout.strip() else proc.stderr.strip()[-200:]
        import gzip

        with gzip.open(log, "rb") as fh:
            size = len(fh.read())
        what = f"3.1 cuda:80 add-matrix dump log, {size / 1e6:.1f} MB, {log.stat().st_size / 1e6:.1f} MB gzipped"
        rows.append([f"irkit-report --per-pass ({what})",
                     _s(report_s), ("" if ok else "FAILED: ") + last])
    elif not log.is_file():
        rows.append(["irkit-report --per-pass", "-", "skipped: the public dump log is in the corpus, not here"])
    else:
        rows.append(["irkit-report --per-pass", "-", "skipped: no irkit-report in this checkout"])
    print(table(["command", "s", "note"], rows))
    print()
    report_rows = report_vs_opt(inputs, args.reps)
    worst_report, report_scaling = print_report_rows(report_rows, args.reps)

    # -- targets
    print("## Targets\n")
    met: list[dict] = []

    def target(name: str, value: str, ok: bool | None) -> None:
        met.append({"target": name, "measured": value, "met": ok})
        print(f"- {name}: {value} -> {'met' if ok else 'NOT met' if ok is not None else 'not measured'}")

    target("parse+print >= 1/5 of MLIR C++ ops/s (10k-op module)",
           f"irkit takes {ratio_10k:.1f}x MLIR's time" if ratio_10k else "no MLIR C++ figures",
           None if ratio_10k is None else ratio_10k <= 1 / PARSE_PRINT_FRACTION)
    target(f"every phase linear (100k ops <= {SCALING_LIMIT:.0f}x the 10k time)",
           f"worst {worst_scaling:.1f}x (best of {args.reps}; medians in the table)" if worst_scaling else "no 100k run",
           None if worst_scaling is None else worst_scaling <= SCALING_LIMIT)
    target(f"per-pass report of the dump log < {REPORT_LIMIT_S:.0f} s", f"{_s(report_s)} s" if report_s else "not run",
           None if report_s is None else report_s < REPORT_LIMIT_S)
    target(f"irkit-opt --help < {HELP_LIMIT_S} s", f"{_s(help_s)} s" if help_s else "not run",
           None if help_s is None else help_s < HELP_LIMIT_S)
    target(f"propagate-mma over many functions (2.5k -> 10k ops: at most 5.5x the time for 4x the ops, "
           f"time ratio / ops ratio <= {PASS_SCALING_PER_OPS:.3f})",
           f"{pass_scaling:.3f} (medians)" if pass_scaling else "no 2.5k and 10k runs",
           None if pass_scaling is None else pass_scaling <= PASS_SCALING_PER_OPS)
    target(f"irkit-report and irkit-opt -p propagate-mma <= {REPORT_OVER_OPT_LIMIT:.0f}x irkit-opt on one module",
           f"worst {worst_report:.2f}x (medians)" if worst_report else "not run",
           None if worst_report is None else worst_report <= REPORT_OVER_OPT_LIMIT)
    target("irkit-report linear (time ratio / ops ratio <= 1.1, 10k -> the largest module, medians)",
           f"{report_scaling:.2f}" if report_scaling else "no 100k run",
           None if report_scaling is None else report_scaling <= SCALING_LIMIT / 10)
    big = [r for r in bigs if r["input"].get("size", 0) >= 100000]
    peak = big[-1]["irkit"]["rss_peak_mb"] if big else None
    target(f"peak memory < {MEMORY_LIMIT_MB:.0f} MB at 100k ops", f"{peak:.0f} MB" if peak else "no 100k run",
           None if peak is None else peak < MEMORY_LIMIT_MB)
    if args.json:
        args.json.write_text(json.dumps({"env": env, "command": "python bench/run.py " + " ".join(argv or sys.argv[1:]),
                                         "results": results, "help_s": help_s, "report_s": report_s,
                                         "pass_time_ratio_per_ops_ratio_2_5k_to_10k": pass_scaling,
                                         "report_vs_opt": report_rows, "targets_met": met}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
