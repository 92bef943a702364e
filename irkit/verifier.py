"""Runs every op's IRDL and `verify_` checks, collecting failures per op
(xDSL's `verify()` stops at the first and does not say which op failed),
plus what MLIR's verifier checks and xDSL's does not: SSA dominance within
blocks and the types region terminators hand back (scf.if, tt.func)."""

from __future__ import annotations

from xdsl.dialects import scf
from xdsl.dialects.builtin import FunctionType, ModuleOp, StringAttr
from xdsl.ir import Block, BlockArgument, Operation, OpResult, SSAValue
from xdsl.utils.exceptions import VerifyException

from irkit.dialects.ods_rules import ods_error
from irkit.dialects.op_rules import module_attribute_error
from irkit.dialects.tt import FuncOp, ReturnOp
from irkit.frontend.construct import gc_paused


def verify_parsed(parsed, text: str, name: str, line_offset: int = 0, prefix: str = "") -> list:
    """The verifier's errors on a parsed module as positioned diagnostics (`file:line:col: error: ...`):
    what every command (irkit-opt, irkit-report, irkit-sweep, irkit-check) runs after parsing and
    before any pass or analysis."""
    from irkit.diagnostics import op_diagnostic

    return [op_diagnostic(parsed, text, name, line_offset, "error", op, prefix + message)
            for op, message in verify_module(parsed.module)]


def verify_module(root: Operation) -> list[tuple[Operation, str]]:
    # no cyclic GC while walking: the walk allocates little that lives, and the
    # collector would otherwise re-scan the whole module (superlinear on big ones)
    from irkit.frontend.printer import mlir_messages

    with gc_paused(), mlir_messages():  # types in the messages as MLIR writes them
        return _verify_module(root)


def _verify_module(root: Operation) -> list[tuple[Operation, str]]:
    errors: list[tuple[Operation, str]] = []
    tree = _Tree(root)
    for op in tree.ops:
        message = _dominance_error(op, tree) or _region_type_error(op)
        if message is not None:
            errors.append((op, f"'{op.name}' op {message}"))
            if len(errors) >= 20:
                break
            continue
        try:
            op.verify(verify_nested_ops=False)
            # then what Triton's ODS adds (after the op's own rules, whose messages MLIR gives first)
            message = ods_error(op)
            if message is not None:
                errors.append((op, f"'{op.name}' op {message}"))
        except VerifyException as e:
            message = str(e).splitlines()[0]
            # xDSL's trait checks name the op themselves; say it once, as MLIR does
            message = message.removeprefix(f"'{op.name}' ").removeprefix(f"{op.name}: ")
            errors.append((op, f"'{op.name}' op {message}"))
        except Exception as e:  # malformed IR can make a verifier itself fail
            errors.append((op, f"'{op.name}' op failed to verify: {type(e).__name__}: {e}"))
        if len(errors) >= 20:
            break
    return errors


class _Tree:
    """Every op under `root` in pre-order, and each op's and block's pre-order interval
    [first, last]: "x lies inside y" is then two comparisons, whatever the nesting depth
    (walking up the parents per operand, or xDSL's recursive walk, is quadratic in it)."""

    def __init__(self, root: Operation) -> None:
        self.ops: list[Operation] = []
        self.first: dict[Operation | Block, int] = {}
        self.last: dict[Operation | Block, int] = {}
        counter = 0
        stack: list[tuple[Operation | Block, bool]] = [(root, False)]
        while stack:
            node, leaving = stack.pop()
            if leaving:
                self.last[node] = counter
                continue
            counter += 1
            self.first[node] = counter
            stack.append((node, True))
            if isinstance(node, Operation):
                self.ops.append(node)
                children: list = [block for region in node.regions for block in region.blocks]
            else:
                children = list(node.ops)
            stack.extend((child, False) for child in reversed(children))

    def inside(self, node: Operation, container: Operation | Block | None) -> bool:
        first = self.first.get(container) if container is not None else None
        return first is not None and first <= self.first[node] <= self.last[container]

    def before(self, definer: Operation, user: Operation) -> bool:
        """`definer`'s whole subtree precedes `user` (given both under one block)."""
        last = self.last.get(definer)
        return last is not None and last < self.first[user]


def _in_other_block_of_same_region(op: Operation, block: Block | None) -> bool:
    """Whether `op` lies in another block of `block`'s region (a CFG: dominance
    across blocks needs the dominator tree, which this check does not build, except
    that nothing but the entry block dominates the entry block)."""
    region = block.parent if block is not None else None
    a: Operation | None = op
    while a is not None:
        b = a.parent_block()
        if b is not None and b.parent is region:
            return not (region is not None and b is region.first_block and block is not b)
        a = a.parent_op()
    return False


def _dominance_error(op: Operation, tree: _Tree) -> str | None:
    for i, value in enumerate(op.operands):
        if isinstance(value, OpResult):
            block = value.op.parent_block()
            if not tree.inside(op, block):
                if _in_other_block_of_same_region(op, block):
                    continue
                return f"operand #{i} does not dominate this use (defined outside the enclosing regions)"
            if not tree.before(value.op, op):
                return f"operand #{i} does not dominate this use"
        elif isinstance(value, BlockArgument):
            if not tree.inside(op, value.block) and not _in_other_block_of_same_region(op, value.block):
                return f"operand #{i} does not dominate this use (a block argument of a block that does not enclose it)"
        elif not isinstance(value, SSAValue):  # pragma: no cover - xDSL keeps operands SSA values
            return f"operand #{i} is not an SSA value"
    return None


def _types(values) -> list:
    return [v.type for v in values]


def _region_type_error(op: Operation) -> str | None:
    if isinstance(op, ModuleOp):
        return module_attribute_error(op)
    if isinstance(op, scf.IfOp):
        for region in op.regions:
            if region.blocks and region.blocks[-1].last_op is not None:
                term = region.blocks[-1].last_op
                if isinstance(term, scf.YieldOp) and _types(term.operands) != _types(op.results):
                    return (f"region yields ({', '.join(map(str, _types(term.operands)))}) but the op returns "
                            f"({', '.join(map(str, _types(op.results)))})")
    elif isinstance(op, FuncOp):
        ftype = op.properties.get("function_type")
        if not isinstance(ftype, FunctionType):
            return "'function_type' must be a function type"
        if not isinstance(op.properties.get("sym_name"), StringAttr):
            return "'sym_name' must be a string"
        if op.regions and op.regions[0].blocks:
            entry = op.regions[0].blocks[0]
            if _types(entry.args) != list(ftype.inputs.data):
                return "entry block arguments do not match the function type's inputs"
            for block in op.regions[0].blocks:
                term = block.last_op
                if isinstance(term, ReturnOp) and _types(term.operands) != list(ftype.outputs.data):
                    return f"tt.return returns {len(term.operands)} value(s) that do not match the function type's results"
    return None
