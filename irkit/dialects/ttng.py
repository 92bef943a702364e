"""The `ttng` dialect (TritonNvidiaGPU; `triton_nvidia_gpu` in 3.1): Hopper and
Blackwell ops — wgmma, mbarriers, TMA."""

from __future__ import annotations

from xdsl.ir import Dialect
from xdsl.irdl import (
    AttrSizedOperandSegments,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.traits import Pure

from irkit.dialects.base import TritonOp, irkit_op
from irkit.dialects.tt import CACHE, EVICT, INPUT_PRECISION
from irkit.frontend.opformat import IntStyle

_DOT_FORMAT = (
    "$a`,` $b`,` $c (`,` $useC^)? attr-dict `:` type($a) `*` type($b) `->` type($d)"
)


@irkit_op
class WarpGroupDotOp(TritonOp):
    """wgmma: `tt.dot` on Hopper, operands usually in shared memory."""

    name = "ttng.warp_group_dot"
    a = operand_def()
    b = operand_def()
    c = operand_def()
    useC = opt_operand_def()
    d = result_def()
    inputPrecision = opt_prop_def()
    maxNumImpreciseAcc = opt_prop_def()
    isAsync = opt_prop_def()
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    FORMAT = _DOT_FORMAT


@irkit_op
class DotAsyncOp(TritonOp):
    """The 3.1 name of warp_group_dot."""

    name = "ttng.dot_async"
    a = operand_def()
    b = operand_def()
    c = operand_def()
    d = result_def()
    inputPrecision = opt_prop_def()
    maxNumImpreciseAcc = opt_prop_def()
    FORMAT = "$a`,` $b`,` $c attr-dict `:` type($a) `*` type($b) `->` type($d)"


def _same_as_inputs(types):
    types["outputs"] = list(types.get("inputs", []))


@irkit_op
class WarpGroupDotWaitOp(TritonOp):
    name = "ttng.warp_group_dot_wait"
    inputs = var_operand_def()
    outputs = var_result_def()
    pendings = prop_def()
    FORMAT = "$inputs attr-dict `:` type($inputs)"

    @classmethod
    def infer_types(cls, types):
        _same_as_inputs(types)


@irkit_op
class DotWaitOp(TritonOp):
    name = "ttng.dot_wait"
    inputs = var_operand_def()
    outputs = var_result_def()
    pendings = prop_def()
    FORMAT = "$inputs attr-dict `:` type($inputs)"

    @classmethod
    def infer_types(cls, types):
        _same_as_inputs(types)


@irkit_op
class FenceAsyncSharedOp(TritonOp):
    name = "ttng.fence_async_shared"
    bCluster = prop_def()
    FORMAT = "attr-dict"


@irkit_op
class InitBarrierOp(TritonOp):
    name = "ttng.init_barrier"
    alloc = operand_def()
    count = prop_def()
    FORMAT = "$alloc `,` $count attr-dict `:` qualified(type($alloc))"
    ATTR_STYLES = {"count": IntStyle(32)}


@irkit_op
class InvalBarrierOp(TritonOp):
    name = "ttng.inval_barrier"
    alloc = operand_def()
    FORMAT = "$alloc attr-dict `:` qualified(type($alloc))"


@irkit_op
class BarrierExpectOp(TritonOp):
    name = "ttng.barrier_expect"
    alloc = operand_def()
    pred = operand_def()
    size = prop_def()
    FORMAT = "$alloc `,` $size attr-dict `,` $pred `:` qualified(type($alloc))"
    ATTR_STYLES = {"size": IntStyle(32)}


@irkit_op
class WaitBarrierOp(TritonOp):
    name = "ttng.wait_barrier"
    alloc = operand_def()
    phase = operand_def()
    pred = opt_operand_def()
    deps = var_operand_def()
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    FORMAT = (
        "$alloc `,` $phase (`,` $pred^)? (`deps` $deps^)? attr-dict `:` "
        "qualified(type($alloc)) (`,` type($deps)^)?"
    )


@irkit_op
class ArriveBarrierOp(TritonOp):
    name = "ttng.arrive_barrier"
    alloc = operand_def()
    pred = opt_operand_def()
    count = prop_def()
    FORMAT = "$alloc `,` $count (`,` $pred^)? attr-dict `:` qualified(type($alloc))"
    ATTR_STYLES = {"count": IntStyle(32)}


@irkit_op
class AsyncTMACopyGlobalToLocalOp(TritonOp):
    name = "ttng.async_tma_copy_global_to_local"
    desc = operand_def()
    coord = var_operand_def()
    result = operand_def()
    barrier = operand_def()
    pred = operand_def()
    cache = opt_prop_def()
    evict = opt_prop_def()
    isVolatile = opt_prop_def()
    multicast = opt_prop_def()
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    FORMAT = (
        "$desc `[` $coord `]` $result `,` $barrier `,` $pred oilist(`cacheModifier` `=` $cache | "
        "`evictionPolicy` `=` $evict) attr-dict `:` qualified(type($desc)) `,` "
        "qualified(type($barrier)) `->` qualified(type($result))"
    )
    ATTR_STYLES = {"cache": CACHE, "evict": EVICT}


@irkit_op
class AsyncTMACopyLocalToGlobalOp(TritonOp):
    name = "ttng.async_tma_copy_local_to_global"
    desc = operand_def()
    coord = var_operand_def()
    src = operand_def()
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    FORMAT = "$desc `[` $coord `]` $src attr-dict `:` qualified(type($desc)) `,` qualified(type($src))"


@irkit_op
class AsyncTMAStoreWaitOp(TritonOp):
    name = "ttng.async_tma_store_wait"
    pendings = prop_def()
    FORMAT = "attr-dict"


@irkit_op
class TensormapCreateOp(TritonOp):
    name = "ttng.tensormap_create"
    desc_ptr = operand_def()
    global_address = operand_def()
    box_dim = var_operand_def()
    global_dim = var_operand_def()
    global_stride = var_operand_def()
    element_stride = var_operand_def()
    elem_type = prop_def()
    interleave_layout = prop_def()
    swizzle_mode = prop_def()
    fill_mode = prop_def()
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    FORMAT = (
        "$desc_ptr `,` $global_address `,` `[` $box_dim `]` `,` `[` $global_dim `]` `,` "
        "`[` $global_stride `]` `,` `[` $element_stride `]` attr-dict `:` functional-type(operands, results)"
    )


@irkit_op
class TensormapFenceproxyAcquireOp(TritonOp):
    name = "ttng.tensormap_fenceproxy_acquire"
    desc_ptr = operand_def()
    FORMAT = "$desc_ptr attr-dict `:` qualified(type($desc_ptr))"


@irkit_op
class ReinterpretTensorDescOp(TritonOp):
    name = "ttng.reinterpret_tensor_descriptor"
    rawDesc = operand_def()
    result = result_def()
    traits = traits_def(Pure())
    FORMAT = "$rawDesc attr-dict `:` qualified(type($rawDesc)) `to` qualified(type($result))"


@irkit_op
class ClusterArriveOp(TritonOp):
    name = "ttng.cluster_arrive"
    relaxed = prop_def()
    FORMAT = "attr-dict"


@irkit_op
class ClusterWaitOp(TritonOp):
    name = "ttng.cluster_wait"
    FORMAT = "attr-dict"


TTNG_OPS = [
    WarpGroupDotOp, DotAsyncOp, WarpGroupDotWaitOp, DotWaitOp, FenceAsyncSharedOp,
    InitBarrierOp, InvalBarrierOp, BarrierExpectOp, WaitBarrierOp, ArriveBarrierOp,
    AsyncTMACopyGlobalToLocalOp, AsyncTMACopyLocalToGlobalOp, AsyncTMAStoreWaitOp,
    TensormapCreateOp, TensormapFenceproxyAcquireOp, ReinterpretTensorDescOp, ClusterArriveOp,
    ClusterWaitOp,
]

TritonNvidiaGPU = Dialect("ttng", TTNG_OPS, [])

__all__ = ["TritonNvidiaGPU", "TTNG_OPS", "INPUT_PRECISION"]
