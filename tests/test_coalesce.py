"""passes/coalesce.py against the real Triton 3.1.0 tritongpu-coalesce.

tests/data/coalesce/ holds 53 kernels (tools/refgen/coalesce.py): `<id>.in.ttgir` is what Triton hands to
the pass, `<id>.out.ttgir` what the real pass made of it, and index.json lists every tt.load / tt.store /
tt.atomic_* in walk order with the layout the real pass gave its pointer.  irkit must choose the same
layout for every access, and produce the same IR.

tests/data/coalesce/fuzz.json (tools/refgen/coalesce_fuzz.py) adds 390 small random kernels built by
tools/refgen/coalesce_fuzz_kernels.py, with the layouts the real pass chose: they reach the AxisInfo rules
the 53 kernels do not (shifts, max/min, logical ops, select, cmpi, hints on ops, index_cast, scf.if,
scf.while, loops advancing pointers by unaligned steps, many accesses sharing offsets).
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest
from irkit.passes.coalesce import CoalescePass, mem_access_ptr
from xdsl.context import Context
from xdsl.dialects.builtin import TensorType

from irkit.frontend.parser import Parser
from irkit.frontend.printer import print_module

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "coalesce"
INDEX = json.loads((DATA / "index.json").read_text())
CASES = INDEX["cases"]
FUZZ = json.loads((DATA / "fuzz.json").read_text())


def _layout_params(text: str | None) -> dict | None:
    """`#triton_gpu.blocked<{sizePerThread = [1, 4], ...}>` -> {"sizePerThread": (1, 4), ...}."""
    if text is None:
        return None
    return {k: tuple(int(x) for x in v.split(",") if x.strip()) for k, v in re.findall(r"(\w+) = \[([\d, ]*)\]", text)}


def _accesses(module) -> list[tuple[str, dict | None]]:
    out = []
    for op in module.walk():
        if op.name not in ("tt.load", "tt.store", "tt.atomic_rmw", "tt.atomic_cas"):
            continue
        t = mem_access_ptr(op).type
        out.append((op.name, dict(t.encoding.values()) if isinstance(t, TensorType) else None))
    return out


def _run(case: dict):
    parsed = Parser((DATA / case["in"]).read_text(), case["in"]).parse()
    CoalescePass().apply(Context(), parsed.module)
    return parsed


def test_reference_set_is_broad():
    assert len(CASES) >= 20
    assert len({c["kind"] for c in CASES}) >= 20
    assert {c["threads_per_warp"] for c in CASES} == {32, 64}


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_same_layout_as_triton_for_every_access(case):
    got = _accesses(_run(case).module)
    want = [(a["op"], _layout_params(a["layout"])) for a in case["accesses"]]
    assert [op for op, _ in got] == [op for op, _ in want]
    for i, ((op, mine), (_, real)) in enumerate(zip(got, want)):
        assert mine == real, f"access {i} ({op}): irkit {mine}, Triton 3.1 {real}"


def _canonical(text: str) -> list[str]:
    """Printed IR with locations dropped and layout aliases replaced by their definitions (alias
    numbering is the printer's business, not the pass's)."""
    text = re.sub(r"^#loc.*$", "", text, flags=re.M)
    text = re.sub(r"\s*loc\((?:[^()]|\([^()]*\))*\)", "", text)
    aliases = dict(re.findall(r"^(#\w+) = (.*)$", text, flags=re.M))
    text = re.sub(r"^#\w+ = .*$", "", text, flags=re.M)
    for name in sorted(aliases, key=len, reverse=True):
        text = re.sub(re.escape(name) + r"\b", lambda _m, n=name: aliases[n], text)
    return [line.rstrip() for line in text.splitlines() if line.strip()]


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_same_ir_as_triton(case):
    """Conversions inserted where Triton inserts them (identity ones included), op for op."""
    mine = print_module(_run(case))
    real = print_module(Parser((DATA / case["out"]).read_text(), case["out"]).parse())
    assert mine.count("convert_layout") - (DATA / case["in"]).read_text().count("convert_layout") == (
        real.count("convert_layout") - (DATA / case["in"]).read_text().count("convert_layout")
    )
    assert _canonical(mine) == _canonical(real)


def test_scalar_accesses_are_left_alone():
    scalar = [c for c in CASES if any(a["layout"] is None for a in c["accesses"])]
    assert scalar, "the reference set has scalar loads"
    for case in scalar:
        got = _accesses(_run(case).module)
        for (op, layout), a in zip(got, case["accesses"]):
            if a["layout"] is None:
                assert layout is None, (case["id"], op)


def test_skip_unchanged_leaves_coalesced_accesses_alone():
    case = next(c for c in CASES if c["id"] == "vector_add_f32_unaligned")
    assert all(a["layout"] == a["in_layout"] for a in case["accesses"])
    text = (DATA / case["in"]).read_text()
    parsed = Parser(text, case["in"]).parse()
    CoalescePass(skip_unchanged=True).apply(Context(), parsed.module)
    assert "convert_layout" not in print_module(parsed)
    # by default Triton's identity conversions are there
    assert "convert_layout" in print_module(_run(case))


def _fuzz_kernel(family: str, seed: int) -> str:
    sys.path.insert(0, str(ROOT / "tools" / "refgen"))
    try:
        from coalesce_fuzz_kernels import kernel
    finally:
        sys.path.pop(0)
    return kernel(family, seed)


@pytest.mark.parametrize("family", sorted(FUZZ["families"]))
def test_random_kernels_same_layout_as_triton(family):
    kernels = FUZZ["families"][family]
    assert len(kernels) >= 100
    wrong = []
    for seed, accesses in kernels.items():
        parsed = Parser(_fuzz_kernel(family, int(seed)), f"{family}{seed}.ttgir").parse()
        CoalescePass().apply(Context(), parsed.module)
        got = [(op, {k: list(v) for k, v in layout.items()} if layout else None) for op, layout in _accesses(parsed.module)]
        want = [(op, layout) for op, layout in accesses]
        if got != want:
            wrong.append(seed)
    assert not wrong, f"{family}: irkit differs from Triton 3.1 for seeds {wrong[:10]}"
