"""Progress bars for long runs, on a terminal and only there.

One helper for every long loop (per-pass reports over large dump logs, screens and sweeps over many
configs): a tqdm bar on stderr when stderr is a terminal; otherwise tqdm's disabled bar, which costs
nothing and prints nothing, so pipes, files and tests see exactly the output they saw before.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from typing import TypeVar

try:
    from tqdm import tqdm
except ImportError:  # an environment installed before tqdm became a dependency: no bars
    tqdm = None

T = TypeVar("T")


def shows_progress(enabled: bool = True) -> bool:
    """Whether a bar would be drawn: asked for, stderr is a terminal, and tqdm is installed."""
    return enabled and tqdm is not None and sys.stderr.isatty()


def progress_bar(
    iterable: Iterable[T] | None = None,
    *,
    total: int | None = None,
    desc: str | None = None,
    unit: str = "it",
    enabled: bool = True,
    leave: bool = False,
):
    """A tqdm bar over `iterable` (or updated by hand with `.update(n)` when `total` is given).
    By default the bar is erased when done: the terminal keeps only the tool's own output; `leave=True`
    keeps its last state (`3/3 kernels, 1.2 kernel/s`) where that is the run's summary."""
    if tqdm is None:
        return _NoBar(iterable)
    return tqdm(
        iterable,
        total=total,
        desc=desc,
        unit=unit,
        file=sys.stderr,
        disable=not shows_progress(enabled),
        leave=leave,
        dynamic_ncols=True,
        smoothing=0.1,
    )


class _NoBar:
    """tqdm's interface where tqdm is missing: iterates, counts nothing."""

    def __init__(self, iterable):
        self.iterable = iterable

    def __iter__(self):
        return iter(self.iterable if self.iterable is not None else ())

    def update(self, n: int = 1) -> None:
        pass

    def close(self) -> None:
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        pass
