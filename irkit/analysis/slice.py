"""Triton's `multiRootGetSlice`: from one op, keep adding the backward slice (the ops defining its
operands; block arguments end the walk, `omitBlockArguments = true`, what Triton asks for) and the
forward slice (the ops using its results, and every op nested in its regions) of everything found,
until nothing new appears.

Only the set matters to the passes that use these (Triton topologically sorts the multi-root slice, but
Coalesce takes a maximum over it), so the functions return sets.
"""

from __future__ import annotations

from xdsl.ir import Operation, OpResult
from xdsl.traits import IsolatedFromAbove


def _defining_ops(op: Operation):
    for operand in op.operands:
        if isinstance(operand, OpResult):
            yield operand.op


def _using_ops(op: Operation):
    for result in op.results:
        for use in result.uses:
            yield use.operation


def _nested_ops(op: Operation):
    for region in op.regions:
        for block in region.blocks:
            yield from block.ops


def multi_root_slice(op: Operation) -> set[Operation]:
    """Triton's `multiRootGetSlice(op)` without filters: `op` plus the closure of backward and forward
    slices.  Reaching an op with regions brings in everything nested in it, but an op nested in a loop
    does not bring in the loop (only the values it uses), so the relation is not symmetric."""
    found: set[Operation] = {op}
    stack = [op]
    while stack:
        cur = stack.pop()
        neighbours = [*_nested_ops(cur), *_using_ops(cur)]
        neighbours.extend(d for d in _defining_ops(cur) if not d.has_trait(IsolatedFromAbove))
        for n in neighbours:
            if n not in found:
                found.add(n)
                stack.append(n)
    return found
