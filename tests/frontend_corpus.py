"""The corpus IR files and one parse of each per test session (shared by the
front-end tests: parsing the whole corpus is most of their cost).

The corpus ships with the repository in tests/data/corpus (real Triton IR, see its README.md), so every
clone runs every test. `IRKIT_CORPUS` may name another folder of the same layout (`ir/<ver>/<target>/*`):
its IR files are added to `CORPUS_IR_FILES`, the list the front-end tests are parametrized by.
"""

from __future__ import annotations

import os
import re
from functools import cache
from pathlib import Path

CORPUS = Path(__file__).resolve().parent / "data" / "corpus"
IR = CORPUS / "ir"
EXTRA_CORPUS = Path(os.environ["IRKIT_CORPUS"]).resolve() if os.environ.get("IRKIT_CORPUS") else None
VERSIONS = ("3.1.0", "3.3.1", "3.9.0")


def _ir_roots() -> list[Path]:
    roots = [IR]
    if EXTRA_CORPUS is not None and (EXTRA_CORPUS / "ir").is_dir() and (EXTRA_CORPUS / "ir") != IR:
        roots.append(EXTRA_CORPUS / "ir")
    return roots


def _ir_files() -> list[Path]:
    return sorted(p for root in _ir_roots() for p in root.glob("*/*/*") if p.name.endswith((".ttir", ".ttgir")))


CORPUS_IR_FILES: list[Path] = _ir_files()


def _relative(path: Path) -> tuple[int, Path]:
    for i, root in enumerate(_ir_roots()):
        if path.is_relative_to(root):
            return i, path.relative_to(root)
    raise ValueError(f"{path} is in no corpus")


def file_id(path: Path) -> str:
    """`<ver>/<target>/<file>`; files of IRKIT_CORPUS are prefixed `extra/`."""
    i, rel = _relative(path)
    return str(rel) if i == 0 else f"extra/{rel}"


def version_of(path: Path) -> str:
    return _relative(path)[1].parts[0]


@cache
def read(path: Path) -> str:
    return path.read_text()


@cache
def parsed(path: Path):
    """The ParsedModule of a corpus file, parsed once per session.  Shared:
    tests must not modify it."""
    from irkit.frontend.parser import Parser

    return Parser(read(path), str(path)).parse()


@cache
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
