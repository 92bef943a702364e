"""Run mode's check of one launch: the original and the rewritten kernel on the same inputs, compared bit
for bit, then timed.  Pure Python; the device work goes through a `Backend` (`torch_backend.TorchBackend`
on a GPU, a fake one in the tests).

Inputs are captured before anything runs: every buffer argument's whole storage is copied once (buffers
that share a storage stay aliased in the copies), and each run gets its own fresh copy.  So kernels that
write their arguments in place (`x += y`, accumulators, atomics) are compared on identical inputs, and
the program's own tensors are left for the program's own launch, which runs after the check.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any, Protocol

from irkit.check.measure import Timing, interleave, repeat

Launch = Callable[[list[Any]], None]


@dataclass
class ArgDifference:
    index: int  # position of the argument in the launch
    dtype: str
    elements: int
    differing: int
    max_abs: float | None = None
    max_rel: float | None = None

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass
class Comparison:
    identical: bool
    differences: list[ArgDifference] = field(default_factory=list)

    def to_dict(self) -> dict:
        return {"identical": self.identical, "differences": [d.to_dict() for d in self.differences]}


class Backend(Protocol):
    def snapshot(self, args: list[Any]) -> Any: ...
    def materialize(self, snapshot: Any, args: list[Any]) -> list[Any]: ...
    def compare(self, a: list[Any], b: list[Any], args: list[Any]) -> Comparison: ...
    def time_calls(self, calls: list[Callable[[], None]]) -> list[float]: ...
    def synchronize(self) -> None: ...


@dataclass
class TimingOptions:
    min_pairs: int = 20
    max_pairs: int = 2000
    resolution: float = 0.005
    max_seconds: float = 20.0
    warmup: int = 3


@dataclass
class LaunchCheck:
    comparison: Comparison
    original_deterministic: bool | None  # run twice when the outputs differ: is the original itself stable?
    timing: Timing | None

    def to_dict(self) -> dict:
        return {"bit_identical": self.comparison.identical, "comparison": self.comparison.to_dict(),
                "original_deterministic": self.original_deterministic,
                "timing": self.timing.summary() if self.timing else None}


def check_launch(backend: Backend, before: Launch, after: Launch, args: list[Any],
                 options: TimingOptions | None = None, progress: Callable[[Timing], None] | None = None) -> LaunchCheck:
    """Run `before` and `after` on copies of the same inputs, compare every output byte, time both."""
    options = options or TimingOptions()
    snap = backend.snapshot(args)
    a = backend.materialize(snap, args)
    before(a)
    b = backend.materialize(snap, args)
    after(b)
    backend.synchronize()
    comparison = backend.compare(a, b, args)
    deterministic = None
    if not comparison.identical:
        c = backend.materialize(snap, args)
        before(c)
        backend.synchronize()
        deterministic = backend.compare(a, c, args).identical
        del c
    del snap
    timing = None
    if options.max_pairs > 0:
        for _ in range(options.warmup):
            before(a)
            after(b)
        backend.synchronize()
        timing = interleave(lambda: before(a), lambda: after(b), backend.time_calls,
                            min_pairs=options.min_pairs, max_pairs=options.max_pairs,
                            resolution=options.resolution, max_seconds=options.max_seconds, progress=progress)
    return LaunchCheck(comparison, deterministic, timing)


def time_alone(backend: Backend, launch: Launch, args: list[Any], options: TimingOptions | None = None) -> dict:
    """Time one kernel on a copy of its inputs (the program's tensors stay untouched)."""
    options = options or TimingOptions()
    a = backend.materialize(backend.snapshot(args), args)
    for _ in range(options.warmup):
        launch(a)
    backend.synchronize()
    return repeat(lambda: launch(a), backend.time_calls, min_reps=options.min_pairs, max_reps=options.max_pairs,
                  resolution=options.resolution, max_seconds=options.max_seconds)
