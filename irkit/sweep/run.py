"""A whole sweep: discover, skip what a resumed file holds, run, write as rows come, sort at the end."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field

from irkit.cli.entry import CliError
from irkit.progress import progress_bar
from irkit.sweep import engines
from irkit.sweep.inputs import KernelTask, discover
from irkit.sweep.kernel import SweepOptions
from irkit.sweep.results import RowSink, WriterLock, format_of, read_rows, write_rows


@dataclass
class SweepResult:
    rows: list[dict]  # every row of the results file, sorted by key
    ran: int  # kernels run by this call (the rest were kept from the file)
    kept: int
    memory: list[dict] = field(default_factory=list)  # per kernel: pid, rss_kib, maxrss_kib, done (order)


def _check_pipeline(kept: list[dict], spec: str | None, output: str) -> None:
    other = {r["pipeline"] or "" for r in kept} - {spec or ""}
    if other:
        raise CliError(f"'{output}' holds results of pipeline '{min(other)}', not '{spec or ''}': "
                       "resume it with the same -p, or write to another file")


def run_sweep(
    inputs: list[str],
    output: str,
    spec: str | None,
    *,
    workers: int | None = None,
    ray_address: str | None = None,
    use_ray: bool = False,
    resume: bool = False,
    max_tasks: int = engines.DEFAULT_MAX_TASKS,
    compile_with: tuple[tuple[str, str], ...] = (),
    all_stages: bool = False,
    progress: bool = True,
    tasks: list[KernelTask] | None = None,
    on_row: Callable[[dict, dict], None] | None = None,
    timeout_s: float | None = None,
) -> SweepResult:
    """Run ``spec`` over every kernel under ``inputs`` and write one row per kernel to ``output``.
    ``compile_with``: (Triton version, python) pairs to compile each kernel with (``--compile``);
    ``timeout_s``: the wall time after which a kernel becomes a ``timeout`` error row (``--timeout``)."""
    format_of(output)
    if spec:
        from irkit.cli import report

        report.build_pipeline(spec)  # a bad pipeline is a usage error, before any work
    if tasks is None:
        tasks = discover(inputs, all_stages)
    options = SweepOptions(spec, tuple(compile_with), timeout_s)
    sink = RowSink(output)
    lock = WriterLock(output)
    lock.acquire()
    try:
        return _locked_sweep(output, spec, tasks, options, sink, resume=resume, use_ray=use_ray,
                             ray_address=ray_address, workers=workers, max_tasks=max_tasks, progress=progress,
                             on_row=on_row)
    except OSError as e:  # a full disk, a read-only folder: the rows written so far stay (--resume goes on)
        where = os.fsdecode(e.filename) if e.filename is not None else output
        raise CliError(f"cannot write '{where}': {e.strerror or e}; the rows written so far are kept: "
                       "the same command with --resume runs the rest") from None
    finally:
        lock.release()


def _locked_sweep(output, spec, tasks, options, sink, *, resume, use_ray, ray_address, workers, max_tasks, progress,
                  on_row) -> SweepResult:
    kept = read_rows(output) if resume else []
    _check_pipeline(kept, spec, output)
    done = {r["key"] for r in kept}
    todo = [t for t in tasks if t.key not in done]
    sink.start(kept)
    new: list[dict] = []
    memory: list[dict] = []
    bar = progress_bar(total=len(todo), desc="sweep", unit="kernel", enabled=progress and bool(todo),
                       leave=True)
    try:
        if use_ray:
            engines.ray_init(ray_address, workers)
            stream = engines.run_ray(todo, options, max_tasks=max_tasks)
        else:
            stream = engines.run_local(todo, options, workers or engines.default_workers(), max_tasks=max_tasks)
        for row, mem in stream:
            sink.add(row)
            new.append(row)
            if mem:
                memory.append(dict(mem, done=len(new)))
            if on_row is not None:
                on_row(row, mem)
            bar.update(1)
    finally:
        bar.close()
        sink.close()
    rows = sorted(kept + new, key=lambda r: r["key"])
    write_rows(output, rows)
    return SweepResult(rows, len(new), len(kept), memory)
