"""irkit.names: exact SSA names through xDSL's rewriter."""

from xdsl.dialects.builtin import IntegerAttr, ModuleOp, i64
from xdsl.ir import Block, Region
from xdsl.pattern_rewriter import PatternRewriter

from irkit.dialects.arith import AddIOp, ConstantOp, MulIOp
from irkit.names import copy_name, exact_name, replace_keeping_names, set_exact_name


def _block():
    one = ConstantOp(IntegerAttr(1, i64))
    add = AddIOp(one.result, one.result)
    use = MulIOp(add.result, add.result)
    block = Block([one, add, use])
    ModuleOp(Region(block))
    return one, add, use


def test_exact_names_keep_their_numeric_suffix():
    one, add, _ = _block()
    set_exact_name(add.result, "sum_7")
    assert exact_name(add.result) == "sum_7"
    add.result.name_hint = "sum_7"  # xDSL's setter, for contrast
    assert exact_name(add.result) == "sum"
    copy_name(add.result, one.result)
    assert exact_name(one.result) == "sum"


def test_replace_keeping_names():
    one, add, use = _block()
    set_exact_name(add.result, "acc_2")
    new = MulIOp(one.result, one.result)
    replace_keeping_names(PatternRewriter(add), add, new)
    assert use.lhs is new.result and exact_name(new.result) == "acc_2"


def test_xdsl_replace_alone_would_rename():
    one, add, _ = _block()
    set_exact_name(add.result, "acc_2")
    new = MulIOp(one.result, one.result)
    PatternRewriter(add).replace(add, new)
    assert exact_name(new.result) == "acc"
