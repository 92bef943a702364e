"""Use-def slices, as MLIR's `getBackwardSlice` / `getForwardSlice` and Triton's `multiRootGetSlice` compute them.

* backward slice of an op: the ops defining its operands, transitively; block arguments end the walk
  (`omitBlockArguments = true`, what Triton asks for);
* forward slice of an op: the ops using its results, transitively, and every op nested in its regions
  (so the forward slice of an `scf.for` holds its whole body);
* multi-root slice: start from one op and keep adding the backward and forward slices of everything
  found, until nothing new appears.

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


def backward_slice(op: Operation) -> set[Operation]:
    """Ops whose results `op` depends on, transitively (not `op` itself); stops at block arguments and
    at ops isolated from above."""
    found: set[Operation] = set()
    stack = list(_defining_ops(op))
    while stack:
        cur = stack.pop()
        if cur in found or cur.has_trait(IsolatedFromAbove):
            continue
        found.add(cur)
        stack.extend(_defining_ops(cur))
    found.discard(op)
    return found


def forward_slice(op: Operation) -> set[Operation]:
    """Ops that use the results of `op` or are nested in it, transitively (not `op` itself)."""
    found: set[Operation] = set()
    stack = [*_nested_ops(op), *_using_ops(op)]
    while stack:
        cur = stack.pop()
        if cur in found:
            continue
        found.add(cur)
        stack.extend(_nested_ops(cur))
        stack.extend(_using_ops(cur))
    found.discard(op)
    return found


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
