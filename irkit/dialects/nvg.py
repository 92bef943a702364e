"""NVIDIA's NVGPU dialect (`nvg.*`, third_party/nvidia/include/Dialect/NVGPU/IR/NVGPUOps.td): wgmma, cluster and
warp-group ids, acquire loads and the tensor-memory base.  They appear in IR between TritonGPU and LLVM (and in
Triton's canonicalize tests, where `nvg.ld_acquire` in an llvm.func must survive); irkit reads and prints them and
reasons about none."""

from __future__ import annotations

from xdsl.ir import Dialect
from xdsl.irdl import operand_def, opt_operand_def, prop_def, result_def, traits_def
from xdsl.traits import Pure

from irkit.dialects.base import TritonOp, irkit_op
from irkit.dialects.tt import MEM_SCOPE, MEM_SEMANTIC  # NVGPU's MemSemantic / MemSyncScope: the same cases


@irkit_op
class WGMMAWaitGroupOp(TritonOp):
    name = "nvg.wgmma_wait_group"
    input = operand_def()
    output = result_def()
    pendings = prop_def()
    FORMAT = "$input attr-dict `:` type($input)"

    @classmethod
    def infer_types(cls, types):
        types["output"] = list(types["input"])


@irkit_op
class WGMMAOp(TritonOp):
    name = "nvg.wgmma"
    opA = operand_def()
    opB = operand_def()
    useC = operand_def()
    opC = opt_operand_def()
    res = result_def()
    m = prop_def()
    n = prop_def()
    k = prop_def()
    eltTypeC = prop_def()
    eltTypeA = prop_def()
    eltTypeB = prop_def()
    layoutA = prop_def()
    layoutB = prop_def()
    FORMAT = "$opA `,` $opB `,` $useC (`,` $opC^)? attr-dict `:` functional-type(operands, $res)"


@irkit_op
class ClusterCTAIdOp(TritonOp):
    name = "nvg.cluster_id"
    result = result_def()
    traits = traits_def(Pure())
    FORMAT = "attr-dict"

    @classmethod
    def infer_types(cls, types):
        types["result"] = [_i32()]


@irkit_op
class WarpGroupBarrierIdOp(TritonOp):
    name = "nvg.warp_group_barrier_id"
    result = result_def()
    FORMAT = "attr-dict"

    @classmethod
    def infer_types(cls, types):
        types["result"] = [_i32()]


@irkit_op
class LoadAcquireOp(TritonOp):
    """A load from global memory with acquire (or other) semantics at a scope (it reads and writes):
    `nvg.ld_acquire acquire, gpu, %p : (!llvm.ptr<1>) -> i32`."""

    name = "nvg.ld_acquire"
    addr = operand_def()
    mask = opt_operand_def()
    result = result_def()
    sem = prop_def()
    scope = prop_def()
    FORMAT = "$sem `,` $scope `,` $addr (`,` $mask^)? attr-dict `:` functional-type($addr, $result)"
    ATTR_STYLES = {"sem": MEM_SEMANTIC, "scope": MEM_SCOPE}


@irkit_op
class TensorMemoryBaseAddressOp(TritonOp):
    name = "nvg.tensor_memory_base"
    result = result_def()
    traits = traits_def(Pure())
    FORMAT = "attr-dict"

    @classmethod
    def infer_types(cls, types):
        from xdsl.dialects.builtin import StringAttr

        from irkit.dialects.types import OpaqueType

        types["result"] = [OpaqueType(StringAttr("llvm.ptr"), StringAttr("<6>"))]  # tensor memory


def _i32():
    from irkit.frontend.attributes import integer_type

    return integer_type(32)


NVG_OPS = [WGMMAWaitGroupOp, WGMMAOp, ClusterCTAIdOp, WarpGroupBarrierIdOp, LoadAcquireOp, TensorMemoryBaseAddressOp]
NVG = Dialect("nvg", NVG_OPS, [])
