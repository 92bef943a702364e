"""SSA value names, as the text had them and as passes keep them: the one API for reading and writing them.

xDSL's `name_hint` setter drops a trailing `_N` (`%cst_0` -> `cst`), and its rewriter, `clone` and
`replace` go through that setter, which would rename every value MLIR had deduplicated (`%iv_1` -> `%iv`).
irkit stores names exactly: read them with `exact_name`, write them with `set_exact_name`/`copy_name`, and
replace an op through `replace_keeping_names` so its results' names pass to the new values unchanged.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from xdsl.ir import Operation, SSAValue

if TYPE_CHECKING:
    from xdsl.pattern_rewriter import PatternRewriter


def set_exact_name(value: SSAValue, name: str | None) -> None:
    """Give `value` exactly this name (printed as `%name` unless it clashes)."""
    value._name = name  # the validated setter is what we must avoid


def exact_name(value: SSAValue) -> str | None:
    """The name as written (`acc_7`), or None for an unnamed value."""
    return value._name


def copy_name(source: SSAValue, target: SSAValue) -> None:
    """`target` takes `source`'s exact name, if it has one."""
    name = exact_name(source)
    if name is not None:
        set_exact_name(target, name)


def clone_keeping_names(op: Operation) -> Operation:
    """`op.clone()` with every value's exact name (xDSL's clone renames `%iv_1` to `%iv`)."""
    new = op.clone()
    for old_op, new_op in zip(op.walk(), new.walk(), strict=True):
        for old, fresh in zip(old_op.results, new_op.results, strict=True):
            set_exact_name(fresh, exact_name(old))
        for old_region, new_region in zip(old_op.regions, new_op.regions, strict=True):
            for old_block, new_block in zip(old_region.blocks, new_region.blocks, strict=True):
                for old, fresh in zip(old_block.args, new_block.args, strict=True):
                    set_exact_name(fresh, exact_name(old))
    return new


def replace_keeping_names(
    rewriter: PatternRewriter,
    op: Operation,
    new_ops: Operation | Sequence[Operation],
    new_results: Sequence[SSAValue | None] | None = None,
) -> None:
    """`rewriter.replace(op, new_ops, new_results)`, with each new result named exactly as the
    result it replaces."""
    names = [exact_name(r) for r in op.results]
    rewriter.replace(op, new_ops, new_results)
    if new_results is None:
        last = new_ops if isinstance(new_ops, Operation) else (new_ops[-1] if new_ops else None)
        new_results = list(last.results) if last is not None else []
    for name, new in zip(names, new_results):
        if new is not None and name is not None:
            set_exact_name(new, name)
