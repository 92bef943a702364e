"""Progress bars for long runs, on a terminal and only there.

One helper for every long loop (per-pass reports over large dump logs, screens and sweeps over many
configs): a tqdm bar on stderr when stderr is a terminal; otherwise tqdm's disabled bar, which costs
nothing and prints nothing, so pipes, files and tests see exactly the output they saw before.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from typing import TypeVar

from tqdm import tqdm

T = TypeVar("T")


def shows_progress(enabled: bool = True) -> bool:
    """Whether a bar would be drawn: asked for, and stderr is a terminal."""
    return enabled and sys.stderr.isatty()


def progress_bar(
    iterable: Iterable[T] | None = None,
    *,
    total: int | None = None,
    desc: str | None = None,
    unit: str = "it",
    enabled: bool = True,
) -> tqdm:
    """A tqdm bar over `iterable` (or updated by hand with `.update(n)` when `total` is given).
    The bar is erased when done (`leave=False`): the terminal keeps only the tool's own output."""
    return tqdm(
        iterable,
        total=total,
        desc=desc,
        unit=unit,
        file=sys.stderr,
        disable=not shows_progress(enabled),
        leave=False,
        dynamic_ncols=True,
        smoothing=0.1,
    )
