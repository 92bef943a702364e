"""A pass keeps every value's name (docs/architecture.md): every pass, run over every lit input, leaves
the names the input wrote where they were, and moves no name onto a value that had none; the pass the
scaffold writes (tools/new_pass.py) too."""

import importlib.util
import re
import sys
from dataclasses import fields
from pathlib import Path

import pytest
from irkit.passes import all_passes
from xdsl.context import Context
from xdsl.ir import SSAValue

from irkit.deep import run_deep
from irkit.diagnostics import PassFailure, silenced
from irkit.frontend.parser import parse_text
from irkit.frontend.printer import print_module
from irkit.names import exact_name

ROOT = Path(__file__).resolve().parents[1]
LIT = ROOT / "lit_tests" / "passes"
INPUTS = sorted([*LIT.glob("*.mlir"), *(LIT / "Inputs").glob("*.ttgir")])
NAME = re.compile(r"%([A-Za-z_$.-][\w$.-]*)")


def _chunks(path: Path) -> list[str]:
    return [c for c in path.read_text().split("// -----") if "module" in c]


def _values(module) -> list[SSAValue]:
    values: list[SSAValue] = []
    for op in module.walk():
        values.extend(op.results)
        for region in op.regions:
            for block in region.blocks:
                values.extend(block.args)
    return values


def _offline(cls):
    """The pass with its default options, except that it asks no real compiler (the model decides)."""
    options = {f.name: "model" for f in fields(cls) if f.name == "profit"}
    return cls(**options)


def _renamed(pass_, text: str) -> list[str]:
    """What `pass_` did to the names of one module: each entry is `before -> after`."""
    parsed = parse_text(text)
    before = {id(v): (v, exact_name(v)) for v in _values(parsed.module)}
    written = set(NAME.findall(print_module(parsed)))
    try:
        with silenced():
            run_deep(lambda: pass_.apply(Context(), parsed.module))
    except PassFailure:
        return []  # a negative case: the pass refuses this module
    changed = []
    for value in _values(parsed.module):
        if id(value) in before and exact_name(value) != before[id(value)][1]:
            changed.append(f"%{before[id(value)][1]} -> %{exact_name(value)}")
    # a value the pass built carries the name of the one it replaces, or a copy's (`%rm_6` copied prints as
    # `%rm_6_0`, as MLIR prints a clash), or none (`%12`, a block's `%arg5`): a new name is a renamed value
    out = set(NAME.findall(print_module(parsed)))
    for name in out - written:
        copied = name.rpartition("_")[0] in out & written and name.rpartition("_")[2].isdigit()
        if not (copied or re.fullmatch(r"(arg)?\d+", name)):
            changed.append(f"(new) -> %{name}")
    return changed


@pytest.mark.parametrize("path", INPUTS, ids=lambda p: p.name)
@pytest.mark.parametrize("name", sorted(all_passes()))
def test_every_pass_keeps_the_names_of_every_lit_input(name, path):
    pass_ = _offline(all_passes()[name])
    renamed = {i: r for i, chunk in enumerate(_chunks(path)) if (r := _renamed(pass_, chunk))}
    assert not renamed, f"{name} renamed values of {path.name} (chunk: changes): {renamed}"


def test_the_scaffolds_pass_keeps_names(tmp_path):
    """The pass tools/new_pass.py writes folds `%cvt = convert_layout %0` into `%0`: `%0` stays `%0`."""
    spec = importlib.util.spec_from_file_location("new_pass", ROOT / "tools" / "new_pass.py")
    new_pass = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(new_pass)
    files = new_pass.files_for("keep-names-probe", tmp_path)
    source = next(text for path, text in files.items() if path.suffix == ".py")
    module_path = tmp_path / "keep_names_probe.py"
    module_path.write_text(source)
    spec = importlib.util.spec_from_file_location("keep_names_probe", module_path)
    probe = importlib.util.module_from_spec(spec)
    sys.modules["keep_names_probe"] = probe
    try:
        spec.loader.exec_module(probe)
    finally:
        del sys.modules["keep_names_probe"]
    pass_ = probe.KeepNamesProbePass()
    text = """#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @f(%arg0: tensor<128xf32, #blocked>) -> tensor<128xf32, #blocked> {
    %0 = arith.addf %arg0, %arg0 : tensor<128xf32, #blocked>
    %cvt = ttg.convert_layout %0 : tensor<128xf32, #blocked> -> tensor<128xf32, #blocked>
    %x_7 = ttg.convert_layout %arg0 : tensor<128xf32, #blocked> -> tensor<128xf32, #blocked>
    %y_3 = arith.addf %cvt, %x_7 : tensor<128xf32, #blocked>
    tt.return %y_3 : tensor<128xf32, #blocked>
  }
}
"""
    assert _renamed(pass_, text) == []
    parsed = parse_text(text)
    pass_.apply(Context(), parsed.module)
    out = print_module(parsed)
    assert "ttg.convert_layout" not in out  # it did fold, and
    assert "%y_3 = arith.addf %0, %arg0" in out  # no name moved
