"""A position-based scanner over MLIR text.

The parser asks for one token at a time at the current position (compiled
regular expressions matched in place), which keeps parsing free of a separate
token list; positions turn into line:col only when an error is reported.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_WS = re.compile(r"(?:[ \t\n\r]+|//[^\n]*)+")  # MLIR's whitespace only: U+2028 or U+00A0 is no blank
# MLIR identifiers and numbers are ASCII: no `\w`/`\d` matching other scripts
# MLIR's suffix-id: all digits, or a letter or one of $._- then any of those and digits (`%88x` is no name)
SSA_SUFFIX = r"(?:\d+(?![\w$.\-])|[A-Za-z_$.\-][\w$.\-]*)"
_VALUE_ID = re.compile(rf"%({SSA_SUFFIX})(?:#(\d+))?", re.ASCII)
_VALUE_DEF = re.compile(rf"%({SSA_SUFFIX})(?::(\d+))?", re.ASCII)
_BLOCK_ID = re.compile(r"\^([\w$.\-]+)", re.ASCII)
_SYMBOL = re.compile(r'@(?:([\w$.\-]+)|"((?:[^"\\]++|\\.)*+)")', re.ASCII)
_HASH_ID = re.compile(r"#([\w$.\-]+)", re.ASCII)
_BANG_ID = re.compile(r"!([\w$.\-]+)", re.ASCII)
_BARE_ID = re.compile(r"[A-Za-z_][\w$.\-]*", re.ASCII)
_KEYWORD = re.compile(r"[A-Za-z_][\w$]*", re.ASCII)
_INTEGER = re.compile(r"-?(?:0x[0-9a-fA-F]+|\d+)", re.ASCII)
# as MLIR's lexer: an exponent only after the point (`1e5` is the integer 1, then the identifier `e5`)
_NUMBER = re.compile(r"-?(?:0x[0-9a-fA-F]+|\d+(?:\.\d*(?:[eE][+-]?\d+)?)?)", re.ASCII)
# runs of plain characters matched possessively: the regex engine keeps state per repetition, so a
# character-at-a-time loop costs ~150 bytes per character of a 10 MB string (1.4 GB)
_STRING = re.compile(r'"((?:[^"\\\n]++|\\.)*+)"')
_BRACKET_OR_QUOTE = re.compile(r'[<>()\[\]{}"\n]')
_STRING_REST = re.compile(r'(?:[^"\\]++|\\.)*+"', re.S)  # after the opening quote
_ESCAPE = re.compile(r"\\(?:([0-9a-fA-F]{2})|(.))")


class ParseError(Exception):
    """A syntax or semantic error at a position of the input text."""

    def __init__(self, pos: int, message: str, end: int | None = None):
        super().__init__(message)
        self.pos = pos
        self.end = end
        self.message = message


def unescape_string(body: str) -> str:
    r"""Decode an MLIR string literal body (\n, \t, \", \\, \XX hex bytes)."""
    if "\\" not in body:
        return body

    def repl(m: re.Match[str]) -> str:
        if m.group(1):
            return chr(int(m.group(1), 16))
        c = m.group(2)
        return {"n": "\n", "t": "\t"}.get(c, c)

    return _ESCAPE.sub(repl, body)


@dataclass
class Cursor:
    """The text being parsed and the current position in it."""

    text: str
    pos: int = 0

    # -- whitespace and positions ------------------------------------------------
    def skip(self) -> int:
        # Called before every token: settle the common cases (no blank, or one
        # space) without the regular expression.
        text = self.text
        pos = self.pos
        try:
            c = text[pos]
        except IndexError:  # at the end
            return pos
        if "!" <= c <= "~" and c != "/":  # printable ASCII: a token starts here
            return pos
        if c == " ":
            pos += 1
            try:
                c = text[pos]
            except IndexError:
                self.pos = pos
                return pos
            if "!" <= c <= "~" and c != "/":
                self.pos = pos
                return pos
        m = _WS.match(text, pos)
        if m:
            pos = m.end()
        self.pos = pos
        return pos

    def peek(self, n: int = 1) -> str:
        self.skip()
        return self.text[self.pos : self.pos + n]

    def error(self, message: str, pos: int | None = None) -> ParseError:
        return ParseError(self.pos if pos is None else pos, message)

    # -- punctuation ---------------------------------------------------------------
    def try_lit(self, lit: str) -> bool:
        """Consume `lit` if it comes next (keywords must end at a word boundary)."""
        text = self.text
        pos = self.pos
        # `lit` right here needs no blank skipping (no literal starts with a blank or '/')
        if not text.startswith(lit, pos):
            pos = self.skip()
            if not text.startswith(lit, pos):
                return False
        end = pos + len(lit)
        last = lit[-1]
        if last.isalnum() or last == "_":
            if end < len(text) and (text[end].isalnum() or text[end] in "_.$"):
                return False
        self.pos = end
        return True

    def expect(self, lit: str, what: str = "") -> None:
        if not self.try_lit(lit):
            found = self._describe_next()
            ctx = f" {what}" if what else ""
            raise self.error(f"expected '{lit}'{ctx}, found {found}")

    def _describe_next(self) -> str:
        self.skip()
        if self.pos >= len(self.text):
            return "end of file"
        m = re.compile(r"\S{1,20}").match(self.text, self.pos)
        return f"'{m.group(0)}'" if m else "whitespace"

    # -- tokens --------------------------------------------------------------------
    def _match(self, regex: re.Pattern[str]) -> re.Match[str] | None:
        self.skip()
        m = regex.match(self.text, self.pos)
        if m:
            self.pos = m.end()
        return m

    def try_value_use(self) -> tuple[str, int] | None:
        """`%name` or `%name#3` -> (name, result number)."""
        m = _VALUE_ID.match(self.text, self.skip())
        if m is None:
            return None
        self.pos = m.end()
        name, number = m.groups()
        return name, int(number) if number else 0

    def value_use(self) -> tuple[str, int]:
        v = self.try_value_use()
        if v is None:
            raise self.error(f"expected SSA value, found {self._describe_next()}")
        return v

    def try_value_def(self) -> tuple[str, int] | None:
        """`%name` or `%name:3` (a group of results) -> (name, count)."""
        m = self._match(_VALUE_DEF)
        if not m:
            return None
        return m.group(1), int(m.group(2) or 1)

    def try_block_id(self) -> str | None:
        m = self._match(_BLOCK_ID)
        return m.group(1) if m else None

    def try_symbol(self) -> str | None:
        m = self._match(_SYMBOL)
        if not m:
            return None
        return m.group(1) if m.group(1) is not None else unescape_string(m.group(2))

    def try_hash_id(self) -> str | None:
        m = self._match(_HASH_ID)
        return m.group(1) if m else None

    def try_bang_id(self) -> str | None:
        m = self._match(_BANG_ID)
        return m.group(1) if m else None

    def try_bare_id(self) -> str | None:
        m = self._match(_BARE_ID)
        return m.group(0) if m else None

    def bare_id(self, what: str = "identifier") -> str:
        s = self.try_bare_id()
        if s is None:
            raise self.error(f"expected {what}, found {self._describe_next()}")
        return s

    def try_keyword(self) -> str | None:
        """A keyword without dots (`to`, `step`, `iter_args`, `x`)."""
        m = self._match(_KEYWORD)
        return m.group(0) if m else None

    def try_integer(self) -> int | None:
        m = self._match(_INTEGER)
        if not m:
            return None
        s = m.group(0)
        # '1.5' is not an integer: give the position back.
        if self.pos < len(self.text) and self.text[self.pos] in ".eE" and not s.lstrip("-").startswith("0x"):
            if self.text[self.pos] == "." or re.match(r"[eE][+-]?\d", self.text[self.pos :]):
                self.pos = m.start()
                return None
        return int(s, 0) if "x" in s else int(s)

    def integer(self, what: str = "integer") -> int:
        v = self.try_integer()
        if v is None:
            raise self.error(f"expected {what}, found {self._describe_next()}")
        return v

    def try_number_text(self) -> str | None:
        m = self._match(_NUMBER)
        return m.group(0) if m else None

    def try_string(self) -> str | None:
        m = self._match(_STRING)
        if m is None:
            return None
        body = m.group(1)
        if "\\" in body:
            for e in _ESCAPE.finditer(body):  # MLIR knows \n \t \" \\ and \XX
                if e.group(2) is not None and e.group(2) not in 'nt"\\':
                    raise ParseError(m.start(1) + e.start(), "unknown escape in string literal")
        return unescape_string(body)

    def string(self, what: str = "string") -> str:
        s = self.try_string()
        if s is None:
            raise self.error(f"expected {what}, found {self._describe_next()}")
        return s

    def balanced_end(self, start: int) -> int:
        """Index just past the bracket group opening at `start` (`<`, `(`, `[`, `{`)."""
        # jump from bracket to bracket (a type is mostly letters and digits)
        text = self.text
        depth = 0
        i = start
        search = _BRACKET_OR_QUOTE.search
        while True:
            m = search(text, i)
            if m is None:
                break
            j = m.start()
            c = text[j]
            if c == '"':
                s = _STRING_REST.match(text, j + 1)
                if s is None:
                    break
                i = s.end()
                continue
            if c in "<([{":
                depth += 1
            elif c == "\n":
                if depth == 0:
                    break
            elif not (c == ">" and j > 0 and text[j - 1] == "-"):  # '->' is an arrow
                depth -= 1
                if depth == 0:
                    return j + 1
            i = j + 1
        raise ParseError(start, "unbalanced brackets")

    def _balanced_end_by_char(self, start: int) -> int:
        """balanced_end, one character at a time (kept as the reference it is tested against)."""
        text = self.text
        depth = 0
        i = start
        n = len(text)
        in_str = False
        while i < n:
            c = text[i]
            if in_str:
                if c == "\\":
                    i += 2
                    continue
                if c == '"':
                    in_str = False
            elif c == '"':
                in_str = True
            elif c in "<([{":
                depth += 1
            elif c in ">)]}":
                # '->' inside a group is an arrow, not a closing bracket.
                if c == ">" and i > 0 and text[i - 1] == "-":
                    pass
                else:
                    depth -= 1
                    if depth == 0:
                        return i + 1
            elif c == "\n" and depth == 0:
                break
            i += 1
        raise ParseError(start, "unbalanced brackets")


# -- writing identifiers and strings back (what the printer and the hand-written syntax emit) ---------------

BARE_KEY = re.compile(r"[A-Za-z_][\w$.]*$")  # a dictionary key or symbol written without quotes


def symbol(name: str) -> str:
    """`@name`, quoted when it is not a bare identifier."""
    return "@" + (name if BARE_KEY.match(name) else quote_string(name))


def quote_string(s: str) -> str:
    """`s` as an MLIR string literal."""
    out = []
    for ch in s:
        o = ord(ch)
        if ch == '"' or ch == "\\":
            out.append("\\" + ch)
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif o < 0x20 or o == 0x7F:
            out.append(f"\\{o:02X}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'
