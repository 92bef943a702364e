"""`cse`: MLIR's -cse (common subexpression elimination), xDSL's driver on irkit's ops.

Two ops with the same name, operands, properties, attributes and result types, of which neither has side
effects (the IRDL `Pure` trait of irkit's tt/ttg/arith ops), are one: the later one's uses go to the
earlier one, which dominates it, and the later one is erased.  Ops that read memory (`tt.load`) are not
merged: irkit's ops declare no read-only effects, so they count as having unknown effects.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.transforms.common_subexpression_elimination import cse


@dataclass(frozen=True)
class CSEPass(ModulePass):
    """Eliminate common subexpressions: identical side-effect-free ops become one (MLIR's -cse)."""

    name = "cse"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        cse(op)
