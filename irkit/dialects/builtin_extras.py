"""Builtin-level attributes irkit represents its own way.

`dense<...>` elements: xDSL 0.74 reads `dense<0xFF800000>` (Triton's -inf) as
the integer 4286578688 converted to float, and it expands splats into one
value per element.  irkit keeps the body text exactly as MLIR prints it and
decodes it on demand, so a 256x256 splat costs one string and -inf stays -inf.
"""

from __future__ import annotations

import math
import struct

from xdsl.dialects.builtin import (
    BFloat16Type,
    Float16Type,
    Float32Type,
    Float64Type,
    IntegerType,
    IndexType,
    StringAttr,
    TensorType,
)
from xdsl.ir import Attribute, ParametrizedAttribute
from xdsl.irdl import irdl_attr_definition


@irdl_attr_definition
class DenseElementsAttr(ParametrizedAttribute):
    """`dense<body> : tensor<...>` with the body kept as MLIR text."""

    name = "irkit.dense"

    body: StringAttr  # e.g. "0.000000e+00", "0xFF800000", "[1, 2]", "true"
    type: Attribute

    @staticmethod
    def splat(value: int | float | bool, tensor_type: TensorType) -> DenseElementsAttr:
        body = format_scalar(value, tensor_type.element_type)
        return DenseElementsAttr(StringAttr(body), tensor_type)

    @property
    def is_splat(self) -> bool:
        return not self.body.data.startswith("[")

    def splat_value(self) -> int | float | bool | None:
        """The value of a splat (None for non-splat bodies)."""
        if not self.is_splat:
            return None
        return parse_scalar(self.body.data, element_type(self.type))

    def values(self) -> list[int | float | bool]:
        """Every listed value (a splat gives one), in order, flattened."""
        text = self.body.data.replace("[", " ").replace("]", " ").replace(",", " ")
        et = element_type(self.type)
        return [parse_scalar(t, et) for t in text.split()]


def element_type(t: Attribute) -> Attribute:
    return t.element_type if isinstance(t, TensorType) else t


def float_bits(t: Attribute) -> int | None:
    if isinstance(t, Float32Type):
        return 32
    if isinstance(t, (Float16Type, BFloat16Type)):
        return 16
    if isinstance(t, Float64Type):
        return 64
    width = getattr(t, "bitwidth", None)
    return width if isinstance(width, int) else None


def _bits_to_float(bits: int, t: Attribute) -> float:
    if isinstance(t, Float32Type):
        return struct.unpack("<f", struct.pack("<I", bits & 0xFFFFFFFF))[0]
    if isinstance(t, Float64Type):
        return struct.unpack("<d", struct.pack("<Q", bits))[0]
    if isinstance(t, Float16Type):
        return struct.unpack("<e", struct.pack("<H", bits & 0xFFFF))[0]
    if isinstance(t, BFloat16Type):
        return struct.unpack("<f", struct.pack("<I", (bits & 0xFFFF) << 16))[0]
    raise ValueError(f"cannot decode hexadecimal float of type {t}")


def _float_to_bits(value: float, t: Attribute) -> int:
    if isinstance(t, Float32Type):
        return struct.unpack("<I", struct.pack("<f", value))[0]
    if isinstance(t, Float64Type):
        return struct.unpack("<Q", struct.pack("<d", value))[0]
    if isinstance(t, Float16Type):
        return struct.unpack("<H", struct.pack("<e", value))[0]
    if isinstance(t, BFloat16Type):
        b = struct.unpack("<I", struct.pack("<f", value))[0]
        # round to nearest even, as APFloat does
        b += 0x7FFF + ((b >> 16) & 1)
        return (b >> 16) & 0xFFFF
    raise ValueError(f"cannot encode float of type {t}")


def round_to_type(value: float, t: Attribute) -> float:
    """The value as the element type stores it (f32 rounding, ...)."""
    try:
        return _bits_to_float(_float_to_bits(value, t), t)
    except (ValueError, OverflowError, struct.error):
        return value


def parse_scalar(text: str, t: Attribute) -> int | float | bool:
    """A dense/float literal as MLIR writes it, decoded for element type `t`."""
    if text == "true":
        return True
    if text == "false":
        return False
    is_float = float_bits(t) is not None and not isinstance(t, (IntegerType, IndexType))
    if is_float:
        if text.lower().startswith(("0x", "-0x")):
            return _bits_to_float(int(text, 16), t)
        return float(text)
    return int(text, 0)


def format_float(value: float, t: Attribute) -> str:
    """MLIR's printFloatValue: `%.6e` when it reads back exactly, else shortest, else hex."""
    if math.isfinite(value):
        short = f"{value:.6e}"
        if round_to_type(float(short), t) == round_to_type(value, t):
            return short
        text = repr(round_to_type(value, t))
        if "." in text and "inf" not in text and "nan" not in text:
            return text
    try:
        bits = _float_to_bits(value, t)
    except (ValueError, OverflowError, struct.error):
        return repr(value)
    width = float_bits(t) or 32
    return "0x" + format(bits, "0%dX" % (width // 4))


def format_scalar(value: int | float | bool, t: Attribute) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(t, (IntegerType, IndexType)):
        if isinstance(t, IntegerType) and t.width.data == 1:
            return "true" if value else "false"
        return str(int(value))
    return format_float(float(value), t)
