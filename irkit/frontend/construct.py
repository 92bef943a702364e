"""Building operations and attributes quickly while parsing.

The parser creates one xDSL operation per line of input, and most lines repeat
the same few integer attributes.  xDSL's generic paths are general: its
`Operation.create` goes through property setters that first detach operands
the new op does not have yet, and every `IntegerAttr(...)` builds and verifies
a fresh object.  The helpers here do the same work without the detours, and
share immutable attributes; what they build is indistinguishable from what
`Operation.create` and the attribute constructors build.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager

from xdsl.dialects.builtin import (
    UNKNOWN_LOC,
    FileLineColLoc,
    IntAttr,
    IntegerAttr,
    NameLoc,
    NoneAttr,
    StringAttr,
    TensorType,
)
from xdsl.ir import Attribute, Block, Operation, OpResult, Region, SSAValue
from xdsl.ir.core import SSAValues, Use


def new_op(
    cls: type[Operation],
    operands: Sequence[SSAValue] = (),
    result_types: Sequence[Attribute] = (),
    properties: Mapping[str, Attribute] | None = None,
    attributes: Mapping[str, Attribute] | None = None,
    regions: Sequence[Region] = (),
    successors: Sequence[Block] = (),
    location: Attribute = UNKNOWN_LOC,
    owned: bool = False,
) -> Operation:
    """`cls.create(...)` for an op that is not in any block yet.  `owned`: the op may
    keep the `properties` and `attributes` dicts (the caller made them for it)."""
    op = cls.__new__(cls)
    values = SSAValues(operands)
    uses = tuple([Use(op, i) for i in range(len(values))])
    for value, use in zip(values, uses):
        value.add_use(use)
    op._operands = values  # noqa: SLF001 - the fields Operation.__init__ sets
    op._operand_uses = uses  # noqa: SLF001
    op.results = SSAValues([OpResult(t, op, i) for i, t in enumerate(result_types)])
    if owned:
        op.properties = properties if properties is not None else {}
        op.attributes = attributes if attributes is not None else {}
    else:
        op.properties = dict(properties) if properties else {}
        op.attributes = dict(attributes) if attributes else {}
    op.location = location
    op._successors = ()  # noqa: SLF001
    op._successor_uses = ()  # noqa: SLF001
    if successors:
        op.successors = list(successors)
    op.parent = None
    op._next_op = None  # noqa: SLF001
    op._prev_op = None  # noqa: SLF001
    op.regions = ()
    for region in regions:
        op.add_region(region)
    return op


_INT_ATTRS: dict[tuple[int, int], tuple[Attribute, IntegerAttr]] = {}


def integer_attr(value: int, type_: Attribute) -> IntegerAttr:
    """`IntegerAttr(value, type_)`, one object per (value, type object)."""
    key = (value, id(type_))
    hit = _INT_ATTRS.get(key)
    if hit is not None and hit[0] is type_:
        return hit[1]
    attr = IntegerAttr(value, type_)
    if len(_INT_ATTRS) < 65536:
        _INT_ATTRS[key] = (type_, attr)
    return attr


# Attributes built from other attributes, by the ids of their parts (kept alive
# in the value so an id is never reused while its entry exists).  The parser
# shares one object per distinct type or layout text, so these keys repeat.
_SHAPED: dict[tuple, tuple[Attribute, Attribute, TensorType]] = {}


def tensor_type(element: Attribute, shape: Sequence[int], encoding: Attribute) -> TensorType:
    """`TensorType(element, shape, encoding)`, shared."""
    key = (id(element), tuple(shape), id(encoding))
    hit = _SHAPED.get(key)
    if hit is not None and hit[0] is element and hit[1] is encoding:
        return hit[2]
    t = TensorType(element, shape, encoding)
    if len(_SHAPED) < 65536:
        _SHAPED[key] = (element, encoding, t)
    return t


_FILE_LOCS: dict[tuple[str, int, int], FileLineColLoc] = {}
_NAME_LOCS: dict[tuple[str, int], tuple[Attribute | None, NameLoc]] = {}


def file_line_col(filename: str, line: int, column: int) -> FileLineColLoc:
    """`loc("file":line:col)`, shared."""
    key = (filename, line, column)
    loc = _FILE_LOCS.get(key)
    if loc is None:
        loc = FileLineColLoc(StringAttr(filename), IntAttr(line), IntAttr(column))
        if len(_FILE_LOCS) < 65536:
            _FILE_LOCS[key] = loc
    return loc


def name_loc(name: str, child: Attribute | None) -> NameLoc:
    """`loc("name"(child))`, or `loc("name")` for None, shared."""
    key = (name, id(child))
    hit = _NAME_LOCS.get(key)
    if hit is not None and hit[0] is child:
        return hit[1]
    loc = NameLoc(StringAttr(name), NoneAttr() if child is None else child)
    if len(_NAME_LOCS) < 65536:
        _NAME_LOCS[key] = (child, loc)
    return loc


@contextmanager
def gc_paused() -> Iterator[None]:
    """No cyclic garbage collection inside the block.

    Parsing allocates millions of objects that all stay alive, and the cyclic
    collector would walk them again and again (its cost grows with the module:
    12% of a 10k-op parse, 25% of a 100k-op one).  Reference counting still
    frees what dies; the collector runs again once the block is left.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
