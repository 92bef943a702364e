"""The syntax Triton 3.8/3.9 and main print (lit_tests/frontend/ops-main-2026.mlir): the real parser of the
release that prints each case reads irkit's printout of it, and a broken copy is rejected (so a checker that
accepts anything fails).  Skips without those Tritons (IRKIT_TRITON_PYTHONS, as tests/test_real_parser.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_real_parser import check

from irkit.frontend.parser import parse_text
from irkit.frontend.printer import print_module

LIT = Path(__file__).resolve().parents[1] / "lit_tests" / "frontend" / "ops-main-2026.mlir"
# chunk of the lit file -> the Triton whose parser knows that syntax (AMD's 3.8 buffer-op and async-copy
# formats, nvws, the microscaling types: 3.8; tc_gen5_mma's function-type form: 3.3)
READER = {0: "3.8.0", 1: "3.8.0", 2: "3.8.0", 3: "3.8.0", 4: "3.3.1"}


def chunks() -> list[str]:
    text = "\n".join(line for line in LIT.read_text().splitlines() if not line.startswith("// RUN"))
    return text.split("// -----\n")


@pytest.mark.parametrize("index", sorted(READER))
def test_real_parser_reads_irkit_printout(index, tmp_path):
    printed = print_module(parse_text(chunks()[index]))
    good = tmp_path / "printed.mlir"
    good.write_text(printed)
    broken = tmp_path / "broken.mlir"
    broken.write_text(printed.replace("tt.return", "tt.returnn", 1))
    results = check(READER[index], [good, broken])
    assert results[str(good)] is None, results[str(good)]
    assert results[str(broken)] is not None


def test_every_chunk_has_a_reader():
    assert len(chunks()) == len(READER)
