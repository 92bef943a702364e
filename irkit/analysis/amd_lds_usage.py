"""AMD's optimize-amd-lds-usage, as Triton 3.3 to 3.6 run it in make_llir just before the allocation.

Where a module's shared memory is over the arch's LDS, each convert that holds more than its share of the peak
is tried through an intermediate layout (`src -> tmp -> dst`): two smaller scratch buffers that are never live
together (third_party/amd/lib/TritonAMDGPUToLLVM/OptimizeLDSUsage.cpp and OptimizeLDSUtility.cpp).  So the
`shared` an AMD compile of those releases reports can be far below what the TTGIR's own converts need: a
256x256 f32 add-matrix GEMM on gfx942 takes 17,408 B with 3.5/3.6, not 262,144 B (docs/shared-memory.md).
Three generations of the pass are modelled, read from its sources at each release; 3.3's and 3.5/3.6's are
checked against their compilers (3.4's cannot be yet: its allocation's swizzled scratch is not modelled):
- 3.3 (`V33`): every candidate priced with the padded scratch, the smallest taken; a slice keeps its parent's
  warps; the fallback layout takes the source layout's own order;
- 3.4 (`V34`): the same choice, but a slice spreads the warps over its parent's other dims, and the fallback
  takes the source's linear order;
- 3.5/3.6 (`V35`, after #7750): a candidate that fits with the swizzled scratch is preferred to one that needs
  the padded scratch (`amdgpu.use_padded_scratch_shmem`, spelt `amdg.` from 3.6), which the lowering then uses.
3.7 removed the pass (#8282).

The layout choice is pure (`choose`); `fit_convert` rewrites one convert, which the shared-memory model does
on a copy of the module only."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from xdsl.dialects.builtin import TensorType, UnitAttr
from xdsl.ir import Attribute, Operation
from xdsl.rewriter import InsertPoint, Rewriter

from irkit.dialects import encodings as enc
from irkit.dialects.ttg import ConvertLayoutOp
from irkit.layout import algebra, linear

PADDED_SCRATCH_ATTRS = ("amdgpu.use_padded_scratch_shmem", "amdg.use_padded_scratch_shmem")
V33, V34, V35 = "3.3", "3.4", "3.5/3.6"
GENERATIONS = {(3, 3): V33, (3, 4): V34, (3, 5): V35, (3, 6): V35}  # the releases whose make_llir runs the pass

# (src, dst, padded) -> scratch bytes of that convert under the allocation's rules
ScratchBytes = Callable[[TensorType, TensorType, bool], int]


def generation(release: tuple[int, ...], triple: str | None) -> str | None:
    """Which pass the compile of `release` for `triple` runs before its allocation (None: none modelled)."""
    if not (triple and triple.startswith("hip:")):
        return None
    return GENERATIONS.get((release[0], release[1]))


def padded_attr_name(release: tuple[int, ...]) -> str:
    """The unit attribute that asks for the padded scratch: `amdgpu.` in 3.5, `amdg.` from 3.6."""
    return PADDED_SCRATCH_ATTRS[1] if tuple(release[:2]) >= (3, 6) else PADDED_SCRATCH_ATTRS[0]


def uses_padded_scratch(op: Operation) -> bool:
    """Does this convert carry the attribute that makes AMD's allocation and lowering use the padded scratch?"""
    return any(name in op.attributes for name in PADDED_SCRATCH_ATTRS)


def warp_factorizations(num_warps: int, rank: int) -> list[tuple[int, ...]]:
    """Every split of `num_warps` (a power of two) over `rank` dims, in the order factorizePowerOf2 lists them:
    the first dim's share grows slowest."""
    twos = num_warps.bit_length() - 1
    out: list[tuple[int, ...]] = []

    def step(prefix: tuple[int, ...], rest: int) -> None:
        if len(prefix) == rank:
            if rest == 0:
                out.append(prefix)
            return
        for i in range(rest + 1):
            step((*prefix, 1 << i), rest - i)

    step((), twos)
    return out


def with_warps(layout: Attribute, warps: Sequence[int], gen: str = V35) -> Attribute | None:
    """createTmpLayout: `layout` with its warps laid out as `warps` (a dot operand's parent takes them; a slice's
    parent gets a 1 at the sliced dim, or, in the 3.3 pass, keeps its own); None for a linear layout, which the
    pass does not try."""
    if isinstance(layout, (enc.BlockedEncodingAttr, enc.AmdMfmaEncodingAttr, enc.AmdWmmaEncodingAttr)):
        return layout.replace(warpsPerCTA=tuple(warps))
    if isinstance(layout, enc.DotOperandEncodingAttr) and layout.parent is not None:
        parent = with_warps(layout.parent, warps, gen)
        return None if parent is None else layout.replace(parent=parent)
    if isinstance(layout, enc.SliceEncodingAttr) and layout.parent is not None:
        dim = layout.dim or 0
        own = algebra.warps_per_cta(layout.parent)
        parent = with_warps(layout.parent, own if gen == V33 else (*warps[:dim], 1, *warps[dim:]), gen)
        return None if parent is None else layout.replace(parent=parent)
    return None


def fallback_layout(src: TensorType, warp_size: int, gen: str = V35) -> enc.BlockedEncodingAttr:
    """The pass's own candidate: one element per thread, a warp 8 lanes wide along the last dim (all of it for
    rank 1), in the source's order, with the source's CTA layout; its warps are set per candidate.  The order is
    the source's linear order from 3.4 and the layout's own in 3.3 (each measured: a #blocked with order
    [1, 0] holding 256 rows per thread gives [0, 1] in 3.6)."""
    shape = tuple(src.get_shape())
    rank = len(shape)
    lanes = [1] * rank
    if rank == 1:
        lanes[0] = warp_size
    else:
        lanes[-1] = warp_size // 8
        lanes[-2] = warp_size // lanes[-1]
    ll = linear.to_linear_layout(src.encoding, shape, keep_broadcast_registers=True) if gen != V33 else None
    order = linear.ll_order(ll) if ll is not None else algebra.get_order_33(src.encoding)
    cta = src.encoding.cta_layout._asdict() if isinstance(src.encoding, enc.StructLayoutAttr) else {}
    return enc.BlockedEncodingAttr.of(size_per_thread=(1,) * rank, threads_per_warp=tuple(lanes),
                                      warps_per_cta=(1,) * rank, order=tuple(order), **cta)


def candidate_layouts(src: TensorType, dst: TensorType, num_warps: int, warp_size: int,
                      gen: str = V35) -> list[Attribute]:
    """The intermediate layouts the pass tries, in its order: for each warp split, the source's, the
    destination's and the fallback's layout with those warps."""
    base = fallback_layout(src, warp_size, gen)
    out: list[Attribute] = []
    for warps in warp_factorizations(num_warps, len(src.get_shape())):
        for layout in (src.encoding, dst.encoding, base):
            tmp = with_warps(layout, warps, gen)
            if tmp is not None:
                out.append(tmp)
    return out


@dataclass(frozen=True)
class Replacement:
    """The layout a convert goes through, whether its two converts use the padded scratch, and their peak."""

    layout: Attribute
    padded: bool
    bytes: int


def _through(t: TensorType, layout: Attribute) -> TensorType:
    return TensorType(t.element_type, t.get_shape(), layout)


def choose(src: TensorType, dst: TensorType, target_bytes: int, lds_limit: int, num_warps: int, warp_size: int,
           scratch: ScratchBytes, gen: str = V35) -> Replacement | None:
    """tryFitCvtIntoLDS's choice: the candidate whose larger convert fits under `target_bytes`, swizzled where
    that fits (or is smaller than padded), and among equals the first with the least LDS; in the 3.3 and 3.4
    passes, the first with the least padded scratch.  None when none fits."""
    if gen in (V33, V34):
        priced = [(max(scratch(src, _through(src, t), True), scratch(_through(src, t), dst, True)), i, t)
                  for i, t in enumerate(candidate_layouts(src, dst, num_warps, warp_size, gen))]
        least = min(priced, key=lambda c: (c[0], c[1]), default=None)
        if least is None or least[0] >= 2 * lds_limit or least[0] > target_bytes:
            return None
        return Replacement(least[2], False, least[0])
    best: Replacement | None = None
    least_bytes = 2 * lds_limit
    best_padded = True
    for layout in candidate_layouts(src, dst, num_warps, warp_size, gen):
        mid = _through(src, layout)
        padded = max(scratch(src, mid, True), scratch(mid, dst, True))
        swizzled = max(scratch(src, mid, False), scratch(mid, dst, False))
        use_swizzled = swizzled < target_bytes or swizzled < padded
        need = swizzled if use_swizzled else padded
        if need >= target_bytes:
            continue
        # a swizzled candidate beats any padded one; within a kind, only less LDS wins
        if (best_padded != use_swizzled and need < least_bytes) or (best_padded and use_swizzled):
            best, least_bytes, best_padded = Replacement(layout, not use_swizzled, need), need, not use_swizzled
    if best is None or least_bytes > target_bytes:
        return None
    return best


def target_bytes(scratch_bytes: int, scratch_offset: int, live: Sequence[tuple[int, int]], lds_limit: int) -> int:
    """computeTargetScratchBufferSize: the scratch a convert may keep if every buffer above it could move down,
    from the (offset, bytes) of the buffers live at it (its own included)."""
    top = max((offset + size for offset, size in live), default=scratch_offset + scratch_bytes)
    return max(0, scratch_bytes - (top - lds_limit))


def fit_convert(op: ConvertLayoutOp, target: int, lds_limit: int, num_warps: int, warp_size: int,
                scratch: ScratchBytes, padded_attr: str, gen: str = V35) -> tuple[str, tuple[Operation, ...]] | None:
    """Rewrite one convert as the pass does: a line saying what was done and the converts that replace it (none
    where it was only marked), or None where nothing fits."""
    src, dst = op.src.type, op.result.type
    assert isinstance(src, TensorType) and isinstance(dst, TensorType)
    choice = choose(src, dst, target, lds_limit, num_warps, warp_size, scratch, gen)
    if choice is None:
        return None
    had_padded = uses_padded_scratch(op)
    if choice.padded and not had_padded:
        op.attributes[padded_attr] = UnitAttr()
        if scratch(src, dst, True) <= target:
            return f"takes the padded scratch ({scratch(src, dst, True):,} B)", ()
    elif not choice.padded and had_padded:
        for name in PADDED_SCRATCH_ATTRS:
            op.attributes.pop(name, None)
    first = ConvertLayoutOp(op.src, _through(src, choice.layout))
    second = ConvertLayoutOp(first.result, dst)
    for new in (first, second):
        new.attributes.update(op.attributes)
        new.location = op.location
        Rewriter.insert_op(new, InsertPoint.before(op))
    second.result.name_hint = op.result.name_hint  # the value keeps its name; the one in between is new
    op.result.replace_all_uses_with(second.result)
    Rewriter.erase_op(op)
    kind = "" if gen in (V33, V34) else ", padded scratch" if choice.padded else ", swizzled scratch"
    return f"goes through {layout_text(choice.layout)} ({choice.bytes:,} B{kind})", (first, second)


def layout_text(layout: Attribute) -> str:
    """A layout as Triton spells it inline, for notes (`#ttg.blocked<{sizePerThread = [1, 1], ...}>`)."""
    if not isinstance(layout, enc.StructLayoutAttr):
        return str(layout)

    def value(v: object) -> str:
        if isinstance(v, Attribute):
            return layout_text(v)
        if isinstance(v, tuple):
            return "[" + ", ".join(value(x) for x in v) + "]"
        return str(v).lower() if isinstance(v, bool) else str(v)

    fields = ", ".join(f"{k} = {value(v)}" for k, v in layout.values().items())
    return f"#{layout.name}<{{{fields}}}>"
