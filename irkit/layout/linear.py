"""Linear layouts: layouts as F2-linear maps from hardware indices to tensor coordinates.

A `LinearLayout` maps input dimensions (`register`, `lane`, `warp`, `block` for distributed layouts) to
output dimensions (`dim0`, `dim1`, ...).  Each input dimension of size 2^k has k basis vectors; the
image of an index is the XOR of the bases of its set bits.  This is Triton's `triton::LinearLayout`
(`lib/Tools/LinearLayout.cpp`), written again here from its documented semantics.

`to_linear_layout(enc, shape)` converts the layout attributes irkit knows into linear layouts, following
Triton's `lib/Dialect/TritonGPU/IR/LinearLayoutConversions.cpp` (the conversions are the same from 3.1
to 3.9 for blocked, slice, nvidia_mma v2/v3, amd_mfma, amd_wmma and the dot operands of mma v2 and
mfma, and an FMA dot's operands (a #blocked parent); `#ttg.linear` is read as written) and Intel's for dpas
and its dot operands.  It returns None for a layout it cannot convert faithfully (dot_op of wmma parents,
mma v3 operand B, CTA layouts it cannot read).

Conversion decisions built on them (register-only, warp-local, shared-memory need, the swizzled
scratch size) are in `irkit.layout.conversion`.
"""

from __future__ import annotations

import contextvars
from collections.abc import Mapping, Sequence
from functools import lru_cache

from xdsl.ir import Attribute

from irkit.dialects.encodings import (
    AmdMfmaEncodingAttr,
    AmdWmmaEncodingAttr,
    BlockedEncodingAttr,
    DotOperandEncodingAttr,
    DpasEncodingAttr,
    LinearEncodingAttr,
    NvidiaMmaEncodingAttr,
    SliceEncodingAttr,
)
from irkit.layout import kinds

REG, LANE, WARP, BLOCK = "register", "lane", "warp", "block"
HW_DIMS = (REG, LANE, WARP, BLOCK)


def _log2(n: int) -> int:
    if n <= 0 or n & (n - 1):
        raise ValueError(f"{n} is not a power of two")
    return n.bit_length() - 1


def _next_pow2_size(x: int) -> int:
    """The smallest power of two strictly greater than every bit of x (1 for x == 0)."""
    return 1 << x.bit_length()


def dim_names(rank: int) -> list[str]:
    return [f"dim{i}" for i in range(rank)]


class LinearLayout:
    """bases[in_dim] = list of basis vectors; each vector has one int per out dim (in `out_dims` order)."""

    __slots__ = ("bases", "out_dims")

    def __init__(
        self,
        bases: Mapping[str, Sequence[Sequence[int]]],
        out_dims: Sequence[str] | Sequence[tuple[str, int]],
    ):
        self.bases: dict[str, list[tuple[int, ...]]] = {k: [tuple(b) for b in v] for k, v in bases.items()}
        if out_dims and isinstance(out_dims[0], tuple):
            self.out_dims: list[tuple[str, int]] = [(n, int(s)) for n, s in out_dims]  # type: ignore[misc]
        else:
            names = list(out_dims)  # type: ignore[arg-type]
            sizes = []
            for i, _ in enumerate(names):
                acc = 0
                for vecs in self.bases.values():
                    for v in vecs:
                        acc |= v[i]
                sizes.append(_next_pow2_size(acc))
            self.out_dims = list(zip(names, sizes))
        n = len(self.out_dims)
        for k, vecs in self.bases.items():
            for v in vecs:
                if len(v) != n:
                    raise ValueError(f"basis {v} of {k} has {len(v)} entries for {n} out dims")

    # -- construction --------------------------------------------------------------------------
    @staticmethod
    def empty() -> LinearLayout:
        return LinearLayout({}, [])

    @staticmethod
    def identity_1d(size: int, in_dim: str, out_dim: str) -> LinearLayout:
        if size <= 1:
            return LinearLayout({in_dim: []}, [(out_dim, 1)])
        return LinearLayout({in_dim: [(1 << i,) for i in range(_log2(size))]}, [(out_dim, size)])

    @staticmethod
    def zeros_1d(size: int, in_dim: str, out_dim: str) -> LinearLayout:
        return LinearLayout({in_dim: [(0,)] * (_log2(size) if size > 1 else 0)}, [(out_dim, 1)])

    # -- queries ---------------------------------------------------------------------------------
    @property
    def in_dims(self) -> list[str]:
        return list(self.bases)

    @property
    def out_dim_names(self) -> list[str]:
        return [n for n, _ in self.out_dims]

    def has_in_dim(self, d: str) -> bool:
        return d in self.bases

    def in_dim_size_log2(self, d: str) -> int:
        return len(self.bases.get(d, ()))

    def in_dim_size(self, d: str) -> int:
        return 1 << self.in_dim_size_log2(d)

    def out_dim_size(self, d: str) -> int:
        for n, s in self.out_dims:
            if n == d:
                return s
        raise KeyError(d)

    def out_dim_index(self, d: str) -> int:
        return self.out_dim_names.index(d)

    def total_out_bits(self) -> int:
        return sum(_log2(s) for _, s in self.out_dims)

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, LinearLayout)
            and self.out_dims == other.out_dims
            and {k: v for k, v in self.bases.items() if v} == {k: v for k, v in other.bases.items() if v}
        )

    def __repr__(self) -> str:
        body = ", ".join(f"{k}={[list(b) for b in v]}" for k, v in self.bases.items())
        return f"LinearLayout({body}; outs={self.out_dims})"

    def apply(self, index: Mapping[str, int]) -> tuple[int, ...]:
        out = [0] * len(self.out_dims)
        for d, x in index.items():
            for i, b in enumerate(self.bases.get(d, ())):
                if x >> i & 1:
                    out = [o ^ v for o, v in zip(out, b)]
        return tuple(out)

    # -- algebra ---------------------------------------------------------------------------------
    def __mul__(self, other: LinearLayout) -> LinearLayout:
        """Triton's operator*: `other` is the outer (more major) factor; shared out dims multiply."""
        names = self.out_dim_names + [n for n in other.out_dim_names if n not in self.out_dim_names]
        sizes = {n: 1 for n in names}
        for n, s in self.out_dims:
            sizes[n] *= s
        shift = {n: _log2(s) for n, s in self.out_dims}
        for n, s in other.out_dims:
            sizes[n] *= s
        in_dims = list(self.bases) + [d for d in other.bases if d not in self.bases]
        bases: dict[str, list[tuple[int, ...]]] = {}
        for d in in_dims:
            vecs: list[tuple[int, ...]] = []
            for v in self.bases.get(d, ()):
                m = dict(zip(self.out_dim_names, v))
                vecs.append(tuple(m.get(n, 0) for n in names))
            for v in other.bases.get(d, ()):
                m = dict(zip(other.out_dim_names, v))
                vecs.append(tuple(m.get(n, 0) << shift.get(n, 0) for n in names))
            bases[d] = vecs
        return LinearLayout(bases, [(n, sizes[n]) for n in names])

    def transpose_outs(self, names: Sequence[str]) -> LinearLayout:
        idx = [self.out_dim_index(n) for n in names]
        if sorted(idx) != list(range(len(self.out_dims))):
            raise ValueError(f"transpose_outs {names} of {self.out_dim_names}")
        return LinearLayout(
            {k: [tuple(v[i] for i in idx) for v in vs] for k, vs in self.bases.items()},
            [self.out_dims[i] for i in idx],
        )

    def with_in_dims(self, dims: Sequence[str]) -> LinearLayout:
        """Add empty input dims so that every name of `dims` exists, in that order."""
        bases = {d: self.bases.get(d, []) for d in dims}
        for d, v in self.bases.items():
            bases.setdefault(d, v)
        return LinearLayout(bases, self.out_dims)

    def flat(self, v: Sequence[int]) -> int:
        """A basis vector as one integer over the flattened outputs (the first out dim most minor)."""
        acc = 0
        shift = 0
        for x, (_, s) in zip(v, self.out_dims):
            acc |= x << shift
            shift += _log2(s)
        return acc

    def flat_bases(self, d: str) -> list[int]:
        return [self.flat(v) for v in self.bases.get(d, ())]

    def free_variable_mask(self, d: str) -> int:
        """Bits of in dim `d` whose basis is zero (pure broadcast)."""
        return sum(1 << i for i, v in enumerate(self.bases.get(d, ())) if not any(v))

    def remove_zero_bases(self, d: str) -> LinearLayout:
        """actionRemoveBroadcastedRegs for any in dim: drop the all-zero bases of `d`."""
        bases = dict(self.bases)
        bases[d] = [v for v in self.bases.get(d, ()) if any(v)]
        return LinearLayout(bases, self.out_dims)

    def sublayout(self, in_dims: Sequence[str], out_dims: Sequence[str]) -> LinearLayout:
        """The restriction to `in_dims` (in this layout's order) and the projection onto `out_dims`."""
        keep = [i for i, n in enumerate(self.out_dim_names) if n in out_dims]
        return LinearLayout(
            {d: [tuple(v[i] for i in keep) for v in vs] for d, vs in self.bases.items() if d in in_dims},
            [self.out_dims[i] for i in keep],
        )

    def sublayout_is_zero(self, in_dims: Sequence[str], out_dims: Sequence[str]) -> bool:
        return not any(any(v) for vs in self.sublayout(in_dims, out_dims).bases.values() for v in vs)

    def quotient(self, dims: Sequence[str]) -> LinearLayout | None:
        """LinearLayout::quotient: drop `dims` from the ins and the outs where the layout maps them to
        themselves by the identity and mixes them with nothing else; None where it does not."""
        rest_in = [d for d in self.in_dims if d not in dims]
        rest_out = [n for n in self.out_dim_names if n not in dims]
        square = self.sublayout(dims, dims)
        for d in dims:
            if d not in square.out_dim_names:
                if square.in_dim_size_log2(d):
                    return None
                continue
            i = square.out_dim_index(d)
            want = [tuple((1 << k) if j == i else 0 for j in range(len(square.out_dims)))
                    for k in range(square.in_dim_size_log2(d))]
            if square.bases.get(d, []) != want or square.in_dim_size(d) != square.out_dim_size(d):
                return None
        if not (self.sublayout_is_zero(rest_in, dims) and self.sublayout_is_zero(dims, rest_out)):
            return None
        return self.sublayout(rest_in, rest_out)


def invert_and_compose(layout: LinearLayout, outer: LinearLayout) -> LinearLayout:
    """LinearLayout::invertAndCompose: the map L from `layout`'s hardware indices to `outer`'s with
    outer(L(x)) = layout(x), for a convert from `outer` (the source) to `layout` (the destination).  In dims the
    two layouts map alike stay the identity; the others are solved over F2 with the minimal-norm preimage
    (the reduced row echelon form of [outer | layout], as Triton's `lstsq`)."""
    names = layout.out_dim_names
    src = outer.transpose_outs(names)
    same = [d for d in src.in_dims if layout.has_in_dim(d)
            and src.sublayout([d], names) == layout.sublayout([d], names)
            and src.in_dim_size(d) == layout.in_dim_size(d)]
    a_dims = [d for d in src.in_dims if d not in same]
    b_dims = [d for d in layout.in_dims if d not in same]
    a_cols = [src.flat(v) for d in a_dims for v in src.bases[d]]
    b_cols = [layout.flat(v) for d in b_dims for v in layout.bases[d]]
    n_a = len(a_cols)
    rows = []
    for r in range(sum(_log2(s) for _, s in layout.out_dims)):
        row = 0
        for c, col in enumerate(a_cols + b_cols):
            row |= (col >> r & 1) << c
        rows.append(row)
    pivots: dict[int, int] = {}  # A column -> the row of the RREF that has its pivot
    rank = 0
    for c in range(n_a + len(b_cols)):
        pivot = next((i for i in range(rank, len(rows)) if rows[i] >> c & 1), None)
        if pivot is None:
            continue
        rows[rank], rows[pivot] = rows[pivot], rows[rank]
        for i in range(len(rows)):
            if i != rank and rows[i] >> c & 1:
                rows[i] ^= rows[rank]
        if c < n_a:
            pivots[c] = rank
        rank += 1
    pivot_rows = {c: rows[i] for c, i in pivots.items()}
    # each column c of `layout` solved: the A columns whose pivot row carries bit c
    solved = [sum(1 << r for r, row in pivot_rows.items() if row >> (n_a + c) & 1) for c in range(len(b_cols))]
    a_sizes = [(d, src.in_dim_size_log2(d)) for d in a_dims]
    out_names = a_dims + same
    bases: dict[str, list[tuple[int, ...]]] = {}
    k = 0
    for d in b_dims:
        vecs = []
        for _ in range(layout.in_dim_size_log2(d)):
            flat, parts, shift = solved[k], [], 0
            for _, bits in a_sizes:
                parts.append(flat >> shift & ((1 << bits) - 1))
                shift += bits
            vecs.append(tuple(parts) + (0,) * len(same))
            k += 1
        bases[d] = vecs
    for j, d in enumerate(same):
        bases[d] = [tuple((1 << i) if o == len(a_dims) + j else 0 for o in range(len(out_names)))
                    for i in range(src.in_dim_size_log2(d))]
    out_sizes = [(d, src.in_dim_size(d)) for d in out_names]
    ret = LinearLayout({d: bases[d] for d in layout.in_dims}, out_sizes)
    return ret.transpose_outs([d for d in src.in_dims])


# ---------------------------------------------------------------------------------------------
# Shape helpers (LayoutUtils.cpp)
# ---------------------------------------------------------------------------------------------


def identity_standard_nd(in_dim: str, shape: Sequence[int], order: Sequence[int]) -> LinearLayout:
    """identityStandardND: identity along dims in `order` (most minor first); out dims ordered by `order`."""
    names = dim_names(len(shape))
    ret = LinearLayout.empty()
    for d in order:
        ret = ret * LinearLayout.identity_1d(shape[d], in_dim, names[d])
    return ret


def ensure_not_smaller(ll: LinearLayout, shape: Mapping[str, int]) -> LinearLayout:
    """ensureLayoutNotSmallerThan: repeat along the first in dim (register) until each out dim is big enough."""
    if not shape:
        return ll
    k = ll.in_dims[0]
    ret = ll
    for n, actual in ll.out_dims:
        desired = shape[n]
        if actual < desired:
            ret = ret * LinearLayout.identity_1d(desired // actual, k, n)
    return ret


def ensure_not_larger(ll: LinearLayout, shape: Mapping[str, int], broadcast_registers: bool = False) -> LinearLayout:
    """ensureLayoutNotLargerThan: zero the largest bases of an out dim until it fits (registers are zeroed
    too when broadcast_registers, Triton's default; removed otherwise)."""
    bases = {k: [list(v) for v in vs] for k, vs in ll.bases.items()}
    removed: set[int] = set()
    for oi, (n, actual) in enumerate(ll.out_dims):
        desired = shape[n]
        if actual <= desired:
            continue
        cands = []
        for d, vs in bases.items():
            for i, v in enumerate(vs):
                if v[oi]:
                    cands.append((v[oi], d, i))
        cands.sort(key=lambda t: -t[0])  # largest first (ties keep in-dim order)
        for _val, d, i in cands:
            if actual <= desired:
                break
            if not broadcast_registers and d == REG:
                removed.add(i)
            else:
                bases[d][i][oi] = 0
            actual >>= 1
    if not broadcast_registers and removed:
        bases[REG] = [v for i, v in enumerate(bases[REG]) if i not in removed]
    return LinearLayout(bases, [(n, min(s, shape[n])) for n, s in ll.out_dims])


def _cga_layout(enc: Attribute, rank: int) -> LinearLayout:
    """makeCgaLayout for the CTA fields of `enc` (block -> dims); trivial for one CTA."""
    names = dim_names(rank)
    fields = kinds.cta_layout(enc)
    cga = fields.cga_layout
    if cga:
        return LinearLayout({BLOCK: [tuple(b) for b in cga]}, names)
    split, ctas, order = fields.cta_split_num, fields.ctas_per_cga, fields.cta_order
    if split is None or ctas is None:
        ret = LinearLayout.empty()
        for n in names:
            ret = ret * LinearLayout.identity_1d(1, BLOCK, n)
        return ret
    order = order if order is not None else tuple(range(rank - 1, -1, -1))
    ret = LinearLayout.empty()
    for d in order:
        ret = ret * LinearLayout.identity_1d(split[d], BLOCK, names[d]) * LinearLayout.zeros_1d(
            ctas[d] // split[d], BLOCK, names[d]
        )
    return ret.transpose_outs(names)


def combine_cta_cga_with_shape(cta: LinearLayout, enc: Attribute, shape: Sequence[int]) -> LinearLayout:
    """combineCtaCgaWithShape: fit a one-CTA layout to `shape` (repeat in registers / broadcast) and add the
    block dim."""
    rank = len(shape)
    names = dim_names(rank)
    labeled = dict(zip(names, shape))
    cga = ensure_not_larger(_cga_layout(enc, rank), labeled).transpose_outs(cta.out_dim_names)
    cta_shape = {n: max(1, labeled[n] // cga.out_dim_size(n)) for n in cta.out_dim_names}
    cta = ensure_not_smaller(cta, cta_shape)
    cta = ensure_not_larger(cta, cta_shape, broadcast_registers=_KEEP_ZERO_REGS.get())
    ret = (cta * cga).transpose_outs(names)
    return ret.with_in_dims(HW_DIMS)


# ---------------------------------------------------------------------------------------------
# Conversions (LinearLayoutConversions.cpp)
# ---------------------------------------------------------------------------------------------


def _blocked_to_ll(enc: BlockedEncodingAttr, shape: Sequence[int]) -> LinearLayout:
    order = enc.order
    cta = (
        identity_standard_nd(REG, enc.size_per_thread, order)
        * identity_standard_nd(LANE, enc.threads_per_warp, order)
        * identity_standard_nd(WARP, enc.warps_per_cta, order)
    )
    return combine_cta_cga_with_shape(cta, enc, shape)


def _nvidia_mma_tile(tile: Sequence[int], k_width: int, order: Sequence[int], rep_order: Sequence[int]) -> LinearLayout:
    """nvidiaMmaTile: kWidth regs and 4 lanes on the inner dim, 8 lanes then m/8 regs on the outer dim,
    then n/(4 kWidth) regs on the inner dim."""
    rank = len(rep_order)
    names = dim_names(rank)
    ret = identity_standard_nd(REG, [1] * rank, rep_order)
    inner, outer = order[0], order[1]
    m, n = tile[outer], tile[inner]
    ret = (
        ret
        * LinearLayout.identity_1d(k_width, REG, names[inner])
        * LinearLayout.identity_1d(4, LANE, names[inner])
        * LinearLayout.identity_1d(8, LANE, names[outer])
        * LinearLayout.identity_1d(m // 8, REG, names[outer])
        * LinearLayout.identity_1d(n // (k_width * 4), REG, names[inner])
    )
    return ret


def _mma_warp_order(enc: NvidiaMmaEncodingAttr) -> tuple[int, ...]:
    rank = len(enc.warps_per_cta)
    if kinds.mma_version(enc) == 3:
        return tuple(range(rank))  # Hopper warp groups run along dim0 first
    return tuple(range(rank - 1, -1, -1))


def _nvidia_mma_to_ll(enc: NvidiaMmaEncodingAttr, shape: Sequence[int]) -> LinearLayout | None:
    v = kinds.mma_version(enc)
    rank = len(shape)
    instr = enc.instr_shape
    if v == 2:
        tile = tuple(instr) if instr else (1,) * (rank - 2) + (16, 8)
    elif v == 3:
        if not instr or rank != 2:
            return None
        tile = (instr[0], instr[1])
    else:
        return None
    order = tuple(range(rank - 1, -1, -1))
    cta = _nvidia_mma_tile(tile, 2, order, order)
    warps = identity_standard_nd(WARP, enc.warps_per_cta, _mma_warp_order(enc))
    cta = cta * warps.transpose_outs(cta.out_dim_names)
    return combine_cta_cga_with_shape(cta, enc, shape)


def _nvidia_dot_to_ll(enc: DotOperandEncodingAttr, shape: Sequence[int]) -> LinearLayout | None:
    mma = enc.parent
    rank = len(shape)
    k_width = enc.k_width
    is_a = enc.op_idx == 0
    if k_width is None:
        return None
    tile = [1] * rank
    if is_a:
        tile[rank - 2], tile[rank - 1] = 16, k_width * 8
    else:
        if kinds.mma_version(mma) != 2:
            return None  # Hopper takes operand B from shared memory
        tile[rank - 2], tile[rank - 1] = k_width * 8, 8
    # getOrder(dot) is K-contiguous: [rank-1, rank-2, ...] for A, [rank-2, rank-1, ...] for B
    if is_a:
        order = tuple(range(rank - 1, -1, -1))
    else:
        order = (rank - 2, rank - 1) + tuple(range(rank - 3, -1, -1))
    cta = _nvidia_mma_tile(tile, k_width, order, order)  # repOrder is K-major like the order
    # warpsNvidiaDot: the mma warps with the K dim broadcast
    names = dim_names(rank)
    inner = rank - 1 if is_a else rank - 2
    wpc = mma.warps_per_cta
    warps = LinearLayout.empty()
    for d in _mma_warp_order(mma):
        if d == inner:
            warps = warps * LinearLayout.zeros_1d(wpc[d], WARP, names[d])
        else:
            warps = warps * LinearLayout.identity_1d(wpc[d], WARP, names[d])
    cta = cta * warps.transpose_outs(cta.out_dim_names)
    return combine_cta_cga_with_shape(cta, mma, shape)


def _mfma_to_ll(enc: AmdMfmaEncodingAttr, shape: Sequence[int]) -> LinearLayout | None:
    rank = len(shape)
    try:
        m, n = kinds.mfma_mn(enc)
    except kinds.UnsupportedLayout:
        return None
    if (m, n) not in ((32, 32), (16, 16)) or rank not in (2, 3):
        return None
    names = dim_names(rank)
    order = tuple(range(rank - 1, -1, -1))
    outs = [names[order[0]], names[order[1]]]  # (N, M)
    t = bool(enc.is_transposed)
    if m == 32:
        if not t:
            tile = LinearLayout(
                {REG: [(0, 1), (0, 2), (0, 8), (0, 16)], LANE: [(1, 0), (2, 0), (4, 0), (8, 0), (16, 0), (0, 4)]}, outs
            )
        else:
            tile = LinearLayout(
                {REG: [(1, 0), (2, 0), (8, 0), (16, 0)], LANE: [(0, 1), (0, 2), (0, 4), (0, 8), (0, 16), (4, 0)]}, outs
            )
    else:
        if not t:
            tile = LinearLayout({REG: [(0, 1), (0, 2)], LANE: [(1, 0), (2, 0), (4, 0), (8, 0), (0, 4), (0, 8)]}, outs)
        else:
            tile = LinearLayout({REG: [(1, 0), (2, 0)], LANE: [(0, 1), (0, 2), (0, 4), (0, 8), (4, 0), (8, 0)]}, outs)
    if rank == 3:
        tile = tile * LinearLayout.identity_1d(1, REG, names[order[2]]) * LinearLayout.identity_1d(1, LANE, names[order[2]])
    tiles_per_warp = enc.tiles_per_warp
    if tiles_per_warp and any(x != 1 for x in tiles_per_warp):
        return None
    warps = identity_standard_nd(WARP, enc.warps_per_cta, order)
    return combine_cta_cga_with_shape(tile * warps, enc, shape)


def _mfma_dot_to_ll(enc: DotOperandEncodingAttr, shape: Sequence[int]) -> LinearLayout | None:
    mfma = enc.parent
    rank = len(shape)
    k_width = enc.k_width
    if k_width is None or rank not in (2, 3):
        return None
    try:
        m, _ = kinds.mfma_mn(mfma)
    except kinds.UnsupportedLayout:
        return None
    op = enc.op_idx
    k_dim = rank - 1 if op == 0 else rank - 2
    k_size = shape[k_dim]
    names = dim_names(rank)
    regs = []
    e = 1
    while e < k_width:
        regs.append((e, 0))
        e *= 2
    if m == 32:
        lanes = [(0, 1), (0, 2), (0, 4), (0, 8), (0, 16), (k_width, 0)]
        k_tile = k_width * 2
    elif m == 16:
        lanes = [(0, 1), (0, 2), (0, 4), (0, 8), (k_width, 0), (k_width * 2, 0)]
        k_tile = k_width * 4
    else:
        return None
    e = k_tile
    while e < k_size:
        regs.append((e, 0))
        e *= 2
    # register order [k, nonk(, batch)]
    if op == 0:
        order = (rank - 1, rank - 2) + tuple(range(rank - 3, -1, -1))
    else:
        order = (rank - 2, rank - 1) + tuple(range(rank - 3, -1, -1))
    tile = LinearLayout({REG: regs, LANE: lanes}, [names[order[0]], names[order[1]]])
    if rank == 3:
        tile = tile * LinearLayout.identity_1d(1, REG, names[order[2]]) * LinearLayout.identity_1d(1, LANE, names[order[2]])
    # warps: the mfma warps (order [rank-1..0], as the mfma itself) with the K dim broadcast
    wpc = list(mfma.warps_per_cta)
    warps = LinearLayout.empty()
    for d in range(rank - 1, -1, -1):
        if d == k_dim:
            warps = warps * LinearLayout.zeros_1d(wpc[d], WARP, names[d])
        else:
            warps = warps * LinearLayout.identity_1d(wpc[d], WARP, names[d])
    cta = tile.transpose_outs(names) * warps.transpose_outs(names)
    return combine_cta_cga_with_shape(cta, mfma, shape)


def _wmma_to_ll(enc: AmdWmmaEncodingAttr, shape: Sequence[int]) -> LinearLayout | None:
    rank = len(shape)
    if rank not in (2, 3):
        return None
    names = dim_names(rank)
    order = tuple(range(rank - 1, -1, -1))
    outs = [names[order[0]], names[order[1]]]
    ver = enc.version or 1
    if ver == 1:
        tile = LinearLayout({REG: [(0, 2), (0, 4), (0, 8)], LANE: [(1, 0), (2, 0), (4, 0), (8, 0), (0, 1)]}, outs)
    elif ver == 2:
        tile = LinearLayout({REG: [(0, 1), (0, 2), (0, 4)], LANE: [(1, 0), (2, 0), (4, 0), (8, 0), (0, 8)]}, outs)
    else:
        return None
    if enc.is_transposed:
        return None
    if rank == 3:
        tile = tile * LinearLayout.identity_1d(1, REG, names[order[2]]) * LinearLayout.identity_1d(1, LANE, names[order[2]])
    warps = identity_standard_nd(WARP, enc.warps_per_cta, order)
    return combine_cta_cga_with_shape(tile * warps, enc, shape)


def _broadcast_along(size: Sequence[int], order: Sequence[int], k_dim: int, in_dim: str) -> LinearLayout:
    """broadcastedDotOperandLayout: `in_dim` walks the dims in `order`, all of K broadcast (an FMA operand's lanes
    or warps all need the whole K)."""
    names = dim_names(len(size))
    ret = LinearLayout.empty()
    for d in order:
        factor = LinearLayout.zeros_1d if d == k_dim else LinearLayout.identity_1d
        ret = ret * factor(size[d], in_dim, names[d])
    return ret


def _fma_dot_to_ll(enc: DotOperandEncodingAttr, shape: Sequence[int]) -> LinearLayout:
    """fmaDotToLinearLayout: an FMA dot's operand (a dot_op of a #blocked parent) holds the whole K in each
    thread's registers, its lanes and warps laid out as the parent's with K broadcast."""
    parent = enc.parent
    rank = len(shape)
    k_dim = rank - 1 if int(enc.op_idx) == 0 else rank - 2
    order = tuple(parent.order)
    per_thread = list(parent.size_per_thread)
    per_thread[k_dim] = shape[k_dim]
    cta = (
        identity_standard_nd(REG, per_thread, order)
        * _broadcast_along(parent.threads_per_warp, order, k_dim, LANE)
        * _broadcast_along(parent.warps_per_cta, order, k_dim, WARP)
    )
    return combine_cta_cga_with_shape(cta, parent, shape)


def dpas_repetitions(enc: DpasEncodingAttr, shape: Sequence[int], op_idx: int) -> tuple[int, int, int]:
    """DpasEncodingAttr::getDPASRepetitions: (batch, rows, columns) of instruction clusters each sub-group
    repeats over `shape` for operand A (0), B (1) or the accumulator (2)."""
    rank = len(shape)
    per_warp = (kinds.dpas_shape_a, kinds.dpas_shape_b, kinds.dpas_shape_c)[op_idx](enc)
    wpc = enc.warps_per_cta
    rows_split = wpc[-2] if op_idx != 1 else 1  # operand B is not split over the warps along M
    cols_split = wpc[-1] if op_idx != 0 else 1  # nor operand A over those along N
    batch = max(1, shape[0] // wpc[0]) if rank == 3 else 1
    return batch, max(1, shape[-2] // (per_warp[0] * rows_split)), max(1, shape[-1] // (per_warp[1] * cols_split))


def _dpas_to_ll(enc: DpasEncodingAttr, shape: Sequence[int], op_idx: int = 2) -> LinearLayout | None:
    """DPAStoLinearLayout (Intel's third_party/intel/.../LinearLayoutConversions.cpp, in triton-xpu 3.3 and
    main): one instruction's registers and work-items for operand A (0), B (1) or the accumulator (2), then
    the repCluster, the sub-groups and the repetitions.  A work-item holds a column of one instruction's rows
    (A and C) or `opsPerChan` consecutive rows of one column (B)."""
    rank = len(shape)
    wpc = tuple(enc.warps_per_cta)
    rc = tuple(enc.rep_cluster or ())
    if rank not in (2, 3) or len(wpc) != rank or len(rc) != rank:
        return None
    names = dim_names(rank)
    tpw, opc = enc.threads_per_warp, enc.ops_per_chan
    depth, rows, width = enc.systolic_depth, enc.repeat_count, enc.execution_size
    reg: list[tuple[int, int]] = []
    lane: list[tuple[int, int]] = []
    if op_idx == 0:
        packed = 2 if opc == 4 else 1  # ops of one work-item's register along K
        cols = depth * opc // packed
        rows_per_warp = -(-tpw // cols)
        reg += [(0, p) for p in doublings(1, packed)]
        reg += [(w * rows_per_warp, 0) for w in doublings(1, rows // rows_per_warp)]
        lane += [(0, packed * t) for t in doublings(1, cols)]
        lane += [(t // cols, 0) for t in doublings(cols, tpw)]
        k_dim, other = rank - 1, rank - 2
    elif op_idx == 1:
        rows_per_warp = tpw // width
        reg += [(p, 0) for p in doublings(1, opc)]
        reg += [(r * opc, 0) for r in doublings(rows_per_warp, depth)]
        lane += [(0, t) for t in doublings(1, width)]
        lane += [(r * opc, 0) for r in doublings(1, rows_per_warp)]
        k_dim, other = rank - 2, rank - 1
    else:
        rows_per_warp = tpw // width
        reg += [(r, 0) for r in doublings(rows_per_warp, rows)]
        lane += [(0, t) for t in doublings(1, width)]
        lane += [(r, 0) for r in doublings(1, rows_per_warp)]
        k_dim, other = rank - 1, rank - 2
    tile = LinearLayout({REG: reg, LANE: lane}, names[-2:])
    if op_idx == 2:
        tile = tile * LinearLayout.identity_1d(rc[k_dim], REG, names[k_dim])
    tile = tile * LinearLayout.identity_1d(rc[other], REG, names[other])
    warp_k = LinearLayout.zeros_1d(wpc[k_dim], WARP, names[k_dim]) if op_idx != 2 else LinearLayout.identity_1d(
        wpc[k_dim], WARP, names[k_dim])
    warp_other = LinearLayout.identity_1d(wpc[other], WARP, names[other])
    tile = tile * (warp_other * warp_k if op_idx == 1 else warp_k * warp_other)
    if rank == 3:
        tile = tile * LinearLayout.identity_1d(wpc[0], WARP, names[0])
    reps = dpas_repetitions(enc, shape, op_idx)
    rep_k, rep_other = (reps[2], reps[1]) if k_dim == rank - 1 else (reps[1], reps[2])
    tile = tile * LinearLayout.identity_1d(rep_k, REG, names[k_dim])
    tile = tile * LinearLayout.identity_1d(rep_other, REG, names[other])
    if rank == 3:
        tile = tile * LinearLayout.identity_1d(reps[0], REG, names[0])
    return combine_cta_cga_with_shape(tile, enc, shape)


def doublings(start: int, stop: int) -> list[int]:
    """start, 2 start, 4 start, ... below stop: a C++ `for (i = start; i < stop; i *= 2)` (none from 0)."""
    if start <= 0:
        return []
    out, i = [], start
    while i < stop:
        out.append(i)
        i *= 2
    return out


def _slice_to_ll(enc: SliceEncodingAttr, shape: Sequence[int]) -> LinearLayout | None:
    dim = kinds.slice_dim(enc)
    parent_shape = list(shape)
    parent_shape.insert(dim, 1)
    parent = enc.parent
    pll = to_linear_layout(parent, parent_shape, keep_broadcast_registers=_KEEP_ZERO_REGS.get())
    if pll is None:
        return None
    names = dim_names(len(shape))
    # drop out dim `dim` (its size is 1 so all its components are 0)
    keep = [i for i in range(len(parent_shape)) if i != dim]
    bases = {}
    for d, vecs in pll.bases.items():
        bases[d] = [tuple(v[i] for i in keep) for v in vecs]
    bases[REG] = [v for v in bases.get(REG, []) if any(v)]
    ret = LinearLayout(bases, [(names[j], pll.out_dims[i][1]) for j, i in enumerate(keep)])
    return ret


def _linear_attr_to_ll(enc: LinearEncodingAttr, shape: Sequence[int]) -> LinearLayout:
    rank = len(shape)
    bases = {d: [tuple(b) for b in enc.bases[d]] for d in HW_DIMS}
    return LinearLayout(bases, list(zip(dim_names(rank), shape)))


_KEEP_ZERO_REGS: contextvars.ContextVar[bool] = contextvars.ContextVar("keep_zero_regs", default=False)


def to_linear_layout(
    enc: Attribute | None, shape: Sequence[int], keep_broadcast_registers: bool = False
) -> LinearLayout | None:
    """The linear layout of a distributed layout on a tensor of `shape` (None if irkit has no faithful
    conversion for it).  Register bases that fall outside a small tensor are removed (Triton 3.9); with
    `keep_broadcast_registers` they stay as zero bases, as Triton 3.2/3.3 build them (which matters to
    LinearEncodingAttr::getSizePerThread).  The result is shared: do not mutate it."""
    if enc is None:
        return None
    return _to_ll_cached(enc, tuple(int(s) for s in shape), bool(keep_broadcast_registers))


@lru_cache(maxsize=4096)
def _to_ll_cached(enc: Attribute, shape: tuple[int, ...], keep: bool) -> LinearLayout | None:
    token = _KEEP_ZERO_REGS.set(keep)
    try:
        if kinds.is_blocked(enc):
            return _blocked_to_ll(enc, shape)
        if kinds.is_slice(enc):
            return _slice_to_ll(enc, shape)
        if kinds.is_nvidia_mma(enc):
            return _nvidia_mma_to_ll(enc, shape)
        if kinds.is_mfma(enc):
            return _mfma_to_ll(enc, shape)
        if kinds.is_wmma(enc):
            return _wmma_to_ll(enc, shape)
        if kinds.is_dpas(enc):
            return _dpas_to_ll(enc, shape)
        if kinds.is_linear(enc):
            return _linear_attr_to_ll(enc, shape)
        if kinds.is_dot_operand(enc):
            parent = enc.parent
            if kinds.is_nvidia_mma(parent):
                return _nvidia_dot_to_ll(enc, shape)
            if kinds.is_mfma(parent):
                return _mfma_dot_to_ll(enc, shape)
            if kinds.is_dpas(parent):
                return _dpas_to_ll(parent, shape, int(enc.op_idx))
            if kinds.is_blocked(parent):
                return _fma_dot_to_ll(enc, shape)
            return None
    except (kinds.UnsupportedLayout, ValueError, KeyError, TypeError):
        return None
    finally:
        _KEEP_ZERO_REGS.reset(token)
    return None


# ---------------------------------------------------------------------------------------------
# Linear-encoding queries (LinearEncodingAttr's legacy accessors)
# ---------------------------------------------------------------------------------------------


def _bases_per_dim(enc: LinearEncodingAttr, in_dim: str) -> tuple[int, ...]:
    return kinds.split_by_bases(enc.bases[in_dim], kinds.rank_of(enc))


def linear_warps_per_cta(enc: Attribute) -> tuple[int, ...]:
    return _bases_per_dim(enc, WARP)


def linear_threads_per_warp(enc: Attribute) -> tuple[int, ...]:
    return _bases_per_dim(enc, LANE)


def linear_order(enc: Attribute) -> tuple[int, ...]:
    """orderPerDim(register): dims in the order their first register basis appears, then the rest."""
    rank = kinds.rank_of(enc)
    seen: list[int] = []
    for d_in in (REG, LANE, WARP):
        for v in enc.bases[d_in]:
            for d, x in enumerate(v):
                if x and d not in seen:
                    seen.append(d)
    for d in range(rank - 1, -1, -1):
        if d not in seen:
            seen.append(d)
    return tuple(seen)


def linear_contig_per_thread(enc: Attribute) -> tuple[int, ...]:
    """Per dim: 2^k where the first k register bases touching the dim are 1, 2, ..., 2^(k-1) on it alone."""
    rank = kinds.rank_of(enc)
    out = [1] * rank
    for d in range(rank):
        expect = 1
        for v in enc.register_bases or ():
            if v[d] == 0:
                continue
            if v[d] == expect and all(x == 0 for i, x in enumerate(v) if i != d):
                expect *= 2
            else:
                break
        out[d] = expect
    return tuple(out)


def linear_shape_per_cta_tile(enc: Attribute) -> tuple[int, ...]:
    rank = kinds.rank_of(enc)
    acc = [0] * rank
    for d_in in (REG, LANE, WARP):
        for v in enc.bases[d_in]:
            for d, x in enumerate(v):
                acc[d] |= x
    return tuple(_next_pow2_size(a) for a in acc)


# ---------------------------------------------------------------------------------------------
# LinearEncodingAttr views of a linear layout (Triton 3.3+ answers the legacy queries this way)
# ---------------------------------------------------------------------------------------------


def _bases_per_dim_ll(ll: LinearLayout, in_dim: str, skip_broadcast: bool = True) -> list[int]:
    rank = len(ll.out_dims)
    out = [1] * rank
    for v in ll.bases.get(in_dim, []):
        nz = [d for d, x in enumerate(v) if x]
        if not nz:
            if not skip_broadcast:
                out[0] *= 2
            continue
        out[nz[0]] *= 2
    return out


def ll_order(ll: LinearLayout) -> tuple[int, ...]:
    """LinearEncodingAttr::getOrder: dims in the order the register bases first move along them."""
    return ll_order_per_dim(ll, REG, tuple(range(len(ll.out_dims) - 1, -1, -1)))


def ll_order_per_dim(ll: LinearLayout, in_dim: str, default: Sequence[int]) -> tuple[int, ...]:
    order: list[int] = []
    for v in ll.bases.get(in_dim, []):
        nz = [d for d, x in enumerate(v) if x]
        if nz and nz[0] not in order:
            order.append(nz[0])
    for d in default:
        if d not in order:
            order.append(d)
    return tuple(order)


def ll_contig_per_thread(ll: LinearLayout) -> tuple[int, ...]:
    """LinearEncodingAttr::getContigPerThread: walking the register bases in order, how many double the
    previous one along each dim (dims taken in `ll_order`)."""
    rank = len(ll.out_dims)
    contig = [1] * rank
    bases = ll.bases.get(REG, [])
    i = 0
    for d in ll_order(ll):
        while i < len(bases):
            want = [0] * rank
            want[d] = contig[d]
            if list(bases[i]) == want:
                contig[d] *= 2
                i += 1
            else:
                break
    return tuple(contig)


def ll_size_per_thread(ll: LinearLayout, cta_split: Sequence[int] | None = None) -> tuple[int, ...]:
    """LinearEncodingAttr::getSizePerThread: the register bases left after stripping the trailing
    repetitions of the CTA tile."""
    rank = len(ll.out_dims)
    split = list(cta_split) if cta_split else [1] * rank
    cta_shape = [s // c for (_, s), c in zip(ll.out_dims, split)]
    regs = list(ll.bases.get(REG, []))
    rev: list[int] = []
    while regs:
        v = regs[-1]
        nz = [d for d, x in enumerate(v) if x]
        if not nz:
            break
        d = nz[0]
        if d not in rev:
            rev.append(d)
        if d != rev[-1] or 2 * v[d] != cta_shape[d]:
            break
        cta_shape[d] //= 2
        regs.pop()
    tmp = LinearLayout({REG: regs}, ll.out_dims) if regs else LinearLayout({REG: []}, ll.out_dims)
    return tuple(_bases_per_dim_ll(tmp, REG))


def ll_shape_per_cta_tile(ll: LinearLayout, cta_split: Sequence[int] | None = None) -> tuple[int, ...]:
    """LinearEncodingAttr::getShapePerCTATile = sizePerThread * threadsPerWarp * warpsPerCTA."""
    spt = ll_size_per_thread(ll, cta_split)
    tpw = _bases_per_dim_ll(ll, LANE)
    wpc = _bases_per_dim_ll(ll, WARP)
    return tuple(a * b * c for a, b, c in zip(spt, tpw, wpc))
