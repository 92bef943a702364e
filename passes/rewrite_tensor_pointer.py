"""Rewrite block pointers (tt.make_tensor_ptr/tt.advance) into tensors of pointers with masks.

Mirrors Triton's `triton-rewrite-tensor-pointer` (Triton 3.1, `mode=upstream`) and the three historical
rules of Intel's `tritonintelgpu-rewrite-tensor-pointer` (`mode=intel-pre-2400|intel-2400|intel-2420`),
docs/triton-passes.md §1-2.  docs/passes/rewrite-tensor-pointer.md says how irkit differs.

Every rewritten pointer becomes its i64 offsets (one per dimension).  `tt.make_tensor_ptr` becomes
`arith.extsi` of its offsets; `tt.advance` adds its (sign-extended) deltas; `scf.for`/`scf.if`/`scf.yield`
carry the offsets instead of the pointer; `tt.load`/`tt.store` get a tensor of pointers
(`base + sum_i (offset_i + range_i) * stride_i`), a mask from `boundaryCheck` and an `other` from
`padding`.  New tensors take the layout of the loaded/stored value (none on TTIR), the one-dimensional
ranges nested `#slice`s of it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects import scf
from xdsl.dialects.builtin import (
    DenseArrayBase,
    FloatAttr,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    NoneAttr,
    TensorType,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass

from irkit.analysis import block_pointers as bp
from irkit.diagnostics import PassFailure
from irkit.dialects import tt
from irkit.dialects.arith import CAST_OPS, INT_BINARY_OPS, CmpIOp, ConstantOp
from irkit.dialects.encodings import SliceEncodingAttr

MODES = ("upstream", "intel-pre-2400", "intel-2400", "intel-2420")

I32 = IntegerType(32)
I64 = IntegerType(64)
I1 = IntegerType(1)
CMPI_SGE = 5
CMPI_SLT = 2
PAD_ZERO = 1
PAD_NAN = 2


# -- which block pointers to rewrite ----------------------------------------------------------------------


def marked_values(module: ModuleOp, mode: str) -> set[SSAValue] | None:
    """The block-pointer values to rewrite; None means all of them (upstream)."""
    if mode == "upstream":
        return None
    if mode == "intel-2420":
        doomed = _make_tensor_ptrs_to_remove_i2420(module)
        return _mark_values(module, lambda v, _flag: bp.make_tensor_ptr_of(v) in doomed)
    load_counts = mode == "intel-2400"  # I-pre: only a store keeps a #dpas pointer

    def remove(value: SSAValue, flag: bool) -> bool:
        mkptr = bp.make_tensor_ptr_of(value)
        return bp.should_remove_i2400(bp.pointer_facts(mkptr), bp.module_supports_2d_block(mkptr), flag)

    def user_flag(op: Operation) -> bool:
        return isinstance(op, tt.StoreOp) or (load_counts and isinstance(op, tt.LoadOp))

    return _mark_values(module, remove, user_flag)


def _mark_values(module: ModuleOp, remove, user_flag=lambda op: False) -> set[SSAValue]:
    """Intel's per-value marking walk: the results of make_tensor_ptr, the pointer operand of
    advance/load/store, scf.for inits and scf.yield operands, each judged by `remove(value, flag)`."""
    marked: set[SSAValue] = set()

    def mark(value: SSAValue, flag: bool) -> None:
        if bp.is_block_pointer(value.type) and remove(value, flag):
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
        layout = bp.layout_kind(bp.pointee_tensor(mkptr.result.type))
        supports = bp.module_supports_2d_block(mkptr)
        work = [use.operation for use in mkptr.result.uses]
        seen: set[Operation] = set()
        while work:
            user = work.pop()
            if user in seen:
                continue
            seen.add(user)
            if isinstance(user, (tt.LoadOp, tt.StoreOp)):
                block_load = isinstance(user, tt.LoadOp) and bp.has_block_io(user)
                if not bp.should_remove_i2420(layout, supports, isinstance(user, tt.StoreOp), block_load):
                    doomed.discard(mkptr)
                    break
            elif isinstance(user, scf.ForOp):
                body_args = user.body.blocks.first.args[1:]
                for init, arg in zip(user.iter_args, body_args):
                    if init is mkptr.result:
                        work.extend(use.operation for use in arg.uses)
            elif user.results:
                work.extend(use.operation for use in user.results[0].uses)
    return doomed


# -- the rewrite -----------------------------------------------------------------------------------------------


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
        layouts[k] = SliceEncodingAttr.from_values(dim=axis, parent=layouts[k + 1])
        axis -= 1
    return layouts


def expand_dims_type(src: TensorType, axis: int) -> TensorType:
    """The result type of `tt.expand_dims` (Triton's inferReturnTypes): a 1 inserted at `axis`; a `#slice`
    along `axis` becomes its parent."""
    shape = list(src.get_shape())
    shape.insert(axis, 1)
    enc = src.encoding
    if isinstance(enc, SliceEncodingAttr):
        enc = enc.get("parent")
    return TensorType(src.element_type, shape, enc)


class _Emitter:
    """Builds the tensor-of-pointers form of one load or store just before it (`generatePtr`,
    `generateMask`, `generateOther`), caching each dimension's expanded offsets."""

    def __init__(self, info: RewrittenPointer, anchor: Operation):
        self.info = info
        self.anchor = anchor
        self._expanded: dict[int, SSAValue] = {}

    def _add(self, op: Operation) -> SSAValue:
        op.location = self.anchor.location
        self.anchor.parent_block().insert_op_before(op, self.anchor)
        return op.results[0] if op.results else None

    def _tensor(self, element: Attribute, shape=None) -> TensorType:
        return TensorType(element, shape if shape is not None else self.info.tensor_shape, self.info.layout)

    def expanded_offsets(self, dim: int) -> SSAValue:
        """offsets[dim] + [0, N) as a rank-R tensor that is 1 in every other dimension."""
        if dim in self._expanded:
            return self._expanded[dim]
        info = self.info
        n = info.tensor_shape[dim]
        row_layout = range_layouts(info.layout, info.rank, dim)[0]
        row64 = TensorType(I64, [n], row_layout)
        row32 = TensorType(I32, [n], row_layout)
        start = self._add(tt.SplatOp.create(operands=[info.offsets[dim]], result_types=[row64]))
        rng = self._add(tt.MakeRangeOp.create(
            result_types=[row32], properties={"start": IntegerAttr(0, I32), "end": IntegerAttr(n, I32)}))
        rng64 = self._add(CAST_OPS["extsi"].create(operands=[rng], result_types=[row64]))
        value = self._add(INT_BINARY_OPS["addi"].create(operands=[start, rng64], result_types=[row64]))
        for axis in range(info.rank):
            if axis == dim:
                continue
            value = self._add(tt.ExpandDimsOp.create(
                operands=[value], result_types=[expand_dims_type(value.type, axis)],
                properties={"axis": IntegerAttr(axis, I32)}))
        self._expanded[dim] = value
        return value

    def pointers(self) -> SSAValue:
        info = self.info
        ptr_tensor = self._tensor(info.base.type)
        index_tensor = self._tensor(I64)
        ptr = self._add(tt.SplatOp.create(operands=[info.base], result_types=[ptr_tensor]))
        for dim in range(info.rank):
            offs = self.expanded_offsets(dim)
            # the stride is splat into the expanded shape (not a row) to keep its divisibility visible
            stride = self._add(tt.SplatOp.create(operands=[info.strides[dim]], result_types=[offs.type]))
            scaled = self._add(INT_BINARY_OPS["muli"].create(operands=[offs, stride], result_types=[offs.type]))
            wide = self._add(tt.BroadcastOp.create(operands=[scaled], result_types=[index_tensor]))
            ptr = self._add(tt.AddPtrOp.create(operands=[ptr, wide], result_types=[ptr_tensor]))
        return ptr

    def mask(self, boundary_check: tuple[int, ...]) -> SSAValue | None:
        mask_tensor = self._tensor(I1)
        mask = None
        for dim in boundary_check:
            offs = self.expanded_offsets(dim)
            bool_row = TensorType(I1, offs.type.get_shape(), offs.type.encoding)
            zero = self._add(ConstantOp.create(result_types=[I64], properties={"value": IntegerAttr(0, I64)}))
            low = self._add(tt.SplatOp.create(operands=[zero], result_types=[offs.type]))
            above = self._add(CmpIOp.create(operands=[offs, low], result_types=[bool_row],
                                            properties={"predicate": IntegerAttr(CMPI_SGE, I64)}))
            high = self._add(tt.SplatOp.create(operands=[self.info.shape[dim]], result_types=[offs.type]))
            below = self._add(CmpIOp.create(operands=[offs, high], result_types=[bool_row],
                                            properties={"predicate": IntegerAttr(CMPI_SLT, I64)}))
            inside = self._add(INT_BINARY_OPS["andi"].create(operands=[above, below], result_types=[bool_row]))
            wide = self._add(tt.BroadcastOp.create(operands=[inside], result_types=[mask_tensor]))
            mask = wide if mask is None else self._add(
                INT_BINARY_OPS["andi"].create(operands=[mask, wide], result_types=[mask_tensor]))
        return mask

    def other(self, padding: int | None) -> SSAValue | None:
        if padding is None:
            return None
        element = self.info.base.type.pointee
        if isinstance(element, IntegerType):
            if padding == PAD_NAN:
                raise PassFailure(self.anchor, "padding = nan needs a floating-point element type")
            value: Attribute = IntegerAttr(0, element)
        else:
            value = FloatAttr(math.nan if padding == PAD_NAN else 0.0, element)
        constant = self._add(ConstantOp.create(result_types=[element], properties={"value": value}))
        return self._add(tt.SplatOp.create(operands=[constant], result_types=[self._tensor(element)]))


def _segments(*sizes: int) -> DenseArrayBase:
    return DenseArrayBase.from_list(I32, list(sizes))


def _int_list(attr: Attribute | None) -> tuple[int, ...]:
    if attr is None:
        return ()
    return tuple(attr.get_values())  # DenseArrayBase


class TensorPointerRewriter:
    """Triton's `visitOperation`/`rewriteOp`: an in-place walk that replaces marked block pointers by their
    offsets, visiting each op after the ones before it and the new scf ops it creates; replaced ops are
    erased at the end, last first."""

    def __init__(self, marked: set[SSAValue] | None, mode: str):
        self.marked = marked  # None: every block pointer
        self.mode = mode
        self.info: dict[SSAValue, RewrittenPointer] = {}
        self.erased: list[Operation] = []

    # which values are rewritten
    def removed(self, value: SSAValue) -> bool:
        return bp.is_block_pointer(value.type) and (self.marked is None or value in self.marked)

    def needs_rewrite(self, op: Operation) -> bool:
        return any(self.removed(v) for v in op.operands)

    def info_of(self, value: SSAValue, user: Operation) -> RewrittenPointer:
        info = self.info.get(value)
        if info is None:
            raise PassFailure(user, "block pointer operand was not rewritten before its use "
                              "(defined in a region the pass does not walk, or an unsupported producer)")
        return info

    def _propagate_marks(self, mapping: dict[SSAValue, SSAValue]) -> None:
        if self.marked is not None:
            self.marked.update(new for old, new in mapping.items() if old in self.marked)

    # the walk
    def visit(self, op: Operation) -> None:
        for region in op.regions:
            for block in list(region.blocks):
                for nested in list(block.ops):
                    follow = self.rewrite(nested)
                    if follow is not None:
                        self.visit(follow)

    def rewrite(self, op: Operation) -> Operation | None:
        """Rewrite `op` if it involves a marked pointer; return the op whose regions to visit next."""
        if isinstance(op, tt.MakeTensorPtrOp):
            return self.rewrite_make_tensor_ptr(op)
        if isinstance(op, tt.AdvanceOp):
            return self.rewrite_advance(op)
        if isinstance(op, tt.LoadOp):
            return self.rewrite_load(op)
        if isinstance(op, tt.StoreOp):
            return self.rewrite_store(op)
        if isinstance(op, scf.IfOp):
            return self.rewrite_if(op)
        if not self.needs_rewrite(op):
            return op
        if isinstance(op, scf.ForOp):
            return self.rewrite_for(op)
        if isinstance(op, scf.YieldOp) and isinstance(op.parent_op(), (scf.ForOp, scf.IfOp)):
            return self.rewrite_yield(op)
        if op.name in ("scf.while", "scf.condition", "scf.yield", "cf.br", "cf.cond_br"):
            owner = op.parent_op() if op.name in ("scf.condition", "scf.yield") else op
            raise PassFailure(owner, bp.unsupported_flow_message(owner))
        raise PassFailure(op, f"'{op.name}' uses a block pointer that is being rewritten; only tt.advance, "
                          "tt.load, tt.store, scf.for, scf.if and scf.yield can")

    def rewrite_make_tensor_ptr(self, op: tt.MakeTensorPtrOp) -> None:
        if not self.removed(op.result):
            return None
        offsets = []
        for offset in op.offsets:
            ext = CAST_OPS["extsi"].create(operands=[offset], result_types=[I64])
            ext.location = op.location
            op.parent_block().insert_op_before(ext, op)
            offsets.append(ext.results[0])
        tensor = bp.pointee_tensor(op.result.type)
        self.info[op.result] = RewrittenPointer(
            op.base, tuple(op.shape), tuple(op.strides), tuple(offsets), tuple(tensor.get_shape()), tensor.encoding)
        self.erased.append(op)
        return None

    def rewrite_advance(self, op: tt.AdvanceOp) -> None:
        if not self.removed(op.result):
            return None
        info = self.info_of(op.ptr, op)
        if len(op.offsets) != info.rank:
            raise PassFailure(op, f"tt.advance has {len(op.offsets)} offsets for a rank-{info.rank} block pointer")
        offsets = []
        for old, delta in zip(info.offsets, op.offsets):
            ext = CAST_OPS["extsi"].create(operands=[delta], result_types=[I64])
            add = INT_BINARY_OPS["addi"].create(operands=[old, ext.results[0]], result_types=[I64])
            for new in (ext, add):
                new.location = op.location
                op.parent_block().insert_op_before(new, op)
            offsets.append(add.results[0])
        self.info[op.result] = replace(info, offsets=tuple(offsets))
        self.erased.append(op)
        return None

    def _with_value_layout(self, info: RewrittenPointer, value_type: Attribute) -> RewrittenPointer:
        # Intel: the new tensors take the layout of the loaded/stored value (none on TTIR)
        if isinstance(value_type, TensorType):
            return replace(info, layout=value_type.encoding)
        return info

    def rewrite_load(self, op: tt.LoadOp) -> None:
        if not self.removed(op.ptr):
            return None
        if op.mask is not None or op.other is not None:
            raise PassFailure(op, "tt.load of a block pointer must not have a mask or other")
        info = self._with_value_layout(self.info_of(op.ptr, op), op.result.type)
        emit = _Emitter(info, op)
        ptrs = emit.pointers()
        mask = emit.mask(_int_list(op.properties.get("boundaryCheck")))
        padding = op.properties.get("padding")
        # without a mask `other` is never read; Triton builds an invalid tt.load there (its verifier
        # rejects the result, Triton 3.1 and 3.3 alike), and `tt.load %p, %other` would read back as a mask
        other = emit.other(padding.value.data if isinstance(padding, IntegerAttr) and mask is not None else None)
        props = {k: v for k, v in op.properties.items() if k in ("cache", "evict", "isVolatile")}
        props["operandSegmentSizes"] = _segments(1, int(mask is not None), int(other is not None))
        operands = [ptrs] + [v for v in (mask, other) if v is not None]
        result_type = TensorType(info.base.type.pointee, info.tensor_shape, info.layout)
        new = tt.LoadOp.create(operands=operands, result_types=[result_type], properties=props)
        new.location = op.location
        op.parent_block().insert_op_before(new, op)
        op.result.replace_all_uses_with(new.result)
        self.erased.append(op)
        return None

    def rewrite_store(self, op: tt.StoreOp) -> None:
        if not self.removed(op.ptr):
            return None
        if op.mask is not None:
            raise PassFailure(op, "tt.store to a block pointer must not have a mask")
        info = self._with_value_layout(self.info_of(op.ptr, op), op.value.type)
        emit = _Emitter(info, op)
        ptrs = emit.pointers()
        mask = emit.mask(_int_list(op.properties.get("boundaryCheck")))
        props = {k: v for k, v in op.properties.items() if k in ("cache", "evict")}
        operands = [ptrs, op.value] + ([mask] if mask is not None else [])
        new = tt.StoreOp.create(operands=operands, properties=props)
        new.location = op.location
        op.parent_block().insert_op_before(new, op)
        self.erased.append(op)
        return None

    def _expand(self, values, user: Operation) -> list[SSAValue]:
        """The operand list with each rewritten pointer replaced in place by its offsets."""
        out: list[SSAValue] = []
        for value in values:
            if self.removed(value):
                out.extend(self.info_of(value, user).offsets)
            else:
                out.append(value)
        return out

    def rewrite_for(self, op: scf.ForOp) -> scf.ForOp:
        inits = list(op.iter_args)
        new_inits = self._expand(inits, op)
        old_body = op.body.blocks.first
        body = Block(arg_types=[old_body.args[0].type] + [v.type for v in new_inits])
        mapping: dict[SSAValue, SSAValue] = {old_body.args[0]: body.args[0]}
        body.args[0].name_hint = old_body.args[0].name_hint
        slot = 1
        for init, old_arg in zip(inits, old_body.args[1:]):
            if self.removed(init):
                # the old argument stays in the cloned body until its users are rewritten
                info = self.info_of(init, op)
                self.info[old_arg] = replace(info, offsets=tuple(body.args[slot:slot + info.rank]))
                slot += info.rank
            else:
                mapping[old_arg] = body.args[slot]
                body.args[slot].name_hint = old_arg.name_hint
                slot += 1
        for nested in old_body.ops:
            body.add_op(nested.clone(value_mapper=mapping))
        self._propagate_marks(mapping)
        new_for = scf.ForOp.create(
            operands=[op.lb, op.ub, op.step, *new_inits], result_types=[v.type for v in new_inits],
            regions=[Region(body)], attributes=dict(op.attributes), properties=dict(op.properties))
        new_for.location = op.location
        op.parent_block().insert_op_before(new_for, op)
        slot = 0
        for init, old_result in zip(inits, op.results):
            if self.removed(init):
                info = self.info_of(init, op)
                self.info[old_result] = replace(info, offsets=tuple(new_for.results[slot:slot + info.rank]))
                slot += info.rank
            else:
                old_result.replace_all_uses_with(new_for.results[slot])
                slot += 1
        self.erased.append(op)
        return new_for

    def rewrite_yield(self, op: scf.YieldOp) -> None:
        op.operands = tuple(self._expand(op.operands, op))
        return None

    def rewrite_if(self, op: scf.IfOp) -> scf.IfOp:
        then_yield = op.true_region.blocks.first.last_op
        yielded = list(then_yield.operands)
        infos: list[RewrittenPointer | None] = []
        for value in yielded:
            if self.removed(value):
                mkptr = bp.make_tensor_ptr_of(value)
                infos.append(self.info_of(mkptr.results[0], op))
            else:
                infos.append(None)
        if all(info is None for info in infos):
            return op
        result_types: list[Attribute] = []
        for value, info in zip(yielded, infos):
            result_types.extend([I64] * info.rank if info is not None else [value.type])
        mapping: dict[SSAValue, SSAValue] = {}
        regions = []
        for old_region in op.regions:
            if not old_region.blocks:
                regions.append(Region())
                continue
            block = Block()
            for nested in old_region.blocks.first.ops:
                block.add_op(nested.clone(value_mapper=mapping))
            regions.append(Region(block))
        self._propagate_marks(mapping)
        new_if = scf.IfOp.create(operands=[op.cond], result_types=result_types, regions=regions,
                                 attributes=dict(op.attributes), properties=dict(op.properties))
        new_if.location = op.location
        op.parent_block().insert_op_before(new_if, op)
        slot = 0
        for old_result, info in zip(op.results, infos):
            if info is not None:
                self.info[old_result] = replace(info, offsets=tuple(new_if.results[slot:slot + info.rank]))
                slot += info.rank
            else:
                # Triton 3.1 forgets these (fixed upstream in #4893); irkit replaces them
                old_result.replace_all_uses_with(new_if.results[slot])
                slot += 1
        self.erased.append(op)
        return new_if

    # clean-up
    def erase_replaced(self) -> None:
        doomed: set[Operation] = set()
        for op in self.erased:
            doomed.update(op.walk())
        for op in self.erased:
            for inner in op.walk():
                defined = list(inner.results)
                for region in inner.regions:
                    for block in region.blocks:
                        defined.extend(block.args)
                for value in defined:
                    for use in value.uses:
                        if use.operation not in doomed:
                            raise PassFailure(use.operation, _stale_use_message(self.mode))
        for op in reversed(self.erased):
            if op.parent is not None:
                op.detach()
            op.erase()
        self.erased.clear()


def _stale_use_message(mode: str) -> str:
    msg = "this op still uses a block pointer that the pass rewrote into offsets"
    if mode in ("intel-pre-2400", "intel-2400"):
        msg += (f" (mode {mode} judges each value separately, so a pointer carried by scf.for can be "
                "rewritten at the loop and kept at this use; Intel fixed that in #2420)")
    return msg


@dataclass(frozen=True)
class RewriteTensorPointerPass(ModulePass):
    """Rewrite block pointers into tensors of pointers (triton-rewrite-tensor-pointer; Intel rules by mode).

    mode: upstream (Triton 3.1: every block pointer) | intel-pre-2400 | intel-2400 | intel-2420 (which
    block pointers Intel's pass keeps for 2D block IO, before and after Intel #2400 and #2420).
    """

    name = "rewrite-tensor-pointer"
    # Intel's name implies Intel's last rule (I-2420, kept until the pass was removed in #3603, and the
    # one its final lit test checks); mode= overrides it, e.g. mode=intel-pre-2400 for Intel's 3.1 release
    upstream_names: ClassVar[dict[str, str]] = {
        "triton-rewrite-tensor-pointer": "mode=upstream",
        "tritonintelgpu-rewrite-tensor-pointer": "mode=intel-2420",
    }

    mode: str = "upstream"

    def __post_init__(self):
        if self.mode not in MODES:
            raise ValueError(f"mode must be one of {', '.join(MODES)}, got '{self.mode}'")

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        marked = marked_values(op, self.mode)
        rewriter = TensorPointerRewriter(marked, self.mode)
        rewriter.visit(op)
        rewriter.erase_replaced()
