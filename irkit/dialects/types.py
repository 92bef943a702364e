"""Triton's types: pointers, block pointers, shared-memory descriptors, tensor
descriptors and async tokens.

Every type has one canonical class whatever the spelling the file used: the
memdesc type lives in `tt` in Triton 3.1 (`!tt.memdesc`) and in `ttg` from 3.2
on (`!ttg.memdesc`); the printer picks the spelling of the module it prints.
"""

from __future__ import annotations

from xdsl.dialects.builtin import (
    ArrayAttr,
    IntAttr,
    NoneAttr,
    TensorType,
)
from xdsl.ir import Attribute, ParametrizedAttribute, TypeAttribute
from xdsl.irdl import irdl_attr_definition


@irdl_attr_definition
class PointerType(ParametrizedAttribute, TypeAttribute):
    """`!tt.ptr<pointee[, address_space]>`; the address space is printed only if != 1.

    A pointee that is a ranked tensor makes this a block pointer
    (`!tt.ptr<tensor<256x32xf16, #dot0>>`)."""

    name = "tt.ptr"

    pointee: Attribute
    address_space: IntAttr

    def __init__(self, pointee: Attribute, address_space: int = 1):
        super().__init__(pointee, IntAttr(address_space))

    @property
    def is_block_pointer(self) -> bool:
        return isinstance(self.pointee, TensorType)


@irdl_attr_definition
class MemDescType(ParametrizedAttribute, TypeAttribute):
    """`!ttg.memdesc<shape x elem, #enc, #space, mutable, allocShape>`: a view of shared memory."""

    name = "ttg.memdesc"

    shape: ArrayAttr[IntAttr]
    element_type: Attribute
    encoding: Attribute
    memory_space: Attribute
    mutable: IntAttr
    alloc_shape: ArrayAttr[IntAttr] | NoneAttr

    def __init__(
        self,
        shape: tuple[int, ...],
        element_type: Attribute,
        encoding: Attribute = NoneAttr(),
        memory_space: Attribute = NoneAttr(),
        mutable: bool = False,
        alloc_shape: tuple[int, ...] | None = None,
    ):
        super().__init__(
            ArrayAttr(IntAttr(d) for d in shape),
            element_type,
            encoding,
            memory_space,
            IntAttr(int(mutable)),
            NoneAttr()
            if alloc_shape is None
            else ArrayAttr(IntAttr(d) for d in alloc_shape),
        )

    def get_shape(self) -> tuple[int, ...]:
        return tuple(d.data for d in self.shape.data)

    @property
    def is_mutable(self) -> bool:
        return bool(self.mutable.data)


@irdl_attr_definition
class TensorDescType(ParametrizedAttribute, TypeAttribute):
    """`!tt.tensordesc<tensor<...>>` (3.3) or `!tt.tensordesc<128x32xbf16[, #enc]>` (3.9)."""

    name = "tt.tensordesc"

    block_type: Attribute
    wrapped: IntAttr  # 1 when printed as tensordesc<tensor<...>>

    def __init__(self, block_type: Attribute, wrapped: bool):
        super().__init__(block_type, IntAttr(int(wrapped)))


@irdl_attr_definition
class AsyncTokenType(ParametrizedAttribute, TypeAttribute):
    """`!ttg.async.token`, the token of async copies and waits."""

    name = "ttg.async.token"


@irdl_attr_definition
class OpaqueType(ParametrizedAttribute, TypeAttribute):
    """A dialect type irkit has no class for, kept as its text so it prints back."""

    name = "irkit.opaque_type"

    dialect_name: Attribute  # StringAttr: e.g. "ttng.something"
    body: Attribute  # StringAttr: the text between the angle brackets, with them


def element_type_of(t: Attribute) -> Attribute:
    """The scalar type inside a tensor (or the type itself)."""
    return t.element_type if isinstance(t, TensorType) else t


def is_tensor_of_pointers(t: Attribute) -> bool:
    """A ranked tensor of `!tt.ptr` (not a block pointer, not a scalar pointer)."""
    return isinstance(t, TensorType) and isinstance(t.element_type, PointerType)


def is_block_pointer(t: Attribute) -> bool:
    """`!tt.ptr<tensor<...>>`, what `tt.make_tensor_ptr` makes."""
    return isinstance(t, PointerType) and t.is_block_pointer


@irdl_attr_definition
class GpuAsyncTokenType(ParametrizedAttribute, TypeAttribute):
    """`!gpu.async.token`: orders GPU host ops (`gpu.wait`, async `gpu.launch_func`); a stream in the lowering."""

    name = "gpu.async.token"


def llvm_pointer_type() -> OpaqueType:
    """`!llvm.ptr` (opaque pointer, address space 0): irkit keeps LLVM types as their text, as the parser does."""
    from xdsl.dialects.builtin import StringAttr

    return OpaqueType(StringAttr("llvm.ptr"), StringAttr(""))
