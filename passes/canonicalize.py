"""`canonicalize`: MLIR's -canonicalize with the canonicalization patterns of Triton's tt/ttg ops.

MLIR's canonicalizer applies every op's canonicalization patterns and folders greedily until nothing
changes, erases trivially dead ops (ops without side effects, or that only read, whose results are unused),
and drops unreachable blocks.  xDSL has the driver (`PatternRewriteWalker` with DCE and `region_dce`);
the patterns for Triton's ops are here, written after the canonicalizers of Triton's `Ops.cpp`
(lib/Dialect/Triton/IR, lib/Dialect/TritonGPU/IR) and keyed by op class (docs/passes/canonicalize.md):

* `ttg.convert_layout`: to its own type -> its source; of a convert, splat, make_range, splat constant,
  histogram, local_load or (allow_reorder) reshape -> that op in the new layout;
  `local_alloc`, `local_store`, `tt.histogram`, `tt.reshape` (trivial or cheap) and `tt.trans` (trivial)
  of a convert read the convert's source.
* `tt.load` whose result is unused and that is not volatile: erased (it only reads).
* `tt.make_range` of one element -> a splat constant; `tt.splat` of a constant -> a splat constant;
  `tt.broadcast`/`tt.expand_dims`/`tt.reshape`/`tt.trans` of a splat or splat constant -> the splat;
  `tt.broadcast` of a broadcast, to its own type; `tt.expand_dims(tt.broadcast x)` ->
  `tt.broadcast(tt.expand_dims x)`; `tt.advance` by zeros and `tt.addptr` of a zero splat -> the pointer;
  `tt.trans` with the identity order -> a (foldable) convert.
* `arith`: integer add/sub/mul/and/or/xor and comparisons of two splat constants fold; x + 0, x * 1,
  x * 0 (integers) fold.

Patterns Triton added after 3.3 (warp_specialize clean-ups, AMD extract_slice/concat, tmem_store of a
convert, subslice chains, barrier fromCTA) are in passes/canonicalize_releases.py with the release that
first has each; the `version` option picks them.  MLIR's own `scf.for`, `cmpi` and `select` rules are in
passes/canonicalize_mlir.py.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TypeVar

from irkit.passes import canonicalize_mlir, canonicalize_releases
from xdsl.context import Context
from xdsl.dialects.builtin import (
    AnyFloat,
    DenseArrayBase,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    TensorType,
    i32,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
)
from xdsl.rewriter import InsertPoint
from xdsl.traits import Pure
from xdsl.transforms.dead_code_elimination import region_dce

from irkit.analysis.axis_info import pointee_bit_width
from irkit.analysis.triton_versions import release_of
from irkit.diagnostics import PassFailure
from irkit.dialects import arith, tt, ttg
from irkit.dialects.builtin_extras import DenseElementsAttr
from irkit.dialects.ttng import TMEMAllocOp
from irkit.dialects.types import MemDescType
from irkit.layout import algebra
from irkit.layout.linear import to_linear_layout
from irkit.names import copy_name, replace_keeping_names

# -- helpers ---------------------------------------------------------------------------------------------

_OpT = TypeVar("_OpT", bound=Operation)


def splat_constant(value: SSAValue) -> int | float | bool | None:
    """The element of a splat `arith.constant dense<v>` (None otherwise)."""
    op = value.owner
    if isinstance(op, arith.ConstantOp) and isinstance(op.value, DenseElementsAttr):
        return op.value.splat_value()
    return None


def scalar_constant(value: SSAValue) -> int | None:
    """The value of a scalar integer `arith.constant` (None otherwise)."""
    op = value.owner
    if isinstance(op, arith.ConstantOp) and isinstance(op.value, IntegerAttr):
        return op.value.value.data
    return None


def _constant_like(value: int | float | bool, result_type: TensorType) -> arith.ConstantOp:
    return arith.ConstantOp(DenseElementsAttr.splat(value, result_type))


def _replace(rewriter: PatternRewriter, op: Operation, new: Operation) -> None:
    replace_keeping_names(rewriter, op, new)


def _forward(rewriter: PatternRewriter, op: Operation, value: SSAValue) -> None:
    """Replace `op`'s one result by an existing value."""
    rewriter.replace(op, [], [value])


def is_expensive_view(src: Attribute, dst: Attribute) -> bool:
    """isExpensiveView: a reshape that moves elements between threads: the two layouts broadcast along
    different in-dims (their free-variable masks differ), or hold a different number of elements per thread."""
    if not isinstance(src, TensorType) or not isinstance(dst, TensorType):
        return True  # no layout to compare: keep the convert
    try:
        ll_src = to_linear_layout(src.encoding, src.get_shape())
        ll_dst = to_linear_layout(dst.encoding, dst.get_shape())
        if ll_src is None or ll_dst is None:
            return True  # a layout without a linear form here: keep the convert
        for dim in ll_src.in_dims:
            if ll_src.free_variable_mask(dim) != ll_dst.free_variable_mask(dim):
                return True
        return (algebra.num_elements_per_thread(src.encoding, src.get_shape())
                != algebra.num_elements_per_thread(dst.encoding, dst.get_shape()))
    except (ValueError, AttributeError, NotImplementedError, KeyError):
        return True


def transposes_into(src: Attribute, order: tuple[int, ...], dst: Attribute) -> bool:
    """Is tt.trans(order) of a tensor in `src`'s layout already in `dst`'s layout (the layout Triton 3.3's
    inferTransOpEncoding gives it equals the result's)?  Compared as linear layouts on the shapes."""
    if not isinstance(src, TensorType) or not isinstance(dst, TensorType):
        return False
    ll_src = to_linear_layout(src.encoding, src.get_shape())
    ll_dst = to_linear_layout(dst.encoding, dst.get_shape())
    if ll_src is None or ll_dst is None or set(ll_src.in_dims) != set(ll_dst.in_dims):
        return False
    src_index = {name: i for i, (name, _) in enumerate(ll_src.out_dims)}
    dst_index = {name: i for i, (name, _) in enumerate(ll_dst.out_dims)}
    for in_dim in ll_src.in_dims:
        ours, theirs = ll_src.bases[in_dim], ll_dst.bases[in_dim]
        if len(ours) != len(theirs):
            return False
        for v, w in zip(ours, theirs):
            moved = [v[src_index[f"dim{order[i]}"]] for i in range(len(order))]
            if moved != [w[dst_index[f"dim{i}"]] for i in range(len(order))]:
                return False
    return True


def _trans_order(op: tt.TransOp) -> tuple[int, ...]:
    """tt.trans's permutation: a DenseI32ArrayAttr in Triton's ODS (the dialect does not constrain it yet)."""
    order = op.order
    if not isinstance(order, DenseArrayBase):
        raise TypeError(f"tt.trans: the order must be an array<i32: ...>, got {order}")
    return tuple(int(i) for i in order.get_values())


def _with_type(op: _OpT, operands: Iterable[SSAValue], result_types: Iterable[Attribute]) -> _OpT:
    return type(op).create(operands=list(operands), result_types=list(result_types),
                           properties=dict(op.properties), attributes=dict(op.attributes))


# -- ttg.convert_layout ------------------------------------------------------------------------------------


class ConvertFromConvert(RewritePattern):
    """CanonicalizeConvertFromConvert."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, ttg.ConvertLayoutOp):
            return
        dst_type = op.result.type
        if op.src.type == dst_type:
            _forward(rewriter, op, op.src)
            return
        src_type = op.src.type
        if not isinstance(src_type, TensorType) or not isinstance(dst_type, TensorType):
            return  # a conversion of tensors only (TT_Tensor in Triton's ODS; the dialect does not say so yet)
        if algebra.is_dot_operand(dst_type.encoding) and algebra.is_nvidia_mma(src_type.encoding):
            return  # kept for fused attention (Triton's heuristic)
        arg = op.src.owner
        if isinstance(arg, tt.ReshapeOp):
            if (arg.allow_reorder is None or arg.efficient_layout is not None
                    or is_expensive_view(arg.src.type, dst_type)
                    or algebra.is_dot_operand(src_type.encoding) or algebra.is_dot_operand(dst_type.encoding)):
                return
            _replace(rewriter, op, _with_type(arg, [arg.src], [dst_type]))
        elif isinstance(arg, tt.HistogramOp):
            _replace(rewriter, op, _with_type(arg, arg.operands, [dst_type]))
        elif isinstance(arg, ttg.LocalLoadOp):
            new = _with_type(arg, arg.operands, [dst_type])
            rewriter.insert(new, _before(arg))
            copy_name(op.result, new.results[0])
            rewriter.replace(op, [], [new.results[0]])
        elif isinstance(arg, ttg.ConvertLayoutOp):
            _replace(rewriter, op, ttg.ConvertLayoutOp(arg.src, dst_type))
        elif isinstance(arg, tt.SplatOp):
            _replace(rewriter, op, tt.SplatOp(arg.src, dst_type))
        elif isinstance(arg, tt.MakeRangeOp):
            _replace(rewriter, op, _with_type(arg, [], [dst_type]))
        else:
            value = splat_constant(op.src)
            if value is not None:
                _replace(rewriter, op, _constant_like(value, dst_type))


def _before(op: Operation) -> InsertPoint:
    return InsertPoint.before(op)


class ConvertIntoUser(RewritePattern):
    """reshape / trans / histogram / local_alloc / local_store of a convert read the convert's source
    (CanonicalizeConvertFromReshape, -Transpose, -Histogram, -Alloc, -LocalStore)."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if isinstance(op, tt.TransOp):
            order = _trans_order(op)
            if order == tuple(range(len(order))):  # the identity: a convert, which may fold away
                _replace(rewriter, op, ttg.ConvertLayoutOp(op.src, op.result.type))
                return
            inner = op.src.owner
            if isinstance(inner, tt.TransOp):  # trans(trans(x)) is one transpose of x
                inner_order = _trans_order(inner)
                composed = tuple(inner_order[i] for i in order)
                new = _with_type(op, [inner.src], [op.result.type])
                new.properties["order"] = DenseArrayBase.from_list(i32, composed)
                _replace(rewriter, op, new)
                return
        if isinstance(op, ttg.LocalAllocOp):
            src = op.src
            loaded = src.owner if src is not None else None
            buffer = op.result.type
            if (isinstance(loaded, ttg.LocalLoadOp) and loaded.src.type == buffer
                    and isinstance(buffer, MemDescType) and not buffer.is_mutable):
                _forward(rewriter, op, loaded.src)  # LocalAllocOp::fold: the immutable buffer it was read from
                return
        elif isinstance(op, tt.GatherOp):
            if op.efficient_layout is not None:
                return  # the compiler chose the source layout
            src = op.src
        elif isinstance(op, (tt.ReshapeOp, tt.TransOp, tt.HistogramOp, ttg.LocalStoreOp)):
            src = op.src
        else:
            return
        if src is None:
            return
        cvt = src.owner
        if not isinstance(cvt, ttg.ConvertLayoutOp):
            return
        source = cvt.src
        trivial = cvt.src.type == cvt.result.type
        if isinstance(op, tt.ReshapeOp) and not trivial:
            if is_expensive_view(source.type, op.result.type) or op.allow_reorder is None:
                return
        if isinstance(op, tt.TransOp) and not trivial and not transposes_into(
                source.type, _trans_order(op), op.result.type):
            return
        operands = [source if v is src else v for v in op.operands]
        if isinstance(op, tt.HistogramOp) and op.mask is not None:
            mask, tensor = op.mask.type, source.type
            if not isinstance(mask, TensorType) or not isinstance(tensor, TensorType):
                return  # tensors only (TT_Tensor in Triton's ODS; the dialect does not say so yet)
            mask_type = TensorType(mask.element_type, tensor.get_shape(), tensor.encoding)
            mask_cvt = ttg.ConvertLayoutOp(op.mask, mask_type)
            rewriter.insert(mask_cvt, _before(op))
            operands = [source, mask_cvt.result]
        _replace(rewriter, op, _with_type(op, operands, [r.type for r in op.results]))


# -- tt ------------------------------------------------------------------------------------------------------


def _is_volatile(op: tt.LoadOp) -> bool:
    v = op.isVolatile
    return isinstance(v, IntegerAttr) and bool(v.value.data)


class DeadLoad(RewritePattern):
    """A load whose result nobody uses only reads memory (tt.load unless volatile, ttg.local_load): erased,
    as MLIR erases a trivially dead op whose only effect is a read."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if isinstance(op, tt.LoadOp) and not op.result.uses and not _is_volatile(op):
            rewriter.erase(op)
        elif isinstance(op, ttg.LocalLoadOp) and not op.result.uses:
            rewriter.erase(op)
        elif isinstance(op, (ttg.LocalAllocOp, TMEMAllocOp)) and op.results and not op.results[0].uses:
            # an allocation nobody uses (what it writes lands in memory only it owns)
            if isinstance(op, TMEMAllocOp) or op.src is None:
                rewriter.erase(op)


ACCESS_DEFAULTS = {"cache": 1, "evict": 1, "isVolatile": 0}  # CacheModifier::NONE, EvictionPolicy::NORMAL, false


def _int_value(attr: Attribute) -> int | None:
    return attr.value.data if isinstance(attr, IntegerAttr) else None


class ConstantMask(RewritePattern):
    """CanonicalizeMasked{Load,Store}Pattern: an all-true splat mask goes (the access is rebuilt with its
    cache, eviction and volatility only, as Triton's builder makes it); an all-false one makes a load its
    `other` (kept when it has none) and erases a store."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, (tt.LoadOp, tt.StoreOp)) or op.mask is None:
            return
        mask = splat_constant(op.mask)
        if mask is None:
            return
        if not mask:
            if isinstance(op, tt.StoreOp):
                rewriter.erase(op)
            elif op.other is not None:
                _forward(rewriter, op, op.other)
            return
        kept = {k: v for k, v in op.properties.items()
                if k in ("cache", "evict", "isVolatile") and _int_value(v) != ACCESS_DEFAULTS[k]}
        if isinstance(op, tt.LoadOp):
            kept["operandSegmentSizes"] = DenseArrayBase.from_list(i32, [1, 0, 0])
            _replace(rewriter, op, tt.LoadOp.create(operands=[op.ptr], result_types=[op.result.type], properties=kept))
        else:
            kept["operandSegmentSizes"] = DenseArrayBase.from_list(i32, [1, 1, 0])
            rewriter.replace(op, tt.StoreOp.create(operands=[op.ptr, op.value], properties=kept))


class FoldSplatLike(RewritePattern):
    """Shape ops of a splat or splat constant, and one-element ranges, become a splat / constant."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if isinstance(op, tt.MakeRangeOp):
            start, end = op.start.value.data, op.end.value.data
            if end - start == 1:
                _replace(rewriter, op, _constant_like(start, op.result.type))
            return
        if isinstance(op, tt.SplatOp):
            scalar = scalar_constant(op.src)
            if scalar is not None and isinstance(op.result.type, TensorType):
                _replace(rewriter, op, _constant_like(scalar, op.result.type))
            return
        if not isinstance(op, (tt.BroadcastOp, tt.ExpandDimsOp, tt.ReshapeOp, tt.TransOp)):
            return
        if isinstance(op, tt.BroadcastOp) and op.src.type == op.result.type:
            _forward(rewriter, op, op.src)
            return
        result_type = op.result.type
        if not isinstance(result_type, TensorType):
            return  # shape ops make tensors (TT_Tensor in Triton's ODS; the dialect does not say so for all yet)
        value = splat_constant(op.src)
        if value is not None:
            _replace(rewriter, op, _constant_like(value, result_type))
            return
        source = op.src.owner
        if isinstance(source, tt.SplatOp):
            _replace(rewriter, op, tt.SplatOp(source.src, result_type))
            return
        if isinstance(op, tt.BroadcastOp) and isinstance(source, tt.BroadcastOp):
            _replace(rewriter, op, tt.BroadcastOp(source.src, result_type))


class ExpandDimsOfBroadcast(RewritePattern):
    """expand_dims(broadcast(x)) -> broadcast(expand_dims(x)): broadcasts move down."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, tt.ExpandDimsOp):
            return
        broadcast = op.src.owner
        if not isinstance(broadcast, tt.BroadcastOp):
            return
        inner = broadcast.src
        inner_type = inner.type
        if not isinstance(inner_type, TensorType):
            return  # IRDL verified it (operand_def(TensorType)); xDSL types operands as Attribute
        axis = op.axis.value.data
        # the expanded value takes the layout of the result
        shape = list(inner_type.get_shape())
        shape.insert(axis, 1)
        expanded = _with_type(op, [inner], [TensorType(inner_type.element_type, shape, op.result.type.encoding)])
        rewriter.insert(expanded, _before(op))
        _replace(rewriter, op, tt.BroadcastOp(expanded.result, op.result.type))


class ZeroOffset(RewritePattern):
    """tt.advance by zeros, tt.addptr of a zero splat or 0: the pointer itself."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if isinstance(op, tt.AdvanceOp):
            if all(scalar_constant(v) == 0 for v in op.offsets):
                _forward(rewriter, op, op.ptr)
        elif isinstance(op, tt.AddPtrOp):
            offset = op.offset
            if (splat_constant(offset) == 0 or scalar_constant(offset) == 0) and op.ptr.type == op.result.type:
                _forward(rewriter, op, op.ptr)


# -- arith ---------------------------------------------------------------------------------------------------

_INT_FOLDS: dict[type[Operation], Callable[[int, int], int]] = {
    arith.AddIOp: lambda a, b: a + b,
    arith.SubIOp: lambda a, b: a - b,
    arith.MulIOp: lambda a, b: a * b,
    arith.AndIOp: lambda a, b: a & b,
    arith.OrIOp: lambda a, b: a | b,
    arith.XOrIOp: lambda a, b: a ^ b,
}


def _wrap(value: int, t: Attribute) -> int:
    et = t.element_type if isinstance(t, TensorType) else t
    width = et.width.data if isinstance(et, IntegerType) else 64
    if width == 1:
        return value & 1
    value &= (1 << width) - 1
    return value - (1 << width) if value >= 1 << (width - 1) else value


class FoldIntegerArith(RewritePattern):
    """Integer arith on two constants folds; x + 0, x - 0, x * 1 are x; x * 0 and x & 0 are that 0 (splats and
    scalars; MLIR's muli/andi folders return the zero operand)."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        fold = _INT_FOLDS.get(type(op))
        if fold is None:
            return
        lhs, rhs = op.operands
        t = op.results[0].type
        et = t.element_type if isinstance(t, TensorType) else t
        if not isinstance(et, IntegerType):
            return
        a = splat_constant(lhs) if isinstance(t, TensorType) else scalar_constant(lhs)
        b = splat_constant(rhs) if isinstance(t, TensorType) else scalar_constant(rhs)
        if isinstance(a, float) or isinstance(b, float):
            return  # not an integer constant
        if isinstance(a, bool) or isinstance(b, bool):
            a, b = (None if a is None else int(a)), (None if b is None else int(b))
        if a is not None and b is not None:
            value = _wrap(fold(a, b), t)
            if isinstance(t, TensorType):
                new = _constant_like(value if et.width.data != 1 else bool(value), t)
            else:
                new = arith.ConstantOp(IntegerAttr(value, et))
            _replace(rewriter, op, new)
            return
        identity: dict[type[Operation], int] = {arith.AddIOp: 0, arith.SubIOp: 0, arith.MulIOp: 1, arith.OrIOp: 0, arith.XOrIOp: 0}
        if type(op) in (arith.MulIOp, arith.AndIOp) and 0 in (a, b):  # x * 0, x & 0: the zero operand
            _forward(rewriter, op, lhs if a == 0 else rhs)
        elif type(op) in identity and b == identity[type(op)]:
            _forward(rewriter, op, lhs)
        elif type(op) in (arith.AddIOp, arith.MulIOp) and a == identity[type(op)]:
            _forward(rewriter, op, rhs)


def _has_negative_zero(t: Attribute) -> bool:
    """The FNUZ float8 types have no -0 (their 0x80 is NaN)."""
    return "FNUZ" not in type(t).__name__ and "fnuz" not in str(t).lower()


class FoldFpToFpZero(RewritePattern):
    """tt.fp_to_fp of a +-0 constant (splat or scalar) is that zero in the new type (FpToFpOp::fold; -0
    becomes +0 in a type without negative zero)."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, tt.FpToFpOp):
            return
        src = op.src.owner
        if not isinstance(src, arith.ConstantOp):
            return
        t = op.result.type
        et = t.element_type if isinstance(t, TensorType) else t
        if isinstance(t, TensorType):
            value = splat_constant(op.src)
        else:
            value = src.value.value.data if isinstance(src.value, FloatAttr) else None
        if not isinstance(value, float) or value != 0.0:
            return
        zero = -0.0 if math.copysign(1.0, value) < 0 and _has_negative_zero(et) else 0.0
        if isinstance(t, TensorType):
            new = _constant_like(zero, t)
        elif isinstance(et, AnyFloat):
            new = arith.ConstantOp(FloatAttr(zero, et))
        else:
            return  # fp_to_fp makes floats (TT_FloatLike in Triton's ODS; the dialect does not say so yet)
        _replace(rewriter, op, new)


class IntToPtrOfPtrToInt(RewritePattern):
    """int_to_ptr(ptr_to_int p) -> p (a tt.bitcast for another pointee); int_to_ptr(ptr_to_int p + c) with a
    constant byte offset c that is a whole number of elements -> tt.addptr p, c / element bytes."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, tt.IntToPtrOp):
            return
        arg = op.src.owner
        if isinstance(arg, tt.PtrToIntOp):
            ptr = arg.src
            if ptr.type == op.result.type:
                _forward(rewriter, op, ptr)
            else:
                _replace(rewriter, op, tt.BitcastOp.create(operands=[ptr], result_types=[op.result.type]))
            return
        if not isinstance(arg, arith.AddIOp) or not isinstance(arg.lhs.owner, tt.PtrToIntOp):
            return
        ptr = arg.lhs.owner.src
        offset_type = arg.rhs.type
        byte_offset = splat_constant(arg.rhs) if isinstance(offset_type, TensorType) else scalar_constant(arg.rhs)
        if ptr.type != op.result.type or not isinstance(byte_offset, int) or isinstance(byte_offset, bool):
            return
        elem_bytes = max(1, pointee_bit_width(ptr.type) // 8)
        if byte_offset % elem_bytes:
            return
        elements = byte_offset // elem_bytes
        if isinstance(offset_type, TensorType):
            cst = _constant_like(elements, offset_type)
        elif isinstance(offset_type, (IntegerType, IndexType)):  # as `scalar_constant` found it
            cst = arith.ConstantOp(IntegerAttr(elements, offset_type))
        else:
            return
        rewriter.insert(cst, _before(op))
        _replace(rewriter, op, tt.AddPtrOp.create(operands=[ptr, cst.result], result_types=[op.result.type]))


class DeadWarpSpecialize(RewritePattern):
    """A ttg.warp_specialize whose results are unused and whose regions hold only side-effect-free ops
    (terminators aside) is dead: erased."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, ttg.WarpSpecializeOp) or any(r.uses for r in op.results):
            return
        for inner in op.walk():
            if inner is op or isinstance(inner, (ttg.WarpYieldOp, ttg.WarpReturnOp, ttg.WarpSpecializePartitionsOp)):
                continue
            if not inner.has_trait(Pure, value_if_unregistered=False):  # an unknown op may write
                return
        rewriter.erase(op)


class IdentityReinterpret(RewritePattern):
    """ttg.memdesc_reinterpret to its own type is its source (MemDescReinterpretOp::fold)."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if isinstance(op, ttg.MemDescReinterpretOp) and op.src.type == op.result.type:
            _forward(rewriter, op, op.src)


PATTERNS: tuple[RewritePattern, ...] = (
    IdentityReinterpret(),
    DeadWarpSpecialize(),
    FoldFpToFpZero(), IntToPtrOfPtrToInt(),
    ConvertFromConvert(), ConvertIntoUser(), DeadLoad(), ConstantMask(), FoldSplatLike(), ExpandDimsOfBroadcast(),
    ZeroOffset(), FoldIntegerArith(),
)


@dataclass(frozen=True)
class CanonicalizePass(ModulePass):
    """Canonicalize: Triton's tt/ttg canonicalization patterns, integer folds, dead code (MLIR's -canonicalize).

    Options:
      version: the Triton that made the input ("3.3.1", "3.8"): patterns Triton added later (warp_specialize
               clean-ups 3.4, AMD extract_slice/concat 3.5, tmem_store of a convert 3.5.1, subslice chains
               3.7, fp-sanitizer embeddings 3.8, barrier fromCTA 3.9) are left out; irkit-opt fills it from --triton-version or the Triton
               cache JSON; else from the module's spelling (triton_gpu.* is 3.1, ttg.* the newest).
    """

    name = "canonicalize"

    version: str = ""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        try:
            release = release_of(self.version, op)
        except ValueError as e:
            raise PassFailure(op, f"canonicalize: {e}") from None
        patterns = [*PATTERNS, *canonicalize_mlir.patterns_for(release), *canonicalize_releases.patterns_for(release)]
        applier = GreedyRewritePatternApplier(patterns, ctx=ctx)
        PatternRewriteWalker(applier, post_walk_func=region_dce).rewrite_module(op)
