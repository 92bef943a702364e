"""Operations in pre-order without recursion.

xDSL's `Operation.walk()` is a recursive generator: each op it yields passes up through one
generator frame per enclosing region, so walking a module nested N deep costs O(ops x N) (a
10,000-deep `scf.if` chain: 50 million steps) and the recursion limit.  This walk keeps its own
stack: O(ops) at any depth."""

from __future__ import annotations

from collections.abc import Iterator

from xdsl.ir import Operation


def walk_ops(root: Operation) -> Iterator[Operation]:
    """`root` and every op inside it, in the order `root.walk()` gives."""
    stack: list[Operation] = [root]
    while stack:
        op = stack.pop()
        yield op
        children = [child for region in op.regions for block in region.blocks for child in block.ops]
        stack.extend(reversed(children))
