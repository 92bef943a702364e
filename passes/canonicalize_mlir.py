"""MLIR's own canonicalizations of `scf.for` and `arith` that Triton's kernels meet between its passes.

`canonicalize` (passes/canonicalize.py) uses these beside the patterns of Triton's ops.  Written after
mlir/lib/Dialect/SCF/IR/SCF.cpp (`ForOpIterArgsFolder`) and mlir/lib/Dialect/Arith/IR/ArithOps.cpp
(`CmpIOp::fold`, `SelectOp::fold`), and checked on the IR Triton 3.1 and 3.9 dump between their passes
(tests/data/corpus/dumps, docs/passes/canonicalize.md).
"""

from __future__ import annotations

from xdsl.dialects import scf
from xdsl.dialects.builtin import IntegerAttr, IntegerType, TensorType
from xdsl.ir import Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern
from xdsl.rewriter import InsertPoint

from irkit.dialects import arith
from irkit.dialects.builtin_extras import DenseElementsAttr
from irkit.names import copy_name, replace_keeping_names, replace_uses


def constant_value(value: SSAValue) -> int | float | bool | None:
    """The scalar of an `arith.constant`, or the element of a splat one (None otherwise)."""
    op = value.owner
    if not isinstance(op, arith.ConstantOp):
        return None
    if isinstance(op.value, DenseElementsAttr):
        return op.value.splat_value()
    if isinstance(op.value, IntegerAttr):
        return op.value.value.data
    return None


def _forward(rewriter: PatternRewriter, op: Operation, value: SSAValue) -> None:
    replace_uses(op.results[0], value, rewriter)
    rewriter.erase(op)


# -- scf.for ------------------------------------------------------------------------------------------------


class ForOpIterArgsFolder(RewritePattern):
    """ForOpIterArgsFolder: a loop-carried value leaves the loop when the body yields it unchanged, yields its
    initial value, or nobody reads it (inside or after the loop); with `merge_duplicates` (the MLIR of Triton
    3.2 on), one carried exactly like an earlier one (same initial and yielded values) is that one."""

    def __init__(self, merge_duplicates: bool = True):
        self.merge_duplicates = merge_duplicates

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, scf.ForOp) or not op.iter_args:
            return
        body = op.body.blocks.first
        yield_op = body.last_op if body is not None else None
        if body is None or not isinstance(yield_op, scf.YieldOp):
            return
        args, yielded = body.args[1:], list(yield_op.operands)
        kept: list[int] = []
        stand_in: dict[int, int | None] = {}  # dropped -> the kept index it equals, None: its initial value
        first_of: dict[tuple[SSAValue, SSAValue], int] = {}
        for i, (init, arg, result) in enumerate(zip(op.iter_args, args, op.results, strict=True)):
            if yielded[i] is arg or yielded[i] is init or (not arg.uses and not result.uses):
                stand_in[i] = None
            elif self.merge_duplicates and (init, yielded[i]) in first_of:
                stand_in[i] = first_of[(init, yielded[i])]
            else:
                first_of[(init, yielded[i])] = i
                kept.append(i)
        if not stand_in:
            return
        yield_op.operands = [yielded[i] for i in kept]
        rewriter.notify_op_modified(yield_op)
        for i, same in stand_in.items():
            replace_uses(args[i], op.iter_args[i] if same is None else args[same], rewriter)
        for i in sorted(stand_in, reverse=True):
            rewriter.erase_block_argument(args[i])
        new = scf.ForOp.create(operands=[op.lb, op.ub, op.step, *(op.iter_args[i] for i in kept)],
                               result_types=[op.results[i].type for i in kept],
                               attributes=dict(op.attributes), properties=dict(op.properties),
                               regions=[rewriter.move_region_contents_to_new_regions(op.body)])
        rewriter.insert(new, InsertPoint.before(op))
        position = {i: k for k, i in enumerate(kept)}
        for i, result in enumerate(op.results):
            if i in position:
                copy_name(result, new.results[position[i]])
                replace_uses(result, new.results[position[i]], rewriter)
            else:
                same = stand_in[i]
                replace_uses(result, op.iter_args[i] if same is None else new.results[position[same]], rewriter)
        rewriter.erase(op)


# -- arith --------------------------------------------------------------------------------------------------

_CMPI = {
    "eq": lambda a, b, w: a == b, "ne": lambda a, b, w: a != b,
    "slt": lambda a, b, w: a < b, "sle": lambda a, b, w: a <= b,
    "sgt": lambda a, b, w: a > b, "sge": lambda a, b, w: a >= b,
    "ult": lambda a, b, w: a % (1 << w) < b % (1 << w), "ule": lambda a, b, w: a % (1 << w) <= b % (1 << w),
    "ugt": lambda a, b, w: a % (1 << w) > b % (1 << w), "uge": lambda a, b, w: a % (1 << w) >= b % (1 << w),
}
_REFLEXIVE = ("eq", "sle", "sge", "ule", "uge")  # x <pred> x holds


def _i1_constant(truth: bool, result_type) -> arith.ConstantOp:
    if isinstance(result_type, TensorType):
        return arith.ConstantOp(DenseElementsAttr.splat(truth, result_type))
    return arith.ConstantOp(IntegerAttr(int(truth), IntegerType(1)))


class FoldCmpI(RewritePattern):
    """CmpIOp::fold: two constants (scalars or splats) compare to a constant; `x <pred> x` is known."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, arith.CmpIOp) or not isinstance(op.predicate, IntegerAttr):
            return
        predicate = arith.CMPI_PREDICATES.keywords[op.predicate.value.data]
        element = op.lhs.type.element_type if isinstance(op.lhs.type, TensorType) else op.lhs.type
        if not isinstance(element, IntegerType):
            return
        if op.lhs is op.rhs:
            truth = predicate in _REFLEXIVE
        else:
            a, b = constant_value(op.lhs), constant_value(op.rhs)
            if not isinstance(a, (int, bool)) or not isinstance(b, (int, bool)):
                return
            truth = _CMPI[predicate](int(a), int(b), element.width.data)
        replace_keeping_names(rewriter, op, _i1_constant(bool(truth), op.result.type))


class FoldSelect(RewritePattern):
    """SelectOp::fold: a constant condition picks its operand; both operands the same value is that value."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, arith.SelectOp):
            return
        if op.true_value is op.false_value:
            _forward(rewriter, op, op.true_value)
            return
        condition = constant_value(op.condition)
        if isinstance(condition, (bool, int)):
            _forward(rewriter, op, op.true_value if condition else op.false_value)


def patterns_for(release: tuple[int, int, int]) -> list[RewritePattern]:
    """These patterns as the MLIR of Triton `release` has them: Triton 3.1's keeps duplicate loop-carried
    values (measured: the real 3.1.0 canonicalize keeps them, 3.3.1 on merge them; 3.2 was not run)."""
    return [ForOpIterArgsFolder(merge_duplicates=release >= (3, 2, 0)), FoldCmpI(), FoldSelect()]
