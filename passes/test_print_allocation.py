"""Print the shared-memory allocation of every function: buffer offsets, sizes, totals (Triton's -test-print-allocation).

The report of Triton's `TestAllocationPass` (test/lib/Analysis/TestAllocation.cpp), computed by irkit's
allocation model (`irkit.analysis.shared_memory`) under the rules of the module's Triton version.  For each
`tt.func`, in walk order: its name; then for every op in post-order, `scratch offset = O, size = S` (or
`virtual ...` for a call) when the op owns a scratch buffer, and `offset = O, size = S` for each result that
is an explicit buffer (`local_alloc`); then `size = N`, the function's allocation size.  The IR is unchanged.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, StringAttr
from xdsl.ir import Operation
from xdsl.passes import ModulePass

from irkit.analysis.shared_memory import Buffer, analyze_shared_memory
from irkit.analysis.triton_versions import normalize_version
from irkit.analysis.walk import modules_with_functions, post_order
from irkit.diagnostics import PassFailure, emit_output, emit_remark
from irkit.dialects.tt import FuncOp


def allocation_lines(func: FuncOp, buffers: list[Buffer], size: int) -> list[tuple[Operation, str]]:
    """TestAllocationPass's lines for one function, each with the op it speaks of."""
    scratch = {id(b.op): b for b in buffers if b.kind != "explicit"}
    explicit: dict[int, list[Buffer]] = {}
    for buffer in buffers:
        if buffer.kind == "explicit":  # a partitioned_shared tensor has one buffer per partition
            explicit.setdefault(id(buffer.op), []).append(buffer)
    lines: list[tuple[Operation, str]] = [(func, func.sym_name.data)]
    for op in post_order(func):
        b = scratch.get(id(op))
        if b is not None:
            kind = "virtual" if b.kind == "virtual" else "scratch"
            lines.append((op, f"{kind} offset = {b.offset}, size = {b.bytes}"))
        for buffer in explicit.get(id(op), ()):  # a local_alloc: its result's buffers
            lines.append((op, f"offset = {buffer.offset}, size = {buffer.bytes}"))
    lines.append((func, f"size = {size}"))
    return lines


def _scratch_128(op: Operation) -> int:
    """TestAllocation's getScratchSize128."""
    return 128


SCRATCH_SIZE_FUNCTIONS = {"": None, "None": None, "ValidConstant": _scratch_128}


@dataclass(frozen=True)
class TestPrintAllocationPass(ModulePass):
    """Print the shared-memory allocation of every function: buffer offsets, sizes, totals (Triton's -test-print-allocation).

    Options:
      version:                   the Triton whose allocation rules apply (3.1, 3.3 or 3.9); default from
                                 --triton-version, the cache JSON, else the module's spelling.
      target:                    cuda:90, hip:gfx942, xpu when the module has no ttg.target.
      remarks:                   each line as a remark at its op (the function name and size at the function),
                                 as Triton's pass reports from 2025 on; irkit-opt turns it on under
                                 --verify-diagnostics unless given.
      get-scratch-size-function: unset or None (the model's sizes), or ValidConstant (128 bytes for every op,
                                 as Triton's test scratch-size function).
      partition-size:            bytes of one physical partition of shared memory (0: none); the buffers
                                 of the partitions of a partitioned_shared tensor never share one.
    """

    name = "test-print-allocation"

    # Triton version whose allocation rules apply: 3.1, 3.3 (3.2-3.3) or 3.9 (3.4 and newer); empty: from
    # the module's spelling (triton_gpu.* means 3.1, ttg.* 3.9).
    version: str = ""
    # target triple (cuda:90, hip:gfx942, xpu) when the module has no ttg.target; the 3.9 convert scratch
    # depends on it
    target: str = ""
    remarks: bool | None = None
    get_scratch_size_function: Literal["", "None", "ValidConstant"] = ""
    # bytes of one physical partition of shared memory (64 KiB on AMD gfx1250): the partitions of a
    # partitioned_shared tensor go to different ones; 0: no partitions
    partition_size: int = 0

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        try:
            version = normalize_version(self.version) if self.version else None
        except ValueError as e:
            raise PassFailure(op, f"test-print-allocation: {e}") from e
        scratch_size = SCRATCH_SIZE_FUNCTIONS[self.get_scratch_size_function]
        for module in modules_with_functions(op, FuncOp):
            report = analyze_shared_memory(module, version=version, target=self.target or None,
                                           scratch_size=scratch_size, partition_size=int(self.partition_size),
                                           warp_groups=False, as_compiled=False)  # the pass alone, as Triton's
            # test-allocation: no AllocateWarpGroups, no optimize-amd-lds-usage before it
            by_func: dict[str, list[Buffer]] = {}
            for b in report.buffers:
                by_func.setdefault(b.function, []).append(b)
            for func in module.ops:
                if not isinstance(func, FuncOp) or not isinstance(func.sym_name, StringAttr):
                    continue
                name = func.sym_name.data
                for at, line in allocation_lines(func, by_func.get(name, []), report.functions.get(name, 0)):
                    if self.remarks:
                        emit_remark(at, line)
                    else:
                        emit_output(line)
