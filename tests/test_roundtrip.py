"""Round trip of every corpus IR file (.source.ttir, .ttir, .ttgir of Triton 3.1, 3.3 and 3.9).

* with debuginfo the printed module is the input, up to runs of whitespace;
* without debuginfo there is no location left, and printing is idempotent
  (print -> parse -> print gives the same text);
* every module verifies;
* generic form (every op quoted) parses back to the same module.

The Python API does the bulk (one parse per file and session); a few files
go through the `irkit-opt` command itself.
"""

from __future__ import annotations

import subprocess
import sys

import pytest
from frontend_corpus import CORPUS_IR_FILES, VERSIONS, custom_op_lines, file_id, normalize, version_of

from irkit.frontend.parser import Parser
from irkit.frontend.printer import print_module
from irkit.verifier import verify_module

FILES = pytest.mark.parametrize("path", CORPUS_IR_FILES, ids=file_id)


def test_corpus_is_complete(corpus, parsed_corpus):
    """Every kind of file of every version is there (a vanished corpus must not pass as zero cases)."""
    kinds = {(version_of(p), p.name.split(".", 1)[1]) for p in CORPUS_IR_FILES}
    for version in VERSIONS:
        for suffix in ("source.ttir", "ttir", "ttgir"):
            assert (version, suffix) in kinds


@FILES
def test_debuginfo_output_is_the_input(path, parsed_corpus):
    text = parsed_corpus.read(path)
    out = parsed_corpus.printed(path, debuginfo=True)
    assert normalize(out) == normalize(text)


@FILES
def test_without_debuginfo_is_location_free_and_idempotent(path, parsed_corpus):
    out = parsed_corpus.printed(path)
    assert "loc(" not in out and "#loc" not in out
    again = print_module(Parser(out, "printed").parse())
    assert again == out


@FILES
def test_module_verifies(path, parsed_corpus):
    assert verify_module(parsed_corpus.parsed(path).module) == []


@FILES
def test_generic_form_parses_back(path, parsed_corpus):
    pm = parsed_corpus.parsed(path)
    generic = parsed_corpus.printed(path, debuginfo=True, generic=True)
    assert custom_op_lines(generic) == []
    back = Parser(generic, "generic").parse()
    assert verify_module(back.module) == []
    # The generic form does not say which version's custom syntax an op had
    # (3.3 `ttg.async_commit_group %t` vs 3.9 `... tokens %t`): that choice
    # comes from the original file, the IR from the generic text.
    back.variants = dict(pm.variants)
    assert print_module(back, debuginfo=True) == parsed_corpus.printed(path, debuginfo=True)


def _one_per_version() -> list:
    picked = {}
    for p in CORPUS_IR_FILES:
        if p.name.endswith(".ttgir") and "matmul" in p.name:
            picked.setdefault(version_of(p), p)
    return [picked[v] for v in sorted(picked)]


@pytest.mark.parametrize("path", _one_per_version(), ids=file_id)
def test_cli_round_trip(path, parsed_corpus):
    text = parsed_corpus.read(path)
    opt = [sys.executable, "-m", "irkit.cli.opt"]
    with_debug = subprocess.run([*opt, "--mlir-print-debuginfo", str(path)], capture_output=True, text=True)
    assert with_debug.returncode == 0, with_debug.stderr
    assert normalize(with_debug.stdout) == normalize(text)
    plain = subprocess.run([*opt, "-"], input=text, capture_output=True, text=True)
    assert plain.returncode == 0, plain.stderr
    assert "loc(" not in plain.stdout
    assert plain.stdout == parsed_corpus.printed(path)
    again = subprocess.run([*opt, "-"], input=plain.stdout, capture_output=True, text=True)
    assert again.returncode == 0 and again.stdout == plain.stdout
