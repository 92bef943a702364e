"""What kind of layout an attribute is, and the facts every other layout question starts from: its rank,
a slice's parent and dim, its CTA fields, an MFMA's instruction shape.

`irkit.layout.algebra` (Triton 3.1's per-layout rules) and `irkit.layout.linear` (the linear-layout view)
both build on these, so neither needs the other to answer them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeGuard

from xdsl.ir import Attribute

from irkit.dialects.encodings import (
    MMA_LAYOUTS,
    SHARED_LAYOUTS,
    AmdMfmaEncodingAttr,
    AmdRotatingSharedEncodingAttr,
    AmdWmmaEncodingAttr,
    BlockedEncodingAttr,
    CTALayout,
    DotOperandEncodingAttr,
    DpasEncodingAttr,
    LinearEncodingAttr,
    NvidiaMmaEncodingAttr,
    SharedEncodingAttr,
    SliceEncodingAttr,
    StructLayoutAttr,
    SwizzledSharedEncodingAttr,
)

Shape = tuple[int, ...]


class UnsupportedLayout(ValueError):
    """A layout (or layout/parent combination) this module has no rule for."""


# ---------------------------------------------------------------------------------------------
# Kinds
# ---------------------------------------------------------------------------------------------


def layout_name(enc: Attribute | None) -> str:
    """How messages name a layout: `#blocked`, `#nvidia_mma`, `#dot_op`; "no layout" for none."""
    return "no layout" if enc is None else "#" + enc.name.split(".")[-1]


def is_blocked(enc: Attribute | None) -> TypeGuard[BlockedEncodingAttr]:
    return isinstance(enc, BlockedEncodingAttr)


def is_slice(enc: Attribute | None) -> TypeGuard[SliceEncodingAttr]:
    return isinstance(enc, SliceEncodingAttr)


def is_dot_operand(enc: Attribute | None) -> TypeGuard[DotOperandEncodingAttr]:
    return isinstance(enc, DotOperandEncodingAttr)


def is_nvidia_mma(enc: Attribute | None) -> TypeGuard[NvidiaMmaEncodingAttr]:
    return isinstance(enc, NvidiaMmaEncodingAttr)


def is_mfma(enc: Attribute | None) -> TypeGuard[AmdMfmaEncodingAttr]:
    return isinstance(enc, AmdMfmaEncodingAttr)


def is_wmma(enc: Attribute | None) -> TypeGuard[AmdWmmaEncodingAttr]:
    return isinstance(enc, AmdWmmaEncodingAttr)


def is_dpas(enc: Attribute | None) -> TypeGuard[DpasEncodingAttr]:
    return isinstance(enc, DpasEncodingAttr)


def is_linear(enc: Attribute | None) -> TypeGuard[LinearEncodingAttr]:
    return isinstance(enc, LinearEncodingAttr)


def is_mma(enc: Attribute | None) -> bool:
    """Triton's MmaEncodingTrait: nvidia_mma, amd_mfma, amd_wmma, dpas."""
    return isinstance(enc, MMA_LAYOUTS)


def is_shared(enc: Attribute | None) -> bool:
    return isinstance(enc, SHARED_LAYOUTS)


def is_distributed(enc: Attribute | None) -> bool:
    return enc is not None and not is_shared(enc) and (
        is_blocked(enc) or is_slice(enc) or is_dot_operand(enc) or is_mma(enc) or is_linear(enc)
    )


def mma_version(enc: Attribute) -> int:
    """versionMajor of nvidia_mma (2 Ampere, 3 Hopper, 5 Blackwell...); mfma/wmma version for AMD; 0 for
    other layouts."""
    if isinstance(enc, (NvidiaMmaEncodingAttr, AmdMfmaEncodingAttr, AmdWmmaEncodingAttr)):
        return enc.mma_version
    return 0


def is_mma_v2(enc: Attribute | None) -> bool:
    return is_nvidia_mma(enc) and mma_version(enc) == 2


def is_mma_v3(enc: Attribute | None) -> bool:
    return is_nvidia_mma(enc) and mma_version(enc) == 3


def split_by_bases(bases, rank: int) -> tuple[int, ...]:
    """How many pieces linear-layout bases cut each dim into: 2^(number of bases moving along it)."""
    split = [1] * rank
    for b in bases:
        for d, x in enumerate(b):
            if x:
                split[d] *= 2
    return tuple(split)


def dpas_shape_a(enc: DpasEncodingAttr) -> tuple[int, int]:
    """DpasEncodingAttr::getShapeA: operand A of one repCluster (rows x K)."""
    rc = enc.rep_cluster or (1, 1)
    return enc.repeat_count * rc[-2], enc.systolic_depth * enc.ops_per_chan


def dpas_shape_b(enc: DpasEncodingAttr) -> tuple[int, int]:
    """DpasEncodingAttr::getShapeB: operand B of one repCluster (K x columns)."""
    rc = enc.rep_cluster or (1, 1)
    return enc.systolic_depth * enc.ops_per_chan, enc.execution_size * rc[-1]


def dpas_shape_c(enc: DpasEncodingAttr) -> tuple[int, int]:
    """DpasEncodingAttr::getShapeC: the accumulator of one repCluster (rows x columns)."""
    rc = enc.rep_cluster or (1, 1)
    return enc.repeat_count * rc[-2], enc.execution_size * rc[-1]


def rank_of(enc: Attribute) -> int:
    """Rank of the tensors a layout applies to."""
    if is_slice(enc):
        return rank_of(enc.parent) - 1
    if is_dot_operand(enc):
        return rank_of(enc.parent)
    if is_linear(enc):
        for b in enc.bases.values():
            if b:
                return len(b[0])
        raise UnsupportedLayout("linear layout with no bases: rank unknown")
    if is_dpas(enc):
        return len(enc.warps_per_cta)
    # the first ranked parameter the layout prints; a layout irkit keeps verbatim (e.g. 3.9's
    # #ttg.padded_shared) and nvmma_shared have none
    for v in _ranked_parameters(enc):
        if v is not None:
            return len(v)
    raise UnsupportedLayout(f"rank of {enc.name}")


def _ranked_parameters(enc: Attribute) -> tuple[tuple[int, ...] | None, ...]:
    if isinstance(enc, BlockedEncodingAttr):
        return enc.warps_per_cta, enc.order, enc.size_per_thread
    if isinstance(enc, (NvidiaMmaEncodingAttr, AmdMfmaEncodingAttr, AmdWmmaEncodingAttr)):
        return (enc.warps_per_cta,)
    if isinstance(enc, (SharedEncodingAttr, SwizzledSharedEncodingAttr, AmdRotatingSharedEncodingAttr)):
        return (enc.order,)
    return ()


def reversed_order(rank: int) -> tuple[int, ...]:
    return tuple(range(rank - 1, -1, -1))


# ---------------------------------------------------------------------------------------------
# Slice helpers
# ---------------------------------------------------------------------------------------------


def slice_parent(enc: SliceEncodingAttr) -> Attribute:
    return enc.parent


def slice_dim(enc: SliceEncodingAttr) -> int:
    return int(enc.dim)


def slice_padded_shape(enc: Attribute, shape: Sequence[int]) -> Shape:
    """The parent shape of a slice: size 1 inserted at `dim` (SliceEncodingAttr::paddedShape)."""
    s = list(shape)
    s.insert(slice_dim(enc), 1)
    return tuple(s)


def erase_dim(seq: Sequence[int], dim: int) -> tuple[int, ...]:
    return tuple(v for i, v in enumerate(seq) if i != dim)


def erase_order(order: Sequence[int], dim: int) -> tuple[int, ...]:
    """Remove `dim` from an order and renumber the dims above it (Triton's eraseOrder)."""
    return tuple(o - (1 if o > dim else 0) for o in order if o != dim)


def fold_sliced(values: Sequence[int], dim: int) -> tuple[int, ...]:
    """Slice{ThreadsPerWarp,WarpsPerCTA} at 3.1: erase `dim`, multiply every other entry by values[dim]."""
    rest = list(erase_dim(values, dim))
    return tuple(v * values[dim] for v in rest)


# ---------------------------------------------------------------------------------------------
# CTA layout
# ---------------------------------------------------------------------------------------------


_NO_CTA_LAYOUT = CTALayout(None, None, None, None)


def cta_layout(enc: Attribute) -> CTALayout:
    """The CTA-layout fields of a layout; slices drop the sliced dim of their parent's, dot operands take
    their parent's; None where the layout prints none."""
    if is_slice(enc):
        dim = slice_dim(enc)
        return CTALayout(*(None if v is None else erase_dim(v, dim) for v in cta_layout(enc.parent)))
    if is_dot_operand(enc):
        return cta_layout(enc.parent)
    if isinstance(enc, StructLayoutAttr):
        return enc.cta_layout
    return _NO_CTA_LAYOUT


def mfma_mn(enc: AmdMfmaEncodingAttr) -> tuple[int, int]:
    instr = enc.instr_shape
    if instr:
        return int(instr[0]), int(instr[1])
    raise UnsupportedLayout("amd_mfma without instrShape")
