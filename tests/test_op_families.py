"""Analyses and passes match ops by class: every class they match on must be the one the parser builds
for that op name, or the match silently never fires."""

import pytest

from irkit.analysis import axis_info, mma_slice, shared_memory
from irkit.dialects import families
from irkit.dialects.registry import OPS
from irkit.frontend.parser import parse_text

TABLES = {
    "axis_info.VISITORS_39": tuple(axis_info.VISITORS_39),
    "mma_slice.PURE_SAME_LAYOUT": mma_slice.PURE_SAME_LAYOUT,
    "mma_slice.OPAQUE_SAME_LAYOUT": mma_slice.OPAQUE_SAME_LAYOUT,
    "mma_slice.LEAVES": mma_slice.LEAVES,
    "shared_memory.VIEW_OPS": shared_memory.VIEW_OPS,
    "families.FUNCTION_OPS": families.FUNCTION_OPS,
    "families.CALL_OPS": families.CALL_OPS,
    "families.REGION_BRANCH_OPS": families.REGION_BRANCH_OPS,
    "families.REGION_TERMINATORS": families.REGION_TERMINATORS,
}


@pytest.mark.parametrize("table", sorted(TABLES))
def test_matched_classes_are_the_parsed_ones(table):
    classes = TABLES[table]
    assert classes
    for cls in classes:
        assert OPS.get(cls.name) is cls, f"{table}: {cls.__name__} is not what the parser builds for {cls.name}"


def test_visitor_rules_by_class():
    """A 3.9-only rule (tt.reshape) sits in the 3.9 table alone."""
    reshape = OPS["tt.reshape"]
    assert reshape in axis_info.VISITORS_39 and reshape not in axis_info.VISITORS
    assert set(axis_info.VISITORS) < set(axis_info.VISITORS_39)


def test_unregistered_function_is_opaque():
    """An op irkit has no class for (here upstream `func.func`, read with --allow-unregistered-dialect) is
    named "builtin.unregistered" in xDSL: no analysis takes it for a function."""
    pm = parse_text(
        '"func.func"() ({\n  "func.return"() : () -> ()\n}) {sym_name = "f", function_type = () -> ()} : () -> ()\n',
        allow_unregistered=True,
    )
    func = pm.module.body.block.first_op
    assert func.name == "builtin.unregistered" and not isinstance(func, families.FUNCTION_OPS)
    assert not shared_memory.analyze_shared_memory(pm.module).functions
