"""The syntax Triton 3.3-3.9 and main print (lit_tests/frontend/ops-main-2026*.mlir, ops-releases-33-38.mlir):
the real parser of the release that prints each case reads irkit's printout of it, and a broken copy is rejected
(so a checker that accepts anything fails).  Skips without those Tritons (IRKIT_TRITON_PYTHONS, as tests/test_real_parser.py)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from test_real_parser import check

from irkit.frontend.parser import parse_text
from irkit.frontend.printer import print_module

LIT = Path(__file__).resolve().parents[1] / "lit_tests" / "frontend" / "ops-main-2026.mlir"
# chunk of the lit file -> the Triton whose parser knows that syntax (AMD's 3.8 buffer-op and async-copy
# formats, nvws, the microscaling types: 3.8; tc_gen5_mma's function-type form: 3.3)
READER = {0: "3.8.0", 1: "3.8.0", 2: "3.8.0", 3: "3.8.0", 4: "3.3.1"}
# main of August 2026 (lit_tests/frontend/ops-main-2026-08.mlir): every chunk but the first is read by 3.9.0;
# the first is Intel's 2D block loads, which no released triton-xpu has
LIT_AUG = LIT.with_name("ops-main-2026-08.mlir")
READER_AUG = {1: "3.9.0", 2: "3.9.0", 3: "3.9.0", 4: "3.9.0", 5: "3.9.0", 6: "3.9.0", 7: "3.9.0"}
# ops of 3.3-3.8 under those releases' names (lit_tests/frontend/ops-releases-33-38.mlir)
LIT_RELEASES = LIT.with_name("ops-releases-33-38.mlir")
READER_RELEASES = {0: "3.3.1", 1: "3.8.0", 2: "3.6.0", 3: "3.8.0", 4: "3.9.0", 5: "3.3.1"}
# layouts Triton does not check on arith/math/scf/amdg ops (lit_tests/verifier/layouts-unchecked.mlir)
LIT_UNCHECKED = LIT.parents[1] / "verifier" / "layouts-unchecked.mlir"
READER_UNCHECKED = {0: "3.9.0", 1: "3.9.0"}


def chunks(lit: Path = LIT) -> list[str]:
    text = "\n".join(line for line in lit.read_text().splitlines() if not line.startswith("// RUN"))
    return text.split("// -----\n")


@pytest.mark.parametrize(("lit", "index", "version"),
                         [(LIT, i, v) for i, v in sorted(READER.items())]
                         + [(LIT_AUG, i, v) for i, v in sorted(READER_AUG.items())]
                         + [(LIT_RELEASES, i, v) for i, v in sorted(READER_RELEASES.items())]
                         + [(LIT_UNCHECKED, i, v) for i, v in sorted(READER_UNCHECKED.items())])
def test_real_parser_reads_irkit_printout(lit, index, version, tmp_path):
    printed = print_module(parse_text(chunks(lit)[index]))
    good = tmp_path / "printed.mlir"
    good.write_text(printed)
    broken = tmp_path / "broken.mlir"
    broken.write_text(re.sub(r"\b(tt|llvm)\.return\b", r"\1.returnn", printed, count=1))
    results = check(version, [good, broken])
    assert results[str(good)] is None, results[str(good)]
    assert results[str(broken)] is not None


def test_every_chunk_has_a_reader():
    assert len(chunks()) == len(READER)
    assert len(chunks(LIT_AUG)) == len(READER_AUG) + 1
    assert len(chunks(LIT_RELEASES)) == len(READER_RELEASES)
    assert len(chunks(LIT_UNCHECKED)) == len(READER_UNCHECKED)


def test_intel_block_loads_print_as_triton_opt():
    """FileCheck does not see blanks: the exact spacing of the formats with a `` ` ` `` element and braces."""
    printed = print_module(parse_text(chunks(LIT_AUG)[0]))
    assert "%c = ttig.2d_block_load_from_ptr %ptrs, %pitch {row_major} {base_height = 64 : i32, base_width = 32 : i32} : (" in printed
    assert "%b = ttig.2d_block_load %p, %w, %h, %pitch[%x, %y] {column_major, pad_nan} : <f16> -> tensor<" in printed
    assert "  {" not in printed.replace("\n  {", "")
