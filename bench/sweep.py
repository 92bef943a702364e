"""irkit-sweep's throughput and memory: one sweep over >= 5,000 real kernel files, run three ways.

    python bench/sweep.py                                  # 5,000 kernels from tests/data, 1 and 2 workers, Ray
    python bench/sweep.py --extra ../shared/corpus/ir      # more real files to copy from
    python bench/sweep.py --kernels 1000 --no-ray --json out.json

The kernels: every real .ttir/.ttgir file under tests/data (and the --extra folders), copied under new
names into a temporary folder until there are --kernels of them; each copy ends with a comment naming
its number, so every file is distinct (its own content hash, its own row) and costs what its original
costs.  Metadata JSON beside a file is copied with it.

Then, in this one run, the same sweep (-p propagate-mma{profit=model}, JSONL results) with a local pool of 1 worker, a
local pool of 2 workers, and a local Ray (ray.init(num_cpus=2); its start-up time is reported apart, since
a cluster is started once and used for many sweeps).  The kernels are cut into --slices slices and the
three ways take turns slice by slice (each resuming its own results file), so load from others on the
machine falls on all three alike.  Reported: wall time,
kernels/s, 2 workers over 1, Ray's overhead over the 2-worker pool, each worker's resident memory over
the sweep (sampled after every kernel), the machine's load while each ran, and whether the three
results files hold the same rows.  The cost per kernel and the projection for 30,000 kernels on 1, 8
and 64 cores go to docs/sweeps.md.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from irkit.sweep import run_sweep
from irkit.sweep.inputs import IR_SUFFIXES, discover
from irkit.sweep.results import read_rows

ROOT = Path(__file__).resolve().parents[1]

PIPELINE = "propagate-mma{profit=model}"  # irkit's own work: the default (profit=auto) may compile with a Triton


def source_files(dirs: list[Path]) -> list[Path]:
    found = []
    for d in dirs:
        found.extend(sorted(p for p in d.rglob("*") if p.is_file() and p.name.endswith(IR_SUFFIXES)))
    return found


def _sidecars(path: Path) -> list[tuple[Path, str]]:
    """Metadata beside a kernel file, and the suffix it keeps in the copy's name."""
    out = []
    for suffix in (".meta.json", ".json"):
        candidate = path.with_name(path.name.rsplit(".", 1)[0] + suffix)
        if candidate.is_file():
            out.append((candidate, suffix))
    return out


def make_kernels(sources: list[Path], count: int, dest: Path) -> int:
    """`count` distinct kernel files in `dest`, round-robin over `sources`, 100 per folder."""
    for i in range(count):
        src = sources[i % len(sources)]
        folder = dest / f"{i // 100:03d}"
        folder.mkdir(exist_ok=True)
        stem, _, ext = src.name.rpartition(".")
        name = f"k{i:05d}__{stem}"
        text = src.read_text()
        (folder / f"{name}.{ext}").write_text(text + f"// irkit-sweep bench copy {i}\n")
        for meta, suffix in _sidecars(src):
            shutil.copy(meta, folder / f"{name}{suffix}")
    return count


def _cpu_times() -> tuple[float, float]:
    """(busy, total) jiffies of the whole machine, from /proc/stat."""
    with open("/proc/stat") as f:
        fields = [float(x) for x in f.readline().split()[1:]]
    idle = fields[3] + fields[4]
    return sum(fields) - idle, sum(fields)


def memory_figures(samples: list[dict]) -> dict:
    """Resident set of each worker over its life: first sample, peak, and growth over the sweep."""
    by_pid: dict[int, list[dict]] = {}
    for s in samples:
        by_pid.setdefault(s["pid"], []).append(s)
    peaks = [max(x["rss_kib"] for x in v) / 1024 for v in by_pid.values()]
    firsts = [v[0]["rss_kib"] / 1024 for v in by_pid.values()]
    n = len(samples)
    tenth = max(1, n // 10)
    early = [s["rss_kib"] / 1024 for s in samples[tenth: 2 * tenth]]  # after warm-up
    late = [s["rss_kib"] / 1024 for s in samples[-tenth:]]
    return {
        "workers_seen": len(by_pid),
        "kernels_per_worker_max": max(len(v) for v in by_pid.values()),
        "rss_first_mib_median": round(statistics.median(firsts), 1),
        "rss_peak_mib_max": round(max(peaks), 1),
        "rss_peak_mib_median": round(statistics.median(peaks), 1),
        "rss_median_mib_2nd_tenth": round(statistics.median(early), 1),
        "rss_median_mib_last_tenth": round(statistics.median(late), 1),
        "rss_max_mib_2nd_tenth": round(max(early), 1),
        "rss_max_mib_last_tenth": round(max(late), 1),
        # (done, rss) of each kernel, thinned to 200 points, for a picture of memory over the sweep
        "series": [(s["done"], round(s["rss_kib"] / 1024, 1)) for s in samples[:: max(1, n // 200)]],
    }


class Measure:
    """One way of running the sweep, measured over the slices it is given (round-robin with the others)."""

    def __init__(self, label: str, out: Path, **kw):
        self.label, self.out, self.kw = label, out, kw
        self.wall = self.busy = self.jiffies = self.driver_cpu = 0.0
        self.kernels = 0
        self.loads: list[float] = []
        self.cpu: dict[tuple[int, int], float] = {}  # (slice, pid) -> the worker's CPU seconds
        self.samples: list[dict] = []
        self.rows: list[dict] = []

    def run(self, kernels: Path, tasks, slice_no: int) -> None:
        busy0, total0 = _cpu_times()
        own0 = os.times()
        self.loads.append(os.getloadavg()[0])
        start = time.perf_counter()
        result = run_sweep([str(kernels)], str(self.out), PIPELINE, tasks=tasks, resume=True, progress=False, **self.kw)
        self.wall += time.perf_counter() - start
        busy1, total1 = _cpu_times()
        own1 = os.times()
        self.driver_cpu += own1.user + own1.system - own0.user - own0.system
        self.busy += busy1 - busy0
        self.jiffies += total1 - total0
        for m in result.memory:
            self.cpu[(slice_no, m["pid"])] = m["cpu_s"]
            self.samples.append(dict(m, done=self.kernels + m["done"]))
        self.kernels += result.ran
        self.rows = result.rows

    def figures(self) -> dict:
        n, wall = self.kernels, self.wall
        cores = os.cpu_count() or 1
        workers_cpu = sum(self.cpu.values())
        row = {
            "run": self.label,
            "kernels": n,
            "wall_s": round(wall, 1),
            "kernels_per_s": round(n / wall, 2),
            "ms_per_kernel_wall": round(1000 * wall / n, 1),
            "ms_per_kernel_in_worker_median": round(1000 * statistics.median(r["seconds"] for r in self.rows), 1),
            # cores busy on average while this ran, counting every process on the machine
            "machine_cores_busy_avg": round(self.busy / self.jiffies * cores, 2),
            "load_avg_1min_at_slice_starts": [round(x, 1) for x in self.loads],
            # CPU seconds the workers spent (each worker's last report, recycled workers included):
            # what a kernel costs whatever else the machine is doing
            "workers_cpu_s": round(workers_cpu, 1),
            "cpu_ms_per_kernel": round(1000 * workers_cpu / n, 1),
            # the sweep's own process: discovery, resume, writing rows, the pool or Ray driver
            "driver_cpu_ms_per_kernel": round(1000 * self.driver_cpu / n, 2),
            "errors": sum(r["status"] != "ok" for r in self.rows),
            "memory": memory_figures(self.samples),
        }
        print(f"  {self.label:<12} {n:,} kernels in {wall:7.1f} s = {n / wall:6.2f} kernels/s   "
              f"(machine: {row['machine_cores_busy_avg']:.2f} of {cores} cores busy on average); "
              f"{row['cpu_ms_per_kernel']} CPU ms/kernel; worker RSS peak {row['memory']['rss_peak_mib_max']} MiB",
              flush=True)
        return row


def memory_probe(kernels: Path, tasks, work: Path) -> dict:
    """One worker that is never recycled, over every kernel: its resident set, per tenth of the sweep."""
    result = run_sweep([str(kernels)], str(work / "probe.jsonl"), PIPELINE, tasks=tasks, workers=1,
                       max_tasks=10**9, progress=False)
    samples = result.memory
    step = max(1, len(samples) // 10)
    tenths = [{"kernels_done": seg[-1]["done"],
               "rss_mib_median": round(statistics.median(x["rss_kib"] for x in seg) / 1024, 1),
               "rss_mib_max": round(max(x["rss_kib"] for x in seg) / 1024, 1)}
              for seg in (samples[i:i + step] for i in range(0, len(samples), step))]
    for t in tenths:
        print(f"  one worker, never recycled: after {t['kernels_done']:5,} kernels RSS {t['rss_mib_max']} MiB", flush=True)
    return {"kernels": len(samples), "workers": len({x["pid"] for x in samples}), "tenths": tenths}


def comparable(path: Path) -> list[dict]:
    return sorted(({k: v for k, v in r.items() if k != "seconds"} for r in read_rows(str(path))), key=lambda r: r["key"])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--kernels", type=int, default=5000, help="how many kernel files to sweep (default 5000)")
    ap.add_argument("--extra", action="append", default=[], type=Path, metavar="DIR",
                    help="another folder of real .ttir/.ttgir files to copy from (repeatable)")
    ap.add_argument("--no-ray", action="store_true", help="skip the Ray run")
    ap.add_argument("--slices", type=int, default=5, help="run the three ways round-robin over this many slices (default 5)")
    ap.add_argument("--json", type=Path, default=None, help="write the figures as JSON")
    ap.add_argument("--memory-probe", action="store_true",
                    help="instead: one worker never recycled over all the kernels, its memory per tenth of the sweep")
    ap.add_argument("--keep", type=Path, default=None, help="make the kernels and results here (kept) instead of a temporary folder")
    args = ap.parse_args()

    sources = source_files([ROOT / "tests" / "data", *args.extra])
    work = Path(tempfile.mkdtemp(prefix="irkit-sweep-bench-")) if args.keep is None else args.keep
    work.mkdir(parents=True, exist_ok=True)
    kernels = work / "kernels"
    if kernels.exists():
        shutil.rmtree(kernels)
    kernels.mkdir()
    try:
        make_kernels(sources, args.kernels, kernels)
        tasks = discover([str(kernels)])
        print(f"irkit-sweep bench: {len(tasks):,} kernel files (copies of {len(sources)} real files) in {kernels}; "
              f"{os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}", flush=True)
        if args.memory_probe:
            figures = {"command": "python bench/sweep.py " + " ".join(sys.argv[1:]), "pipeline": PIPELINE,
                       "memory_probe": memory_probe(kernels, tasks, work)}
            if args.json:
                args.json.write_text(json.dumps(figures, indent=1) + "\n")
            return
        measures = [Measure("1 worker", work / "w1.jsonl", workers=1), Measure("2 workers", work / "w2.jsonl", workers=2)]
        ray_start_s = None
        if not args.no_ray:
            import ray

            os.environ.setdefault("RAY_AUTH_MODE", "disabled")
            t = time.perf_counter()
            ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
            ray_start_s = round(time.perf_counter() - t, 1)
            measures.append(Measure("Ray, 2 CPUs", work / "ray.jsonl", use_ray=True))
        for f in ("w1.jsonl", "w2.jsonl", "ray.jsonl"):
            (work / f).unlink(missing_ok=True)
        # round-robin over slices, so load from others on the machine falls on every way alike
        size = -(-len(tasks) // args.slices)
        for k in range(args.slices):
            part = tasks[k * size:(k + 1) * size]
            for m in measures:
                m.run(kernels, part, k)
            print(f"  slice {k + 1}/{args.slices} done", flush=True)
        if not args.no_ray:
            ray.shutdown()
        runs = [m.figures() for m in measures]
        same = all(comparable(work / f) == comparable(work / "w1.jsonl") for f in ("w2.jsonl", "ray.jsonl")[: len(runs) - 1])
        w1, w2 = runs[0], runs[1]
        speedup = w1["wall_s"] / w2["wall_s"]
        figures = {
            "command": "python bench/sweep.py " + " ".join(sys.argv[1:]),
            "machine": {"cpus": os.cpu_count(), "python": platform.python_version(), "platform": platform.platform()},
            "pipeline": PIPELINE,
            "kernels": len(tasks),
            "source_files": len(sources),
            "runs": runs,
            "speedup_2_over_1": round(speedup, 2),
            "ray_start_s": ray_start_s,
            "same_rows_in_every_run": same,
        }
        if len(runs) > 2:
            figures["ray_overhead_over_2_workers"] = round(runs[2]["wall_s"] / w2["wall_s"] - 1, 3)
        # the projection: the CPU a kernel costs one worker (what a quiet core would take), divided over
        # the cores at the parallel efficiency measured at 2 workers
        cost = w1["cpu_ms_per_kernel"] / 1000
        efficiency = min(1.0, speedup / 2)
        figures["sizing"] = {
            "cpu_s_per_kernel": round(cost, 4),
            "wall_s_per_kernel_1_worker": round(w1["wall_s"] / w1["kernels"], 4),
            "parallel_efficiency_at_2": round(speedup / 2, 2),
            "projected_wall_for_30000_kernels_s": {str(c): round(30000 * cost / (c * (efficiency if c > 1 else 1.0)))
                                                   for c in (1, 8, 64)},
        }
        print(f"  2 workers / 1 worker: {speedup:.2f}x" + (
            f"; Ray over the 2-worker pool: {100 * figures['ray_overhead_over_2_workers']:+.1f}% (Ray started in {ray_start_s} s)"
            if len(runs) > 2 else "") + f"; same rows in every run: {same}")
        print(f"  {1000 * cost:.0f} CPU ms per kernel; 30,000 kernels: " + ", ".join(
            f"{c} core(s) {v / 60:.0f} min" for c, v in figures["sizing"]["projected_wall_for_30000_kernels_s"].items()))
        if args.json:
            args.json.write_text(json.dumps(figures, indent=1) + "\n")
    finally:
        if args.keep is None:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
