"""The seed scenario (#2378) end to end on the real Intel XPU compiler (triton-xpu 3.3.0b1, PVC target on the
CPU): the block-pointer GEMM + add-matrix of tests/data/intel/ is out of resources at 256x256x32 w32
(263,168 B > 131,072 B) because of one `convert_layout` of the loaded D into #dpas.  irkit's propagate-mma
output, unedited, builds and fits; with the dot operands moved into the block loads no local_alloc remains
and the kernel needs no shared memory at all.  Skipped without that compiler (IRKIT_XPU_PYTHON)."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest
from irkit.passes import all_passes
from test_intel_xpu import DATA, xpu_python

from irkit.frontend.parser import Parser
from irkit.frontend.printer import print_module

ROOT = Path(__file__).resolve().parents[1]
SEED = "addmm_bp_bf16_256x256x32_w32_s2"

_COMPILE = r"""
import sys
sys.path.insert(0, sys.argv[1])
import triton
from intel_xpu_kernels import PVC_TARGET
for path in sys.argv[2:]:
    k = triton.compile(path, target=PVC_TARGET)
    print("SHARED", path, k.metadata.shared, len(k.asm["spv"]))
"""


def _rewrite(name: str, **options) -> str:
    parsed = Parser((DATA / f"{name}.ttgir").read_text(), f"{name}.ttgir").parse()
    all_passes()["propagate-mma"](**options).apply(None, parsed.module)
    return print_module(parsed, debuginfo=True)


def test_seed_before_is_out_of_resources_and_the_rewrite_leaves_no_round_trip():
    index = {c["name"]: c for c in json.loads((DATA / "index.json").read_text())["cases"]}
    assert index[SEED]["shared"] > 131072 and not index[SEED]["fits"]
    without = _rewrite(SEED, dot_operands=False)
    assert "ttg.convert_layout" not in without and without.count("ttg.local_alloc") == 2
    default = _rewrite(SEED)  # #dpas module: dot operands on by default
    assert "ttg.convert_layout" not in default and "ttg.local_alloc" not in default
    assert re.search(r"tt\.load .*!tt\.ptr<tensor<256x32xbf16, #ttg\.dot_op<\{opIdx = 0, parent = #mma", default)


@pytest.mark.parametrize("name", [SEED, "addmm_bp_bf16_256x128x32_w32_s2"])
def test_real_intel_compiler_builds_the_unedited_output(name, tmp_path):
    python = xpu_python()
    if python is None:
        pytest.skip("no Intel XPU Triton: set IRKIT_XPU_PYTHON or create the venv")
    paths = []
    for label, options in (("nodot", {"dot_operands": False}), ("dot", {})):
        out = tmp_path / f"{name}.{label}.ttgir"
        out.write_text(_rewrite(name, **options))
        paths.append(out)
    p = subprocess.run([python, "-c", _COMPILE, str(ROOT / "tools"), *map(str, paths)],
                       capture_output=True, text=True, timeout=600, check=False)
    assert p.returncode == 0, p.stderr[-2000:]
    shared = {Path(line.split()[1]).name: int(line.split()[2]) for line in p.stdout.splitlines() if line.startswith("SHARED")}
    assert set(shared) == {x.name for x in paths}
    assert all(0 <= s <= 131072 for s in shared.values()), shared
    assert shared[f"{name}.dot.ttgir"] == 0  # no local_alloc, no conversion: nothing in shared memory
