"""SSA value names, as the text had them and as passes keep them: the one API for reading and writing them.

xDSL's `name_hint` setter drops a trailing `_N` (`%cst_0` -> `cst`), and its rewriter, `clone` and
`replace` go through that setter, which would rename every value MLIR had deduplicated (`%iv_1` -> `%iv`).
irkit stores names exactly: read them with `exact_name`, write them with `set_exact_name`/`copy_name`,
replace an op through `replace_keeping_names` so its results' names pass to the new values unchanged, and
redirect a value's uses with `replace_uses` (an existing value keeps its own name, even none) or `hand_over`
(a value built to stand in for the old one takes its name).  xDSL's `replace_all_uses_with` would move the old
name onto an unnamed value (`%0` printed as `%cvt`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, TypeVar

from xdsl.ir import Operation, SSAValue

if TYPE_CHECKING:
    from xdsl.pattern_rewriter import PatternRewriter

_OpT = TypeVar("_OpT", bound=Operation)


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


def clone_keeping_names(op: _OpT) -> _OpT:
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


def replace_uses(old: SSAValue, new: SSAValue, rewriter: PatternRewriter | None = None) -> None:
    """Every use of `old` becomes a use of `new` (through `rewriter` when given); `new` keeps its own name."""
    name = exact_name(new)
    if rewriter is None:
        old.replace_all_uses_with(new)
    else:
        rewriter.replace_all_uses_with(old, new)
    set_exact_name(new, name)


def hand_over(old: SSAValue, new: SSAValue, rewriter: PatternRewriter | None = None) -> None:
    """`new`, built to stand in for `old`, takes its uses and its exact name."""
    replace_uses(old, new, rewriter)
    copy_name(old, new)


def replace_keeping_names(
    rewriter: PatternRewriter,
    op: Operation,
    new_ops: Operation | Sequence[Operation],
    new_results: Sequence[SSAValue | None] | None = None,
) -> None:
    """`rewriter.replace(op, new_ops, new_results)`, with each result of `new_ops` named exactly as the
    result it replaces; a value that already existed (`rewriter.replace(op, [], [op.src])`) keeps its own."""
    ops = [new_ops] if isinstance(new_ops, Operation) else list(new_ops)
    if new_results is None:
        new_results = list(ops[-1].results) if ops else []
    built = {id(r) for new_op in ops for r in new_op.results}
    names = [
        (new, exact_name(old) if id(new) in built else exact_name(new))
        for old, new in zip(op.results, new_results)
        if new is not None
    ]
    rewriter.replace(op, new_ops, new_results)
    for new, name in names:
        set_exact_name(new, name)
