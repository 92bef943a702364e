"""The GPU as a pass sees it: an interface the tools provide to time a candidate module against another.

`propagate-mma{profit=measured}` (and its default, `profit=auto`, wherever a tool provides a timer) settles its
decision by timing: the static figures (the cost model, the compiler's registers and spills) tell the
rewrites that pay from those that do not on about 87% of the kernels measured, and no rule over them does
better (docs/propagate-mma-results.md, session 23's ceiling).  Triton settles the same kind of question, which
tile or how many stages, with its autotuner; irkit-check, which runs the program on the GPU, times the
candidates at the very launch being checked and provides them here.  Compiling and launching are the tools'
business: a pass only asks.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from xdsl.dialects.builtin import ModuleOp

from irkit.analysis.tool_provided import ToolProvided


@dataclass(frozen=True)
class MeasuredRatio:
    """A candidate's time over its reference's at one launch: the median of interleaved pairs' after/before
    ratios with its 95% interval (below 1: the candidate is faster), and whether their outputs were equal bit
    for bit."""

    ratio: float
    low: float
    high: float
    pairs: int
    bit_identical: bool

    @property
    def shown_faster(self) -> bool:
        """Faster with 95% confidence: the whole interval lies below 1."""
        return self.high < 1.0

    def summary(self) -> str:
        same = "" if self.bit_identical else ", outputs differ"
        return f"after/before {self.ratio:.3f} [{self.low:.3f}, {self.high:.3f}] over {self.pairs} pairs{same}"


class KernelTimer(Protocol):
    def time(self, reference: ModuleOp, candidate: ModuleOp) -> MeasuredRatio | str:
        """`candidate` against `reference` (both modules of the launch the tool is checking), or why it could
        not be timed (one line: the compiler rejected it, the launch failed)."""
        ...


_slot: ToolProvided[KernelTimer] = ToolProvided()
provide = _slot.provide  # what the tools call: passes asking get it (None: none)
provided = _slot.provided
providing = _slot.providing  # for the duration of a block (the tools around one module; tests)
