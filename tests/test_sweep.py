"""irkit-sweep: discovery, one row per kernel (the same figures as irkit-report), error rows, the three
formats, kill -9 and --resume, and Ray giving the same rows as the local pool."""

from __future__ import annotations

import csv
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from irkit.cli.entry import CliError
from irkit.sweep import run_sweep
from irkit.sweep.inputs import KernelTask, discover
from irkit.sweep.kernel import sweep_kernel
from irkit.sweep.results import journal_path, read_rows
from irkit.sweep.schema import NAMES
from irkit.sweep.summary import render, summarise

ROOT = Path(__file__).resolve().parents[1]
KERNELS = ROOT / "tests" / "data" / "kernels"
ADDMM = ROOT / "examples" / "addmm_gfx942_256x256.ttgir"  # 2 conversions, 66,560 B > 65,536 B on MI300X
SMALL = sorted((KERNELS / "3.1.0" / "cuda_80").glob("*.ttgir"), key=lambda p: p.stat().st_size)[:10]
SWEEP = [sys.executable, "-m", "irkit.sweep.cli"]


def _header(pass_class: str, arg: str) -> str:
    return f"// -----// IR Dump Before {pass_class} ({arg}) ('builtin.module' operation) //----- //\n"


def _dump_log(name: str) -> str:
    """An MLIR_ENABLE_DUMP log of one kernel, in Triton 3.1's format, from its real TTIR and TTGIR."""
    base = KERNELS / "3.1.0" / "cuda_80" / name
    return (
        _header("ConvertTritonToTritonGPU", "convert-triton-to-tritongpu") + (base.with_suffix(".ttir")).read_text()
        + _header("TritonGPUCoalesce", "tritongpu-coalesce") + (base.with_suffix(".ttgir")).read_text()
        + _header("ConvertTritonGPUToLLVM", "convert-triton-gpu-to-llvm")
        + 'module attributes {"triton_gpu.num-warps" = 4 : i32} {\n  llvm.func @k() {\n    llvm.return\n  }\n}\n'
    )


def _comparable(rows: list[dict]) -> list[dict]:
    """Rows without the one column that differs between runs (time), sorted by key."""
    return sorted(({k: v for k, v in r.items() if k != "seconds"} for r in rows), key=lambda r: r["key"])


def _kernel_copies(dest: Path, files: list[Path]) -> Path:
    dest.mkdir(parents=True, exist_ok=True)
    for f in files:
        shutil.copy(f, dest / f.name)
    return dest


# -- discovery -------------------------------------------------------------------------------------------


def test_discover_walks_files_cache_folders_and_dump_logs(tmp_path):
    cache = tmp_path / "cache" / "ABCDEF"
    cache.mkdir(parents=True)
    src = KERNELS / "3.1.0" / "cuda_80" / "calls"
    shutil.copy(src.with_suffix(".ttgir"), cache / "calls_kernel.ttgir")
    shutil.copy(src.with_suffix(".ttir"), cache / "calls_kernel.ttir")
    (cache / "calls_kernel.json").write_text(json.dumps({"name": "calls_kernel", "shared": 0, "num_warps": 4,
                                                        "target": {"backend": "cuda", "arch": 80, "warp_size": 32}}))
    (cache / "calls_kernel.ptx").write_text("// not IR\n")
    (tmp_path / "logs").mkdir()
    (tmp_path / "logs" / "run.txt").write_text("UserWarning: something\n" + _dump_log("while_loop") + _dump_log("calls"))
    (tmp_path / "logs" / "notes.txt").write_text("no dump here\n")
    (tmp_path / "logs" / ".hidden.ttgir").write_text("garbage")
    keys = [t.key for t in discover([str(tmp_path)])]
    log = str(tmp_path / "logs" / "run.txt")
    # one task per kernel: a cache entry's TTGIR (its TTIR only when asked), and for each kernel of the
    # log its last TritonGPU section (1 for the first kernel, 4 for the second)
    assert keys == [str(cache / "calls_kernel.ttgir"), f"{log}#1", f"{log}#4"]
    every = [t.key for t in discover([str(tmp_path)], all_stages=True)]
    assert every == [str(cache / "calls_kernel.ttgir"), str(cache / "calls_kernel.ttir"), f"{log}#1", f"{log}#4"]
    # a file named on the command line is a kernel whatever its name; twice named, once swept
    assert [t.key for t in discover([str(ADDMM), str(ADDMM)])] == [str(ADDMM)]
    with pytest.raises(CliError, match="No such file"):
        discover([str(tmp_path / "missing")])


def test_cache_metadata_and_dump_sections_give_identity(tmp_path):
    cache = tmp_path / "HASH"
    cache.mkdir()
    src = KERNELS / "3.1.0" / "cuda_80" / "calls.ttir"
    shutil.copy(src, cache / "calls_kernel.ttir")
    (cache / "calls_kernel.json").write_text(json.dumps({"triton_version": "3.1.0", "num_warps": 4,
                                                        "target": {"backend": "cuda", "arch": 80, "warp_size": 32}}))
    row = sweep_kernel(KernelTask(str(cache / "calls_kernel.ttir")), "propagate-mma")
    assert (row["stage"], row["triton_version"], row["target"], row["num_warps"]) == ("ttir", "3.1.0", "cuda:80", 4)
    log = tmp_path / "run.log"
    log.write_text(_dump_log("calls"))
    [task] = discover([str(log)])
    from_log = sweep_kernel(task, "propagate-mma")
    from_file = sweep_kernel(KernelTask(str(KERNELS / "3.1.0" / "cuda_80" / "calls.ttgir")), "propagate-mma")
    assert from_log["status"] == "ok" and from_log["section"] == "1"
    assert from_log["content_hash"] == from_file["content_hash"]  # the same kernel text
    assert (from_log["kernel"], from_log["stage"], from_log["target"]) == ("calls", "ttgir", "cuda:80")


# -- one kernel ------------------------------------------------------------------------------------------


def test_row_has_irkit_reports_figures():
    row = sweep_kernel(KernelTask(str(ADDMM)), "propagate-mma")
    out = subprocess.run([sys.executable, "-m", "irkit.cli.report", str(ADDMM), "-p", "propagate-mma", "--json"],
                         capture_output=True, text=True, check=True)
    diff = json.loads(out.stdout)
    assert row["status"] == "ok" and row["error"] is None
    assert (row["converts_before"], row["converts_after"]) == (diff["converts_before"], diff["converts_after"]) == (2, 0)
    assert (row["shared_before"], row["shared_after"]) == (diff["shared_bytes_before"], diff["shared_bytes"])
    assert (row["shared_before"], row["shared_after"], row["shared_limit"]) == (66560, 32768, 65536)
    assert (row["verdict_before"], row["verdict_after"]) == (diff["verdict_before"], diff["verdict_after"])
    assert row["fits_before"] is False and row["fits_after"] is True and row["unlocked"] is True
    assert row["changed"] is True and row["converts_removed"] == 2 and row["shared_saved"] == 33792
    assert (row["kernel"], row["target"], row["num_warps"], row["stage"]) == ("addmm_kernel", "hip:gfx942", 8, "ttgir")
    assert any("propagate-mma" in r and "2 conversion(s) removed" in r for r in row["remarks"])


def test_kernel_the_pipeline_leaves_alone():
    row = sweep_kernel(KernelTask(str(KERNELS / "3.1.0" / "cuda_80" / "histogram_i32.ttgir")), "propagate-mma")
    assert row["status"] == "ok"
    assert row["changed"] is False and row["converts_removed"] == 0 and row["shared_saved"] == 0
    assert row["converts_before"] == row["converts_after"] and row["unlocked"] is False


def test_file_with_several_modules_is_an_error_row_not_a_sum():
    # lit_tests/cli/multi-module.mlir: two top-level modules, as Triton's test-allocation.mlir has
    row = sweep_kernel(KernelTask(str(ROOT / "lit_tests" / "cli" / "multi-module.mlir")), "propagate-mma")
    assert row["status"] == "error" and row["error_kind"] == "multi-module"
    assert "holds 2 top-level modules" in row["error"] and row["shared_before"] is None


def test_failures_are_rows_and_the_sweep_goes_on(tmp_path):
    broken = tmp_path / "broken.ttgir"
    text = ADDMM.read_text().replace("tt.dot", "tt.dott", 1)
    broken.write_text(text)
    binary = tmp_path / "binary.ttgir"
    binary.write_bytes(b"\x00\x01\x02 not text")
    good = tmp_path / "good.ttgir"
    shutil.copy(ADDMM, good)
    out = tmp_path / "r.jsonl"
    proc = subprocess.run(SWEEP + ["-p", "propagate-mma", str(tmp_path), "-o", str(out), "--workers", "2"],
                          capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""  # no progress bar off a terminal, no traceback
    rows = {Path(r["path"]).name: r for r in read_rows(str(out))}
    assert rows["good.ttgir"]["status"] == "ok" and rows["good.ttgir"]["unlocked"] is True
    bad = rows["broken.ttgir"]
    line = 1 + text[: text.index("tt.dott")].count("\n")
    assert bad["status"] == "error" and bad["error_kind"] == "parse"
    assert bad["error"].startswith(f"{broken}:{line}:") and "error:" in bad["error"]
    assert bad["kernel"] == "addmm_kernel" and bad["converts_before"] is None  # identity kept, no figures
    assert rows["binary.ttgir"]["error_kind"] == "read" and "binary" in rows["binary.ttgir"]["error"]
    assert "parse 1, read 1" in proc.stdout  # the summary's failures by kind


def _dies_on_doomed(task, options):
    """A worker's work that kills its process on one kernel, as a segfault or the OOM killer would."""
    from irkit.sweep.kernel import run_task

    if task.path.endswith("doomed.ttgir"):
        os._exit(1)
    return run_task(task, options)


def test_a_worker_that_dies_costs_one_row(tmp_path):
    from irkit.sweep.engines import run_local
    from irkit.sweep.kernel import SweepOptions

    d = _kernel_copies(tmp_path / "k", SMALL[:4])
    shutil.copy(ADDMM, d / "doomed.ttgir")
    tasks = discover([str(d)])
    rows = {Path(r["path"]).name: r for r, _ in run_local(tasks, SweepOptions("propagate-mma"), 2, work=_dies_on_doomed)}
    assert len(rows) == 5
    assert rows["doomed.ttgir"]["status"] == "error" and rows["doomed.ttgir"]["error_kind"] == "worker-died"
    assert all(r["status"] == "ok" for name, r in rows.items() if name != "doomed.ttgir")


def _hangs_on_doomed(task, options):
    """A worker's work that never finishes one kernel (the analysis looping), under the sweep's time limit.
    Only that kernel is held to the limit: an ordinary kernel may take any time on a loaded machine."""
    from dataclasses import replace

    from irkit.sweep import kernel

    if not task.path.endswith("doomed.ttgir"):
        return kernel.run_task(task, replace(options, timeout_s=None))

    def forever(*_args):  # stopped by the limit; without one the test fails after 10 min instead of hanging
        end = time.monotonic() + 600
        while time.monotonic() < end:
            try:
                time.sleep(0.05)
            except Exception:  # noqa: BLE001 (an analysis that swallows errors must still stop)
                pass

    kernel.analyse = forever  # in this worker only, recycled after the task (max_tasks=1)
    return kernel.run_task(task, options)


def test_a_kernel_over_the_time_limit_is_a_timeout_row(tmp_path):
    from irkit.sweep.engines import run_local
    from irkit.sweep.kernel import SweepOptions

    d = _kernel_copies(tmp_path / "k", SMALL[:3])
    shutil.copy(ADDMM, d / "doomed.ttgir")
    rows = {Path(r["path"]).name: r for r, _ in run_local(discover([str(d)]), SweepOptions("propagate-mma", timeout_s=0.5), 2,
                                                           max_tasks=1, work=_hangs_on_doomed)}
    assert rows["doomed.ttgir"]["status"] == "error" and rows["doomed.ttgir"]["error_kind"] == "timeout"
    assert "longer than 0.5 s (--timeout)" in rows["doomed.ttgir"]["error"]
    assert all(r["status"] == "ok" for name, r in rows.items() if name != "doomed.ttgir")


def test_the_time_limit_leaves_no_alarm_behind():
    from irkit.sweep.kernel import SweepOptions

    previous = signal.getsignal(signal.SIGALRM)
    row = sweep_kernel(KernelTask(str(ADDMM)), SweepOptions("propagate-mma", timeout_s=600))
    assert row["status"] == "ok"
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0) and signal.getsignal(signal.SIGALRM) is previous


def test_progress_bar_only_on_a_terminal(tmp_path):
    import fcntl
    import pty
    import struct
    import termios

    d = _kernel_copies(tmp_path / "k", SMALL[:3])
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 200, 0, 0))  # a terminal 200 columns wide
    proc = subprocess.Popen(SWEEP + ["-p", "propagate-mma", str(d), "-o", str(tmp_path / "r.jsonl"), "--workers", "1"],
                            stdout=subprocess.DEVNULL, stderr=slave)
    os.close(slave)
    shown = b""
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:  # the terminal closed with the process
            break
        if not chunk:
            break
        shown += chunk
    assert proc.wait() == 0
    # kernels done out of 3 and the rate (tqdm adds the time left); the bar is erased when done
    assert b"/3 [" in shown and b"kernel/s" in shown


def test_bad_usage_is_one_line_and_exit_1(tmp_path):
    cases = [
        (["-p", "no-such-pass", str(ADDMM), "-o", str(tmp_path / "r.jsonl")], "unknown pass 'no-such-pass'"),
        (["-p", "propagate-mma", str(ADDMM), "-o", str(tmp_path / "r.xlsx")], "name it .parquet, .csv or .jsonl"),
        (["-p", "propagate-mma", str(tmp_path / "nope"), "-o", str(tmp_path / "r.csv")], "No such file"),
        (["-p", "propagate-mma", str(ADDMM), "-o", str(tmp_path / "r.csv"), "--workers", "0"], "at least 1"),
        (["-p", "propagate-mma", str(ADDMM), "-o", str(tmp_path / "r.csv"), "--timeout", "-1"], "--timeout must be"),
    ]
    for argv, message in cases:
        proc = subprocess.run(SWEEP + argv, capture_output=True, text=True, check=False)
        assert proc.returncode == 1 and message in proc.stderr, (argv, proc.stderr)
        assert proc.stderr.startswith("irkit-sweep: error:") and "Traceback" not in proc.stderr


# -- results files ---------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def small_sweep(tmp_path_factory):
    """One sweep of a few real kernels plus a broken one, written as JSONL."""
    d = _kernel_copies(tmp_path_factory.mktemp("kernels"), SMALL[:4] + [ADDMM])
    (d / "broken.ttgir").write_text("module {\n  tt.func @k( {\n}\n")
    out = d.parent / "r.jsonl"
    result = run_sweep([str(d)], str(out), "propagate-mma", workers=2, progress=False)
    return d, result


def test_formats_hold_the_same_rows(small_sweep, tmp_path):
    d, result = small_sweep
    assert [r["key"] for r in result.rows] == sorted(r["key"] for r in result.rows)  # sorted once complete
    assert len(result.rows) == 6 and result.ran == 6
    expected = _comparable(result.rows)
    for name in ("r.csv", "r.parquet"):
        if name.endswith(".parquet"):
            pytest.importorskip("pyarrow")
        out = tmp_path / name
        run_sweep([str(d)], str(out), "propagate-mma", workers=1, progress=False)
        assert _comparable(read_rows(str(out))) == expected
    with open(tmp_path / "r.csv", newline="") as f:
        header = next(csv.reader(f))
    assert tuple(header) == NAMES


def test_parquet_is_typed_for_dataframe_tools(small_sweep, tmp_path):
    pq = pytest.importorskip("pyarrow.parquet")
    d, _ = small_sweep
    out = tmp_path / "r.parquet"
    run_sweep([str(d)], str(out), "propagate-mma", workers=1, progress=False)
    table = pq.read_table(out)
    types = {f.name: str(f.type) for f in table.schema}
    assert types["shared_saved"] == "int64" and types["unlocked"] == "bool" and types["remarks"].startswith("list<") and "string" in types["remarks"]
    unlocked = [r["kernel"] for r in table.to_pylist() if r["unlocked"]]
    assert unlocked == ["addmm_kernel"]
    assert not journal_path(str(out)).exists()  # compacted into the Parquet file


def test_summary_adds_up_the_rows(small_sweep):
    _, result = small_sweep
    groups = summarise(result.rows)
    total = groups[-1]
    assert (total.triton_version, total.target, total.kernels) == ("*", "*", 6)
    assert total.unlocked == 1 and dict(total.failures) == {"parse": 1}
    assert total.converts_removed == sum(r["converts_removed"] or 0 for r in result.rows)
    assert total.shared_saved == sum(r["shared_saved"] or 0 for r in result.rows)
    assert sum(g.kernels for g in groups[:-1]) == 6
    mi300 = next(g for g in groups if g.target == "hip:gfx942")
    assert (mi300.changed, mi300.unlocked, mi300.out_of_resources) == (1, 1, 1)
    assert "hip:gfx942" in render(groups)


def test_resume_refuses_another_pipeline(small_sweep, tmp_path):
    d, _ = small_sweep
    out = tmp_path / "r.jsonl"
    run_sweep([str(d)], str(out), "propagate-mma", workers=1, progress=False)
    with pytest.raises(CliError, match="holds results of pipeline 'propagate-mma'"):
        run_sweep([str(d)], str(out), "coalesce", workers=1, resume=True, progress=False)
    again = run_sweep([str(d)], str(out), "propagate-mma", workers=1, resume=True, progress=False)
    assert again.ran == 0 and again.kept == 6


def _rows_on_disk(out: Path) -> int:
    target = journal_path(str(out)) if out.suffix == ".parquet" else out
    if not target.exists():
        return 0
    n = target.read_text().count("\n")
    return n - 1 if out.suffix == ".csv" else n


@pytest.mark.parametrize("suffix", [".jsonl", ".csv", ".parquet"])
def test_kill_9_then_resume_gives_the_uninterrupted_file(tmp_path, suffix):
    if suffix == ".parquet":
        pytest.importorskip("pyarrow")
    d = _kernel_copies(tmp_path / "kernels", SMALL + [ADDMM])
    whole, cut = tmp_path / f"whole{suffix}", tmp_path / f"cut{suffix}"
    argv = ["-p", "propagate-mma", str(d), "--workers", "1"]
    subprocess.run(SWEEP + argv + ["-o", str(whole)], check=True, capture_output=True)
    proc = subprocess.Popen(SWEEP + argv + ["-o", str(cut)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 120
    while _rows_on_disk(cut) < 3 and proc.poll() is None and time.time() < deadline:
        time.sleep(0.05)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    done = _rows_on_disk(cut)
    assert 3 <= done < len(SMALL) + 1, "the sweep was not killed mid-way"
    assert len(read_rows(str(cut))) == done  # every finished row survived the kill
    resumed = subprocess.run(SWEEP + argv + ["-o", str(cut), "--resume"], capture_output=True, text=True, check=True)
    assert f"{len(SMALL) + 1 - done:,} run, {done:,} kept" in resumed.stdout
    assert _comparable(read_rows(str(cut))) == _comparable(read_rows(str(whole)))
    if suffix != ".parquet":  # the files themselves are the same but for the time column
        strip = (lambda t: [line.rsplit(",", 1)[0] for line in t.splitlines()]) if suffix == ".csv" else \
            (lambda t: [json.dumps({k: v for k, v in json.loads(line).items() if k != "seconds"}) for line in t.splitlines()])
        assert strip(cut.read_text()) == strip(whole.read_text())


# -- --compile -------------------------------------------------------------------------------------------


def _triton31() -> str | None:
    """A Python with Triton 3.1, from IRKIT_TRITON_PYTHONS ("3.1.0=/path/bin/python:..."), as irkit-check's tests."""
    for entry in filter(None, os.environ.get("IRKIT_TRITON_PYTHONS", "").split(":")):
        version, _, python = entry.partition("=")
        if version.strip().startswith("3.1") and Path(python.strip()).exists():
            return python.strip()
    return None


def test_compile_adds_the_real_compilers_figures(tmp_path):
    python = _triton31()
    if python is None:
        pytest.skip("no Triton 3.1 (set IRKIT_TRITON_PYTHONS)")
    d = _kernel_copies(tmp_path / "k", [ROOT / "tests" / "data" / "check" / "addmm_bp_cuda90_256x256x32_w8_s2_triton31.ttgir",
                                        KERNELS / "3.1.0" / "cuda_80" / "calls.ttir"])
    out = tmp_path / "r.jsonl"
    proc = subprocess.run(SWEEP + ["-p", "propagate-mma{profit=always}", str(d), "-o", str(out), "--compile", "--triton-python", python],
                          capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr
    rows = {r["stage"]: r for r in read_rows(str(out))}
    addmm = rows["ttgir"]
    # irkit-check's figures for this kernel (docs/gpu-validation.md, with profit=always: the cost model keeps
    # this conversion): the real compiler halves shared memory
    assert (addmm["compile_triton"][:3], addmm["compile_shared_before"], addmm["compile_shared_after"]) == ("3.1", 133120, 65536)
    assert addmm["compile_agrees"] is True and addmm["compile_error"] is None
    assert addmm["compile_registers_before"] is not None
    assert rows["ttir"]["compile_error"].startswith("not compiled") and rows["ttir"]["compile_shared_before"] is None


# -- Ray -------------------------------------------------------------------------------------------------


@pytest.fixture(scope="session")
def local_ray():
    ray = pytest.importorskip("ray")
    os.environ.setdefault("RAY_AUTH_MODE", "disabled")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    yield ray
    ray.shutdown()


def test_ray_gives_the_same_rows_as_the_local_pool(small_sweep, local_ray, tmp_path):
    d, local = small_sweep
    out = tmp_path / "ray.jsonl"
    result = run_sweep([str(d)], str(out), "propagate-mma", use_ray=True, progress=False)
    assert result.ran == 6
    assert _comparable(read_rows(str(out))) == _comparable(local.rows)
    assert {m["pid"] for m in result.memory} and all(m["rss_kib"] for m in result.memory)


def test_every_column_is_documented():
    doc = (ROOT / "docs" / "sweeps.md").read_text()
    missing = [name for name in NAMES if f"`{name}`" not in doc]
    assert not missing, f"docs/sweeps.md does not describe {missing}"
