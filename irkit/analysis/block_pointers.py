"""Facts and decisions about block pointers (`tt.make_tensor_ptr` / `tt.advance`).

Read-only: nothing here changes the IR.  Two kinds of functions:

* IR queries: `folded_int`, `is_divisible`, `make_tensor_ptr_of` (Triton's `getMakeTensorPtrOp`),
  `module_supports_2d_block`, `has_block_io`, `pointer_facts`;
* pure decisions on plain values: `fast_dim`, `allows_2d_block_io` (the stride/pitch test of Intel's
  RewriteTensorPointer before #2420 and of MaterializeBlockPointer), `should_remove_i2400` and
  `should_remove_i2420` (which block pointers Intel's RewriteTensorPointer rewrites).

Semantics: docs/triton-passes.md §1.1 (Intel `Utility.cpp` at I-2400, the `shouldRemove` variants).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.dialects import cf, scf
from xdsl.dialects.builtin import DictionaryAttr, IntegerAttr, IntegerType, ModuleOp, TensorType
from xdsl.ir import Attribute, BlockArgument, Operation, OpResult, SSAValue

from irkit.analysis.walk import enclosing, terminator
from irkit.diagnostics import PassFailure
from irkit.dialects.arith import CAST_OPS, ConstantOp, ExtSIOp
from irkit.dialects.builtin_extras import float_bits
from irkit.dialects.encodings import DotOperandEncodingAttr, DpasEncodingAttr
from irkit.dialects.tt import AdvanceOp, FuncOp, MakeTensorPtrOp
from irkit.dialects.types import is_block_pointer

# Module attribute set by Intel's annotate_module when the device has 2D block IO (both spellings).
SUPPORT_2D_BLOCK_ATTRS = ("triton_intel_gpu.support_sg_2d_block", "ttig.support_sg_2d_block")
# Load attribute set by Intel's MaterializeBlockPointer: "row_major" | "column_major".
BLOCK_IO_ATTRS = ("triton_intel_gpu.block_io", "ttig.block_io")

# Layout kinds the Intel rules distinguish.
DPAS = "dpas"
DOT_DPAS = "dot_dpas"


# -- IR queries --------------------------------------------------------------------------------------


def pointee_tensor(ptr_type: Attribute) -> TensorType:
    assert is_block_pointer(ptr_type), ptr_type
    return ptr_type.pointee  # type: ignore[attr-defined]


# integer casts MLIR folds when their operand is constant
_FOLDABLE_CASTS = tuple(CAST_OPS[n] for n in ("extsi", "extui", "trunci", "index_cast", "index_castui"))
# control flow a block pointer cannot be followed through
_UNSUPPORTED_FLOW = (scf.WhileOp, scf.ConditionOp, cf.BranchOp, cf.ConditionalBranchOp)


def folded_int(value: SSAValue) -> int | None:
    """The integer `value` folds to, as `getFoldedConstantValue` sees it: an `arith.constant`, or an integer
    cast of one (MLIR folds a cast whose operand is constant).  None when it is not a known constant."""
    owner = value.owner
    if not isinstance(owner, Operation):
        return None
    if isinstance(owner, ConstantOp):
        attr = owner.value
        if isinstance(attr, IntegerAttr) and isinstance(attr.type, IntegerType):
            return attr.value.data
        return None
    if isinstance(owner, _FOLDABLE_CASTS):
        return folded_int(owner.operands[0])
    return None


def is_constant(value: SSAValue, c: int) -> bool:
    return folded_int(value) == c


def is_divisible(value: SSAValue, divisor: int) -> bool:
    """Intel's `isDivisible` at I-2400: a constant multiple of `divisor`, an entry argument of `tt.func`
    whose `tt.divisibility` is a multiple of it, or `arith.extsi` of either.  Anything else: unknown (False)."""
    if divisor <= 0:
        return False
    if isinstance(value, BlockArgument):
        func = value.block.parent_op()
        if not isinstance(func, FuncOp) or value.block is not func.regions[0].blocks.first:
            return False
        arg_attrs = func.arg_attrs
        if arg_attrs is None or value.index >= len(arg_attrs.data):
            return False
        attrs = arg_attrs.data[value.index]
        div = attrs.data.get("tt.divisibility") if isinstance(attrs, DictionaryAttr) else None
        return isinstance(div, IntegerAttr) and div.value.data % divisor == 0
    owner = value.owner
    if isinstance(owner, ConstantOp):
        attr = owner.value
        return isinstance(attr, IntegerAttr) and attr.value.data % divisor == 0
    if isinstance(owner, ExtSIOp) and isinstance(owner, Operation):
        return is_divisible(owner.operands[0], divisor)
    return False


def element_bits(t: Attribute) -> int | None:
    if isinstance(t, IntegerType):
        return t.width.data
    return float_bits(t)


def layout_kind(tensor: TensorType) -> str | None:
    """`DPAS` for `#dpas`, `DOT_DPAS` for a `#dot_op` whose parent is `#dpas` (hasDpasEncoding /
    hasDotDpasEncoding), None otherwise."""
    enc = tensor.encoding
    if isinstance(enc, DpasEncodingAttr):
        return DPAS
    if isinstance(enc, DotOperandEncodingAttr) and isinstance(enc.parent, DpasEncodingAttr):
        return DOT_DPAS
    return None



def module_supports_2d_block(op: Operation) -> bool:
    module = enclosing(op, ModuleOp)
    return module is not None and any(a in module.attributes for a in SUPPORT_2D_BLOCK_ATTRS)


def has_block_io(op: Operation) -> bool:
    return any(a in op.attributes for a in BLOCK_IO_ATTRS)


class UnsupportedBlockPointerFlow(PassFailure):
    """A block pointer whose `tt.make_tensor_ptr` cannot be found (scf.while, cf branches, function
    arguments, unknown producers): Triton's passes hit `llvm_unreachable` there."""


def make_tensor_ptr_of(value: SSAValue) -> Operation:
    """The `tt.make_tensor_ptr` a block-pointer value comes from (Triton's `getMakeTensorPtrOp`): back
    through `tt.advance`, `scf.for` iteration arguments (their init) and `scf.for`/`scf.if` results (the
    operand of the op's own `scf.yield`).  Raises `UnsupportedBlockPointerFlow` otherwise."""
    while True:
        if isinstance(value, BlockArgument):
            owner = value.block.parent_op()
            if isinstance(owner, scf.ForOp) and value.block is owner.body.blocks.first and value.index >= 1:
                value = owner.operands[2 + value.index]  # lb, ub, step, then the inits
                continue
            predecessors = list(value.block.predecessors())
            if predecessors and predecessors[0].last_op is not None:  # a cf.br / cf.cond_br target
                branch = predecessors[0].last_op
                raise UnsupportedBlockPointerFlow(branch, unsupported_flow_message(branch))
            raise UnsupportedBlockPointerFlow(owner, unsupported_flow_message(owner))
        assert isinstance(value, OpResult)
        op = value.owner
        if isinstance(op, MakeTensorPtrOp):
            return op
        if isinstance(op, AdvanceOp):
            value = op.operands[0]
            continue
        if isinstance(op, (scf.ForOp, scf.IfOp)):
            value = terminator(op.regions[0].blocks.first).operands[value.index]
            continue
        raise UnsupportedBlockPointerFlow(op, unsupported_flow_message(op))


def unsupported_flow_message(op: Operation | None) -> str:
    name = op.name if op is not None else "a function argument"
    if isinstance(op, _UNSUPPORTED_FLOW):
        return (f"block pointer carried through '{name}' is not supported: block pointers may only flow "
                "through scf.for and scf.if (Triton's RewriteTensorPointer hits llvm_unreachable here)")
    if isinstance(op, FuncOp):
        return "block pointer passed as a function argument: cannot find its tt.make_tensor_ptr"
    return f"cannot trace a block pointer back to its tt.make_tensor_ptr through '{name}'"


@dataclass(frozen=True)
class PointerFacts:
    """What the Intel rules look at in one `tt.make_tensor_ptr`."""

    layout: str | None  # DPAS | DOT_DPAS | None
    elem_bits: int | None
    unit_strides: tuple[bool, ...]  # strides[i] folds to the constant 1
    pitch_divisible: tuple[bool, ...]  # isDivisible(strides[i], 128 / elem_bits)


def pointer_facts(make_tensor_ptr: Operation) -> PointerFacts:
    tensor = pointee_tensor(make_tensor_ptr.results[0].type)
    bits = element_bits(tensor.element_type)
    strides = make_tensor_ptr.strides  # type: ignore[attr-defined]
    per_oword = 128 // bits if bits else 0
    return PointerFacts(
        layout=layout_kind(tensor),
        elem_bits=bits,
        unit_strides=tuple(is_constant(s, 1) for s in strides),
        pitch_divisible=tuple(is_divisible(s, per_oword) for s in strides),
    )


# -- pure decisions -------------------------------------------------------------------------------------


def fast_dim(unit_strides: Sequence[bool]) -> int | None:
    """The first dimension whose stride is the constant 1 (the contiguous one), or None."""
    return next((i for i, unit in enumerate(unit_strides) if unit), None)


def allows_2d_block_io(elem_bits: int | None, unit_strides: Sequence[bool], pitch_divisible: Sequence[bool]) -> bool:
    """The 2D-block-IO stride test: rank > 1, a unit-stride dimension among the last two, not column-major
    8-bit (a measured fp8 regression), and a pitch (the other of the last two strides) that is a whole
    number of OWords (16 bytes)."""
    rank = len(unit_strides)
    if rank < 2 or not elem_bits:
        return False
    fast = fast_dim(unit_strides)
    if fast is None:
        return False
    if fast == rank - 2 and elem_bits == 8:
        return False
    if fast < rank - 2:
        return False
    pitch = rank - 2 if fast == rank - 1 else rank - 1
    return pitch_divisible[pitch]


def should_remove_i2400(facts: PointerFacts, supports_2d_block: bool, flag: bool) -> bool:
    """`shouldRemove(mkptr, flag)` of Intel's pass at I-pre (flag = used by a store) and I-2400 (flag = used
    by a load or a store): keep a `#dot_op`-of-`#dpas` pointer, or a `#dpas` one when `flag`, if 2D block
    IO is possible; rewrite everything else."""
    if not supports_2d_block:
        return True
    if facts.layout != DOT_DPAS and not (flag and facts.layout == DPAS):
        return True
    return not allows_2d_block_io(facts.elem_bits, facts.unit_strides, facts.pitch_divisible)


def should_remove_i2420(layout: str | None, supports_2d_block: bool, used_by_store: bool, used_by_block_load: bool) -> bool:
    """`shouldRemove` at I-2420: keep a pointer that reaches a load marked `block_io` (MaterializeBlockPointer
    already applied the stride test) or a store of a `#dpas` tensor."""
    if not supports_2d_block:
        return True
    return not (used_by_block_load or (used_by_store and layout == DPAS))
