"""One kernel of a sweep: read it, report on it, run the pipeline, report again; one row.

Everything here is what ``irkit-report KERNEL -p PIPELINE`` does (its reader, irkit-opt's driver for
the pipeline, the report model for conversions, shared memory and verdicts), so a sweep's row and
that command's figures are the same.  Any failure becomes an error row; nothing escapes.
"""

from __future__ import annotations

import hashlib
import json
import re
import signal
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace

from irkit.sweep.compiled import COLUMNS as COMPILE_COLUMNS
from irkit.sweep.inputs import KernelTask, kernel_name
from irkit.sweep.schema import empty_row, printable

# module attributes, keys quoted or not (Triton prints `triton_gpu.target = "cuda:80"`)
_NUM_WARPS_RE = re.compile(r'"?(?:ttg|triton_gpu)\.num-warps"?\s*=\s*(\d+)')
_TARGET_RE = re.compile(r'"?(?:ttg|triton_gpu)\.target"?\s*=\s*"([^"]*)"')

_pipelines: dict[str, object] = {}

DEFAULT_TIMEOUT_S = 600.0  # per kernel: ~10,000x a typical kernel's 69 ms, or a few real compiles with --compile


@dataclass(frozen=True)
class SweepOptions:
    """What every kernel of a sweep is run with (sent to each worker with each kernel)."""

    pipeline: str | None
    tritons: tuple[tuple[str, str], ...] = ()  # (version, python) to compile with: --compile
    timeout_s: float | None = None  # per kernel: --timeout (None or 0: no limit)


class KernelFailed(Exception):
    def __init__(self, kind: str, message: str):
        super().__init__(message)
        self.kind = kind
        self.message = message


class KernelTimedOut(BaseException):
    """A kernel's analysis outlasted --timeout.  A BaseException, like KeyboardInterrupt, so that the
    analysis's own `except Exception` handlers cannot turn it into another kind of error."""


@contextmanager
def time_limit(seconds: float | None) -> Iterator[None]:
    """Raise KernelTimedOut in this thread after `seconds` of wall time (SIGALRM).  Pool and Ray workers
    run a kernel in their main thread, where signals are delivered; elsewhere, or without setitimer (not
    POSIX), there is no limit.  A compile subprocess running at the time is killed by subprocess.run
    when the exception goes through it."""
    if not seconds or threading.current_thread() is not threading.main_thread() or not hasattr(signal, "setitimer"):
        yield
        return

    def expire(_signum, _frame):
        raise KernelTimedOut

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        try:  # an alarm that fires right here still restores the handler
            signal.setitimer(signal.ITIMER_REAL, 0)
        finally:
            signal.signal(signal.SIGALRM, previous)


def pipeline_for(spec: str | None):
    """The pipeline, built once per worker process."""
    if not spec:
        return None
    if spec not in _pipelines:
        from irkit.cli import report

        _pipelines[spec] = report.build_pipeline(spec)
    return _pipelines[spec]


def _meta_target(meta: dict) -> str | None:
    t = meta.get("target")
    if isinstance(t, dict) and t.get("backend"):
        arch = t.get("arch")
        return f"{t['backend']}:{arch}" if arch not in (None, "") else str(t["backend"])
    return t if isinstance(t, str) else None


def identity(text: str, meta: dict) -> dict:
    """What names the kernel, read from its text and the compiler's metadata: cheap, and the same
    for a kernel that fails to parse."""
    warps = _NUM_WARPS_RE.search(text)
    target = _TARGET_RE.search(text)
    return {
        "content_hash": hashlib.sha256(text.encode()).hexdigest()[:16],
        "kernel": kernel_name(text) or meta.get("name"),
        "stage": "ttgir" if warps else "ttir",  # TTGIR modules carry num-warps, TTIR ones do not
        "triton_version": meta.get("triton_version"),
        "target": target.group(1) if target else _meta_target(meta),
        "num_warps": int(warps.group(1)) if warps else meta.get("num_warps"),
    }


def metadata(path: str) -> dict:
    """The compiler's metadata beside a kernel file (irkit-report's sidecar lookup), for a TTIR file
    too: a cache entry's ``<k>.json`` describes every stage of the kernel."""
    from irkit.cli.opt import sidecar

    p = Path(path)
    if p.suffix == ".ttir":
        for candidate in (p.with_suffix(".json"), p.with_suffix(".meta.json")):
            if candidate.is_file():
                return _json(candidate)
        return {}
    return sidecar(path)


def _json(path: Path) -> dict:
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _first_line(text: str) -> str:
    return text.strip().splitlines()[0] if text.strip() else text


def _read(task: KernelTask):
    from irkit.cli import opt as driver
    from irkit.cli.entry import CliError

    ns = SimpleNamespace(input=task.path, list_sections=False, dump_section=task.section or None, dump_after=False)
    try:
        return driver.read_input(ns)
    except CliError as e:
        raise KernelFailed("read", str(e)) from None
    except SystemExit:  # read_input exits after listing sections; it never lists here
        raise KernelFailed("read", "unexpected exit while reading") from None


def _parse(chunk):
    from irkit.cli.report import ReportFailed, parse

    try:
        return parse(chunk)
    except ReportFailed as e:
        raise KernelFailed("parse", _first_line(str(e))) from None


def _report(parsed, name: str, version: str | None, recorded: int | None):
    from irkit.report import build_module_report

    try:
        return build_module_report(parsed, name=name, version=version, recorded_shared=recorded)
    except Exception as e:  # noqa: BLE001 (the analysis could not model this kernel: a row, not a crash)
        raise KernelFailed("analysis", f"{type(e).__name__}: {e}") from None


def _top_level_modules(parsed) -> int:
    from irkit.cli.report import split_modules

    return len(split_modules(parsed))


def _classify(message: str) -> str:
    if message.startswith("after pass '"):
        return "verify-after"
    if re.match(r"pass '[^']*' failed: ", message):
        return "pass-crash"
    return "pass"


def _run_pipeline(chunk, pipeline, remarks: list[str]):
    """irkit-opt's driver on one chunk: the printed module after the pipeline."""
    from irkit.cli import opt as driver
    from irkit.cli.report import PIPELINE_DRIVER_ARGS

    result = driver.process_chunk(PIPELINE_DRIVER_ARGS, chunk, pipeline, None)
    for d in result.diagnostics:
        where = f"{d.line}:{d.col or 1}: " if d.line is not None else ""
        if d.severity == "error":
            raise KernelFailed(_classify(d.message), d.render().splitlines()[0])
        prefix = "" if d.severity == "remark" else f"{d.severity}: "
        remarks.append(f"{where}{prefix}{d.message}")
    if result.output is None:
        raise KernelFailed("pass", f"{chunk.name}: error: the pipeline produced no module")
    return result.output


def analyse(task: KernelTask, options: SweepOptions, row: dict) -> None:
    """Fill ``row`` for one kernel or raise KernelFailed (``row`` keeps what was learnt before)."""
    from irkit.cli.opt import InputText
    from irkit.frontend.printer import print_module
    from irkit.report import build_diff_report
    from irkit.verifier import verify_parsed

    chunk = _read(task)
    meta = metadata(task.path) if not task.section else {}
    row.update(identity(chunk.text, meta))
    parsed = _parse(chunk)
    modules = _top_level_modules(parsed)
    if modules > 1:
        # a row is one kernel; summing several modules' figures would be wrong, so say so (irkit-opt
        # and irkit-report take each module of such a file on its own)
        raise KernelFailed("multi-module", f"{chunk.name}: error: the file holds {modules} top-level modules; irkit-sweep "
                                           "takes one module per kernel file (irkit-report reports each module)")
    errors = verify_parsed(parsed, chunk.text, chunk.name, chunk.line_offset)
    if errors:
        raise KernelFailed("verify", errors[0].render().splitlines()[0])
    # the compiler's shared bytes belong to the TTGIR it allocated, not to a TTIR of the same kernel
    recorded = meta.get("shared") if isinstance(meta.get("shared"), int) and row["stage"] == "ttgir" else None
    before = _report(parsed, chunk.name, meta.get("triton_version"), recorded)
    if row["triton_version"] is None and row["stage"] == "ttgir":
        row["triton_version"] = before.version  # the rules the dialect spelling implies (TTIR has none)
    if row["target"] is None:
        row["target"] = before.target
    spec = options.pipeline
    pipeline = pipeline_for(spec)
    remarks: list[str] = []
    unchanged_text = print_module(parsed, debuginfo=True) if pipeline is not None or options.tritons else None
    after_text = unchanged_text
    if pipeline is None:
        after, changed = before, False
    else:
        after_text = _run_pipeline(chunk, pipeline, remarks)
        after_parsed = _parse(InputText(after_text, f"{chunk.name} (after pipeline)"))
        after = _report(after_parsed, chunk.name, before.version, None)
        changed = after_text != unchanged_text
    diff = build_diff_report(before, after, spec)
    row.update(
        converts_before=len(before.converts),
        converts_after=len(after.converts),
        converts_removed=diff.converts_eliminated,
        shared_before=before.shared_bytes,
        shared_after=after.shared_bytes,
        shared_saved=diff.bytes_saved,
        shared_limit=before.limit,
        fits_before=before.fits,
        fits_after=after.fits,
        verdict_before=before.verdict,
        verdict_after=after.verdict,
        unlocked=before.fits is False and after.fits is True,
        changed=changed,
        recorded_shared=before.recorded_shared,
        remarks=remarks,
    )
    if options.tritons:
        if row["stage"] != "ttgir":
            row["compile_error"] = "not compiled: a TTIR module (the sweep compiles TTGIR)"
        else:
            from irkit.sweep.compiled import compile_columns

            row.update(compile_columns(chunk.text, after_text if changed else chunk.text, row["target"], meta.get("triton_version"),
                                       (before.shared_bytes, after.shared_bytes), options.tritons))


def sweep_kernel(task: KernelTask, options: SweepOptions | str | None) -> dict:
    """The results row of one kernel; an error row (status, error_kind, error) when it fails.
    `options`: a SweepOptions, or just the pipeline."""
    if not isinstance(options, SweepOptions):
        options = SweepOptions(options)
    start = time.perf_counter()
    row = empty_row()
    row.update(key=task.key, path=printable(task.path), section=task.section, pipeline=options.pipeline or "", status="ok")
    if printable(task.path) != task.path:
        row.update(status="error", error_kind="read", error=f"{row['path']}: error: the file name is not valid UTF-8 "
                                                              "(a results file cannot name it; rename the file)")
        row["remarks"] = []
        row["seconds"] = 0.0
        return row
    try:
        with time_limit(options.timeout_s):
            analyse(task, options, row)
    except KernelTimedOut:
        row.update(status="error", error_kind="timeout",
                   error=f"{task.path}: the analysis took longer than {options.timeout_s:g} s (--timeout)")
    except KernelFailed as e:
        row.update(status="error", error_kind=e.kind, error=e.message)
    except RecursionError:
        row.update(status="error", error_kind="parse", error=f"{task.path}:1:1: error: input nests too deeply")
    except MemoryError:
        row.update(status="error", error_kind="internal", error="out of memory")
    except Exception as e:  # noqa: BLE001 (a bug in irkit: a row that says so, and the sweep goes on)
        row.update(status="error", error_kind="internal", error=f"{type(e).__name__}: {e}")
    if row["status"] == "error":
        for k in ("converts_before", "converts_after", "converts_removed", "shared_before", "shared_after",
                  "shared_saved", "shared_limit", "fits_before", "fits_after", "verdict_before",
                  "verdict_after", "unlocked", "changed", "recorded_shared", *COMPILE_COLUMNS):
            row[k] = None
        row["remarks"] = []
    row["seconds"] = round(time.perf_counter() - start, 4)
    return row


def worker_memory() -> dict:
    """This process's pid, resident set now and its peak (KiB), and its CPU seconds so far: the
    per-worker figures of bench/sweep.py."""
    import os
    import resource

    rss = None
    try:
        with open("/proc/self/statm") as f:
            rss = int(f.read().split()[1]) * (os.sysconf("SC_PAGE_SIZE") // 1024)
    except (OSError, ValueError, IndexError):
        pass
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return {"pid": os.getpid(), "rss_kib": rss, "maxrss_kib": usage.ru_maxrss, "cpu_s": usage.ru_utime + usage.ru_stime}


def run_task(task: KernelTask, options: SweepOptions) -> tuple[dict, dict]:
    """What an engine runs in a worker: the row, and the worker's memory after it."""
    return sweep_kernel(task, options), worker_memory()
