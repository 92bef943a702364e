"""The few LLVM-dialect and ROCDL ops that real Triton TTIR/TTGIR contains.

`tl.assume` becomes `llvm.intr.assume` (3.3+); AMD's block ping-pong scheduling (3.3) leaves
`rocdl.s.setprio`, `rocdl.sched.barrier` and `rocdl.workitem.id.x` in the TTGIR.
"""

from __future__ import annotations

from xdsl.dialects.builtin import IntegerType
from xdsl.ir import Dialect
from xdsl.irdl import operand_def, opt_prop_def, prop_def, result_def, traits_def
from xdsl.traits import Pure

from irkit.dialects.base import TritonOp, irkit_op
from irkit.dialects.encodings import OpaqueAttr
from irkit.frontend.opformat import AttrStyle, IntStyle


class SchedGroupMaskStyle(AttrStyle):
    """rocdl.sched.barrier's mask: an i32 in 3.3 (`0`); in 3.9 a `#rocdl<sched_group_mask ...>` bit enum written
    as its keywords (`none`, `valu|salu`), kept as that attribute's text."""

    PREFIX = "<sched_group_mask "

    def parse(self, p):
        from xdsl.dialects.builtin import IntegerAttr, StringAttr

        c = p.cur.peek()
        if c.isdigit() or c == "-":
            return IntegerAttr(p.cur.integer(), IntegerType(32))
        words = [self._word(p)]
        while p.cur.try_lit("|"):
            words.append(self._word(p))
        return OpaqueAttr(StringAttr("rocdl"), StringAttr(self.PREFIX + "|".join(words) + ">"))

    @staticmethod
    def _word(p) -> str:
        pos = p.cur.skip()
        word = p.cur.try_keyword()
        if word is None:
            raise p.cur.error("expected a scheduling group mask (an integer or keywords like 'valu|salu')", pos)
        return word

    def print(self, pr, value):
        from xdsl.dialects.builtin import IntegerAttr

        if isinstance(value, IntegerAttr):
            return str(value.value.data)
        if isinstance(value, OpaqueAttr) and value.body.data.startswith(self.PREFIX):
            return value.body.data[len(self.PREFIX):-1]
        return pr.attribute(value)


@irkit_op
class AssumeOp(TritonOp):
    name = "llvm.intr.assume"
    cond = operand_def()
    op_bundle_sizes = prop_def()  # array<i32>: no operand bundles in Triton's IR (custom_syntax)
    op_bundle_tags = opt_prop_def()


@irkit_op
class SetPrioOp(TritonOp):
    """s_setprio: wave priority (an i16 immediate)."""

    name = "rocdl.s.setprio"
    priority = prop_def()
    FORMAT = "$priority attr-dict"
    ATTR_STYLES = {"priority": IntStyle(16)}


@irkit_op
class SchedBarrierOp(TritonOp):
    """s_sched_barrier with an instruction-class mask (an i32 immediate)."""

    name = "rocdl.sched.barrier"
    mask = prop_def()
    FORMAT = "$mask attr-dict"
    ATTR_STYLES = {"mask": SchedGroupMaskStyle()}


@irkit_op
class WorkitemIdXOp(TritonOp):
    name = "rocdl.workitem.id.x"
    res = result_def()
    range = opt_prop_def()
    traits = traits_def(Pure())
    FORMAT = "(`range` $range^)? attr-dict `:` type($res)"


LLVM_OPS = [AssumeOp]
ROCDL_OPS = [SetPrioOp, SchedBarrierOp, WorkitemIdXOp]
LLVMExtras = Dialect("llvm", LLVM_OPS, [])
ROCDL = Dialect("rocdl", ROCDL_OPS, [])

__all__ = ["LLVM_OPS", "ROCDL_OPS"]
