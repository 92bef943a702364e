"""Which host loops around `gpu.launch_func` may share one stream (seed 001), a pure function of the IR.

A loop qualifies when every iteration only computes `arith` values, makes synchronous launches
(no explicit async object, no async dependencies) and runs nested loops of the same kind: then the
only thing the per-launch stream (MLIR's gpu-to-llvm lowering of a synchronous launch: create,
launch, synchronize, destroy) orders is the launches themselves, and one stream created before the
loop orders them the same way.  Anything else may read what a kernel wrote or depend on the
synchronization, so the loop is left alone, with the reason.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import scf
from xdsl.ir import Operation

from irkit.dialects.arith import ARITH_OPS
from irkit.dialects.gpu_host import CallOp, LaunchFuncOp, WaitOp
from irkit.dialects.types import GpuAsyncTokenType

_ARITH = tuple(ARITH_OPS)


@dataclass(frozen=True)
class LoopVerdict:
    loop: scf.ForOp
    launches: tuple[LaunchFuncOp, ...]
    refusal: str | None  # why the loop is left alone; None: it may share one stream


def _refusal(op: Operation) -> str | None:
    if isinstance(op, LaunchFuncOp):
        if op.asyncObject is not None:
            return "a launch names an explicit async object (gpu-to-llvm 22.1 drops it on a synchronous launch)"
        if op.results or op.asyncDependencies:
            return "a launch is already asynchronous (its stream is the program's choice)"
        return None
    if isinstance(op, scf.ForOp):
        if any(isinstance(a.type, GpuAsyncTokenType) for a in op.iter_args):
            return "a loop carries an async token in iter_args (lowered to event calls on a stream: a leak in MLIR 22.1)"
        return None
    if isinstance(op, scf.YieldOp):
        return None
    if isinstance(op, WaitOp):
        return "it already waits on the GPU (gpu.wait)"
    if isinstance(op, CallOp):
        return f"it calls {op.properties['callee']} (a host call may read what a kernel wrote)"
    if isinstance(op, _ARITH):
        return None
    return f"it holds {op.name} (host memory access, copies and other ops may need the per-launch synchronization)"


def loop_verdict(loop: scf.ForOp) -> LoopVerdict:
    launches: list[LaunchFuncOp] = []
    refusal = _refusal(loop)
    for op in loop.body.walk():
        why = _refusal(op)
        if why is not None and refusal is None:
            refusal = why
        if isinstance(op, LaunchFuncOp):
            launches.append(op)
    if refusal is None and not launches:
        refusal = "it launches no kernel"
    return LoopVerdict(loop, tuple(launches), refusal)


def outermost_loops(root: Operation) -> list[LoopVerdict]:
    """The verdict of every loop that holds a launch, outermost qualifying loops only: a loop inside a
    qualifying one shares its stream."""
    verdicts: list[LoopVerdict] = []

    def visit(op: Operation) -> None:
        for region in op.regions:
            for block in region.blocks:
                for child in block.ops:
                    if isinstance(child, scf.ForOp):
                        v = loop_verdict(child)
                        if v.launches:
                            verdicts.append(v)
                        if v.refusal is None:
                            continue
                    visit(child)

    visit(root)
    return verdicts
