"""The `ttg` dialect (TritonGPU; `triton_gpu` in Triton 3.1): layouts in use.

Formats from TritonGPUOps.td; where 3.1 and later differ, `FORMAT_LEGACY`
holds the 3.1 one.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.ir import Attribute, Dialect, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_region_def,
    var_result_def,
)
from xdsl.traits import IsTerminator, Pure

from irkit.dialects import op_rules
from irkit.dialects.base import TritonOp, irkit_op
from irkit.dialects.tt import CACHE, EVICT, RMW_OP
from irkit.dialects.types import AsyncTokenType
from irkit.frontend.opformat import BareI32ListStyle

_MEMDESC_VIEW = "$src attr-dict `:` qualified(type($src)) `->` qualified(type($result))"


@irkit_op
class ConvertLayoutOp(TritonOp):
    """Moves a tensor from one layout to another (through shared memory unless
    the conversion only permutes registers or shuffles within a warp)."""

    name = "ttg.convert_layout"
    src = operand_def()
    result = result_def()
    traits = traits_def(Pure())
    FORMAT = "$src attr-dict `:` type($src) `->` type($result)"

    def __init__(self, src: SSAValue, result_type: Attribute):
        """`src` in the layout of `result_type` (same shape and element type)."""
        super().__init__(operands=[src], result_types=[result_type])

    def verify_(self) -> None:
        op_rules.check_same_shape(self.src.type, self.result.type)


@irkit_op
class LocalAllocOp(TritonOp):
    name = "ttg.local_alloc"
    src = opt_operand_def()
    result = result_def()
    alignment = opt_prop_def()
    FORMAT = "($src^)? attr-dict `:` functional-type(operands, results)"
    FORMAT_PRE34 = "$src attr-dict `:` functional-type(operands, results)"  # `ttg.local_alloc  : () -> ...`


@irkit_op
class LocalDeallocOp(TritonOp):
    name = "ttg.local_dealloc"
    src = operand_def()
    FORMAT = "$src attr-dict `:` qualified(type($src))"


@irkit_op
class LocalLoadOp(TritonOp):
    name = "ttg.local_load"
    src = operand_def()
    token = opt_operand_def()
    result = result_def()
    FORMAT = "$src (`token` $token^)? attr-dict `:` qualified(type($src)) `->` type($result)"


@irkit_op
class LocalStoreOp(TritonOp):
    name = "ttg.local_store"
    src = operand_def()
    dst = operand_def()
    FORMAT = "$src `,` $dst attr-dict `:` type($src) `->` qualified(type($dst))"


@irkit_op
class MemDescSubviewOp(TritonOp):
    name = "ttg.memdesc_subview"
    src = operand_def()
    offsets = var_operand_def()
    result = result_def()
    traits = traits_def(Pure())
    FORMAT = "$src `[` $offsets `]` attr-dict `:` qualified(type($src)) `->` qualified(type($result))"


@irkit_op
class MemDescIndexOp(TritonOp):
    name = "ttg.memdesc_index"
    src = operand_def()
    index = operand_def()
    result = result_def()
    traits = traits_def(Pure())
    FORMAT = "$src `[` $index `]` attr-dict `:` qualified(type($src)) `->` qualified(type($result))"


@irkit_op
class MemDescSubsliceOp(TritonOp):
    name = "ttg.memdesc_subslice"
    src = operand_def()
    result = result_def()
    offsets = prop_def()
    traits = traits_def(Pure())
    # `custom<Offsets>($offsets)` in C++: the i32 array written bare, `[0, 16]`
    FORMAT = "$src `[` $offsets `]` attr-dict `:` qualified(type($src)) `->` qualified(type($result))"
    ATTR_STYLES = {"offsets": BareI32ListStyle()}


@irkit_op
class MemDescTransOp(TritonOp):
    name = "ttg.memdesc_trans"
    src = operand_def()
    result = result_def()
    order = prop_def()
    traits = traits_def(Pure())
    FORMAT = _MEMDESC_VIEW


@irkit_op
class MemDescReshapeOp(TritonOp):
    name = "ttg.memdesc_reshape"
    src = operand_def()
    result = result_def()
    traits = traits_def(Pure())
    FORMAT = _MEMDESC_VIEW


@irkit_op
class MemDescReinterpretOp(TritonOp):
    name = "ttg.memdesc_reinterpret"
    src = operand_def()
    result = result_def()
    traits = traits_def(Pure())
    FORMAT = _MEMDESC_VIEW


@irkit_op
class AsyncCopyGlobalToLocalOp(TritonOp):
    name = "ttg.async_copy_global_to_local"
    src = operand_def()
    result = operand_def()  # the destination memdesc: Triton names the operand `result`
    mask = opt_operand_def()
    other = opt_operand_def()
    token = result_def()
    cache = opt_prop_def()
    evict = opt_prop_def()
    isVolatile = opt_prop_def()
    contiguity = opt_prop_def()
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    FORMAT = (
        "$src `,` $result (`mask` $mask^)? (`other` $other^)? oilist(`cacheModifier` `=` $cache | "
        "`evictionPolicy` `=` $evict) attr-dict `:` type($src) `->` type($result)"
    )
    ATTR_STYLES = {"cache": CACHE, "evict": EVICT}
    STRIPPED = {"result": "ttg.memdesc"}

    @classmethod
    def infer_types(cls, types):
        types["token"] = [AsyncTokenType()]


@irkit_op
class AsyncCommitGroupOp(TritonOp):
    name = "ttg.async_commit_group"
    inputTokens = var_operand_def()
    asyncToken = result_def()
    FORMAT = "(`tokens` $inputTokens^)? attr-dict"
    FORMAT_LEGACY = "$inputTokens attr-dict"

    @classmethod
    def infer_types(cls, types):
        types["asyncToken"] = [AsyncTokenType()]


@irkit_op
class AsyncWaitOp(TritonOp):
    name = "ttg.async_wait"
    asyncToken = var_operand_def()
    retToken = result_def()
    num = prop_def()
    FORMAT = "($asyncToken^)? attr-dict"
    FORMAT_PRE34 = "$asyncToken attr-dict"  # `ttg.async_wait  {num = 0 : i32}`

    @classmethod
    def infer_types(cls, types):
        types["retToken"] = [AsyncTokenType()]


@irkit_op
class GlobalScratchAllocOp(TritonOp):
    name = "ttg.global_scratch_alloc"
    result = result_def()
    nbytes = prop_def()
    alignment = prop_def()
    FORMAT = "attr-dict `:` qualified(type($result))"


@irkit_op
class UpcastMXFPOp(TritonOp):
    name = "ttg.upcast_mxfp"
    src = operand_def()
    scale = operand_def()
    result = result_def()
    fp_type = prop_def()
    traits = traits_def(Pure())
    FORMAT = "$src `,` $scale `fp_type` `=` $fp_type attr-dict `:` type($src) `,` type($scale) `->` type($result)"


@irkit_op
class Fp4ToFpOp(TritonOp):
    name = "ttg.fp4_to_fp"
    src = operand_def()
    result = result_def()
    axis = prop_def()
    traits = traits_def(Pure())
    FORMAT = "$src attr-dict `:` type($src) `->` type($result)"


@irkit_op
class BarrierOp(TritonOp):
    name = "ttg.barrier"
    addrSpace = opt_prop_def()
    FORMAT = "attr-dict"


@irkit_op
class LocalBarrierOp(TritonOp):
    """Triton 3.6: a CTA-wide barrier over shared memory (3.9 has `ttg.barrier` with address spaces)."""

    name = "ttg.local_barrier"
    FORMAT = "attr-dict"


@irkit_op
class PredicateStageOp(TritonOp):
    name = "ttg.predicate_stage"
    iv = operand_def()
    ub = operand_def()
    step = operand_def()
    result = result_def()
    maxStage = prop_def()
    stage = prop_def()
    FORMAT = "$iv `,` $ub `,` $step `maxStage` $maxStage `stage` $stage attr-dict `:` type($iv) `->` type($result)"


@irkit_op
class WarpSpecializeOp(TritonOp):
    """The default region runs in the current warps; `partitionOpHolder` holds one
    `ttg.warp_specialize.partitions` whose isolated regions run in extra warp groups.
    Syntax hand-written (custom_syntax): `ttg.warp_specialize(%captures) default {...}
    partition0(%a: T) num_warps(4) {...} : (T) -> ()`."""

    name = "ttg.warp_specialize"
    defaultPassthrough = var_result_def()
    partitionNumWarps = prop_def()
    warpGroupStartIds = opt_prop_def()
    requestedRegisters = opt_prop_def()
    actualRegisters = opt_prop_def()
    defaultRegion = region_def()
    partitionOpHolder = region_def()
    traits = traits_def(op_rules.OwnWarpCount())
    # 3.3-3.6 take the explicit captures themselves; 3.7 on, their ttg.warp_specialize.partitions does
    CAPTURES_HERE_BEFORE: ClassVar[tuple[int, int, int]] = (3, 7, 0)


@irkit_op
class WarpYieldOp(TritonOp):
    name = "ttg.warp_yield"
    values = var_operand_def()
    traits = traits_def(IsTerminator())
    FORMAT = "($values^)? attr-dict (`:` type($values)^)?"


@irkit_op
class WarpReturnOp(TritonOp):
    name = "ttg.warp_return"
    traits = traits_def(IsTerminator())
    FORMAT = "attr-dict"


@irkit_op
class WarpSpecializePartitionsOp(TritonOp):
    name = "ttg.warp_specialize.partitions"
    explicitCaptures = var_operand_def()
    partitionRegions = var_region_def()
    traits = traits_def(IsTerminator(), op_rules.OwnWarpCount())


@irkit_op
class WarpIdOp(TritonOp):
    name = "ttg.warp_id"
    result = result_def()
    omitUniformHint = opt_prop_def()
    traits = traits_def(Pure())
    FORMAT = "attr-dict"

    @classmethod
    def infer_types(cls, types):
        from xdsl.dialects.builtin import IntegerType

        types["result"] = [IntegerType(32)]


@irkit_op
class InlineAsmOp(TritonOp):
    """Inline assembly on tensors and shared-memory descriptors (3.9)."""

    name = "ttg.inline_asm"
    args = var_operand_def()
    result = var_result_def()
    asm_string = prop_def()
    constraints = prop_def()
    pure = prop_def()
    FORMAT = "$asm_string attr-dict ($args^)? `:` functional-type($args, $result)"


@irkit_op
class LocalGatherOp(TritonOp):
    name = "ttg.local_gather"
    src = operand_def()
    indices = operand_def()
    token = opt_operand_def()
    result = result_def()
    axis = prop_def()
    FORMAT = (
        "$src `[` $indices `]` (`token` $token^)? attr-dict `:` qualified(type($src)) `,` type($indices) "
        "`->` type($result)"
    )


@irkit_op
class LocalScatterOp(TritonOp):
    name = "ttg.local_scatter"
    dst = operand_def()
    values = operand_def()
    indices = operand_def()
    token = opt_operand_def()
    axis = prop_def()
    FORMAT = (
        "$dst `[` $indices `]` `,` $values (`token` $token^)? attr-dict `:` qualified(type($dst)) `,` "
        "type($indices) `,` type($values)"
    )


@irkit_op
class LocalAtomicScatterRMWOp(TritonOp):
    name = "ttg.local_atomic_scatter_rmw"
    dst = operand_def()
    values = operand_def()
    indices = operand_def()
    mask = opt_operand_def()
    result = result_def()
    atomic_rmw_op = prop_def()
    axis = prop_def()
    FORMAT = (
        "$atomic_rmw_op `,` $dst `[` $indices `]` `,` $values (`,` $mask^)? attr-dict `:` "
        "functional-type(operands, results)"
    )
    ATTR_STYLES = {"atomic_rmw_op": RMW_OP}


@irkit_op
class MaskOp(TritonOp):
    """A predicated region (printed in generic form, as Triton does)."""

    name = "ttg.mask"
    pred = operand_def()
    result = var_result_def()
    region = region_def()


@irkit_op
class MaskReturnOp(TritonOp):
    name = "ttg.mask.return"
    result = var_operand_def()
    traits = traits_def(IsTerminator(), Pure())
    FORMAT = "$result attr-dict `:` type($result)"


TTG_OPS = [
    ConvertLayoutOp, LocalAllocOp, LocalDeallocOp, LocalLoadOp, LocalStoreOp, MemDescSubviewOp,
    MemDescIndexOp, MemDescSubsliceOp, MemDescTransOp, MemDescReshapeOp, MemDescReinterpretOp,
    AsyncCopyGlobalToLocalOp, AsyncCommitGroupOp, AsyncWaitOp, GlobalScratchAllocOp,
    UpcastMXFPOp, Fp4ToFpOp, BarrierOp, PredicateStageOp, WarpSpecializeOp, WarpYieldOp,
    WarpReturnOp, WarpSpecializePartitionsOp, WarpIdOp, InlineAsmOp, LocalGatherOp, LocalScatterOp,
    LocalAtomicScatterRMWOp, MaskOp, MaskReturnOp, LocalBarrierOp,
]

TritonGPU = Dialect("ttg", TTG_OPS, [])

__all__ = ["TritonGPU", "TTG_OPS"]
