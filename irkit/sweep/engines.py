"""Where a sweep's kernels run: a local process pool, or a Ray cluster.

Both run the same function (`irkit.sweep.kernel.run_task`) on the same tasks and yield
``(row, worker_memory)`` as kernels finish, in completion order; nothing else differs.  Neither
schedules by itself beyond keeping a bounded number of kernels in flight (so memory does not grow
with the size of the sweep): the pool and Ray decide which worker runs what.

Workers are recycled after ``max_tasks`` kernels (the pool's ``max_tasks_per_child``, Ray's
``max_calls``), so a slow leak in a pass cannot grow a worker for the whole sweep.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
import time
from collections.abc import Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool

from irkit.sweep.inputs import KernelTask
from irkit.sweep.kernel import SweepOptions, run_task
from irkit.sweep.schema import empty_row

DEFAULT_MAX_TASKS = 500
IN_FLIGHT_PER_WORKER = 2


def default_workers() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def _top_up(in_flight: dict, pending: Iterator[KernelTask], window: int, submit) -> None:
    """Submit kernels until ``window`` are in flight (or none are left): a bounded queue, so the
    driver's memory does not grow with the sweep."""
    while len(in_flight) < window:
        task = next(pending, None)
        if task is None:
            return
        in_flight[submit(task)] = task


def died_row(task: KernelTask, options: SweepOptions, why: str) -> dict:
    row = empty_row()
    row.update(key=task.key, path=task.path, section=task.section, pipeline=options.pipeline or "", status="error",
               error_kind="worker-died", error=why)
    return row


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:  # a killed sweep is a zombie until its parent reaps it
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return True


def _watch_sweep(pid: int) -> None:
    """In each worker: exit when the sweep that started it is gone (killed with SIGKILL, say), since
    the pool's workers would otherwise wait on their queue for ever."""

    def watch() -> None:
        while _alive(pid):
            time.sleep(1.0)
        os._exit(1)

    threading.Thread(target=watch, name="irkit-sweep-watch", daemon=True).start()


def _pool(workers: int, max_tasks: int) -> ProcessPoolExecutor:
    # forkserver: workers are forked from a server that imported irkit once (cheap to start, and
    # recyclable, which plain fork does not allow); spawn where there is no fork
    method = "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"
    ctx = multiprocessing.get_context(method)
    if method == "forkserver":
        ctx.set_forkserver_preload(["irkit.sweep.kernel", "irkit.cli.report", "irkit.passes"])
    return ProcessPoolExecutor(max_workers=workers, mp_context=ctx, max_tasks_per_child=max_tasks,
                               initializer=_watch_sweep, initargs=(os.getpid(),))


def run_local(tasks: Iterable[KernelTask], options: SweepOptions, workers: int,
              max_tasks: int = DEFAULT_MAX_TASKS, work=run_task) -> Iterator[tuple[dict, dict]]:
    """Rows from a process pool of ``workers``, each ``work(task, options)`` (an importable function).

    A worker that dies (killed for memory, a crash in a C extension) breaks the pool; the kernels
    that were in flight are then run again one at a time in a fresh pool, and the one that kills
    its worker again gets a ``worker-died`` row.  The sweep goes on.
    """
    pending = iter(tasks)
    suspects: list[KernelTask] = []
    window = max(1, workers) * IN_FLIGHT_PER_WORKER
    pool = _pool(workers, max_tasks)
    try:
        in_flight: dict = {}
        while True:
            _top_up(in_flight, pending, window, lambda task, pool=pool: pool.submit(work, task, options))
            if not in_flight:
                break
            done, _ = wait(in_flight, return_when=FIRST_COMPLETED)
            broken = False
            for fut in done:
                task = in_flight.pop(fut)
                try:
                    yield fut.result()
                except BrokenProcessPool:
                    suspects.append(task)
                    broken = True
            if broken:
                suspects.extend(in_flight.values())
                in_flight.clear()
                pool.shutdown(wait=True, cancel_futures=True)
                for task in suspects:
                    yield from _run_alone(task, options, work)
                suspects.clear()
                pool = _pool(workers, max_tasks)
    finally:
        pool.shutdown(wait=False, cancel_futures=True)


def _run_alone(task: KernelTask, options: SweepOptions, work) -> Iterator[tuple[dict, dict]]:
    pool = _pool(1, 1)
    try:
        yield pool.submit(work, task, options).result()
    except BrokenProcessPool:
        yield died_row(task, options, "the worker process died while analysing this kernel"), {}
    finally:
        pool.shutdown(wait=False, cancel_futures=True)


# -- Ray --------------------------------------------------------------------------------------------------


def ray_init(address: str | None, workers: int | None) -> None:
    """Connect to a cluster (``auto``, ``ray://host:port``, ``host:port``) or start a local one."""
    try:
        import ray
    except ImportError:
        from irkit.cli.entry import CliError

        raise CliError("--ray needs Ray: pip install 'irkit[ray]'") from None
    if ray.is_initialized():
        return
    kwargs = {"include_dashboard": False, "log_to_driver": False, "configure_logging": False}
    if address in (None, "", "local"):
        ray.init(num_cpus=workers, **kwargs)
    else:
        ray.init(address=address, **kwargs)


_remote_tasks: dict[int, object] = {}


def _remote_task(max_tasks: int):
    """The Ray task, made once: Ray counts `max_calls` per remote function, so sweeps run one after
    another in a process (a resumed bench slice) recycle their workers too."""
    import ray

    if max_tasks not in _remote_tasks:
        _remote_tasks[max_tasks] = ray.remote(num_cpus=1, max_calls=max_tasks, max_retries=1)(run_task)
    return _remote_tasks[max_tasks]


def run_ray(tasks: Iterable[KernelTask], options: SweepOptions, max_tasks: int = DEFAULT_MAX_TASKS) -> Iterator[tuple[dict, dict]]:
    """Rows from Ray tasks on the cluster ``ray_init`` joined (one task per kernel)."""
    import ray
    from ray.exceptions import RayError

    remote = _remote_task(max_tasks)
    cpus = int(ray.cluster_resources().get("CPU", 1))
    window = max(1, cpus) * IN_FLIGHT_PER_WORKER
    pending = iter(tasks)
    in_flight: dict = {}
    while True:
        _top_up(in_flight, pending, window, lambda task: remote.remote(task, options))
        if not in_flight:
            break
        done, _ = ray.wait(list(in_flight), num_returns=1)
        for ref in done:
            task = in_flight.pop(ref)
            try:
                yield ray.get(ref)
            except RayError as e:
                yield died_row(task, options, f"the Ray worker failed: {type(e).__name__}"), {}
