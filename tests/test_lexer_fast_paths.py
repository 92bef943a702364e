"""The lexer's fast paths (bench/ work) read exactly what the plain versions read."""

import random

import pytest

from irkit.frontend.lexer import Cursor, ParseError


def _end(f, i):
    try:
        return f(i)
    except ParseError as e:
        return ("error", e.pos)


TRICKY = [
    'tensor<"a>\\"b" >',
    'x<"unterminated',
    "<a -> b>",
    "<(\n)>",
    "<\n",
    '<"\\\\">',
    "tensor<128x!tt.ptr<f16>, #ttg.slice<{dim = 1, parent = #blocked}>> loc(#loc3)",
    "(i32, f32) -> (tensor<4xi32>)",
    "{a = [1, 2], b = {c}}",
    "<{x = [1, 2]}>>",
]


@pytest.mark.parametrize("text", TRICKY)
def test_balanced_end_matches_the_character_scan(text):
    cur = Cursor(text)
    for i, ch in enumerate(text):
        if ch in "<([{":
            assert _end(cur.balanced_end, i) == _end(cur._balanced_end_by_char, i)


def test_balanced_end_on_corpus_text(corpus):
    random.seed(0)
    for path in sorted(corpus.glob("ir/*/*/*.ttgir"))[::7]:
        text = path.read_text()
        cur = Cursor(text)
        starts = [i for i, ch in enumerate(text) if ch in "<([{"]
        for i in random.sample(starts, min(300, len(starts))):
            assert _end(cur.balanced_end, i) == _end(cur._balanced_end_by_char, i), (path.name, i)


@pytest.mark.parametrize("blank", [" ", "  ", "\t", "\n", "\r\n", " \n ", " // c\n", "// c\n  "])
def test_skip_steps_over_every_kind_of_blank(blank):
    cur = Cursor(blank + "x")
    assert cur.skip() == len(blank)
    assert cur.try_lit("x")


@pytest.mark.parametrize("other", ["\u00a0", "\u2003", "\x85"])
def test_skip_stops_at_what_mlir_does_not_call_a_blank(other):
    """MLIR's lexer skips only space, tab, newline and carriage return; a no-break space is an error there."""
    cur = Cursor(" " + other + "x")
    assert cur.skip() == 1


def test_skip_stops_at_a_slash_that_is_not_a_comment():
    cur = Cursor(" /x")
    assert cur.skip() == 1


def test_try_lit_keyword_boundary_with_and_without_blank():
    assert not Cursor("tox").try_lit("to")
    assert not Cursor(" to.x").try_lit("to")
    cur = Cursor("to x")
    assert cur.try_lit("to") and cur.pos == 2
    cur = Cursor("  ->")
    assert cur.try_lit("->") and cur.pos == 4
    cur = Cursor("  y")
    assert not cur.try_lit("x") and cur.pos == 2
