"""The canonicalization patterns Triton added after 3.3, each with the first release that applies it.

`canonicalize` (passes/canonicalize.py) adds a pattern here only when the Triton that made the input has
it, so that IR of an older Triton canonicalizes as that Triton's triton-opt would.  Releases were read from
upstream's history (the commit that added each C++ pattern, against the release branch points) and checked
by running the real `canonicalize` of Triton 3.3.1, 3.5.1, 3.6.0, 3.8.0 and 3.9.0 on small kernels
(docs/passes/canonicalize.md):

* 3.4: `WarpSpecializeOp::canonicalize` and `WarpSpecializePartitionsOp::canonicalize` (unused results,
  unused and duplicate captures);
* 3.5: AMD `ExtractSliceOp` (a slice that is one concat operand) and `ConcatOp` (one operand);
* 3.5.1: `CanonicalizeConvertFromTMEMStore` (main's #8353 of October 2025; the real 3.5.1 has it);
* 3.7: `MemDescSubsliceOp::fold` (a subslice of a subslice);
* 3.8: the fp-sanitizer's `ExperimentalFPSan{Embed,Unembed}Op` folds and `PushFPSanThroughViewPattern`
  (the ops and their patterns came together, #10232);
* 3.9: `canonicalizeBarrierFromCTA` of `ttng.barrier_expect` / `ttng.arrive_barrier`.
"""

from __future__ import annotations

from xdsl.dialects.builtin import DenseArrayBase, IntegerAttr, TensorType, i32
from xdsl.ir import Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern
from xdsl.rewriter import InsertPoint

from irkit.dialects import tt, ttg
from irkit.dialects.gpu_vendors import ConcatOp, ExtractSliceOp
from irkit.dialects.module_attrs import module_int
from irkit.dialects.tti import FPSanEmbedOp, FPSanUnembedOp
from irkit.dialects.ttng import ArriveBarrierOp, BarrierExpectOp, TMEMStoreOp
from irkit.layout.tmem import fits_32x32b_message
from irkit.names import copy_name, replace_keeping_names, replace_uses

Release = tuple[int, int, int]


def _forward(rewriter: PatternRewriter, op: Operation, value: SSAValue) -> None:
    """Replace `op`'s one result by an existing value, which keeps its own name."""
    replace_uses(op.results[0], value, rewriter)
    rewriter.erase(op)


# -- ttg.warp_specialize (3.4) ------------------------------------------------------------------------------


class WarpSpecializeUnusedResults(RewritePattern):
    """WarpSpecializeOp::canonicalize: results nobody uses leave the op and its default region's
    `ttg.warp_yield`."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, ttg.WarpSpecializeOp):
            return
        kept = [i for i, r in enumerate(op.results) if r.uses]
        if len(kept) == len(op.results):
            return
        for block in op.defaultRegion.blocks:
            yield_op = block.last_op
            if isinstance(yield_op, ttg.WarpYieldOp):
                yield_op.operands = [yield_op.operands[i] for i in kept]
                rewriter.notify_op_modified(yield_op)
        regions = [rewriter.move_region_contents_to_new_regions(r) for r in (op.defaultRegion, op.partitionOpHolder)]
        new = ttg.WarpSpecializeOp.create(result_types=[op.results[i].type for i in kept],
                                          properties=dict(op.properties), attributes=dict(op.attributes),
                                          regions=regions)
        rewriter.insert(new, InsertPoint.before(op))
        for new_result, i in zip(new.results, kept, strict=True):
            copy_name(op.results[i], new_result)
            replace_uses(op.results[i], new_result, rewriter)
        rewriter.erase(op)


class WarpSpecializeCaptures(RewritePattern):
    """WarpSpecializePartitionsOp::canonicalize: a capture no partition reads is dropped; a value captured
    twice is captured once (the partitions read the first block argument)."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, ttg.WarpSpecializePartitionsOp):
            return
        entries = [region.blocks.first for region in op.partitionRegions]
        if any(block is None for block in entries):
            return
        dropped: list[int] = []
        first_of: dict[SSAValue, int] = {}
        for i, capture in enumerate(op.explicitCaptures):
            if all(not block.args[i].uses for block in entries if block is not None):
                dropped.append(i)
                continue
            if capture in first_of:
                for block in entries:
                    if block is not None:
                        replace_uses(block.args[i], block.args[first_of[capture]], rewriter)
                dropped.append(i)
                continue
            first_of[capture] = i
        if not dropped:
            return
        for block in entries:
            if block is not None:
                for i in reversed(dropped):
                    rewriter.erase_block_argument(block.args[i])
        op.operands = [v for i, v in enumerate(op.explicitCaptures) if i not in dropped]
        rewriter.notify_op_modified(op)


# -- AMD extract_slice / concat (3.5) -----------------------------------------------------------------------


class ExtractSliceOfConcat(RewritePattern):
    """CanonicalizeExtractSliceAndConcat: a slice that is exactly one operand of a `amdg.concat` is that
    operand (operands tile the result row-major: the last dimension varies fastest)."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, ExtractSliceOp) or not isinstance(op.source.owner, ConcatOp):
            return
        concat = op.source.owner
        piece, whole, offsets = concat.sources[0].type, concat.result.type, op.static_offsets
        if op.result.type != piece or not isinstance(piece, TensorType) or not isinstance(whole, TensorType):
            return
        if not isinstance(offsets, DenseArrayBase):
            return
        piece_shape = piece.get_shape()
        if any(int(o) % s for o, s in zip(offsets.get_values(), piece_shape, strict=True)):
            return
        grid = [d // s for d, s in zip(whole.get_shape(), piece_shape, strict=True)]
        index = 0
        for offset, size, count in zip(offsets.get_values(), piece_shape, grid, strict=True):
            index = index * count + int(offset) // size
        if index < len(concat.sources):
            _forward(rewriter, op, concat.sources[index])


class SingleConcat(RewritePattern):
    """foldConcatOpFromSingleSource: a concat of one tensor is that tensor."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if isinstance(op, ConcatOp) and len(op.sources) == 1:
            _forward(rewriter, op, op.sources[0])


# -- ttng.tmem_store of a convert (3.5.1) -----------------------------------------------------------------


class ConvertIntoTMEMStore(RewritePattern):
    """CanonicalizeConvertFromTMEMStore: a tmem_store of a convert stores the convert's source when that
    layout moves to tensor memory as it is (irkit/layout/tmem.py: the 32x32b message only)."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, TMEMStoreOp) or not isinstance(op.src.owner, ttg.ConvertLayoutOp):
            return
        source = op.src.owner.src
        if not fits_32x32b_message(source.type, op.dst.type):
            return
        op.operands = [source if v is op.src else v for v in op.operands]
        rewriter.notify_op_modified(op)


# -- ttg.memdesc_subslice (3.7) -----------------------------------------------------------------------------


class SubsliceOfSubslice(RewritePattern):
    """MemDescSubsliceOp::fold: subslice(subslice(x, a), b) is subslice(x, a + b)."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, ttg.MemDescSubsliceOp) or not isinstance(op.src.owner, ttg.MemDescSubsliceOp):
            return
        inner = op.src.owner
        offsets = [a + b for a, b in zip(_offsets(inner), _offsets(op), strict=True)]
        op.operands = [inner.src]
        op.properties["offsets"] = DenseArrayBase.from_list(i32, offsets)
        rewriter.notify_op_modified(op)


def _offsets(op: ttg.MemDescSubsliceOp) -> list[int]:
    offsets = op.offsets
    assert isinstance(offsets, DenseArrayBase)  # the op's parser and builders make one
    return [int(v) for v in offsets.get_values()]


# -- tti fp-sanitizer embedding (3.8) ----------------------------------------------------------------------

FPSAN_OPS = (FPSanEmbedOp, FPSanUnembedOp)
VIEW_OPS = (ttg.ConvertLayoutOp, tt.TransOp, tt.ReshapeOp, tt.BroadcastOp, tt.ExpandDimsOp)


class FPSanRoundTrip(RewritePattern):
    """ExperimentalFPSan{Embed,Unembed}Op::fold: embed(unembed x) and unembed(embed x) are x when x has the
    result's type."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, FPSAN_OPS):
            return
        inner = op.val.owner
        other = FPSanUnembedOp if isinstance(op, FPSanEmbedOp) else FPSanEmbedOp
        if isinstance(inner, other) and inner.val.type == op.result.type:
            _forward(rewriter, op, inner.val)


class FPSanThroughView(RewritePattern):
    """PushFPSanThroughViewPattern: a view (convert_layout, trans, reshape, broadcast, expand_dims) of an
    embed/unembed is the embed/unembed of the view of its payload, so that round trips meet and fold."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, VIEW_OPS) or not isinstance(op.operands[0].owner, FPSAN_OPS):
            return
        fpsan = op.operands[0].owner
        result_type, payload_type = op.results[0].type, fpsan.val.type
        if not isinstance(result_type, TensorType) or not isinstance(payload_type, TensorType):
            return
        payload_view_type = TensorType(payload_type.element_type, result_type.get_shape(), result_type.encoding)
        view = type(op).create(operands=[fpsan.val], result_types=[payload_view_type],
                               properties=dict(op.properties), attributes=dict(op.attributes))
        moved = type(fpsan).create(operands=[view.results[0]], result_types=[result_type])
        rewriter.insert(view, InsertPoint.before(op))
        replace_keeping_names(rewriter, op, moved)


# -- barrier fromCTA (3.9) ----------------------------------------------------------------------------------


def _num_ctas(op: Operation) -> int:
    """lookupNumCTAs: the `ttg.num-ctas` of the nearest enclosing module that sets it, else 1."""
    parent = op.parent_op()
    while parent is not None:
        n = module_int(parent, "num-ctas")
        if n is not None:
            return n
        parent = parent.parent_op()
    return 1


class BarrierFromLastCTA(RewritePattern):
    """canonicalizeBarrierFromCTA: `fromCTA` naming the last CTA is the default: the attribute goes."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, (BarrierExpectOp, ArriveBarrierOp)):
            return
        from_cta = op.attributes.get("fromCTA")
        if isinstance(from_cta, IntegerAttr) and from_cta.value.data == _num_ctas(op) - 1:
            del op.attributes["fromCTA"]
            rewriter.notify_op_modified(op)


# (first release, pattern): canonicalize uses those of the input's release
SINCE: tuple[tuple[Release, RewritePattern], ...] = (
    ((3, 4, 0), WarpSpecializeUnusedResults()),
    ((3, 4, 0), WarpSpecializeCaptures()),
    ((3, 5, 0), ExtractSliceOfConcat()),
    ((3, 5, 0), SingleConcat()),
    ((3, 5, 1), ConvertIntoTMEMStore()),  # main's #8353 (October 2025), in the 3.5.1 patch release
    ((3, 7, 0), SubsliceOfSubslice()),
    ((3, 8, 0), FPSanRoundTrip()),
    ((3, 8, 0), FPSanThroughView()),
    ((3, 9, 0), BarrierFromLastCTA()),
)


def patterns_for(release: Release) -> list[RewritePattern]:
    """The patterns of this table that Triton `release` (major, minor, patch) has."""
    return [pattern for since, pattern in SINCE if release >= since]
