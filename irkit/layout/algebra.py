"""Pure functions over layout attributes: the one place passes and analyses ask about layouts.

Nothing here walks IR.  Every function takes layout attributes (`irkit.dialects.encodings`) and shapes
(tuples of ints) and answers what Triton's `lib/Dialect/TritonGPU/IR/Dialect.cpp` (and the Intel/AMD
dialect files) answer for the same question.  The semantics are those of **Triton 3.1** (upstream
`47fc046f`, "U31" in docs/triton-passes.md) unless a function says otherwise; the newer linear-layout
view lives in `irkit.layout.linear`.

Per-layout rules (docs/triton-passes.md §5.3):

| layout | shapePerCTATile | contigPerThread | order |
|---|---|---|---|
| blocked | sizePerThread*threadsPerWarp*warpsPerCTA | sizePerThread | order |
| slice(dim, P) | tile(P) without dim | contig(P) without dim | order(P) without dim, renumbered |
| nvidia_mma v2 | wpc with [-2]*=16, [-1]*=8 | [1,..,1,2] | [rank-1..0] |
| nvidia_mma v3 | [16*wpc0, instrN*wpc1] | [..,1,2] | [rank-1..0] |
| amd_mfma | [M*wpc0, N*wpc1] | [..,4,1] | transposed ? [rank-2, rank-1, ..] : [rank-1..0] |
| amd_wmma | [16*wpc0, 16*wpc1] | [..,8,1] (v1) | [rank-1..0] |
| dpas | [C0*wpc0, C1*wpc1] | tpw==executionSize ? [C0,1] : [1,1] | [1,0] |
| dot_op(op0, mma v2) | [tile_mma[-2], 16] | [2,4] | [rank-1..0] |
| dot_op(op1, mma v2) | [16, tile_mma[-1]] | [4,1] | [rank-1..0] |
| dot_op(op0/1, mfma) | [tile[-2], 32] / [32, tile[-1]] | [..,1] / [..,4] (3.1, measured) | [rank-1..0] |
| dot_op(op0/1, dpas) | [tile[0], A1] / [B0, tile[1]] | [1,1] | [1,0] |

Shapes are per CTA (`shape_per_cta` divides by CTASplitNum when the layout has CTA fields).
"""

from __future__ import annotations

from collections.abc import Sequence
from math import prod

from xdsl.dialects.builtin import (
    AnyFloat,
    IndexType,
    IntegerType,
    TensorType,
)
from xdsl.ir import Attribute

from irkit.dialects.encodings import (
    AmdMfmaEncodingAttr,
    AmdWmmaEncodingAttr,
    BlockedEncodingAttr,
    CTALayout,
    DotOperandEncodingAttr,
    DpasEncodingAttr,
    NvidiaMmaEncodingAttr,
    NvmmaSharedEncodingAttr,
    padded_shared_paddings,
    partitioned_shared,
    shared_linear_offsets,
)
from irkit.layout.kinds import (  # noqa: F401  (re-exported: callers ask algebra about kinds too)
    UnsupportedLayout,
    cta_layout,
    dpas_shape_a,
    dpas_shape_b,
    dpas_shape_c,
    erase_dim,
    erase_order,
    fold_sliced,
    is_blocked,
    is_distributed,
    is_dot_operand,
    is_dpas,
    is_linear,
    is_mfma,
    is_mma,
    is_mma_v2,
    is_mma_v3,
    is_nvidia_mma,
    is_shared,
    is_slice,
    is_wmma,
    layout_name,
    mfma_mn,
    mma_version,
    rank_of,
    reversed_order,
    slice_dim,
    slice_padded_shape,
    slice_parent,
    split_by_bases,
)
from irkit.layout.linear import (
    linear_contig_per_thread,
    linear_order,
    linear_shape_per_cta_tile,
    linear_threads_per_warp,
    linear_warps_per_cta,
    to_linear_layout,
)

Shape = tuple[int, ...]


def cta_split_num(enc: Attribute) -> tuple[int, ...]:
    """CTASplitNum (all 1 when absent: one CTA per CGA)."""
    v = cta_layout(enc).cta_split_num
    if v is None:
        cga = cta_layout(enc).cga_layout
        if cga:
            # 3.9 CGALayout: the block bases of a linear layout
            return split_by_bases(cga, rank_of(enc))
        return (1,) * rank_of(enc)
    return v


def ctas_per_cga(enc: Attribute) -> tuple[int, ...]:
    """CTAsPerCGA (all 1 when absent).  For the 3.9 `CGALayout` form, the CTAs that broadcast (zero
    bases) are counted on dim 0."""
    v = cta_layout(enc).ctas_per_cga
    if v is None:
        cga = cta_layout(enc).cga_layout
        split = list(cta_split_num(enc))
        if cga:
            zeros = sum(1 for b in cga if not any(b))
            split[0] *= 1 << zeros
        return tuple(split)
    return v


def num_ctas(enc: Attribute) -> int:
    return prod(ctas_per_cga(enc))


def allocated_elements(enc: Attribute | None, elements: int) -> int:
    """Elements a shared-memory allocation of `elements` takes in layout `enc`: the elements themselves,
    plus, for `#ttg.padded_shared<[interval:+pad, ...]>`, `pad` after every `interval` of them but the
    last (over the whole allocation, pipeline copies included).  Checked against Triton 3.9.0 for gfx1250:
    two 2x128x64 f16 buffers at [128:+8] and [128:+16] take 34,800 + 36,832 = 71,632 B, its
    `metadata.shared`."""
    return _padded(elements, padded_shared_paddings(enc))


def _padded(elements: int, paddings: tuple[tuple[int, int], ...] | None) -> int:
    return elements + sum((elements - 1) // interval * pad for interval, pad in paddings or () if interval > 0)


def allocation_elements(enc: Attribute | None, shape: Sequence[int], linear: bool = True) -> int:
    """Elements a shared-memory allocation of `shape` (per CTA) takes in layout `enc`, padding included
    (`allocated_elements`).  An fp4Padded nvmma_shared holds two bytes per packed i8 (real 3.3.1, 3.8.0 and
    3.9.0 measured).  `linear` (Triton 3.9 on: getAllocationElems from the layout's linear layout, #11024): a
    `#ttg.shared_linear` holds 2^(its offset bases) elements, holes included (3.8.0 still counts its shape)."""
    elements = prod(shape)
    holey = shared_linear_offsets(enc)
    if linear and holey is not None:
        elements = 1 << holey[0]
    elif isinstance(enc, NvmmaSharedEncodingAttr) and enc.fp4_padded:
        elements *= 2
    parts = partitioned_shared(enc)
    if parts is not None:  # the padding is that of the layout of each partition, over the whole tensor
        return _padded(elements, parts.paddings)
    return allocated_elements(enc, elements)


def shared_alignment(enc: Attribute | None, after_33: bool) -> int | None:
    """SharedEncodingTrait::getAlignment where a layout has its own (None: the default, 16 bytes): an
    nvmma_shared buffer starts on its swizzle pattern, 1024 bytes in Triton 3.3, 128 * maxPhase from 3.4
    (#6725); a shared_linear on its `alignment`."""
    if isinstance(enc, NvmmaSharedEncodingAttr):
        if not after_33:
            return 1024
        swizzle = enc.swizzling_byte_width or 0
        return 128 * (swizzle // 16 if swizzle else 1)
    holey = shared_linear_offsets(enc)
    return holey[1] if holey is not None else None


def shape_per_cta(enc: Attribute | None, shape: Sequence[int]) -> Shape:
    """shape / CTASplitNum per dim (Triton's getShapePerCTA)."""
    if enc is None or is_shared(enc) and enc.cta_split_num is None:
        return tuple(shape)
    try:
        split = cta_split_num(enc)
    except UnsupportedLayout:
        return tuple(shape)
    if len(split) != len(shape):
        # memdesc with a leading pipeline dim: the split applies to the trailing dims
        split = (1,) * (len(shape) - len(split)) + tuple(split)
    return tuple(max(1, s // c) for s, c in zip(shape, split))


# ---------------------------------------------------------------------------------------------
# Per-layout parameters
# ---------------------------------------------------------------------------------------------



def warps_per_cta(enc: Attribute) -> tuple[int, ...]:
    """getWarpsPerCTA (3.1).  Slices fold the sliced dim's warps into the others; dot operands report the
    parent's warps (Triton 3.1 returns the parent's warpsPerCTA unchanged)."""
    if is_slice(enc):
        return fold_sliced(warps_per_cta(enc.parent), slice_dim(enc))
    if is_dot_operand(enc):
        return warps_per_cta(enc.parent)
    if is_linear(enc):

        return linear_warps_per_cta(enc)
    w = _layout_warps_per_cta(enc)
    if w is None:
        raise UnsupportedLayout(f"warpsPerCTA of {enc.name}")
    return tuple(w)


def _layout_warps_per_cta(enc: Attribute) -> tuple[int, ...] | None:
    """The `warpsPerCTA` a layout prints (None for layouts without one)."""
    if isinstance(enc, (BlockedEncodingAttr, NvidiaMmaEncodingAttr, AmdMfmaEncodingAttr, AmdWmmaEncodingAttr,
                        DpasEncodingAttr)):
        return enc.warps_per_cta
    return None


def threads_per_warp(enc: Attribute) -> tuple[int, ...]:
    """getThreadsPerWarp (3.1)."""
    if is_blocked(enc):
        return tuple(enc.threads_per_warp)
    if is_slice(enc):
        return fold_sliced(threads_per_warp(enc.parent), slice_dim(enc))
    rank = rank_of(enc)
    if is_nvidia_mma(enc):
        v = mma_version(enc)
        if v == 1:
            return (1,) * (rank - 2) + (4, 8)
        return (1,) * (rank - 2) + (8, 4)
    if is_mfma(enc):
        m, _ = mfma_mn(enc)
        rows, cols = (32, 2) if m == 32 else (16, 4) if m == 16 else (m, 64 // m)
        if enc.is_transposed:
            return (1,) * (rank - 2) + (rows, cols)
        return (1,) * (rank - 2) + (cols, rows)
    if is_wmma(enc):
        return (1,) * (rank - 2) + (2, 16)
    if is_dpas(enc):
        es = enc.execution_size
        tpw = enc.threads_per_warp
        rows = tpw // es
        return (rows, es)
    if is_dot_operand(enc):
        return threads_per_warp(enc.parent)
    if is_linear(enc):

        return linear_threads_per_warp(enc)
    raise UnsupportedLayout(f"threadsPerWarp of {enc.name}")


def size_per_thread(enc: Attribute) -> tuple[int, ...]:
    """getSizePerThread (3.1)."""
    if is_blocked(enc):
        return tuple(enc.size_per_thread)
    if is_slice(enc):
        return erase_dim(size_per_thread(enc.parent), slice_dim(enc))
    rank = rank_of(enc)
    if is_nvidia_mma(enc):
        v = mma_version(enc)
        if v == 1:
            return (1,) * (rank - 2) + (1, 2)
        if v == 3:
            instr = enc.instr_shape or (16, 8, 16)
            return (2, instr[1] // 4)
        return (1,) * (rank - 2) + (2, 2)
    if is_mfma(enc):
        m, _ = mfma_mn(enc)
        rows = 16 if m == 32 else 4
        if enc.is_transposed:
            return (1,) * (rank - 2) + (1, rows)
        return (1,) * (rank - 2) + (rows, 1)
    if is_wmma(enc):
        return (1,) * (rank - 2) + (8, 1)
    if is_dpas(enc):
        c0, _ = dpas_shape_c(enc)
        es = enc.execution_size
        tpw = enc.threads_per_warp
        if tpw == es:
            return (c0, enc.rep_cluster[-1] if enc.rep_cluster else 1)
        return (c0 * es // tpw, 1)
    if is_dot_operand(enc):
        return _dot_size_per_thread(enc)
    if is_linear(enc):

        return linear_contig_per_thread(enc)
    raise UnsupportedLayout(f"sizePerThread of {enc.name}")


def _dot_size_per_thread(enc: DotOperandEncodingAttr) -> tuple[int, ...]:
    parent = enc.parent
    op = enc.op_idx
    rank = rank_of(parent)
    lead = (1,) * (rank - 2)
    if is_nvidia_mma(parent):
        if mma_version(parent) == 2:
            return lead + ((2, 4) if op == 0 else (4, 1))
        if mma_version(parent) == 3 and op == 0:
            return lead + (2, 4)
    if is_mfma(parent):
        # Triton 3.1.0, measured with its allocation pass: the last dim holds 1 (operand A) / 4 (operand B)
        # contiguous elements, whatever kWidth is (only the last dim ever matters to the scratch formula)
        return lead + ((1, 1) if op == 0 else (1, 4))
    if is_wmma(parent):
        kw = enc.k_width or 16
        return lead + ((1, kw) if op == 0 else (kw, 1))
    if is_dpas(parent):
        return lead + (1, 1)
    if is_blocked(parent):
        spt = list(size_per_thread(parent))
        return tuple(spt)
    raise UnsupportedLayout(f"sizePerThread of dot_op with parent {parent.name}")


def get_order(enc: Attribute) -> tuple[int, ...]:
    """getOrder (3.1): the fastest-varying dim first."""
    if is_blocked(enc):
        return tuple(enc.order)
    if is_slice(enc):
        return erase_order(get_order(enc.parent), slice_dim(enc))
    if is_shared(enc):
        if isinstance(enc, NvmmaSharedEncodingAttr):
            rank, transposed = enc.rank or 2, enc.transposed
        elif enc.order is not None:
            return tuple(enc.order)
        else:
            rank, transposed = 2, False
        return _nvmma_transposed_order(rank) if transposed else reversed_order(rank)
    if is_dpas(enc):
        return (1, 0)
    if is_mfma(enc) and enc.is_transposed:
        # Triton 3.1.0 (measured): a transposed mfma is column-major, dim -2 fastest
        return _nvmma_transposed_order(rank_of(enc))
    if is_mma(enc) or is_dot_operand(enc):
        return reversed_order(rank_of(enc))
    if is_linear(enc):

        return linear_order(enc)
    raise UnsupportedLayout(f"order of {enc.name}")


def get_order_33(enc: Attribute) -> tuple[int, ...]:
    """getOrder of a distributed layout in 3.3: a blocked layout's own order; an accumulator row-major,
    transposed or not; a dot operand with K fastest (dim -1 for A, dim -2 for B); a slice its parent's without
    the sliced dim.  Measured through 3.3.1's optimize-amd-lds-usage, whose fallback layout takes it: a
    transposed MFMA gives [1, 0], its operand B [0, 1] (irkit/analysis/amd_lds_usage.py)."""
    if is_blocked(enc):
        return tuple(enc.order)
    if is_slice(enc):
        return erase_order(get_order_33(enc.parent), slice_dim(enc))
    rows = reversed_order(rank_of(enc))
    if is_dot_operand(enc) and enc.op_idx == 1:
        return (rows[1], rows[0], *rows[2:])
    return rows


def _nvmma_transposed_order(rank: int) -> tuple[int, ...]:
    # transposed nvmma_shared: the second-last dim is the contiguous one
    o = list(reversed_order(rank))
    o[0], o[1] = o[1], o[0]
    return tuple(o)


def contig_per_thread(enc: Attribute) -> tuple[int, ...]:
    """getContigPerThread (3.1)."""
    if is_blocked(enc):
        return tuple(enc.size_per_thread)
    if is_slice(enc):
        return erase_dim(contig_per_thread(enc.parent), slice_dim(enc))
    rank = rank_of(enc)
    if is_nvidia_mma(enc):
        if mma_version(enc) == 1:
            return (1,) * (rank - 2) + (1, 2)
        return (1,) * (rank - 1) + (2,)
    if is_mfma(enc):
        # 4 consecutive rows per thread; Triton 3.1.0 reports it along dim -2 also for transposed mfma
        # (measured: the last dim never vectorises the scratch of a transposed mfma convert)
        return (1,) * (rank - 2) + (4, 1)
    if is_wmma(enc):
        return (1,) * (rank - 2) + (8, 1)
    if is_dpas(enc):
        c0, _ = dpas_shape_c(enc)
        if enc.threads_per_warp == enc.execution_size:
            return (c0, 1)
        return (1, 1)
    if is_dot_operand(enc):
        return _dot_size_per_thread(enc)
    if is_linear(enc):

        return linear_contig_per_thread(enc)
    raise UnsupportedLayout(f"contigPerThread of {enc.name}")


def unique_contig_per_thread(enc: Attribute, shape: Sequence[int]) -> tuple[int, ...]:
    """getUniqueContigPerThread: min(shape[d], contig[d]); slices recurse on the padded parent shape."""
    if is_slice(enc):
        parent = enc.parent
        p = unique_contig_per_thread(parent, slice_padded_shape(enc, shape))
        return erase_dim(p, slice_dim(enc))
    c = contig_per_thread(enc)
    return tuple(min(s, x) for s, x in zip(shape, c))


def shape_per_cta_tile(enc: Attribute, shape: Sequence[int] | None = None) -> tuple[int, ...]:
    """getShapePerCTATile (3.1): the tensor extent one CTA covers with one repetition of the layout."""
    if is_blocked(enc):
        return tuple(
            s * t * w
            for s, t, w in zip(enc.size_per_thread, enc.threads_per_warp, enc.warps_per_cta)
        )
    if is_slice(enc):
        parent = enc.parent
        pshape = slice_padded_shape(enc, shape) if shape is not None else None
        return erase_dim(shape_per_cta_tile(parent, pshape), slice_dim(enc))
    rank = rank_of(enc)
    if is_nvidia_mma(enc):
        w = enc.warps_per_cta
        v = mma_version(enc)
        if v == 1:
            return (1,) * (rank - 2) + (16 * w[-2], 16 * w[-1])
        if v == 2:
            return tuple(w[:-2]) + (16 * w[-2], 8 * w[-1])
        if v == 3:
            instr = enc.instr_shape or (16, 8, 16)
            return (16 * w[0], instr[1] * w[1])
        raise UnsupportedLayout(f"nvidia_mma v{v}")
    if is_mfma(enc):
        w = enc.warps_per_cta
        m, n = mfma_mn(enc)
        return tuple(w[:-2]) + (m * w[-2], n * w[-1])
    if is_wmma(enc):
        w = enc.warps_per_cta
        instr = enc.instr_shape or (16, 16, 16)
        return tuple(w[:-2]) + (instr[0] * w[-2], instr[1] * w[-1])
    if is_dpas(enc):
        w = enc.warps_per_cta
        c0, c1 = dpas_shape_c(enc)
        batch = (enc.rep_cluster[0] * w[0],) if rank == 3 else ()
        return batch + (c0 * w[-2], c1 * w[-1])
    if is_dot_operand(enc):
        return _dot_shape_per_cta_tile(enc, shape)
    if is_linear(enc):

        return linear_shape_per_cta_tile(enc)
    raise UnsupportedLayout(f"shapePerCTATile of {enc.name}")


def _dot_shape_per_cta_tile(enc: DotOperandEncodingAttr, shape: Sequence[int] | None) -> tuple[int, ...]:
    parent = enc.parent
    op = enc.op_idx
    pt = shape_per_cta_tile(parent, shape)
    rank = len(pt)
    lead = tuple(pt[:-2])
    if is_nvidia_mma(parent):
        return lead + ((pt[-2], 16) if op == 0 else (16, pt[-1]))
    if is_mfma(parent):
        return lead + ((pt[-2], 32) if op == 0 else (32, pt[-1]))
    if is_wmma(parent):
        return lead + ((pt[-2], 16) if op == 0 else (16, pt[-1]))
    if is_dpas(parent):
        if op == 0:
            return lead + (pt[-2], dpas_shape_a(parent)[1])
        # Intel's getSizePerThreadForOperand(B) divides getShapeB, which already holds the repCluster, by the
        # execution size and multiplies by the repCluster again (3.1 to 3.3): B spans repCluster^2 columns
        rc = parent.rep_cluster or (1, 1)
        return lead + (dpas_shape_b(parent)[0], pt[-1] * rc[-1])
    if is_blocked(parent):
        # FMA dot operands: the K dim is owned whole by each thread
        k = rank - 1 if op == 0 else rank - 2
        out = list(pt)
        if shape is not None:
            out[k] = shape[k]
        return tuple(out)
    raise UnsupportedLayout(f"shapePerCTATile of dot_op with parent {parent.name}")


def warps_per_cta_with_unique_data(enc: Attribute, shape: Sequence[int]) -> tuple[int, ...]:
    """getWarpsPerCTAWithUniqueData: min(wpc[d], ceil(shape[d] / (spt[d]*tpw[d])))."""
    if is_slice(enc):
        p = warps_per_cta_with_unique_data(enc.parent, slice_padded_shape(enc, shape))
        return erase_dim(p, slice_dim(enc))
    w = warps_per_cta(enc)
    spt = size_per_thread(enc)
    tpw = threads_per_warp(enc)
    return tuple(min(w[i], max(1, -(-shape[i] // (spt[i] * tpw[i])))) for i in range(len(w)))


def threads_per_warp_with_unique_data(enc: Attribute, shape: Sequence[int]) -> tuple[int, ...]:
    """getThreadsPerWarpWithUniqueData: min(tpw[d], ceil(shape[d] / spt[d]))."""
    if is_slice(enc):
        p = threads_per_warp_with_unique_data(enc.parent, slice_padded_shape(enc, shape))
        return erase_dim(p, slice_dim(enc))
    tpw = threads_per_warp(enc)
    spt = size_per_thread(enc)
    return tuple(min(tpw[i], max(1, -(-shape[i] // spt[i]))) for i in range(len(tpw)))


def num_elements_per_thread(enc: Attribute, shape: Sequence[int]) -> int:
    """getTotalElemsPerThread for blocked/slice/mma (3.1): elements (with repetitions) each thread holds."""
    if is_slice(enc):
        # elements of the parent (with the sliced dim of size 1), as SliceEncodingAttr::getElemsPerThread
        return num_elements_per_thread(enc.parent, slice_padded_shape(enc, shape))
    if is_blocked(enc):
        spt = enc.size_per_thread
        tile = shape_per_cta_tile(enc)
        sp = shape_per_cta(enc, shape)
        return prod(s * max(1, -(-n // t)) for s, n, t in zip(spt, sp, tile))
    if is_linear(enc) or is_mma(enc) or is_dot_operand(enc):

        ll = to_linear_layout(enc, shape)
        if ll is not None:
            return ll.in_dim_size("register")
    spt = size_per_thread(enc)
    tile = shape_per_cta_tile(enc, shape)
    sp = shape_per_cta(enc, shape)
    return prod(s * max(1, -(-n // t)) for s, n, t in zip(spt, sp, tile))


def legacy_elems_per_thread(enc: Attribute, shape: Sequence[int]) -> tuple[int, ...] | None:
    """getElemsPerThread of the legacy (pre-linear-layout) layouts, per dim; None where not modelled."""
    if is_blocked(enc):
        spt = enc.size_per_thread
        tile = shape_per_cta_tile(enc)
        sp = shape_per_cta(enc, shape)
        return tuple(s * max(1, -(-n // t)) for s, n, t in zip(spt, sp, tile))
    if is_slice(enc):
        p = legacy_elems_per_thread(enc.parent, slice_padded_shape(enc, shape))
        return None if p is None else erase_dim(p, slice_dim(enc))
    if is_mma_v2(enc):
        w = enc.warps_per_cta
        sp = shape_per_cta(enc, shape)
        lead = tuple(max(1, -(-sp[i] // w[i])) for i in range(len(sp) - 2))
        return lead + (2 * max(1, -(-sp[-2] // (16 * w[-2]))), 2 * max(1, -(-sp[-1] // (8 * w[-1]))))
    if is_mma_v3(enc):
        w = enc.warps_per_cta
        n = (enc.instr_shape or (16, 8, 16))[1]
        sp = shape_per_cta(enc, shape)
        return (2 * max(1, -(-sp[0] // (16 * w[0]))), (n // 4) * max(1, -(-sp[1] // (n * w[1]))))
    return None


# ---------------------------------------------------------------------------------------------
# Construction (BlockedEncodingAttr::get, docs §4.1)
# ---------------------------------------------------------------------------------------------


def _clamp(v: int, lo: int, hi: int) -> int:
    return max(lo, min(v, hi))


def blocked_layout(
    shape: Sequence[int],
    size_per_thread: Sequence[int],
    order: Sequence[int],
    num_warps: int,
    threads_per_warp: int,
    cta_layout: CTALayout | None = None,
) -> BlockedEncodingAttr:
    """Triton's TableGen builder `BlockedEncodingAttr::get(shape, sizePerThread, order, numWarps, tpw, CTALayout)`.

    Threads and then warps are spread over the dims in `order` (fastest first), each dim taking at most
    shapePerCTA/sizePerThread threads; the slowest dim takes whatever is left.  `cta_layout` (CTAsPerCGA,
    CTASplitNum, CTAOrder) divides the shape per CTA and is copied into the attribute."""
    rank = len(shape)
    if cta_layout is not None:
        split = cta_layout.cta_split_num or (1,) * rank
        shape_cta = [max(1, s // c) for s, c in zip(shape, split)]
    else:
        shape_cta = list(shape)
    tpw = [0] * rank
    wpc = [0] * rank
    rem_lanes = threads_per_warp
    rem_threads = num_warps * threads_per_warp
    rem_warps = num_warps
    prev_lanes = 1
    prev_warps = 1
    for d in range(rank - 1):
        i = order[d]
        threads_per_cta = _clamp(rem_threads, 1, max(1, shape_cta[i] // size_per_thread[i]))
        tpw[i] = _clamp(threads_per_cta, 1, rem_lanes)
        wpc[i] = _clamp(threads_per_cta // tpw[i], 1, rem_warps)
        rem_warps //= wpc[i]
        rem_lanes //= tpw[i]
        rem_threads //= threads_per_cta
        prev_lanes *= tpw[i]
        prev_warps *= wpc[i]
    last = order[rank - 1]
    tpw[last] = threads_per_warp // prev_lanes
    wpc[last] = num_warps // prev_warps
    cta = cta_layout._asdict() if cta_layout is not None else {}
    return BlockedEncodingAttr.of(
        size_per_thread=tuple(size_per_thread), threads_per_warp=tuple(tpw), warps_per_cta=tuple(wpc), order=tuple(order),
        **cta,
    )


# ---------------------------------------------------------------------------------------------
# Element sizes
# ---------------------------------------------------------------------------------------------


def elem_bits(t: Attribute) -> int:
    """Bit width of a (tensor/memdesc element) type as Triton's allocation counts it.

    Pointers are 64 bits (kPtrBitWidth); integers their width (i1 is 1: callers that need bytes use
    `elem_bytes`, which rounds i1 up to 1 byte as Triton's max(1, bits/8) / max(8, bits)/8 do); floats
    their width (fp8 = 8, bf16/f16 = 16, tf32 = 32); index is 64."""
    from irkit.dialects.types import MemDescType, PointerType

    if isinstance(t, (TensorType, MemDescType)):
        t = t.element_type
    if isinstance(t, PointerType):
        return 64
    if isinstance(t, IntegerType):
        return t.width.data
    if isinstance(t, IndexType):
        return 64
    if isinstance(t, AnyFloat):
        return t.bitwidth
    bw = getattr(t, "bitwidth", None)
    if isinstance(bw, int):
        return bw
    name = getattr(t, "name", "")
    if "f8" in name or "fp8" in name.lower() or "float8" in name.lower():
        return 8
    raise UnsupportedLayout(f"bit width of {t}")


def elem_bytes(t: Attribute) -> int:
    """max(1, bits/8): bytes per element in convert_layout scratch (pointers 8, i1 1)."""
    return max(1, elem_bits(t) // 8)


def ceil_bytes(t: Attribute) -> int:
    """ceil(bits/8): bytes per element in reduce/scan scratch (i1 -> 1)."""
    return -(-elem_bits(t) // 8)
