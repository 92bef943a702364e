"""`nvws` (NVIDIA warp specialization, Triton 3.4+): asynchronous references (arefs) between warp groups,
the producer/consumer token ops and `nvws.warp_group`.  Its types (`!nvws.aref<[...]>`, `!nvws.token`) and
its `#nvws.async_op<...>` attribute are read and printed verbatim (irkit reasons about none of them)."""

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
    var_region_def,
    var_result_def,
)
from xdsl.traits import IsTerminator

from irkit.dialects.base import TritonOp, irkit_op
from irkit.dialects.tt import CACHE, EVICT
from irkit.frontend.opformat import IntStyle


def _token(types, name):
    from irkit.dialects.types import AsyncTokenType

    types[name] = [AsyncTokenType()]


@irkit_op
class ArefCreateOp(TritonOp):
    name = "nvws.aref.create"
    READ_STRIPPED = {"result": "nvws.aref"}
    buffers = var_operand_def()
    result = result_def()
    FORMAT = "$buffers attr-dict `:` type($result)"


@irkit_op
class ArefPhiOp(TritonOp):
    name = "nvws.aref.phi"
    local = operand_def()
    remote = operand_def()
    result = result_def()
    FORMAT = "$local `,` $remote attr-dict `:` type($result)"

    @classmethod
    def infer_types(cls, types):
        types["local"] = list(types["result"])
        types["remote"] = list(types["result"])


@irkit_op
class ArefBufferOp(TritonOp):
    name = "nvws.aref.buffer"
    READ_STRIPPED = {"aref": "nvws.aref"}  # main prints `<[...]>`
    aref = operand_def()
    token = operand_def()
    stage = opt_operand_def()
    buffers = var_result_def()
    FORMAT = "$aref (`[` $stage^ `]`)? `,` $token attr-dict `:` type($aref) `,` type($token) `->` type(results)"


AREFENTER_FORMAT = "$aref (`[` $stage^ `,` $phase `]`)? attr-dict `:` type($aref) `->` type(results)"


class _ArefEnter(TritonOp):
    aref = operand_def()
    stage = opt_operand_def()
    phase = opt_operand_def()
    buffers = var_result_def()
    token = result_def()
    irdl_options = (AttrSizedOperandSegments(as_property=True),)


@irkit_op
class ArefGetEnterOp(_ArefEnter):
    name = "nvws.aref.get.enter"
    READ_STRIPPED = {"aref": "nvws.aref"}  # main prints `<[...]>`
    FORMAT = AREFENTER_FORMAT


@irkit_op
class ArefPutEnterOp(_ArefEnter):
    name = "nvws.aref.put.enter"
    READ_STRIPPED = {"aref": "nvws.aref"}  # main prints `<[...]>`
    FORMAT = AREFENTER_FORMAT


AREFEXIT_FORMAT = "$aref (`[` $stage^ `]`)? `,` $token $async_ops attr-dict `:` type($aref) `,` type($token)"


class _ArefExit(TritonOp):
    aref = operand_def()
    token = operand_def()
    stage = opt_operand_def()
    async_ops = prop_def()


@irkit_op
class ArefGetExitOp(_ArefExit):
    name = "nvws.aref.get.exit"
    READ_STRIPPED = {"aref": "nvws.aref"}  # main prints `<[...]>`
    FORMAT = AREFEXIT_FORMAT


@irkit_op
class ArefPutExitOp(_ArefExit):
    name = "nvws.aref.put.exit"
    READ_STRIPPED = {"aref": "nvws.aref"}  # main prints `<[...]>`
    FORMAT = AREFEXIT_FORMAT


@irkit_op
class WarpGroupOp(TritonOp):
    """Partitions written `partitionN num_warps(K) {...}` (syntax in irkit.frontend.custom_syntax)."""

    name = "nvws.warp_group"
    results_ = var_result_def()
    numWarps = prop_def()
    partitionRegions = var_region_def()


@irkit_op
class WarpGroupYieldOp(TritonOp):
    name = "nvws.warp_group.yield"
    values = var_operand_def()
    traits = traits_def(IsTerminator())
    FORMAT = "($values^)? attr-dict (`:` type($values)^)?"


@irkit_op
class WarpGroupReturnOp(TritonOp):
    name = "nvws.warp_group.return"
    traits = traits_def(IsTerminator())
    FORMAT = "attr-dict"


@irkit_op
class CreateTokenOp(TritonOp):
    name = "nvws.create_token"
    result = result_def()
    numBuffers = prop_def()
    loadType = prop_def()
    FORMAT = "attr-dict `:` type($result)"


TOKENINDEXPHASE_FORMAT = "$token `,` $idx `,` $phase attr-dict `:` type(operands)"


class _TokenIndexPhase(TritonOp):
    token = operand_def()
    idx = operand_def()
    phase = operand_def()


@irkit_op
class ProducerAcquireOp(_TokenIndexPhase):
    name = "nvws.producer_acquire"
    FORMAT = TOKENINDEXPHASE_FORMAT


@irkit_op
class ConsumerWaitOp(_TokenIndexPhase):
    name = "nvws.consumer_wait"
    FORMAT = TOKENINDEXPHASE_FORMAT


TOKENINDEX_FORMAT = "$token `,` $idx attr-dict `:` type(operands)"


class _TokenIndex(TritonOp):
    token = operand_def()
    idx = operand_def()


@irkit_op
class ProducerCommitOp(_TokenIndex):
    name = "nvws.producer_commit"
    FORMAT = TOKENINDEX_FORMAT


@irkit_op
class ConsumerReleaseOp(_TokenIndex):
    name = "nvws.consumer_release"
    FORMAT = TOKENINDEX_FORMAT


@irkit_op
class ClcTryCancelOp(TritonOp):
    name = "nvws.clc_try_cancel"
    result = operand_def()
    FORMAT = "$result attr-dict `:` qualified(type($result))"


@irkit_op
class NVWSDescriptorLoadOp(TritonOp):
    name = "nvws.descriptor_load"
    desc = operand_def()
    indices = var_operand_def()
    result = operand_def()
    txCount = prop_def()
    cache = opt_prop_def()
    evict = opt_prop_def()
    FORMAT = (
        "$desc `[` $indices `]` $txCount $result oilist(`cacheModifier` `=` $cache | `evictionPolicy` `=` $evict) "
        "attr-dict `:` type(operands)"
    )
    ATTR_STYLES = {"txCount": IntStyle(32), "cache": CACHE, "evict": EVICT}


@irkit_op
class NVWSDescriptorGatherOp(TritonOp):
    name = "nvws.descriptor_gather"
    desc = operand_def()
    x_offsets = operand_def()
    y_offset = operand_def()
    result = operand_def()
    txCount = prop_def()
    FORMAT = "$desc `[` $x_offsets `,` $y_offset `]` $txCount $result attr-dict `:` type(operands)"
    ATTR_STYLES = {"txCount": IntStyle(32)}


NVWS_OPS = [
    ArefCreateOp, ArefPhiOp, ArefBufferOp, ArefGetEnterOp, ArefPutEnterOp, ArefGetExitOp, ArefPutExitOp,
    WarpGroupOp, WarpGroupYieldOp, WarpGroupReturnOp, CreateTokenOp, ProducerAcquireOp, ConsumerWaitOp,
    ProducerCommitOp, ConsumerReleaseOp, ClcTryCancelOp, NVWSDescriptorLoadOp, NVWSDescriptorGatherOp,
]
NVWS = Dialect("nvws", NVWS_OPS, [])
