"""The LLVM-dialect host ops `gpu-to-llvm` leaves around the launches (MLIR 22): the loop skeleton that
`convert-scf-to-cf` + `gpu-to-llvm` make of an `scf.for` (`llvm.br`, `llvm.cond_br`, `llvm.icmp`, `llvm.add`,
`llvm.mlir.constant`, `llvm.return`), so irkit-report can count the runtime calls of lowered host code.
Only the forms MLIR 22 prints for that code: no overflow flags, no fast-math, no LLVM struct constants.
"""

from __future__ import annotations

from xdsl.irdl import (
    AttrSizedOperandSegments,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    region_def,
    result_def,
    successor_def,
    traits_def,
    var_operand_def,
)
from xdsl.traits import IsTerminator, Pure, SymbolOpInterface

from irkit.dialects.base import TritonOp, i1_like, irkit_op, same_as


@irkit_op
class LLVMConstantOp(TritonOp):
    name = "llvm.mlir.constant"
    value = prop_def()
    res = result_def()
    traits = traits_def(Pure())
    FORMAT = "`(` $value `)` attr-dict `:` type($res)"


@irkit_op
class LLVMICmpOp(TritonOp):
    """`llvm.icmp "slt" %a, %b : i64` (the predicate kept as its string)."""

    name = "llvm.icmp"
    predicate = prop_def()
    lhs = operand_def()
    rhs = operand_def()
    res = result_def()
    traits = traits_def(Pure())
    FORMAT = "$predicate $lhs `,` $rhs attr-dict `:` type($lhs)"

    @classmethod
    def infer_types(cls, types):
        types["res"] = [i1_like(types["lhs"][0])]


@irkit_op
class LLVMAddOp(TritonOp):
    name = "llvm.add"
    lhs = operand_def()
    rhs = operand_def()
    res = result_def()
    traits = traits_def(Pure())
    FORMAT = "$lhs `,` $rhs attr-dict `:` type($res)"

    @classmethod
    def infer_types(cls, types):
        same_as(types, "lhs", "res")
        same_as(types, "rhs", "res")


@irkit_op
class LLVMBrOp(TritonOp):
    name = "llvm.br"
    arguments = var_operand_def()
    successor = successor_def()
    traits = traits_def(IsTerminator())


@irkit_op
class LLVMCondBrOp(TritonOp):
    name = "llvm.cond_br"
    cond = operand_def()
    then_arguments = var_operand_def()
    else_arguments = var_operand_def()
    then_block = successor_def()
    else_block = successor_def()
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(IsTerminator())


@irkit_op
class LLVMReturnOp(TritonOp):
    name = "llvm.return"
    arg = opt_operand_def()
    traits = traits_def(IsTerminator())
    FORMAT = "attr-dict ($arg^ `:` type($arg))?"


@irkit_op
class LLVMGlobalOp(TritonOp):
    """`llvm.mlir.global external @global_smem() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>`:
    what Triton's shared-memory allocation declares in modules bound for LLVM (hand-written syntax,
    irkit.frontend.custom_syntax; the keywords before the symbol are the enum properties below)."""

    name = "llvm.mlir.global"
    initializer = region_def()
    sym_name = prop_def()
    global_type = prop_def()
    linkage = prop_def()  # #llvm.linkage<external>
    addr_space = prop_def()
    unnamed_addr = prop_def()  # 0 none, 1 local_unnamed_addr, 2 unnamed_addr (i64)
    visibility_ = prop_def()  # 0 default, 1 hidden, 2 protected (i64)
    constant = opt_prop_def()
    thread_local_ = opt_prop_def()
    value = opt_prop_def()
    alignment = opt_prop_def()
    dso_local = opt_prop_def()
    externally_initialized = opt_prop_def()
    section = opt_prop_def()
    comdat = opt_prop_def()
    dbg_exprs = opt_prop_def()
    traits = traits_def(SymbolOpInterface())


LLVM_HOST_OPS = [LLVMConstantOp, LLVMICmpOp, LLVMAddOp, LLVMBrOp, LLVMCondBrOp, LLVMReturnOp, LLVMGlobalOp]
BRANCH_OPS = (LLVMBrOp, LLVMCondBrOp)
