"""Scratch shared memory per op, as Triton's Allocation analysis sizes it per version: `convert_layout`
(padded repShape in 3.1/3.3, swizzled linear layouts in 3.9), `tt.reduce`, `tt.scan`, `tt.histogram`,
`tt.gather`, scalar atomics (docs/triton-passes.md §5, docs/shared-memory.md)."""

from __future__ import annotations

from collections.abc import Sequence
from math import prod

from xdsl.dialects.builtin import (
    NoneAttr,
    TensorType,
)
from xdsl.ir import Attribute, Operation

from irkit.analysis.triton_versions import APPROX, V31, V33, V39, attr_int
from irkit.dialects.types import PointerType
from irkit.layout import algebra, conversion, intel_conversion, linear

# ---------------------------------------------------------------------------------------------
# Scratch sizes
# ---------------------------------------------------------------------------------------------


def _tensor(t: Attribute) -> TensorType | None:
    return t if isinstance(t, TensorType) else None


def cvt_bits(t: TensorType) -> int:
    return 64 if isinstance(t.element_type, PointerType) else algebra.elem_bits(t)


def _cvt_elem_bytes(t: TensorType) -> int:
    """ptr ? 8 : max(8, bits) / 8."""
    if isinstance(t.element_type, PointerType):
        return 8
    return max(8, algebra.elem_bits(t)) // 8


def padded_rep_shape_31(src: TensorType, dst: TensorType) -> tuple[list[int], int, int] | None:
    """getScratchConfigForCvtLayout @U31: (paddedRepShape, inVec, outVec); None if no shared memory."""
    se, de = src.encoding, dst.encoding
    shape = tuple(src.get_shape())
    s_cta, d_cta = algebra.shape_per_cta(se, shape), algebra.shape_per_cta(de, shape)
    s_tile, d_tile = algebra.shape_per_cta_tile(se, shape), algebra.shape_per_cta_tile(de, shape)
    rank = len(shape)
    rep = [max(min(s_cta[d], s_tile[d]), min(d_cta[d], d_tile[d])) for d in range(rank)]
    if algebra.num_ctas(se) > 1 and _cta_layout(se) != _cta_layout(de):
        return list(s_cta), 1, 1
    # getCvtOrder: mma / dot operands take the other side's order
    in_ord = algebra.get_order(de) if (algebra.is_nvidia_mma(se) or algebra.is_dot_operand(se)) else algebra.get_order(se)
    out_ord = algebra.get_order(se) if (algebra.is_nvidia_mma(de) or algebra.is_dot_operand(de)) else algebra.get_order(de)
    src_c = algebra.unique_contig_per_thread(se, shape)[in_ord[0]]
    dst_c = algebra.unique_contig_per_thread(de, shape)[out_ord[0]]
    inner = rank - 1
    in_vec = 1 if out_ord[0] != inner else (1 if in_ord[0] != inner else src_c)
    out_vec = 1 if out_ord[0] != inner else dst_c
    if algebra.is_nvidia_mma(se):
        if algebra.mma_version(se) == 1:
            in_vec = src_c
        elif algebra.is_blocked(de):
            out_vec = dst_c
    if rank <= 1:
        return rep, in_vec, out_vec
    padded_dim = algebra.get_order(de)[0] if algebra.is_blocked(de) else rank - 1
    rep[padded_dim] += max(in_vec, out_vec)
    return rep, in_vec, out_vec


def _cta_layout(enc: Attribute) -> tuple:
    return (algebra.ctas_per_cga(enc), algebra.cta_split_num(enc), algebra.cta_layout(enc).cta_order)


def _linear_view(enc: Attribute, shape: Sequence[int]):
    """(order, contigPerThread, shapePerCTATile) as LinearEncodingAttr answers them (3.2+); the legacy
    answers for a layout with no linear form."""
    ll = linear.to_linear_layout(enc, shape, keep_broadcast_registers=True)
    if ll is None:
        return algebra.get_order(enc), algebra.unique_contig_per_thread(enc, shape), algebra.shape_per_cta_tile(enc, shape)
    split = algebra.cta_split_num(enc)
    return linear.ll_order(ll), linear.ll_contig_per_thread(ll), linear.ll_shape_per_cta_tile(ll, split)


def _rep_shape(config: tuple[list[int], int, int] | None) -> list[int]:
    """The padded rep shape of a conversion already known to need shared memory."""
    assert config is not None
    return config[0]


def _given(field: tuple[int, ...] | None) -> tuple[int, ...]:
    """A layout field the layout always prints (a blocked layout's sizePerThread, ...)."""
    assert field is not None
    return field


def padded_rep_shape_33(
    src: TensorType, dst: TensorType, layout_tiles: bool = False
) -> tuple[list[int], int, int] | None:
    """getScratchConfigForCvt (3.2/3.3): linear-encoding tiles/orders/contiguity, vectors clamped to the
    rep shape and to 128 bits, no padding when all dims but the fastest are 1, the pad on the destination's
    fastest dim.  `layout_tiles`: each layout's own getShapePerCTATile, as Intel's 3.3 line (triton-xpu
    3.3.0b1, from its release/3.3.0 branch) still takes them."""
    se, de = src.encoding, dst.encoding
    shape = tuple(src.get_shape())
    s_cta, d_cta = algebra.shape_per_cta(se, shape), algebra.shape_per_cta(de, shape)
    in_ord, s_contig, s_tile = _linear_view(se, shape)
    out_ord, d_contig, d_tile = _linear_view(de, shape)
    if layout_tiles:
        s_tile, d_tile = algebra.shape_per_cta_tile(se, shape), algebra.shape_per_cta_tile(de, shape)
    rank = len(shape)
    rep = [max(min(s_cta[d], s_tile[d]), min(d_cta[d], d_tile[d])) for d in range(rank)]
    if algebra.num_ctas(se) > 1 and _cta_layout(se) != _cta_layout(de):
        return list(s_cta), 1, 1
    src_c, dst_c = s_contig[in_ord[0]], d_contig[out_ord[0]]
    inner = rank - 1
    in_vec = 1 if out_ord[0] != inner else (1 if in_ord[0] != inner else src_c)
    out_vec = 1 if out_ord[0] != inner else dst_c
    if algebra.is_nvidia_mma(se) and algebra.is_blocked(de):
        out_vec = dst_c
    order0 = out_ord[0]
    contiguous = rep[order0]
    in_vec = min(in_vec, contiguous, 128 // cvt_bits(src))
    out_vec = min(out_vec, contiguous, 128 // cvt_bits(dst))
    if rank <= 1 or prod(rep) == rep[order0]:
        return rep, in_vec, out_vec
    rep = list(rep)
    rep[order0] += max(in_vec, out_vec)
    return rep, in_vec, out_vec


def cvt_scratch_bytes(
    src: TensorType,
    dst: TensorType,
    version: str,
    target: str | None = None,
    leave_reps: bool = True,
    broadcast_warps: bool | None = None,
    padded: bool = False,
    larger: bool = False,
    amd_ldst: str | None = None,
) -> tuple[int, str]:
    """Scratch bytes of `convert_layout src -> dst` under a version's rules, and a note when approximate.
    `leave_reps=False`: the ld/stmatrix swizzling of Triton 3.4/3.5 (`triton_versions.matrix_tiles_leave_reps`);
    `broadcast_warps`: the warp shuffles of 3.9.0 on (True) or of 3.4-3.8 (`triton_versions.broadcast_warps_shuffle`;
    None: from `version`); `padded`: AMD's padded scratch (getNumScratchElemsPaddedCvt), which a convert marked
    `use_padded_scratch_shmem` takes from 3.5 on; `larger`: the larger of the swizzled and the padded scratch, as
    Triton 3.4 takes (`triton_versions.cvt_takes_larger_scratch`); `amd_ldst`: AMD's ld/st swizzling of the
    release (`triton_versions.amd_ldst_rules`)."""
    se, de = src.encoding, dst.encoding
    if se is None or de is None or algebra.is_shared(se) or algebra.is_shared(de):
        return 0, ""
    shape = tuple(src.get_shape())
    bits = cvt_bits(src)
    elem = src.element_type
    note = ""
    try:
        if version == V31:
            if not conversion.cvt_needs_shared_memory(se, de, shape, elem, V31):
                # 3.1.0 sizes a shortcut convert as the product of an empty rep shape: one element
                return _cvt_elem_bytes(src), "register/shortcut convert: Triton 3.1 still reserves one element"
            rep = _rep_shape(padded_rep_shape_31(src, dst))
            return prod(rep) * _cvt_elem_bytes(src), note
        # Intel's fork sizes its sub-group transposes itself, ahead of the common rules
        intel = intel_conversion.is_intel_target(target)
        if intel and intel_conversion.cvt_is_sub_group_transpose(se, de, shape, elem):
            return intel_conversion.sub_group_transpose_bytes(se, shape, _cvt_elem_bytes(src)), note
        if version == V33:
            if not conversion.cvt_needs_shared_memory(se, de, shape, elem, V33, target):
                return 0, ""
            rep = _rep_shape(padded_rep_shape_33(src, dst, layout_tiles=intel))
            return prod(rep) * _cvt_elem_bytes(src), note
        # 3.9
        if not conversion.cvt_needs_shared_memory(se, de, shape, elem, V39, target, broadcast_warps):
            return 0, ""
        padded_bytes = prod(_rep_shape(padded_rep_shape_33(src, dst))) * _cvt_elem_bytes(src)
        if padded:
            return padded_bytes, note
        n = conversion.swizzled_scratch_elems(se, de, shape, bits, target, leave_reps, amd_ldst)
        if n is None:
            return padded_bytes, f"{APPROX}no linear layout for this convert: 3.3 padded formula used"
        return max(n * bits // 8, padded_bytes) if larger else n * bits // 8, note
    except (algebra.UnsupportedLayout, ValueError, KeyError, TypeError, IndexError) as e:
        # unknown layout: the whole tensor, unpadded (an upper bound for the padded formula's rep shape)
        return prod(algebra.shape_per_cta(se, shape)) * _cvt_elem_bytes(src), f"{APPROX}layout not modelled ({e}): whole tensor assumed"


def reduce_scratch_bytes(op: Operation, version: str) -> tuple[int, str]:
    """ReduceOpHelper::getScratchSizeInBytes.  3.1/3.3: srcShape with the reduced axis replaced by the
    warps holding distinct data along it (0 if a single warp), times the summed element bytes.  3.9: the
    linear-layout reduction (cross-warp converts of the partially reduced layout)."""
    tys = [o.type for o in op.operands if isinstance(o.type, TensorType)]
    if not tys:
        return 0, ""
    src = tys[0]
    axis = attr_int(op.properties.get("axis") or op.attributes.get("axis")) or 0
    shape = tuple(src.get_shape())
    enc = src.encoding
    if isinstance(enc, NoneAttr):
        return 0, "no layout (TTIR): Triton allocates shared memory only for TTGIR"
    if version == V39:
        got = _reduce_scratch_ll(tys, axis)
        if got is not None:
            return got, ""
    try:
        wpc = algebra.warps_per_cta_with_unique_data(enc, shape)
        if wpc[axis] == 1:
            return 0, ""
        contig = algebra.unique_contig_per_thread(enc, shape)[axis]
        tpw = algebra.threads_per_warp_with_unique_data(enc, shape)[axis]
        intra = min(shape[axis] // max(1, contig), tpw)
        inter = min(shape[axis] // max(1, intra), wpc[axis])
        smem = list(shape)
        smem[axis] = inter
        per_elem = sum(algebra.ceil_bytes(t) for t in tys)
        note = f"{APPROX}3.9 linear-layout reduce not modelled for this layout; 3.1 formula used" if version == V39 else ""
        return prod(smem) * per_elem, note
    except (algebra.UnsupportedLayout, ValueError, TypeError, IndexError) as e:
        return prod(shape) * sum(algebra.ceil_bytes(t) for t in tys), f"{APPROX}reduce layout not modelled ({e}): whole tensor assumed"


def _reduce_scratch_ll(tys: list[TensorType], axis: int) -> int | None:
    """ReduceOpHelper::getScratchSizeInBytes (3.9): move the warp bases of the reduced axis into lanes
    with converts of the partially reduced layout; the largest convert's swizzled scratch."""
    src = tys[0]
    shape = tuple(src.get_shape())
    ll = linear.to_linear_layout(src.encoding, shape)
    if ll is None:
        return None
    ll = _reduced_reg_lane_layout(ll, axis)
    best = 0
    guard = 0
    while ll.out_dims[axis][1] != 1 and guard < 8:
        guard += 1
        tmp = _inter_layout(ll, axis)
        total = 0
        for t in tys:
            bits = algebra.elem_bits(t)
            ls = ll.remove_zero_bases(linear.REG)
            lt = tmp.remove_zero_bases(linear.REG)
            smem = conversion.swizzled_scratch_layout(ls, lt, bits)
            n = (1 << smem["dim"][0]) // (1 << len(smem["reps"]))
            total += n * (bits // 8)
        best = max(best, total)
        ll = _zero_and_reorder(tmp, axis, linear.LANE)
    return best


def _zero_and_reorder(ll: linear.LinearLayout, axis: int, dim: str) -> linear.LinearLayout:
    """zeroBasesAlongDimAndReorder: zero the `axis` component of in dim `dim`, then renumber the remaining
    `axis` components 1, 2, 4, ... in (in dim, basis) order; the axis shrinks accordingly."""
    bases = {d: [list(v) for v in vs] for d, vs in ll.bases.items()}
    for v in bases.get(dim, []):
        v[axis] = 0
    nxt = 1
    for d in bases:
        for v in bases[d]:
            if v[axis] == 0:
                continue
            v[axis] = nxt
            nxt *= 2
    outs = list(ll.out_dims)
    outs[axis] = (outs[axis][0], nxt)
    return linear.LinearLayout(bases, outs)


def _reduced_reg_lane_layout(ll: linear.LinearLayout, axis: int) -> linear.LinearLayout:
    ll = ll.remove_zero_bases(linear.REG)
    regs = ll.bases.get(linear.REG, [])
    front = [v for v in regs if v[axis] != 0]
    back = [v for v in regs if v[axis] == 0]
    bases = dict(ll.bases)
    bases[linear.REG] = front + back
    ll = linear.LinearLayout(bases, ll.out_dims)
    ll = _zero_and_reorder(ll, axis, linear.REG)
    ll = ll.remove_zero_bases(linear.REG)
    return _zero_and_reorder(ll, axis, linear.LANE)


def _inter_layout(ll: linear.LinearLayout, axis: int) -> linear.LinearLayout:
    """getInterLayout: swap the warp (and block) bases moving along `axis` into lane slots."""
    bases = {d: [list(v) for v in vs] for d, vs in ll.bases.items()}
    lanes, warps, blocks = bases.get(linear.LANE, []), bases.get(linear.WARP, []), bases.get(linear.BLOCK, [])
    warp_ax = [i for i, v in enumerate(warps) if v[axis] != 0]
    block_ax = [i for i, v in enumerate(blocks) if v[axis] != 0]
    zero_lanes = [i for i, v in enumerate(lanes) if not any(v)]
    total = len(warp_ax) + len(block_ax)
    if len(zero_lanes) >= total:
        slots = zero_lanes
    else:
        slots = list(range(len(lanes)))
    k = 0
    for i in warp_ax:
        if k >= len(slots):
            break
        lanes[slots[k]], warps[i] = warps[i], lanes[slots[k]]
        k += 1
    if len(zero_lanes) >= total or total <= len(lanes):
        for i in block_ax:
            if k >= len(slots):
                break
            lanes[slots[k]], blocks[i] = blocks[i], lanes[slots[k]]
            k += 1
    return linear.LinearLayout(bases, ll.out_dims)


def scan_scratch_bytes(op: Operation, num_warps: int, version: str = V31) -> tuple[int, str]:
    """ScanLoweringHelper::getScratchSizeInBytes (blocked layouts only).

    numWarps * nonAxisThreadsPerWarp * nonAxisElemsPerThread * axisBlocks * nonAxisBlocks elements, each
    the sum of the operands' bytes; 0 when a single warp spans the axis.  From 3.2 on the counts come
    from the linear layout with broadcast registers/lanes/warps dropped (a small tensor uses fewer warps)."""
    tys = [o.type for o in op.operands if isinstance(o.type, TensorType)]
    if not tys:
        return 0, ""
    src = tys[0]
    enc = src.encoding
    axis = attr_int(op.properties.get("axis") or op.attributes.get("axis")) or 0
    shape = tuple(src.get_shape())
    if not algebra.is_blocked(enc):
        return 0, f"{APPROX}tt.scan on a non-blocked layout (Triton rejects it in lowering): 0 bytes"
    per_elem = sum(algebra.ceil_bytes(t) for t in tys)
    if version != V31:
        ll = linear.to_linear_layout(enc, shape)
        if ll is not None:
            ll = ll.remove_zero_bases(linear.REG)
            tpw = linear._bases_per_dim_ll(ll, linear.LANE)
            wpc = linear._bases_per_dim_ll(ll, linear.WARP)
            contig = list(linear.ll_contig_per_thread(ll))
            if wpc[axis] == 1:
                return 0, ""
            axis_blocks = -(-shape[axis] // (contig[axis] * tpw[axis] * wpc[axis]))
            non_axis_blocks = 1
            for i in range(len(shape)):
                if i != axis:
                    non_axis_blocks *= -(-shape[i] // (contig[i] * tpw[i] * wpc[i]))
            non_axis_threads = prod(tpw) // tpw[axis]
            c = list(contig)
            c[axis] = 1
            elems = prod(wpc) * non_axis_threads * prod(c) * axis_blocks * non_axis_blocks
            return elems * per_elem, ""
    wpc_u = algebra.warps_per_cta_with_unique_data(enc, shape)
    if wpc_u[axis] == 1:
        return 0, ""
    spt, tpw, wpc = (list(_given(v)) for v in (enc.size_per_thread, enc.threads_per_warp, enc.warps_per_cta))
    contig = list(algebra.contig_per_thread(enc))
    contig[axis] = 1
    tpw_na = list(tpw)
    tpw_na[axis] = 1
    axis_blocks = -(-shape[axis] // (spt[axis] * tpw[axis] * wpc[axis]))
    non_axis_blocks = 1
    for i in range(len(shape)):
        if i != axis:
            non_axis_blocks *= -(-shape[i] // (spt[i] * tpw[i] * wpc[i]))
    elems = num_warps * prod(tpw_na) * prod(contig) * axis_blocks * non_axis_blocks
    return elems * per_elem, ""


def histogram_scratch_bytes(op: Operation, threads_per_warp: int) -> int:
    dst = op.results[0].type
    if not isinstance(dst, TensorType):
        return 0
    return max(prod(dst.get_shape()), threads_per_warp) * max(8, algebra.elem_bits(dst)) // 8


def atomic_scratch_bytes(op: Operation, version: str) -> int:
    """Scalar atomics return one value to every thread through shared memory."""
    if not op.operands or isinstance(op.operands[0].type, TensorType):
        return 0
    if not op.results:
        return 0
    if version != V31 and not op.results[0].uses:
        return 0
    ptr = op.operands[0].type
    elem = ptr.pointee if isinstance(ptr, PointerType) else op.results[0].type
    return max(8, algebra.elem_bits(elem)) // 8


def gather_scratch_bytes(op: Operation) -> int:
    """`GatherLoweringHelper::getScratchSizeInBytes` (3.3+): none when the gather is warp-local, else the
    whole source."""
    src = op.operands[0].type if op.operands else None
    if not isinstance(src, TensorType):
        return 0
    if gather_is_warp_local(op):
        return 0
    return prod(src.get_shape()) * algebra.ceil_bytes(src)


def gather_is_warp_local(op: Operation) -> bool:
    """`GatherLoweringHelper::isWarpLocal`: no warp or block basis of the source or the indices moves along
    the gather axis, and both map warps/blocks and lanes alike onto the other dims (so each warp holds every
    source element its indices can name, in the same lanes).  The layouts Triton's optimize-thread-locality
    gives a gather (`efficient_layout`) are built to pass."""
    src, idx = (v.type for v in op.operands[:2])
    axis = attr_int(op.properties.get("axis") or op.attributes.get("axis"))
    if not isinstance(src, TensorType) or not isinstance(idx, TensorType) or axis is None:
        return False
    try:
        src_ll, idx_ll = (linear.to_linear_layout(t.encoding, t.get_shape()) for t in (src, idx))
    except (algebra.UnsupportedLayout, ValueError, KeyError):
        return False  # a layout irkit cannot map: the whole source, as the conservative answer
    if src_ll is None or idx_ll is None:
        return False
    layouts = (src_ll, idx_ll)
    names = linear.dim_names(len(src.get_shape()))
    gather_dim, other_dims = names[axis], [d for d in names if d != names[axis]]

    def sub(ll: linear.LinearLayout, in_dims: Sequence[str], outs: Sequence[str]) -> list[list[tuple[int, ...]]]:
        cols = [ll.out_dim_index(o) for o in outs]
        return [[tuple(b[c] for c in cols) for b in ll.bases.get(d, ())] for d in in_dims]

    if any(b != (0,) for ll in layouts for bases in sub(ll, ("block", "warp"), (gather_dim,)) for b in bases):
        return False
    return all(sub(layouts[0], ins, other_dims) == sub(layouts[1], ins, other_dims)
               for ins in (("block", "warp"), ("lane",)))
