"""Every op irkit knows, by canonical (current-spelling) name.

Ops of MLIR's own dialects that xDSL already defines correctly (scf, cf, ub,
llvm.mlir.undef, builtin.module) are reused; their textual formats, which irkit
parses and prints itself, are given here in MLIR's assemblyFormat notation.
"""

from __future__ import annotations

from xdsl.dialects import cf, gpu, scf
from xdsl.dialects.builtin import ModuleOp, UnrealizedConversionCastOp
from xdsl.ir import Operation

from irkit.dialects.arith import ARITH_OPS, MATH_OPS, MISC_OPS
from irkit.dialects.gpu_host import GPU_HOST_OPS
from irkit.dialects.gpu_vendors import AMDG_OPS, TTIG_OPS
from irkit.dialects.llvm_host import LLVM_HOST_OPS
from irkit.dialects.llvm_rocdl import LLVM_OPS, ROCDL_OPS
from irkit.dialects.nvg import NVG_OPS
from irkit.dialects.nvws import NVWS_OPS
from irkit.dialects.tt import TT_OPS
from irkit.dialects.ttg import TTG_OPS
from irkit.dialects.tti import TTI_OPS
from irkit.dialects.ttng import TTNG_OPS

_REUSED: list[type[Operation]] = [
    ModuleOp,
    scf.ForOp,
    scf.IfOp,
    scf.YieldOp,
    scf.WhileOp,
    scf.ConditionOp,
    scf.ExecuteRegionOp,
    cf.BranchOp,
    cf.ConditionalBranchOp,
    cf.AssertOp,
    gpu.BarrierOp,
    UnrealizedConversionCastOp,
]

OPS: dict[str, type[Operation]] = {
    cls.name: cls
    for cls in [*TT_OPS, *TTG_OPS, *TTNG_OPS, *AMDG_OPS, *TTIG_OPS, *ARITH_OPS, *MATH_OPS, *MISC_OPS, *LLVM_OPS,
                *ROCDL_OPS, *NVWS_OPS, *TTI_OPS, *GPU_HOST_OPS, *LLVM_HOST_OPS, *NVG_OPS, *_REUSED]
}

