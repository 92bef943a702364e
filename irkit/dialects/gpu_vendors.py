"""Vendor dialects: `amdg` (TritonAMDGPU; `amdgpu` in 3.1) and `ttig`
(TritonIntelGPU; `triton_intel_gpu` before 2025)."""

from __future__ import annotations

from xdsl.ir import Dialect
from xdsl.irdl import (
    AttrSizedOperandSegments,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    opt_result_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.traits import Pure

from irkit.dialects import ttg
from irkit.dialects.base import TritonOp, irkit_op
from irkit.dialects.tt import (
    CACHE,
    EVICT,
    MEM_SCOPE,
    MEM_SEMANTIC,
    RMW_OP,
    SCALE_DOT_ELEM,
    DescriptorGatherOp,
    DescriptorScatterOp,
)
from irkit.frontend.opformat import DenseArrayStyle, EnumStyle, IntStyle, UnitStyle

# -- AMD -----------------------------------------------------------------------------------


@irkit_op
class InThreadTransposeOp(TritonOp):
    name = "amdg.in_thread_transpose"
    src = operand_def()
    result = result_def()
    traits = traits_def(Pure())
    FORMAT = "$src attr-dict `:` type($src) `->` type($result)"


@irkit_op
class BufferLoadOp(TritonOp):
    name = "amdg.buffer_load"
    ptr = operand_def()
    offsets = operand_def()
    stride = opt_operand_def()
    mask = opt_operand_def()
    other = opt_operand_def()
    result = result_def()
    cache = opt_prop_def()
    contiguity = opt_prop_def()
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    # 3.4+ (amdg.*): the pointer type is written and the cache policy is an attribute in the dictionary
    FORMAT = (
        "$ptr `[` $offsets `]` (`,` $mask^)? (`,` $other^)? (`stride` `=` $stride^)? attr-dict `:` "
        "type($ptr) `->` type($result)"
    )
    # 3.1-3.3 (amdgpu.*; 3.1 has neither the cache modifier nor the stride)
    FORMAT_LEGACY = (
        "$ptr `[` $offsets `]` (`,` $mask^)? (`,` $other^)? oilist(`cacheModifier` `=` $cache) "
        "(`stride` `=` $stride^)? attr-dict `:` type($result)"
    )
    ATTR_STYLES = {"cache": CACHE}


@irkit_op
class BufferStoreOp(TritonOp):
    name = "amdg.buffer_store"
    value = operand_def()
    ptr = operand_def()
    offsets = operand_def()
    stride = opt_operand_def()
    mask = opt_operand_def()
    cache = opt_prop_def()
    contiguity = opt_prop_def()
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    FORMAT = (
        "$value `,` $ptr `[` $offsets `]` (`,` $mask^)? (`stride` `=` $stride^)? attr-dict `:` "
        "type($ptr) `->` type($value)"
    )
    FORMAT_LEGACY = (
        "$value `,` $ptr `[` $offsets `]` (`,` $mask^)? oilist(`cacheModifier` `=` $cache) "
        "(`stride` `=` $stride^)? attr-dict `:` type($value)"
    )
    ATTR_STYLES = {"cache": CACHE}


@irkit_op
class BufferAtomicRMWOp(TritonOp):
    name = "amdg.buffer_atomic_rmw"
    ptr = operand_def()
    offsets = operand_def()
    value = operand_def()
    stride = opt_operand_def()
    mask = opt_operand_def()
    result = result_def()
    atomic_rmw_op = prop_def()
    sem = prop_def()
    scope = prop_def()
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    FORMAT = (
        "$atomic_rmw_op `,` $sem `,` $scope `,` $value `,` $ptr `[` $offsets `]` (`,` $mask^)? "
        "(`stride` `=` $stride^)? attr-dict `:` type($ptr) `->` type($result)"
    )
    FORMAT_LEGACY = (
        "$atomic_rmw_op `,` $sem `,` $scope `,` $value `,` $ptr `[` $offsets `]` (`,` $mask^)? "
        "(`stride` `=` $stride^)? attr-dict `:` type($result)"
    )
    ATTR_STYLES = {"atomic_rmw_op": RMW_OP, "sem": MEM_SEMANTIC, "scope": MEM_SCOPE}


@irkit_op
class BufferAtomicCASOp(TritonOp):
    name = "amdg.buffer_atomic_cas"
    ptr = operand_def()
    offsets = operand_def()
    cmp = operand_def()
    val = operand_def()
    stride = opt_operand_def()
    result = result_def()
    sem = prop_def()
    scope = prop_def()
    FORMAT = (
        "$sem `,` $scope `,` $cmp `,` $val `,` $ptr `[` $offsets `]` (`stride` `=` $stride^)? attr-dict `:` "
        "type($ptr) `->` type($result)"
    )
    FORMAT_LEGACY = (
        "$sem `,` $scope `,` $cmp `,` $val `,` $ptr `[` $offsets `]` (`stride` `=` $stride^)? attr-dict `:` "
        "type($result)"
    )
    ATTR_STYLES = {"sem": MEM_SEMANTIC, "scope": MEM_SCOPE}


@irkit_op
class BufferLoadToLocalOp(TritonOp):
    name = "amdg.buffer_load_to_local"
    dest = operand_def()
    ptr = operand_def()
    offsets = operand_def()
    mask = opt_operand_def()
    other = opt_operand_def()
    stride = opt_operand_def()
    token = result_def()
    cache = opt_prop_def()
    contiguity = opt_prop_def()
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    FORMAT = (
        "$ptr `[` $offsets `]` (`mask` `=` $mask^)? (`other` `=` $other^)? (`stride` `=` $stride^)? "
        "oilist(`cacheModifier` `=` $cache) `into` $dest attr-dict `:` "
        "type($ptr) `[` type($offsets) `]` type($other) `->` type($dest)"
    )
    ATTR_STYLES = {"cache": CACHE}
    STRIPPED = {"dest": "ttg.memdesc"}
    READ_STRIPPED = {"ptr": "tt.ptr"}  # Triton main's tests write `<f32>[...]`; 3.9 prints `!tt.ptr<f32>[...]`

    @classmethod
    def infer_types(cls, types):
        from irkit.dialects.types import AsyncTokenType

        types["token"] = [AsyncTokenType()]


@irkit_op
class InstructionSchedHintOp(TritonOp):
    name = "amdg.instruction_sched_hint"
    variant = opt_prop_def()
    FORMAT = "attr-dict"


@irkit_op
class SchedBarrierOp(TritonOp):
    name = "amdg.sched_barrier"
    FORMAT = "attr-dict"


@irkit_op
class CondBarrierOp(TritonOp):
    name = "amdg.cond_barrier"
    pred = operand_def()
    FORMAT = "$pred attr-dict"


@irkit_op
class ExtractSliceOp(TritonOp):
    name = "amdg.extract_slice"
    source = operand_def()
    result = result_def()
    static_offsets = prop_def()
    traits = traits_def(Pure())
    FORMAT = "$source $static_offsets attr-dict `:` type($source) `to` type($result)"
    ATTR_STYLES = {"static_offsets": DenseArrayStyle(64)}  # a DenseI64ArrayAttr: `[0, 32]`


@irkit_op
class ConcatOp(TritonOp):
    name = "amdg.concat"
    sources = var_operand_def()
    result = result_def()
    traits = traits_def(Pure())
    FORMAT = "$sources attr-dict `:` type($sources) `->` type($result)"


@irkit_op
class ScaledUpcastFp4Op(TritonOp):
    """fp4 (e2m1, two per i8) upcast times an e8m0 scale (CDNA4 v_cvt_scalef32)."""

    name = "amdg.scaled_upcast_fp4"
    input = operand_def()
    scale = operand_def()
    output = result_def()
    axis = prop_def()
    traits = traits_def(Pure())
    FORMAT = "$input `scale` $scale attr-dict `:` type($input) `,` type($scale) `->` type($output)"


@irkit_op
class ScaledUpcastFp8Op(TritonOp):
    """fp8 (e4m3/e5m2) upcast times an e8m0 scale."""

    name = "amdg.scaled_upcast_fp8"
    input = operand_def()
    scale = operand_def()
    output = result_def()
    traits = traits_def(Pure())
    FORMAT = "$input `scale` $scale attr-dict `:` type($input) `,` type($scale) `->` type($output)"


class _UpcastMXFP(TritonOp):
    """A microscaled operand upcast to bf16/f16 times its e8m0 scales (`tt.dot_scaled` without scaled
    instructions): the vendors' copies of `ttg.upcast_mxfp`, with its syntax and a `fastMath` flag."""

    src = operand_def()
    scale = operand_def()
    result = result_def()
    fp_type = prop_def()
    fastMath = opt_prop_def()
    traits = traits_def(Pure())


_UPCAST_MXFP_FORMAT = ttg.UpcastMXFPOp.FORMAT  # the vendors write ttg.upcast_mxfp's syntax


@irkit_op
class UpcastMXFPOp(_UpcastMXFP):
    """Triton 3.5's (`amdgpu.upcast_mxfp`); 3.6 on writes `amdg.scaled_upcast_fp4` / `_fp8` instead."""

    name = "amdg.upcast_mxfp"
    FORMAT = _UPCAST_MXFP_FORMAT
    ATTR_STYLES = {"fp_type": SCALE_DOT_ELEM}


# -- gfx1250 tensor data mover (Triton 3.9) ----------------------------------------------------------------


@irkit_op
class UpdateTensorDescriptorOp(TritonOp):
    """A tensor descriptor moved by offsets and/or given a predicate (the TDM copies take no coordinates)."""

    name = "amdg.update_tensor_descriptor"
    desc = operand_def()
    add_offsets = var_operand_def()
    set_bounds = var_operand_def()  # empty or one per dimension
    pred = opt_operand_def()
    result = result_def()
    clamp_bounds = opt_prop_def()
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(Pure())
    # operand order checked against Triton 3.9's parser (operandSegmentSizes: desc, add_offsets, set_bounds, pred)
    FORMAT = (
        "$desc (`add_offsets` `=` `[` $add_offsets^ `]`)? (`set_bounds` `=` `[` $set_bounds^ `]`)? "
        "(`pred` `=` $pred^)? attr-dict `:` qualified(type($desc))"
    )

    @classmethod
    def infer_types(cls, types):
        types["result"] = list(types["desc"])


def _token(types, name):
    from irkit.dialects.types import AsyncTokenType

    types[name] = [AsyncTokenType()]


@irkit_op
class AsyncTDMCopyGlobalToLocalOp(TritonOp):
    name = "amdg.async_tdm_copy_global_to_local"
    desc = operand_def()
    result = operand_def()
    barrier = opt_operand_def()  # 3.9+: an mbarrier the copy arrives on
    token = result_def()
    cache = opt_prop_def()
    warp_used_hint = opt_prop_def()
    FORMAT = (
        "$desc `into` $result (`,` `barrier` `=` $barrier^)? attr-dict `:` qualified(type($desc)) "
        "(`,` qualified(type($barrier))^)? `->` qualified(type($result))"
    )

    @classmethod
    def infer_types(cls, types):
        _token(types, "token")


@irkit_op
class AsyncTDMCopyLocalToGlobalOp(TritonOp):
    name = "amdg.async_tdm_copy_local_to_global"
    desc = operand_def()
    src = operand_def()
    barrier = opt_operand_def()
    token = result_def()
    cache = opt_prop_def()
    FORMAT = (
        "$desc `from` $src (`,` `barrier` `=` $barrier^)? attr-dict `:` qualified(type($src)) "
        "(`,` qualified(type($barrier))^)? `->` qualified(type($desc))"
    )

    @classmethod
    def infer_types(cls, types):
        _token(types, "token")


@irkit_op
class AsyncTDMFusedCopyGlobalToLocalOp(TritonOp):
    name = "amdg.async_tdm_fused_copy_global_to_local"
    descs = var_operand_def()
    dests = var_operand_def()
    token = result_def()
    warp_used_hints = prop_def()
    cache = opt_prop_def()
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    FORMAT = "$descs `into` $dests attr-dict `:` qualified(type($descs)) `->` qualified(type($dests))"

    @classmethod
    def infer_types(cls, types):
        _token(types, "token")


@irkit_op
class AsyncTDMScatterOp(TritonOp):
    name = "amdg.async_tdm_scatter"
    desc = operand_def()
    dst_row_indices = operand_def()
    src = operand_def()
    barrier = opt_operand_def()
    retToken = result_def()
    # one optional operand: no operand segments (Triton declares none)
    FORMAT = (
        "$desc `[` $dst_row_indices `]` `from` $src (`,` `barrier` `=` $barrier^)? attr-dict `:` "
        "qualified(type($dst_row_indices)) `,` qualified(type($src)) (`,` qualified(type($barrier))^)? "
        "`->` qualified(type($desc))"
    )

    @classmethod
    def infer_types(cls, types):
        _token(types, "retToken")


@irkit_op
class AsyncTDMGatherOp(TritonOp):
    name = "amdg.async_tdm_gather"
    desc = operand_def()
    src_row_indices = operand_def()
    dst = operand_def()
    barrier = opt_operand_def()
    token = result_def()
    # one optional operand: no operand segments (Triton declares none)
    FORMAT = (
        "$desc `[` $src_row_indices `]` `to` $dst (`,` `barrier` `=` $barrier^)? attr-dict `:` "
        "qualified(type($src_row_indices)) `,` qualified(type($dst)) (`,` qualified(type($barrier))^)? "
        "`->` qualified(type($desc))"
    )

    @classmethod
    def infer_types(cls, types):
        _token(types, "token")


@irkit_op
class TDMPrefetchOp(TritonOp):
    name = "amdg.tdm_prefetch"
    desc = operand_def()
    indices = var_operand_def()
    pred = operand_def()
    maybeOffsets = opt_result_def()
    speculative = prop_def()
    returnOffsets = opt_prop_def()
    FORMAT = (
        "$desc `[` $indices `]` `,` $pred `,` `speculative` `=` $speculative (`returnOffsets` $returnOffsets^)? "
        "attr-dict `:` qualified(type($desc)) (`->` type($maybeOffsets)^)?"
    )


@irkit_op
class AsyncTDMWaitOp(TritonOp):
    name = "amdg.async_tdm_wait"
    asyncToken = var_operand_def()
    retToken = result_def()
    num = prop_def()
    FORMAT = "$asyncToken attr-dict"

    @classmethod
    def infer_types(cls, types):
        _token(types, "retToken")


# -- 3.8/3.9 gfx950/gfx1250: async copies to global, waits, barriers in LDS -----------------------------


@irkit_op
class AsyncTDMIntrinsicWaitOp(TritonOp):
    name = "amdg.async_tdm_intrinsic_wait"
    asyncToken = var_operand_def()
    retToken = result_def()
    count = prop_def()
    FORMAT = "($asyncToken^)? attr-dict"

    @classmethod
    def infer_types(cls, types):
        _token(types, "retToken")


@irkit_op
class AMDAsyncWaitOp(TritonOp):
    """Waits on the vmcnt of async copies (the count of instructions, not of commit groups)."""

    name = "amdg.async_wait"
    asyncToken = var_operand_def()
    retToken = result_def()
    num_inst = prop_def()
    FORMAT = "($asyncToken^)? attr-dict"

    @classmethod
    def infer_types(cls, types):
        _token(types, "retToken")


@irkit_op
class LocalLoadPackedTransposedOp(TritonOp):
    name = "amdg.local_load_packed_transposed"
    src = operand_def()
    token = opt_operand_def()
    result = result_def()
    FORMAT = "$src (`token` $token^)? attr-dict `:` qualified(type($src)) `->` type($result)"


@irkit_op
class LocalLoadPackedTranposedOp(TritonOp):
    """Triton 3.5-3.8's spelling (sic) of `amdg.local_load_packed_transposed`."""

    name = "amdg.local_load_packed_tranposed"
    src = operand_def()
    token = opt_operand_def()
    result = result_def()
    FORMAT = LocalLoadPackedTransposedOp.FORMAT


@irkit_op
class AsyncCopyLocalToGlobalOp(TritonOp):
    name = "amdg.async_copy_local_to_global"
    src = operand_def()
    dst = operand_def()
    mask = opt_operand_def()
    token = result_def()
    cache = opt_prop_def()
    evict = opt_prop_def()
    contiguity = opt_prop_def()
    FORMAT = (
        "$src `,` $dst (`mask` $mask^)? oilist(`cacheModifier` `=` $cache | `evictionPolicy` `=` $evict) "
        "attr-dict `:` qualified(type($src)) `->` type($dst)"
    )
    ATTR_STYLES = {"cache": CACHE, "evict": EVICT}

    @classmethod
    def infer_types(cls, types):
        _token(types, "token")


@irkit_op
class MemoryCounterWaitOp(TritonOp):
    name = "amdg.memory_counter_wait"
    load = opt_prop_def()
    store = opt_prop_def()
    ds = opt_prop_def()
    FORMAT = "oilist(`load` `(` $load `)` | `store` `(` $store `)` | `ds` `(` $ds `)`) attr-dict"
    ATTR_STYLES = {"load": IntStyle(32), "store": IntStyle(32), "ds": IntStyle(32)}


@irkit_op
class AMDInitBarrierOp(TritonOp):
    name = "amdg.init_barrier"
    alloc = operand_def()
    count = prop_def()
    FORMAT = "$alloc `,` $count attr-dict `:` qualified(type($alloc))"
    ATTR_STYLES = {"count": IntStyle(32)}


@irkit_op
class AMDWaitBarrierOp(TritonOp):
    name = "amdg.wait_barrier"
    alloc = operand_def()
    phase = operand_def()
    FORMAT = "$alloc `,` $phase attr-dict `:` qualified(type($alloc))"


@irkit_op
class AMDArriveBarrierOp(TritonOp):
    name = "amdg.arrive_barrier"
    alloc = operand_def()
    result = result_def()
    count = prop_def()
    FORMAT = "$alloc `,` $count attr-dict `:` qualified(type($alloc)) `->` type($result)"
    ATTR_STYLES = {"count": IntStyle(32)}


@irkit_op
class AsyncCopyMbarrierArriveOp(TritonOp):
    name = "amdg.async_copy_mbarrier_arrive"
    barrier = operand_def()
    FORMAT = "$barrier attr-dict `:` qualified(type($barrier))"


@irkit_op
class ClusterBarrierArriveOp(TritonOp):
    name = "amdg.cluster_barrier_arrive"
    FORMAT = "attr-dict"


@irkit_op
class ClusterBarrierWaitOp(TritonOp):
    name = "amdg.cluster_barrier_wait"
    FORMAT = "attr-dict"


AMDG_OPS = [
    InThreadTransposeOp, BufferLoadOp, BufferStoreOp, BufferAtomicRMWOp, BufferLoadToLocalOp,
    InstructionSchedHintOp, SchedBarrierOp, CondBarrierOp, ExtractSliceOp, ConcatOp, BufferAtomicCASOp,
    ScaledUpcastFp4Op, ScaledUpcastFp8Op, UpcastMXFPOp, UpdateTensorDescriptorOp, AsyncTDMCopyGlobalToLocalOp,
    AsyncTDMCopyLocalToGlobalOp, AsyncTDMWaitOp, AsyncTDMFusedCopyGlobalToLocalOp, AsyncTDMScatterOp,
    AsyncTDMGatherOp, TDMPrefetchOp, AsyncTDMIntrinsicWaitOp, AMDAsyncWaitOp, LocalLoadPackedTransposedOp, LocalLoadPackedTranposedOp,
    AsyncCopyLocalToGlobalOp, MemoryCounterWaitOp, AMDInitBarrierOp, AMDWaitBarrierOp, AMDArriveBarrierOp,
    AsyncCopyMbarrierArriveOp, ClusterBarrierArriveOp, ClusterBarrierWaitOp,
]
TritonAMDGPU = Dialect("amdg", AMDG_OPS, [])

# -- Intel ----------------------------------------------------------------------------------


@irkit_op
class IntelUpcastMXFPOp(_UpcastMXFP):
    """triton-xpu 3.3's (`triton_intel_gpu.upcast_mxfp`)."""

    name = "ttig.upcast_mxfp"
    FORMAT = _UPCAST_MXFP_FORMAT
    ATTR_STYLES = {"fp_type": SCALE_DOT_ELEM}


@irkit_op
class PrefetchOp(TritonOp):
    name = "ttig.prefetch"
    ptr = operand_def()
    mask = opt_operand_def()
    cache = opt_prop_def()
    evict = opt_prop_def()
    isVolatile = opt_prop_def()
    FORMAT = "$ptr (`,` $mask^)? attr-dict `:` type($ptr)"
    FORMAT_LEGACY = "operands attr-dict `:` type($ptr)"


@irkit_op
class IntelAllocOp(TritonOp):
    name = "ttig.alloc"
    result = result_def()
    FORMAT = "attr-dict `:` type($result)"
    STRIPPED = {"result": "tt.ptr"}  # a TT_Ptr result prints unqualified: `: <f16, 3>`


@irkit_op
class GlueOp(TritonOp):
    name = "ttig.glue"
    operands_ = var_operand_def()
    res = result_def()
    traits = traits_def(Pure())
    FORMAT = "operands attr-dict `:` functional-type(operands, results)"


@irkit_op
class ExtractOp(TritonOp):
    name = "ttig.extract"
    base = operand_def()
    res = result_def()
    index = prop_def()
    traits = traits_def(Pure())
    FORMAT = "$base `[` $index `]` attr-dict `:` type($base) `->` type($res)"
    ATTR_STYLES = {"index": IntStyle(32)}  # an I32Attr: the format writes the bare number


@irkit_op
class IntelBroadcastOp(TritonOp):
    name = "ttig.broadcast"
    src = operand_def()
    res = result_def()
    traits = traits_def(Pure())
    FORMAT = "$src attr-dict `:` type($src) `->` type($res)"


@irkit_op
class SubGroupTransposeOp(TritonOp):
    """Transposes a sub_group_size x sub_group_size tile through `local_buffer` (a workgroup-memory pointer)."""

    name = "ttig.sub_group_transpose"
    local_buffer = operand_def()
    src = operand_def()
    res = result_def()
    FORMAT = "operands attr-dict `:` type($src)"

    @classmethod
    def infer_types(cls, types):
        types["res"] = list(types["src"])


@irkit_op
class DescriptorPrefetchOp(TritonOp):
    name = "ttig.descriptor_prefetch"
    desc = operand_def()
    indices = var_operand_def()
    cache = opt_prop_def()
    evict = opt_prop_def()
    FORMAT = (
        "$desc `[` $indices `]` oilist(`cacheModifier` `=` $cache | `evictionPolicy` `=` $evict) attr-dict `:` "
        "qualified(type($desc))"
    )
    ATTR_STYLES = {"cache": CACHE, "evict": EVICT}


@irkit_op
class GetStrideOp(TritonOp):
    """2024 (triton_intel_gpu): a TMA-descriptor stride."""

    name = "ttig.get_stride"
    base = operand_def()
    res = result_def()
    index = prop_def()
    traits = traits_def(Pure())
    FORMAT = "$base `,` $index attr-dict `:` type($base) `->` type($res)"
    ATTR_STYLES = {"index": IntStyle(32)}


@irkit_op
class GetShapeOp(TritonOp):
    name = "ttig.get_shape"
    base = operand_def()
    res = result_def()
    index = prop_def()
    traits = traits_def(Pure())
    FORMAT = "$base `,` $index attr-dict `:` type($base) `->` type($res)"
    ATTR_STYLES = {"index": IntStyle(32)}


@irkit_op
class GetTensorPointerOp(TritonOp):
    name = "ttig.get_tensor_pointer"
    base = operand_def()
    res = result_def()
    traits = traits_def(Pure())
    FORMAT = "$base attr-dict `:` type($base) `->` type($res)"


BLOCK_IO_MODE = EnumStyle(("row_major", "column_major"))  # TTIG_BlockIOMode (I32EnumAttr)


@irkit_op
class ExtractDescOp(TritonOp):
    """main (2026): field `index` of a tensor descriptor's struct {shapes[rank], strides[rank], base}."""

    name = "ttig.extract_desc"
    desc = operand_def()
    result = result_def()
    index = prop_def()
    traits = traits_def(Pure())
    FORMAT = "$desc `[` $index `]` attr-dict `:` type($desc) `->` type($result)"
    ATTR_STYLES = {"index": IntStyle(32)}
    STRIPPED = {"desc": "tt.tensordesc"}  # TT_TensorDescType prints `<64x32xf16>`


@irkit_op
class Subgroup2DBlockLoadOp(TritonOp):
    """main (2026): a 2D block load from a surface given by base, width, height and pitch."""

    name = "ttig.2d_block_load"
    base_ptr = operand_def()
    base_width = operand_def()
    base_height = operand_def()
    base_pitch = operand_def()
    offset_x = operand_def()
    offset_y = operand_def()
    result = result_def()
    pad_nan = opt_prop_def()
    memory_layout = prop_def()
    FORMAT = (
        "$base_ptr `,` $base_width `,` $base_height `,` $base_pitch `[` $offset_x `,` $offset_y `]` "
        "`{` $memory_layout (`,` `pad_nan` $pad_nan^)? `}` attr-dict `:` type($base_ptr) `->` type($result)"
    )
    ATTR_STYLES = {"memory_layout": BLOCK_IO_MODE, "pad_nan": UnitStyle()}
    STRIPPED = {"base_ptr": "tt.ptr"}  # TT_Ptr prints `<f16>`


@irkit_op
class Subgroup2DBlockLoadFromPtrOp(TritonOp):
    """main (2026): a 2D block load from a tensor of pointers (`tt.load` made eligible for 2D block IO)."""

    name = "ttig.2d_block_load_from_ptr"
    ptr = operand_def()
    base_pitch = operand_def()
    mask = opt_operand_def()
    other = opt_operand_def()
    result = result_def()
    base_width = prop_def()
    base_height = prop_def()
    memory_layout = prop_def()
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    FORMAT = (
        "$ptr `,` $base_pitch (`,` $mask^ `,` $other)? ` ` `{` $memory_layout `}` attr-dict `:` "
        "functional-type(operands, results)"
    )
    ATTR_STYLES = {"memory_layout": BLOCK_IO_MODE}


@irkit_op
class IntelDescriptorGatherOp(TritonOp):
    """main (2026): `tt.descriptor_gather` with Intel's verifier and layouts."""

    name = "ttig.descriptor_gather"
    desc = operand_def()
    x_offsets = operand_def()
    y_offset = operand_def()
    result = result_def()
    FORMAT = DescriptorGatherOp.FORMAT


@irkit_op
class IntelDescriptorScatterOp(TritonOp):
    """main (2026): `tt.descriptor_scatter` with Intel's verifier and layouts."""

    name = "ttig.descriptor_scatter"
    desc = operand_def()
    x_offsets = operand_def()
    y_offset = operand_def()
    src = operand_def()
    FORMAT = DescriptorScatterOp.FORMAT


TTIG_OPS = [
    PrefetchOp, IntelAllocOp, GlueOp, ExtractOp, IntelBroadcastOp, SubGroupTransposeOp, DescriptorPrefetchOp,
    GetStrideOp, GetShapeOp, GetTensorPointerOp, ExtractDescOp, Subgroup2DBlockLoadOp, Subgroup2DBlockLoadFromPtrOp,
    IntelDescriptorGatherOp, IntelDescriptorScatterOp, IntelUpcastMXFPOp,
]
TritonIntelGPU = Dialect("ttig", TTIG_OPS, [])

__all__ = ["TritonAMDGPU", "TritonIntelGPU", "AMDG_OPS", "TTIG_OPS", "EVICT"]
