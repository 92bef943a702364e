"""Shared-memory allocation model: what Triton's Allocation analysis assigns, per buffer and in total.

`analyze_shared_memory(module)` predicts `kernel.metadata.shared`, the bytes Triton's
`allocate-shared-memory` pass writes into the `ttg.shared` / `triton_gpu.shared` module attribute and the
driver checks against the device limit (docs/triton-passes.md §5).  The model, per function:

1. **Buffers** (`lib/Analysis/Allocation.cpp`)
   * explicit: each `ttg.local_alloc` in shared memory: `prod(shapePerCTA) * bits / 8` bytes, aligned to
     its `alignment` attribute, else (3.1) 1024 if larger than 256 bytes and 8 otherwise, (3.2+) 16;
   * scratch (alignment 128), live only at their op: `convert_layout` between distributed layouts
     (padded-repShape formula in 3.1/3.3, swizzled linear-layout formula in 3.9), `tt.reduce`, `tt.scan`,
     `tt.histogram`, `tt.gather` (3.3+), scalar `tt.atomic_rmw`/`tt.atomic_cas` (1 element; 3.3+ only if
     the result is used), `ttng.tensormap_create` (128 B, 3.3+);
   * virtual: `tt.call` reserves the callee's whole allocation.
2. **Liveness**: operations are numbered in post-order (an op after everything nested in it); an explicit
   buffer lives over the liveness of its value and of every value aliasing it (memdesc views and region
   arguments/results of `scf.for`/`scf.if`/`scf.while`), `[first, last + 1)`, computed like MLIR's
   `Liveness::resolveLiveness`; scratch and virtual buffers live over `[id, id + 1)`.
3. **Packing**: `calculateStarts` (the triple-map first fit of "Algorithms for Compile-Time Memory
   Optimization"), then first-fit graph colouring repeated until no two buffers that are live at the same
   time overlap.  From Triton 3.2 on the buffers are first sorted by size, largest first.
4. **Total**: the maximum over functions that nobody calls of `max(offset + size)`.

Versions: "3.1" (Triton 3.1.x, legacy `triton_gpu.*` spelling), "3.3" (3.2-3.3: padded formula on the
linear-encoding order/contiguity, padding skipped for a single run), "3.9" (3.4+: swizzled scratch,
warp-shuffle converts free, linear-layout reduce).  Inferred from the module's attribute spelling when
not given: `triton_gpu.*` means 3.1, `ttg.*` means 3.9.

What is approximate is recorded in `Buffer.note` and `SharedMemoryReport.notes` (see
docs/shared-memory.md for the measured accuracy).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from math import prod

from xdsl.dialects.builtin import (
    CallSiteLoc,
    FileLineColLoc,
    FusedLoc,
    IntegerAttr,
    NameLoc,
    NoneAttr,
    StringAttr,
    SymbolRefAttr,
    TensorType,
)
from xdsl.ir import Attribute, Block, Operation, OpResult, SSAValue

from irkit.analysis.walk import post_order as _post_order
from irkit.analysis.walk import pre_order as _pre_order
from irkit.dialects.module_attrs import module_attrs, module_int, module_target  # noqa: F401 (re-exported)
from irkit.dialects.types import MemDescType, PointerType
from irkit.layout import algebra, conversion, linear
from irkit.names import exact_name

# ---------------------------------------------------------------------------------------------
# Targets
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Target:
    name: str
    triple: str  # as Triton's module attribute writes it: "cuda:80", "hip:gfx942", "xpu"
    limit: int  # bytes of shared memory a CTA may use (what OutOfResources is checked against)
    warp_size: int


TARGETS: dict[str, Target] = {
    "A100": Target("A100", "cuda:80", 166912, 32),
    "H100": Target("H100", "cuda:90", 232448, 32),
    "MI300X": Target("MI300X", "hip:gfx942", 65536, 64),
    "MI250X": Target("MI250X", "hip:gfx90a", 65536, 64),
    "PVC": Target("PVC", "xpu", 131072, 16),
}
_BY_TRIPLE = {t.triple: t for t in TARGETS.values()}


def resolve_target(spec: str | Target | None) -> Target | None:
    """A target from a name ("H100"), a triple ("cuda:90", "hip:gfx942", "xpu", "gfx942") or None."""
    if spec is None or isinstance(spec, Target):
        return spec
    s = spec.strip()
    for name, t in TARGETS.items():
        if s.lower() == name.lower():
            return t
    if s in _BY_TRIPLE:
        return _BY_TRIPLE[s]
    if s.startswith("gfx") and f"hip:{s}" in _BY_TRIPLE:
        return _BY_TRIPLE[f"hip:{s}"]
    if s.startswith("xpu"):
        return TARGETS["PVC"]
    return None


# ---------------------------------------------------------------------------------------------
# Report
# ---------------------------------------------------------------------------------------------


@dataclass
class Buffer:
    """One allocation of the model (Triton's BufferT)."""

    id: int
    kind: str  # "explicit" | "scratch" | "virtual"
    op_name: str
    value: str  # SSA name of the allocated value / the op's first result ("" when it had a numeric name)
    bytes: int
    alignment: int
    start: int = 0  # live range [start, end) in post-order op ids
    end: int = 0
    offset: int = 0
    line: int | None = None
    location: str | None = None
    function: str = ""
    note: str = ""
    op: Operation | None = field(default=None, repr=False, compare=False)

    @property
    def live_range(self) -> tuple[int, int]:
        return (self.start, self.end)


@dataclass
class SharedMemoryReport:
    version: str
    target: Target | None
    limit: int | None
    total_bytes: int
    buffers: list[Buffer]
    functions: dict[str, int]
    notes: list[str] = field(default_factory=list)

    def fits(self, limit: int | None = None) -> bool:
        lim = limit if limit is not None else self.limit
        return lim is None or self.total_bytes <= lim

    def verdict(self, limit: int | None = None) -> str:
        return verdict(self, limit)

    def to_text(self) -> str:
        lines = [
            f"shared memory: {self.total_bytes} bytes (Triton {self.version}"
            + (f", {self.target.name} {self.target.triple}" if self.target else "")
            + ")"
        ]
        for b in self.buffers:
            where = f" line {b.line}" if b.line is not None else ""
            note = f"  [{b.note}]" if b.note else ""
            lines.append(
                f"  {b.kind:8s} {b.op_name:28s} {b.value or '-':14s} offset {b.offset:7d} size {b.bytes:7d} "
                f"align {b.alignment:4d} live [{b.start}, {b.end}){where}{note}"
            )
        if self.limit is not None:
            lines.append(verdict(self))
        lines.extend(f"note: {n}" for n in self.notes)
        return "\n".join(lines)


def verdict(report: SharedMemoryReport | int, limit: int | None = None) -> str:
    """Triton's launch-time check: the exact OutOfResources message, or "fits" with the margin."""
    total = report if isinstance(report, int) else report.total_bytes
    if limit is None and not isinstance(report, int):
        limit = report.limit
    if limit is None:
        return f"fits: {total} bytes (no limit known)"
    if total > limit:
        return f"out of resource: shared memory, Required: {total}, Hardware limit: {limit}"
    return f"fits: {total} <= {limit} bytes"


# ---------------------------------------------------------------------------------------------
# Versions
# ---------------------------------------------------------------------------------------------

V31, V33, V39 = "3.1", "3.3", "3.9"
APPROX = "approximate: "  # notes with this prefix also go to SharedMemoryReport.notes


def normalize_version(version: str | None) -> str | None:
    """'3.1.0' -> '3.1'; 3.2/3.3 -> '3.3' rules; 3.4 and newer -> '3.9' rules."""
    if version is None:
        return None
    parts = str(version).split(".")
    try:
        mm = (int(parts[0]), int(parts[1]) if len(parts) > 1 else 0)
    except ValueError as e:
        raise ValueError(f"bad Triton version {version!r}") from e
    if mm < (3, 2):
        return V31
    if mm < (3, 4):
        return V33
    return V39


def infer_version(module: Operation) -> str:
    """`triton_gpu.*` module attributes mean Triton 3.1; `ttg.*` the newest rules (3.9)."""
    keys = module_attrs(module)
    if any(k.startswith("triton_gpu.") for k in keys):
        return V31
    return V39


def _attr_int(a: Attribute | None) -> int | None:
    if isinstance(a, IntegerAttr):
        return a.value.data
    return None


# ---------------------------------------------------------------------------------------------
# Op identification (current spelling)
# ---------------------------------------------------------------------------------------------

LOCAL_ALLOC = "ttg.local_alloc"
CONVERT = "ttg.convert_layout"
# ops whose result is a view of (an alias of) their first memdesc operand
VIEW_OPS = {
    "ttg.memdesc_subview",
    "ttg.memdesc_index",
    "ttg.memdesc_subslice",
    "ttg.memdesc_trans",
    "ttg.memdesc_reshape",
    "ttg.memdesc_reinterpret",
    "tt.trans",  # 3.1: tt.trans also transposes memdescs
    "ttng.tmem_subslice",
}
FUNC_OPS = {"tt.func", "func.func"}
# ops that reserve shared memory in some Triton version but that this model does not size
UNMODELLED_OPS = {"ttg.warp_specialize"}
CALL_OPS = {"tt.call", "func.call"}


def _is_memdesc(t: Attribute) -> bool:
    return isinstance(t, MemDescType)


def _in_shared_memory(t: MemDescType) -> bool:
    space = t.memory_space
    name = getattr(space, "name", "") or ""
    return "tensor_memory" not in name


def _value_name(v: SSAValue) -> str:
    """The SSA name as written, or "" (the parser keeps names like %acc but not numeric ones like %105)."""
    name = exact_name(v)
    return "%" + name if name else ""


def _location(op: Operation) -> tuple[int | None, str | None]:
    """(line, "file:line:col") of the user's source line: the caller end of a callsite chain."""
    loc = getattr(op, "location", None)
    seen = 0
    while loc is not None and seen < 32:
        seen += 1
        if isinstance(loc, FileLineColLoc):
            return loc.line.data, f"{loc.filename.data}:{loc.line.data}:{loc.column.data}"
        if isinstance(loc, CallSiteLoc):
            loc = loc.caller
        elif isinstance(loc, NameLoc):
            loc = loc.location
        elif isinstance(loc, FusedLoc):
            locs = loc.locations.data if hasattr(loc.locations, "data") else loc.locations
            loc = locs[0] if locs else None
        else:
            break
    return None, None


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
    padded_dim = de.get("order")[0] if algebra.is_blocked(de) else rank - 1
    rep[padded_dim] += max(in_vec, out_vec)
    return rep, in_vec, out_vec


def _cta_layout(enc: Attribute) -> tuple:
    return (algebra.ctas_per_cga(enc), algebra.cta_split_num(enc), algebra._cta_field(enc, "CTAOrder"))


def _linear_view(enc: Attribute, shape: Sequence[int]):
    """(order, contigPerThread, shapePerCTATile) as LinearEncodingAttr answers them (3.2+); the legacy
    answers for a layout with no linear form."""
    ll = linear.to_linear_layout(enc, shape, keep_broadcast_registers=True)
    if ll is None:
        order = algebra.dpas_linear_order(enc) if algebra.is_dpas(enc) else algebra.get_order(enc)
        return order, algebra.unique_contig_per_thread(enc, shape), algebra.shape_per_cta_tile(enc, shape)
    split = algebra.cta_split_num(enc)
    return linear.ll_order(ll), linear.ll_contig_per_thread(ll), linear.ll_shape_per_cta_tile(ll, split)


def padded_rep_shape_33(src: TensorType, dst: TensorType) -> tuple[list[int], int, int] | None:
    """getScratchConfigForCvt (3.2/3.3): linear-encoding tiles/orders/contiguity, vectors clamped to the
    rep shape and to 128 bits, no padding when all dims but the fastest are 1, the pad on the destination's
    fastest dim."""
    se, de = src.encoding, dst.encoding
    shape = tuple(src.get_shape())
    s_cta, d_cta = algebra.shape_per_cta(se, shape), algebra.shape_per_cta(de, shape)
    in_ord, s_contig, s_tile = _linear_view(se, shape)
    out_ord, d_contig, d_tile = _linear_view(de, shape)
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


def cvt_scratch_bytes(src: TensorType, dst: TensorType, version: str, target: str | None = None) -> tuple[int, str]:
    """Scratch bytes of `convert_layout src -> dst` under a version's rules, and a note when approximate."""
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
            rep, _, _ = padded_rep_shape_31(src, dst)
            return prod(rep) * _cvt_elem_bytes(src), note
        if version == V33:
            if not conversion.cvt_needs_shared_memory(se, de, shape, elem, V33):
                return 0, ""
            rep, _, _ = padded_rep_shape_33(src, dst)
            return prod(rep) * _cvt_elem_bytes(src), note
        # 3.9
        if not conversion.cvt_needs_shared_memory(se, de, shape, elem, V39):
            return 0, ""
        n = conversion.swizzled_scratch_elems(se, de, shape, bits, target)
        if n is None:
            rep, _, _ = padded_rep_shape_33(src, dst)
            return prod(rep) * _cvt_elem_bytes(src), f"{APPROX}no linear layout for this convert: 3.3 padded formula used"
        return n * bits // 8, note
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
    axis = _attr_int(op.properties.get("axis") or op.attributes.get("axis")) or 0
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
    axis = _attr_int(op.properties.get("axis") or op.attributes.get("axis")) or 0
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
    spt, tpw, wpc = enc.get("sizePerThread"), enc.get("threadsPerWarp"), enc.get("warpsPerCTA")
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
    src = op.operands[0].type if op.operands else None
    if not isinstance(src, TensorType):
        return 0
    # isWarpLocal is not modelled: the conservative whole-source size
    return prod(src.get_shape()) * algebra.ceil_bytes(src)


# ---------------------------------------------------------------------------------------------
# Liveness (MLIR Liveness on structured IR)
# ---------------------------------------------------------------------------------------------


def _all_blocks(op: Operation) -> Iterator[Block]:
    for region in op.regions:
        for block in region.blocks:
            yield block
            for child in block.ops:
                yield from _all_blocks(child)


def _successors(block: Block) -> list[Block]:
    last = block.last_op
    return list(last.successors) if last is not None else []


class _Liveness:
    """MLIR's Liveness: per-block live-in/live-out sets; resolve(value) lists the ops it is live at."""

    def __init__(self, root: Operation):
        self.info: dict[Block, tuple[set, set, set, set]] = {}  # block -> (defs, uses, live_in, live_out)
        blocks = list(_all_blocks(root))
        defs: dict[Block, set] = {}
        uses: dict[Block, set] = {}
        out_vals: dict[Block, set] = {}
        for b in blocks:
            d: set = set(b.args)
            u: set = set()
            o: set = set()
            region = b.parent

            def gather_out(v: SSAValue, region=region, b=b, o=o) -> None:
                for use in v.uses:
                    ub = _ancestor_block_in_region(use.operation.parent_block(), region)
                    if ub is not None and ub is not b:
                        o.add(v)
                        return

            for a in b.args:
                gather_out(a)
            for op in b.ops:
                for r in op.results:
                    gather_out(r)
            for op in b.ops:
                for nested in _pre_order(op):
                    d.update(nested.results)
                    u.update(nested.operands)
                    for reg in nested.regions:
                        for nb in reg.blocks:
                            d.update(nb.args)
            u -= d
            defs[b], uses[b], out_vals[b] = d, u, o
        live_in = {b: set(uses[b]) | (out_vals[b] - defs[b]) for b in blocks}
        live_out = {b: set(out_vals[b]) for b in blocks}
        changed = True
        while changed:
            changed = False
            for b in blocks:
                new_out = set(out_vals[b])
                for s in _successors(b):
                    new_out |= live_in.get(s, set())
                new_in = uses[b] | (new_out - defs[b])
                if new_out != live_out[b] or new_in != live_in[b]:
                    live_out[b], live_in[b] = new_out, new_in
                    changed = True
        for b in blocks:
            self.info[b] = (defs[b], uses[b], live_in[b], live_out[b])

    def resolve(self, value: SSAValue) -> list[Operation]:
        result: list[Operation] = []
        if isinstance(value, OpResult):
            def_block = value.op.parent_block()
        else:
            def_block = value.block
        to_process = [def_block]
        visited = {def_block}
        for use in value.uses:
            ub = use.operation.parent_block()
            if ub not in visited:
                visited.add(ub)
                to_process.append(ub)
        while to_process:
            block = to_process.pop()
            if block is None or block not in self.info:
                continue
            _, _, live_in, live_out = self.info[block]
            def_op = value.op if isinstance(value, OpResult) else None
            if value in live_in or def_op is None or def_op.parent_block() is not block:
                start = block.first_op
            else:
                start = def_op
            if start is None:
                continue
            if value in live_out:
                end = block.last_op
            else:
                end = start
                for use in value.uses:
                    anc = block.find_ancestor_op_in_block(use.operation)
                    if anc is not None and end.is_before_in_block(anc):
                        end = anc
            op = start
            result.append(op)
            while op is not end and op is not None:
                op = op.next_op
                if op is not None:
                    result.append(op)
            for s in _successors(block):
                if value in self.info.get(s, (None, None, set(), None))[2] and s not in visited:
                    visited.add(s)
                    to_process.append(s)
        return result


def _ancestor_block_in_region(block: Block | None, region) -> Block | None:
    while block is not None:
        if block.parent is region:
            return block
        parent_op = block.parent_op()
        if parent_op is None:
            return None
        block = parent_op.parent_block()
    return None


# ---------------------------------------------------------------------------------------------
# Alias analysis (SharedMemoryAliasAnalysis)
# ---------------------------------------------------------------------------------------------


def _alias_sets(func: Operation) -> dict[SSAValue, frozenset]:
    """For every memdesc value: the local_alloc results it may point into (dataflow to a fixpoint)."""
    sets: dict[SSAValue, frozenset] = {}

    def get(v: SSAValue) -> frozenset:
        return sets.get(v, frozenset())

    def join(v: SSAValue, s: frozenset) -> bool:
        if not s:
            return False
        old = sets.get(v, frozenset())
        new = old | s
        if new != old:
            sets[v] = new
            return True
        return False

    ops = list(_pre_order(func))
    changed = True
    rounds = 0
    while changed and rounds < 64:
        rounds += 1
        changed = False
        for op in ops:
            name = op.name
            if name == LOCAL_ALLOC and op.results and _is_memdesc(op.results[0].type):
                changed |= join(op.results[0], frozenset([op.results[0]]))
            elif name in VIEW_OPS and op.operands and op.results and _is_memdesc(op.results[0].type):
                changed |= join(op.results[0], get(op.operands[0]))
            elif name == "scf.for":
                n_lb = 3
                inits = list(op.operands[n_lb:])
                body = op.regions[0].blocks[0]
                iter_args = list(body.args[1:])
                yld = body.last_op
                yields = list(yld.operands) if yld is not None else []
                for i, init in enumerate(inits):
                    s = get(init) | (get(yields[i]) if i < len(yields) else frozenset())
                    if i < len(iter_args):
                        changed |= join(iter_args[i], s)
                    if i < len(op.results):
                        changed |= join(op.results[i], s)
            elif name == "scf.if":
                for region in op.regions:
                    for block in region.blocks:
                        yld = block.last_op
                        if yld is None or yld.name != "scf.yield":
                            continue
                        for i, v in enumerate(yld.operands):
                            if i < len(op.results):
                                changed |= join(op.results[i], get(v))
            elif name == "scf.while":
                before = op.regions[0].blocks[0]
                after = op.regions[1].blocks[0] if len(op.regions) > 1 else None
                cond = before.last_op
                after_yield = after.last_op if after is not None else None
                for i, init in enumerate(op.operands):
                    s = get(init)
                    if after_yield is not None and i < len(after_yield.operands):
                        s |= get(after_yield.operands[i])
                    if i < len(before.args):
                        changed |= join(before.args[i], s)
                if cond is not None and cond.name == "scf.condition":
                    fwd = list(cond.operands[1:])
                    for i, v in enumerate(fwd):
                        if after is not None and i < len(after.args):
                            changed |= join(after.args[i], get(v))
                        if i < len(op.results):
                            changed |= join(op.results[i], get(v))
            elif name in ("ttg.warp_specialize",):
                # captures flow into the partition regions' arguments
                for region in op.regions[1:]:
                    for block in region.blocks:
                        for i, a in enumerate(block.args):
                            if i < len(op.operands):
                                changed |= join(a, get(op.operands[i]))
    return sets


# ---------------------------------------------------------------------------------------------
# Packing
# ---------------------------------------------------------------------------------------------


def _align(x: int, a: int) -> int:
    return -(-x // a) * a if a > 1 else x


def _intersects(a: tuple[int, int], b: tuple[int, int]) -> bool:
    return a[0] < b[1] and b[0] < a[1]


_UNBOUNDED = (0, 1 << 62)


def compute_offsets(buffers: list[Buffer], sort_by_size: bool) -> int:
    """calculateStarts + the interference-graph colouring loop; returns the allocation size."""
    if not buffers:
        return 0
    order = sorted(buffers, key=lambda b: -b.bytes) if sort_by_size else list(buffers)
    rng = {b.id: (b.start, b.end) for b in order}
    # calculateStarts: triple map {offset -> live interval}; a multimap iterated by offset, then insertion
    triples: list[tuple[int, int, tuple[int, int]]] = [(0, 0, _UNBOUNDED)]
    seq = 1
    pending = list(order)
    while pending and triples:
        triples.sort(key=lambda t: (t[0], t[1]))
        off, _, r = triples.pop(0)
        found = None
        for x in pending:
            xr = rng[x.id]
            if _intersects(xr, r) and not any(_intersects(t[2], xr) for t in triples):
                found = x
                break
        if found is None:
            continue
        x = found
        xr = rng[x.id]
        x.offset = _align(off, x.alignment)
        triples.append((x.offset + x.bytes, seq, (max(r[0], xr[0]), min(r[1], xr[1]))))
        seq += 1
        if r[0] < xr[0]:
            triples.append((off, seq, (r[0], xr[1])))
            seq += 1
        if xr[1] < r[1]:
            triples.append((off, seq, (xr[0], r[1])))
            seq += 1
        pending.remove(x)

    def interference() -> dict[int, list[Buffer]]:
        g: dict[int, list[Buffer]] = {}
        for x in order:
            for y in order:
                if x is y:
                    continue
                if _intersects(rng[x.id], rng[y.id]) and _intersects(
                    (x.offset, x.offset + x.bytes), (y.offset, y.offset + y.bytes)
                ):
                    g.setdefault(x.id, []).append(y)
        return g

    size = 0
    graph = interference()
    rounds = 0
    while True:
        rounds += 1
        size = 0
        colors: dict[int, int] = {b.id: (0 if b is order[0] else -1) for b in order}
        for x in order:
            avail = [True] * len(order)
            for y in graph.get(x.id, []):
                c = colors[y.id]
                if c >= 0:
                    avail[c] = False
            colors[x.id] = avail.index(True) if True in avail else len(order)
        for x in order:
            new_off = 0
            for y in graph.get(x.id, []):
                new_off = max(new_off, y.offset + y.bytes)
            if colors[x.id] != 0:
                x.offset = _align(new_off, x.alignment)
            size = max(size, x.offset + x.bytes)
        graph = interference()
        if not graph or rounds > 10000:
            break
    return size


# ---------------------------------------------------------------------------------------------
# The analysis
# ---------------------------------------------------------------------------------------------


def _func_name(op: Operation) -> str:
    n = op.properties.get("sym_name") or op.attributes.get("sym_name")
    return n.data if isinstance(n, StringAttr) else "<anonymous>"


def _callee(op: Operation) -> str | None:
    c = op.properties.get("callee") or op.attributes.get("callee")
    if isinstance(c, SymbolRefAttr):
        return c.root_reference.data
    if isinstance(c, StringAttr):
        return c.data
    return None


# LocalAllocOp default alignment from Triton 3.2 on (measured with the 3.3.1 and 3.9.0 passes)
_DEFAULT_ALLOC_ALIGN = 16


class _FunctionAllocation:
    def __init__(self, func: Operation, ctx: _Context, callee_sizes: dict[str, int]):
        self.func = func
        self.ctx = ctx
        self.name = _func_name(func)
        self.buffers: list[Buffer] = []
        self.notes: list[str] = []
        self._next_id = ctx.next_id
        explicit: list[tuple[Buffer, SSAValue]] = []
        scratch: list[Buffer] = []
        virtual: list[Buffer] = []
        for op in _pre_order(func):
            b = self._explicit(op)
            if b is not None:
                explicit.append((b, op.results[0]))
            b = self._scratch(op, callee_sizes)
            if b is not None:
                (virtual if b.kind == "virtual" else scratch).append(b)
        ctx.next_id = self._next_id

        op_id = {op: i for i, op in enumerate(_post_order(func))}
        liveness = _Liveness(func)
        aliases = _alias_sets(func)

        def live_range(v: SSAValue) -> tuple[int, int]:
            ops = liveness.resolve(v)
            ids = [op_id[o] for o in ops if o in op_id]
            if not ids:
                owner = v.op if isinstance(v, OpResult) else None
                i = op_id.get(owner, 0) if owner is not None else 0
                return (i, i + 1)
            return (min(ids), max(ids) + 1)

        by_alloc = {}
        for b, v in explicit:
            b.start, b.end = live_range(v)
            by_alloc[v] = b
        # values aliasing allocations: every operand and result that carries an alias set
        seen: set = set()
        for op in _pre_order(func):
            for v in list(op.operands) + list(op.results):
                if v in seen:
                    continue
                seen.add(v)
                allocs = aliases.get(v)
                if not allocs:
                    continue
                s, e = live_range(v)
                for a in allocs:
                    b = by_alloc.get(a)
                    if b is None:
                        continue
                    b.start, b.end = min(b.start, s), max(b.end, e)
        for b in scratch + virtual:
            i = op_id[b.op]
            b.start, b.end = i, i + 1
        self.buffers = [b for b, _ in explicit] + scratch + virtual
        self.size = compute_offsets(self.buffers, sort_by_size=ctx.version != V31)

    def _new_buffer(self, kind: str, op: Operation, nbytes: int, align: int, value: str = "", note: str = "") -> Buffer:
        line, loc = _location(op)
        b = Buffer(
            id=self._next_id,
            kind=kind,
            op_name=op.name,
            value=value or (_value_name(op.results[0]) if op.results else ""),
            bytes=int(nbytes),
            alignment=int(align),
            line=line,
            location=loc,
            function=_func_name(self.func),
            note=note,
            op=op,
        )
        self._next_id += 1
        return b

    def _explicit(self, op: Operation) -> Buffer | None:
        if op.name != LOCAL_ALLOC or not op.results:
            return None
        t = op.results[0].type
        if not _is_memdesc(t) or not _in_shared_memory(t):
            return None
        shape = t.get_shape()
        alloc_shape = t.alloc_shape
        if alloc_shape is not None and hasattr(alloc_shape, "data"):
            shape = tuple(d.data for d in alloc_shape.data)
        shape_cta = algebra.shape_per_cta(t.encoding, shape)
        bits = algebra.elem_bits(t)
        nbytes = prod(shape_cta) * bits // 8
        align = _attr_int(op.properties.get("alignment") or op.attributes.get("alignment"))
        if align is None:
            if self.ctx.version == V31:
                # LocalAllocOp::getAlignmentOrDefault @3.1: 1024 for anything over 256 bytes (swizzling)
                approx = prod(shape_cta) * (bits // 8)
                align = 1024 if approx > 256 else 8
            else:
                align = _DEFAULT_ALLOC_ALIGN
        return self._new_buffer("explicit", op, nbytes, align)

    def _scratch(self, op: Operation, callee_sizes: dict[str, int]) -> Buffer | None:
        name = op.name
        ctx = self.ctx
        nbytes, note, kind = 0, "", "scratch"
        if name in CALL_OPS:
            callee = _callee(op)
            nbytes = callee_sizes.get(callee or "", 0)
            if callee not in callee_sizes:
                note = f"{APPROX}callee @{callee} not in the module: 0 bytes assumed"
            kind = "virtual"
        elif name == CONVERT:
            src, dst = _tensor(op.operands[0].type), _tensor(op.results[0].type)
            if src is not None and dst is not None:
                nbytes, note = cvt_scratch_bytes(src, dst, ctx.version, ctx.target_triple)
        elif name == "tt.reduce":
            nbytes, note = reduce_scratch_bytes(op, ctx.version)
        elif name == "tt.scan":
            nbytes, note = scan_scratch_bytes(op, ctx.num_warps, ctx.version)
        elif name == "tt.histogram":
            nbytes = histogram_scratch_bytes(op, ctx.threads_per_warp)
        elif name in ("tt.atomic_rmw", "tt.atomic_cas"):
            nbytes = atomic_scratch_bytes(op, ctx.version)
        elif name == "tt.gather" and ctx.version != V31:
            nbytes = gather_scratch_bytes(op)
            note = f"{APPROX}tt.gather: the warp-local case is not modelled (whole source assumed)"
        elif name in ("ttng.tensormap_create", "ttng.experimental_tensormap_create") and ctx.version != V31:
            nbytes = 128
        elif name in UNMODELLED_OPS:
            note = f"{APPROX}{name}: its shared memory is not modelled (0 bytes assumed)"
        if note.startswith(APPROX) and note not in self.notes:
            self.notes.append(note)
        if nbytes <= 0:
            return None
        return self._new_buffer(kind, op, nbytes, 128, note=note)


@dataclass
class _Context:
    version: str
    target_triple: str | None
    num_warps: int
    threads_per_warp: int
    next_id: int = 0


def analyze_shared_memory(
    module: Operation,
    version: str | None = None,
    target: str | Target | None = None,
    limit: int | None = None,
) -> SharedMemoryReport:
    """Predict Triton's shared-memory allocation for a TTGIR module.

    `version`: "3.1", "3.3", "3.9" (or a full "3.1.0"); inferred from the module attribute spelling when
    None.  `target`: a `TARGETS` name or a triple; defaults to the module's `ttg.target`.  `limit`:
    overrides the target's shared-memory limit."""
    module = getattr(module, "module", module)  # a ParsedModule from irkit.frontend.parser
    ver = normalize_version(version) if version is not None else infer_version(module)
    triple = module_target(module)
    tgt = resolve_target(target) if target is not None else resolve_target(triple)
    if isinstance(target, str) and tgt is None:
        triple = target
    elif tgt is not None and target is not None:
        triple = tgt.triple
    lim = limit if limit is not None else (tgt.limit if tgt else None)
    tpw = module_int(module, "threads-per-warp") or (tgt.warp_size if tgt else 32)
    ctx = _Context(ver, triple or (tgt.triple if tgt else None), module_int(module, "num-warps") or 4, tpw)

    funcs = [op for op in _pre_order(module) if op.name in FUNC_OPS]
    by_name = {_func_name(f): f for f in funcs}
    calls: dict[str, list[str]] = {n: [] for n in by_name}
    for n, f in by_name.items():
        for op in _pre_order(f):
            if op.name in CALL_OPS:
                c = _callee(op)
                if c:
                    calls[n].append(c)
    called = {c for cs in calls.values() for c in cs}
    # callees first (post-order over the call graph)
    ordered: list[str] = []
    state: dict[str, int] = {}

    def visit(n: str) -> None:
        if state.get(n) == 2 or n not in by_name:
            return
        if state.get(n) == 1:
            return  # recursion: Triton rejects it; cut the cycle
        state[n] = 1
        for c in calls.get(n, []):
            visit(c)
        state[n] = 2
        ordered.append(n)

    for n in by_name:
        visit(n)
    sizes: dict[str, int] = {}
    buffers: list[Buffer] = []
    notes: list[str] = []
    for n in ordered:
        fa = _FunctionAllocation(by_name[n], ctx, sizes)
        sizes[n] = fa.size
        buffers.extend(fa.buffers)
        for note in fa.notes:
            if note not in notes:
                notes.append(note)
    roots = [n for n in by_name if n not in called] or list(by_name)
    total = max((sizes[n] for n in roots), default=0)
    return SharedMemoryReport(
        version=ver, target=tgt, limit=lim, total_bytes=total, buffers=buffers, functions=sizes, notes=notes
    )
