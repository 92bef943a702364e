"""How the printer names SSA values and blocks, as MLIR does: names as written (or, on request, as
triton-opt names them: `getAsmResultNames`), unnamed values numbered per isolated region (`%0`, `%arg3`,
`^bb1`), clashes made unique with `_N`, multi-result groups kept.
Used by the printer and by the hand-written syntax of `tt.func` (custom_syntax)."""

from __future__ import annotations

import re
from typing import Any

from xdsl.dialects.builtin import IntegerAttr, IntegerType, Signedness
from xdsl.ir import Block, Operation, Region, SSAValue

from irkit.dialects.arith import ConstantOp

_ARG_NAME = re.compile(r"arg\d+$")


class ValueNames:
    """SSA value and block names of one isolated region, numbered as MLIR does:
    a region's blocks first, then its nested regions, each starting from the
    counters its parent region ended with (so sibling regions reuse numbers).

    Names come from the values' name hints (as the input wrote them), or with
    `mlir=True` as triton-opt gives them: `%argN` for entry-block arguments,
    arith.constant's own names (`%c0_i32`, `%cst`, `%true`), numbers otherwise;
    a name already in use gets MLIR's `_N` suffix from one counter per region."""

    def __init__(self, mlir: bool = False) -> None:
        self.mlir = mlir
        self.values: dict[SSAValue, str] = {}
        # result groups of multi-result ops: (name, size) per group, as written (`%a, %b:2 = ...`)
        self.groups: dict[Operation, list[tuple[str, int]]] = {}
        self.blocks: dict[Block, str] = {}

    def number(self, region: Region) -> None:
        self._number(region, 0, 0, set(), 0)

    def _number(self, region: Region, next_value: int, next_arg: int, visible: set[str], next_conflict: int) -> None:
        """`visible`: the names of this region's enclosing regions, to which this one's are added while its
        nested regions are numbered, then taken away (one set for every depth, not one per level: 10,000
        nested regions stay linear)."""
        used: set[str] = set()
        mlir = self.mlir
        taken = visible.__contains__

        conflict = [next_conflict]  # a list, not `nonlocal`: the loops below stay free of cell variables

        def unique(hint: str) -> str:
            name = hint
            if mlir:  # SSANameState::uniqueValueName
                while taken(name):
                    name = f"{hint}_{conflict[0]}"
                    conflict[0] += 1
            else:
                i = 0
                while taken(name):
                    name = f"{hint}_{i}"
                    i += 1
            used.add(name)
            visible.add(name)
            return name

        for bi, block in enumerate(region.blocks):
            self.blocks[block] = f"bb{bi}"
            for arg in block.args:
                if mlir or (bi > 0 and not arg.name_hint):  # MLIR numbers a non-entry block's unnamed arguments
                    if bi == 0:
                        self.values[arg] = unique(f"arg{next_arg}")
                        next_arg += 1
                        continue
                    while taken(str(next_value)):  # a non-entry block's arguments are numbered
                        next_value += 1
                    self.values[arg] = str(next_value)
                    used.add(str(next_value))
                    visible.add(str(next_value))
                    next_value += 1
                    continue
                i = next_arg
                next_arg += 1
                hint = arg.name_hint
                if hint and not _ARG_NAME.match(hint):
                    self.values[arg] = unique(hint)
                else:
                    self.values[arg] = unique(f"arg{i}")
            for op in block.ops:
                results = op.results
                if not results:
                    continue
                if len(results) == 1:  # the common case of the loop below
                    r = results[0]
                    hint = _mlir_result_name(op) if mlir else r.name_hint
                    if hint:
                        self.values[r] = unique(hint)
                        continue
                    while taken(str(next_value)):
                        next_value += 1
                    name = str(next_value)
                    next_value += 1
                    used.add(name)
                    visible.add(name)
                    self.values[r] = name
                    continue
                groups: list[tuple[str, int]] = []
                names = _RESULT_NAMES.get(op.name) if mlir else None
                runs = [[r] for r in op.results] if names else [list(op.results)] if mlir else _result_runs(op.results)
                for k, run in enumerate(runs):
                    hint = (names[k] if k < len(names) else None) if names else None if mlir else run[0].name_hint
                    if hint:
                        name = unique(hint)
                    else:
                        while taken(str(next_value)):
                            next_value += 1
                        name = str(next_value)
                        next_value += 1
                        used.add(name)
                        visible.add(name)
                    groups.append((name, len(run)))
                    if len(run) == 1:
                        self.values[run[0]] = name
                    else:
                        for i, r in enumerate(run):
                            self.values[r] = f"{name}#{i}"
                if len(op.results) > 1:
                    self.groups[op] = groups
        for block in region.blocks:
            for op in block.ops:
                if is_isolated(op):
                    continue
                for r in op.regions:
                    self._number(r, next_value, next_arg, visible, conflict[0])
        visible -= used


# Ops naming their results (OpAsmOpInterface::getAsmResultNames), by op name; checked against the real printers.
_RESULT_NAMES = {
    "tt.split": ("outLHS", "outRHS"),
    "ttng.tmem_alloc": ("result", "token"),
    "ttng.tmem_load": ("result", "token"),
}


def _mlir_result_name(op: Operation) -> str | None:
    """OpAsmOpInterface::getAsmResultNames of a single-result op Triton prints."""
    if not isinstance(op, ConstantOp):
        names = _RESULT_NAMES.get(op.name)
        return names[0] if names else None
    value = op.properties.get("value")
    if isinstance(value, IntegerAttr):
        t = value.type
        if isinstance(t, IntegerType) and t.width.data == 1:
            return "true" if value.value.data else "false"
        if isinstance(t, IntegerType):
            sign = {Signedness.SIGNLESS: "i", Signedness.SIGNED: "si", Signedness.UNSIGNED: "ui"}[t.signedness.data]
            return f"c{value.value.data}_{sign}{t.width.data}"
        return f"c{value.value.data}"
    return "cst"


def _result_runs(results: Any) -> list[list[SSAValue]]:
    """Results split into groups of one name: a parsed `%a, %b = ...` names each result, `%a:2 = ...` names
    both `a`.  Unless every result has a name (results a pass made), they form one group (`%5:2`)."""
    if any(not r.name_hint for r in results):
        return [list(results)]
    runs: list[list[SSAValue]] = []
    for r in results:
        if runs and runs[-1][0].name_hint == r.name_hint:
            runs[-1].append(r)
        else:
            runs.append([r])
    return runs


def is_isolated(op: Operation) -> bool:
    return op.name in ("tt.func", "builtin.module", "func.func", "gpu.module", "gpu.func")
