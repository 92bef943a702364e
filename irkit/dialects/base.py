"""What every irkit op class has beside its IRDL definition.

`FORMAT` is the op's MLIR `assemblyFormat` (None: the op has hand-written
syntax in `irkit.frontend.custom_syntax`, or prints in generic form).
`FORMAT_LEGACY` overrides it for modules in the Triton 3.1 spelling where the
C++ format changed between versions; `FORMAT_PRE34` for Triton 3.1-3.3 modules where
only 3.4 changed it (the parser reads both; the printer writes the module's).
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import IntegerType, TensorType
from xdsl.ir import Attribute
from xdsl.irdl import IRDLOperation

from irkit.frontend.opformat import AttrStyle


class TritonOp(IRDLOperation):
    FORMAT: ClassVar[str | None] = None
    FORMAT_LEGACY: ClassVar[str | None] = None
    FORMAT_PRE34: ClassVar[str | None] = None
    ATTR_STYLES: ClassVar[dict[str, AttrStyle]] = {}
    STRIPPED: ClassVar[dict[str, str]] = {}  # operand/result name -> dialect type name
    # read in either form, printed qualified: newer Triton writes these without the dialect prefix
    READ_STRIPPED: ClassVar[dict[str, str]] = {}

    @classmethod
    def infer_types(cls, types: dict[str, list[Attribute]]) -> None:
        """Fill result types the format does not spell (by result name)."""


_I1 = IntegerType(1)
# Derived types by (id of the source type, id of the element): the parser shares
# one object per type text, so these hit, and building a TensorType is costly.
# The source objects are kept in the value, so their ids stay valid.
_DERIVED: dict[tuple[int, int], tuple[Attribute, Attribute, Attribute]] = {}


def i1_like(t: Attribute) -> Attribute:
    """i1, or a tensor of i1 with the shape and layout of `t`."""
    return with_element(t, _I1)


def with_element(t: Attribute, element: Attribute) -> Attribute:
    if not isinstance(t, TensorType):
        return element
    key = (id(t), id(element))
    hit = _DERIVED.get(key)
    if hit is not None and hit[0] is t and hit[1] is element:
        return hit[2]
    derived = TensorType(element, t.get_shape(), t.encoding)
    if len(_DERIVED) < 65536:
        _DERIVED[key] = (t, element, derived)
    return derived


def same_as(types: dict[str, list[Attribute]], target: str, source: str) -> None:
    if not types.get(target) and types.get(source):
        types[target] = list(types[source])


_SYNTAX_FIELDS = ("FORMAT", "FORMAT_LEGACY", "FORMAT_PRE34", "ATTR_STYLES", "STRIPPED", "READ_STRIPPED",
                  "KERNEL_KEYWORD")


def irkit_op(cls):
    """`irdl_op_definition` for irkit ops: the syntax fields (FORMAT, ...) are
    class constants irkit reads, not IRDL fields, so they are set aside while
    IRDL builds the definition and put back on the resulting class."""
    from xdsl.irdl import irdl_op_definition

    syntax = {k: cls.__dict__[k] for k in _SYNTAX_FIELDS if k in cls.__dict__}
    for k in syntax:
        delattr(cls, k)
    op_cls = irdl_op_definition(cls)
    for k, v in syntax.items():
        setattr(op_cls, k, v)
    return op_cls
