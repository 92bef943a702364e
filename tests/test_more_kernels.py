"""Front-end coverage on real IR of our own kernels: tests/data/kernels/<version>/<target>/<name>.{ttir,ttgir}
(and .source.ttir, the frontend's TTIR, for the block-pointer and descriptor kernels),
written by the real Triton 3.1 / 3.3 / 3.9 compilers (tools/refgen/more_kernels.py; attention, norms, reductions,
scans, histogram, atomics, fp8, int8/fp8/scaled dots, block pointers, tensor descriptors/TMA, gather, shape ops,
inline asm, print/assert, libdevice, while loops, calls, warp specialization, Blackwell tcgen05, AMD buffer ops).

Every file must parse, verify, and print back exactly (with locations, whitespace-normalised).  Where the real
Triton of the file's version can be run - `IRKIT_TRITON_PYTHONS="3.1.0=/path/python:3.3.1=...:3.9.0=..."`, or an
importable `triton` of that version - irkit's output, custom and generic form, must be accepted by the real parser.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest

from irkit.frontend.parser import Parser
from irkit.frontend.printer import print_module
from irkit.verifier import verify_module

DATA = Path(__file__).resolve().parent / "data" / "kernels"
FILES = sorted(p for p in DATA.glob("*/*/*") if p.suffix in (".ttir", ".ttgir"))
VERSIONS = sorted({p.relative_to(DATA).parts[0] for p in FILES})


def _id(path: Path) -> str:
    return str(path.relative_to(DATA))


@cache
def _parsed(path: Path):
    return Parser(path.read_text(), str(path)).parse()


def _normalize(text: str) -> str:
    return " ".join(text.split())


def test_data_present():
    assert len(FILES) >= 300, "tests/data/kernels is incomplete; see tools/refgen/more_kernels.py"
    index = json.loads((DATA / "index.json").read_text())
    listed = {f"{c['version']}/{c['target']}/{c['name']}" for c in index["cases"]}
    on_disk = {str(p.relative_to(DATA).parent / p.name.split(".")[0]) for p in FILES}  # .ttir .ttgir .source.ttir
    assert listed == on_disk


@pytest.mark.parametrize("path", FILES, ids=_id)
def test_round_trip_and_verify(path: Path):
    parsed = _parsed(path)
    errors = verify_module(parsed.module)
    assert not errors, [msg for _, msg in errors]
    printed = print_module(parsed, debuginfo=True)
    # byte for byte what the real compiler printed: aliases (attributes and locations) named, numbered and
    # placed by irkit's own alias policy, not copied from the input, and MLIR's spacing
    assert printed == path.read_text()


# Triton 3.1 and 3.3 print values as triton-opt does (3.4+ name them after their NameLocs)
_MLIR_NAMED = [p for p in FILES if p.relative_to(DATA).parts[0] in ("3.1.0", "3.3.1")]


@pytest.mark.parametrize("path", _MLIR_NAMED, ids=_id)
def test_triton_opt_value_names(path: Path):
    assert print_module(_parsed(path), debuginfo=True, mlir_value_names=True) == path.read_text()


# -- the real parser -------------------------------------------------------------------------------------------

# run by the other Python: parse every file named on the command line with its Triton, all dialects loaded
_REAL_PARSER = r"""
import json, os, sys, tempfile
import triton
from triton._C.libtriton import ir
ctx = ir.context()
ir.load_dialects(ctx)
from triton._C import libtriton
for backend in ("nvidia", "amd"):
    try:
        getattr(libtriton, backend).load_dialects(ctx)
    except (ImportError, AttributeError):
        pass
results = {}
for path in sys.argv[1:]:
    sys.stderr.flush()
    saved = os.dup(2)
    with tempfile.TemporaryFile("w+b") as err:
        os.dup2(err.fileno(), 2)
        try:
            ir.parse_mlir_module(path, ctx)
            results[path] = None
        except Exception as e:
            sys.stderr.flush()
            err.seek(0)
            results[path] = (err.read().decode(errors="replace").strip() + "\n" + str(e))[-1500:]
        finally:
            sys.stderr.flush()
            os.dup2(saved, 2)
            os.close(saved)
print(json.dumps({"version": triton.__version__, "results": results}))
"""


def _pythons() -> dict[str, str]:
    """Triton version -> a Python that imports it."""
    found: dict[str, str] = {}
    for entry in filter(None, os.environ.get("IRKIT_TRITON_PYTHONS", "").split(":")):
        version, _, python = entry.partition("=")
        if version and python and os.path.exists(python):
            found[version] = python
    try:
        import triton  # noqa: F401 - only to learn its version

        found.setdefault(triton.__version__, sys.executable)
    except ImportError:
        pass
    return found


@pytest.mark.parametrize("version", VERSIONS)
@pytest.mark.parametrize("form", ["custom", "generic"])
def test_real_parser_accepts_irkit_output(version: str, form: str, tmp_path: Path):
    python = _pythons().get(version)
    if python is None:
        pytest.skip(f"no Triton {version} (set IRKIT_TRITON_PYTHONS)")
    outputs = []
    for path in (p for p in FILES if p.relative_to(DATA).parts[0] == version):
        out = tmp_path / "__".join(path.relative_to(DATA).parts[1:])
        out.write_text(print_module(_parsed(path), debuginfo=True, generic=form == "generic"))
        outputs.append(str(out))
    proc = subprocess.run([python, "-c", _REAL_PARSER, *outputs], capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    report = json.loads(proc.stdout.strip().splitlines()[-1])
    assert report["version"] == version
    rejected = {Path(p).name: err for p, err in report["results"].items() if err is not None}
    assert not rejected, json.dumps(rejected, indent=1)[:6000]


@pytest.mark.parametrize("version", [v for v in VERSIONS if v not in ("3.1.0", "3.3.1")])
def test_triton_opt_value_names_match_the_real_printer(version: str):
    """3.4+ files name values after their NameLocs; triton-opt's own naming (what `str_nodebug` prints: no
    locations) is what irkit prints with `mlir_value_names`."""
    python = _pythons().get(version)
    if python is None:
        pytest.skip(f"no Triton {version} (set IRKIT_TRITON_PYTHONS)")
    files = [p for p in FILES if p.relative_to(DATA).parts[0] == version]
    checker = Path(__file__).resolve().parent / "real_triton_check.py"
    proc = subprocess.run([python, str(checker), "--print-nodebug", *map(str, files)], capture_output=True,
                          text=True, timeout=600, check=False)
    assert proc.returncode == 0, proc.stderr[-3000:]
    real = json.loads(proc.stdout)["texts"]
    differ = [_id(p) for p in files if print_module(_parsed(p), mlir_value_names=True) != real[str(p)]]
    assert differ == []
