"""SSA value names, as the text had them and as passes want to keep them.

xDSL's `name_hint` setter drops a trailing `_N` (`%cst_0` -> `cst`), which would
rename every value MLIR had deduplicated; irkit stores names exactly."""

from __future__ import annotations

from xdsl.ir import SSAValue


def set_exact_name(value: SSAValue, name: str) -> None:
    """Give `value` exactly this name (printed as `%name` unless it clashes)."""
    value._name = name  # noqa: SLF001 - the validated setter is what we must avoid


def exact_name(value: SSAValue) -> str | None:
    return value._name  # noqa: SLF001
