"""`coalesce`: Triton's `tritongpu-coalesce` (lib/Dialect/TritonGPU/Transforms/Coalesce.cpp), 3.1 and 3.9 rules.

Every global memory access through a tensor of pointers (tt.load, tt.store, tt.atomic_rmw, tt.atomic_cas,
ttg.async_copy_global_to_local) gets the #blocked layout under which consecutive threads touch consecutive
addresses, each thread as many contiguous elements as the pointers' alignment allows (docs/passes/coalesce.md):

1. order = the dimensions sorted by the pointer's AxisInfo contiguity, largest first (ties keep index
   order);
2. elements per thread along order[0] = min(alignment, contiguity, 128 bits), raised to the largest such
   value among the accesses of the same shape and order in the op's multi-root slice, and capped by
   elements / threads; accesses other than loads (they write) keep at most their own value;
3. the layout = BlockedEncodingAttr::get(shape, sizePerThread, order, numWarps, threadsPerWarp, CTA layout).

The access is then rewritten: every tensor operand (not in shared memory) goes through a
`ttg.convert_layout` to the new layout, the op is re-created with re-encoded result types, and its
results are converted back.  Block pointers (`!tt.ptr<tensor<...>>`) and scalar pointers are left alone.

Triton 3.6 (`RULES_36`) lays out tensor-descriptor loads/stores too; 3.7 on (`RULES_39`) also breaks order ties
row-major, caps atomics to the width their lowering writes, and its AxisInfo knows `tt.reshape`
(docs/passes/coalesce.md).  The version comes from the `version` option, which irkit-opt fills from
`--triton-version` or the kernel's Triton cache JSON.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import prod
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import (
    ArrayAttr,
    DictionaryAttr,
    Float64Type,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    TensorType,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from irkit.analysis.axis_info import (
    AxisInfo,
    AxisInfoAnalysis,
    info_rank,
    pointee_bit_width,
)
from irkit.analysis.axis_info_main import axis_rules
from irkit.analysis.slice import multi_root_slice
from irkit.analysis.triton_versions import is_main
from irkit.diagnostics import PassFailure
from irkit.dialects.encodings import BlockedEncodingAttr, CTALayout
from irkit.dialects.module_attrs import module_int, module_target
from irkit.dialects.tt import (
    RMW_OP,
    AtomicCASOp,
    AtomicRMWOp,
    DescriptorGatherOp,
    DescriptorLoadOp,
    DescriptorReduceOp,
    DescriptorScatterOp,
    DescriptorStoreOp,
    LoadOp,
    StoreOp,
)
from irkit.dialects.ttg import AsyncCopyGlobalToLocalOp, ConvertLayoutOp
from irkit.dialects.types import is_tensor_of_pointers
from irkit.layout import algebra
from irkit.names import hand_over

# -- what the pass looks at ------------------------------------------------------------------------

_PTR_OPERAND: dict[type[Operation], str] = {
    LoadOp: "ptr",
    AtomicRMWOp: "ptr",
    AtomicCASOp: "ptr",
    AsyncCopyGlobalToLocalOp: "src",
    StoreOp: "ptr",
}


def mem_access_ptr(op: Operation) -> SSAValue | None:
    """getMemAccessPtr: the pointer operand of a global memory access, None for other ops."""
    field = _PTR_OPERAND.get(type(op))
    return getattr(op, field) if field is not None else None


def _tensor_ptr(op: Operation) -> tuple[SSAValue, TensorType]:
    """The pointer operand of an access coalesce re-lays (a tensor of pointers), and its type."""
    ptr = mem_access_ptr(op)
    assert ptr is not None and isinstance(ptr.type, TensorType), op
    return ptr, ptr.type


def module_num_warps(module: ModuleOp) -> int:
    n = module_int(module, "num-warps")
    if n is None:
        raise PassFailure(module, "coalesce needs the module attribute ttg.num-warps (or triton_gpu.num-warps)")
    return n


def module_threads_per_warp(module: ModuleOp) -> int:
    """TritonGPUDialect::getThreadsPerWarp: 32 when the module does not say."""
    n = module_int(module, "threads-per-warp")
    return 32 if n is None else n


# -- the layout choice (pure) ----------------------------------------------------------------------


# -- the rules of each Triton version -----------------------------------------------------------------
#
# "3.1": Coalesce.cpp as in Triton 3.1 (docs/triton-passes.md §4), which 3.2-3.5 keep.  "3.6": 3.1's and
# tensor-descriptor loads/stores get a layout too (#8208).  "3.9": the pass of 3.7 on (its AxisInfo: 3.7-3.8's
# table, upstream main's from 3.9.0, `axis_info_main.axis_rules`), which also breaks
# contiguity-order ties row-major, caps atomics to the width their lowering writes (#10059), and whose
# AxisInfo knows tt.reshape and the 2026 add/sub divisibility.  Measured against the real 3.5.1, 3.6.0,
# 3.8.0 and 3.9.0 passes (docs/passes/coalesce.md); 3.7 is not on PyPI and is given 3.8's rules.
RULES_31, RULES_36, RULES_39 = "3.1", "3.6", "3.9"


def coalesce_rules(module: ModuleOp, version: str | None = None) -> str:
    """Which rule set applies: from `version` ("3.1", "3.5.1", "3.8.0", ...), else from the module's
    spelling (`triton_gpu.*` attributes: 3.1; `ttg.*`: the newest, 3.9; the spelling cannot tell 3.3 or
    3.5 from 3.9, so give the version for those)."""
    if version not in (None, "") and is_main(str(version)):
        return RULES_39  # upstream main after 3.9: the newest rules
    if version not in (None, ""):
        parts = str(version).split(".")
        try:
            major_minor = (int(parts[0]), int(parts[1]) if len(parts) > 1 else 0)
        except ValueError:
            raise PassFailure(module, f"coalesce: bad Triton version '{version}'") from None
        if major_minor < (3, 6):
            return RULES_31
        return RULES_36 if major_minor < (3, 7) else RULES_39
    legacy = any(key.startswith("triton_gpu.") for key in module.attributes)
    return RULES_31 if legacy else RULES_39


def arg_sort(values: Sequence[int]) -> tuple[int, ...]:
    """Triton 3.1's argSort: indices by value, largest first; a stable sort, so ties keep index order."""
    return tuple(sorted(range(len(values)), key=lambda i: -values[i]))


def order_from_contiguity(values: Sequence[int], rules: str) -> tuple[int, ...]:
    """The access order: dims by contiguity, largest first.  Ties keep index order in 3.1 (argSort) and
    are row-major, last dim first, in 3.9 (getOrderFromContiguity)."""
    if rules != RULES_39:
        return arg_sort(values)
    last_first = list(range(len(values)))[::-1]  # the stable sort keeps this order among ties
    return tuple(sorted(last_first, key=lambda i: -values[i]))


def element_bit_width(ptr_type: TensorType) -> int:
    """getElementBitWidth of a tensor of pointers: the bits of the pointee."""
    return pointee_bit_width(ptr_type)


def _axis_info(axis: AxisInfoAnalysis, value: SSAValue) -> AxisInfo:
    info = axis.get(value)
    return info if info is not None else AxisInfo.pessimistic(info_rank(value.type))


def _compute_capability(target: str | None) -> int | None:
    if target is None or not target.startswith("cuda:"):
        return None
    try:
        return int(target.split(":", 1)[1])
    except ValueError:
        return None


RMW_FADD = RMW_OP.base + RMW_OP.keywords.index("fadd")  # RMWOp::FADD


def atomic_width_cap(op: Operation, target: str | None) -> int | None:
    """getAtomicWriteElementsPerThreadCap (3.9): the elements per thread an atomic's lowering writes at
    once, when narrower than a 128-bit store: CAS and integer/f64 RMW one; other RMWs on AMD 32 bits; an
    `fadd` on NVIDIA before sm90 one for f32/bf16, two for f16."""
    if isinstance(op, AtomicCASOp):
        return 1
    if not isinstance(op, AtomicRMWOp):
        return None
    elem = op.val.type.element_type if isinstance(op.val.type, TensorType) else op.val.type
    if isinstance(elem, (IntegerType, Float64Type)):
        return 1
    if target is not None and target.startswith("hip:"):
        return max(1, 32 // algebra.elem_bits(op.val.type))  # AMD: at most 32 bits per atomic (#10093)
    kind = op.atomic_rmw_op
    if not isinstance(kind, IntegerAttr) or kind.value.data != RMW_FADD:
        return None
    capability = _compute_capability(target)
    if capability is None or capability >= 90:
        return None
    bits = algebra.elem_bits(op.val.type)
    if bits == 32 or type(elem).__name__ == "BFloat16Type":
        return 1
    if bits == 16:
        return 2
    return None


def num_elements_per_thread(
    op: Operation, order: Sequence[int], axis: AxisInfoAnalysis, rules: str = RULES_31, target: str | None = None
) -> int:
    """getNumElementsPerThread: how many elements along order[0] one thread can access as one vector —
    bounded by the pointer alignment (divisibility is in bytes), the contiguity (at most the extent
    per CTA), and 128 bits (3.9: and the width an atomic's lowering writes)."""
    ptr, ptr_type = _tensor_ptr(op)
    shape = algebra.shape_per_cta(ptr_type.encoding, ptr_type.get_shape())
    info = _axis_info(axis, ptr)
    bits = element_bit_width(ptr_type)
    elem_bytes = max(bits // 8, 1)
    max_multiple = max(info.divisibility[order[0]] // elem_bytes, 1)
    max_contig = min(info.contiguity[order[0]], shape[order[0]])
    alignment = min(max_multiple, max_contig)
    widest = 128 // bits
    if rules == RULES_39:
        cap = atomic_width_cap(op, target)
        if cap is not None:
            widest = min(widest, cap)
    return min(alignment, widest)


def same_order_accesses(
    op: Operation, order: Sequence[int], axis: AxisInfoAnalysis, rules: str = RULES_31
) -> list[Operation]:
    """The memory accesses whose vector width `op` shares: `op`, and (if its pointer is defined by an op)
    every access in its multi-root slice whose pointer is a tensor of the same shape with the same
    contiguity order."""
    ptr, ptr_type = _tensor_ptr(op)
    found = [op]
    if ptr.owner is None or not isinstance(ptr.owner, Operation):
        return found
    shape = tuple(ptr_type.get_shape())
    for other in multi_root_slice(op):
        if other is op:
            continue
        other_ptr = mem_access_ptr(other)
        if other_ptr is None or not isinstance(other_ptr.type, TensorType):
            continue
        if tuple(other_ptr.type.get_shape()) != shape:
            continue
        if order_from_contiguity(_axis_info(axis, other_ptr).contiguity, rules) == tuple(order):
            found.append(other)
    return found


def _cta_order(enc: Attribute | None) -> tuple[int, ...] | None:
    if enc is None:
        return None
    if algebra.is_slice(enc):
        parent = _cta_order(algebra.slice_parent(enc))
        return None if parent is None else algebra.erase_order(parent, algebra.slice_dim(enc))
    if algebra.is_dot_operand(enc):
        return _cta_order(enc.parent)
    order = algebra.cta_layout(enc).cta_order
    return tuple(order) if order is not None else None


def _cta_fields(enc: Attribute | None) -> CTALayout | None:
    """getCTALayout of the old encoding, when it is written out (multi-CTA modules); None otherwise, and
    the new layout then has the default one-CTA layout too."""
    if enc is None or not algebra.is_distributed(enc) or _cta_order(enc) is None:
        return None
    return CTALayout(
        ctas_per_cga=algebra.ctas_per_cga(enc),
        cta_split_num=algebra.cta_split_num(enc),
        cta_order=_cta_order(enc),
        cga_layout=None,
    )


def coalesced_layout(
    op: Operation,
    axis: AxisInfoAnalysis,
    num_warps: int,
    threads_per_warp: int,
    rules: str = RULES_31,
    target: str | None = None,
) -> BlockedEncodingAttr:
    """setCoalescedEncoding / buildCoalescedEncoding: the #blocked layout Triton gives the pointer of `op`."""
    ptr, ptr_type = _tensor_ptr(op)
    order = order_from_contiguity(_axis_info(axis, ptr).contiguity, rules)
    shape = tuple(ptr_type.get_shape())
    num_elems = prod(algebra.shape_per_cta(ptr_type.encoding, shape))
    num_threads = num_warps * threads_per_warp

    per_thread = max(
        num_elements_per_thread(o, order, axis, rules, target) for o in same_order_accesses(op, order, axis, rules)
    )
    per_thread = min(per_thread, max(num_elems // num_threads, 1))
    if not isinstance(op, LoadOp):
        # writes stay within one 128-bit store per thread, or the warp's writes would have gaps
        per_thread = min(per_thread, num_elements_per_thread(op, order, axis, rules, target))

    size_per_thread = [1] * len(shape)
    size_per_thread[order[0]] = per_thread
    return algebra.blocked_layout(
        shape, size_per_thread, order, num_warps, threads_per_warp, _cta_fields(ptr_type.encoding)
    )


DESCRIPTOR_LOADS = (DescriptorLoadOp, DescriptorGatherOp)  # DescriptorOpInterface with one result
DESCRIPTOR_STORES = (DescriptorStoreOp, DescriptorReduceOp, DescriptorScatterOp)  # DescriptorStoreLikeOpInterface


def descriptor_tensor(op: Operation) -> TensorType | None:
    """The tensor a descriptor op moves: the loaded result, or the stored `src`."""
    if isinstance(op, DESCRIPTOR_LOADS) and len(op.results) == 1:
        return op.results[0].type if isinstance(op.results[0].type, TensorType) else None
    if isinstance(op, DESCRIPTOR_STORES):
        return op.src.type if isinstance(op.src.type, TensorType) else None
    return None


def descriptor_layout(t: TensorType, num_warps: int, threads_per_warp: int) -> BlockedEncodingAttr:
    """pickDescriptorLoadStoreLayout (3.6 on): TMA needs no L1 coalescing, but the register layout still
    decides the shared-memory accesses: row-major, as many elements per thread along the last dim as one
    128-bit vector holds (at most the elements per thread)."""
    shape = tuple(t.get_shape())
    num_elems = prod(algebra.shape_per_cta(t.encoding, shape))
    per_thread = max(num_elems // (num_warps * threads_per_warp), 1)
    size_per_thread = [1] * len(shape)
    size_per_thread[-1] = min(per_thread, 128 // algebra.elem_bits(t))
    order = tuple(reversed(range(len(shape))))
    return algebra.blocked_layout(shape, size_per_thread, order, num_warps, threads_per_warp, _cta_fields(t.encoding))


# -- the rewrite -----------------------------------------------------------------------------------


def _with_encoding(t: TensorType, encoding: Attribute) -> TensorType:
    return TensorType(t.element_type, t.get_shape(), encoding)


def _convert(value: SSAValue, new_type: Attribute, before: Operation) -> SSAValue:
    cvt = ConvertLayoutOp(value, new_type)
    cvt.location = before.location
    Rewriter.insert_op(cvt, InsertPoint.before(before))
    return cvt.results[0]


def coalesce_op(op: Operation, layout: Attribute) -> Operation:
    """coalesceOp: re-create `op` with its tensor operands converted to `layout` and its results
    re-encoded (the async copy's token excepted), converting the results back for the old users."""
    operands = []
    # the row offsets of a descriptor gather/scatter keep their 1-D layout (skipOperand)
    keep = op.x_offsets if isinstance(op, (DescriptorGatherOp, DescriptorScatterOp)) else None
    for v in op.operands:
        t = v.type
        if v is not keep and isinstance(t, TensorType) and not algebra.is_shared(t.encoding):
            operands.append(_convert(v, _with_encoding(t, layout), op))
        else:
            operands.append(v)
    is_async_copy = isinstance(op, AsyncCopyGlobalToLocalOp)
    result_types = [
        r.type if is_async_copy or not isinstance(r.type, TensorType) else _with_encoding(r.type, layout)
        for r in op.results
    ]
    new_op = type(op).create(
        operands=operands,
        result_types=result_types,
        properties=dict(op.properties),
        attributes=dict(op.attributes),
    )
    new_op.location = getattr(op, "location", None)
    Rewriter.insert_op(new_op, InsertPoint.before(op))
    for old, new in zip(op.results, new_op.results):
        value: SSAValue = new
        if new.type != old.type:
            value = _convert(new, old.type, op)
        hand_over(old, value)
    Rewriter.erase_op(op)
    return new_op


def already_in_layout(op: Operation, layout: Attribute) -> bool:
    """True when re-creating `op` in `layout` would only add identity conversions."""
    values = [*op.operands, *op.results]
    return all(
        v.type.encoding == layout
        for v in values
        if isinstance(v.type, TensorType) and not algebra.is_shared(v.type.encoding)
    )


def _write_callee_hints(axis: AxisInfoAnalysis) -> None:
    """What ModuleAxisInfoAnalysis does to the IR: the arguments of called functions get the
    tt.contiguity / tt.divisibility / tt.constancy their call sites agree on (i64 attributes)."""
    for func, per_arg in axis.callee_arg_hints.items():
        n_args = len(func.regions[0].first_block.args) if func.regions[0].first_block else 0
        old = func.properties.get("arg_attrs")
        dicts = [dict(d.data) for d in old.data] if isinstance(old, ArrayAttr) else [{} for _ in range(n_args)]
        for index, hints in per_arg.items():
            if index < len(dicts):
                for name, value in hints.items():
                    dicts[index][name] = IntegerAttr(value, IntegerType(64))
        func.properties["arg_attrs"] = ArrayAttr([DictionaryAttr(d) for d in dicts])


def _is_candidate(op: Operation, rules: str) -> bool:
    """An access the pass lays out: through a tensor of pointers, or (3.9) a tensor descriptor."""
    ptr = mem_access_ptr(op)
    if ptr is not None and is_tensor_of_pointers(ptr.type):
        return True
    return rules != RULES_31 and descriptor_tensor(op) is not None


@dataclass(frozen=True)
class CoalescePass(ModulePass):
    """Give global loads/stores/atomics the #blocked layout that coalesces them (tritongpu-coalesce, Triton 3.1 / 3.9).

    Options:
      skip-unchanged: leave an access alone when it already has the chosen layout (Triton wraps it in
                      identity ttg.convert_layouts, which canonicalization later removes).
      version:        the Triton whose rules apply: 3.1 (up to 3.5), 3.6 (tensor-descriptor layouts) or
                      3.9 (3.7 and newer: also row-major ties, atomic width caps); irkit-opt fills it from
                      --triton-version or the Triton cache JSON; else from the module's spelling
                      (triton_gpu.* is 3.1, ttg.* is 3.9).
    """

    name = "coalesce"
    upstream_names: ClassVar[dict[str, str]] = {"tritongpu-coalesce": ""}

    skip_unchanged: bool = False
    version: str = ""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        rules = coalesce_rules(op, self.version)
        if not any(_is_candidate(access, rules) for access in op.walk()):
            return  # Triton reads num-warps only for an access it lays out: a module without one is fine
        num_warps = module_num_warps(op)
        threads_per_warp = module_threads_per_warp(op)
        try:
            axis = AxisInfoAnalysis(op, axis_rules(self.version or rules))
        except ValueError as e:  # a pointee type without a bit width
            raise PassFailure(op, f"coalesce: {e}") from e
        _write_callee_hints(axis)

        target = module_target(op)
        layouts: list[tuple[Operation, BlockedEncodingAttr]] = []
        for access in op.walk():
            ptr = mem_access_ptr(access)
            if ptr is None or not is_tensor_of_pointers(ptr.type):
                continue
            try:
                layouts.append((access, coalesced_layout(access, axis, num_warps, threads_per_warp, rules, target)))
            except ValueError as e:
                raise PassFailure(access, f"coalesce: {e}") from e
        if rules != RULES_31:  # then the descriptor loads/stores, in walk order
            for access in op.walk():
                t = descriptor_tensor(access)
                if t is not None:
                    layouts.append((access, descriptor_layout(t, num_warps, threads_per_warp)))

        for access, layout in layouts:
            if self.skip_unchanged and already_in_layout(access, layout):
                continue
            coalesce_op(access, layout)
