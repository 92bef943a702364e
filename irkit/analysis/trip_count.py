"""How many times a loop runs: constant bounds, or bounds computed from a kernel's launch arguments.

A Triton kernel's main loop runs `cdiv(K, BLOCK_K)` times, and K is a launch argument: the TTGIR does not know it,
but a tool that sees the launch does (irkit-check).  `main_loop_trips` folds the loop's bounds over the function's
scalar arguments, named as Triton names them in the TTGIR it prints (`%K: i32 loc("K")`, Triton 3.3 and later), and
gives None where a bound depends on anything else (a program id, a loaded value, an argument not given).
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Mapping

from xdsl.dialects import scf
from xdsl.dialects.builtin import IntegerAttr, IntegerType, ModuleOp
from xdsl.ir import Operation, OpResult, SSAValue

from irkit.dialects.arith import CAST_OPS, INT_BINARY_OPS, ConstantOp
from irkit.dialects.families import FUNCTION_OPS, MMA_OPS
from irkit.names import exact_name


def _ceil_div(a: int, b: int) -> int:
    return -(-a // b)


def _trunc_div(a: int, b: int) -> int:  # arith.divsi rounds toward zero, Python's // toward minus infinity
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def _trunc_rem(a: int, b: int) -> int:
    return a - b * _trunc_div(a, b)


# the integer arithmetic a loop bound is made of; a division by zero folds to None (`scalar_value` catches it)
_BINARY: dict[type[Operation], Callable[[int, int], int]] = {
    INT_BINARY_OPS["addi"]: operator.add,
    INT_BINARY_OPS["subi"]: operator.sub,
    INT_BINARY_OPS["muli"]: operator.mul,
    INT_BINARY_OPS["divsi"]: _trunc_div,
    INT_BINARY_OPS["divui"]: operator.floordiv,
    INT_BINARY_OPS["ceildivsi"]: _ceil_div,
    INT_BINARY_OPS["ceildivui"]: _ceil_div,
    INT_BINARY_OPS["floordivsi"]: operator.floordiv,
    INT_BINARY_OPS["remsi"]: _trunc_rem,
    INT_BINARY_OPS["remui"]: operator.mod,
    INT_BINARY_OPS["maxsi"]: max,
    INT_BINARY_OPS["maxui"]: max,
    INT_BINARY_OPS["minsi"]: min,
    INT_BINARY_OPS["minui"]: min,
}
_SAME_VALUE_CASTS = tuple(CAST_OPS[n] for n in ("extsi", "extui", "index_cast", "index_castui"))


def scalar_value(value: SSAValue, known: Mapping[SSAValue, int], depth: int = 64) -> int | None:
    """The integer `value` holds, folded from constants and the values in `known` through integer arithmetic;
    None where it depends on anything else, or overflows its type."""
    if value in known:
        return known[value]
    if depth == 0 or not isinstance(value, OpResult):
        return None
    op = value.op
    if isinstance(op, ConstantOp):
        attr = op.properties.get("value")
        return attr.value.data if isinstance(attr, IntegerAttr) else None
    if isinstance(op, _SAME_VALUE_CASTS):
        return scalar_value(op.operands[0], known, depth - 1)
    fold = _BINARY.get(type(op))
    if fold is None:
        return None
    a, b = (scalar_value(x, known, depth - 1) for x in op.operands)
    if a is None or b is None:
        return None
    try:
        result = fold(a, b)
    except ZeroDivisionError:
        return None
    width = value.type.width.data if isinstance(value.type, IntegerType) else 64
    return result if -(1 << (width - 1)) <= result < (1 << (width - 1)) else None


def trip_count(loop: scf.ForOp, known: Mapping[SSAValue, int] | None = None) -> int | None:
    """How many times `loop` runs, where its bounds fold (`scalar_value`); None otherwise."""
    lb, ub, step = (scalar_value(v, known or {}) for v in (loop.lb, loop.ub, loop.step))
    if lb is None or ub is None or step is None or step <= 0:
        return None
    return max(0, _ceil_div(ub - lb, step))


def main_loop_trips(module: ModuleOp, scalars: Mapping[str, int]) -> int | None:
    """How many times the kernel's main loop (the innermost `scf.for` around its first mma op) runs at a launch
    whose scalar arguments are `scalars`, by name.  None where the module has no such loop, or its bounds do not
    fold from those arguments (an argument printed without its name, as Triton 3.1 prints them, is not known)."""
    for func in (f for f in module.walk() if isinstance(f, FUNCTION_OPS)):
        dot = next((o for o in func.walk() if isinstance(o, MMA_OPS)), None)
        if dot is None:
            continue
        loop = dot.parent_op()
        while loop is not None and not isinstance(loop, scf.ForOp):
            loop = loop.parent_op()
        if loop is None or not func.regions[0].blocks:
            return None
        arguments = func.regions[0].blocks[0].args
        known: dict[SSAValue, int] = {arg: scalars[name] for arg in arguments
                                      if (name := exact_name(arg)) is not None and name in scalars}
        return trip_count(loop, known)
    return None
