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
from xdsl.dialects.builtin import ModuleOp, StringAttr, UnrealizedConversionCastOp
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
from irkit.dialects.gpu_host import LaunchFuncOp, LLVMCallOp, LLVMFuncOp, WaitOp
from irkit.dialects.types import llvm_pointer_type

SYNCHRONIZE = "mgpuStreamSynchronize"  # MLIR's runtime wrapper (CudaRuntimeWrappers.cpp, RocmRuntimeWrappers.cpp)


@dataclass
class _SharedStreamLoop(RewritePattern):
    """Puts the loops the analysis accepted on one stream."""

    accepted: set[scf.ForOp]
    keep_sync: bool

    @op_type_rewrite_pattern
    def match_and_rewrite(self, loop: scf.ForOp, rewriter: PatternRewriter) -> None:
        if loop not in self.accepted:
            return
        self.accepted.discard(loop)
        stream = WaitOp.build_async([])
        rewriter.insert(stream, InsertPoint.before(loop))
        token = stream.results[0]
        for launch in [op for op in loop.body.walk() if isinstance(op, LaunchFuncOp)]:
            rewriter.replace(launch, launch.on_stream(token), new_results=[])
        if self.keep_sync:
            # the gpu dialect has no "synchronize, keep the stream": gpu.wait [%t] would destroy it.  The token
            # is the stream pointer once gpu-to-llvm converts it, so a cast to !llvm.ptr and the runtime call
            # survive the lowering (form C of seed-notes §1.3: one more mgpuStreamSynchronize per iteration).
            pointer = UnrealizedConversionCastOp.get([token], [llvm_pointer_type()])
            rewriter.insert(pointer, InsertPoint.after(stream))
            terminator = loop.body.block.last_op
            assert terminator is not None  # an scf.for body ends in its scf.yield
            rewriter.insert(LLVMCallOp.to(SYNCHRONIZE, [pointer.results[0]], []), InsertPoint.before(terminator))
        rewriter.insert(WaitOp.build_sync([token]), InsertPoint.after(loop))


@dataclass(frozen=True)
class HoistLaunchStreamPass(ModulePass):
    """Create one GPU stream before a host loop of launches instead of one per gpu.launch_func."""

    name = "hoist-launch-stream"
    upstream_names: ClassVar[dict[str, str]] = {}

    keep_sync: bool = False
    """Keep a stream synchronize at the end of every iteration (for loops whose host code needs the results)."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        accepted: set[scf.ForOp] = set()
        for verdict in outermost_loops(op):
            if verdict.refusal is None:
                accepted.add(verdict.loop)
                emit_remark(verdict.loop, f"hoist-launch-stream: {len(verdict.launches)} launch(es) share one stream "
                                          "created before the loop")
            else:
                emit_remark(verdict.loop, f"hoist-launch-stream: loop left alone: {verdict.refusal}")
        if accepted and self.keep_sync:
            _declare_synchronize(op)
        PatternRewriteWalker(_SharedStreamLoop(accepted, self.keep_sync), apply_recursively=False).rewrite_module(op)


def _declare_synchronize(module: ModuleOp) -> None:
    """`llvm.func @mgpuStreamSynchronize(!llvm.ptr)` at the top of the module, once."""
    for existing in module.body.block.ops:
        name = existing.properties.get("sym_name") if isinstance(existing, LLVMFuncOp) else None
        if isinstance(name, StringAttr) and name.data == SYNCHRONIZE:
            return
    decl = LLVMFuncOp.declaration(SYNCHRONIZE, [llvm_pointer_type()], [])
    first = module.body.block.first_op
    if first is None:
        module.body.block.add_op(decl)
    else:
        module.body.block.insert_op_before(decl, first)
