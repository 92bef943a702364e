"""`tti` (TritonInstrument, Triton 3.5+): the ops the concurrency, global-memory and floating-point sanitizers
insert (`experimental_*`).  irkit reads and prints them; no analysis looks inside."""

from __future__ import annotations

from xdsl.ir import Dialect
from xdsl.irdl import operand_def, opt_operand_def, prop_def, result_def, traits_def
from xdsl.traits import Pure

from irkit.dialects.base import TritonOp, irkit_op
from irkit.dialects.tt import MEM_SCOPE, MEM_SEMANTIC, RMW_OP
from irkit.frontend.opformat import IntStyle


def _i32(types, name):
    from irkit.frontend.attributes import integer_type

    types[name] = [integer_type(32)]


@irkit_op
class MemDescToI32Op(TritonOp):
    name = "tti.experimental_memdesc_to_i32"
    memdesc = operand_def()
    result = result_def()
    traits = traits_def(Pure())
    FORMAT = "$memdesc attr-dict `:` type($memdesc)"

    @classmethod
    def infer_types(cls, types):
        _i32(types, "result")


@irkit_op
class MemoryOffsetToI32Op(TritonOp):
    name = "tti.experimental_memory_offset_to_i32"
    result = result_def()
    offset = prop_def()
    memType = prop_def()
    traits = traits_def(Pure())
    FORMAT = "$offset `,` $memType attr-dict"
    ATTR_STYLES = {"offset": IntStyle(32)}

    @classmethod
    def infer_types(cls, types):
        _i32(types, "result")


@irkit_op
class ClusterCTAIdOp(TritonOp):
    name = "tti.experimental_cluster_cta_id"
    result = result_def()
    traits = traits_def(Pure())
    FORMAT = "attr-dict `:` type($result)"


@irkit_op
class GSanAtomicCASOp(TritonOp):
    name = "tti.experimental_gsan_atomic_cas"
    ptr = operand_def()
    cmp = operand_def()
    val = operand_def()
    result = result_def()
    sem = prop_def()
    scope = prop_def()
    FORMAT = "$sem `,` $scope `,` $ptr `,` $cmp `,` $val attr-dict `:` functional-type(operands, $result)"
    ATTR_STYLES = {"sem": MEM_SEMANTIC, "scope": MEM_SCOPE}


@irkit_op
class GSanAtomicRMWOp(TritonOp):
    name = "tti.experimental_gsan_atomic_rmw"
    ptr = operand_def()
    val = operand_def()
    mask = opt_operand_def()
    result = result_def()
    atomic_rmw_op = prop_def()
    sem = prop_def()
    scope = prop_def()
    FORMAT = (
        "$atomic_rmw_op `,` $sem `,` $scope `,` $ptr `,` $val (`,` $mask^)? attr-dict `:` "
        "functional-type(operands, $result)"
    )
    ATTR_STYLES = {"atomic_rmw_op": RMW_OP, "sem": MEM_SEMANTIC, "scope": MEM_SCOPE}


@irkit_op
class FPSanEmbedOp(TritonOp):
    name = "tti.experimental_fpsan_embed"
    val = operand_def()
    result = result_def()
    traits = traits_def(Pure())
    FORMAT = "$val attr-dict `:` functional-type(operands, $result)"


@irkit_op
class FPSanUnembedOp(TritonOp):
    name = "tti.experimental_fpsan_unembed"
    val = operand_def()
    result = result_def()
    traits = traits_def(Pure())
    FORMAT = "$val attr-dict `:` functional-type(operands, $result)"


@irkit_op
class LockAcquireOp(TritonOp):
    name = "tti.experimental_lock_acquire"
    lock = operand_def()
    pred = opt_operand_def()
    FORMAT = "$lock (`,` $pred^)? attr-dict `:` type($lock)"


@irkit_op
class LockReleaseOp(TritonOp):
    name = "tti.experimental_lock_release"
    lock = operand_def()
    pred = opt_operand_def()
    FORMAT = "$lock (`,` $pred^)? attr-dict `:` type($lock)"


TTI_OPS = [
    MemDescToI32Op, MemoryOffsetToI32Op, ClusterCTAIdOp, GSanAtomicCASOp, GSanAtomicRMWOp, FPSanEmbedOp,
    FPSanUnembedOp, LockAcquireOp, LockReleaseOp,
]
TritonInstrument = Dialect("tti", TTI_OPS, [])
