"""`arith` and `math` that are correct on tensors with layouts.

xDSL 0.74's own `arith` gives `arith.cmpi` on a tensor a scalar `i1` result
(and still verifies), rejects `arith.select` with a tensor condition, and
rejects every cast on tensors (see `xdsl/dialects/arith.py` of xDSL 0.74).  Triton IR is made of
exactly those, so irkit defines the ops it needs with MLIR's semantics:
comparison results have the operand's shape and layout, casts keep shape and
layout, and elementwise operands and results agree.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import (
    AnyFloat,
    BFloat16Type,
    Float16Type,
    Float32Type,
    Float64Type,
    Float80Type,
    Float128Type,
    FunctionType,
    IndexType,
    IntegerAttr,
    IntegerType,
    NoneType,
    Signedness,
    TensorType,
    VectorType,
)
from xdsl.ir import Attribute, Dialect, SSAValue
from xdsl.irdl import (
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.traits import ConstantLike, Pure
from xdsl.utils.exceptions import VerifyException

from irkit.dialects.base import TritonOp, i1_like, irkit_op
from irkit.dialects.types import OpaqueType
from irkit.frontend.opformat import AttrStyle, EnumStyle

CMPI_PREDICATES = EnumStyle(("eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"), width=64)
CMPF_PREDICATES = EnumStyle(
    ("false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq", "ugt", "uge", "ult", "ule", "une", "uno", "true"),
    width=64,
)


class BracketedStyle(AttrStyle):
    """`<fast>` / `<nsw, nuw>` written right after a keyword, kept as text; the
    generic form spells the attribute out (`#arith.fastmath<fast>`)."""

    def __init__(self, attr_name: str):
        self.attr_name = attr_name

    def parse(self, p):
        from xdsl.dialects.builtin import StringAttr

        from irkit.dialects.encodings import OpaqueAttr

        cur = p.cur
        start = cur.skip()
        if not cur.text.startswith("<", start):
            raise cur.error("expected '<'")
        end = cur.balanced_end(start)
        cur.pos = end
        return OpaqueAttr(StringAttr(self.attr_name), StringAttr(cur.text[start:end]))

    def print(self, pr, value):
        return value.body.data if hasattr(value, "body") else pr.attribute(value)


class RoundingStyle(AttrStyle):
    def parse(self, p):
        return EnumStyle(("to_nearest_even", "downward", "upward", "toward_zero", "to_nearest_away")).parse(p)

    def print(self, pr, value):
        return EnumStyle(("to_nearest_even", "downward", "upward", "toward_zero", "to_nearest_away")).print(pr, value)

    def starts_here(self, p):
        return EnumStyle(("to_nearest_even", "downward", "upward", "toward_zero", "to_nearest_away")).starts_here(p)


_BRACKETED = BracketedStyle("arith.fastmath")
_OVERFLOW = BracketedStyle("arith.overflow")


def _shape_and_layout(t: Attribute) -> tuple[tuple[int, ...], Attribute | None]:
    if isinstance(t, TensorType):
        return tuple(t.get_shape()), t.encoding
    return (), None


class _ElementwiseBinary(TritonOp):
    lhs = operand_def()
    rhs = operand_def()
    result = result_def()

    def __init__(self, lhs: SSAValue, rhs: SSAValue):
        """`lhs <op> rhs`, elementwise; the result has the operands' type."""
        super().__init__(operands=[lhs, rhs], result_types=[lhs.type])

    def verify_(self) -> None:
        t = self.result.type
        if self.lhs.type != t or self.rhs.type != t:
            raise VerifyException(
                f"'{self.name}' requires the same type for all operands and results, "
                f"got {self.lhs.type}, {self.rhs.type} -> {t}"
            )


_INT_BINARY_FORMAT = "$lhs `,` $rhs (`overflow` `` $overflowFlags^)? attr-dict `:` type($result)"
_FLOAT_BINARY_FORMAT = "$lhs `,` $rhs (`fastmath` `` $fastmath^)? attr-dict `:` type($result)"


def _int_binary(op_name: str, class_name: str) -> type[_ElementwiseBinary]:
    cls = type(
        class_name,
        (_ElementwiseBinary,),
        {
            "name": op_name,
            "overflowFlags": opt_prop_def(),
            "traits": traits_def(Pure()),
            "FORMAT": _INT_BINARY_FORMAT,
            "ATTR_STYLES": {"overflowFlags": _OVERFLOW},
            "__doc__": f"`{op_name}` on integers or tensors of integers.",
        },
    )
    return irkit_op(cls)


def _float_binary(op_name: str, class_name: str) -> type[_ElementwiseBinary]:
    cls = type(
        class_name,
        (_ElementwiseBinary,),
        {
            "name": op_name,
            "fastmath": opt_prop_def(),
            "traits": traits_def(Pure()),
            "FORMAT": _FLOAT_BINARY_FORMAT,
            "ATTR_STYLES": {"fastmath": _BRACKETED},
            "__doc__": f"`{op_name}` on floats or tensors of floats.",
        },
    )
    return irkit_op(cls)


_INT_BINARIES = [
    "addi", "subi", "muli", "divsi", "divui", "ceildivsi", "ceildivui", "floordivsi", "remsi",
    "remui", "andi", "ori", "xori", "shli", "shrsi", "shrui", "maxsi", "maxui", "minsi", "minui",
]
_FLOAT_BINARIES = ["addf", "subf", "mulf", "divf", "remf", "maxnumf", "minnumf", "maximumf", "minimumf"]

INT_BINARY_OPS = {n: _int_binary(f"arith.{n}", n.capitalize() + "Op") for n in _INT_BINARIES}
FLOAT_BINARY_OPS = {n: _float_binary(f"arith.{n}", n.capitalize() + "Op") for n in _FLOAT_BINARIES}
AddIOp = INT_BINARY_OPS["addi"]
SubIOp = INT_BINARY_OPS["subi"]
MulIOp = INT_BINARY_OPS["muli"]
DivSIOp = INT_BINARY_OPS["divsi"]
DivUIOp = INT_BINARY_OPS["divui"]
RemSIOp = INT_BINARY_OPS["remsi"]
RemUIOp = INT_BINARY_OPS["remui"]
AndIOp = INT_BINARY_OPS["andi"]
OrIOp = INT_BINARY_OPS["ori"]
XOrIOp = INT_BINARY_OPS["xori"]
ShLIOp = INT_BINARY_OPS["shli"]
ShRSIOp = INT_BINARY_OPS["shrsi"]
ShRUIOp = INT_BINARY_OPS["shrui"]
MaxSIOp = INT_BINARY_OPS["maxsi"]
MaxUIOp = INT_BINARY_OPS["maxui"]
MinSIOp = INT_BINARY_OPS["minsi"]
MinUIOp = INT_BINARY_OPS["minui"]
AddFOp = FLOAT_BINARY_OPS["addf"]
SubFOp = FLOAT_BINARY_OPS["subf"]
MulFOp = FLOAT_BINARY_OPS["mulf"]
DivFOp = FLOAT_BINARY_OPS["divf"]


@irkit_op
class NegFOp(TritonOp):
    name = "arith.negf"
    operand = operand_def()
    result = result_def()
    fastmath = opt_prop_def()
    traits = traits_def(Pure())
    FORMAT = "$operand (`fastmath` `` $fastmath^)? attr-dict `:` type($result)"
    ATTR_STYLES = {"fastmath": _BRACKETED}


class _Compare(TritonOp):
    lhs = operand_def()
    rhs = operand_def()
    result = result_def()
    predicate = prop_def()

    def __init__(self, predicate: str, lhs: SSAValue, rhs: SSAValue):
        """`lhs <predicate> rhs` (`"slt"`, `"oge"`, ...), an i1 (tensor) shaped like the operands."""
        super().__init__(
            operands=[lhs, rhs],
            result_types=[i1_like(lhs.type)],
            properties={"predicate": IntegerAttr(self.ATTR_STYLES["predicate"].keywords.index(predicate), 64)},
        )

    @classmethod
    def infer_types(cls, types):
        types["result"] = [i1_like(types["lhs"][0])]

    def verify_(self) -> None:
        if self.lhs.type != self.rhs.type:
            raise VerifyException(f"'{self.name}' operands differ: {self.lhs.type} vs {self.rhs.type}")
        expected = i1_like(self.lhs.type)
        if self.result.type != expected:
            raise VerifyException(f"'{self.name}' result must be {expected}, got {self.result.type}")


@irkit_op
class CmpIOp(_Compare):
    name = "arith.cmpi"
    traits = traits_def(Pure())
    FORMAT = "$predicate `,` $lhs `,` $rhs attr-dict `:` type($lhs)"
    ATTR_STYLES = {"predicate": CMPI_PREDICATES}


@irkit_op
class CmpFOp(_Compare):
    name = "arith.cmpf"
    fastmath = opt_prop_def()
    traits = traits_def(Pure())
    FORMAT = "$predicate `,` $lhs `,` $rhs (`fastmath` `` $fastmath^)? attr-dict `:` type($lhs)"
    ATTR_STYLES = {"predicate": CMPF_PREDICATES, "fastmath": _BRACKETED}


@irkit_op
class SelectOp(TritonOp):
    """`arith.select %c, %a, %b : [cond_type,] result_type` — the condition is i1 or
    a tensor of i1 with the result's shape."""

    name = "arith.select"
    condition = operand_def()
    true_value = operand_def()
    false_value = operand_def()
    result = result_def()
    traits = traits_def(Pure())

    def verify_(self) -> None:
        t = self.result.type
        if self.true_value.type != t or self.false_value.type != t:
            raise VerifyException("'arith.select' branches must have the result type")
        c = self.condition.type
        if c != IntegerType(1) and c != i1_like(t):
            raise VerifyException(f"'arith.select' condition must be i1 or {i1_like(t)}, got {c}")


class _Cast(TritonOp):
    """`$in attr-dict : type($in) to type($out)`: shape and layout are kept."""

    input = operand_def()
    result = result_def()

    def __init__(self, input: SSAValue, result_type: Attribute):
        """`input` converted to `result_type` (same shape and layout, another element type)."""
        super().__init__(operands=[input], result_types=[result_type])

    def verify_(self) -> None:
        for what, t in (("operand", self.input.type), ("result", self.result.type)):
            element = t.element_type if isinstance(t, TensorType) else t
            if isinstance(element, (FunctionType, TensorType, NoneType)) or element.name.startswith(("tt.", "ttg.")):
                raise VerifyException(f"'{self.name}' {what} must be a number or a tensor of numbers, got {t}")
        if _shape_and_layout(self.input.type) != _shape_and_layout(self.result.type):
            raise VerifyException(
                f"'{self.name}' must keep shape and layout: {self.input.type} to {self.result.type}"
            )


_CAST_FORMAT = "$input attr-dict `:` type($input) `to` type($result)"


def _cast(op_name: str, class_name: str, fmt: str = _CAST_FORMAT, extra: dict | None = None) -> type[_Cast]:
    ns = {"name": op_name, "traits": traits_def(Pure()), "FORMAT": fmt, "__doc__": f"`{op_name}`."}
    ns.update(extra or {})
    return irkit_op(type(class_name, (_Cast,), ns))


_FLOAT_CAST_FORMAT = (
    "$input ($roundingmode^)? (`fastmath` `` $fastmath^)? attr-dict `:` type($input) `to` type($result)"
)
_FLOAT_CAST_EXTRA = lambda: {  # noqa: E731 - fresh defs per class
    "roundingmode": opt_prop_def(),
    "fastmath": opt_prop_def(),
    "ATTR_STYLES": {"roundingmode": RoundingStyle(), "fastmath": _BRACKETED},
}

CAST_OPS = {
    n: _cast(f"arith.{n}", n.capitalize() + "Op")
    for n in ("extsi", "extui", "trunci", "sitofp", "uitofp", "fptosi", "fptoui", "index_cast", "index_castui", "bitcast")
}
CAST_OPS["extf"] = _cast("arith.extf", "ExtFOp", _FLOAT_CAST_FORMAT, _FLOAT_CAST_EXTRA())
CAST_OPS["truncf"] = _cast("arith.truncf", "TruncFOp", _FLOAT_CAST_FORMAT, _FLOAT_CAST_EXTRA())
ExtSIOp = CAST_OPS["extsi"]
ExtUIOp = CAST_OPS["extui"]
TruncIOp = CAST_OPS["trunci"]
IndexCastOp = CAST_OPS["index_cast"]
TruncFOp = CAST_OPS["truncf"]


@irkit_op
class ConstantOp(TritonOp):
    """`arith.constant 16 : i32`, `arith.constant dense<0xFF800000> : tensor<...>`."""

    name = "arith.constant"
    result = result_def()
    value = prop_def()
    traits = traits_def(Pure(), ConstantLike())

    def __init__(self, value: Attribute):
        """A constant of `value`'s type (`IntegerAttr(0, i64)`, `FloatAttr(0.0, f32)`, a dense tensor)."""
        super().__init__(result_types=[value.type], properties={"value": value})

    def verify_(self) -> None:
        # the custom form prints only the value's type: a differing result type would change on a round trip
        value_type = getattr(self.value, "type", None)
        if value_type != self.result.type:
            raise VerifyException(
                f"failed to verify that all of {{value, result}} have same type: {value_type} vs {self.result.type}"
            )


ARITH_OPS: list[type[TritonOp]] = [
    *INT_BINARY_OPS.values(), *FLOAT_BINARY_OPS.values(), NegFOp, CmpIOp, CmpFOp, SelectOp,
    *CAST_OPS.values(), ConstantOp,
]
Arith = Dialect("arith", ARITH_OPS, [])

# -- math ----------------------------------------------------------------------------------


class _MathUnary(TritonOp):
    operand = operand_def()
    result = result_def()
    fastmath = opt_prop_def()
    FORMAT: ClassVar[str | None] = "$operand (`fastmath` `` $fastmath^)? attr-dict `:` type($result)"
    ATTR_STYLES: ClassVar[dict] = {"fastmath": _BRACKETED}


def _math_unary(n: str) -> type[_MathUnary]:
    ns = {"name": f"math.{n}", "traits": traits_def(Pure()), "__doc__": f"`math.{n}`."}
    return irkit_op(type(n.capitalize() + "Op", (_MathUnary,), ns))


MATH_UNARY_OPS = {
    n: _math_unary(n)
    for n in (
        "exp", "exp2", "log", "log2", "log1p", "sqrt", "rsqrt", "sin", "cos", "tan", "tanh", "erf",
        "absf", "absi", "floor", "ceil", "round", "roundeven", "trunc", "expm1", "atan", "ctlz",
        "cttz", "ctpop", "isnan", "isinf",
    )
}


@irkit_op
class FmaOp(TritonOp):
    name = "math.fma"
    a = operand_def()
    b = operand_def()
    c = operand_def()
    result = result_def()
    fastmath = opt_prop_def()
    traits = traits_def(Pure())
    FORMAT = "$a `,` $b `,` $c (`fastmath` `` $fastmath^)? attr-dict `:` type($result)"
    ATTR_STYLES = {"fastmath": _BRACKETED}


class _MathBinary(TritonOp):
    lhs = operand_def()
    rhs = operand_def()
    result = result_def()
    fastmath = opt_prop_def()
    FORMAT: ClassVar[str | None] = "$lhs `,` $rhs (`fastmath` `` $fastmath^)? attr-dict `:` type($result)"
    ATTR_STYLES: ClassVar[dict] = {"fastmath": _BRACKETED}


MATH_BINARY_OPS = {
    n: irkit_op(type(n.capitalize() + "Op", (_MathBinary,), {"name": f"math.{n}", "traits": traits_def(Pure())}))
    for n in ("powf", "atan2", "copysign", "ipowi", "fpowi")
}

MATH_OPS = [*MATH_UNARY_OPS.values(), FmaOp, *MATH_BINARY_OPS.values()]
Math = Dialect("math", MATH_OPS, [])


# -- ub / llvm placeholders -------------------------------------------------------------------
# xDSL's ub.poison fills its default `value` property at creation, which then
# prints as `{value = #ub.poison}`; MLIR prints the default as nothing.


@irkit_op
class PoisonOp(TritonOp):
    name = "ub.poison"
    result = result_def()
    value = opt_prop_def()
    traits = traits_def(Pure(), ConstantLike())
    FORMAT = "attr-dict `:` type($result)"


@irkit_op
class UndefOp(TritonOp):
    name = "llvm.mlir.undef"
    res = result_def()
    traits = traits_def(Pure())
    FORMAT = "attr-dict `:` type($res)"
    # its result's LLVM_Type constraint is checked with the other ODS rules (ods_rules.ods_error), which
    # name the type as MLIR prints it


_LLVM_FLOATS = (BFloat16Type, Float16Type, Float32Type, Float64Type, Float80Type, Float128Type)


def llvm_compatible(t: Attribute) -> bool:
    """MLIR's `LLVM::isCompatibleOuterType` (the `LLVM_Type` constraint): a signless integer, an IEEE float
    of 16 to 128 bits, a type of the llvm dialect, or a 1-D vector (whose element type the vector type
    itself constrains: an integer, index or float)."""
    if isinstance(t, IntegerType):
        return t.signedness.data == Signedness.SIGNLESS
    if isinstance(t, _LLVM_FLOATS):
        return True
    if isinstance(t, OpaqueType):
        return t.dialect_name.data.startswith("llvm.")  # `!llvm.ptr`, `!llvm.struct<...>`: kept as text
    if isinstance(t, VectorType):
        return (t.get_num_dims() == 1 and t.get_shape()[0] > 0
                and isinstance(t.element_type, (IntegerType, IndexType, AnyFloat)))
    return False


MISC_OPS = [PoisonOp, UndefOp]
