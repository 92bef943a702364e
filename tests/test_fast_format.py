"""The one-regex reading of op lines (irkit/frontend/fastformat.py) builds exactly
what the format interpreter builds, and leaves every line it does not fit to it."""

import pytest

from irkit.frontend import parser as parser_module
from irkit.frontend.lexer import ParseError
from irkit.frontend.parser import Parser
from irkit.frontend.printer import print_module


def _generic(text: str, fast: bool, monkeypatch) -> str:
    with monkeypatch.context() as m:
        if not fast:
            m.setattr(parser_module.Parser, "_fast_walk", lambda self, cls, fmt: None)
        return print_module(Parser(text, "x").parse(), generic=True, debuginfo=True)


def test_same_ir_as_the_interpreter_on_the_corpus(corpus, monkeypatch):
    files = sorted(corpus.glob("ir/*/*/*.tt*ir"))
    assert files
    for path in files[::4]:
        text = path.read_text()
        assert _generic(text, True, monkeypatch) == _generic(text, False, monkeypatch), path.name


HEAD = '#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>\n'
CASES = [
    # plain line, read by the regex
    "%c = arith.addi %a, %b : tensor<128xi32, #blocked>",
    # optional group present: the interpreter
    "%c = arith.addi %a, %b overflow<nsw> : tensor<128xi32, #blocked>",
    # attribute dictionary present
    '%c = arith.addi %a, %b {tt.divisibility = 16 : i32, s = "x}"} : tensor<128xi32, #blocked>',
    # enum keyword attribute and a keyword literal
    "%c = arith.cmpi slt, %a, %b : tensor<128xi32, #blocked>",
    # an op split over two lines
    "%c = arith.addi %a,\n   %b : tensor<128xi32, #blocked>",
]


@pytest.mark.parametrize("line", CASES)
def test_lines_read_alike(line, monkeypatch):
    text = (HEAD + "module {\n  tt.func @f(%a: tensor<128xi32, #blocked>, %b: tensor<128xi32, #blocked>) {\n    "
            + line + ' loc("f.py":1:2)\n    tt.return\n  }\n}\n')
    assert _generic(text, True, monkeypatch) == _generic(text, False, monkeypatch)


@pytest.mark.parametrize(
    "line, message",
    [
        ("%c = arith.cmpi sltx, %a, %b : tensor<128xi32, #blocked>", "expected one of"),
        ("%c = arith.addi %a, %b : tensor<128xi32, #nope>", "undefined symbol alias"),
        ("%c = arith.addi %a, %zz : tensor<128xi32, #blocked>", "%zz"),
    ],
)
def test_errors_are_the_interpreters(line, message):
    text = (HEAD + "module {\n  tt.func @f(%a: tensor<128xi32, #blocked>, %b: tensor<128xi32, #blocked>) {\n    "
            + line + "\n    tt.return\n  }\n}\n")
    with pytest.raises(ParseError) as err:
        Parser(text, "x").parse()
    assert message in err.value.message


def _with_loc_alias(line: str, alias_def: str) -> str:
    return (HEAD + "module {\n  tt.func @f(%a: tensor<128xi32, #blocked>, %b: tensor<128xi32, #blocked>) {\n    "
            + line + "\n    tt.return\n  }\n}\n" + alias_def)


def test_trailing_location_alias_is_the_ops(monkeypatch):
    text = _with_loc_alias("%c = arith.addi %a, %b : tensor<128xi32, #blocked> loc(#loc1)", '#loc1 = loc("f.py":7:3)\n')
    assert _generic(text, True, monkeypatch) == _generic(text, False, monkeypatch)
    module = Parser(text, "x").parse().module
    add = next(op for op in module.walk() if op.name == "arith.addi")
    assert add.location.line.data == 7


def test_trailing_alias_that_is_not_a_location_is_an_error():
    text = _with_loc_alias("%c = arith.addi %a, %b : tensor<128xi32, #blocked> loc(#blocked)", "")
    with pytest.raises(ParseError) as err:
        Parser(text, "x").parse()
    assert "not a location" in err.value.message
