"""Timing statistics for run mode: interleaved before/after pairs, medians, and when to stop.

Pure Python (the checked program's Python imports it).  The device-specific part is one function,
`time_calls(calls) -> [ms, ...]`, that runs each call once and returns its time (CUDA events around each
launch after an L2 flush, in `torch_backend`); tests pass a fake one.

Method: pairs of one `before` and one `after` launch, the order alternating pair by pair (ABBA...), so
drift in clocks or temperature touches both alike.  The speed ratio is the median of the per-pair ratios
after/before, with a distribution-free 95% interval from order statistics.  Timing stops once that interval
is narrower than `resolution` on each side (0.5% by default, so a 1% difference is told apart from
noise), or at `max_pairs`, or after `max_seconds`.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field


def median(xs: list[float]) -> float:
    s = sorted(xs)
    n = len(s)
    if n == 0:
        raise ValueError("median of nothing")
    return s[n // 2] if n % 2 else 0.5 * (s[n // 2 - 1] + s[n // 2])


def quantile(xs: list[float], q: float) -> float:
    """Linear interpolation between order statistics (numpy's default)."""
    s = sorted(xs)
    if not s:
        raise ValueError("quantile of nothing")
    pos = q * (len(s) - 1)
    lo = math.floor(pos)
    hi = min(lo + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (pos - lo)


def median_interval(xs: list[float], z: float = 1.96) -> tuple[float, float]:
    """A ~95% confidence interval of the median: the order statistics n/2 -+ z*sqrt(n)/2 (binomial)."""
    s = sorted(xs)
    n = len(s)
    if n < 3:
        return (s[0], s[-1]) if s else (math.nan, math.nan)
    half = z * math.sqrt(n) / 2
    lo = max(0, math.floor(n / 2 - half))
    hi = min(n - 1, math.ceil(n / 2 + half) - 1)
    return s[lo], s[hi]


@dataclass
class Timing:
    before_ms: list[float] = field(default_factory=list)
    after_ms: list[float] = field(default_factory=list)
    stopped_by: str = ""

    @property
    def pairs(self) -> int:
        return min(len(self.before_ms), len(self.after_ms))

    def ratios(self) -> list[float]:
        return [a / b for b, a in zip(self.before_ms, self.after_ms) if b > 0]

    def summary(self) -> dict:
        """Medians, spread (interquartile range relative to the median) and the after/before ratio with
        its 95% interval.  ratio < 1: the rewritten kernel is faster."""
        if not self.pairs:
            return {"pairs": 0}
        r = self.ratios()
        lo, hi = median_interval(r)
        out = {"pairs": self.pairs, "stopped_by": self.stopped_by, "ratio": median(r), "ratio_lo": lo, "ratio_hi": hi}
        for side, xs in (("before", self.before_ms), ("after", self.after_ms)):
            m = median(xs)
            out[f"{side}_median_ms"] = m
            out[f"{side}_iqr_rel"] = (quantile(xs, 0.75) - quantile(xs, 0.25)) / m if m else math.nan
            out[f"{side}_min_ms"] = min(xs)
        out["verdict"] = verdict(out["ratio_lo"], out["ratio_hi"])
        return out


def verdict(lo: float, hi: float) -> str:
    """'faster' / 'slower' when the whole 95% interval of after/before lies below / above 1."""
    if hi < 1.0:
        return "faster"
    if lo > 1.0:
        return "slower"
    return "same"


def resolved(timing: Timing, resolution: float) -> bool:
    r = timing.ratios()
    if len(r) < 3:
        return False
    lo, hi = median_interval(r)
    m = median(r)
    return (m - lo) <= resolution * m and (hi - m) <= resolution * m


def interleave(
    before: Callable[[], None],
    after: Callable[[], None],
    time_calls: Callable[[list[Callable[[], None]]], list[float]],
    *,
    min_pairs: int = 20,
    max_pairs: int = 2000,
    resolution: float = 0.005,
    max_seconds: float = 20.0,
    batch_pairs: int = 10,
    clock: Callable[[], float] = time.monotonic,
    progress: Callable[[Timing], None] | None = None,
) -> Timing:
    """Time `before` and `after` in alternating pairs until the ratio is resolved (see the module doc)."""
    timing = Timing()
    start = clock()
    while True:
        calls, sides = [], []
        for i in range(batch_pairs):
            order = (("before", before), ("after", after)) if (timing.pairs + i) % 2 == 0 else \
                (("after", after), ("before", before))
            for side, fn in order:
                calls.append(fn)
                sides.append(side)
        times = time_calls(calls)
        for side, t in zip(sides, times):
            (timing.before_ms if side == "before" else timing.after_ms).append(t)
        if progress is not None:
            progress(timing)
        if timing.pairs >= min_pairs and resolved(timing, resolution):
            timing.stopped_by = "resolved"
        elif timing.pairs >= max_pairs:
            timing.stopped_by = "max_pairs"
        elif clock() - start >= max_seconds and timing.pairs >= 3:
            timing.stopped_by = "max_seconds"
        if timing.stopped_by:
            return timing


def repeat(
    fn: Callable[[], None],
    time_calls: Callable[[list[Callable[[], None]]], list[float]],
    *,
    min_reps: int = 20,
    max_reps: int = 2000,
    resolution: float = 0.005,
    max_seconds: float = 20.0,
    batch: int = 10,
    clock: Callable[[], float] = time.monotonic,
) -> dict:
    """Time one kernel alone (one the pipeline left unchanged, for the family's optimum): until the 95%
    interval of its median is within `resolution` of it, or the limits."""
    times: list[float] = []
    start = clock()
    stopped_by = ""
    while not stopped_by:
        times += time_calls([fn] * batch)
        m = median(times)
        lo, hi = median_interval(times)
        if len(times) >= min_reps and m - lo <= resolution * m and hi - m <= resolution * m:
            stopped_by = "resolved"
        elif len(times) >= max_reps:
            stopped_by = "max_reps"
        elif clock() - start >= max_seconds and len(times) >= 3:
            stopped_by = "max_seconds"
    m = median(times)
    return {"reps": len(times), "median_ms": m, "min_ms": min(times), "stopped_by": stopped_by,
            "iqr_rel": (quantile(times, 0.75) - quantile(times, 0.25)) / m if m else math.nan}
