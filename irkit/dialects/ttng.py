"""The `ttng` dialect (TritonNvidiaGPU; `triton_nvidia_gpu` in 3.1): Hopper and
Blackwell ops — wgmma, mbarriers, TMA."""

from __future__ import annotations

from typing import ClassVar

from xdsl.ir import Dialect
from xdsl.irdl import (
    AttrSizedOperandSegments,
    AttrSizedResultSegments,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    opt_result_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.traits import Pure

from irkit.dialects.base import TritonOp, irkit_op
from irkit.dialects.tt import CACHE, DESCRIPTOR_REDUCE_KIND, EVICT, INPUT_PRECISION, PROGRAM_AXIS, SCALE_DOT_ELEM
from irkit.frontend.opformat import EnumStyle, IntStyle

_DOT_FORMAT = (
    "$a`,` $b`,` $c (`,` $useC^)? attr-dict `:` type($a) `*` qualified(type($b)) `->` type($d)"
)
# Triton 3.1 printed the memdesc and pointer operands of these ops unqualified (`: <1xi64, #shared, mutable>`)
_MEMDESC = "ttg.memdesc"


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
    FORMAT_LEGACY = "$alloc `,` $count attr-dict `:` type($alloc)"
    ATTR_STYLES = {"count": IntStyle(32)}
    STRIPPED = {"alloc": _MEMDESC}


@irkit_op
class InvalBarrierOp(TritonOp):
    name = "ttng.inval_barrier"
    alloc = operand_def()
    FORMAT = "$alloc attr-dict `:` qualified(type($alloc))"
    FORMAT_LEGACY = "$alloc attr-dict `:` type($alloc)"
    STRIPPED = {"alloc": _MEMDESC}


@irkit_op
class BarrierExpectOp(TritonOp):
    name = "ttng.barrier_expect"
    alloc = operand_def()
    pred = operand_def()
    size = prop_def()
    FORMAT = "$alloc `,` $size attr-dict `,` $pred `:` qualified(type($alloc))"
    FORMAT_LEGACY = "$alloc `,` $size attr-dict `,` $pred `:` type($alloc)"
    ATTR_STYLES = {"size": IntStyle(32)}
    STRIPPED = {"alloc": _MEMDESC}


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
    FORMAT_LEGACY = "$alloc `,` $phase attr-dict `:` type($alloc)"
    STRIPPED = {"alloc": _MEMDESC}
    LEGACY_NO_SEGMENTS: ClassVar[bool] = True  # 3.1: only alloc and phase, no operandSegmentSizes


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
    offsets = var_operand_def()  # 3.9: im2col offsets (i16)
    barrier = operand_def()
    result = operand_def()
    pred = operand_def()
    cache = opt_prop_def()
    evict = opt_prop_def()
    isVolatile = opt_prop_def()
    multicast = opt_prop_def()
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    FORMAT = (
        "$desc `[` $coord `]` (`offsets` `=` `[` $offsets^ `]`)? $result `,` $barrier `,` $pred "
        "oilist(`cacheModifier` `=` $cache | `evictionPolicy` `=` $evict) attr-dict `:` qualified(type($desc)) `,` "
        "qualified(type($barrier)) `->` qualified(type($result))"
    )
    FORMAT_LEGACY = (
        "$desc `[` $coord `]` $result `,` $barrier `,` $pred oilist(`cacheModifier` `=` $cache | "
        "`evictionPolicy` `=` $evict) attr-dict `:` type($desc) `,` type($barrier) `->` type($result)"
    )
    ATTR_STYLES = {"cache": CACHE, "evict": EVICT}
    STRIPPED = {"desc": "tt.ptr", "barrier": _MEMDESC, "result": _MEMDESC}


@irkit_op
class AsyncTMACopyLocalToGlobalOp(TritonOp):
    name = "ttng.async_tma_copy_local_to_global"
    desc = operand_def()
    coord = var_operand_def()
    src = operand_def()
    FORMAT = "$desc `[` $coord `]` $src attr-dict `:` qualified(type($desc)) `,` qualified(type($src))"
    FORMAT_LEGACY = "$desc `[` $coord `]` $src attr-dict `:` type($desc) `,` type($src)"
    STRIPPED = {"desc": "tt.ptr", "src": _MEMDESC}


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


@irkit_op
class TensorDescToTMAPtrOp(TritonOp):
    """Triton 3.3: the TMA descriptor pointer behind a tensor descriptor."""

    name = "ttng.tensor_desc_to_tma_ptr"
    desc = operand_def()
    ptr = result_def()
    traits = traits_def(Pure())
    FORMAT = "$desc attr-dict `:` qualified(type($desc)) `to` qualified(type($ptr))"


@irkit_op
class FenceMBarrierInitReleaseClusterOp(TritonOp):
    name = "ttng.fence_mbarrier_init_release_cluster"
    FORMAT = "attr-dict"


@irkit_op
class ClusterBarrierOp(TritonOp):
    name = "ttng.cluster_barrier"
    relaxed = opt_prop_def()
    FORMAT = "attr-dict"


@irkit_op
class AsyncCopyMBarrierArriveOp(TritonOp):
    name = "ttng.async_copy_mbarrier_arrive"
    barrier = operand_def()
    noIncrement = opt_prop_def()
    FORMAT = "$barrier attr-dict `:` qualified(type($barrier))"


@irkit_op
class AsyncSharedStoreOp(TritonOp):
    name = "ttng.async_shared_store"
    src = operand_def()
    dst = operand_def()
    mbarrier = operand_def()
    FORMAT = "$src `,` $dst `,` $mbarrier attr-dict `:` type($src) `->` qualified(type($dst)) `,` qualified(type($mbarrier))"


@irkit_op
class AsyncTMAReduceOp(TritonOp):
    name = "ttng.async_tma_reduce"
    desc = operand_def()
    coord = var_operand_def()
    src = operand_def()
    kind = prop_def()
    FORMAT = "$kind `,` $desc `[` $coord `]` $src attr-dict `:` qualified(type($desc)) `,` qualified(type($src))"
    ATTR_STYLES = {"kind": DESCRIPTOR_REDUCE_KIND}


@irkit_op
class AsyncTMAGatherOp(TritonOp):
    name = "ttng.async_tma_gather"
    desc = operand_def()
    x_offsets = operand_def()
    y_offset = operand_def()
    barrier = operand_def()
    result = operand_def()
    pred = operand_def()
    multicast = opt_prop_def()
    FORMAT = "$desc `[` $x_offsets `,` $y_offset `]` $result `,` $barrier `,` $pred attr-dict `:` type(operands)"


@irkit_op
class AsyncTMAScatterOp(TritonOp):
    name = "ttng.async_tma_scatter"
    desc = operand_def()
    x_offsets = operand_def()
    y_offset = operand_def()
    src = operand_def()
    FORMAT = "$desc `[` $x_offsets `,` $y_offset `]` $src attr-dict `:` type(operands)"


# -- cluster launch control (Blackwell) ------------------------------------------------------------


@irkit_op
class CLCTryCancelOp(TritonOp):
    name = "ttng.clc_try_cancel"
    result = operand_def()
    mbarrier = operand_def()
    FORMAT = "$result `,` $mbarrier attr-dict `:` qualified(type($result)) `,` qualified(type($mbarrier))"


@irkit_op
class CLCTryCancelSyncOp(TritonOp):
    name = "ttng.clc_try_cancel_sync"
    response = result_def()
    FORMAT = "attr-dict `:` type($response)"


@irkit_op
class CLCLoadResultOp(TritonOp):
    name = "ttng.clc_load_result"
    src = operand_def()
    clcResult = result_def()
    FORMAT = "$src attr-dict `:` qualified(type($src)) `->` type($clcResult)"


@irkit_op
class CLCIsCanceledOp(TritonOp):
    name = "ttng.clc_is_canceled"
    clcResult = operand_def()
    is_canceled = result_def()
    traits = traits_def(Pure())
    FORMAT = "$clcResult attr-dict `:` type($clcResult) `->` type($is_canceled)"


@irkit_op
class CLCGetProgramIdOp(TritonOp):
    name = "ttng.clc_get_program_id"
    clcResult = operand_def()
    result = result_def()
    dim = prop_def()
    traits = traits_def(Pure())
    FORMAT = "$clcResult `,` $dim attr-dict `:` type($clcResult) `->` type($result)"
    ATTR_STYLES = {"dim": PROGRAM_AXIS}


# -- tensor memory and tcgen05 MMA (Blackwell) -------------------------------------------------------------
# `custom<Token>($dep, type($token))` and `custom<BarriersAndPreds>` make tmem_load/tmem_store/tc_gen5_mma*
# hand-written (irkit.frontend.custom_syntax).

TMEM_WAIT_KIND = EnumStyle(("load", "store"))
PACKED_ARITH_KIND = EnumStyle(("add", "sub", "mul", "fma", "min", "max"))


@irkit_op
class TMEMAllocOp(TritonOp):
    name = "ttng.tmem_alloc"
    src = opt_operand_def()
    result = result_def()
    token = opt_result_def()
    FORMAT = "($src^)? attr-dict `:` functional-type(operands, results)"


@irkit_op
class TMEMLoadOp(TritonOp):
    name = "ttng.tmem_load"
    src = operand_def()
    dep = opt_operand_def()
    result = result_def()
    token = opt_result_def()
    red = opt_result_def()
    redOp = opt_prop_def()
    abs = opt_prop_def()
    NaN = opt_prop_def()
    irdl_options = (AttrSizedResultSegments(as_property=True),)
    # 3.4-3.6 define only the result and the optional token: no resultSegmentSizes in their generic form
    SEGMENTS_SINCE: ClassVar[tuple[int, int, int]] = (3, 7, 0)


@irkit_op
class TMEMStoreOp(TritonOp):
    name = "ttng.tmem_store"
    dst = operand_def()
    dep = opt_operand_def()
    src = operand_def()
    pred = operand_def()
    token = opt_result_def()


@irkit_op
class TMEMSubSliceOp(TritonOp):
    name = "ttng.tmem_subslice"
    src = operand_def()
    result = result_def()
    offset = opt_prop_def()  # present from 3.9 on
    dim = opt_prop_def()
    N = opt_prop_def()  # up to 3.8: the column the slice starts at
    traits = traits_def(Pure())
    FORMAT = "$src attr-dict `:` qualified(type($src)) `->` qualified(type($result))"


@irkit_op
class TMEMCopyOp(TritonOp):
    name = "ttng.tmem_copy"
    src = operand_def()
    dst = operand_def()
    barrier = opt_operand_def()  # 3.3 only
    FORMAT = "$src `,` $dst attr-dict `:` qualified(type(operands))"
    # Triton 3.3 (read when the format above fails, and printed back so): `ttng.tmem_copy %0, %1,  : (...) -> ()`
    FORMAT_LEGACY = "$src `,` $dst `,` $barrier attr-dict `:` functional-type(operands, results)"


@irkit_op
class TMEMWaitOp(TritonOp):
    name = "ttng.tmem_wait"
    kind = prop_def()
    FORMAT = "$kind attr-dict"
    ATTR_STYLES = {"kind": TMEM_WAIT_KIND}


@irkit_op
class TCGen5MMAOp(TritonOp):
    name = "ttng.tc_gen5_mma"
    a = operand_def()
    b = operand_def()
    d = operand_def()
    acc_dep = opt_operand_def()
    useD = operand_def()
    pred = operand_def()
    barriers = var_operand_def()
    barrier_preds = var_operand_def()
    token = opt_result_def()
    is_async = opt_prop_def()
    two_ctas = opt_prop_def()
    multicast = opt_prop_def()
    is_unsigned = opt_prop_def()
    irdl_options = (AttrSizedOperandSegments(as_property=True),)


@irkit_op
class TCGen5MMAScaledOp(TritonOp):
    name = "ttng.tc_gen5_mma_scaled"
    a = operand_def()
    b = operand_def()
    d = operand_def()
    acc_dep = opt_operand_def()
    a_scale = operand_def()
    b_scale = operand_def()
    useD = operand_def()
    pred = operand_def()
    barriers = var_operand_def()
    barrier_preds = var_operand_def()
    token = opt_result_def()
    a_type = prop_def()
    b_type = prop_def()
    two_ctas = opt_prop_def()
    multicast = opt_prop_def()
    is_async = opt_prop_def()
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    ATTR_STYLES = {"a_type": SCALE_DOT_ELEM, "b_type": SCALE_DOT_ELEM}


@irkit_op
class TCGen5CommitOp(TritonOp):
    name = "ttng.tc_gen5_commit"
    barrier = operand_def()
    pred = opt_operand_def()
    descs = var_operand_def()
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    FORMAT = (
        "$barrier (`,` $pred^)? (`descs` $descs^)? attr-dict `:` qualified(type($barrier)) "
        "(`,` qualified(type($descs))^)?"
    )


@irkit_op
class PackedArithOp(TritonOp):
    name = "ttng.packed_arith"
    operands_ = var_operand_def()
    result = result_def()
    op_kind = prop_def()
    traits = traits_def(Pure())
    FORMAT = "$op_kind operands attr-dict `:` functional-type(operands, $result)"
    ATTR_STYLES = {"op_kind": PACKED_ARITH_KIND}


TTNG_OPS = [
    WarpGroupDotOp, DotAsyncOp, WarpGroupDotWaitOp, DotWaitOp, FenceAsyncSharedOp,
    InitBarrierOp, InvalBarrierOp, BarrierExpectOp, WaitBarrierOp, ArriveBarrierOp,
    AsyncTMACopyGlobalToLocalOp, AsyncTMACopyLocalToGlobalOp, AsyncTMAStoreWaitOp,
    TensormapCreateOp, TensormapFenceproxyAcquireOp, ReinterpretTensorDescOp, ClusterArriveOp,
    ClusterWaitOp, TensorDescToTMAPtrOp, FenceMBarrierInitReleaseClusterOp, ClusterBarrierOp,
    AsyncCopyMBarrierArriveOp, AsyncSharedStoreOp, AsyncTMAReduceOp, AsyncTMAGatherOp, AsyncTMAScatterOp,
    CLCTryCancelOp, CLCTryCancelSyncOp, CLCLoadResultOp, CLCIsCanceledOp, CLCGetProgramIdOp, TMEMAllocOp,
    TMEMLoadOp, TMEMStoreOp, TMEMSubSliceOp, TMEMCopyOp, TMEMWaitOp, TCGen5MMAOp, TCGen5MMAScaledOp,
    TCGen5CommitOp, PackedArithOp,
]

TritonNvidiaGPU = Dialect("ttng", TTNG_OPS, [])

__all__ = ["TritonNvidiaGPU", "TTNG_OPS", "INPUT_PRECISION"]
