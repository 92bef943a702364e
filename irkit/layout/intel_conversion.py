"""Intel's convert_layout shortcuts (third_party/intel/lib/Analysis/Utility.cpp and Allocation.cpp of Intel's
Triton fork, the same in triton-xpu 3.3.0b1 and in main): a DPAS accumulator read as its own operand A needs no
shared memory, a convert that a sub-group shuffle does needs none either, and one that a sub-group transpose does
needs a padded square of its own.  Each is decided on the linear map from the destination's hardware indices to
the source's (`linear.invert_and_compose`) once the CTAs and sub-groups are seen to stay put (its quotient)."""

from __future__ import annotations

from collections.abc import Sequence
from math import prod

from xdsl.dialects.builtin import AnyFloat, IntegerType
from xdsl.ir import Attribute

from irkit.dialects.types import PointerType
from irkit.layout import kinds
from irkit.layout.linear import BLOCK, LANE, REG, WARP, LinearLayout, doublings, invert_and_compose, to_linear_layout

_TRANSPOSE_WIDTHS = (8, 16, 32, 64)  # isValidElementTypeForSubGroupTranspose


def is_intel_target(target: str | None) -> bool:
    """Whether a module's target ("xpu", "xpu:pvc") is compiled by Intel's fork, whose allocation tries the
    sub-group rules below first (from its 3.2/3.3 line on; not in the 3.1 line)."""
    return (target or "").startswith("xpu")


def is_dpas_to_dot_shortcut(src: Attribute, dst: Attribute) -> bool:
    """isDpasToDotShortcut: a DPAS accumulator converted to operand A of the same DPAS layout, with one
    sub-group along N and an instruction whose A tile is its C tile (K = executionSize)."""
    if not (kinds.is_dpas(src) and kinds.is_dot_operand(dst) and dst.parent == src):
        return False
    return (
        int(dst.op_idx) == 0
        and src.warps_per_cta[-1] == 1
        and src.systolic_depth * src.ops_per_chan == src.execution_size
    )


def _lane_conversion(src: Attribute, dst: Attribute, shape: Sequence[int]) -> LinearLayout | None:
    """The destination-to-source map over registers and lanes alone; None when data crosses sub-groups or
    CTAs (or a layout has no linear form here)."""
    ls = to_linear_layout(src, shape, keep_broadcast_registers=True)
    ld = to_linear_layout(dst, shape, keep_broadcast_registers=True)
    if ls is None or ld is None:
        return None
    by_block = invert_and_compose(ld, ls).quotient([BLOCK])
    return by_block.quotient([WARP]) if by_block is not None else None


def _bases(conv: LinearLayout, in_dim: str) -> list[tuple[int, ...]]:
    return [tuple(v) for v in conv.bases.get(in_dim, [])]


def cvt_is_sub_group_shuffle(src: Attribute, dst: Attribute, shape: Sequence[int]) -> bool:
    """cvtIsSubGroupShuffle: every destination work-item holds the whole sub-group's data, its first
    registers reading the source's lanes in turn (or its contiguous registers first)."""
    conv = _lane_conversion(src, dst, shape)
    if conv is None or not conv.sublayout_is_zero([LANE], [REG, LANE]):
        return False
    regs, lanes = conv.in_dim_size(REG), conv.out_dim_size(LANE)
    # lanes first, then registers; or a work-item's own contiguous registers first, then the lanes
    plain = [(0, t) for t in doublings(1, lanes)] + [(1 << j, 0) for j in range(len(doublings(lanes, regs)))]
    own = doublings(1, regs // lanes)
    then_lanes = doublings(own[-1] * 2 if own else 1, regs)
    contiguous = [(r, 0) for r in own] + [(0, 1 << j) for j in range(len(then_lanes))]
    return _bases(conv, REG) in (plain, contiguous)


def can_sub_group_transpose(elem: Attribute | None) -> bool:
    """canTypeBeConvertedForSubGroupTranspose: pointers, floats of 8-64 bits (bitcast), integers of 8-64
    bits or narrower than 8 (extended)."""
    if isinstance(elem, PointerType):
        return True
    if isinstance(elem, AnyFloat):
        return elem.bitwidth in _TRANSPOSE_WIDTHS
    if isinstance(elem, IntegerType):
        width = elem.width.data
        return width in _TRANSPOSE_WIDTHS or width < 8
    return False


def cvt_is_sub_group_transpose(src: Attribute, dst: Attribute, shape: Sequence[int], elem: Attribute | None) -> bool:
    """cvtIsSubGroupTranspose: the destination's registers read the source's lanes and its lanes the
    source's registers (a square transpose within the sub-group), row by row or in contiguous rows."""
    if not can_sub_group_transpose(elem):
        return False
    conv = _lane_conversion(src, dst, shape)
    if conv is None:
        return False
    regs, lanes = conv.in_dim_size(REG), conv.in_dim_size(LANE)
    got_regs, got_lanes = _bases(conv, REG), _bases(conv, LANE)
    to_lanes = [(0, t) for t in doublings(1, lanes)]
    rest = doublings(lanes, regs)
    if got_regs == to_lanes + [(i, 0) for i in rest] and got_lanes == [(i, 0) for i in doublings(1, lanes)]:
        return True
    return got_regs == to_lanes + [(1 << j, 0) for j in range(len(rest))] and got_lanes == [
        (i, 0) for i in doublings(regs // lanes, regs)
    ]


def sub_group_transpose_bytes(src: Attribute, shape: Sequence[int], elem_bytes: int) -> int:
    """The transpose's scratch: one row of a sub-group's width plus one unread element (against bank
    conflicts) per sub-group's worth of elements."""
    ll = to_linear_layout(src, shape, keep_broadcast_registers=True)
    lanes = ll.in_dim_size(LANE) if ll is not None else 1
    return prod(shape) // lanes * (lanes + 1) * elem_bytes
