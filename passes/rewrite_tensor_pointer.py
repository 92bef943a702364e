"""Rewrite block pointers (tt.make_tensor_ptr/tt.advance) into tensors of pointers with masks.

Mirrors Triton's `triton-rewrite-tensor-pointer` (Triton 3.1, `mode=upstream`) and the three historical
rules of Intel's `tritonintelgpu-rewrite-tensor-pointer` (`mode=intel-pre-2400|intel-2400|intel-2420`),
docs/triton-passes.md §1-2.  docs/passes/rewrite-tensor-pointer.md says how irkit differs.

How it is built (the pattern style every irkit pass can copy):

1. an analysis decides what to rewrite (`marked_values`: which block-pointer values, by mode);
2. one `RewritePattern` per op kind does the rewrite, all sharing a `RewriteState` that maps each
   rewritten pointer to its offsets; a `PatternRewriteWalker` drives them once over the module, in
   program order (a producer is rewritten before its users; `scf.for`/`scf.if` move their regions into the
   new op, so the walk goes on inside them);
3. ops whose block-pointer results other ops may still use are erased after the walk, last first, as
   Triton does.

Every rewritten pointer becomes its i64 offsets (one per dimension).  `tt.make_tensor_ptr` becomes
`arith.extsi` of its offsets; `tt.advance` adds its (sign-extended) deltas; `scf.for`/`scf.if`/`scf.yield`
carry the offsets instead of the pointer; `tt.load`/`tt.store` get a tensor of pointers
(`base + sum_i (offset_i + range_i) * stride_i`), a mask from `boundaryCheck` and an `other` from
`padding`.  New tensors take the layout of the loaded/stored value (none on TTIR), the one-dimensional
ranges nested `#slice`s of it.  Values the pass keeps keep their names (irkit.names).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from typing import ClassVar, Literal, cast

from xdsl.context import Context
from xdsl.dialects import cf, scf
from xdsl.dialects.builtin import (
    AnyFloat,
    DenseArrayBase,
    FloatAttr,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    NoneAttr,
    TensorType,
)
from xdsl.ir import Attribute, BlockArgument, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import Rewriter

from irkit.analysis import block_pointers
from irkit.analysis.walk import terminator
from irkit.diagnostics import PassFailure
from irkit.dialects import tt
from irkit.dialects.arith import AddIOp, AndIOp, CmpIOp, ConstantOp, ExtSIOp, MulIOp
from irkit.dialects.encodings import SliceEncodingAttr
from irkit.dialects.types import PointerType
from irkit.names import hand_over, replace_keeping_names

Mode = Literal["upstream", "intel-pre-2400", "intel-2400", "intel-2420"]

I64 = IntegerType(64)
I1 = IntegerType(1)
PAD_ZERO = 1
PAD_NAN = 2


# -- which block pointers to rewrite ----------------------------------------------------------------------


def marked_values(module: ModuleOp, mode: Mode) -> set[SSAValue] | None:
    """The block-pointer values to rewrite; None means all of them (upstream)."""
    if mode == "upstream":
        return None
    if mode == "intel-2420":
        doomed = _make_tensor_ptrs_to_remove_i2420(module)
        return _mark_values(module, lambda v, _flag: block_pointers.make_tensor_ptr_of(v) in doomed)
    load_counts = mode == "intel-2400"  # I-pre: only a store keeps a #dpas pointer

    def remove(value: SSAValue, flag: bool) -> bool:
        mkptr = block_pointers.make_tensor_ptr_of(value)
        return block_pointers.should_remove_i2400(block_pointers.pointer_facts(mkptr), block_pointers.module_supports_2d_block(mkptr), flag)

    def user_flag(op: Operation) -> bool:
        return isinstance(op, tt.StoreOp) or (load_counts and isinstance(op, tt.LoadOp))

    return _mark_values(module, remove, user_flag)


def _mark_values(module: ModuleOp, remove: Callable[[SSAValue, bool], bool],
                 user_flag: Callable[[Operation], bool] = lambda op: False) -> set[SSAValue]:
    """Intel's per-value marking walk: the results of make_tensor_ptr, the pointer operand of
    advance/load/store, scf.for inits and scf.yield operands, each judged by `remove(value, flag)`."""
    marked: set[SSAValue] = set()

    def mark(value: SSAValue, flag: bool) -> None:
        if block_pointers.is_block_pointer(value.type) and remove(value, flag):
            marked.add(value)

    for op in module.walk():
        if isinstance(op, tt.MakeTensorPtrOp):
            mark(op.result, any(user_flag(use.operation) for use in op.result.uses))
        elif isinstance(op, (tt.AdvanceOp, tt.LoadOp, tt.StoreOp)):
            mark(op.operands[0], user_flag(op))
        elif isinstance(op, scf.ForOp):
            for init in op.iter_args:
                mark(init, False)
        elif isinstance(op, scf.YieldOp):
            for value in op.operands:
                mark(value, False)
    return marked


def _make_tensor_ptrs_to_remove_i2420(module: ModuleOp) -> set[Operation]:
    """I-2420: a make_tensor_ptr is kept when some transitive user (through result 0 of each op and into
    scf.for bodies where it is an init) is a `block_io` load or a store that `should_remove_i2420` keeps."""
    doomed: set[Operation] = set()
    for mkptr in module.walk():
        if not isinstance(mkptr, tt.MakeTensorPtrOp):
            continue
        doomed.add(mkptr)
        layout = block_pointers.layout_kind(block_pointers.pointee_tensor(mkptr.result.type))
        supports = block_pointers.module_supports_2d_block(mkptr)
        work = [use.operation for use in mkptr.result.uses]
        seen: set[Operation] = set()
        while work:
            user = work.pop()
            if user in seen:
                continue
            seen.add(user)
            if isinstance(user, (tt.LoadOp, tt.StoreOp)):
                block_load = isinstance(user, tt.LoadOp) and block_pointers.has_block_io(user)
                if not block_pointers.should_remove_i2420(layout, supports, isinstance(user, tt.StoreOp), block_load):
                    doomed.discard(mkptr)
                    break
            elif isinstance(user, scf.ForOp):
                body_args = user.body.block.args[1:]
                for init, arg in zip(user.iter_args, body_args):
                    if init is mkptr.result:
                        work.extend(use.operation for use in arg.uses)
            elif user.results:
                work.extend(use.operation for use in user.results[0].uses)
    return doomed


# -- what the patterns share ---------------------------------------------------------------------------------


@dataclass
class RewrittenPointer:
    """A block pointer as the pass carries it: its make_tensor_ptr operands and current i64 offsets
    (Triton's `RewritedInfo`)."""

    base: SSAValue
    shape: tuple[SSAValue, ...]
    strides: tuple[SSAValue, ...]
    offsets: tuple[SSAValue, ...]
    tensor_shape: tuple[int, ...]
    layout: Attribute  # NoneAttr on TTIR

    @property
    def rank(self) -> int:
        return len(self.tensor_shape)

    @property
    def pointee(self) -> Attribute:
        """The element type the base pointer points to."""
        base = self.base.type
        assert isinstance(base, PointerType)
        return base.pointee


@dataclass
class RewriteState:
    """The marking analysis' answer and what the patterns learn as they go: the offsets of every
    rewritten pointer, and the replaced ops (and loop arguments) to erase once the walk is over."""

    marked: set[SSAValue] | None  # None: every block pointer
    mode: Mode
    info: dict[SSAValue, RewrittenPointer] = field(default_factory=dict)
    replaced: list[Operation] = field(default_factory=list)
    replaced_args: list[BlockArgument] = field(default_factory=list)

    def removed(self, value: SSAValue) -> bool:
        return block_pointers.is_block_pointer(value.type) and (self.marked is None or value in self.marked)

    def info_of(self, value: SSAValue, user: Operation) -> RewrittenPointer:
        info = self.info.get(value)
        if info is None:
            raise PassFailure(user, "block pointer operand was not rewritten before its use "
                              "(defined in a region the pass does not walk, or an unsupported producer)")
        return info

    def expand(self, values: Iterable[SSAValue], user: Operation) -> list[SSAValue]:
        """The operand list with each rewritten pointer replaced in place by its offsets."""
        out: list[SSAValue] = []
        for value in values:
            if self.removed(value):
                out.extend(self.info_of(value, user).offsets)
            else:
                out.append(value)
        return out

    def erase_replaced(self) -> None:
        """Erase the replaced ops, last first, after checking that nothing kept still uses them."""
        doomed: set[Operation] = set()
        for op in self.replaced:
            doomed.update(op.walk())
        for op in self.replaced:
            for inner in op.walk():
                for value in inner.results:
                    for use in value.uses:
                        if use.operation not in doomed:
                            raise PassFailure(use.operation, _stale_use_message(self.mode))
        for arg in self.replaced_args:
            for use in arg.uses:
                if use.operation not in doomed:
                    raise PassFailure(use.operation, _stale_use_message(self.mode))
        for op in reversed(self.replaced):
            Rewriter.erase_op(op)
        for arg in reversed(self.replaced_args):
            arg.block.erase_arg(arg)
        self.replaced.clear()
        self.replaced_args.clear()


def _stale_use_message(mode: Mode) -> str:
    msg = "this op still uses a block pointer that the pass rewrote into offsets"
    if mode in ("intel-pre-2400", "intel-2400"):
        msg += (f" (mode {mode} judges each value separately, so a pointer carried by scf.for can be "
                "rewritten at the loop and kept at this use; Intel fixed that in #2420)")
    return msg


# -- building the tensor of pointers, its mask and its padding ---------------------------------------------


def range_layouts(layout: Attribute, rank: int, dim: int) -> list[Attribute]:
    """layouts[k] for the k-th step of expanding the range of dimension `dim` back to rank `rank`: the last
    is `layout`, each earlier one a `#slice` of the next along the dimension the next expand_dims adds."""
    if isinstance(layout, NoneAttr):
        return [layout] * rank
    layouts: list[Attribute] = [layout] * rank
    axis = rank - 1
    for k in range(rank - 2, -1, -1):
        if axis == dim:
            axis -= 1
        layouts[k] = SliceEncodingAttr.of(dim=axis, parent=layouts[k + 1])
        axis -= 1
    return layouts


class _Emitter:
    """Builds the tensor-of-pointers form of one load or store just before it (`generatePtr`,
    `generateMask`, `generateOther`), caching each dimension's expanded offsets."""

    def __init__(self, info: RewrittenPointer, anchor: Operation, rewriter: PatternRewriter):
        self.info = info
        self.anchor = anchor
        self.rewriter = rewriter
        self._expanded: dict[int, SSAValue] = {}

    def _add(self, op: Operation) -> SSAValue:
        op.location = self.anchor.location
        self.rewriter.insert(op)  # before the matched op
        return op.results[0]

    def _tensor(self, element: Attribute) -> TensorType:
        return TensorType(element, self.info.tensor_shape, self.info.layout)

    def expanded_offsets(self, dim: int) -> SSAValue:
        """offsets[dim] + [0, N) as a rank-R tensor that is 1 in every other dimension."""
        if dim in self._expanded:
            return self._expanded[dim]
        info = self.info
        n = info.tensor_shape[dim]
        row_layout = range_layouts(info.layout, info.rank, dim)[0]
        row64 = TensorType(I64, [n], row_layout)
        start = self._add(tt.SplatOp(info.offsets[dim], row64))
        rng = self._add(tt.MakeRangeOp(0, n, row_layout))
        value = self._add(AddIOp(start, self._add(ExtSIOp(rng, row64))))
        for axis in range(info.rank):
            if axis != dim:
                value = self._add(tt.ExpandDimsOp(value, axis))
        self._expanded[dim] = value
        return value

    def pointers(self) -> SSAValue:
        info = self.info
        ptr = self._add(tt.SplatOp(info.base, self._tensor(info.base.type)))
        for dim in range(info.rank):
            offs = self.expanded_offsets(dim)
            # the stride is splat into the expanded shape (not a row) to keep its divisibility visible
            stride = self._add(tt.SplatOp(info.strides[dim], _tensor_type(offs)))
            wide = self._add(tt.BroadcastOp(self._add(MulIOp(offs, stride)), self._tensor(I64)))
            ptr = self._add(tt.AddPtrOp(ptr, wide))
        return ptr

    def mask(self, boundary_check: tuple[int, ...]) -> SSAValue | None:
        mask = None
        for dim in boundary_check:
            offs = self.expanded_offsets(dim)
            zero = self._add(ConstantOp(IntegerAttr(0, I64)))
            above = self._add(CmpIOp("sge", offs, self._add(tt.SplatOp(zero, _tensor_type(offs)))))
            below = self._add(CmpIOp("slt", offs, self._add(tt.SplatOp(self.info.shape[dim], _tensor_type(offs)))))
            wide = self._add(tt.BroadcastOp(self._add(AndIOp(above, below)), self._tensor(I1)))
            mask = wide if mask is None else self._add(AndIOp(mask, wide))
        return mask

    def other(self, padding: int | None) -> SSAValue | None:
        if padding is None:
            return None
        element = self.info.pointee
        if isinstance(element, IntegerType):
            if padding == PAD_NAN:
                raise PassFailure(self.anchor, "padding = nan needs a floating-point element type")
            value: Attribute = IntegerAttr(0, element)
        else:
            value = FloatAttr(math.nan if padding == PAD_NAN else 0.0, cast(AnyFloat, element))
        return self._add(tt.SplatOp(self._add(ConstantOp(value)), self._tensor(element)))


def _tensor_type(value: SSAValue) -> TensorType:
    assert isinstance(value.type, TensorType)
    return value.type


def _int_list(attr: Attribute | None) -> tuple[int, ...]:
    if attr is None:
        return ()
    assert isinstance(attr, DenseArrayBase)
    return tuple(attr.get_values())


def _with_value_layout(info: RewrittenPointer, value_type: Attribute) -> RewrittenPointer:
    # Intel: the new tensors take the layout of the loaded/stored value (none on TTIR)
    if isinstance(value_type, TensorType):
        return replace(info, layout=value_type.encoding)
    return info


# -- the patterns, one per op kind --------------------------------------------------------------------------


@dataclass
class RewriteMakeTensorPtr(RewritePattern):
    """`tt.make_tensor_ptr`: its offsets, sign-extended to i64, are the pointer from now on."""

    state: RewriteState

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tt.MakeTensorPtrOp, rewriter: PatternRewriter) -> None:
        if not self.state.removed(op.result):
            return
        offsets = []
        for offset in op.offsets:
            ext = ExtSIOp(offset, I64)
            ext.location = op.location
            rewriter.insert(ext)
            offsets.append(ext.result)
        tensor = block_pointers.pointee_tensor(op.result.type)
        self.state.info[op.result] = RewrittenPointer(
            op.base, tuple(op.shape), tuple(op.strides), tuple(offsets), tuple(tensor.get_shape()), tensor.encoding)
        self.state.replaced.append(op)


@dataclass
class RewriteAdvance(RewritePattern):
    """`tt.advance`: the offsets plus its sign-extended deltas."""

    state: RewriteState

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tt.AdvanceOp, rewriter: PatternRewriter) -> None:
        if not self.state.removed(op.result):
            return
        info = self.state.info_of(op.ptr, op)
        if len(op.offsets) != info.rank:
            raise PassFailure(op, f"tt.advance has {len(op.offsets)} offsets for a rank-{info.rank} block pointer")
        offsets = []
        for old, delta in zip(info.offsets, op.offsets):
            ext = ExtSIOp(delta, I64)
            add = AddIOp(old, ext.result)
            for new in (ext, add):
                new.location = op.location
                rewriter.insert(new)
            offsets.append(add.result)
        self.state.info[op.result] = replace(info, offsets=tuple(offsets))
        self.state.replaced.append(op)


@dataclass
class RewriteLoad(RewritePattern):
    """`tt.load` of a block pointer: a load of a tensor of pointers, masked by `boundaryCheck`, with an
    `other` from `padding`."""

    state: RewriteState

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tt.LoadOp, rewriter: PatternRewriter) -> None:
        if not self.state.removed(op.ptr):
            return
        if op.mask is not None or op.other is not None:
            raise PassFailure(op, "tt.load of a block pointer must not have a mask or other")
        info = _with_value_layout(self.state.info_of(op.ptr, op), op.result.type)
        emit = _Emitter(info, op, rewriter)
        ptrs = emit.pointers()
        mask = emit.mask(_int_list(op.properties.get("boundaryCheck")))
        padding = op.properties.get("padding")
        # without a mask `other` is never read; Triton builds an invalid tt.load there (its verifier
        # rejects the result, Triton 3.1 and 3.3 alike), and `tt.load %p, %other` would read back as a mask
        other = emit.other(padding.value.data if isinstance(padding, IntegerAttr) and mask is not None else None)
        props = {k: v for k, v in op.properties.items() if k in ("cache", "evict", "isVolatile")}
        result_type = TensorType(info.pointee, info.tensor_shape, info.layout)
        new = tt.LoadOp(ptrs, mask, other, result_type=result_type, properties=props)
        new.location = op.location
        replace_keeping_names(rewriter, op, new)


@dataclass
class RewriteStore(RewritePattern):
    """`tt.store` to a block pointer: a store to a tensor of pointers, masked by `boundaryCheck`."""

    state: RewriteState

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tt.StoreOp, rewriter: PatternRewriter) -> None:
        if not self.state.removed(op.ptr):
            return
        if op.mask is not None:
            raise PassFailure(op, "tt.store to a block pointer must not have a mask")
        info = _with_value_layout(self.state.info_of(op.ptr, op), op.value.type)
        emit = _Emitter(info, op, rewriter)
        ptrs = emit.pointers()
        mask = emit.mask(_int_list(op.properties.get("boundaryCheck")))
        props = {k: v for k, v in op.properties.items() if k in ("cache", "evict")}
        new = tt.StoreOp(ptrs, op.value, mask, properties=props)
        new.location = op.location
        rewriter.replace(op, new)


@dataclass
class RewriteFor(RewritePattern):
    """`scf.for` carrying rewritten pointers: a new loop carries their offsets; its body is the old one,
    moved, with the offsets as new arguments beside each pointer argument (erased after the walk)."""

    state: RewriteState

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: scf.ForOp, rewriter: PatternRewriter) -> None:
        state = self.state
        inits = list(op.iter_args)
        if not any(state.removed(v) for v in op.operands):
            return
        new_inits = state.expand(inits, op)
        body = op.body.block
        for init, arg in zip(inits, list(body.args[1:])):
            if state.removed(init):
                info = state.info_of(init, op)
                offsets = [rewriter.insert_block_argument(body, arg.index + 1 + k, I64) for k in range(info.rank)]
                state.info[arg] = replace(info, offsets=tuple(offsets))
                state.replaced_args.append(arg)
        new_for = scf.ForOp.create(
            operands=[op.lb, op.ub, op.step, *new_inits], result_types=[v.type for v in new_inits],
            regions=[rewriter.move_region_contents_to_new_regions(op.body)],
            attributes=dict(op.attributes), properties=dict(op.properties))
        new_for.location = op.location
        rewriter.insert(new_for)
        slot = 0
        for init, old_result in zip(inits, op.results):
            if state.removed(init):
                info = state.info_of(init, op)
                state.info[old_result] = replace(info, offsets=tuple(new_for.results[slot:slot + info.rank]))
                slot += info.rank
            else:
                hand_over(old_result, new_for.results[slot], rewriter)
                slot += 1
        state.replaced.append(op)


@dataclass
class RewriteIf(RewritePattern):
    """`scf.if` yielding rewritten pointers: a new `scf.if` yields their offsets; its regions are the old
    ones, moved."""

    state: RewriteState

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: scf.IfOp, rewriter: PatternRewriter) -> None:
        state = self.state
        yielded = list(terminator(op.true_region.block).operands)
        infos: list[RewrittenPointer | None] = [
            state.info_of(block_pointers.make_tensor_ptr_of(v).results[0], op) if state.removed(v) else None for v in yielded
        ]
        if all(info is None for info in infos):
            return
        result_types: list[Attribute] = []
        for value, info in zip(yielded, infos):
            result_types.extend([I64] * info.rank if info is not None else [value.type])
        new_if = scf.IfOp.create(
            operands=[op.cond], result_types=result_types,
            regions=[rewriter.move_region_contents_to_new_regions(r) for r in op.regions],
            attributes=dict(op.attributes), properties=dict(op.properties))
        new_if.location = op.location
        rewriter.insert(new_if)
        slot = 0
        for old_result, info in zip(op.results, infos):
            if info is not None:
                state.info[old_result] = replace(info, offsets=tuple(new_if.results[slot:slot + info.rank]))
                slot += info.rank
            else:
                # Triton 3.1 forgets these (fixed upstream in #4893); irkit replaces them
                hand_over(old_result, new_if.results[slot], rewriter)
                slot += 1
        state.replaced.append(op)


@dataclass
class RewriteYield(RewritePattern):
    """`scf.yield` of `scf.for`/`scf.if`: the offsets in place of each rewritten pointer."""

    state: RewriteState

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: scf.YieldOp, rewriter: PatternRewriter) -> None:
        if not isinstance(op.parent_op(), (scf.ForOp, scf.IfOp)):
            return
        if not any(self.state.removed(v) for v in op.operands):
            return
        new = scf.YieldOp(*self.state.expand(op.operands, op))
        new.location = op.location
        rewriter.replace(op, new)


_HANDLED = (tt.MakeTensorPtrOp, tt.AdvanceOp, tt.LoadOp, tt.StoreOp, scf.ForOp, scf.IfOp)


@dataclass
class RejectOtherUsers(RewritePattern):
    """Any other op using a pointer being rewritten: the pass cannot rewrite it (Triton asserts)."""

    state: RewriteState

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if isinstance(op, _HANDLED) or not any(self.state.removed(v) for v in op.operands):
            return
        if isinstance(op, scf.YieldOp) and isinstance(op.parent_op(), (scf.ForOp, scf.IfOp)):
            return
        if isinstance(op, (scf.WhileOp, scf.ConditionOp, scf.YieldOp, cf.BranchOp, cf.ConditionalBranchOp)):
            owner = op.parent_op() if isinstance(op, (scf.ConditionOp, scf.YieldOp)) else op
            raise PassFailure(owner, block_pointers.unsupported_flow_message(owner))
        raise PassFailure(op, f"'{op.name}' uses a block pointer that is being rewritten; only tt.advance, "
                          "tt.load, tt.store, scf.for, scf.if and scf.yield can")


def rewrite_patterns(state: RewriteState) -> GreedyRewritePatternApplier:
    # no dead-code elimination on the way: Triton's pass erases only what it replaced, and keeps an
    # unused arith.constant of the input
    return GreedyRewritePatternApplier([
        RewriteMakeTensorPtr(state), RewriteAdvance(state), RewriteLoad(state), RewriteStore(state),
        RewriteFor(state), RewriteIf(state), RewriteYield(state), RejectOtherUsers(state),
    ], dce_enabled=False)


@dataclass(frozen=True)
class RewriteTensorPointerPass(ModulePass):
    """Rewrite block pointers into tensors of pointers (triton-rewrite-tensor-pointer; Intel rules by mode).

    mode: upstream (Triton 3.1: every block pointer) | intel-pre-2400 | intel-2400 | intel-2420 (which
    block pointers Intel's pass keeps for 2D block IO, before and after Intel #2400 and #2420).
    Default: upstream, the rule of Triton's own pass. Under Intel's pass name the default is intel-2420,
    the rule Intel's pass had from #2420 until it was removed (#3603) and the one its last lit test
    checks; intel-pre-2400 is the rule of Intel's 3.1 release branch.
    """

    name = "rewrite-tensor-pointer"
    # the options each C++ name implies (why: the docstring above); written options override them
    upstream_names: ClassVar[dict[str, str]] = {
        "triton-rewrite-tensor-pointer": "mode=upstream",
        "tritonintelgpu-rewrite-tensor-pointer": "mode=intel-2420",
    }

    mode: Mode = "upstream"  # xDSL checks a pipeline's value against the Literal

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        state = RewriteState(marked_values(op, self.mode), self.mode)
        # one walk in program order: no op is revisited, so a rewritten load is not rewritten again
        PatternRewriteWalker(rewrite_patterns(state), apply_recursively=False).rewrite_module(op)
        state.erase_replaced()
