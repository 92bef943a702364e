"""AxisInfo as upstream Triton main has it (lib/Analysis/AxisInfo.cpp at 63068fcc, August 2026).

Triton's rules changed many times after the 3.1 rules of `axis_info` (docs/passes/test-print-alignment.md
lists them with the upstream change of each).  This module holds the newest set, which Triton 3.9.0 has (a release of that main: its
coalesce ends runs at pointer bitcasts, #11314, where 3.8.0's does not); `-test-print-alignment` applies it
to a module in the `ttg.*` spelling, from 3.9 and for `version=main`, and coalesce from 3.9.  `axis_info`
keeps the 3.1 and 3.7-3.8 tables:

* constants are read sign-extended (#9613: `-8 : i32` is -8, divisible by 8);
* a binary op whose result is a known constant is constant over the whole result shape;
* `subi` is contiguous only where the lhs is and the rhs is constant (a run minus a run is not);
* `x / 2^k` keeps `div(x) / 2^k` where x has unit contiguity (#6657); `x % y` keeps divisibility only
  where y is partly constant (#7441); `x * 0` is 0;
* max/min and select join their operands by gcd, bounding divisibility by contiguity where the two
  differ (#7781), a tensor condition clamping it further (#10359);
* `tt.trans` permutes the three vectors (#8226); a pointer bitcast between element widths ends the runs
  (#11314); `arith.index_cast` is not a cast AxisInfo knows;
* the lattice (`AxisRules`): every value's divisibility is at least that of its unit-contiguity
  dimensions (#10575), joins bound divisibility by differing contiguities, ops in dead code get the
  pessimistic state and only rank-1 facts reach a callee's arguments.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.dialects.builtin import (
    IndexType,
    IntegerAttr,
    IntegerType,
    TensorType,
    UnrealizedConversionCastOp,
)
from xdsl.ir import Operation

from irkit.analysis.axis_info import (
    MAX_DIVISOR,
    VISITORS_39,
    AxisInfo,
    AxisRules,
    Visitor,
    _add_constant,
    _addptr_elem_bytes,
    _cmpi_predicate,
    _compare,
    _constants,
    _div_constancy,
    _div_contiguity,
    _int_width,
    _is_constant_dim,
    _is_contiguous_dim,
    _is_one,
    _logical_constant,
    _mul_contiguity,
    _mul_divisibility,
    _result_shape,
    _shape_of,
    _shift_contiguity,
    _shl_constant,
    _shr_constant,
    _shr_divisibility,
    _trunc_div,
    _trunc_rem,
    gcd,
    highest_pow2_divisor,
    info_rank,
    multiply_divisor,
    pointee_bit_width,
    reshape_axis_info,
    to_int64,
)
from irkit.analysis.triton_versions import is_at_least, is_main
from irkit.dialects.arith import (
    AddIOp,
    AndIOp,
    CmpIOp,
    ConstantOp,
    DivSIOp,
    DivUIOp,
    IndexCastOp,
    MaxSIOp,
    MaxUIOp,
    MinSIOp,
    MinUIOp,
    MulIOp,
    OrIOp,
    RemSIOp,
    RemUIOp,
    SelectOp,
    ShLIOp,
    ShRSIOp,
    ShRUIOp,
    SubIOp,
    XOrIOp,
)
from irkit.dialects.builtin_extras import DenseElementsAttr
from irkit.dialects.tt import AddPtrOp, BitcastOp, ReshapeOp, TransOp
from irkit.dialects.types import PointerType

Rule = Callable[[Operation, AxisInfo, AxisInfo, int], int]


# -- the lattice ---------------------------------------------------------------------------------


def global_divisibility(info: AxisInfo) -> int:
    """AxisInfo::getGlobalDivisibility: every element of a unit-contiguity dimension starts a run, so its
    divisibility holds for every element."""
    return max([1, *(v for c, v in zip(info.contiguity, info.divisibility) if c == 1)])


def normalize(info: AxisInfo) -> AxisInfo:
    """The AxisInfo constructor of #10575: no dimension's divisibility below the global one."""
    g = global_divisibility(info)
    if all(v >= g for v in info.divisibility):
        return info
    return AxisInfo(info.contiguity, tuple(max(v, g) for v in info.divisibility), info.constancy, info.constant)


def divisibility_from_contiguity(lhs: AxisInfo, rhs: AxisInfo, d: int) -> int:
    """getDivisibilityFromContiguity: where the two contiguities differ, runs of the shorter start inside
    the longer, so the divisibility is bounded by both contiguities too (an unresolved one, 2^62, aside)."""
    lc, rc = lhs.contiguity[d], rhs.contiguity[d]
    if lc == rc or MAX_DIVISOR in (lc, rc):
        return gcd(lhs.divisibility[d], rhs.divisibility[d])
    return gcd(lhs.divisibility[d], rhs.divisibility[d], lc, rc)


def join(lhs: AxisInfo, rhs: AxisInfo | None) -> AxisInfo:
    """AxisInfo::join of main."""
    if rhs is None or rhs.rank == 0:
        return lhs
    if lhs.rank == 0:
        return rhs
    dims = range(lhs.rank)
    constant = lhs.constant if lhs.constant is not None and lhs.constant == rhs.constant else None
    return AxisInfo(
        tuple(gcd(lhs.contiguity[d], rhs.contiguity[d]) for d in dims),
        tuple(divisibility_from_contiguity(lhs, rhs, d) for d in dims),
        tuple(gcd(lhs.constancy[d], rhs.constancy[d]) for d in dims),
        constant,
    )


# -- binary ops ----------------------------------------------------------------------------------


def _constant_result(op: Operation, rank: int, value: int) -> AxisInfo:
    """A known constant: one run per element, constant over the whole result."""
    shape = _result_shape(op)
    constancy = tuple(shape) if shape is not None else (1,) * rank
    return AxisInfo((1,) * rank, (highest_pow2_divisor(value),) * rank, constancy, value)


def _binary(
    contiguity: Rule | None = None,
    divisibility: Rule | None = None,
    constancy: Rule | None = None,
    constant: Callable[[Operation, AxisInfo, AxisInfo], int | None] | None = None,
) -> Visitor:
    """BinaryOpVisitorImpl of main (a constant result is constant over the result's shape)."""

    def visit(op: Operation, ins: Sequence[AxisInfo]) -> AxisInfo:
        lhs, rhs = ins[0], ins[1]
        value = constant(op, lhs, rhs) if constant else None
        if value is not None:
            return _constant_result(op, lhs.rank, to_int64(value))
        dims = range(lhs.rank)
        return AxisInfo(
            tuple(contiguity(op, lhs, rhs, d) if contiguity else 1 for d in dims),
            tuple(divisibility(op, lhs, rhs, d) if divisibility else 1 for d in dims),
            tuple(constancy(op, lhs, rhs, d) if constancy else gcd(lhs.constancy[d], rhs.constancy[d])
                  for d in dims),
        )

    return visit


def _add_sub_contiguity(op: Operation, lhs: AxisInfo, rhs: AxisInfo, d: int) -> int:
    if isinstance(op, SubIOp):  # (x + t) - (y + t) is flat and x - (y + t) decreasing: only x + t - y counts
        return gcd(lhs.contiguity[d], rhs.constancy[d])
    return max(gcd(lhs.constancy[d], rhs.contiguity[d]), gcd(lhs.contiguity[d], rhs.constancy[d]))


def _add_sub_divisibility(op: Operation, lhs: AxisInfo, rhs: AxisInfo, d: int) -> int:
    """#9297 (as in axis_info's 3.7 table), bounded by main's subi contiguity."""
    elem = _addptr_elem_bytes(op) if isinstance(op, AddPtrOp) else 1
    lhs_div, rhs_div = lhs.divisibility[d], multiply_divisor(rhs.divisibility[d], elem)
    if lhs.contiguity[d] > 1 and rhs.contiguity[d] > 1:
        if isinstance(op, SubIOp) and lhs.contiguity[d] == rhs.contiguity[d]:
            return gcd(lhs_div, rhs_div)
        return 2 if lhs_div % 2 == 0 and rhs_div % 2 == 0 else 1
    if lhs.contiguity[d] > 1 or rhs.contiguity[d] > 1:
        return gcd(lhs_div, rhs_div, multiply_divisor(_add_sub_contiguity(op, lhs, rhs, d), elem))
    return gcd(lhs_div, rhs_div)


def _mul_constant(op: Operation, lhs: AxisInfo, rhs: AxisInfo) -> int | None:
    if (c := _constants(lhs, rhs)) is not None:
        return c[0] * c[1]
    return 0 if 0 in (lhs.constant, rhs.constant) else None


def _div_divisibility(op: Operation, lhs: AxisInfo, rhs: AxisInfo, d: int) -> int:
    if lhs.constant == 0 or _is_one(rhs):
        return lhs.divisibility[d]
    divisor = abs(rhs.constant) if rhs.constant is not None else 0
    if divisor and divisor & (divisor - 1) == 0 and lhs.contiguity[d] == 1:  # #6657: by a power of two
        return max(1, lhs.divisibility[d] // divisor)
    return 1


def _div_constant(op: Operation, lhs: AxisInfo, rhs: AxisInfo) -> int | None:
    if (c := _constants(lhs, rhs)) is not None and c[1] != 0:
        return _trunc_div(c[0], c[1])
    return None


def _rem_contiguity(op: Operation, lhs: AxisInfo, rhs: AxisInfo, d: int) -> int:
    shape = _result_shape(op)
    if shape is not None and _is_contiguous_dim(lhs, shape, d) and _is_constant_dim(rhs, shape, d):
        return gcd(lhs.contiguity[d], lhs.divisibility[d], rhs.divisibility[d])
    return 1


def _rem_divisibility(op: Operation, lhs: AxisInfo, rhs: AxisInfo, d: int) -> int:
    # #7441: [2, 2, 4, 4] % [0, 1, 2, 3] is [0, 0, 0, 1]
    return gcd(lhs.divisibility[d], rhs.divisibility[d]) if rhs.constancy[d] > 1 else 1


def _rem_constancy(op: Operation, lhs: AxisInfo, rhs: AxisInfo, d: int) -> int:
    shape = _result_shape(op)
    if shape is not None and _is_one(rhs):
        return shape[d]
    return gcd(lhs.constancy[d], rhs.constancy[d])


def _rem_constant(op: Operation, lhs: AxisInfo, rhs: AxisInfo) -> int | None:
    if (c := _constants(lhs, rhs)) is not None and c[1] != 0:
        return _trunc_rem(c[0], c[1])
    return 0 if _is_one(rhs) else None


def _shl_divisibility(op: Operation, lhs: AxisInfo, rhs: AxisInfo, d: int) -> int:
    shift = rhs.constant if rhs.constant is not None else 0
    lhs_div = 1 if lhs.contiguity[d] > 1 and shift else lhs.divisibility[d]
    return multiply_divisor(lhs_div, 1 << shift) if 0 <= shift < 63 else MAX_DIVISOR


# -- the other rules -----------------------------------------------------------------------------


def _visit_constant(op: Operation, ins: Sequence[AxisInfo]) -> AxisInfo | None:
    """Sign-extended since #9613 (`true : i1` reads as -1, as APInt::getSExtValue gives)."""
    attr = op.properties.get("value")
    if isinstance(attr, IntegerAttr) and isinstance(attr.type, (IntegerType, IndexType)):
        v = _sext(attr.value.data, _int_width(attr.type))
        return AxisInfo((1,), (highest_pow2_divisor(v),), (1,), v)
    if (
        isinstance(attr, DenseElementsAttr)
        and attr.is_splat
        and isinstance(attr.type, TensorType)
        and isinstance(attr.type.element_type, (IntegerType, IndexType))
    ):
        splat = attr.splat_value()
        assert splat is not None  # a splat of integers
        v = _sext(int(splat), _int_width(attr.type))
        shape = tuple(attr.type.get_shape())
        return AxisInfo((1,) * len(shape), (highest_pow2_divisor(v),) * len(shape), shape, v)
    return None


def _sext(value: int, width: int) -> int:
    value &= (1 << width) - 1
    return to_int64(value - (1 << width) if value >> (width - 1) else value)


def _visit_max_min(op: Operation, ins: Sequence[AxisInfo]) -> AxisInfo:
    lhs, rhs = ins[0], ins[1]
    if (c := _constants(lhs, rhs)) is not None:
        pick = max if isinstance(op, (MaxSIOp, MaxUIOp)) else min
        return _constant_result(op, lhs.rank, pick(c[0], c[1]))
    dims = range(lhs.rank)
    return AxisInfo(
        tuple(gcd(lhs.contiguity[d], rhs.contiguity[d]) for d in dims),
        tuple(divisibility_from_contiguity(lhs, rhs, d) for d in dims),
        tuple(gcd(lhs.constancy[d], rhs.constancy[d]) for d in dims),
    )


def _visit_select(op: Operation, ins: Sequence[AxisInfo]) -> AxisInfo:
    cond, lhs, rhs = ins[0], ins[1], ins[2]
    if cond.constant is not None:
        return rhs if cond.constant == 0 else lhs
    scalar_cond = isinstance(op.operands[0].type, IntegerType)  # the whole of one side is taken
    contiguity: list[int] = []
    divisibility: list[int] = []
    constancy: list[int] = []
    for d in range(lhs.rank):
        c = 0 if scalar_cond else cond.constancy[d]  # gcd's identity
        constancy.append(gcd(lhs.constancy[d], rhs.constancy[d], c))
        contiguity.append(gcd(lhs.contiguity[d], rhs.contiguity[d], c))
        div = divisibility_from_contiguity(lhs, rhs, d)
        divisibility.append(div if scalar_cond else gcd(div, contiguity[-1]))  # #10359
    value = lhs.constant if (pair := _constants(lhs, rhs)) is not None and pair[0] == pair[1] else None
    if value is not None:
        shape = _result_shape(op)
        constancy = list(shape) if shape is not None else [1] * lhs.rank
    return AxisInfo(tuple(contiguity), tuple(divisibility), tuple(constancy), value)


def _visit_cmpi(op: Operation, ins: Sequence[AxisInfo]) -> AxisInfo | None:
    """As 3.1's, but a comparison of two constants is constant over the whole result."""
    shape = _result_shape(op)
    if shape is None:
        return None
    lhs, rhs = ins[0], ins[1]
    pred = _cmpi_predicate(op)
    rank = len(shape)
    if (c := _constants(lhs, rhs)) is not None:
        return AxisInfo((1,) * rank, (1,) * rank, tuple(shape), 1 if _compare(pred, c[0], c[1]) else 0)
    constancy: list[int] = []
    for d in range(rank):
        hint = gcd(lhs.constancy[d], rhs.constancy[d])
        if pred in ("sgt", "ugt", "sle", "ule") and _is_constant_dim(lhs, shape, d):
            hint = max(hint, gcd(rhs.contiguity[d], lhs.divisibility[d], rhs.divisibility[d]))
        elif pred in ("slt", "ult", "sge", "uge") and _is_constant_dim(rhs, shape, d):
            hint = max(hint, gcd(lhs.contiguity[d], lhs.divisibility[d], rhs.divisibility[d]))
        constancy.append(hint)
    return AxisInfo((1,) * rank, (1,) * rank, tuple(constancy))


def _visit_trans(op: Operation, ins: Sequence[AxisInfo]) -> AxisInfo:
    """#8226: the result's dimension d is the source's order[d]."""
    src = ins[0]
    order = [int(v) for v in op.properties["order"].get_values()]  # type: ignore[attr-defined]
    return AxisInfo(
        tuple(src.contiguity[o] for o in order),
        tuple(src.divisibility[o] for o in order),
        tuple(src.constancy[o] for o in order),
        src.constant,
    )


def _visit_bitcast(op: Operation, ins: Sequence[AxisInfo]) -> AxisInfo:
    """#11314: a pointer bitcast to another element width ends every run; each former element, now the
    base of a group, keeps the source element's alignment."""
    info = ins[0]
    src_type, dst_type = op.operands[0].type, op.results[0].type
    src_elem = src_type.element_type if isinstance(src_type, TensorType) else src_type
    if not isinstance(src_elem, PointerType):
        return info
    src_bytes = max(1, pointee_bit_width(src_type) // 8)
    if src_bytes == max(1, pointee_bit_width(dst_type) // 8):
        return info
    divisibility = tuple(gcd(v, src_bytes) if c > 1 else v for c, v in zip(info.contiguity, info.divisibility))
    return AxisInfo((1,) * info.rank, divisibility, info.constancy, info.constant)


def _visit_reshape(op: Operation, ins: Sequence[AxisInfo]) -> AxisInfo:
    """ReshapeOpAxisInfoVisitor of main: 3.9's, every destination dim seeded with the source's global
    divisibility (#10575), which a reshape could otherwise lose with the axis that carried it."""
    src = ins[0]
    return reshape_axis_info(src, _shape_of(op.operands[0]), _shape_of(op.results[0]), global_divisibility(src))


def _visit_unrealized_cast(op: Operation, ins: Sequence[AxisInfo]) -> AxisInfo | None:
    """A cast to a tensor of another rank gives nothing (its AxisInfo would have the wrong rank)."""
    result = op.results[0].type
    if isinstance(result, TensorType) and info_rank(result) != ins[0].rank:
        return None
    return ins[0]


VISITORS_MAIN: dict[type[Operation], Visitor] = {
    **{k: v for k, v in VISITORS_39.items() if k is not IndexCastOp},
    UnrealizedConversionCastOp: _visit_unrealized_cast,
    BitcastOp: _visit_bitcast,
    ConstantOp: _visit_constant,
    **dict.fromkeys((AddPtrOp, AddIOp, SubIOp),
                    _binary(_add_sub_contiguity, _add_sub_divisibility, constant=_add_constant)),
    MulIOp: _binary(_mul_contiguity, _mul_divisibility, constant=_mul_constant),
    **dict.fromkeys((DivSIOp, DivUIOp), _binary(_div_contiguity, _div_divisibility, _div_constancy, _div_constant)),
    **dict.fromkeys((RemSIOp, RemUIOp), _binary(_rem_contiguity, _rem_divisibility, _rem_constancy, _rem_constant)),
    **dict.fromkeys((ShLIOp,), _binary(_shift_contiguity, _shl_divisibility, constant=_shl_constant)),
    **dict.fromkeys((ShRUIOp, ShRSIOp), _binary(_shift_contiguity, _shr_divisibility, constant=_shr_constant)),
    **dict.fromkeys((AndIOp, OrIOp, XOrIOp), _binary(constant=_logical_constant)),
    **dict.fromkeys((MaxSIOp, MaxUIOp, MinSIOp, MinUIOp), _visit_max_min),
    SelectOp: _visit_select,
    CmpIOp: _visit_cmpi,
    TransOp: _visit_trans,
    ReshapeOp: _visit_reshape,
}
"""Main's rules; the ops not named here (make_range, splat, load, expand_dims, broadcast, reshape, the
casts) keep the 3.7-3.9 table's."""

RULES_MAIN = AxisRules(VISITORS_MAIN, normalize=normalize, join=join, pessimistic_unreached=True,
                       rank1_callee_hints=True, partition_captures=True)


def axis_rules(version: str | None) -> AxisRules | str | None:
    """What AxisInfoAnalysis takes for a Triton version: main's rules from 3.9 on (and for `main`), else
    the version itself (3.1's rules up to 3.6, 3.7-3.8's from 3.7).  3.9.0 is a release of the main of
    August 2026: its coalesce ends the runs at a pointer bitcast to another width (#11314, 2026-08-14), as
    3.8.0's does not (measured)."""
    if version is None:
        return None
    return RULES_MAIN if is_main(version) or is_at_least(version, (3, 9)) else version
