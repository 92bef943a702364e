"""canonicalize equals Triton's own canonicalizer runs, read from the compiler's IR dumps (no Triton needed).

tests/data/corpus/dumps holds `MLIR_ENABLE_DUMP` logs of real compiles (Triton 3.1.0 and 3.9.0, sm80): the
module before every pass.  Each `Canonicalizer` run on the whole module is followed by the next pass's
"before" dump, which is that run's output.  irkit's canonicalize, told the version, must turn the first into
the second (locations, constants and value names set aside: MLIR hoists constants, and numbers deduplicated
names its own way).  Runs whose input holds what irkit does not read (`llvm.mlir.global` after lowering) are
left out; at least 11 are compared.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest
from irkit.passes.canonicalize import CanonicalizePass
from test_canonicalize_releases import _without_names, comparable
from xdsl.context import Context

from irkit.frontend.parser import Parser
from irkit.frontend.printer import print_module

DUMPS = Path(__file__).resolve().parent / "data" / "corpus" / "dumps"


def _dump_lines(folder: Path) -> list[str]:
    path = folder / "mlir_dump.full.txt.gz"
    return gzip.open(path, "rt").read().splitlines()


def canonicalizer_runs() -> list[tuple[str, str, str, str]]:
    """(id, Triton version, module before, module after) of each module-level Canonicalizer run."""
    runs = []
    for sections_path in sorted(DUMPS.glob("*/*/*/sections.json")):
        folder = sections_path.parent
        version = folder.parent.parent.name
        sections = json.loads(sections_path.read_text())["sections"]
        lines = _dump_lines(folder)
        for here, after in zip(sections, sections[1:]):
            if "Canonicalizer" not in here["pass"] or {here["anchor_op"], after["anchor_op"]} != {"builtin.module"}:
                continue  # a run nested in another pass, or one whose output the log does not show whole
            text = "\n".join(lines[here["first_line"]:here["last_line"]])
            if "llvm.mlir.global" in text:
                continue  # lowered to LLVM: not TTGIR any more
            runs.append((f"{version}/{folder.name}#{here['index']}", version, text,
                         "\n".join(lines[after["first_line"]:after["last_line"]])))
    return runs


RUNS = canonicalizer_runs()


def test_enough_runs():
    assert len(RUNS) >= 11, [run_id for run_id, *_ in RUNS]


@pytest.mark.parametrize("run_id,version,before,after", RUNS, ids=[r[0] for r in RUNS])
def test_canonicalize_equals_the_compilers_run(run_id, version, before, after):
    parsed = Parser(before, "in.mlir").parse()
    CanonicalizePass(version=version).apply(Context(), parsed.module)
    assert _without_names(comparable(print_module(parsed))) == _without_names(comparable(after)), run_id
