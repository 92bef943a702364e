"""Walk orders over structured IR, as MLIR's `Operation::walk` gives them, and the modules that hold functions."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TypeVar

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, Operation

OpT = TypeVar("OpT", bound=Operation)


def post_order(op: Operation) -> Iterator[Operation]:
    """Operation::walk's default order: everything nested in an op before the op."""
    for region in op.regions:
        for block in region.blocks:
            for child in block.ops:
                yield from post_order(child)
    yield op


def pre_order(op: Operation) -> Iterator[Operation]:
    """An op before everything nested in it."""
    yield op
    for region in op.regions:
        for block in region.blocks:
            for child in block.ops:
                yield from pre_order(child)


def modules_with_functions(root: Operation, func_type: type[Operation]) -> Iterator[ModuleOp]:
    """Every module holding ops of `func_type` directly, outermost first: a file with two top-level modules
    is parsed into an unnamed module around them, and each keeps its own attributes (num-warps, target,
    spelling)."""
    if isinstance(root, ModuleOp) and any(isinstance(op, func_type) for op in root.ops):
        yield root
    for region in root.regions:
        for block in region.blocks:
            for op in block.ops:
                if isinstance(op, ModuleOp):
                    yield from modules_with_functions(op, func_type)


def enclosing(op: Operation, kind: type[OpT]) -> OpT | None:
    """The nearest op of type `kind` that holds `op` (`op` itself if it is one), or None."""
    cur: Operation | None = op
    while cur is not None and not isinstance(cur, kind):
        cur = cur.parent_op()
    return cur


def terminator(block: Block | None) -> Operation:
    """The last op of a block that structured IR always ends with a terminator (scf.for/if bodies)."""
    assert block is not None and block.last_op is not None
    return block.last_op
