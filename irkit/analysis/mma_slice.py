"""Which values must change layout so that a conversion to or from an mma layout disappears.

`plan_mma_propagation(cvt, ...)` is pure: it reads the IR around one `ttg.convert_layout` between an
accumulator layout (nvidia_mma, amd_mfma, amd_wmma, dpas) and a blocked/linear layout and returns a
`MmaSlicePlan` saying, for every value whose layout would change, its new layout, and how each op is
rewritten; `passes/propagate_mma.py` applies the plan.  Nothing here mutates IR.

The slice grows from the conversion's non-mma side in both directions:

* **backward**, to the producer of a value: elementwise ops, `tt.broadcast` and `tt.addptr` take the same
  layout on every tensor operand; `tt.expand_dims(axis)` takes `#slice<{dim = axis, parent = L}>`
  for a result in `L`; `tt.splat`, `tt.make_range`, `arith.constant` and `tt.make_tensor_ptr` are
  rebuilt directly; loads pass the layout to their pointer, mask and `other` (a block pointer's pointee
  layout goes through `tt.advance` to `tt.make_tensor_ptr`); `scf.for`/`scf.if` results tie their
  iter-arg, init and yielded values;
* **forward**, to the users of a value that cannot simply be rebuilt beside the old one (a load, a
  loop-carried value, anything computed from them): elementwise users, `tt.store` (the slice's sinks),
  `scf.yield`, and conversions (which vanish when they convert back to the mma layout).

A value whose users are not all in the slice is decided by counting: if it is cheap to rebuild (its
producers are pure index/pointer arithmetic, no load, no loop), it is *rematerialised*: a copy in the
new layout is built and the old one stays for the other users.  Otherwise it is retyped in place and its
other users need one conversion back to the old layout.  A plan is accepted only if it removes more
conversions than it adds (and fewer bytes move through the added ones); otherwise the conversion is
left alone and `MmaSlicePlan.reason` says why.

This is Triton's `RemoveLayoutConversions` backward rematerialisation (docs/triton-passes.md §3.1)
without its anchor rule: an expensive load is not a wall here, it is rewritten in the accumulator layout.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from math import prod
from typing import overload

from xdsl.dialects import scf
from xdsl.dialects.builtin import IntegerAttr, NoneAttr, TensorType
from xdsl.ir import Attribute, BlockArgument, Operation, OpResult, SSAValue

from irkit.analysis.walk import terminator
from irkit.dialects.arith import (
    CAST_OPS,
    FLOAT_BINARY_OPS,
    INT_BINARY_OPS,
    MATH_OPS,
    CmpFOp,
    CmpIOp,
    ConstantOp,
    NegFOp,
    SelectOp,
)
from irkit.dialects.encodings import SliceEncodingAttr
from irkit.dialects.gpu_vendors import PrefetchOp
from irkit.dialects.tt import (
    AddPtrOp,
    AdvanceOp,
    BitcastOp,
    BroadcastOp,
    ClampFOp,
    ExpandDimsOp,
    ExternElementwiseOp,
    FpToFpOp,
    IntToPtrOp,
    LoadOp,
    MakeRangeOp,
    MakeTensorPtrOp,
    MulhiUIOp,
    PreciseDivFOp,
    PreciseSqrtOp,
    PtrToIntOp,
    SplatOp,
    StoreOp,
)
from irkit.dialects.ttg import ConvertLayoutOp, LocalAllocOp, LocalLoadOp
from irkit.dialects.ttng import TMEMLoadOp, TMEMStoreOp
from irkit.dialects.types import PointerType, is_block_pointer
from irkit.layout import algebra
from irkit.layout.kinds import layout_name
from irkit.names import exact_name

# Ops whose tensor operands and results all share one layout (Triton's Elementwise /
# SameOperandsAndResultEncoding ops), and that are pure: a copy beside the original is harmless.
PURE_SAME_LAYOUT = (
    *INT_BINARY_OPS.values(), *FLOAT_BINARY_OPS.values(), *CAST_OPS.values(), NegFOp, CmpIOp, CmpFOp, SelectOp,
    *MATH_OPS,
    AddPtrOp, BroadcastOp, FpToFpOp, BitcastOp, IntToPtrOp, PtrToIntOp, PreciseSqrtOp, PreciseDivFOp, MulhiUIOp,
    ClampFOp, AdvanceOp,
)
# Elementwise, but calls out of the kernel: retyped in place, never duplicated.
OPAQUE_SAME_LAYOUT = (ExternElementwiseOp,)
# Producers of a fresh tensor from scalars: rebuilt in any layout.
LEAVES = (SplatOp, MakeRangeOp, ConstantOp, MakeTensorPtrOp)
# Ops that take the slice's layout on every tensor operand and result when they join it.
_SAME_LAYOUT = (*PURE_SAME_LAYOUT, *OPAQUE_SAME_LAYOUT, LoadOp)
# Ops whose copy in another layout is cheap when their operands' copies are.
_REBUILDABLE = (*PURE_SAME_LAYOUT, *LEAVES, ExpandDimsOp)

# "tmem": Blackwell's tensor-memory accumulator, read into registers by ttng.tmem_load in a blocked or linear
# layout (`accumulator_layouts`); that layout plays the part of the mma layout in the epilogue.
MMA_KINDS = ("mma_v2", "mma_v3", "tmem", "amd_mfma", "amd_wmma", "dpas")
_KIND_ALIASES = {
    "all": MMA_KINDS,
    "nvidia_mma": ("mma_v2", "mma_v3", "tmem"),
    "mma": ("mma_v2", "mma_v3"),
    "mfma": ("amd_mfma",),
    "wmma": ("amd_wmma",),
}


# ---------------------------------------------------------------------------------------------
# Layout facts on types
# ---------------------------------------------------------------------------------------------


def layout_of(t: Attribute) -> Attribute | None:
    """The layout of a tensor, or of the tensor a block pointer points to; None for scalars."""
    if isinstance(t, TensorType):
        enc = t.encoding
        return None if enc is None or isinstance(enc, NoneAttr) else enc
    if isinstance(t, PointerType) and isinstance(t.pointee, TensorType):
        return layout_of(t.pointee)
    return None


@overload
def with_layout(t: TensorType, layout: Attribute) -> TensorType: ...


@overload
def with_layout(t: Attribute, layout: Attribute) -> Attribute: ...


def with_layout(t: Attribute, layout: Attribute) -> Attribute:
    """The same type (shape, element type, address space) in another layout."""
    if isinstance(t, TensorType):
        return TensorType(t.element_type, t.get_shape(), layout)
    if isinstance(t, PointerType) and isinstance(t.pointee, TensorType):
        return PointerType(with_layout(t.pointee, layout), t.address_space.data)
    raise ValueError(f"{t} has no layout")


def tensor_bytes(t: Attribute) -> int:
    """Bytes of a tensor as a conversion moves them (pointers 8, i1 1)."""
    if isinstance(t, PointerType) and isinstance(t.pointee, TensorType):
        t = t.pointee
    if not isinstance(t, TensorType):
        return 0
    return prod(t.get_shape()) * algebra.elem_bytes(t)


def _defining_op(value: SSAValue) -> Operation:
    """The op a value the slice walks through comes from (a result, never a block argument)."""
    assert isinstance(value, OpResult)
    return value.op


def _accumulator_kind(layout: Attribute | None) -> str:
    """mma_kind of a layout already known to be an mma one."""
    kind = mma_kind(layout) if layout is not None else None
    assert kind is not None
    return kind


def mma_kind(layout: Attribute) -> str | None:
    """'mma_v2' | 'mma_v3' | 'amd_mfma' | 'amd_wmma' | 'dpas', or None for other layouts."""
    if algebra.is_nvidia_mma(layout):
        return f"mma_v{algebra.mma_version(layout)}"
    if algebra.is_mfma(layout):
        return "amd_mfma"
    if algebra.is_wmma(layout):
        return "amd_wmma"
    if algebra.is_dpas(layout):
        return "dpas"
    return None


def parse_kinds(names: tuple[str, ...] | str) -> frozenset[str]:
    """`targets` option values -> mma kinds; raises ValueError on an unknown name."""
    if isinstance(names, str):
        names = tuple(n for n in names.replace("|", ",").split(",") if n)
    kinds: set[str] = set()
    for n in names:
        key = n.strip().lower()
        if key in _KIND_ALIASES:
            kinds.update(_KIND_ALIASES[key])
        elif key in MMA_KINDS:
            kinds.add(key)
        else:
            known = ", ".join(sorted({*_KIND_ALIASES, *MMA_KINDS}))
            raise ValueError(f"unknown mma kind '{n}' (known: {known})")
    return frozenset(kinds)


def slice_of(parent: Attribute, dim: int) -> Attribute:
    return SliceEncodingAttr.of(dim=dim, parent=parent)


# ---------------------------------------------------------------------------------------------
# Which conversions are candidates
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Candidate:
    """A conversion between an accumulator layout and a blocked/linear one, or (dot operands) from a
    blocked/linear layout to a `#dot_op` of an mma layout."""

    target: Attribute  # the layout the slice moves to
    kind: str
    mma_is_source: bool  # True: mma -> blocked (the slice is the conversion's users)
    dot_operand: bool = False


def seed_source(seed: Operation) -> SSAValue:
    """The value a seed converts: a conversion's operand, or what a local_alloc feeding a local_load
    stored (the shared-memory round trip of a dot operand)."""
    if isinstance(seed, LocalLoadOp):
        return _defining_op(seed.operands[0]).operands[0]
    return seed.operands[0]


def is_dot_operand_round_trip(op: Operation) -> bool:
    """`ttg.local_load(ttg.local_alloc(x))` into a #dot_op, the alloc used by that load only: a
    conversion through shared memory in all but name (what Triton's pipeliner leaves for dot operands)."""
    if not isinstance(op, LocalLoadOp) or len(op.operands) != 1:
        return False
    alloc = op.operands[0].owner
    return (
        isinstance(alloc, Operation)
        and isinstance(alloc, LocalAllocOp)
        and len(alloc.operands) == 1
        and alloc.results[0].has_one_use()
        and algebra.is_dot_operand(layout_of(op.results[0].type))
    )


def accumulator_layouts(func: Operation) -> frozenset[Attribute]:
    """The register layouts a Blackwell accumulator is read in (`ttng.tmem_load` results) or written from
    (`ttng.tmem_store` sources: the zero init, or a D load feeding the accumulator) in `func`.  The
    tensor-memory layout itself never reaches an epilogue: these blocked/linear layouts are the epilogue's
    accumulator layout there, as `#nvidia_mma` is on Hopper."""
    found: set[Attribute] = set()
    for op in func.walk():
        if isinstance(op, TMEMLoadOp):
            layout = layout_of(op.results[0].type)
        elif isinstance(op, TMEMStoreOp):
            layout = layout_of(op.operands[-2].type)
        else:
            continue
        if layout is not None:
            found.add(layout)
    return frozenset(found)


def classify_conversion(
    cvt: Operation, dot_operands: bool | None = False, accumulators: frozenset[Attribute] = frozenset()
) -> tuple[Candidate | None, str | None]:
    """(candidate, None), or (None, why not): every conversion that is not a candidate gets a reason,
    except a shared-memory round trip that is not a dot operand's (not a conversion the user wrote).

    `dot_operands`: False: conversions to `#dot_op` are left to RLC; True: they are candidates; None:
    candidates when the dot operand's parent is `#dpas` (Intel's RLC moves them into block loads).
    `accumulators`: the function's tensor-memory accumulator layouts (`accumulator_layouts`), which count
    as accumulator layouts here.  A 1-D operand converted to (or from) a `#slice` of an accumulator layout
    (a bias row or column, a row reduction) is a candidate too: its loads move to the slice layout."""
    if isinstance(cvt, LocalLoadOp) and not is_dot_operand_round_trip(cvt):
        return None, None
    src_l = layout_of(seed_source(cvt).type)
    dst_l = layout_of(cvt.results[0].type)
    if src_l is None or dst_l is None:
        return None, "not a conversion of a distributed tensor"
    if src_l == dst_l:
        return None, "it converts to the layout it already has (left to the canonicalizer)"

    def is_acc(layout: Attribute) -> bool:
        return algebra.is_mma(layout) or layout in accumulators

    def plain(layout: Attribute) -> bool:
        if algebra.is_slice(layout):
            return plain(algebra.slice_parent(layout))
        return (algebra.is_blocked(layout) or algebra.is_linear(layout)) and layout not in accumulators

    def kind_of(layout: Attribute) -> str:
        return "tmem" if layout in accumulators and not algebra.is_mma(layout) else _accumulator_kind(layout)

    if algebra.is_dot_operand(dst_l) and algebra.is_mma(dst_l.parent):
        parent = dst_l.parent
        wanted = dot_operands if dot_operands is not None else algebra.is_dpas(parent)
        if not wanted:
            if isinstance(cvt, LocalLoadOp):
                return None, None
            return None, "it converts to a dot operand (#dot_op), not to an accumulator layout (dot-operands=false)"
        if plain(src_l):
            return Candidate(dst_l, _accumulator_kind(parent), False, dot_operand=True), None
        return None, f"it converts to a dot operand from {layout_name(src_l)}, not from a blocked or linear layout"
    if isinstance(cvt, LocalLoadOp):
        return None, None
    if algebra.is_slice(src_l) and algebra.is_slice(dst_l) and algebra.slice_dim(src_l) == algebra.slice_dim(dst_l):
        src_p, dst_p = algebra.slice_parent(src_l), algebra.slice_parent(dst_l)
        if is_acc(dst_p) and plain(src_p):
            return Candidate(dst_l, kind_of(dst_p), False), None
        if is_acc(src_p) and plain(dst_p):
            return Candidate(src_l, kind_of(src_p), True), None
    rank_one = isinstance(cvt.results[0].type, TensorType) and len(cvt.results[0].type.get_shape()) == 1
    if rank_one and algebra.is_slice(dst_l) and is_acc(algebra.slice_parent(dst_l)) and plain(src_l):
        return Candidate(dst_l, kind_of(algebra.slice_parent(dst_l)), False), None
    if rank_one and algebra.is_slice(src_l) and is_acc(algebra.slice_parent(src_l)) and plain(dst_l):
        return Candidate(src_l, kind_of(algebra.slice_parent(src_l)), True), None
    if is_acc(dst_l) and plain(src_l):
        return Candidate(dst_l, kind_of(dst_l), False), None
    if is_acc(src_l) and plain(dst_l):
        return Candidate(src_l, kind_of(src_l), True), None
    return None, _why_not_a_candidate(src_l, dst_l, is_acc)


def _why_not_a_candidate(src_l: Attribute, dst_l: Attribute, is_acc: Callable[[Attribute], bool]) -> str:
    """Why a conversion between two layouts is not propagate-mma's to remove."""
    if is_acc(src_l) and is_acc(dst_l):
        return f"both sides are accumulator layouts ({layout_name(src_l)} -> {layout_name(dst_l)})"
    if algebra.is_dot_operand(src_l) or algebra.is_dot_operand(dst_l):
        return "a dot operand (#dot_op) whose parent is not an accumulator layout"
    if not is_acc(src_l) and not is_acc(dst_l):
        touches = [x for x in (src_l, dst_l) if algebra.is_slice(x) and is_acc(algebra.slice_parent(x))]
        if not touches:
            return (f"neither side is an accumulator layout ({layout_name(src_l)} -> {layout_name(dst_l)}): "
                    "a conversion between blocked/linear layouts is remove-layout-conversions' business")
    return f"{layout_name(src_l)} -> {layout_name(dst_l)} has no propagation rule here"


# ---------------------------------------------------------------------------------------------
# The plan
# ---------------------------------------------------------------------------------------------

NODE, SINK, YIELD, REGION, CONVERSION = "node", "sink", "yield", "region", "convert"
ROUND_TRIP = "round-trip"  # a dot operand's local_alloc + local_load: removed with the seed


@dataclass
class MmaSlicePlan:
    """What `propagate-mma` would change for one seed conversion (see the module docstring)."""

    seed: Operation
    target: Attribute
    candidate: Candidate | None = None  # what the seed was classified as (to plan a variant)
    loads_only: bool = False
    layouts: dict[SSAValue, Attribute] = field(default_factory=dict)  # value -> its new layout
    roles: dict[Operation, str] = field(default_factory=dict)  # op -> NODE | SINK | YIELD | REGION | CONVERSION
    region_indices: dict[Operation, set[int]] = field(default_factory=dict)  # scf.for/if -> retyped results
    remat: set[SSAValue] = field(default_factory=set)  # values rebuilt beside the old one
    conversions_in: dict[SSAValue, str] = field(default_factory=dict)  # producer not rebuildable: convert in
    conversions_out: dict[SSAValue, list[tuple[Operation, str]]] = field(default_factory=dict)  # users needing old
    removed: list[Operation] = field(default_factory=list)  # conversions that disappear
    retargeted: list[Operation] = field(default_factory=list)  # conversions that stay, to another layout
    added: list[tuple[SSAValue, str]] = field(default_factory=list)  # conversions the rewrite inserts
    failure: str | None = None

    @property
    def seed_source(self) -> SSAValue:
        return seed_source(self.seed)

    @property
    def removed_bytes(self) -> int:
        return sum(tensor_bytes(c.results[0].type) for c in self.removed)

    @property
    def added_bytes(self) -> int:
        return sum(tensor_bytes(v.type) for v, _ in self.added)

    @property
    def accepted(self) -> bool:
        if self.failure is not None or not self.removed:
            return False
        if not self.added:
            return True
        return len(self.added) < len(self.removed) and self.added_bytes < self.removed_bytes

    @property
    def reason(self) -> str:
        """Why the plan is refused (empty when accepted)."""
        if self.failure is not None:
            return self.failure
        if not self.removed:
            blockers = [f"{describe(v)}: {users[0][1]}" for v, users in self.conversions_out.items()]
            blockers += list(self.conversions_in.values())
            return "no conversion would disappear" + (f" ({blockers[0]})" if blockers else "")
        if self.accepted:
            return ""
        why = "; ".join(w for _, w in self.added[:3]) + ("; ..." if len(self.added) > 3 else "")
        return (
            f"removing it needs {len(self.added)} conversion(s) elsewhere ({self.added_bytes} B) "
            f"for {len(self.removed)} removed ({self.removed_bytes} B): {why}"
        )

    def in_place_count(self) -> int:
        return sum(1 for v in self.layouts if v not in self.remat and v not in self.conversions_in)

    def summary(self) -> str:
        return (
            f"{len(self.removed)} conversion(s) removed, "
            f"{len(self.added)} added, {len(self.retargeted)} retargeted; "
            f"{self.in_place_count()} value(s) retyped in place, {len(self.remat)} rebuilt"
        )


def plan_mma_propagation(cvt: Operation, candidate: Candidate, loads_only: bool = False) -> MmaSlicePlan:
    """The plan that makes `cvt` (a candidate conversion) disappear; see MmaSlicePlan.accepted."""
    planner = _Planner(MmaSlicePlan(cvt, candidate.target, candidate, loads_only), loads_only)
    planner.run(candidate)
    return planner.plan


def describe(v: SSAValue) -> str:
    name = exact_name(v)
    if name:
        return f"%{name}"
    if isinstance(v, BlockArgument):
        return f"argument #{v.index}"
    return f"the result of {_defining_op(v).name}"


class _Planner:
    def __init__(self, plan: MmaSlicePlan, loads_only: bool):
        self.plan = plan
        self.loads_only = loads_only
        self.queue: deque[SSAValue] = deque()
        self.forward_roots: set[SSAValue] = set()
        self.forwarded: set[SSAValue] = set()
        self._remat_memo: dict[SSAValue, bool] = {}
        self._scalar_memo: dict[SSAValue, bool] = {}

    # -- growth ---------------------------------------------------------------------------------

    def run(self, candidate: Candidate) -> None:
        p = self.plan
        cvt = p.seed
        p.roles[cvt] = CONVERSION
        if isinstance(cvt, LocalLoadOp):
            p.roles[cvt] = ROUND_TRIP
            p.roles[_defining_op(cvt.operands[0])] = ROUND_TRIP
            self.want(seed_source(cvt), candidate.target)
            p.removed.append(cvt)
        elif candidate.mma_is_source:
            # mma -> blocked: the conversion's result moves to mma, so every user must follow
            self.forward_roots.add(cvt.results[0])
            self.want(cvt.results[0], candidate.target)
        else:
            self.want(cvt.operands[0], candidate.target)
        while p.failure is None:
            while self.queue and p.failure is None:
                self.visit_producer(self.queue.popleft())
            if p.failure is not None:
                break
            self._remat_memo.clear()
            pending = [v for v in p.layouts if v not in self.forwarded and not self.is_remat(v)]
            if not pending:
                break
            for v in pending:
                self.forwarded.add(v)
                self.visit_users(v)
        if p.failure is None:
            self._remat_memo.clear()
            p.remat = {v for v in p.layouts if self.is_remat(v)}
            self.count()

    def fail(self, why: str) -> None:
        if self.plan.failure is None:
            self.plan.failure = why

    def want(self, v: SSAValue, layout: Attribute) -> None:
        """`v` must end up in `layout`."""
        cur = layout_of(v.type)
        if cur is None:
            return  # scalars are layout-free
        known = self.plan.layouts.get(v)
        if known is not None:
            if known != layout:
                self.fail(f"{describe(v)} would need both {layout_name(known)} and {layout_name(layout)}")
            return
        if cur == layout:
            return
        self.plan.layouts[v] = layout
        self.queue.append(v)

    def visit_producer(self, v: SSAValue) -> None:
        p = self.plan
        layout = p.layouts[v]
        if isinstance(v, BlockArgument):
            parent = v.block.parent_op()
            if isinstance(parent, scf.ForOp) and v.index > 0:
                self.tie_for(parent, v.index - 1, layout)
            else:
                self.convert_in(v, f"{describe(v)} is an argument of {parent.name if parent else 'a block'}")
            return
        assert isinstance(v, OpResult)
        op = v.owner
        if isinstance(op, scf.ForOp):
            self.tie_for(op, v.index, layout)
            return
        if isinstance(op, scf.IfOp):
            self.tie_if(op, v.index, layout)
            return
        if op in p.roles:
            return  # its operands were asked for when it joined
        if isinstance(op, ConvertLayoutOp):
            p.roles[op] = CONVERSION
            if self._from_scalars(op.operands[0]):
                # index arithmetic converted on its way here: rebuild it in the new layout instead (as RLC
                # rematerialises through conversions); the old conversion then serves only its other users
                self.want(op.operands[0], layout)
        elif isinstance(op, LEAVES):
            p.roles[op] = NODE
        elif isinstance(op, ExpandDimsOp):
            p.roles[op] = NODE
            self.want(op.operands[0], slice_of(layout, _axis(op)))
        elif isinstance(op, _SAME_LAYOUT):
            p.roles[op] = NODE
            self.want_all(op, layout)
        else:
            self.convert_in(v, f"{describe(v)} comes from {op.name}, which has no layout rule here")

    def visit_users(self, v: SSAValue) -> None:
        """`v` is retyped in place: each user follows it or keeps the old layout through a conversion."""
        p = self.plan
        layout = p.layouts[v]
        for use in list(v.uses):
            user = use.operation
            if isinstance(user, scf.ForOp):
                if use.index >= 3:
                    self.tie_for(user, use.index - 3, layout)
                else:
                    self.convert_out(v, user, "a loop bound")
                continue
            if isinstance(user, scf.YieldOp):
                parent = user.parent_op()
                if isinstance(parent, scf.ForOp):
                    self.tie_for(parent, use.index, layout)
                elif isinstance(parent, scf.IfOp):
                    self.tie_if(parent, use.index, layout)
                else:
                    self.convert_out(v, user, f"the yield of {parent.name if parent else '?'}")
                continue
            if user in p.roles:
                continue
            if isinstance(user, ConvertLayoutOp):
                p.roles[user] = CONVERSION
            elif isinstance(user, StoreOp):
                if self.loads_only:
                    self.convert_out(v, user, "tt.store keeps its layout (loads-only)")
                else:
                    p.roles[user] = SINK
                    self.want_all(user, layout)
            elif isinstance(user, PrefetchOp):
                p.roles[user] = SINK
                self.want_all(user, layout)
            elif isinstance(user, _SAME_LAYOUT):
                p.roles[user] = NODE
                self.want_all(user, layout)
            elif isinstance(user, ExpandDimsOp) and algebra.is_slice(layout) and algebra.slice_dim(layout) == _axis(user):
                p.roles[user] = NODE
                self.want(user.results[0], algebra.slice_parent(layout))
            else:
                self.convert_out(v, user, f"{user.name} needs {layout_name(layout_of(v.type))}")

    def want_all(self, op: Operation, layout: Attribute) -> None:
        for x in (*op.operands, *op.results):
            self.want(x, layout)

    def tie_for(self, loop: scf.ForOp, i: int, layout: Attribute) -> None:
        """Result i, iter-arg i, init i and yielded value i of a loop share one type."""
        p = self.plan
        done = p.region_indices.setdefault(loop, set())
        p.roles[loop] = REGION
        body = loop.body.block
        yield_op = terminator(body)
        if i not in done:
            done.add(i)
            p.roles[yield_op] = YIELD
        for x in (loop.results[i], body.args[i + 1], loop.iter_args[i], yield_op.operands[i]):
            self.want(x, layout)

    def tie_if(self, op: scf.IfOp, i: int, layout: Attribute) -> None:
        p = self.plan
        p.region_indices.setdefault(op, set()).add(i)
        p.roles[op] = REGION
        values: list[SSAValue] = [op.results[i]]
        for region in op.regions:
            if region.blocks:
                y = terminator(region.block)
                p.roles[y] = YIELD
                values.append(y.operands[i])
        for x in values:
            self.want(x, layout)

    def convert_in(self, v: SSAValue, why: str) -> None:
        if is_block_pointer(v.type):
            self.fail(f"{why}; a block pointer cannot be converted")
            return
        self.plan.conversions_in[v] = why

    def convert_out(self, v: SSAValue, user: Operation, why: str) -> None:
        if is_block_pointer(v.type):
            self.fail(f"{describe(v)} is also used by {user.name} ({why}); a block pointer cannot be converted")
            return
        self.plan.conversions_out.setdefault(v, []).append((user, why))

    def _from_scalars(self, v: SSAValue, depth: int = 0) -> bool:
        """Is `v` computed from scalars only (splat/make_range/constant, pure elementwise ops, expand_dims,
        conversions), with no load and no loop-carried value: cheap to rebuild in any layout?"""
        memo = self._scalar_memo
        if v in memo:
            return memo[v]
        if depth > 64 or not isinstance(v, OpResult):
            return False
        op = v.op
        if isinstance(op, (SplatOp, MakeRangeOp, ConstantOp)):
            result = True
        elif isinstance(op, (*PURE_SAME_LAYOUT, ExpandDimsOp, ConvertLayoutOp)):
            result = all(self._from_scalars(o, depth + 1) for o in op.operands if layout_of(o.type) is not None)
        else:
            result = False
        memo[v] = result
        return result

    # -- classification ------------------------------------------------------------------------------

    def is_remat(self, v: SSAValue) -> bool:
        """Can `v` be rebuilt in its new layout while the old value stays for other users?"""
        memo = self._remat_memo
        if v in memo:
            return memo[v]
        memo[v] = False  # cycles (loop-carried values) are not rematerialisable
        result = self._is_remat(v)
        memo[v] = result
        return result

    def _is_remat(self, v: SSAValue) -> bool:
        p = self.plan
        if v in p.conversions_in:
            return True
        if v in self.forward_roots or isinstance(v, BlockArgument):
            return False
        op = v.owner
        if isinstance(op, ConvertLayoutOp):
            return True
        if not isinstance(op, _REBUILDABLE):
            return False
        return all(self.is_remat(o) for o in op.operands if o in p.layouts)

    def count(self) -> None:
        """Which conversions disappear, which stay retargeted, which the rewrite adds."""
        p = self.plan

        def all_users_follow(v: SSAValue) -> bool:
            return all(u.operation in p.roles for u in v.uses)

        for op, role in p.roles.items():
            if role != CONVERSION:
                continue
            src, res = op.operands[0], op.results[0]
            new_src = p.layouts.get(src, layout_of(src.type))
            new_res = p.layouts.get(res, layout_of(res.type))
            if res not in p.layouts:
                old_dies = True
            elif res in self.forward_roots:
                old_dies = res not in p.conversions_out
            else:
                old_dies = all_users_follow(res)
            if new_src == new_res:
                if old_dies:
                    p.removed.append(op)
            elif old_dies:
                p.retargeted.append(op)
            else:
                p.added.append((res, f"{describe(res)} is also needed in {layout_name(new_res)}"))
        for v, why in p.conversions_in.items():
            p.added.append((v, why))
        for v, users in p.conversions_out.items():
            if v in self.forward_roots:
                continue  # the seed conversion itself stays for those users: nothing added, nothing removed
            p.added.append((v, f"{describe(v)}: {users[0][1]}"))


def _axis(op: Operation) -> int:
    a = op.properties.get("axis")
    if a is None:
        a = op.attributes["axis"]
    assert isinstance(a, IntegerAttr)
    return a.value.data
