"""Triton 3.6 IR: tests/data/triton36/<target>/ (tools/triton36_kernels.py: GEMM, GEMM + add-matrix, flash
attention forward and layernorm, compiled by the real Triton 3.6 for cuda:80 and cuda:90).  irkit reads every
file, verifies it, prints it back exactly (with locations), and - where Triton 3.6 can be run, through
`IRKIT_TRITON_PYTHONS="...:3.6.0=/path/python"` - the real 3.6 parser accepts irkit's output.
"""

from __future__ import annotations

import json
import subprocess
from functools import cache
from pathlib import Path

import pytest
from test_real_parser import broken_copies, check, env_pythons, in_process_version

from irkit.frontend.parser import Parser
from irkit.frontend.printer import print_module
from irkit.verifier import verify_module

DATA = Path(__file__).resolve().parent / "data" / "triton36"
FILES = sorted(p for p in DATA.glob("*/*") if p.suffix in (".ttir", ".ttgir"))
VERSION = "3.6.0"


@cache
def _parsed(path: Path):
    return Parser(path.read_text(), str(path)).parse()


def _id(path: Path) -> str:
    return str(path.relative_to(DATA))


def test_index_lists_every_kernel():
    index = json.loads((DATA / "index.json").read_text())
    assert index["triton"] == VERSION
    listed = {f"{c['target'].replace(':', '_')}/{c['name']}" for c in index["cases"]}
    assert listed == {str(p.relative_to(DATA).with_suffix("")) for p in FILES}
    assert {c["target"] for c in index["cases"]} == {"cuda:80", "cuda:90"}


@pytest.mark.parametrize("path", FILES, ids=_id)
def test_round_trip_and_verify(path):
    parsed = _parsed(path)
    errors = verify_module(parsed.module)
    assert not errors, [msg for _, msg in errors]
    assert print_module(parsed, debuginfo=True) == path.read_text()  # byte for byte


@pytest.mark.parametrize("debuginfo, generic", [(False, False), (True, False), (True, True)],
                         ids=["plain", "debuginfo", "generic"])
def test_real_triton36_parses_irkit_output(debuginfo, generic, tmp_path):
    if in_process_version() != VERSION and VERSION not in env_pythons():
        pytest.skip(f"no Triton {VERSION}: add {VERSION}=PYTHON to IRKIT_TRITON_PYTHONS")
    outputs = []
    for path in FILES:
        out = tmp_path / (_id(path).replace("/", "__") + ".mlir")
        out.write_text(print_module(_parsed(path), debuginfo=debuginfo, generic=generic))
        outputs.append(out)
    ttgir = next(p for p in FILES if p.suffix == ".ttgir")
    broken = broken_copies(print_module(_parsed(ttgir), debuginfo=debuginfo), tmp_path)
    results = check(VERSION, outputs + broken)
    for b in broken:
        assert results[str(b)] is not None, f"Triton {VERSION} accepted the broken file {b.name}"
    failures = {Path(p).name: r for p, r in results.items() if r is not None and Path(p) not in broken}
    assert failures == {}


def test_triton_opt_value_names_match_the_real_printer():
    """Triton 3.6 names values after their NameLocs; without locations it prints triton-opt's names
    (`str_nodebug`), which irkit prints with `mlir_value_names`."""
    python = env_pythons().get(VERSION)
    if python is None:
        pytest.skip(f"no Triton {VERSION}: add {VERSION}=PYTHON to IRKIT_TRITON_PYTHONS")
    checker = Path(__file__).resolve().parent / "real_triton_check.py"
    proc = subprocess.run([python, str(checker), "--print-nodebug", *map(str, FILES)], capture_output=True,
                          text=True, timeout=600, check=False)
    assert proc.returncode == 0, proc.stderr[-3000:]
    real = json.loads(proc.stdout)["texts"]
    assert [_id(p) for p in FILES if print_module(_parsed(p), mlir_value_names=True) != real[str(p)]] == []
