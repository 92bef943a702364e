"""Runs every op's IRDL and `verify_` checks, collecting failures per op
(xDSL's `verify()` stops at the first and does not say which op failed)."""

from __future__ import annotations

from xdsl.ir import Operation
from xdsl.utils.exceptions import VerifyException


def verify_module(root: Operation) -> list[tuple[Operation, str]]:
    errors: list[tuple[Operation, str]] = []
    for op in root.walk():
        try:
            op.verify(verify_nested_ops=False)
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
