"""Layout conversions decided on linear layouts (`irkit.layout.linear`): does a `convert_layout` stay in
registers, inside a warp, or go through shared memory, and how much scratch does it need.

* `cvt_is_register_only(src, dst, shape)`: every thread holds the same elements before and after
  (Triton's "LL(src)^-1 o LL(dst) divides by identity(lane x warp x block)", `cvtReordersRegisters`);
* `cvt_is_warp_local(src, dst, shape)`: every warp holds the elements it needs (3.9.0's warp-shuffle
  candidates, before Triton's extra "fewer than 2 mixed transpositions" test; 3.4-3.8 take
  `minimal_cvt_layout`'s);
* `cvt_needs_shared_memory(src, dst, shape, version)`: the per-version decision of §5.3/§5.6
  (3.1 also accepts the mma->mma, mma->dot and mfma->dot shortcuts);
* `swizzled_scratch_elems(src, dst, shape, bitwidth)`: the newest (3.9) scratch size of a convert,
  `getNumScratchElemsSwizzledCvt` built on `optimalSwizzlingLdSt` (lib/Tools/GenericSwizzling.cpp).

Where a decision cannot be made (a layout without a linear form) the functions are conservative: a
conversion is assumed to need shared memory, and the caller falls back to the padded-repShape formula.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from math import prod

from xdsl.dialects.builtin import BFloat16Type, Float16Type, Float32Type
from xdsl.ir import Attribute

from irkit.dialects.types import PointerType
from irkit.layout import algebra
from irkit.layout.intel_conversion import cvt_is_sub_group_shuffle, is_dpas_to_dot_shortcut, is_intel_target
from irkit.layout.linear import (
    BLOCK,
    LANE,
    REG,
    WARP,
    LinearLayout,
    _log2,
    invert_and_compose,
    ll_contig_per_thread,
    ll_order,
    to_linear_layout,
)

# ---------------------------------------------------------------------------------------------
# Conversion decisions
# ---------------------------------------------------------------------------------------------


def _span(vectors: Iterable[int]) -> list[int]:
    """Row-reduced basis (as ints) of the F2 span of `vectors`."""
    basis: list[int] = []
    for v in vectors:
        for b in basis:
            v = min(v, v ^ b)
        if v:
            basis.append(v)
            basis.sort(reverse=True)
    return basis


def _in_span(v: int, basis: list[int]) -> bool:
    for b in basis:
        v = min(v, v ^ b)
    return v == 0


def _same_span(a: Iterable[int], b: Iterable[int]) -> bool:
    sa, sb = _span(a), _span(b)
    return len(sa) == len(sb) and all(_in_span(x, sa) for x in sb)


def _elements_per_group(ll: LinearLayout, fixed: Sequence[str]) -> tuple[list[int], dict[str, list[int]]]:
    free = [x for d in ll.in_dims if d not in fixed for x in ll.flat_bases(d)]
    return free, {d: ll.flat_bases(d) for d in fixed}


def _same_groups(src: LinearLayout, dst: LinearLayout, fixed: Sequence[str]) -> bool:
    """Do src and dst give every index of the `fixed` in dims the same set of elements?

    The set owned by a fixed index x is L(x) + span(free bases), so the two layouts agree iff their free
    spans are equal and, for every fixed basis, the two images differ by an element of that span."""
    free_s, fix_s = _elements_per_group(src, fixed)
    free_d, fix_d = _elements_per_group(dst, fixed)
    if not _same_span(free_s, free_d):
        return False
    span = _span(free_s)
    for d in fixed:
        a, b = fix_s.get(d, []), fix_d.get(d, [])
        n = max(len(a), len(b))
        a = a + [0] * (n - len(a))
        b = b + [0] * (n - len(b))
        if any(not _in_span(x ^ y, span) for x, y in zip(a, b)):
            return False
    return True


def _warps_covered(src: LinearLayout, dst: LinearLayout) -> bool:
    """The data each (warp, block) of dst needs is already in the same (warp, block) of src.

    A warp (block) bit of dst must equal src's, except where src broadcasts over that bit (a zero basis):
    then dst may spread its data there, as long as src holds it in its lanes (Triton 3.9.0 on random
    converts: warp shuffles where src holds it in lanes, shared memory where only in registers; 3.4-3.8 take
    shared memory either way, `minimal_cvt_layout`)."""
    span = _span(src.flat_bases(REG) + src.flat_bases(LANE))
    if not all(_in_span(x, span) for x in dst.flat_bases(REG) + dst.flat_bases(LANE)):
        return False
    lanes = _span(src.flat_bases(LANE))
    for d in (WARP, BLOCK):
        a, b = src.flat_bases(d), dst.flat_bases(d)
        n = max(len(a), len(b))
        a = a + [0] * (n - len(a))
        b = b + [0] * (n - len(b))
        for x, y in zip(a, b):
            if x == y:
                continue
            if x != 0 or not _in_span(y, lanes):
                return False
    return True


def cvt_is_register_only(src: Attribute, dst: Attribute, shape: Sequence[int]) -> bool | None:
    """Every (lane, warp, block) holds the same elements in src and dst: a register permutation
    (Triton's cvtReordersRegisters / the U31 divideRight test).  None if a layout has no linear form."""
    ls, ld = to_linear_layout(src, shape), to_linear_layout(dst, shape)
    if ls is None or ld is None:
        return None
    return _same_groups(ls, ld, (LANE, WARP, BLOCK))


def _warps_same(src: Attribute, dst: Attribute, shape: Sequence[int]) -> bool:
    """3.2/3.3 warp locality: every (warp, block) holds exactly the same elements in src and dst."""
    ls, ld = to_linear_layout(src, shape), to_linear_layout(dst, shape)
    return ls is not None and ld is not None and _same_groups(ls, ld, (WARP, BLOCK))


def cvt_is_warp_local(src: Attribute, dst: Attribute, shape: Sequence[int]) -> bool | None:
    """Every (warp, block) holds the same elements in src and dst (data moves only inside warps)."""
    ls, ld = to_linear_layout(src, shape), to_linear_layout(dst, shape)
    if ls is None or ld is None:
        return None
    return _warps_covered(ls, ld)


# -- 3.1 shortcuts (lib/Analysis/Utility.cpp, Triton 3.1.0) -------------------------------------


def _is_f32(elem: Attribute | int | None) -> bool:
    return isinstance(elem, Float32Type) or getattr(elem, "name", None) == "f32"


def _bits(elem: Attribute | int | None) -> int:
    if isinstance(elem, int):
        return elem
    if elem is None:
        return 32
    return algebra.elem_bits(elem)


def is_mma_to_mma_shortcut(src: Attribute, dst: Attribute) -> bool:
    """isMmaToMmaShortcut: Hopper mma -> Hopper mma, both with warpsPerCTA[1] == 1 (only the instruction N
    differs, the registers line up)."""
    return (
        algebra.is_mma_v3(src)
        and algebra.is_mma_v3(dst)
        and tuple(src.warps_per_cta)[1] == 1
        and tuple(dst.warps_per_cta)[1] == 1
    )


def is_mma_to_dot_shortcut(
    src: Attribute, dst: Attribute, elem: Attribute | int | None, version: str = "3.1"
) -> bool:
    """isMmaToDotShortcut: an mma accumulator read in place as the A operand of the next dot.

    3.1.0 (Utility.cpp before the linear-layout rewrite): mma v2 with warpsPerCTA[1] == 1 ->
    dot_op(opIdx 0, parent = that mma) for non-f32 elements; matchMmaV3AndDotOperandLayout: mma v3 ->
    dot_op(opIdx 0) whose parent and the source are both Hopper mma with warpsPerCTA[1] == 1, for 8/16-bit
    elements (a Hopper dot_op has no kWidth in 3.1: the parser rejects one).
    3.2/3.3: the Hopper case also requires kWidth == 32/bits (the dot_op carries a kWidth from 3.2 on)."""
    if not algebra.is_dot_operand(dst) or dst.op_idx != 0:
        return False
    parent = dst.parent
    legacy = _version_tuple(version) < (3, 2)
    if algebra.is_mma_v2(src):
        warps = tuple(src.warps_per_cta)
        return parent == src and (warps[1] if legacy else warps[-1]) == 1 and not _is_f32(elem)
    if algebra.is_mma_v3(src):
        bits = _bits(elem)
        if legacy:
            return is_mma_to_mma_shortcut(parent, src) and bits in (8, 16)
        parent_ok = parent == src or is_mma_to_mma_shortcut(parent, src)
        return (
            tuple(src.warps_per_cta)[1] == 1
            and parent_ok
            and bits in (8, 16)
            and dst.k_width == 32 // bits
        )
    return False


def is_mfma_to_dot_shortcut(src: Attribute, dst: Attribute, elem: Attribute | int | None) -> bool:
    """isMfmaToDotShortcut (3.1): transposed mfma (16 or 32) with warpsPerCTA[1] == 1 -> dot_op(opIdx 0,
    same parent, kWidth 4) of f16/bf16 elements."""
    if not (algebra.is_mfma(src) and algebra.is_dot_operand(dst)) or dst.op_idx != 0:
        return False
    name = getattr(elem, "name", "") if not isinstance(elem, int) else ""
    is_half = isinstance(elem, (Float16Type, BFloat16Type)) or name in ("f16", "bf16")
    try:
        m, _ = algebra.mfma_mn(src)
    except algebra.UnsupportedLayout:
        return False
    return (
        dst.parent == src
        and tuple(src.warps_per_cta)[1] == 1
        and bool(src.is_transposed)
        and dst.k_width == algebra.contig_per_thread(src)[-1]
        and m in (16, 32)
        and is_half
    )


# the first release whose warp shuffles take a dst warp bit that src broadcasts over (`cvt_needs_shared_memory`)
BROADCAST_WARP_SHUFFLES_FROM = (3, 9)


def cvt_needs_shared_memory(
    src: Attribute,
    dst: Attribute,
    shape: Sequence[int],
    elem: Attribute | int | None = None,
    version: str = "3.1",
    target: str | None = None,
    broadcast_warps: bool | None = None,
) -> bool:
    """Does a convert_layout src -> dst on `shape` go through shared memory?

    3.1.0: yes unless it is an mma->mma (Hopper), mma->dot or mfma->dot shortcut; Triton 3.1.0 has no
    linear-layout test here (measured: even a blocked -> identical blocked convert takes scratch).
    3.2/3.3: not if it is a register permutation (linear layouts), a blocked->dot_op(blocked) shortcut,
    the Hopper mma->dot shortcut or Intel's DPAS->operand A shortcut (Intel's fork, 3.3 and main); on an
    Intel `target`, not if a sub-group shuffle does it.  3.4+/3.9: also not when the data stays inside each
    warp and the permutation has fewer than 2 mixed register/lane transpositions (a warp shuffle): from 3.9.0
    (`broadcast_warps`; None: from `version`, so "3.8.0" is 3.4-3.8 and the rules' "3.9" the newest) even
    where dst spreads over a warp bit src broadcasts over; in 3.4-3.8 only where `minimal_cvt_layout` keeps
    no warps.  A layout without a linear form needs it."""
    major_minor = _version_tuple(version)
    if major_minor < (3, 2):
        return not (
            is_mma_to_mma_shortcut(src, dst)
            or is_mma_to_dot_shortcut(src, dst, elem, version)
            or is_mfma_to_dot_shortcut(src, dst, elem)
        )
    reg = cvt_is_register_only(src, dst, shape)
    if reg or is_dpas_to_dot_shortcut(src, dst):
        return False
    if is_intel_target(target) and cvt_is_sub_group_shuffle(src, dst, shape):
        return False
    if major_minor < (3, 4):
        if algebra.is_mma_v3(src) and is_mma_to_dot_shortcut(src, dst, elem, version):
            return False
        if reg is not None and _warps_same(src, dst, shape):
            if warp_shuffle_ok_33(src, dst, shape, _bits(elem), _is_ptr(elem)):
                return False
        return True
    ls, ld = to_linear_layout(src, shape), to_linear_layout(dst, shape)
    if ls is None or ld is None:
        return True
    if broadcast_warps is None:
        broadcast_warps = major_minor >= BROADCAST_WARP_SHUFFLES_FROM
    warp_local = _warps_covered(ls, ld) if broadcast_warps else minimal_cvt_layout(ls, ld).out_dim_names == [REG, LANE]
    return not (warp_local and mixed_transpositions(ls, ld) < 2)


def minimal_cvt_layout(src: LinearLayout, dst: LinearLayout) -> LinearLayout:
    """minimalCvtLayout (3.4+): the map from dst's hardware indices to src's, with the blocks, then the warps,
    then the lanes, then the registers quotiented out for as long as it maps them to themselves.  Out dims
    [register, lane] mean a warp shuffle may do the convert; a dst warp bit that src holds in its registers
    or lanes keeps the warps in, even where src broadcasts over that warp bit."""
    conv = invert_and_compose(dst, src)
    for dim in (BLOCK, WARP, LANE, REG):
        quotient = conv.quotient([dim])
        if quotient is None:
            break
        conv = quotient
    return conv


def _is_ptr(elem: Attribute | int | None) -> bool:
    return isinstance(elem, PointerType)


def scratch_cvt_in_out_vec(src: Attribute, dst: Attribute, shape: Sequence[int]) -> tuple[int, int]:
    """getScratchCvtInOutVecLengths (3.2/3.3) on the linear-encoding order and contiguity."""
    ls, ld = to_linear_layout(src, shape), to_linear_layout(dst, shape)
    if ls is None or ld is None:
        return 1, 1
    in_ord, out_ord = ll_order(ls), ll_order(ld)
    src_c, dst_c = ll_contig_per_thread(ls)[in_ord[0]], ll_contig_per_thread(ld)[out_ord[0]]
    inner = len(shape) - 1
    in_vec = 1 if out_ord[0] != inner else (1 if in_ord[0] != inner else src_c)
    out_vec = 1 if out_ord[0] != inner else dst_c
    if algebra.is_nvidia_mma(src) and algebra.is_blocked(dst):
        out_vec = dst_c
    return in_vec, out_vec


def warp_shuffle_ok_33(src: Attribute, dst: Attribute, shape: Sequence[int], bits: int, is_ptr: bool = False) -> bool:
    """getWarpLayoutConvertDecomposition (3.2/3.3) succeeds: a warp-local convert lowers to one warp shuffle.

    In C = (dst lane, dst reg) -> (src lane, src reg): no destination lane may broadcast; the destination
    lanes that read a source *register* ("missing lane rows") must be matched by destination registers that
    read a source *lane*, and at most one such row is allowed (more selects are slower than shared memory);
    sub-32-bit elements whose convert would vectorise by more than 4 on both sides keep shared memory."""
    ls, ld = to_linear_layout(src, shape), to_linear_layout(dst, shape)
    if ls is None or ld is None:
        return False
    where: dict[int, tuple[str, int]] = {}
    for d in (REG, LANE, WARP, BLOCK):
        for i, v in enumerate(ls.flat_bases(d)):
            if v and v not in where:
                where[v] = (d, i)
    missing = 0
    for v in ld.flat_bases(LANE):
        if v == 0:
            return False  # lane broadcast in dst
        w = where.get(v)
        if w is None or w[0] in (WARP, BLOCK):
            return False
        if w[0] == REG:
            missing += 1
    reg_to_lane = 0
    for v in ld.flat_bases(REG):
        w = where.get(v) if v else None
        if w is not None and w[0] == LANE:
            reg_to_lane += 1
    if missing > reg_to_lane or missing > 1:
        return False
    if algebra.is_dot_operand(src) and src.k_width == 0 or algebra.is_dot_operand(dst) and dst.k_width == 0:
        return False
    in_vec, out_vec = scratch_cvt_in_out_vec(src, dst, shape)
    if not is_ptr and bits < 32 and in_vec > 4 and out_vec > 4:
        return False
    return True


def _version_tuple(version: str | None) -> tuple[int, int]:
    if not version:
        return (3, 9)
    parts = version.split(".")
    return int(parts[0]), int(parts[1]) if len(parts) > 1 else 0


def mixed_transpositions(src: LinearLayout, dst: LinearLayout) -> int:
    """Number of (register, lane) transpositions in the warp-local permutation src -> dst
    (getWarpLayoutConvertDecomposition, 3.4+): the register->lane steps of its cycles.

    Both sides are padded with zero bases to the same number of register and lane bits; bits that are zero
    on both sides are fixed points, and the remaining zero bits of src are paired in order with those of
    dst.  A src basis whose data dst holds only across warps (src broadcasts over warps) has no image in
    dst's registers and lanes ("hole"); Triton's cycle walk then records a transposition for it, so each
    hole counts one (measured against Triton 3.9)."""
    s = src.remove_zero_bases(REG)
    t = dst.remove_zero_bases(REG)
    n_reg = max(s.in_dim_size_log2(REG), t.in_dim_size_log2(REG))
    n_lane = max(s.in_dim_size_log2(LANE), t.in_dim_size_log2(LANE))
    sv = s.flat_bases(REG) + [0] * (n_reg - s.in_dim_size_log2(REG))
    sv += s.flat_bases(LANE) + [0] * (n_lane - s.in_dim_size_log2(LANE))
    tv = t.flat_bases(REG) + [0] * (n_reg - t.in_dim_size_log2(REG))
    tv += t.flat_bases(LANE) + [0] * (n_lane - t.in_dim_size_log2(LANE))
    n = n_reg + n_lane
    where = {v: j for j, v in enumerate(tv) if v}
    perm = [-1] * n
    holes = 0
    src_free, dst_free = [], []
    for i, v in enumerate(sv):
        if v == 0 and tv[i] == 0:
            perm[i] = i
        elif v == 0:
            src_free.append(i)
        elif v in where:
            perm[i] = where[v]
        else:
            holes += 1
    for i, v in enumerate(tv):
        if v == 0 and sv[i] != 0:
            dst_free.append(i)
    for i, j in zip(src_free, dst_free):
        perm[i] = j
    # chains (broken by holes) first, from the bits nothing maps to; then the closed cycles
    has_pred = [False] * n
    for j in perm:
        if j >= 0:
            has_pred[j] = True
    count = 0
    seen = [False] * n

    def is_reg(k: int) -> bool:
        return k < n_reg

    for start in [k for k in range(n) if not has_pred[k]] + list(range(n)):
        if seen[start]:
            continue
        chain = not has_pred[start]
        j = start
        l_to_r = r_to_l = 0
        while not seen[j]:
            seen[j] = True
            nxt = perm[j]
            if nxt < 0:
                count += l_to_r + 1  # the hole closes what is pending and records one transposition
                break
            if is_reg(j) and not is_reg(nxt):
                r_to_l += 1
            elif not is_reg(j) and is_reg(nxt):
                l_to_r += 1
            j = nxt
        else:
            count += r_to_l if not chain else l_to_r
    return count


# ---------------------------------------------------------------------------------------------
# Newest scratch formula: generic swizzling (lib/Tools/GenericSwizzling.cpp)
# ---------------------------------------------------------------------------------------------


def _intersection_pow2(b1: Sequence[int], b2: Sequence[int]) -> list[int]:
    s2 = set(b2)
    return [b for b in b1 if b and b in s2]


def _get_vbasis(reg_src: list[int], reg_dst: list[int], lane_src: list[int], lane_dst: list[int], bitwidth: int) -> list[int]:
    vbasis = _intersection_pow2(reg_src, reg_dst)
    max_vec = _log2(max(1, 128 // bitwidth)) if bitwidth <= 128 else 0
    vbasis = vbasis[:max_vec]
    bases_per_bank = 0 if bitwidth > 32 else _log2(32 // bitwidth)
    lane_src_set, lane_dst_set = set(lane_src), set(lane_dst)

    def after_bank0(regs: list[int], vb: list[int], other_lane: set[int]) -> list[int]:
        vec: list[int] = []
        max_log2 = _log2(max(1, 128 // max(bitwidth, 32)))
        for r in regs:
            if r in vb:
                continue
            if r in other_lane:
                vec.append(r)
            if len(vec) == max_log2:
                break
        return vec

    vec_src = True
    if (1 << len(vbasis)) * bitwidth < 32:

        def is_prefix(prefix: list[int], regs: list[int]) -> bool:
            return len(prefix) <= len(regs) and regs[: len(prefix)] == prefix

        src_prefix, dst_prefix = is_prefix(vbasis, reg_src), is_prefix(vbasis, reg_dst)

        def front(regs: list[int]) -> list[int]:
            return list(vbasis) + [r for r in regs if r not in vbasis]

        if vbasis and not src_prefix and not dst_prefix:
            reg_src, reg_dst = front(reg_src), front(reg_dst)
            src_prefix = dst_prefix = True

        def fill(regs: list[int], vb: list[int]) -> list[int]:
            ret = list(vb)
            i = len(vb)
            while i < bases_per_bank and i < len(regs):
                ret.append(regs[i])
                i += 1
            return ret

        if src_prefix and dst_prefix:
            vs = after_bank0(reg_src, fill(reg_src, vbasis), lane_dst_set)
            vd = after_bank0(reg_dst, fill(reg_dst, vbasis), lane_src_set)
            src_prefix = len(vs) >= len(vd)
            dst_prefix = len(vd) > len(vs)
        vec_src = src_prefix
        vbasis = fill(reg_src if vec_src else reg_dst, vbasis)
    vbasis = vbasis + (after_bank0(reg_src, vbasis, lane_dst_set) if vec_src else after_bank0(reg_dst, vbasis, lane_src_set))
    return vbasis


def _compute_segment(bank_src: list[int], bank_dst: list[int], dim: int, len_segment: int) -> list[int]:
    set_src = {b for b in bank_src if b}
    set_dst = {b for b in bank_dst if b}
    segment = [1 << b for b in range(dim) if (1 << b) not in set_src and (1 << b) not in set_dst]
    if len(segment) >= len_segment:
        return segment[:len_segment]
    a = sorted(v for v in set_src if v not in set_dst)
    b = sorted(v for v in set_dst if v not in set_src)
    if len(a) > len(b):
        a, b = b, a
    log_conf = min(max(0, len_segment - len(a) - len(segment)), len(a))
    for i in range(log_conf, len(a)):
        segment.append(a[i] ^ b[i])
    segment += a[:log_conf]
    segment += b[:log_conf]
    return segment[:len_segment]


def _f2_rank(vectors: Iterable[int]) -> int:
    return len(_span(vectors))


def _intersection_dim(b1: Sequence[int], b2: Sequence[int]) -> int:
    """dim(span(b1) & span(b2)) (intersectionBasis(...).size())."""
    b1 = [b for b in b1 if b]
    b2 = [b for b in b2 if b]
    return _f2_rank(b1) + _f2_rank(b2) - _f2_rank(b1 + b2)


def _swizzle(
    reg_src: list[int],
    reg_dst: list[int],
    dim: int,
    bitwidth: int,
    vbasis: list[int],
    tile_src: list[int],
    tile_dst: list[int],
    leave_reps: int = 0,
    banks: int = 32,
) -> dict[str, list[int]]:
    """optimalSwizzling(src, dst, bitwidth, vbasis, tileSrc, tileDst, leaveReps) + buildReps, over `banks`
    32-bit banks."""
    bank_bits = banks * 32
    per_bank = bank_bits // ((1 << len(vbasis)) * bitwidth) if (1 << len(vbasis)) * bitwidth <= bank_bits else 1
    len_b = min(_log2(max(1, per_bank)), dim - len(vbasis))
    len_s = dim - len_b - len(vbasis)
    sbasis = _compute_segment(vbasis + tile_src, vbasis + tile_dst, dim, len_s)
    src_regs, dst_regs = set(reg_src), set(reg_dst)
    segment: list[int] = []
    reps: list[int] = []
    for x in sbasis:
        if x in src_regs and x in dst_regs:
            if leave_reps > 0:
                leave_reps -= 1
                segment.append(x)
            else:
                reps.append(x)
        else:
            segment.append(x)
    return {"vector": list(vbasis), "segment": segment, "reps": reps, "dim": [dim]}


def _vbasis_from_warps(reg_src: list[int], reg_dst: list[int], warp_src: list[int], warp_dst: list[int],
                       bitwidth: int) -> list[int]:
    """getVecBasisLdSt as AMD's Triton takes it from 3.5 (lib/Tools/GenericSwizzling.cpp, November 2025): the
    registers common to both sides, at most 128 bits; under 32 bits, filled up to one bank word from the side
    whose registers the other side holds in its warps, then with warp bases, and cut to one word."""
    vbasis = _intersection_pow2(reg_src, reg_dst)[: _log2(max(1, 128 // bitwidth))]
    if (1 << len(vbasis)) * bitwidth >= 32:
        return vbasis
    per_bank = _log2(32 // bitwidth)
    ws, wd = [w for w in warp_src if w], [w for w in warp_dst if w]
    src_warp = _intersection_pow2([r for r in reg_src if r not in vbasis], wd)
    dst_warp = _intersection_pow2([r for r in reg_dst if r not in vbasis], ws)
    if len(src_warp) == len(dst_warp) and src_warp:
        src_fills = min(src_warp) < min(dst_warp)  # the lower basis, to spare byte permutes
    else:
        src_fills = len(src_warp) > len(dst_warp)
    vbasis = vbasis + (src_warp if src_fills else dst_warp)
    if len(vbasis) < per_bank:
        vbasis = vbasis + _intersection_pow2(ws, wd)
    i = 0
    while len(vbasis) < per_bank and (i < len(ws) or i < len(wd)):
        if i < len(ws) and ws[i] not in vbasis:
            vbasis.append(ws[i])
        if len(vbasis) < per_bank and i < len(wd) and wd[i] not in vbasis:
            vbasis.append(wd[i])
        i += 1
    return vbasis[:per_bank]


AMD_LDST_35, AMD_LDST_38 = "3.5", "3.8"  # AMD's ld/st swizzling: of 3.5-3.7, and of 3.8 on


def amd_banks_and_load_tile(target: str | None) -> tuple[int, tuple[int, ...] | None]:
    """An AMD arch's shared-memory banks and the lanes one 128-bit ds_read serves at a time (Triton 3.8's
    TargetInfo::getSharedMemoryBanks and getSharedLdStTiles): CDNA4 and gfx1250 64 banks and lanes 0, 1, 3, 4;
    CDNA3 and RDNA1-3 32 banks and lanes 0, 1, 4; other archs 32 banks and no such tile."""
    arch = (target or "").partition(":")[2]
    if arch.startswith(("gfx950", "gfx1250")):
        return 64, (0, 1, 3, 4)
    if arch.startswith(("gfx940", "gfx941", "gfx942", "gfx10", "gfx11")):
        return 32, (0, 1, 4)
    return 32, None


def _amd_ldst_swizzle(reg_src, reg_dst, lane_src, lane_dst, warp_src, warp_dst, dim, bitwidth, rules: str,
                      target: str | None) -> dict[str, list[int]]:
    """optimalSwizzlingLdSt as AMD's Triton runs it: the vector of `_vbasis_from_warps`; each side's bank tile its
    lanes but the last log2(vector words) (3.5-3.7), or (3.8 on) but those of the later phases of the arch's banks,
    a 128-bit load taking the lanes of its ds_read tile."""
    vbasis = _vbasis_from_warps(list(reg_src), list(reg_dst), list(warp_src), list(warp_dst), bitwidth)
    words = _log2(max(1, (1 << len(vbasis)) * bitwidth // 32))
    banks, load_tile = amd_banks_and_load_tile(target) if rules == AMD_LDST_38 else (32, None)

    def tile(lanes, tile_lanes: tuple[int, ...] | None) -> list[int]:
        if tile_lanes is not None:
            return [lanes[i] for i in tile_lanes]
        drop = max(0, words + len(lanes) - _log2(banks)) if rules == AMD_LDST_38 else words
        return list(lanes[: len(lanes) - drop]) if drop else list(lanes)

    wide_load = (1 << len(vbasis)) * bitwidth == 128 and load_tile is not None and len(lane_dst) > max(load_tile)
    tile_src, tile_dst = tile(lane_src, None), tile(lane_dst, load_tile if wide_load else None)
    return _swizzle(list(reg_src), list(reg_dst), dim, bitwidth, vbasis, tile_src, tile_dst, banks=banks)


def _ldst_swizzle(reg_src, reg_dst, lane_src, lane_dst, dim, bitwidth) -> dict[str, list[int]]:
    """optimalSwizzlingLdSt: plain ld.shared/st.shared on both sides."""
    vbasis = _get_vbasis(list(reg_src), list(reg_dst), lane_src, lane_dst, bitwidth)

    def vector_size(regs: list[int]) -> int:
        for i, v in enumerate(vbasis):
            if not (i < len(regs) and regs[i] == v):
                return i
        return len(vbasis)

    tile_src, tile_dst = list(lane_src), list(lane_dst)
    vs = vector_size(reg_src)
    if (1 << vs) * bitwidth > 32:
        tile_src = tile_src[: len(tile_src) - _log2((1 << vs) * bitwidth // 32)]
    vd = vector_size(reg_dst)
    if (1 << vd) * bitwidth > 32:
        tile_dst = tile_dst[: len(tile_dst) - _log2((1 << vd) * bitwidth // 32)]
    tile_src = [b for b in tile_src if b not in vbasis]
    tile_dst = [b for b in tile_dst if b not in vbasis]
    return _swizzle(reg_src, reg_dst, dim, bitwidth, vbasis, tile_src, tile_dst)


# LocalMemOpTile(laneContig, laneAddr) of getSrcDstTiles (lib/Conversion/TritonGPUToLLVM/Utility.cpp)
_LDST = ((), (0, 1, 2))
_MATRIX = ((0, 1), (2, 3, 4))
_MATRIX_T = ((2, 3, 4), (0, 1))


def src_dst_tiles(target: str | None, bitwidth: int) -> tuple[list[tuple], list[tuple]]:
    """The shared-memory instructions each side may use: ld/st.shared always; on NVIDIA stmatrix (sm90+)
    for sources and ldmatrix (sm75+) for destinations when bitwidth <= 32, and their .trans forms for
    16-bit elements."""
    src, dst = [_LDST], [_LDST]
    cc = _cuda_cc(target)
    st, ld = cc >= 90, cc >= 75
    if st or ld:
        if bitwidth <= 32:
            if st:
                src.append(_MATRIX)
            if ld:
                dst.append(_MATRIX)
        if bitwidth == 16:
            if st:
                src.append(_MATRIX_T)
            if ld:
                dst.append(_MATRIX_T)
    return src, dst


def _cuda_cc(target: str | None) -> int:
    if target and target.startswith("cuda:"):
        try:
            return int(target.split(":", 1)[1])
        except ValueError:
            return 0
    return 0


def _where(v: int, bases: Mapping[str, list[int]]) -> tuple[str, int] | None:
    """The (in dim, bit) of a layout whose basis equals flattened v (its preimage under a subpermutation)."""
    for d, vecs in bases.items():
        for i, b in enumerate(vecs):
            if b == v:
                return d, i
    return None


def _tile_swizzle_candidate(a, b, n_reg_a, n_reg_b, lane_tile_a, lane_tile_b):
    """optimalSwizzlingTile: the vectorisation basis shared by instruction tiles of a (src) and b (dst)."""
    if n_reg_a < n_reg_b:
        return _tile_swizzle_candidate(b, a, n_reg_b, n_reg_a, lane_tile_b, lane_tile_a)
    reg_a, reg_b = a[REG], b[REG]
    lane_a, lane_b = a[LANE], b[LANE]
    vbasis = _intersection_pow2(reg_a, reg_b)
    if len(vbasis) < n_reg_b:
        return None
    vbasis = vbasis[:n_reg_b]
    if any(i >= len(lane_a) for i in lane_tile_a) or any(i >= len(lane_b) for i in lane_tile_b):
        return None
    tile_a = [lane_a[i] for i in lane_tile_a]
    tile_b = [lane_b[i] for i in lane_tile_b]
    if any(x == 0 for x in tile_a) or any(x == 0 for x in tile_b):
        return None
    # b's first lanes must be registers of a
    for i in range(n_reg_a - n_reg_b):
        w = _where(lane_b[lane_tile_b[i]], a)
        if w is None or w[0] != REG:
            return None
    # the remaining lanes of b must be the lanes of a's tile, in order
    rest_b = lane_tile_b[len(lane_tile_b) - len(lane_tile_a):] if lane_tile_a else []
    for ia, ib in zip(lane_tile_a, rest_b):
        w = _where(lane_b[ib], a)
        if w != (LANE, ia):
            return None
    return vbasis + tile_b


def swizzled_scratch_layout(
    src: LinearLayout, dst: LinearLayout, bitwidth: int, target: str | None = None, leave_reps: bool = True,
    amd_ldst: str | None = None,
) -> dict[str, list[int]]:
    """The shared-memory layout Triton 3.9 picks for a convert (flattened bases of its vector / segment /
    reps dims), for register-broadcast-free src and dst.  With an NVIDIA target the ld/stmatrix tiles are
    tried as in `optimalSwizzling(src, dst, srcTiles, dstTiles)`; otherwise `optimalSwizzlingLdSt`.
    `leave_reps=False`: Triton 3.4/3.5, whose ld/stmatrix candidates turn every register basis common to
    both sides into a rep (3.6 on keeps those the wider matrix tiles address in the segment).
    `amd_ldst`: off NVIDIA, AMD's ld/st swizzling of Triton 3.5-3.7 (`AMD_LDST_35`) or 3.8 on (`AMD_LDST_38`),
    `_amd_ldst_swizzle`."""
    a = {d: src.flat_bases(d) for d in src.in_dims}
    b = {d: dst.flat_bases(d) for d in dst.in_dims}
    reg_src, reg_dst = a.get(REG, []), b.get(REG, [])
    lane_src, lane_dst = a.get(LANE, []), b.get(LANE, [])
    dim = src.total_out_bits()
    if amd_ldst and not (target or "").startswith("cuda"):
        return _amd_ldst_swizzle(reg_src, reg_dst, lane_src, lane_dst, a.get(WARP, []), b.get(WARP, []), dim, bitwidth,
                                 amd_ldst, target)
    if not (target or "").startswith("cuda"):
        return _ldst_swizzle(reg_src, reg_dst, lane_src, lane_dst, dim, bitwidth)
    src_tiles, dst_tiles = src_dst_tiles(target, bitwidth)
    total = _log2(128 // bitwidth) if bitwidth <= 128 else 0
    cands = []
    for c_src, addr_src in src_tiles:
        for c_dst, addr_dst in dst_tiles:
            vb = _tile_swizzle_candidate(a, b, total - len(c_src), total - len(c_dst), list(c_src), list(c_dst))
            if vb is None:
                continue

            def get_tile(addr, regs, lanes, vb=vb):
                need = 3 - len(addr)
                tile = []
                for r in regs:
                    if need == 0:
                        break
                    if r not in vb:
                        tile.append(r)
                        need -= 1
                if need > 0 or any(k >= len(lanes) for k in addr):
                    return None
                return tile + [lanes[k] for k in addr]

            ts = get_tile(addr_src, reg_src, lane_src)
            td = get_tile(addr_dst, reg_dst, lane_dst)
            if ts is None or td is None:
                continue
            leave = min(len(c_src) + len(addr_src) - 3, len(c_dst) + len(addr_dst) - 3) if leave_reps else 0
            cands.append((vb, ts, td, leave))
    if not cands:
        return _ldst_swizzle(reg_src, reg_dst, lane_src, lane_dst, dim, bitwidth)
    best = None
    for vb, ts, td, leave in cands:
        smem = _swizzle(reg_src, reg_dst, dim, bitwidth, vb, ts, td, leave)
        conflicts = (1 << _intersection_dim(smem["segment"], td)) - 1 + (1 << _intersection_dim(smem["segment"], ts)) - 1
        key = (conflicts, -len(smem["reps"]))
        if best is None or key < best[0]:
            best = (key, smem)
    return best[1]


def swizzled_scratch_elems(
    src: Attribute, dst: Attribute, shape: Sequence[int], bitwidth: int, target: str | None = None,
    leave_reps: bool = True, amd_ldst: str | None = None,
) -> int | None:
    """getNumScratchElemsSwizzledCvt: elements of the swizzled scratch tile = numel / 2^#reps / #CTA splits.
    None if a layout has no linear form.  `leave_reps`, `amd_ldst`: as `swizzled_scratch_layout`."""
    ls, ld = to_linear_layout(src, shape), to_linear_layout(dst, shape)
    if ls is None or ld is None:
        return None
    ls, ld = ls.remove_zero_bases(REG), ld.remove_zero_bases(REG)
    smem = swizzled_scratch_layout(ls, ld, bitwidth, target, leave_reps, amd_ldst)
    total = 1 << smem["dim"][0]
    splits = prod(algebra.cta_split_num(src))
    return total // (1 << len(smem["reps"])) // max(1, splits)
