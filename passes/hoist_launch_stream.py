"""`hoist-launch-stream`: one GPU stream per host loop instead of one per `gpu.launch_func` (seed 001).

MLIR's `gpu-to-llvm` (GPUToLLVMConversion.cpp, `LegalizeLaunchFuncOpPattern`) lowers a synchronous
`gpu.launch_func` to `mgpuStreamCreate`, `mgpuLaunchKernel`, `mgpuStreamSynchronize`,
`mgpuStreamDestroy` (plus `mgpuModuleGetFunction`, and in MLIR 14 `mgpuModuleLoad`/`Unload`) on every
launch.  In a loop whose iterations only launch kernels (irkit/analysis/launch_loops.py says which),
this pass creates the stream once before the loop (`%t = gpu.wait async`), makes every launch
`gpu.launch_func async [%t]` on it, and waits once after the loop (`gpu.wait [%t]`).  No upstream pass
does this: `gpu-async-region` still creates a stream per iteration (docs/passes/hoist-launch-stream.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects import scf
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint

from irkit.analysis.launch_loops import outermost_loops
from irkit.diagnostics import emit_remark
from irkit.dialects.gpu_host import LaunchFuncOp, WaitOp


@dataclass
class _SharedStreamLoop(RewritePattern):
    """Puts the loops the analysis accepted on one stream."""

    accepted: set[scf.ForOp]

    @op_type_rewrite_pattern
    def match_and_rewrite(self, loop: scf.ForOp, rewriter: PatternRewriter) -> None:
        if loop not in self.accepted:
            return
        self.accepted.discard(loop)
        stream = WaitOp.build_async([])
        rewriter.insert_op(stream, InsertPoint.before(loop))
        token = stream.results[0]
        for launch in [op for op in loop.body.walk() if isinstance(op, LaunchFuncOp)]:
            rewriter.replace_op(launch, launch.on_stream(token), new_results=[])
        rewriter.insert_op(WaitOp.build_sync([token]), InsertPoint.after(loop))


@dataclass(frozen=True)
class HoistLaunchStreamPass(ModulePass):
    """Create one GPU stream before a host loop of launches instead of one per gpu.launch_func."""

    name = "hoist-launch-stream"
    upstream_names: ClassVar[dict[str, str]] = {}

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        accepted: set[scf.ForOp] = set()
        for verdict in outermost_loops(op):
            if verdict.refusal is None:
                accepted.add(verdict.loop)
                emit_remark(verdict.loop, f"hoist-launch-stream: {len(verdict.launches)} launch(es) share one stream "
                                          "created before the loop")
            else:
                emit_remark(verdict.loop, f"hoist-launch-stream: loop left alone: {verdict.refusal}")
        PatternRewriteWalker(_SharedStreamLoop(accepted), apply_recursively=False).rewrite_module(op)
