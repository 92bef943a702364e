"""Triton's operand rules, as its C++ verifiers state them (TritonOps.td type
constraints, Ops.cpp, Traits.cpp, TritonGPU's layout check), shared by the
`verify_` methods of the ops they belong to.  Messages follow the C++ ones, so a
lit `expected-error` written against Triton matches irkit too.

- tt.load/tt.store/tt.atomic_rmw/tt.atomic_cas: the mask is i1 (or a tensor of
  i1) of the pointer's shape and layout; value, other and result types match
  the pointee type (`TypesMatchWith` in TritonOps.td).
- ttg.convert_layout: operand and result have one shape and one element type.
- tt.dot: in TTGIR, operands A and B carry `#dot_op` encodings.
- Every tt op's tensor results: a layout's warps per CTA (and a blocked layout's
  threads per warp) multiply to the `num-warps` (`threads-per-warp`) of the
  enclosing function or module (TritonGPU's tensor-layout verifier; 3.1 words it
  "the module specifies", 3.3 on "the context requires").
"""

from __future__ import annotations

import math

from xdsl.dialects.builtin import IntegerAttr, IntegerType, ModuleOp, NoneAttr, TensorType
from xdsl.ir import Attribute, Operation
from xdsl.traits import OpTrait, SymbolOpInterface
from xdsl.utils.exceptions import VerifyException

from irkit.dialects.encodings import (
    BlockedEncodingAttr,
    DotOperandEncodingAttr,
    LinearEncodingAttr,
    SliceEncodingAttr,
    StructLayoutAttr,
    is_shared,
)
from irkit.dialects.types import PointerType

_I1 = IntegerType(1)


def _pointee(ptr_type: Attribute) -> Attribute | None:
    """What a load through `ptr_type` yields; None when it is no pointer (another rule says so)."""
    if isinstance(ptr_type, PointerType):
        return ptr_type.pointee
    if isinstance(ptr_type, TensorType) and isinstance(ptr_type.element_type, PointerType):
        return TensorType(ptr_type.element_type.pointee, ptr_type.get_shape(), ptr_type.encoding)
    return None


def _i1_same_shape(t: Attribute) -> Attribute:
    return TensorType(_I1, t.get_shape(), t.encoding) if isinstance(t, TensorType) else _I1


def _is_i1_like(t: Attribute) -> bool:
    return (t.element_type if isinstance(t, TensorType) else t) == _I1


def check_pointer(ptr_type: Attribute) -> Attribute | None:
    """The pointee value type of operand #0, or an error when it is no pointer."""
    pointee = _pointee(ptr_type)
    if pointee is None:
        raise VerifyException(f"operand #0 must be ptr or ranked tensor of ptr values, but got '{_short(ptr_type)}'")
    return pointee


def check_mask(mask_type: Attribute, like: Attribute, index: int, against: str) -> None:
    """Mask operand #index: i1 elements, and the shape of `like` (the pointer's or value's)."""
    if not _is_i1_like(mask_type):
        raise VerifyException(
            f"operand #{index} must be 1-bit signless integer or ranked tensor of 1-bit signless integer "
            f"values, but got '{_short(mask_type)}'")
    if isinstance(like, TensorType) and isinstance(like.element_type, TensorType):
        return  # a block pointer's pointee: masks are not used with them
    if mask_type != _i1_same_shape(like):
        raise VerifyException(f"failed to verify that mask type matches {against} type")


def _short(t: Attribute) -> str:
    """A type for a message: `tensor<128xi32, ...>` (the layout would print in xDSL's raw form)."""
    if isinstance(t, TensorType):
        shape = "x".join(str(d) for d in t.get_shape())
        return f"tensor<{shape}x{t.element_type}{', ...' if _encoding(t) is not None else ''}>"
    return str(t)


def check_matches(actual: Attribute, expected: Attribute | None, what: str) -> None:
    if expected is not None and actual != expected:
        raise VerifyException(f"failed to verify that {what}")


def check_same_shape(src: Attribute, dst: Attribute) -> None:
    """SameOperandsAndResultShape + SameOperandsAndResultElementType."""
    if isinstance(src, TensorType) and isinstance(dst, TensorType):
        if tuple(src.get_shape()) != tuple(dst.get_shape()):
            raise VerifyException("requires the same shape for all operands and results")
        if src.element_type != dst.element_type:
            raise VerifyException("requires the same element type for all operands and results")


def check_dot_operands(a: Attribute, b: Attribute, d: Attribute) -> None:

    tensors = [t for t in (a, b, d) if isinstance(t, TensorType)]
    if not any(_encoding(t) is not None for t in tensors):
        return  # TTIR: no layouts yet
    for t, idx in ((a, 0), (b, 1)):
        if not isinstance(t, TensorType):
            continue  # Triton 3.1's wgmma reads shared-memory descriptors
        enc = _encoding(t)
        if not isinstance(enc, DotOperandEncodingAttr):
            raise VerifyException("Dot's a/b's encoding should be of DotOperandEncodingAttr")
        if enc.get("opIdx") != idx:
            raise VerifyException(f"Dot's {'ab'[idx]} operand must have opIdx {idx}, got {enc.get('opIdx')}")


def _encoding(t: Attribute) -> Attribute | None:
    if not isinstance(t, TensorType):
        return None
    enc = t.encoding
    return None if enc is None or isinstance(enc, NoneAttr) else enc


# -- the layouts of tt ops' results against num-warps / threads-per-warp ------------------------------------

_CONTEXT_KEYS = {"num-warps": ("ttg.num-warps", "triton_gpu.num-warps"),
                 "threads-per-warp": ("ttg.threads-per-warp", "triton_gpu.threads-per-warp"),
                 "num-ctas": ("ttg.num-ctas", "triton_gpu.num-ctas")}


def _int_attr(op: Operation, keys: tuple[str, ...]) -> tuple[int, str] | None:
    for key in keys:
        attr = op.attributes.get(key)
        if isinstance(attr, IntegerAttr):
            return attr.value.data, key
    return None


class OwnWarpCount(OpTrait):
    """The regions of this op run with a warp count of their own (`ttg.warp_specialize` and its
    partitions): the enclosing function's `num-warps` does not hold inside them."""


def context_value(op: Operation, what: str) -> tuple[int, str] | None:
    """The `num-warps`/`threads-per-warp` that holds at `op`: the nearest function's or module's;
    None inside a warp-specialized partition (its own count) or without one."""
    parent = op.parent_op()
    while parent is not None:
        if parent.has_trait(OwnWarpCount):
            return None
        if isinstance(parent, ModuleOp) or parent.has_trait(SymbolOpInterface):
            found = _int_attr(parent, _CONTEXT_KEYS[what])
            if found is not None:
                return found
        parent = parent.parent_op()
    return None


def _total_warps(enc: Attribute) -> int | None:
    """Warps per CTA of a distributed layout, as getWarpsPerCTA multiplies out (linear layouts:
    2 ** the number of warp bases, zero bases included), None where unknown."""

    if isinstance(enc, (SliceEncodingAttr, DotOperandEncodingAttr)):
        return _total_warps(enc.get("parent"))
    if isinstance(enc, LinearEncodingAttr):
        # not checked: Triton main reads linear layouts whose warp bases span fewer warps than num-warps
        # (its own AMD concat and extract_slice tests), so a total here would be a false rejection
        return None
    warps = enc.get("warpsPerCTA") if hasattr(enc, "get") else None
    return math.prod(warps) if warps else None


def _total_ctas(enc: Attribute) -> int | None:
    """CTAs per CGA of a distributed layout, None where unknown: CTAsPerCGA multiplied out (3.1-3.8), 2 to the
    number of `CGALayout` block bases (3.9 and main, whose multi-CTA tests write only those), 1 where the
    layout has neither (the default CTA layout every Triton parser gives it, which its verifier then
    holds against a module of 2 or more CTAs)."""
    from irkit.dialects.encodings import DotOperandEncodingAttr, SliceEncodingAttr, StructLayoutAttr, is_shared

    if isinstance(enc, (SliceEncodingAttr, DotOperandEncodingAttr)):
        return _total_ctas(enc.get("parent"))
    if not isinstance(enc, StructLayoutAttr) or is_shared(enc):
        return None
    if isinstance(enc, LinearEncodingAttr):  # one block basis per doubling of the CTAs
        block = enc.get("block")
        return None if block is None else 2 ** len(block)
    try:
        ctas = enc.get("CTAsPerCGA")
        cga = enc.get("CGALayout")
    except (KeyError, AttributeError, TypeError, ValueError):
        return None
    if ctas:
        return math.prod(ctas)
    return 2 ** len(cga) if cga is not None else 1


def _layout_totals(enc: Attribute) -> tuple[int | None, int | None]:
    """(warps per CTA, threads per warp of a blocked layout) of a distributed layout, None where unknown."""

    if not isinstance(enc, StructLayoutAttr) or is_shared(enc):
        return None, None
    try:
        warps = _total_warps(enc)
    except (TypeError, ValueError, AttributeError):  # a malformed layout: its own verifier speaks
        warps = None
    threads = None
    if isinstance(enc, BlockedEncodingAttr) and enc.get("threadsPerWarp") is not None:
        threads = math.prod(enc.get("threadsPerWarp"))
    return warps, threads


class TensorLayoutsMatchContext(OpTrait):
    """TritonGPU's tensor-layout verifier, on every tt op: each result layout's warps
    (threads) multiply to the enclosing `num-warps` (`threads-per-warp`)."""

    def verify(self, op: Operation) -> None:
        # results first, then operands (a block argument's layout too), as Triton 3.9 checks both
        for i, value in enumerate((*op.results, *op.operands)):
            enc = _encoding(value.type)
            if enc is None:
                continue
            warps, threads = _layout_totals(enc)
            what_value = "Result" if i < len(op.results) else f"Operand {i - len(op.results)}"
            for total, what, unit in ((warps, "num-warps", "warps per CTA"), (threads, "threads-per-warp", "threads per warp"),
                                      (_total_ctas(enc), "num-ctas", "CTAs per CGA")):
                if total is None:
                    continue
                context = context_value(op, what)
                if context is None or context[0] == total:
                    continue
                required, key = context
                wording = "the module specifies" if key.startswith("triton_gpu.") else "the context requires"
                raise VerifyException(
                    f"{what_value} has an invalid layout: Layout has a total of {total} {unit}, "
                    f"but {wording} {required} {unit}.")


def module_attribute_error(module: ModuleOp) -> str | None:
    """`num-warps`, `threads-per-warp` and `num-ctas` are positive where present (passes divide by them)."""
    for key in ("num-warps", "threads-per-warp", "num-ctas"):
        for spelled in (f"ttg.{key}", f"triton_gpu.{key}"):
            attr = module.attributes.get(spelled)
            if attr is None:
                continue
            if not isinstance(attr, IntegerAttr) or attr.value.data <= 0 or attr.type != IntegerType(32):
                return f"attribute '{spelled}' must be a positive integer of type i32"
    return None


def install_layout_trait(op_classes) -> None:
    """Give every op of a dialect the tensor-layout trait (as Triton's TT_Op base class does)."""
    trait = TensorLayoutsMatchContext()
    for cls in op_classes:
        traits = cls.get_irdl_definition().traits
        if not any(isinstance(t, TensorLayoutsMatchContext) for t in traits):
            traits.add_trait(trait)
