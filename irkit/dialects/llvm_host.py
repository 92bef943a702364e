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
    prop_def,
    result_def,
    successor_def,
    traits_def,
    var_operand_def,
)
from xdsl.traits import IsTerminator, Pure

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


LLVM_HOST_OPS = [LLVMConstantOp, LLVMICmpOp, LLVMAddOp, LLVMBrOp, LLVMCondBrOp, LLVMReturnOp]
BRANCH_OPS = (LLVMBrOp, LLVMCondBrOp)
