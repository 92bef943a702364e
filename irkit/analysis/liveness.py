"""Liveness on structured IR, as MLIR's `Liveness` computes it for the shared-memory model: operations
numbered in post-order, a value live from its definition to its last use, through region arguments and
results of scf ops."""

from __future__ import annotations

from collections.abc import Iterator

from xdsl.ir import Block, BlockArgument, Operation, OpResult, SSAValue

from irkit.analysis.walk import pre_order as _pre_order

# ---------------------------------------------------------------------------------------------
# Liveness (MLIR Liveness on structured IR)
# ---------------------------------------------------------------------------------------------


def _all_blocks(op: Operation) -> Iterator[Block]:
    for region in op.regions:
        for block in region.blocks:
            yield block
            for child in block.ops:
                yield from _all_blocks(child)


def _successors(block: Block) -> list[Block]:
    last = block.last_op
    return list(last.successors) if last is not None else []


class _Liveness:
    """MLIR's Liveness: per-block live-in/live-out sets; resolve(value) lists the ops it is live at."""

    def __init__(self, root: Operation):
        self.info: dict[Block, tuple[set, set, set, set]] = {}  # block -> (defs, uses, live_in, live_out)
        blocks = list(_all_blocks(root))
        defs: dict[Block, set] = {}
        uses: dict[Block, set] = {}
        out_vals: dict[Block, set] = {}
        for b in blocks:
            d: set = set(b.args)
            u: set = set()
            o: set = set()
            region = b.parent

            def gather_out(v: SSAValue, region=region, b=b, o=o) -> None:
                for use in v.uses:
                    ub = _ancestor_block_in_region(use.operation.parent_block(), region)
                    if ub is not None and ub is not b:
                        o.add(v)
                        return

            for a in b.args:
                gather_out(a)
            for op in b.ops:
                for r in op.results:
                    gather_out(r)
            for op in b.ops:
                for nested in _pre_order(op):
                    d.update(nested.results)
                    u.update(nested.operands)
                    for reg in nested.regions:
                        for nb in reg.blocks:
                            d.update(nb.args)
            u -= d
            defs[b], uses[b], out_vals[b] = d, u, o
        live_in = {b: set(uses[b]) | (out_vals[b] - defs[b]) for b in blocks}
        live_out = {b: set(out_vals[b]) for b in blocks}
        changed = True
        while changed:
            changed = False
            for b in blocks:
                new_out = set(out_vals[b])
                for s in _successors(b):
                    new_out |= live_in.get(s, set())
                new_in = uses[b] | (new_out - defs[b])
                if new_out != live_out[b] or new_in != live_in[b]:
                    live_out[b], live_in[b] = new_out, new_in
                    changed = True
        for b in blocks:
            self.info[b] = (defs[b], uses[b], live_in[b], live_out[b])

    def resolve(self, value: SSAValue) -> list[Operation]:
        result: list[Operation] = []
        if isinstance(value, OpResult):
            def_block = value.op.parent_block()
        else:
            assert isinstance(value, BlockArgument)
            def_block = value.block
        to_process = [def_block]
        visited = {def_block}
        for use in value.uses:
            ub = use.operation.parent_block()
            if ub not in visited:
                visited.add(ub)
                to_process.append(ub)
        while to_process:
            block = to_process.pop()
            if block is None or block not in self.info:
                continue
            _, _, live_in, live_out = self.info[block]
            def_op = value.op if isinstance(value, OpResult) else None
            if value in live_in or def_op is None or def_op.parent_block() is not block:
                start = block.first_op
            else:
                start = def_op
            if start is None:
                continue
            end: Operation | None
            if value in live_out:
                end = block.last_op
            else:
                end = start
                for use in value.uses:
                    anc = block.find_ancestor_op_in_block(use.operation)
                    if anc is not None and end.is_before_in_block(anc):
                        end = anc
            op: Operation | None = start
            result.append(start)
            while op is not end and op is not None:
                op = op.next_op
                if op is not None:
                    result.append(op)
            for s in _successors(block):
                if value in self.info.get(s, (None, None, set(), None))[2] and s not in visited:
                    visited.add(s)
                    to_process.append(s)
        return result


def _ancestor_block_in_region(block: Block | None, region) -> Block | None:
    while block is not None:
        if block.parent is region:
            return block
        parent_op = block.parent_op()
        if parent_op is None:
            return None
        block = parent_op.parent_block()
    return None
