"""MLIR's own canonicalizations of `scf.for` and `arith` that Triton's kernels meet between its passes.

`canonicalize` (passes/canonicalize.py) uses these beside the patterns of Triton's ops.  Written after
mlir/lib/Dialect/SCF/IR/SCF.cpp (`ForOpIterArgsFolder`; scf.if's `RemoveUnusedResults`, `ConvertTrivialIfToSelect`,
`RemoveEmptyElseBranch`) and mlir/lib/Dialect/Arith/IR/ArithOps.cpp
(`CmpIOp::fold`, `SelectOp::fold`), and checked on the IR Triton 3.1 and 3.9 dump between their passes
(tests/data/corpus/dumps, docs/passes/canonicalize.md).
"""

from __future__ import annotations

from xdsl.dialects import scf
from xdsl.dialects.builtin import IndexType, IntegerAttr, IntegerType, TensorType
from xdsl.ir import Attribute, Operation, Region, SSAValue
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


class IfUnusedResults(RewritePattern):
    """scf.if's RemoveUnusedResults: results nobody reads leave the op and both regions' yields."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, scf.IfOp) or not op.results:
            return
        kept = [i for i, r in enumerate(op.results) if r.uses]
        if len(kept) == len(op.results):
            return
        for region in op.regions:
            block = region.blocks.first
            yield_op = block.last_op if block is not None else None
            if isinstance(yield_op, scf.YieldOp):
                yield_op.operands = [yield_op.operands[i] for i in kept]
                rewriter.notify_op_modified(yield_op)
        new = scf.IfOp.create(operands=list(op.operands), result_types=[op.results[i].type for i in kept],
                              attributes=dict(op.attributes), properties=dict(op.properties),
                              regions=[rewriter.move_region_contents_to_new_regions(r) for r in op.regions])
        rewriter.insert(new, InsertPoint.before(op))
        for new_result, i in zip(new.results, kept, strict=True):
            copy_name(op.results[i], new_result)
            replace_uses(op.results[i], new_result, rewriter)
        rewriter.erase(op)


def _defined_in(value: SSAValue, region: Region) -> bool:
    """Is `value` defined directly in `region` (an op of one of its blocks, or a block argument)?"""
    owner = value.owner
    return (owner.parent_region() if isinstance(owner, Operation) else owner.parent) is region


def _yields(op: scf.IfOp) -> list[scf.YieldOp] | None:
    """The `scf.yield` ending each of the two regions (None when one is missing)."""
    found = []
    for region in (op.true_region, op.false_region):
        block = region.blocks.first
        if block is None or not isinstance(block.last_op, scf.YieldOp):
            return None
        found.append(block.last_op)
    return found


class TrivialIfToSelect(RewritePattern):
    """ConvertTrivialIfToSelect: a result both branches take from outside the if is `arith.select` of the
    condition (the value itself when both are the same); the if keeps only the others."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, scf.IfOp) or not op.results:
            return
        yields = _yields(op)
        if yields is None:
            return
        then_yield, else_yield = yields
        pairs = list(zip(then_yield.operands, else_yield.operands, strict=True))
        inside = [_defined_in(t, op.true_region) or _defined_in(f, op.false_region) for t, f in pairs]
        if all(inside):
            return
        kept = [i for i, stays in enumerate(inside) if stays]
        then_yield.operands = [pairs[i][0] for i in kept]
        else_yield.operands = [pairs[i][1] for i in kept]
        new = scf.IfOp.create(operands=list(op.operands), result_types=[op.results[i].type for i in kept],
                              attributes=dict(op.attributes), properties=dict(op.properties),
                              regions=[rewriter.move_region_contents_to_new_regions(r) for r in op.regions])
        rewriter.insert(new, InsertPoint.before(op))
        position = {i: k for k, i in enumerate(kept)}
        for i, result in enumerate(op.results):
            true_value, false_value = pairs[i]
            if i in position:
                copy_name(result, new.results[position[i]])
                replace_uses(result, new.results[position[i]], rewriter)
            elif true_value is false_value:
                replace_uses(result, true_value, rewriter)
            else:
                select = arith.SelectOp.create(operands=[op.operands[0], true_value, false_value],
                                               result_types=[result.type])
                rewriter.insert(select, InsertPoint.before(new))
                copy_name(result, select.results[0])
                replace_uses(result, select.results[0], rewriter)
        rewriter.erase(op)


class RemoveEmptyElse(RewritePattern):
    """RemoveEmptyElseBranch: an if without results whose else holds only its yield loses the else."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, scf.IfOp) or op.results:
            return
        block = op.false_region.blocks.first
        if block is not None and isinstance(block.first_op, scf.YieldOp) and not block.first_op.operands:
            rewriter.erase(block.first_op)  # through the rewriter, so that the walker forgets it
            op.false_region.erase_block(block)
            rewriter.notify_op_modified(op)


# -- arith --------------------------------------------------------------------------------------------------

_CMPI = {
    "eq": lambda a, b, w: a == b, "ne": lambda a, b, w: a != b,
    "slt": lambda a, b, w: a < b, "sle": lambda a, b, w: a <= b,
    "sgt": lambda a, b, w: a > b, "sge": lambda a, b, w: a >= b,
    "ult": lambda a, b, w: a % (1 << w) < b % (1 << w), "ule": lambda a, b, w: a % (1 << w) <= b % (1 << w),
    "ugt": lambda a, b, w: a % (1 << w) > b % (1 << w), "uge": lambda a, b, w: a % (1 << w) >= b % (1 << w),
}
_REFLEXIVE = ("eq", "sle", "sge", "ule", "uge")  # x <pred> x holds


def _i1_constant(truth: bool, result_type: Attribute) -> arith.ConstantOp:
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


def _integer_width(t: Attribute) -> int | None:
    element = t.element_type if isinstance(t, TensorType) else t
    return element.width.data if isinstance(element, IntegerType) else None


def _wrapped(value: int, width: int) -> int:
    """`value` as a signed integer of `width` bits (two's complement)."""
    value &= (1 << width) - 1
    return value - (1 << width) if width > 1 and value >= 1 << (width - 1) else value


def _integer_constant(value: int, result_type: Attribute) -> arith.ConstantOp:
    if isinstance(result_type, TensorType):
        return arith.ConstantOp(DenseElementsAttr.splat(value, result_type))
    if not isinstance(result_type, IntegerType | IndexType):
        raise TypeError(f"an integer constant of type {result_type}")
    return arith.ConstantOp(IntegerAttr(value, result_type))


def _int_constant(value: SSAValue) -> int | None:
    c = constant_value(value)
    return c if isinstance(c, int) and not isinstance(c, bool) else None


_ADD_SUB = (arith.AddIOp, arith.SubIOp)


class ReassociateConstants(RewritePattern):
    """The arith canonicalizations that merge two constants across an add/sub chain (ArithCanonicalization.td):
    (x + a) + b -> x + (a + b), (x - a) + b -> x + (b - a), (a - x) + b -> (a + b) - x, (x + a) - b ->
    x + (a - b), b - (x + a) -> (b - a) - x, (x - a) - b -> x - (a + b), (a - x) - b -> (a - b) - x,
    b - (x - a) -> (a + b) - x, b - (a - x) -> x + (b - a); and (x * a) * b -> x * (a * b), on scalars (the real
    3.1.0 and 3.9.0 leave splat-constant chains alone).  Ops with overflow flags are left alone."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, (*_ADD_SUB, arith.MulIOp)) or op.properties.get("overflowFlags") is not None:
            return
        width = _integer_width(op.results[0].type)
        if width is None or isinstance(op.results[0].type, TensorType):
            return  # MLIR's patterns match scalar (APInt) constants only: tensors keep their chains
        outer_is_add = isinstance(op, arith.AddIOp)
        lhs, rhs = op.operands
        for inner_value, b, outer_const_on_left in ((lhs, _int_constant(rhs), False), (rhs, _int_constant(lhs), True)):
            inner = inner_value.owner
            if not isinstance(inner, Operation) or b is None or type(inner) not in (
                    (arith.MulIOp,) if isinstance(op, arith.MulIOp) else _ADD_SUB):
                continue
            if outer_const_on_left and outer_is_add or inner.properties.get("overflowFlags") is not None:
                continue  # b + (...) is written (...) + b by MLIR's constant-to-the-right rule first
            a_left, a_right = (_int_constant(v) for v in inner.operands)
            rewritten = self._rewrite(op, inner, b, a_right, a_left, outer_const_on_left)
            if rewritten is None:
                continue
            value, x, form = rewritten
            constant = _integer_constant(_wrapped(value, width), op.results[0].type)
            cls: type[Operation] = {"x+c": arith.AddIOp, "x-c": arith.SubIOp, "c-x": arith.SubIOp}.get(form, arith.MulIOp)
            operands = [constant.result, x] if form == "c-x" else [x, constant.result]
            new = cls.create(operands=operands, result_types=[op.results[0].type])
            rewriter.insert(constant, InsertPoint.before(op))
            replace_keeping_names(rewriter, op, new)
            return

    @staticmethod
    def _rewrite(op: Operation, inner: Operation, b: int, a_right: int | None, a_left: int | None,
                 b_on_left: bool) -> tuple[int, SSAValue, str] | None:
        """(new constant, x, form) for the row of REASSOCIATIONS that matches, else None."""
        inner_kind = "mul" if isinstance(inner, arith.MulIOp) else "add" if isinstance(inner, arith.AddIOp) else "sub"
        outer_kind = "mul" if isinstance(op, arith.MulIOp) else "add" if isinstance(op, arith.AddIOp) else "sub"
        for (outer, inner_row, a_side, b_left), (combine, form) in REASSOCIATIONS.items():
            a = a_right if a_side == "right" else a_left
            if (outer, inner_row, b_left) == (outer_kind, inner_kind, b_on_left) and a is not None:
                x = inner.operands[0] if a_side == "right" else inner.operands[1]
                return combine(a, b), x, form
        return None


# (outer op, inner op, side of the inner constant a, outer constant b on the left) -> (new constant, form):
# the rows of ArithCanonicalization.td, x the inner op's other operand
REASSOCIATIONS = {
    ("add", "add", "right", False): (lambda a, b: a + b, "x+c"),  # (x + a) + b
    ("add", "sub", "right", False): (lambda a, b: b - a, "x+c"),  # (x - a) + b
    ("add", "sub", "left", False): (lambda a, b: a + b, "c-x"),  # (a - x) + b
    ("sub", "add", "right", False): (lambda a, b: a - b, "x+c"),  # (x + a) - b
    ("sub", "sub", "right", False): (lambda a, b: a + b, "x-c"),  # (x - a) - b
    ("sub", "sub", "left", False): (lambda a, b: a - b, "c-x"),  # (a - x) - b
    ("sub", "add", "right", True): (lambda a, b: b - a, "c-x"),  # b - (x + a)
    ("sub", "sub", "right", True): (lambda a, b: a + b, "c-x"),  # b - (x - a)
    ("sub", "sub", "left", True): (lambda a, b: b - a, "x+c"),  # b - (a - x)
    ("mul", "mul", "right", False): (lambda a, b: a * b, "x*c"),  # (x * a) * b
}


COMMUTATIVE = tuple(arith.INT_BINARY_OPS[n] for n in ("addi", "muli", "andi", "ori", "xori", "maxsi", "maxui", "minsi",
                                                        "minui")) + tuple(
    arith.FLOAT_BINARY_OPS[n] for n in ("addf", "mulf", "maxnumf", "minnumf", "maximumf", "minimumf"))


class ConstantToTheRight(RewritePattern):
    """MLIR's folder for commutative ops: a constant operand goes to the right (`c + x` is `x + c`)."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, COMMUTATIVE):
            return
        lhs, rhs = op.operands
        if isinstance(lhs.owner, arith.ConstantOp) and not isinstance(rhs.owner, arith.ConstantOp):
            op.operands = [rhs, lhs]
            rewriter.notify_op_modified(op)


def patterns_for(release: tuple[int, int, int]) -> list[RewritePattern]:
    """These patterns as the MLIR of Triton `release` has them: Triton 3.1's keeps duplicate loop-carried
    values (measured: the real 3.1.0 canonicalize keeps them, 3.3.1 on merge them; 3.2 was not run)."""
    return [ForOpIterArgsFolder(merge_duplicates=release >= (3, 2, 0)), IfUnusedResults(), TrivialIfToSelect(),
            RemoveEmptyElse(), FoldCmpI(), FoldSelect(),
            ReassociateConstants(), ConstantToTheRight()]
