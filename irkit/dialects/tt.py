"""The `tt` dialect (Triton IR), Triton 3.1 through 3.9.

Formats are the `assemblyFormat`s of Triton's TritonOps.td; ops whose syntax
is hand-written in C++ (tt.func, tt.call) have theirs in
`irkit.frontend.custom_syntax`, and tt.reduce/tt.scan print in generic form as
Triton does.
"""

from __future__ import annotations

from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseArrayBase,
    FunctionType,
    IntegerAttr,
    IntegerType,
    NoneAttr,
    StringAttr,
    TensorType,
)
from xdsl.ir import Attribute, Dialect, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    SameVariadicOperandSize,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_region_def,
    var_result_def,
)
from xdsl.traits import (
    HasParent,
    IsolatedFromAbove,
    IsTerminator,
    Pure,
    SymbolOpInterface,
)
from xdsl.utils.exceptions import VerifyException

from irkit.dialects import op_rules
from irkit.dialects.base import TritonOp, irkit_op, same_as, with_element
from irkit.dialects.encodings import SliceEncodingAttr
from irkit.dialects.types import PointerType
from irkit.frontend.opformat import EnumStyle, IntStyle, StringStyle, UnitStyle, ValuedEnumStyle

CACHE = EnumStyle(("none", "ca", "cg", "wb", "cs", "wt", "cv"), base=1)
EVICT = EnumStyle(("evict_normal", "evict_first", "evict_last"), base=1)
PROGRAM_AXIS = EnumStyle(("x", "y", "z"))
# 3.1/3.3 know tf32..ieee (0..2); 3.9 adds bf16x3 = 3, bf16x6 = 4 (TritonAttrDefs.td; checked with the real parsers)
INPUT_PRECISION = EnumStyle(("tf32", "tf32x3", "ieee", "bf16x3", "bf16x6"))
RMW_OP = EnumStyle(("and", "or", "xor", "add", "fadd", "max", "min", "umax", "umin", "exch"), base=1)
MEM_SEMANTIC = EnumStyle(("relaxed", "acquire", "release", "acq_rel"), base=1)
MEM_SCOPE = EnumStyle(("gpu", "cta", "sys"), base=1)
ROUNDING = EnumStyle(("rtz", "rtne"))
PROPAGATE_NAN = ValuedEnumStyle((("none", 0), ("all", 0xFFFF)))
SCALE_DOT_ELEM = EnumStyle(("e4m3", "e5m2", "e2m3", "e3m2", "e2m1", "bf16", "fp16"))
DESCRIPTOR_REDUCE_KIND = EnumStyle(("add", "min", "max", "inc", "dec", "and", "or", "xor"), base=1)

_UNARY_CAST = "$src attr-dict `:` type($src) `->` type($result)"


def pointee_value_type(ptr_type: Attribute) -> Attribute:
    """What a load through `ptr_type` yields."""
    if isinstance(ptr_type, PointerType):
        return ptr_type.pointee  # scalar pointer or block pointer
    if isinstance(ptr_type, TensorType) and isinstance(ptr_type.element_type, PointerType):
        return with_element(ptr_type, ptr_type.element_type.pointee)
    return ptr_type


def expand_dims_type(src: TensorType, axis: int) -> TensorType:
    """The result type of `tt.expand_dims` (Triton's inferReturnTypes): a 1 inserted at `axis`; a `#slice`
    along `axis` becomes its parent."""
    shape = list(src.get_shape())
    shape.insert(axis, 1)
    enc = src.encoding
    if isinstance(enc, SliceEncodingAttr):
        enc = enc.parent
    return TensorType(src.element_type, shape, enc)


def segment_sizes(*sizes: int) -> DenseArrayBase:
    """The `operandSegmentSizes` property of an op with optional operands."""
    return DenseArrayBase.from_list(IntegerType(32), list(sizes))


# -- functions -----------------------------------------------------------------------


@irkit_op
class FuncOp(TritonOp):
    name = "tt.func"
    body = region_def()
    # typed as Triton's ODS types them (SymbolNameAttr, TypeAttrOf<FunctionType>, StrAttr, DictArrayAttr)
    sym_name = prop_def(StringAttr)
    function_type = prop_def(FunctionType)
    sym_visibility = opt_prop_def(StringAttr)
    arg_attrs = opt_prop_def(ArrayAttr)
    res_attrs = opt_prop_def(ArrayAttr)
    traits = traits_def(SymbolOpInterface(), IsolatedFromAbove())


@irkit_op
class ReturnOp(TritonOp):
    name = "tt.return"
    srcs = var_operand_def()
    traits = traits_def(IsTerminator(), Pure())
    FORMAT = "attr-dict ($srcs^ `:` type($srcs))?"


@irkit_op
class CallOp(TritonOp):
    name = "tt.call"
    callee = prop_def()
    args = var_operand_def()
    res = var_result_def()


# -- memory --------------------------------------------------------------------------


@irkit_op
class LoadOp(TritonOp):
    name = "tt.load"
    ptr = operand_def()
    mask = opt_operand_def()
    other = opt_operand_def()
    result = result_def()
    boundaryCheck = opt_prop_def()
    padding = opt_prop_def()
    cache = opt_prop_def()
    evict = opt_prop_def()
    isVolatile = opt_prop_def()
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    FORMAT = (
        "$ptr (`,` $mask^)? (`,` $other^)? oilist(`cacheModifier` `=` $cache | "
        "`evictionPolicy` `=` $evict) attr-dict `:` type($ptr)"
    )
    ATTR_STYLES = {"cache": CACHE, "evict": EVICT}

    def __init__(
        self,
        ptr: SSAValue,
        mask: SSAValue | None = None,
        other: SSAValue | None = None,
        *,
        result_type: Attribute | None = None,
        properties: dict[str, Attribute] | None = None,
    ):
        """`tt.load %ptr[, %mask[, %other]]`; the result is what `ptr` points to unless given
        (a block pointer's tensor); `properties`: cache, evict, isVolatile, boundaryCheck, padding."""
        props = dict(properties or {})
        props["operandSegmentSizes"] = segment_sizes(1, int(mask is not None), int(other is not None))
        super().__init__(
            operands=[ptr, [mask] if mask is not None else [], [other] if other is not None else []],
            result_types=[result_type if result_type is not None else pointee_value_type(ptr.type)],
            properties=props,
        )

    @classmethod
    def infer_types(cls, types):
        types["result"] = [pointee_value_type(types["ptr"][0])]

    def verify_(self) -> None:
        pointee = op_rules.check_pointer(self.ptr.type)
        if self.mask is not None:
            op_rules.check_mask(self.mask.type, self.ptr.type, 1, "ptr")
        if self.other is not None:
            op_rules.check_matches(self.other.type, pointee, "other matches ptr type")
        op_rules.check_matches(self.result.type, pointee, "result matches ptr type")


@irkit_op
class StoreOp(TritonOp):
    name = "tt.store"
    ptr = operand_def()
    value = operand_def()
    mask = opt_operand_def()
    boundaryCheck = opt_prop_def()
    cache = opt_prop_def()
    evict = opt_prop_def()
    FORMAT = (
        "$ptr `,` $value (`,` $mask^)? oilist(`cacheModifier` `=` $cache | "
        "`evictionPolicy` `=` $evict) attr-dict `:` type($ptr)"
    )
    ATTR_STYLES = {"cache": CACHE, "evict": EVICT}

    def __init__(
        self, ptr: SSAValue, value: SSAValue, mask: SSAValue | None = None, *,
        properties: dict[str, Attribute] | None = None,
    ):
        """`tt.store %ptr, %value[, %mask]`; `properties`: cache, evict, boundaryCheck."""
        super().__init__(operands=[ptr, value, [mask] if mask is not None else []], properties=dict(properties or {}))

    def verify_(self) -> None:
        pointee = op_rules.check_pointer(self.ptr.type)
        op_rules.check_matches(self.value.type, pointee, "value type matches ptr type")
        if self.mask is not None:
            op_rules.check_mask(self.mask.type, self.ptr.type, 2, "ptr")


@irkit_op
class AtomicRMWOp(TritonOp):
    name = "tt.atomic_rmw"
    ptr = operand_def()
    val = operand_def()
    mask = opt_operand_def()
    result = result_def()
    atomic_rmw_op = prop_def()
    sem = prop_def()
    scope = prop_def()
    FORMAT = "$atomic_rmw_op `,` $sem `,` $scope `,` $ptr `,` $val (`,` $mask^)? attr-dict `:` functional-type(operands, $result)"
    ATTR_STYLES = {"atomic_rmw_op": RMW_OP, "sem": MEM_SEMANTIC, "scope": MEM_SCOPE}

    def verify_(self) -> None:
        pointee = op_rules.check_pointer(self.ptr.type)
        op_rules.check_matches(self.val.type, pointee, "ptr type matches value type")
        if self.mask is not None:
            op_rules.check_mask(self.mask.type, self.val.type, 2, "value")
        op_rules.check_matches(self.result.type, self.val.type, "result type matches value type")


@irkit_op
class AtomicCASOp(TritonOp):
    name = "tt.atomic_cas"
    ptr = operand_def()
    cmp = operand_def()
    val = operand_def()
    result = result_def()
    sem = prop_def()
    scope = prop_def()
    FORMAT = "$sem `,` $scope `,` $ptr `,` $cmp `,` $val attr-dict `:` functional-type(operands, $result)"
    ATTR_STYLES = {"sem": MEM_SEMANTIC, "scope": MEM_SCOPE}

    def verify_(self) -> None:
        pointee = op_rules.check_pointer(self.ptr.type)
        op_rules.check_matches(self.cmp.type, pointee, "ptr type matches cmp type")
        op_rules.check_matches(self.val.type, pointee, "ptr type matches value type")
        op_rules.check_matches(self.result.type, self.val.type, "result type matches value type")


@irkit_op
class MakeTensorPtrOp(TritonOp):
    name = "tt.make_tensor_ptr"
    base = operand_def()
    shape = var_operand_def()
    strides = var_operand_def()
    offsets = var_operand_def()
    result = result_def()
    order = prop_def()
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(Pure())
    FORMAT = (
        "$base `,` `[` $shape `]` `,` `[` $strides `]` `,` `[` $offsets `]` "
        "attr-dict `:` type($result)"
    )
    STRIPPED = {"result": "tt.ptr"}


@irkit_op
class AdvanceOp(TritonOp):
    name = "tt.advance"
    ptr = operand_def()
    offsets = var_operand_def()
    result = result_def()
    traits = traits_def(Pure())
    FORMAT = "$ptr `,` `[` $offsets `]` attr-dict `:` type($result)"
    STRIPPED = {"result": "tt.ptr"}


@irkit_op
class MakeTensorDescOp(TritonOp):
    name = "tt.make_tensor_descriptor"
    base = operand_def()
    shape = var_operand_def()
    strides = var_operand_def()
    result = result_def()
    irdl_options = (SameVariadicOperandSize(),)  # shape and strides have the rank's length
    FORMAT = "$base `,` `[` $shape `]` `,` `[` $strides `]` attr-dict `:` type($base) `,` type($result)"
    STRIPPED = {"base": "tt.ptr", "result": "tt.tensordesc"}


@irkit_op
class DescriptorLoadOp(TritonOp):
    name = "tt.descriptor_load"
    desc = operand_def()
    indices = var_operand_def()
    result = result_def()
    cache = opt_prop_def()
    evict = opt_prop_def()
    FORMAT = (
        "$desc `[` $indices `]` oilist(`cacheModifier` `=` $cache | `evictionPolicy` `=` $evict) "
        "attr-dict `:` qualified(type($desc)) `->` type($result)"
    )
    ATTR_STYLES = {"cache": CACHE, "evict": EVICT}


@irkit_op
class DescriptorStoreOp(TritonOp):
    name = "tt.descriptor_store"
    desc = operand_def()
    src = operand_def()
    indices = var_operand_def()
    FORMAT = "$desc `[` $indices `]` `,` $src attr-dict `:` qualified(type($desc)) `,` type($src)"


@irkit_op
class DescriptorGatherOp(TritonOp):
    name = "tt.descriptor_gather"
    desc = operand_def()
    x_offsets = operand_def()
    y_offset = operand_def()
    result = result_def()
    FORMAT = "$desc `[` $x_offsets `,` $y_offset `]` attr-dict `:` functional-type(operands, results)"


@irkit_op
class DescriptorScatterOp(TritonOp):
    name = "tt.descriptor_scatter"
    desc = operand_def()
    x_offsets = operand_def()
    y_offset = operand_def()
    src = operand_def()
    FORMAT = "$desc `[` $x_offsets `,` $y_offset `]` `,` $src attr-dict `:` type(operands)"


@irkit_op
class ExperimentalDescriptorLoadOp(TritonOp):
    name = "tt.experimental_descriptor_load"
    desc = operand_def()
    indices = var_operand_def()
    result = result_def()
    cache = opt_prop_def()
    evict = opt_prop_def()
    FORMAT = (
        "$desc `[` $indices `]` oilist(`cacheModifier` `=` $cache | `evictionPolicy` `=` $evict) "
        "attr-dict `:` qualified(type($desc)) `->` type($result)"
    )
    ATTR_STYLES = {"cache": CACHE, "evict": EVICT}


@irkit_op
class ExperimentalDescriptorStoreOp(TritonOp):
    name = "tt.experimental_descriptor_store"
    desc = operand_def()
    src = operand_def()
    indices = var_operand_def()
    FORMAT = "$desc `[` $indices `]` `,` $src attr-dict `:` qualified(type($desc)) `,` type($src)"


@irkit_op
class DescriptorReduceOp(TritonOp):
    """TMA reduction into global memory through a descriptor (3.9)."""

    name = "tt.descriptor_reduce"
    desc = operand_def()
    src = operand_def()
    indices = var_operand_def()
    kind = prop_def()
    FORMAT = "$kind `,` $desc `[` $indices `]` `,` $src attr-dict `:` qualified(type($desc)) `,` type($src)"
    ATTR_STYLES = {"kind": DESCRIPTOR_REDUCE_KIND}


@irkit_op
class ExperimentalTensormapCreateOp(TritonOp):
    """Triton 3.3's device-side TMA descriptor creation (ttng.tensormap_create from 3.4 on)."""

    name = "tt.experimental_tensormap_create"
    desc_ptr = operand_def()
    global_address = operand_def()
    box_dim = var_operand_def()
    global_dim = var_operand_def()
    global_stride = var_operand_def()
    element_stride = var_operand_def()
    elem_type = prop_def()
    interleave_layout = prop_def()
    swizzle_mode = prop_def()
    fill_mode = prop_def()
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    FORMAT = (
        "$desc_ptr `,` $global_address `,` `[` $box_dim `]` `,` `[` $global_dim `]` `,` "
        "`[` $global_stride `]` `,` `[` $element_stride `]` attr-dict `:` functional-type(operands, results)"
    )


@irkit_op
class ExperimentalTensormapFenceproxyAcquireOp(TritonOp):
    name = "tt.experimental_tensormap_fenceproxy_acquire"
    desc_ptr = operand_def()
    FORMAT = "$desc_ptr attr-dict `:` qualified(type($desc_ptr))"


# -- atomics with explicit ordering, grid dependencies (3.9) ----------------------------------------


@irkit_op
class AtomicLoadOp(TritonOp):
    name = "tt.atomic_load"
    ptr = operand_def()
    mask = opt_operand_def()
    result = result_def()
    sem = prop_def()
    scope = prop_def()
    FORMAT = "$sem `,` $scope `,` $ptr (`,` $mask^)? attr-dict `:` functional-type(operands, $result)"
    ATTR_STYLES = {"sem": MEM_SEMANTIC, "scope": MEM_SCOPE}


@irkit_op
class AtomicStoreOp(TritonOp):
    name = "tt.atomic_store"
    ptr = operand_def()
    value = operand_def()
    mask = opt_operand_def()
    sem = prop_def()
    scope = prop_def()
    FORMAT = "$sem `,` $scope `,` $ptr `,` $value (`,` $mask^)? attr-dict `:` type($ptr)"
    ATTR_STYLES = {"sem": MEM_SEMANTIC, "scope": MEM_SCOPE}


@irkit_op
class AtomicPollOp(TritonOp):
    name = "tt.atomic_poll"
    ptr = operand_def()
    expected = operand_def()
    timeout = opt_operand_def()
    result = result_def()
    sem = prop_def()
    scope = prop_def()
    FORMAT = (
        "$sem `,` $scope `,` $ptr `,` $expected (`timeout` $timeout^)? attr-dict `:` qualified(type($ptr)) `,` "
        "type($expected) `->` type($result)"
    )
    ATTR_STYLES = {"sem": MEM_SEMANTIC, "scope": MEM_SCOPE}


@irkit_op
class GridDependencyWaitOp(TritonOp):
    name = "tt.grid_dependency_wait"
    FORMAT = "attr-dict"


@irkit_op
class GridDependencyLaunchDependentsOp(TritonOp):
    name = "tt.grid_dependency_launch_dependents"
    FORMAT = "attr-dict"


# -- shape and index arithmetic -----------------------------------------------------


@irkit_op
class SplatOp(TritonOp):
    name = "tt.splat"
    src = operand_def()
    result = result_def(TensorType)  # TT_Tensor
    traits = traits_def(Pure())
    FORMAT = _UNARY_CAST

    def __init__(self, src: SSAValue, result_type: TensorType):
        """`src` copied into every element of a tensor of type `result_type`."""
        super().__init__(operands=[src], result_types=[result_type])

    def verify_(self) -> None:
        t = self.result.type
        src = self.src.type
        # a rank-0 tensor splats like its element (Triton's ODS: the element types match)
        element = src.element_type if isinstance(src, TensorType) and not src.get_shape() else src
        if not isinstance(t, TensorType) or t.element_type != element:
            raise VerifyException(f"result must be a tensor of {element}, got {t}")


@irkit_op
class UnsplatOp(TritonOp):
    name = "tt.unsplat"
    src = operand_def()
    result = result_def()
    traits = traits_def(Pure())
    FORMAT = "$src attr-dict `:` type($src)"

    @classmethod
    def infer_types(cls, types):
        src = types["src"][0]
        types["result"] = [src.element_type if isinstance(src, TensorType) else src]


@irkit_op
class BroadcastOp(TritonOp):
    name = "tt.broadcast"
    src = operand_def(TensorType)  # TT_Tensor
    result = result_def(TensorType)
    traits = traits_def(Pure())
    FORMAT = _UNARY_CAST

    def __init__(self, src: SSAValue, result_type: TensorType):
        """`src` (a tensor with 1s in the broadcast dimensions) repeated to `result_type`'s shape."""
        super().__init__(operands=[src], result_types=[result_type])

    def verify_(self) -> None:
        s, r = self.src.type, self.result.type
        if not isinstance(s, TensorType) or not isinstance(r, TensorType) or s.element_type != r.element_type:
            raise VerifyException(f"operand and result must be tensors of one element type, got {s} -> {r}")
        src, res = s.get_shape(), r.get_shape()
        if len(src) != len(res) or any(a != 1 and a != b for a, b in zip(src, res)):
            raise VerifyException(f"cannot broadcast shape {list(src)} to {list(res)}")


@irkit_op
class ExpandDimsOp(TritonOp):
    name = "tt.expand_dims"
    src = operand_def(TensorType)  # TT_Tensor, I32Attr:$axis
    result = result_def(TensorType)
    axis = prop_def(IntegerAttr)
    traits = traits_def(Pure())
    FORMAT = _UNARY_CAST

    def __init__(self, src: SSAValue, axis: int):
        """`src` with a dimension of size 1 inserted at `axis`; the result type is inferred."""
        super().__init__(
            operands=[src], result_types=[expand_dims_type(src.type, axis)], properties={"axis": IntegerAttr(axis, 32)}
        )

    def verify_(self) -> None:
        s, r = self.src.type, self.result.type
        if not isinstance(s, TensorType) or not isinstance(r, TensorType) or s.element_type != r.element_type:
            raise VerifyException(f"operand and result must be tensors of one element type, got {s} -> {r}")
        shape = list(s.get_shape())
        axis = self.axis.value.data if isinstance(self.axis, IntegerAttr) else None
        if axis is None or not 0 <= axis <= len(shape):
            raise VerifyException(f"axis {axis} out of bounds for operand rank {len(shape)}")
        if list(r.get_shape()) != shape[:axis] + [1] + shape[axis:]:
            raise VerifyException(f"result shape {list(r.get_shape())} is not {shape} with a 1 at axis {axis}")


@irkit_op
class MakeRangeOp(TritonOp):
    name = "tt.make_range"
    result = result_def(TensorType)  # I32Tensor, I32Attr:$start, I32Attr:$end
    start = prop_def(IntegerAttr)
    end = prop_def(IntegerAttr)
    traits = traits_def(Pure())
    FORMAT = "attr-dict `:` type($result)"

    def __init__(self, start: int, end: int, encoding: Attribute = NoneAttr()):
        """The i32 tensor [start, end), laid out by `encoding` (none on TTIR)."""
        i32 = IntegerType(32)
        super().__init__(
            result_types=[TensorType(i32, [end - start], encoding)],
            properties={"start": IntegerAttr(start, i32), "end": IntegerAttr(end, i32)},
        )

    def verify_(self) -> None:
        i32 = IntegerType(32)
        if not all(isinstance(a, IntegerAttr) and a.type == i32 for a in (self.start, self.end)):
            raise VerifyException("'start' and 'end' must be 32-bit signless integer attributes")
        start, end = self.start.value.data, self.end.value.data
        t = self.result.type
        if end <= start:
            raise VerifyException(f"end {end} must be greater than start {start}")
        if not isinstance(t, TensorType) or t.element_type != i32 or list(t.get_shape()) != [end - start]:
            raise VerifyException(f"result must be a 1-D tensor of {end - start} i32, got {t}")


@irkit_op
class AddPtrOp(TritonOp):
    name = "tt.addptr"
    ptr = operand_def()
    offset = operand_def()
    result = result_def()
    traits = traits_def(Pure())

    def __init__(self, ptr: SSAValue, offset: SSAValue):
        """`ptr` advanced by `offset` elements; the result has the type of `ptr`."""
        super().__init__(operands=[ptr, offset], result_types=[ptr.type])
    FORMAT = "$ptr `,` $offset attr-dict `:` type($result) `,` type($offset)"


@irkit_op
class ReshapeOp(TritonOp):
    name = "tt.reshape"
    src = operand_def()
    result = result_def()
    allow_reorder = opt_prop_def()
    efficient_layout = opt_prop_def()
    traits = traits_def(Pure())
    FORMAT = (
        "$src (`allow_reorder` $allow_reorder^)? (`efficient_layout` $efficient_layout^)? "
        "attr-dict `:` type($src) `->` type($result)"
    )
    FORMAT_LEGACY = _UNARY_CAST
    ATTR_STYLES = {"allow_reorder": UnitStyle(), "efficient_layout": UnitStyle()}


@irkit_op
class TransOp(TritonOp):
    name = "tt.trans"
    src = operand_def()
    result = result_def()
    order = prop_def()
    traits = traits_def(Pure())
    FORMAT = _UNARY_CAST


@irkit_op
class JoinOp(TritonOp):
    name = "tt.join"
    lhs = operand_def()
    rhs = operand_def()
    result = result_def()
    traits = traits_def(Pure())
    FORMAT = "$lhs `,` $rhs attr-dict `:` type($lhs) `->` type($result)"


@irkit_op
class SplitOp(TritonOp):
    name = "tt.split"
    src = operand_def()
    outLHS = result_def()
    outRHS = result_def()
    traits = traits_def(Pure())
    FORMAT = "$src attr-dict `:` type($src) `->` type($outLHS)"

    @classmethod
    def infer_types(cls, types):
        same_as(types, "outRHS", "outLHS")


@irkit_op
class CatOp(TritonOp):
    name = "tt.cat"
    lhs = operand_def()
    rhs = operand_def()
    result = result_def()
    traits = traits_def(Pure())
    FORMAT = "$lhs `,` $rhs attr-dict `:` type($lhs) `->` type($result)"


@irkit_op
class GatherOp(TritonOp):
    name = "tt.gather"
    src = operand_def()
    indices = operand_def()
    result = result_def()
    axis = prop_def()
    efficient_layout = opt_prop_def()
    traits = traits_def(Pure())
    FORMAT = "$src `[` $indices `]` attr-dict `:` functional-type(operands, results)"


@irkit_op
class HistogramOp(TritonOp):
    name = "tt.histogram"
    src = operand_def()
    mask = opt_operand_def()
    result = result_def()
    traits = traits_def(Pure())
    FORMAT = "$src (`,` $mask^)? attr-dict `:` type($src) `->` type($result)"


@irkit_op
class GetProgramIdOp(TritonOp):
    name = "tt.get_program_id"
    result = result_def()
    axis = prop_def()
    traits = traits_def(Pure())
    FORMAT = "$axis attr-dict `:` type($result)"
    ATTR_STYLES = {"axis": PROGRAM_AXIS}


@irkit_op
class GetNumProgramsOp(TritonOp):
    name = "tt.get_num_programs"
    result = result_def()
    axis = prop_def()
    traits = traits_def(Pure())
    FORMAT = "$axis attr-dict `:` type($result)"
    ATTR_STYLES = {"axis": PROGRAM_AXIS}


# -- casts and math -------------------------------------------------------------------


@irkit_op
class FpToFpOp(TritonOp):
    name = "tt.fp_to_fp"
    src = operand_def()
    result = result_def()
    rounding = opt_prop_def()
    traits = traits_def(Pure())
    FORMAT = "$src attr-dict (`,` `rounding` `=` $rounding^)? `:` type($src) `->` type($result)"
    ATTR_STYLES = {"rounding": ROUNDING}


@irkit_op
class BitcastOp(TritonOp):
    name = "tt.bitcast"
    src = operand_def()
    result = result_def()
    traits = traits_def(Pure())
    FORMAT = _UNARY_CAST


@irkit_op
class IntToPtrOp(TritonOp):
    name = "tt.int_to_ptr"
    src = operand_def()
    result = result_def()
    traits = traits_def(Pure())
    FORMAT = _UNARY_CAST


@irkit_op
class PtrToIntOp(TritonOp):
    name = "tt.ptr_to_int"
    src = operand_def()
    result = result_def()
    traits = traits_def(Pure())
    FORMAT = _UNARY_CAST


@irkit_op
class PreciseSqrtOp(TritonOp):
    name = "tt.precise_sqrt"
    x = operand_def()
    result = result_def()
    traits = traits_def(Pure())
    FORMAT = "$x attr-dict `:` type($x)"

    @classmethod
    def infer_types(cls, types):
        same_as(types, "result", "x")


@irkit_op
class PreciseDivFOp(TritonOp):
    name = "tt.precise_divf"
    x = operand_def()
    y = operand_def()
    result = result_def()
    traits = traits_def(Pure())
    FORMAT = "$x `,` $y attr-dict `:` type($x)"

    @classmethod
    def infer_types(cls, types):
        same_as(types, "result", "x")


@irkit_op
class ApproxDivFOp(TritonOp):
    """Fast (approximate) float division (3.9)."""

    name = "tt.approx_divf"
    x = operand_def()
    y = operand_def()
    result = result_def()
    traits = traits_def(Pure())
    FORMAT = "$x `,` $y attr-dict `:` type($x)"

    @classmethod
    def infer_types(cls, types):
        same_as(types, "result", "x")


@irkit_op
class MulhiUIOp(TritonOp):
    name = "tt.mulhiui"
    x = operand_def()
    y = operand_def()
    result = result_def()
    traits = traits_def(Pure())
    FORMAT = "$x `,` $y attr-dict `:` type($x)"

    @classmethod
    def infer_types(cls, types):
        same_as(types, "result", "x")


@irkit_op
class ClampFOp(TritonOp):
    name = "tt.clampf"
    x = operand_def()
    min = operand_def()
    max = operand_def()
    result = result_def()
    propagateNan = prop_def()
    traits = traits_def(Pure())
    FORMAT = "$x `,` $min `,` $max `,` `propagateNan` `=` $propagateNan attr-dict `:` type($result)"
    ATTR_STYLES = {"propagateNan": PROPAGATE_NAN}


@irkit_op
class ExternElementwiseOp(TritonOp):
    name = "tt.extern_elementwise"
    srcs = var_operand_def()
    result = result_def()
    FORMAT = "operands attr-dict `:` functional-type(operands, $result)"


@irkit_op
class ElementwiseInlineAsmOp(TritonOp):
    name = "tt.elementwise_inline_asm"
    args = var_operand_def()
    result = var_result_def()
    asm_string = prop_def()
    FORMAT = "$asm_string attr-dict ($args^ `:` type($args))? `->` type($result)"


# -- dot, reductions ---------------------------------------------------------------------


@irkit_op
class DotOp(TritonOp):
    name = "tt.dot"
    a = operand_def()
    b = operand_def()
    c = operand_def()
    d = result_def()
    inputPrecision = opt_prop_def()
    maxNumImpreciseAcc = opt_prop_def()
    traits = traits_def(Pure())
    FORMAT = (
        "$a`,` $b`,` $c (`,` `inputPrecision` `=` $inputPrecision^)? attr-dict `:` "
        "type($a) `*` type($b) `->` type($d)"
    )
    ATTR_STYLES = {"inputPrecision": INPUT_PRECISION}

    def verify_(self) -> None:
        op_rules.check_dot_operands(self.a.type, self.b.type, self.d.type)


@irkit_op
class DotScaledOp(TritonOp):
    """Microscaling dot (3.3+): A and B with per-32-element scales and their element formats."""

    name = "tt.dot_scaled"
    a = operand_def()
    b = operand_def()
    c = operand_def()
    a_scale = opt_operand_def()
    b_scale = opt_operand_def()
    d = result_def()
    a_elem_type = prop_def()
    b_elem_type = prop_def()
    fastMath = opt_prop_def()
    lhs_k_pack = opt_prop_def()
    rhs_k_pack = opt_prop_def()
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(Pure())
    FORMAT = (
        "$a (`scale` $a_scale^)? `,` $b (`scale` $b_scale^)? `,` $c `lhs` `=` $a_elem_type `rhs` `=` $b_elem_type "
        "attr-dict `:` type($a) (`,` type($a_scale)^)? `*` type($b) (`,` type($b_scale)^)? `->` type($d)"
    )
    ATTR_STYLES = {"a_elem_type": SCALE_DOT_ELEM, "b_elem_type": SCALE_DOT_ELEM}


@irkit_op
class ReduceOp(TritonOp):
    name = "tt.reduce"
    srcs = var_operand_def()
    result = var_result_def()
    axis = prop_def()
    combineOp = region_def()
    traits = traits_def(Pure())

    def verify_(self) -> None:
        axis = self.axis.value.data if isinstance(self.axis, IntegerAttr) else None
        for v in self.srcs:
            rank = len(v.type.get_shape()) if isinstance(v.type, TensorType) else 0
            if axis is None or not 0 <= axis < rank:
                raise VerifyException(f"axis {axis} out of bounds for operand rank {rank}")


@irkit_op
class ReduceReturnOp(TritonOp):
    name = "tt.reduce.return"
    result = var_operand_def()
    traits = traits_def(IsTerminator(), Pure(), HasParent(ReduceOp))
    FORMAT = "$result attr-dict `:` type($result)"


@irkit_op
class ScanOp(TritonOp):
    name = "tt.scan"
    srcs = var_operand_def()
    result = var_result_def()
    axis = prop_def()
    reverse = opt_prop_def()
    combineOp = region_def()
    traits = traits_def(Pure())


@irkit_op
class ScanReturnOp(TritonOp):
    name = "tt.scan.return"
    result = var_operand_def()
    traits = traits_def(IsTerminator(), Pure(), HasParent(ScanOp))
    FORMAT = "$result attr-dict `:` type($result)"


@irkit_op
class MapElementwiseOp(TritonOp):
    name = "tt.map_elementwise"
    srcs = var_operand_def()
    result = var_result_def()
    pack = opt_prop_def()
    scalarOp = var_region_def()


@irkit_op
class MapElementwiseReturnOp(TritonOp):
    name = "tt.map_elementwise.return"
    result = var_operand_def()
    traits = traits_def(IsTerminator())
    FORMAT = "attr-dict ($result^ `:` type($result))?"


# -- debugging ---------------------------------------------------------------------------


@irkit_op
class AssertOp(TritonOp):
    name = "tt.assert"
    condition = operand_def()
    message = prop_def()
    file = opt_prop_def()  # Triton 3.1 only: file, func, line
    func = opt_prop_def()
    line = opt_prop_def()
    # 3.3+: `$condition , $message attr-dict : type`; 3.1 adds `, $file, $func, $line`.  A 3.1 TTIR has no
    # dialect prefix that tells its version, so one format reads both.
    FORMAT = "$condition `,` $message (`,` $file^ `,` $func `,` $line)? attr-dict `:` type($condition)"
    ATTR_STYLES = {"message": StringStyle(), "file": StringStyle(), "func": StringStyle(), "line": IntStyle(32)}


@irkit_op
class PrintOp(TritonOp):
    name = "tt.print"
    args = var_operand_def()
    prefix = prop_def()
    hex = prop_def()
    isSigned = opt_prop_def()
    FORMAT = "$prefix attr-dict (`:` $args^ `:` type($args))?"
    ATTR_STYLES = {"prefix": StringStyle()}


@irkit_op
class ExperimentalDescriptorGatherOp(TritonOp):
    """Triton 3.3's name of `tt.descriptor_gather` (the same format)."""

    name = "tt.experimental_descriptor_gather"
    desc = operand_def()
    x_offsets = operand_def()
    y_offset = operand_def()
    result = result_def()
    FORMAT = DescriptorGatherOp.FORMAT


@irkit_op
class ExperimentalDescriptorScatterOp(TritonOp):
    """Triton 3.3's name of `tt.descriptor_scatter` (the same format)."""

    name = "tt.experimental_descriptor_scatter"
    desc = operand_def()
    x_offsets = operand_def()
    y_offset = operand_def()
    src = operand_def()
    FORMAT = DescriptorScatterOp.FORMAT


@irkit_op
class ReinterpretTensorDescOp(TritonOp):
    """Triton 3.3: a raw TMA descriptor pointer seen as a tensor descriptor (from 3.4 in ttng, same format)."""

    name = "tt.reinterpret_tensor_descriptor"
    rawDesc = operand_def()
    result = result_def()
    traits = traits_def(Pure())
    FORMAT = "$rawDesc attr-dict `:` qualified(type($rawDesc)) `to` qualified(type($result))"


TT_OPS = [
    FuncOp, ReturnOp, CallOp, LoadOp, StoreOp, AtomicRMWOp, AtomicCASOp, MakeTensorPtrOp,
    AdvanceOp, MakeTensorDescOp, DescriptorLoadOp, DescriptorStoreOp, DescriptorGatherOp,
    DescriptorScatterOp, ExperimentalDescriptorLoadOp, ExperimentalDescriptorStoreOp, DescriptorReduceOp,
    ExperimentalTensormapCreateOp, ExperimentalTensormapFenceproxyAcquireOp, AtomicLoadOp, AtomicStoreOp,
    AtomicPollOp, GridDependencyWaitOp, GridDependencyLaunchDependentsOp, SplatOp,
    UnsplatOp, BroadcastOp, ExpandDimsOp, MakeRangeOp, AddPtrOp, ReshapeOp, TransOp, JoinOp,
    SplitOp, CatOp, GatherOp, HistogramOp, GetProgramIdOp, GetNumProgramsOp, FpToFpOp,
    BitcastOp, IntToPtrOp, PtrToIntOp, PreciseSqrtOp, PreciseDivFOp, ApproxDivFOp, MulhiUIOp, ClampFOp,
    ExternElementwiseOp, ElementwiseInlineAsmOp, DotOp, DotScaledOp, ReduceOp, ReduceReturnOp,
    ScanOp, ScanReturnOp, MapElementwiseOp, MapElementwiseReturnOp, AssertOp, PrintOp,
    ExperimentalDescriptorGatherOp, ExperimentalDescriptorScatterOp, ReinterpretTensorDescOp,
]

op_rules.install_layout_trait(TT_OPS)
Triton = Dialect("tt", TT_OPS, [])

__all__ = ["Triton", "TT_OPS", "pointee_value_type"]
