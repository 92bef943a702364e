"""NVIDIA's NVGPU dialect (`nvg.*`, third_party/nvidia/include/Dialect/NVGPU/IR/NVGPUOps.td): the one op of it
that upstream's TTGIR-level tests hold outside the conversion tests (the rest appear only while lowering)."""

from __future__ import annotations

from xdsl.ir import Dialect
from xdsl.irdl import operand_def, opt_operand_def, prop_def, result_def

from irkit.dialects.base import TritonOp, irkit_op
from irkit.dialects.tt import MEM_SCOPE, MEM_SEMANTIC  # NVGPU's MemSemantic / MemSyncScope: the same cases


@irkit_op
class LoadAcquireOp(TritonOp):
    """A load from global memory with acquire (or other) semantics at a scope (it reads and writes)."""

    name = "nvg.ld_acquire"
    addr = operand_def()
    mask = opt_operand_def()
    result = result_def()
    sem = prop_def()
    scope = prop_def()
    FORMAT = "$sem `,` $scope `,` $addr (`,` $mask^)? attr-dict `:` functional-type($addr, $result)"
    ATTR_STYLES = {"sem": MEM_SEMANTIC, "scope": MEM_SCOPE}


NVG_OPS = [LoadAcquireOp]
NVG = Dialect("nvg", NVG_OPS, [])
