"""The corpus IR files and one parse of each per test session (shared by the
front-end tests: parsing the whole corpus is most of their cost).

`CORPUS_IR_FILES` is computed at import time so tests can be parametrized by
file; it is empty when ../shared/corpus is absent (tests then skip).
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus"
IR = CORPUS / "ir"
VERSIONS = ("3.1.0", "3.3.1", "3.9.0")


def _ir_files() -> list[Path]:
    if not IR.is_dir():
        return []
    return sorted(p for p in IR.glob("*/*/*") if p.name.endswith((".ttir", ".ttgir")))


CORPUS_IR_FILES: list[Path] = _ir_files()


def file_id(path: Path) -> str:
    return str(path.relative_to(IR))


def version_of(path: Path) -> str:
    return path.relative_to(IR).parts[0]


@lru_cache(maxsize=None)
def read(path: Path) -> str:
    return path.read_text()


@lru_cache(maxsize=None)
def parsed(path: Path):
    """The ParsedModule of a corpus file, parsed once per session.  Shared:
    tests must not modify it."""
    from irkit.frontend.parser import Parser

    return Parser(read(path), str(path)).parse()


@lru_cache(maxsize=None)
def printed(path: Path, debuginfo: bool = False, generic: bool = False) -> str:
    from irkit.frontend.printer import print_module

    return print_module(parsed(path), debuginfo=debuginfo, generic=generic)


def normalize(text: str) -> str:
    """Runs of whitespace collapsed (how a printed module is compared with its input)."""
    return " ".join(text.split())


_CUSTOM_OP_LINE = re.compile(r"^\s*(?:%[^=\"]+=\s*)?[a-z_]+\.[a-z_.]+\b(?!\")", re.MULTILINE)


def custom_op_lines(text: str) -> list[str]:
    """Lines that hold an op in custom form (`%x = tt.splat ...`), for generic-output checks."""
    return [m.group(0).strip() for m in _CUSTOM_OP_LINE.finditer(text)]
