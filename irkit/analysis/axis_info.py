"""Triton's AxisInfo analysis (Triton 3.1): what is known about the values of every integer or pointer.

For each SSA value and each tensor dimension `d` (scalars have one dimension):

* `contiguity[d]`: the values come in runs of this many consecutive integers (`x, x+1, ...`) along `d`;
* `divisibility[d]`: the first value of every run is a multiple of this power of two (pointers: in bytes);
* `constancy[d]`: the values come in runs of this many equal values along `d`;
* `constant`: the value itself when every element is the same known integer.

This mirrors `lib/Analysis/AxisInfo.cpp` (`AxisInfoAnalysis` and `ModuleAxisInfoAnalysis`) at Triton 3.1
(docs/triton-passes.md §4.2): one rule per op kind ("visitor"), the lattice join is the per-dimension gcd,
control flow (scf.for / scf.if / scf.while) is iterated to a fixed point, kernel arguments are seeded from
their `tt.divisibility` / `tt.contiguity` / `tt.constancy` attributes, ops carrying those attributes (what
`tl.multiple_of` / `tl.max_contiguous` leave behind) have them override the rule, and call sites
refine the arguments of the functions they call.

The analysis reads the IR and never changes it: the attributes that the C++ analysis writes onto the
arguments of called functions are reported by `AxisInfoAnalysis.callee_arg_hints` instead.

Facts of the real Triton 3.1.0 binary that decide some corner cases (checked by running its coalesce
pass on hand-written IR):

* `arith.subi` has the same contiguity rule as `arith.addi` (later Triton refuses a contiguous rhs);
* the scf.for induction variable has divisibility gcd(lower bound, step) and contiguity/constancy 1;
* `tt.make_range` with start 0 has divisibility 2^30 (its start is an unsigned 32-bit number).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from math import gcd as _std_gcd

from xdsl.dialects import scf
from xdsl.dialects.builtin import (
    ArrayAttr,
    DictionaryAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    StringAttr,
    TensorType,
    UnrealizedConversionCastOp,
)
from xdsl.ir import Attribute, Block, BlockArgument, Operation, OpResult, SSAValue

from irkit.analysis.walk import terminator
from irkit.dialects.arith import (
    AddIOp,
    AndIOp,
    CmpIOp,
    ConstantOp,
    DivSIOp,
    DivUIOp,
    ExtSIOp,
    ExtUIOp,
    IndexCastOp,
    MaxSIOp,
    MaxUIOp,
    MinSIOp,
    MinUIOp,
    MulIOp,
    OrIOp,
    PoisonOp,
    RemSIOp,
    RemUIOp,
    SelectOp,
    ShLIOp,
    ShRSIOp,
    ShRUIOp,
    SubIOp,
    TruncIOp,
    XOrIOp,
)
from irkit.dialects.builtin_extras import DenseElementsAttr
from irkit.dialects.families import CALL_OPS, FUNCTION_OPS, REGION_BRANCH_OPS, REGION_TERMINATORS
from irkit.dialects.tt import (
    AddPtrOp,
    BitcastOp,
    BroadcastOp,
    ExpandDimsOp,
    LoadOp,
    MakeRangeOp,
    ReshapeOp,
    SplatOp,
)
from irkit.dialects.ttg import ConvertLayoutOp, WarpSpecializePartitionsOp
from irkit.dialects.types import PointerType
from irkit.layout.algebra import elem_bits
from irkit.walk import walk_ops

MAX_DIVISOR = 1 << 62
"""highestPowOf2Divisor<int64_t>(0): the lattice top ("unknown yet, could be anything")."""

HINT_ATTRS = ("tt.contiguity", "tt.divisibility", "tt.constancy")

_INT64_MASK = (1 << 64) - 1


# ---------------------------------------------------------------------------------------------
# Integer helpers with C++ int64 semantics
# ---------------------------------------------------------------------------------------------


def to_int64(v: int) -> int:
    """Wrap to a signed 64-bit integer, as the C++ analysis stores every value."""
    v &= _INT64_MASK
    return v - (1 << 64) if v >> 63 else v


def highest_pow2_divisor(n: int) -> int:
    """The largest power of two dividing `n`; 2^62 for 0 (any power of two divides 0) and for INT64_MIN,
    whose true divisor 2^63 does not fit in an int64 (Triton #4562; the 3.1.0 binary overflows there)."""
    if n == 0 or to_int64(n) == -(1 << 63):
        return MAX_DIVISOR
    return n & -n


def _highest_pow2_divisor_u32(n: int) -> int:
    """highestPowOf2Divisor<uint32_t>: what make_range's (unsigned 32-bit) start gives; 2^30 for 0."""
    n &= 0xFFFFFFFF
    if n == 0:
        return 1 << 30
    return n & -n


def gcd(*values: int) -> int:
    """Triton's gcd: 0 is the identity (gcd(0, b) = b)."""
    out = 0
    for v in values:
        if out == 0:
            out = v
        elif v != 0:
            out = _std_gcd(out, v)
    return out


def multiply_divisor(lhs: int, rhs: int) -> int:
    """lhs * rhs, saturating at 2^62."""
    if rhs > 0 and lhs > MAX_DIVISOR // rhs:
        return MAX_DIVISOR
    return lhs * rhs


def _trunc_div(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def _trunc_rem(a: int, b: int) -> int:
    return a - b * _trunc_div(a, b)


# ---------------------------------------------------------------------------------------------
# The lattice element
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class AxisInfo:
    """What is known about one value, per dimension (see the module docstring)."""

    contiguity: tuple[int, ...]
    divisibility: tuple[int, ...]
    constancy: tuple[int, ...]
    constant: int | None = None

    @property
    def rank(self) -> int:
        return len(self.contiguity)

    @staticmethod
    def uniform(rank: int, contiguity: int, divisibility: int, constancy: int) -> AxisInfo:
        return AxisInfo((contiguity,) * rank, (divisibility,) * rank, (constancy,) * rank)

    @staticmethod
    def pessimistic(rank: int) -> AxisInfo:
        """Nothing known: runs of one element, divisible by 1."""
        return AxisInfo.uniform(rank, 1, 1, 1)

    @staticmethod
    def top(rank: int) -> AxisInfo:
        """The optimistic start of control-flow values (AxisInfo::getPessimisticValueState of a region
        argument or result of scf.for / scf.if / scf.while)."""
        return AxisInfo.uniform(rank, MAX_DIVISOR, MAX_DIVISOR, MAX_DIVISOR)

    def join(self, other: AxisInfo | None) -> AxisInfo:
        """AxisInfo::join: per-dimension gcd; the constant survives only if both agree."""
        if other is None or other.rank == 0:
            return self
        if self.rank == 0:
            return other
        return AxisInfo(
            tuple(gcd(a, b) for a, b in zip(self.contiguity, other.contiguity)),
            tuple(gcd(a, b) for a, b in zip(self.divisibility, other.divisibility)),
            tuple(gcd(a, b) for a, b in zip(self.constancy, other.constancy)),
            self.constant if self.constant is not None and self.constant == other.constant else None,
        )

    def __str__(self) -> str:
        text = (
            f"contiguity = {list(self.contiguity)}, divisibility = {list(self.divisibility)}, "
            f"constancy = {list(self.constancy)}"
        )
        return text + (f", constant_value = {self.constant}" if self.constant is not None else "")


# ---------------------------------------------------------------------------------------------
# Types and attributes
# ---------------------------------------------------------------------------------------------


def tensor_shape(t: Attribute) -> tuple[int, ...] | None:
    return tuple(t.get_shape()) if isinstance(t, TensorType) else None


def _shape_of(value: SSAValue) -> tuple[int, ...]:
    """The shape of a value the op's verifier already made a tensor."""
    shape = tensor_shape(value.type)
    assert shape is not None
    return shape


def _int_property(op: Operation, name: str) -> int:
    attr = op.properties[name]
    assert isinstance(attr, IntegerAttr)
    return attr.value.data


def info_rank(t: Attribute) -> int:
    """Rank of the AxisInfo of a value of type `t`: tensor rank, block-pointer tensor rank, else 1."""
    if isinstance(t, TensorType):
        return len(t.get_shape())
    if isinstance(t, PointerType) and isinstance(t.pointee, TensorType):
        return len(t.pointee.get_shape())
    return 1


def pointee_bit_width(t: Attribute) -> int:
    """getPointeeBitWidth: bits of what a (tensor of) pointer(s) points to; pointers to pointers are 64."""
    if isinstance(t, TensorType):
        t = t.element_type
    if isinstance(t, PointerType):
        t = t.pointee
        if isinstance(t, TensorType):
            t = t.element_type
    return _bit_width(t)


def _bit_width(t: Attribute) -> int:
    if isinstance(t, PointerType):
        return 64
    return elem_bits(t)  # raises UnsupportedLayout (a ValueError) for types without a width


def _int_width(t: Attribute) -> int:
    if isinstance(t, TensorType):
        t = t.element_type
    if isinstance(t, IntegerType):
        return t.width.data
    return 64


def integer_attr_value(attr: IntegerAttr) -> int:
    """APInt::getZExtValue stored in an int64, as ConstantOpAxisInfoVisitor reads constants
    (`-1 : i32` is 4294967295, `-1 : i64` is -1, `true` is 1)."""
    width = _int_width(attr.type)
    return to_int64(attr.value.data & ((1 << width) - 1))


def hint_values(attr: Attribute, rank: int) -> tuple[int, ...] | None:
    """The per-dimension numbers of a `tt.divisibility`-like attribute (dense or a single integer)."""
    if isinstance(attr, DenseElementsAttr):
        vals = [int(v) for v in attr.values()]
        if attr.is_splat and isinstance(attr.type, TensorType):
            n = 1
            for d in attr.type.get_shape():
                n *= d
            vals = vals * n
        return tuple(vals)
    if isinstance(attr, IntegerAttr):
        return (integer_attr_value(attr),) * rank
    return None


def _op_hints(op: Operation, info: AxisInfo) -> AxisInfo:
    """Ops carrying tt.contiguity / tt.divisibility / tt.constancy take those values."""
    if not any(name in op.attributes for name in HINT_ATTRS):
        return info
    fields = [info.contiguity, info.divisibility, info.constancy]
    for i, name in enumerate(HINT_ATTRS):
        attr = op.attributes.get(name)
        if attr is not None:
            vals = hint_values(attr, info.rank)
            if vals is not None:
                fields[i] = vals
    return AxisInfo(fields[0], fields[1], fields[2], info.constant)


# ---------------------------------------------------------------------------------------------
# Visitors: one rule per op kind (AxisInfoVisitor subclasses in AxisInfo.cpp)
# ---------------------------------------------------------------------------------------------

Visitor = Callable[[Operation, Sequence[AxisInfo]], "AxisInfo | None"]


def _result_shape(op: Operation) -> tuple[int, ...] | None:
    return tensor_shape(op.results[0].type) if op.results else None


def _is_contiguous_dim(info: AxisInfo, shape: Sequence[int], d: int) -> bool:
    return info.contiguity[d] == shape[d]


def _is_constant_dim(info: AxisInfo, shape: Sequence[int], d: int) -> bool:
    return info.constancy[d] == shape[d]


def _binary(
    contiguity: Callable[[Operation, AxisInfo, AxisInfo, int], int] | None = None,
    divisibility: Callable[[Operation, AxisInfo, AxisInfo, int], int] | None = None,
    constancy: Callable[[Operation, AxisInfo, AxisInfo, int], int] | None = None,
    constant: Callable[[Operation, AxisInfo, AxisInfo], int | None] | None = None,
) -> Visitor:
    """BinaryOpVisitorImpl: a known constant result is (1, hp2(value), max constancy); otherwise the three
    per-dimension rules (each defaulting to 1)."""

    def visit(op: Operation, ins: Sequence[AxisInfo]) -> AxisInfo:
        lhs, rhs = ins[0], ins[1]
        value = constant(op, lhs, rhs) if constant else None
        if value is not None:
            value = to_int64(value)
            rank = lhs.rank
            return AxisInfo(
                (1,) * rank,
                (highest_pow2_divisor(value),) * rank,
                tuple(max(a, b) for a, b in zip(lhs.constancy, rhs.constancy)),
                value,
            )
        dims = range(lhs.rank)
        return AxisInfo(
            tuple(contiguity(op, lhs, rhs, d) if contiguity else 1 for d in dims),
            tuple(divisibility(op, lhs, rhs, d) if divisibility else 1 for d in dims),
            tuple(constancy(op, lhs, rhs, d) if constancy else 1 for d in dims),
        )

    return visit


def _constants(lhs: AxisInfo, rhs: AxisInfo) -> tuple[int, int] | None:
    """Both values' constants; None unless both are constant."""
    if lhs.constant is None or rhs.constant is None:
        return None
    return lhs.constant, rhs.constant


def _gcd_constancy(op, lhs: AxisInfo, rhs: AxisInfo, d: int) -> int:
    return gcd(lhs.constancy[d], rhs.constancy[d])


# -- add / sub / addptr --------------------------------------------------------------------------


def _addptr_elem_bytes(op: Operation) -> int:
    return max(1, pointee_bit_width(op.operands[0].type) // 8)


def _add_contiguity(op, lhs: AxisInfo, rhs: AxisInfo, d: int) -> int:
    # Triton 3.1 treats subi like addi here (measured on the 3.1.0 binary)
    return max(gcd(lhs.constancy[d], rhs.contiguity[d]), gcd(lhs.contiguity[d], rhs.constancy[d]))


def _add_divisibility(op, lhs: AxisInfo, rhs: AxisInfo, d: int) -> int:
    rhs_div = rhs.divisibility[d]
    if isinstance(op, AddPtrOp):
        # offsets count elements, the pointer counts bytes
        rhs_div = multiply_divisor(rhs_div, _addptr_elem_bytes(op))
    return gcd(lhs.divisibility[d], rhs_div)


def _add_constant(op, lhs: AxisInfo, rhs: AxisInfo) -> int | None:
    if (c := _constants(lhs, rhs)) is None:
        return None
    if isinstance(op, AddIOp):
        return c[0] + c[1]
    if isinstance(op, SubIOp):
        return c[0] - c[1]
    return c[0] + c[1] * _addptr_elem_bytes(op)


_visit_add_sub = _binary(_add_contiguity, _add_divisibility, _gcd_constancy, _add_constant)


def _add_divisibility_37(op, lhs: AxisInfo, rhs: AxisInfo, d: int) -> int:
    """Triton #9297 (January 2026; in 3.7 on): divisibility speaks of the first element of each contiguous
    run, so the sum of two contiguous runs (base + 2t) is only known to be even, and a run added to a partly
    constant operand is divisible by no more than the result's runs (in bytes for addptr)."""
    elem = _addptr_elem_bytes(op) if isinstance(op, AddPtrOp) else 1
    lhs_div, rhs_div = lhs.divisibility[d], multiply_divisor(rhs.divisibility[d], elem)
    if lhs.contiguity[d] > 1 and rhs.contiguity[d] > 1:
        if isinstance(op, SubIOp) and lhs.contiguity[d] == rhs.contiguity[d]:
            return gcd(lhs_div, rhs_div)  # (a + t) - (b + t) = a - b
        return 2 if lhs_div % 2 == 0 and rhs_div % 2 == 0 else 1
    if lhs.contiguity[d] > 1 or rhs.contiguity[d] > 1:
        return gcd(lhs_div, rhs_div, multiply_divisor(_add_contiguity(op, lhs, rhs, d), elem))
    return gcd(lhs_div, rhs_div)


_visit_add_sub_37 = _binary(_add_contiguity, _add_divisibility_37, _gcd_constancy, _add_constant)


# -- mul -----------------------------------------------------------------------------------------


def _is_one(info: AxisInfo) -> bool:
    return info.constant is not None and info.constant == 1


def _mul_contiguity(op, lhs: AxisInfo, rhs: AxisInfo, d: int) -> int:
    return max(lhs.contiguity[d] if _is_one(rhs) else 1, rhs.contiguity[d] if _is_one(lhs) else 1)


def _mul_divisibility(op, lhs: AxisInfo, rhs: AxisInfo, d: int) -> int:
    # a run [2^n, 2^n+1, ...] counts as divisible by 1 unless multiplied by the constant 1
    lhs_div = 1 if lhs.contiguity[d] > 1 and not _is_one(rhs) else lhs.divisibility[d]
    rhs_div = 1 if rhs.contiguity[d] > 1 and not _is_one(lhs) else rhs.divisibility[d]
    return multiply_divisor(lhs_div, rhs_div)


def _mul_constant(op, lhs: AxisInfo, rhs: AxisInfo) -> int | None:
    c = _constants(lhs, rhs)
    return None if c is None else c[0] * c[1]


_visit_mul = _binary(_mul_contiguity, _mul_divisibility, _gcd_constancy, _mul_constant)


# -- div / rem -----------------------------------------------------------------------------------


def _div_contiguity(op, lhs: AxisInfo, rhs: AxisInfo, d: int) -> int:
    return lhs.contiguity[d] if _is_one(rhs) else 1


def _div_constancy(op, lhs: AxisInfo, rhs: AxisInfo, d: int) -> int:
    shape = _result_shape(op)
    if shape is None:
        return 1
    constancy = gcd(lhs.constancy[d], rhs.constancy[d])
    # a whole contiguous run divided by one constant: runs of gcd(contig, div_lhs, div_rhs) equal quotients
    if _is_contiguous_dim(lhs, shape, d) and _is_constant_dim(rhs, shape, d):
        constancy = max(constancy, gcd(lhs.contiguity[d], gcd(lhs.divisibility[d], rhs.divisibility[d])))
    return constancy


def _div_divisibility(op, lhs: AxisInfo, rhs: AxisInfo, d: int) -> int:
    if lhs.constant is not None and lhs.constant == 0:
        return lhs.divisibility[d]
    if _is_one(rhs):
        return lhs.divisibility[d]
    return 1


def _div_constant(op, lhs: AxisInfo, rhs: AxisInfo) -> int | None:
    if (c := _constants(lhs, rhs)) is not None and c[1] != 0:
        return _trunc_div(c[0], c[1])
    return None


_visit_div = _binary(_div_contiguity, _div_divisibility, _div_constancy, _div_constant)


def _rem_contiguity(op, lhs: AxisInfo, rhs: AxisInfo, d: int) -> int:
    shape = _result_shape(op)
    if shape is None:
        return 1
    if _is_contiguous_dim(lhs, shape, d) and _is_constant_dim(rhs, shape, d):
        return max(1, gcd(lhs.contiguity[d], gcd(lhs.divisibility[d], rhs.divisibility[d])))
    return 1


def _rem_divisibility(op, lhs: AxisInfo, rhs: AxisInfo, d: int) -> int:
    return gcd(lhs.divisibility[d], rhs.divisibility[d])


def _rem_constancy(op, lhs: AxisInfo, rhs: AxisInfo, d: int) -> int:
    shape = _result_shape(op)
    if shape is None:
        return 1
    if _is_one(rhs):
        return shape[d]
    return gcd(lhs.constancy[d], rhs.constancy[d])


def _rem_constant(op, lhs: AxisInfo, rhs: AxisInfo) -> int | None:
    if (c := _constants(lhs, rhs)) is not None and c[1] != 0:
        return _trunc_rem(c[0], c[1])
    if _is_one(rhs):
        return 0
    return None


_visit_rem = _binary(_rem_contiguity, _rem_divisibility, _rem_constancy, _rem_constant)


# -- logical and shifts --------------------------------------------------------------------------


def _logical_constant(op, lhs: AxisInfo, rhs: AxisInfo) -> int | None:
    if (c := _constants(lhs, rhs)) is None:
        return None
    a, b = c
    if isinstance(op, AndIOp):
        return a & b
    if isinstance(op, OrIOp):
        return a | b
    return a ^ b


_visit_logical = _binary(constancy=_gcd_constancy, constant=_logical_constant)


def _shift_contiguity(op, lhs: AxisInfo, rhs: AxisInfo, d: int) -> int:
    return lhs.contiguity[d] if rhs.constant is not None and rhs.constant == 0 else 1


def _shl_divisibility(op, lhs: AxisInfo, rhs: AxisInfo, d: int) -> int:
    shift = rhs.constant if rhs.constant is not None else 0
    lhs_div = 1 if lhs.contiguity[d] > 1 and shift else lhs.divisibility[d]
    return multiply_divisor(lhs_div, 1 << shift) if 0 <= shift < 63 else MAX_DIVISOR


def _shl_constant(op, lhs: AxisInfo, rhs: AxisInfo) -> int | None:
    if (c := _constants(lhs, rhs)) is not None and 0 <= c[1] < 64:
        return c[0] << c[1]
    return None


def _shr_divisibility(op, lhs: AxisInfo, rhs: AxisInfo, d: int) -> int:
    if rhs.constant is None:
        return 1
    shift = rhs.constant
    lhs_div = 1 if lhs.contiguity[d] > 1 and shift else lhs.divisibility[d]
    if not 0 <= shift < 63:
        return 1
    return max(1, lhs_div // (1 << shift))


def _shr_constant(op, lhs: AxisInfo, rhs: AxisInfo) -> int | None:
    if (c := _constants(lhs, rhs)) is not None and 0 <= c[1] < 64:
        return c[0] >> c[1]
    return None


_visit_shl = _binary(_shift_contiguity, _shl_divisibility, _gcd_constancy, _shl_constant)
_visit_shr = _binary(_shift_contiguity, _shr_divisibility, _gcd_constancy, _shr_constant)


# -- max / min -----------------------------------------------------------------------------------


def _visit_max_min(op: Operation, ins: Sequence[AxisInfo]) -> AxisInfo:
    lhs, rhs = ins[0], ins[1]
    rank = lhs.rank
    if (c := _constants(lhs, rhs)) is not None:
        pick = max if isinstance(op, (MaxSIOp, MaxUIOp)) else min
        value = pick(c[0], c[1])
        return AxisInfo((1,) * rank, (1,) * rank, (1,) * rank, value)
    return AxisInfo(
        tuple(min(a, b) for a, b in zip(lhs.contiguity, rhs.contiguity)),
        tuple(min(a, b) for a, b in zip(lhs.divisibility, rhs.divisibility)),
        tuple(min(a, b) for a, b in zip(lhs.constancy, rhs.constancy)),
    )


# -- comparisons and select ----------------------------------------------------------------------

_CMPI_PREDICATES = ("eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge")


def _cmpi_predicate(op: Operation) -> str:
    return _CMPI_PREDICATES[_int_property(op, "predicate")]


def _compare(pred: str, a: int, b: int) -> bool:
    if pred.startswith("u"):
        a &= _INT64_MASK
        b &= _INT64_MASK
        pred = "s" + pred[1:]
    return {
        "eq": a == b,
        "ne": a != b,
        "slt": a < b,
        "sle": a <= b,
        "sgt": a > b,
        "sge": a >= b,
    }[pred]


def _visit_cmpi(op: Operation, ins: Sequence[AxisInfo]) -> AxisInfo | None:
    shape = _result_shape(op)
    if shape is None:
        return None  # scalar comparisons: nothing known
    lhs, rhs = ins[0], ins[1]
    pred = _cmpi_predicate(op)
    constancy: list[int] = []
    value: int | None = None
    for d in range(len(shape)):
        if (c := _constants(lhs, rhs)) is not None:
            hint = lhs.constancy[d]
            value = 1 if _compare(pred, c[0], c[1]) else 0
        else:
            hint = gcd(lhs.constancy[d], rhs.constancy[d])
            if pred in ("sgt", "ugt", "sle", "ule") and _is_constant_dim(lhs, shape, d):
                # constant lhs against a contiguous rhs: the answer flips at most once per aligned run
                hint = max(hint, gcd(rhs.contiguity[d], gcd(lhs.divisibility[d], rhs.divisibility[d])))
            elif pred in ("slt", "ult", "sge", "uge") and _is_constant_dim(rhs, shape, d):
                hint = max(hint, gcd(lhs.contiguity[d], gcd(lhs.divisibility[d], rhs.divisibility[d])))
        constancy.append(hint)
    rank = len(shape)
    return AxisInfo((1,) * rank, (1,) * rank, tuple(constancy), value)


def _visit_select(op: Operation, ins: Sequence[AxisInfo]) -> AxisInfo:
    cond, lhs, rhs = ins[0], ins[1], ins[2]
    if cond.constant is not None:
        return rhs if cond.constant == 0 else lhs
    scalar_cond = not isinstance(op.operands[0].type, TensorType)
    contiguity: list[int] = []
    divisibility: list[int] = []
    constancy: list[int] = []
    for d in range(lhs.rank):
        if scalar_cond:
            # the whole of one side is taken
            constancy.append(min(lhs.constancy[d], rhs.constancy[d]))
            divisibility.append(min(lhs.divisibility[d], rhs.divisibility[d]))
            contiguity.append(min(lhs.contiguity[d], rhs.contiguity[d]))
            continue
        c = cond.constancy[d]
        constancy.append(min(gcd(lhs.constancy[d], c), gcd(rhs.constancy[d], c)))
        contig = min(gcd(lhs.contiguity[d], c), gcd(rhs.contiguity[d], c))
        contiguity.append(contig)
        if contig == lhs.contiguity[d] and contig == rhs.contiguity[d]:
            divisibility.append(gcd(lhs.divisibility[d], rhs.divisibility[d]))
        else:
            # shorter runs start inside the original ones
            divisibility.append(min(gcd(lhs.divisibility[d], contig), gcd(rhs.divisibility[d], contig)))
    value = lhs.constant if (pair := _constants(lhs, rhs)) is not None and pair[0] == pair[1] else None
    return AxisInfo(tuple(contiguity), tuple(divisibility), tuple(constancy), value)


# -- sources and shape ops -----------------------------------------------------------------------


def _visit_copy(op: Operation, ins: Sequence[AxisInfo]) -> AxisInfo:
    return ins[0]


def _visit_make_range(op: Operation, ins: Sequence[AxisInfo]) -> AxisInfo:
    start = _int_property(op, "start")
    end = _int_property(op, "end")
    return AxisInfo(((end - start) & 0xFFFFFFFF,), (_highest_pow2_divisor_u32(start),), (1,))


def _visit_constant(op: Operation, ins: Sequence[AxisInfo]) -> AxisInfo | None:
    attr = op.properties.get("value")
    if isinstance(attr, IntegerAttr) and isinstance(attr.type, (IntegerType, IndexType)):
        v = integer_attr_value(attr)
        return AxisInfo((1,), (highest_pow2_divisor(v),), (1,), v)
    if (
        isinstance(attr, DenseElementsAttr)
        and attr.is_splat
        and isinstance(attr.type, TensorType)
        and isinstance(attr.type.element_type, (IntegerType, IndexType))
    ):
        width = _int_width(attr.type)
        splat = attr.splat_value()
        assert splat is not None  # a splat of integers
        v = to_int64(int(splat) & ((1 << width) - 1))
        shape = tuple(attr.type.get_shape())
        rank = len(shape)
        return AxisInfo((1,) * rank, (highest_pow2_divisor(v),) * rank, shape, v)
    return None  # float constants and non-splat dense: nothing known


def _visit_poison(op: Operation, ins: Sequence[AxisInfo]) -> AxisInfo:
    # never read, so anything goes
    rank = info_rank(op.results[0].type)
    return AxisInfo.top(rank)


def _visit_splat(op: Operation, ins: Sequence[AxisInfo]) -> AxisInfo:
    shape = tensor_shape(op.results[0].type) or (1,)
    rank = len(shape)
    return AxisInfo((1,) * rank, (ins[0].divisibility[0],) * rank, shape, ins[0].constant)


def _visit_load(op: Operation, ins: Sequence[AxisInfo]) -> AxisInfo:
    # loaded data is unknown, but equal pointers under an equal mask load equal values
    ptr = ins[0]
    mask = ins[1] if len(ins) > 1 else None
    rank = ptr.rank
    if mask is not None and mask.rank != rank:  # no verified load has one (a scalar mask of a tensor load)
        mask = None
    return AxisInfo(
        (1,) * rank,
        (1,) * rank,
        tuple(gcd(ptr.constancy[d], mask.constancy[d] if mask is not None else 0) for d in range(rank)),
    )


def _visit_expand_dims(op: Operation, ins: Sequence[AxisInfo]) -> AxisInfo:
    src = ins[0]
    axis = _int_property(op, "axis")
    if src.constant is not None:
        new_div = highest_pow2_divisor(src.constant)
    elif src.rank:
        new_div = 0
        for d in range(src.rank):
            new_div = gcd(new_div, 1 if src.contiguity[d] > 1 else src.divisibility[d])
        if new_div == 0:
            new_div = 1
    else:
        new_div = 1
    contiguity = list(src.contiguity)
    divisibility = list(src.divisibility)
    constancy = list(src.constancy)
    contiguity.insert(axis, 1)
    divisibility.insert(axis, new_div)
    constancy.insert(axis, 1)
    return AxisInfo(tuple(contiguity), tuple(divisibility), tuple(constancy), src.constant)


def _visit_broadcast(op: Operation, ins: Sequence[AxisInfo]) -> AxisInfo:
    src = ins[0]
    src_shape = _shape_of(op.operands[0])
    ret_shape = _shape_of(op.results[0])
    contiguity, divisibility, constancy = [], [], []
    for d in range(len(ret_shape)):
        stretched = src_shape[d] == 1
        contiguity.append(1 if stretched else src.contiguity[d])
        divisibility.append(src.divisibility[d])
        constancy.append(ret_shape[d] if stretched else src.constancy[d])
    return AxisInfo(tuple(contiguity), tuple(divisibility), tuple(constancy), src.constant)


VISITORS: dict[type[Operation], Visitor] = {
    # casts keep everything (UnrealizedConversionCast too: it appears mid-lowering)
    ExtSIOp: _visit_copy,
    ExtUIOp: _visit_copy,
    TruncIOp: _visit_copy,
    IndexCastOp: _visit_copy,  # in 3.1.0 (measured; index_castui has no rule)
    ConvertLayoutOp: _visit_copy,
    UnrealizedConversionCastOp: _visit_copy,
    BitcastOp: _visit_copy,
    MakeRangeOp: _visit_make_range,
    PoisonOp: _visit_poison,
    ConstantOp: _visit_constant,
    AddPtrOp: _visit_add_sub,
    AddIOp: _visit_add_sub,
    SubIOp: _visit_add_sub,
    MulIOp: _visit_mul,
    DivSIOp: _visit_div,
    DivUIOp: _visit_div,
    RemSIOp: _visit_rem,
    RemUIOp: _visit_rem,
    BroadcastOp: _visit_broadcast,
    SplatOp: _visit_splat,
    ExpandDimsOp: _visit_expand_dims,
    CmpIOp: _visit_cmpi,
    AndIOp: _visit_logical,
    OrIOp: _visit_logical,
    XOrIOp: _visit_logical,
    SelectOp: _visit_select,
    ShLIOp: _visit_shl,
    ShRUIOp: _visit_shr,
    ShRSIOp: _visit_shr,
    MaxSIOp: _visit_max_min,
    MaxUIOp: _visit_max_min,
    MinSIOp: _visit_max_min,
    MinUIOp: _visit_max_min,
    LoadOp: _visit_load,
}
"""The ops with a rule, by class; every other op's results are `pessimistic` (or its hints)."""


def _suffix_products(shape: Sequence[int]) -> list[int]:
    """out[d + 1] is the row-major stride of dim d."""
    out = [1] * (len(shape) + 1)
    for d in range(len(shape) - 1, -1, -1):
        out[d] = out[d + 1] * shape[d]
    return out


def _visit_reshape(op: Operation, ins: Sequence[AxisInfo]) -> AxisInfo:
    """ReshapeOpAxisInfoVisitor (Triton #9670, in 3.9)."""
    return reshape_axis_info(ins[0], _shape_of(op.operands[0]), _shape_of(op.results[0]))


def reshape_axis_info(
    src: AxisInfo, src_shape: Sequence[int], dst_shape: Sequence[int], seed: int | None = None
) -> AxisInfo:
    """Each destination dim inherits from the source dim whose row-major stride range holds its stride;
    contiguity survives only on that dim's low boundary, constancy as far as the constant block reaches
    (merging whole constant dims above it).  `seed` (upstream main, #10575): the source's global
    divisibility, which every destination dim starts from instead of its source dim's divisibility."""
    rank = len(dst_shape)
    if src.constant is not None:
        return AxisInfo((1,) * rank, (highest_pow2_divisor(src.constant),) * rank, tuple(dst_shape), src.constant)
    src_sp, dst_sp = _suffix_products(src_shape), _suffix_products(dst_shape)
    contiguity, divisibility, constancy = [1] * rank, [seed or 1] * rank, [1] * rank
    for dd in range(rank):
        dst_stride = dst_sp[dd + 1]
        sd = next((i for i in range(len(src_shape)) if src_sp[i + 1] <= dst_stride < src_sp[i]), 0)
        src_stride = src_sp[sd + 1]
        src_contig, src_div, src_const = src.contiguity[sd], src.divisibility[sd], src.constancy[sd]
        if src_contig > 1:
            if dst_stride == src_stride:
                contiguity[dd] = min(src_contig, dst_shape[dd])
                kept = src_div if contiguity[dd] == src_contig else min(src_div, contiguity[dd])
                divisibility[dd] = kept if seed is None else max(seed, kept)
            continue
        constancy_end = src_stride * src_const
        if dst_stride <= constancy_end:
            dst_const = min(dst_shape[dd], constancy_end // dst_stride)
            remaining = dst_shape[dd] // dst_const
            dim = sd - 1
            while src_const == src_shape[sd] and dim >= 0 and remaining > 1:
                piece = min(src_shape[dim], remaining)
                piece_const = min(src.constancy[dim], piece)
                dst_const *= piece_const
                if piece_const < piece:
                    break
                remaining //= piece
                dim -= 1
            constancy[dd] = dst_const
        if seed is None:
            divisibility[dd] = src_div
    return AxisInfo(tuple(contiguity), tuple(divisibility), tuple(constancy), src.constant)


VISITORS_39: dict[type[Operation], Visitor] = {
    **VISITORS, ReshapeOp: _visit_reshape,
    AddIOp: _visit_add_sub_37, SubIOp: _visit_add_sub_37, AddPtrOp: _visit_add_sub_37,
}
"""Triton 3.7-3.8's rules: 3.1's, `tt.reshape` (#9670) and the add/sub divisibility of #9297 (the other
changes to AxisInfo are not modelled; 3.9.0 has them all: `axis_info_main`).  Both came in 2026: 3.5.1 and 3.6.0 have neither (measured with
their coalesce), 3.8.0 and 3.9.0 both."""


@dataclass(frozen=True)
class AxisRules:
    """One release's AxisInfo: its rule per op kind and how its lattice behaves.  Triton 3.1-3.9's lattice
    joins by plain gcd and leaves unreached ops unknown; upstream main's (`axis_info_main`) also bounds a
    joined divisibility by differing contiguities (#7781), raises every dimension's divisibility to that of
    its unit-contiguity dimensions (#10575), gives ops it never reached the pessimistic state (#8758) and
    forwards only rank-1 facts to callees."""

    visitors: dict[type[Operation], Visitor]
    normalize: Callable[[AxisInfo], AxisInfo] | None = None
    join: Callable[[AxisInfo, AxisInfo], AxisInfo] = AxisInfo.join
    pessimistic_unreached: bool = False
    rank1_callee_hints: bool = False
    # the partitions of ttg.warp_specialize see what their captures are (#8799, #9023)
    partition_captures: bool = False


def visitors_for(version: str | None) -> dict[type[Operation], Visitor]:
    """The rule table of this module for a Triton version: 3.1's (default; below 3.7) or 3.7-3.8's (3.7 and
    newer).  A release's rules, 3.9 and main included: `axis_info_main.axis_rules`."""
    if version is None:
        return VISITORS
    parts = str(version).split(".")
    major_minor = (int(parts[0]), int(parts[1]) if len(parts) > 1 else 0)
    return VISITORS if major_minor < (3, 7) else VISITORS_39


# ---------------------------------------------------------------------------------------------
# Control flow
# ---------------------------------------------------------------------------------------------

def _is_region_branch(op: Operation | None) -> bool:
    return isinstance(op, REGION_BRANCH_OPS)


def _is_function(op: Operation | None) -> bool:
    return isinstance(op, FUNCTION_OPS)


def function_arg_hints(func: Operation, index: int) -> dict[str, Attribute]:
    """The attributes (tt.divisibility, ...) of one function argument."""
    arg_attrs = func.properties.get("arg_attrs")
    if isinstance(arg_attrs, ArrayAttr) and index < len(arg_attrs.data):
        d = arg_attrs.data[index]
        if isinstance(d, DictionaryAttr):
            return dict(d.data)
    return {}


class _FunctionSolver:
    """The dataflow fixed point over one function (AxisInfoAnalysis run by one DataFlowSolver).

    Every lattice only ever grows by join, as in MLIR's sparse forward analysis, so re-evaluating a loop
    body joins its new values into the old ones."""

    def __init__(
        self,
        func: Operation,
        arg_overrides: dict[int, dict[str, int]],
        visitors: dict[type[Operation], Visitor] | AxisRules | None = None,
    ):
        self.rules = visitors if isinstance(visitors, AxisRules) else AxisRules(
            VISITORS if visitors is None else visitors)
        self.visitors = self.rules.visitors
        self.func = func
        self.arg_overrides = arg_overrides
        self.lattice: dict[SSAValue, AxisInfo] = {}

    # -- lattice access ------------------------------------------------------------------------

    def entry_state(self, value: SSAValue) -> AxisInfo:
        """AxisInfo::getPessimisticValueState."""
        rank = info_rank(value.type)
        if isinstance(value, BlockArgument):
            parent = value.block.parent_op()
            region = value.block.parent_region()
            is_entry = region is not None and region.first_block is value.block
            if is_entry and parent is not None and _is_function(parent):
                return self._function_arg_state(parent, value.index, rank)
            if is_entry and _is_region_branch(parent):
                return AxisInfo.top(rank)
            return AxisInfo.pessimistic(rank)
        op = value.owner if isinstance(value, OpResult) else None
        info = AxisInfo.top(rank) if _is_region_branch(op) else AxisInfo.pessimistic(rank)
        return _op_hints(op, info) if op is not None else info

    def _function_arg_state(self, func: Operation, index: int, rank: int) -> AxisInfo:
        """AxisInfo::initPessimisticStateFromFunc: the argument's attributes, 1 where absent; what call
        sites worked out replaces the attribute, as the C++ analysis rewrites it."""
        fields = {name: (1,) * rank for name in HINT_ATTRS}
        for name, attr in function_arg_hints(func, index).items():
            if name in fields:
                vals = hint_values(attr, rank)
                if vals is not None:
                    fields[name] = vals
        if func is self.func:
            for name, v in self.arg_overrides.get(index, {}).items():
                fields[name] = (v,) * rank
        return AxisInfo(fields["tt.contiguity"], fields["tt.divisibility"], fields["tt.constancy"])

    def normalized(self, info: AxisInfo) -> AxisInfo:
        """What the release's AxisInfo constructor makes of `info`."""
        return self.rules.normalize(info) if self.rules.normalize is not None and info.rank else info

    def get(self, value: SSAValue) -> AxisInfo:
        info = self.lattice.get(value)
        if info is None:
            info = self.normalized(self.entry_state(value))
            self.lattice[value] = info
        return info

    def join(self, value: SSAValue, info: AxisInfo) -> bool:
        old = self.lattice.get(value)
        new = self.normalized(info if old is None else self.rules.join(old, info))
        self.lattice[value] = new
        return new != old

    # -- walking -------------------------------------------------------------------------------

    def run(self) -> dict[SSAValue, AxisInfo]:
        region = self.func.regions[0]
        entry = region.first_block
        if entry is not None:
            for arg in entry.args:
                self.join(arg, self.entry_state(arg))
            for block in region.blocks:
                self.block(block)
        if self.rules.pessimistic_unreached:  # ops in dead code: unknown, not absent
            for op in walk_ops(self.func):
                values = [*op.results, *(a for r in op.regions for b in r.blocks for a in b.args)]
                for value in values:
                    self.get(value)
        return self.lattice

    def block(self, block: Block) -> None:
        for op in block.ops:
            self.op(op)

    def op(self, op: Operation) -> None:
        if isinstance(op, scf.ForOp):
            self.for_op(op)
        elif isinstance(op, scf.IfOp):
            self.if_op(op)
        elif isinstance(op, scf.WhileOp):
            self.while_op(op)
        elif _is_region_branch(op):
            self.generic_region_branch(op)
        else:
            self.plain_op(op)

    def plain_op(self, op: Operation) -> None:
        if op.results:
            ins = [self.get(v) for v in op.operands]
            visitor = self.visitors.get(type(op))
            info = visitor(op, ins) if visitor is not None else None
            if info is None or info.rank == 0:
                for r in op.results:
                    self.join(r, self.entry_state(r))
            else:
                info = _op_hints(op, self.normalized(info))
                for r in op.results:
                    self.join(r, info)
        # regions of ops that are not control flow (tt.reduce combiners, ...): arguments unknown
        captures = isinstance(op, WarpSpecializePartitionsOp) and self.rules.partition_captures
        for region in op.regions:
            for block in region.blocks:
                for i, arg in enumerate(block.args):
                    entry = captures and block is region.first_block and i < len(op.operands)
                    self.join(arg, self.get(op.operands[i]) if entry else self.entry_state(arg))
                self.block(block)

    def _terminator_operands(self, block: Block) -> list[SSAValue]:
        last = block.last_op
        return list(last.operands) if isinstance(last, REGION_TERMINATORS) else []

    def for_op(self, op: scf.ForOp) -> None:
        lb, step = self.get(op.lb), self.get(op.step)
        body = op.body.block
        # the induction variable: divisible by gcd(lower bound, step), nothing else known
        self.join(body.args[0], AxisInfo((1,), (gcd(lb.divisibility[0], step.divisibility[0]),), (1,)))
        for arg, res, init in zip(body.args[1:], op.results, op.iter_args):
            self.join(arg, self.get(init))
            self.join(res, self.get(init))
        while True:
            self.block(body)
            changed = False
            for arg, res, y in zip(body.args[1:], op.results, terminator(body).operands):
                info = self.get(y)
                changed |= self.join(arg, info)
                self.join(res, info)
            if not changed:
                break

    def if_op(self, op: scf.IfOp) -> None:
        cond = self.get(op.cond)
        regions = [op.true_region, op.false_region]
        if cond.constant is not None:
            # a known condition: only that branch runs (DeadCodeAnalysis)
            regions = [op.true_region if cond.constant else op.false_region]
        for region in regions:
            for block in region.blocks:
                self.block(block)
                for res, y in zip(op.results, self._terminator_operands(block)):
                    self.join(res, self.get(y))

    def while_op(self, op: scf.WhileOp) -> None:
        before = op.before_region.block
        after = op.after_region.block
        for arg, init in zip(before.args, op.arguments):
            self.join(arg, self.get(init))
        while True:
            self.block(before)
            forwarded = list(terminator(before).operands)[1:]
            for arg, res, v in zip(after.args, op.results, forwarded):
                info = self.get(v)
                self.join(arg, info)
                self.join(res, info)
            self.block(after)
            changed = False
            for arg, y in zip(before.args, terminator(after).operands):
                changed |= self.join(arg, self.get(y))
            if not changed:
                break

    def generic_region_branch(self, op: Operation) -> None:
        for region in op.regions:
            for block in region.blocks:
                for arg in block.args:
                    self.join(arg, self.entry_state(arg))
                self.block(block)
                for res, y in zip(op.results, self._terminator_operands(block)):
                    self.join(res, self.get(y))


# ---------------------------------------------------------------------------------------------
# The module analysis
# ---------------------------------------------------------------------------------------------


def _functions(module: ModuleOp) -> list[Operation]:
    return [op for op in module.ops if _is_function(op)]


def _symbol_name(func: Operation) -> str:
    name = func.properties["sym_name"]
    assert isinstance(name, StringAttr)
    return name.data


def _callee_name(call: Operation) -> str | None:
    callee = call.properties.get("callee") or call.attributes.get("callee")
    if callee is None:
        return None
    root = getattr(callee, "root_reference", None)
    return root.data if root is not None else getattr(callee, "data", None)


def _calls(func: Operation) -> Iterable[Operation]:
    return (op for op in walk_ops(func) if isinstance(op, CALL_OPS))


def _callers_first(module: ModuleOp) -> list[Operation]:
    """ModuleAxisInfoAnalysis's order: post-order over the call graph from its roots, reversed, so every
    caller is analysed before the functions it calls."""
    funcs = _functions(module)
    by_name = {_symbol_name(f): f for f in funcs}
    callees = {f: [by_name[n] for c in _calls(f) if (n := _callee_name(c)) in by_name] for f in funcs}
    called = {c for cs in callees.values() for c in cs}
    roots = [f for f in funcs if f not in called]
    order: list[Operation] = []
    seen: set[Operation] = set()

    def visit(f: Operation) -> None:
        seen.add(f)
        for c in callees[f]:
            if c not in seen:
                visit(c)
        order.append(f)

    for root in roots:
        if root not in seen:
            visit(root)
    return list(reversed(order))


class AxisInfoAnalysis:
    """AxisInfo of every value of a module (ModuleAxisInfoAnalysis, Triton 3.1; `version="3.9"` adds the
    3.9 `tt.reshape` rule).

    `analysis[value]` / `analysis.get(value)` give the AxisInfo of an SSA value (None for values in
    functions that cannot be reached from a root of the call graph).  `callee_arg_hints` gives, for every
    function called with `tt.call`, the tt.contiguity / tt.divisibility / tt.constancy values that the
    C++ analysis would write onto its arguments (gcd over all call sites)."""

    def __init__(self, module: ModuleOp, version: str | AxisRules | None = None):
        self.module = module
        # a version string picks 3.1's or 3.7-3.8's table (None: 3.1's); 3.9's and main's come as an AxisRules
        # (axis_info_main.axis_rules)
        self.rules = version if isinstance(version, AxisRules) else AxisRules(visitors_for(version))
        self.visitors = self.rules.visitors
        self._values: dict[SSAValue, AxisInfo] = {}
        self.callee_arg_hints: dict[Operation, dict[int, dict[str, int]]] = {}
        by_name = {_symbol_name(f): f for f in _functions(module)}
        for func in _callers_first(module):
            lattice = _FunctionSolver(func, self.callee_arg_hints.get(func, {}), self.rules).run()
            self._values.update(lattice)
            for call in _calls(func):
                callee = by_name.get(_callee_name(call) or "")
                if callee is not None:
                    self._update_callee(callee, [lattice.get(v) for v in call.operands])

    def refresh(self, func: Operation) -> None:
        """Recompute one function after a pass rewrote it (its arguments' hints from its callers are kept;
        what it passes to its callees is not re-propagated: layout rewrites change no call)."""
        lattice = _FunctionSolver(func, self.callee_arg_hints.get(func, {}), self.rules).run()
        self._values.update(lattice)

    def _update_callee(self, callee: Operation, args: list[AxisInfo | None]) -> None:
        hints = self.callee_arg_hints.setdefault(callee, {})
        for index, info in enumerate(args):
            if info is None or info.rank == 0 or (self.rules.rank1_callee_hints and info.rank != 1):
                continue
            current = hints.setdefault(index, {})
            for name, value in zip(HINT_ATTRS, (info.contiguity[0], info.divisibility[0], info.constancy[0])):
                previous = current.get(name)
                if previous is None:
                    attr = function_arg_hints(callee, index).get(name)
                    previous = integer_attr_value(attr) if isinstance(attr, IntegerAttr) else MAX_DIVISOR
                current[name] = gcd(value, previous)

    def get(self, value: SSAValue) -> AxisInfo | None:
        return self._values.get(value)

    def __getitem__(self, value: SSAValue) -> AxisInfo:
        info = self._values.get(value)
        if info is None:
            raise KeyError(value)
        return info

    def __contains__(self, value: SSAValue) -> bool:
        return value in self._values
