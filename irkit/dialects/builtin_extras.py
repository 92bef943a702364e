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
    IndexType,
    IntegerType,
    StringAttr,
    TensorType,
    VectorType,
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
    return t.element_type if isinstance(t, (TensorType, VectorType)) else t


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


# (exponent bits, stored mantissa bits) of the IEEE-like types APFloat prints in decimal
_IEEE_LAYOUT = {Float16Type: (5, 10), BFloat16Type: (8, 7), Float32Type: (8, 23), Float64Type: (11, 52)}


def _adjust_digits(digits: str, exp: int, precision: int) -> tuple[str, int]:
    """APFloat's AdjustToPrecision on a digit string (most significant first): round half up to
    `precision` digits, dropping the trailing zeros that leaves."""
    n = len(digits)
    if n <= precision:
        return digits, exp
    cut = n - precision  # digits dropped from the right
    if digits[n - cut] < "5":
        kept = digits[: n - cut].rstrip("0")
        return kept, exp + (n - len(kept))
    kept = list(digits[: n - cut])
    while kept and kept[-1] == "9":
        kept.pop()
        cut += 1
    if not kept:
        return "1", exp + n
    kept[-1] = chr(ord(kept[-1]) + 1)
    return "".join(kept), exp + cut


def apfloat_text(value: float, t: Attribute, precision: int = 0, max_padding: int = 3,
                 truncate_zero: bool = True) -> str | None:
    """llvm::APFloat::toString(precision, max_padding, truncate_zero) of a finite `value` stored as `t`
    (f16, bf16, f32, f64); None for other types."""
    layout = _IEEE_LAYOUT.get(type(t))
    if layout is None:
        return None
    ebits, mbits = layout
    bits = _float_to_bits(value, t)
    neg = bool(bits >> (ebits + mbits))
    biased = (bits >> mbits) & ((1 << ebits) - 1)
    frac = bits & ((1 << mbits) - 1)
    sign = "-" if neg else ""
    if biased == 0 and frac == 0:
        if not max_padding:
            return sign + ("0.0E+0" if truncate_zero else "0.0" + "0" * max(precision - 1, 0) + "e+00")
        return sign + "0"
    bias = (1 << (ebits - 1)) - 1
    if biased == 0:  # denormal
        significand, exp = frac, 1 - bias - mbits
    else:
        significand, exp = frac | (1 << mbits), biased - bias - mbits
    if not precision:
        precision = 2 + (mbits + 1) * 59 // 196  # enough digits to read back (Steele & White)
    tz = (significand & -significand).bit_length() - 1
    significand >>= tz
    exp += tz
    if exp > 0:
        significand <<= exp
        exp = 0
    elif exp < 0:
        significand *= 5 ** (-exp)  # N * 2^-e == N * 5^e * 10^-e
    # first cut: drop whole tens the requested precision cannot show (truncating, as APFloat does)
    required_bits = (precision * 196 + 58) // 59
    active = significand.bit_length()
    if active > required_bits:
        tens = (active - required_bits) * 59 // 196
        if tens:
            exp += tens
            significand //= 10**tens
    digits = str(significand)
    stripped = digits.rstrip("0")
    exp += len(digits) - len(stripped)
    digits, exp = _adjust_digits(stripped, exp, precision)
    nd = len(digits)
    if not max_padding:
        scientific = True
    elif exp >= 0:
        scientific = exp > max_padding or nd + exp > precision
    else:
        msd = exp + nd - 1
        scientific = msd < 0 and -msd > max_padding
    if scientific:
        exp += nd - 1
        out = sign + digits[0] + "."
        out += "0" if nd == 1 and truncate_zero else digits[1:]
        if not truncate_zero and precision > nd - 1:
            out += "0" * (precision - nd + 1)
        out += "E" if truncate_zero else "e"
        out += "+" if exp >= 0 else "-"
        e = str(abs(exp))
        if not truncate_zero and len(e) < 2:
            e = "0" + e
        return out + e
    if exp >= 0:
        return sign + digits + "0" * exp
    whole = exp + nd
    if whole > 0:
        return sign + digits[:whole] + "." + digits[whole:]
    return sign + "0." + "0" * (-whole) + digits


def format_float(value: float, t: Attribute) -> str:
    """MLIR's printFloatValue: `%.6e` (APFloat's toString(6, 0, false)) when it reads back exactly, else
    APFloat's default toString when that has a '.', else the bits in hexadecimal."""
    if math.isfinite(value):
        short = apfloat_text(value, t, 6, 0, False)
        if short is None:  # a type APFloat-decimal printing is not modelled for
            short = f"{value:.6e}"
        if _float_to_bits_or_none(float(short), t) == _float_to_bits_or_none(value, t):
            return short
        text = apfloat_text(value, t)
        if text is not None and "." in text:
            return text
    try:
        bits = _float_to_bits(value, t)
    except (ValueError, OverflowError, struct.error):
        return repr(value)
    return "0x" + format(bits, "X")  # APInt::toString(16, formatAsCLiteral): no zero padding


def _float_to_bits_or_none(value: float, t: Attribute) -> int | None:
    try:
        return _float_to_bits(value, t)
    except (ValueError, OverflowError, struct.error):
        return None


def format_scalar(value: int | float | bool, t: Attribute) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(t, (IntegerType, IndexType)):
        if isinstance(t, IntegerType) and t.width.data == 1:
            return "true" if value else "false"
        return str(int(value))
    return format_float(float(value), t)
