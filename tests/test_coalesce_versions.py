"""coalesce told the Triton version equals the real tritongpu-coalesce of that version (3.5.1, 3.6.0, 3.8.0).

Live: needs the real Tritons, found as in tests/test_more_kernels.py (`IRKIT_TRITON_PYTHONS=
"3.5.1=/path/python:3.8.0=..."`, or an importable `triton` of that version); skips cleanly without them.
Inputs: the kernels of tests/data/coalesce39 that the version's parser reads (3.9 made them; 3.5/3.6 cannot
read the 3.9 tensor-descriptor syntax) and two hand-written descriptor kernels, one per descriptor syntax.
The real pass runs in the version's Python; irkit's runs here with `version=<that version>`; every access
must get the same layout.  The offline half checks the version rules without any Triton.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from irkit.passes.coalesce import RULES_31, RULES_36, RULES_39, CoalescePass, coalesce_rules
from test_coalesce39 import accesses, layout_params
from test_more_kernels import _pythons as triton_pythons  # the IRKIT_TRITON_PYTHONS convention
from xdsl.context import Context

from irkit.frontend.parser import Parser

HERE = Path(__file__).resolve().parent
DATA = HERE / "data" / "coalesce39"
REFGEN = HERE.parent / "tools" / "refgen"

DESCRIPTOR_BODY = """#blocked = #ttg.blocked<{{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}}>
module attributes {{"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32}} {{
  tt.func public @descriptor_copy(%a: !tt.ptr<f16> {{tt.divisibility = 16 : i32}}, %m: i32, %k: i32, %i: i32) {{
    %c1 = arith.constant 1 : i64
    %s = arith.extsi %k : i32 to i64
    %desc = tt.make_tensor_descriptor %a, [%m, %k], [%s, %c1] : <f16>, <{block}>
    %tile = tt.descriptor_load %desc[%i, %i] : !tt.tensordesc<{block}> -> tensor<128x64xf16, #blocked>
    tt.descriptor_store %desc[%i, %i], %tile : !tt.tensordesc<{block}>, tensor<128x64xf16, #blocked>
    tt.return
  }}
}}
"""
# Triton up to 3.6 wraps the block type in tensor<...>; 3.7 on writes it bare
DESCRIPTOR_CASES = {
    "descriptor_wrapped": DESCRIPTOR_BODY.format(block="tensor<128x64xf16>"),
    "descriptor_bare": DESCRIPTOR_BODY.format(block="128x64xf16"),
}

REAL = """
import json, os, sys
sys.path.insert(0, {refgen!r})
os.environ.setdefault("TRITON_DEFAULT_FP_FUSION", "1")
import refgen_common, coalesce39
from triton._C.libtriton import passes
out = {{}}
for cid, (target, text) in json.loads(sys.stdin.read()).items():
    ctx = refgen_common.context(target)
    try:
        mod = refgen_common.parse_text(text, ctx, cid + ".ttgir")
    except Exception:
        continue  # this version's parser does not read it
    refgen_common.run_passes(mod, ctx, passes.ttgpuir.add_coalesce)
    out[cid] = [[a["op"], a["layout"]] for a in coalesce39.accesses(mod)]
print(json.dumps(out))
"""


def inputs() -> dict[str, tuple[str, str]]:
    cases = {c["id"]: (c["target"], (DATA / c["in"]).read_text())
             for c in json.loads((DATA / "index.json").read_text())["cases"]}
    cases.update({cid: ("cuda:90", text) for cid, text in DESCRIPTOR_CASES.items()})
    return cases


def irkit_accesses(text: str, version: str) -> list:
    parsed = Parser(text, "in.ttgir").parse()
    CoalescePass(version=version).apply(Context(), parsed.module)
    return accesses(parsed.module)


@pytest.mark.parametrize("version", ["3.5.1", "3.6.0", "3.8.0"])
def test_coalesce_equals_real_pass_of_version(version):
    python = triton_pythons().get(version)
    if python is None:
        pytest.skip(f"no Triton {version} (set IRKIT_TRITON_PYTHONS)")
    cases = inputs()
    proc = subprocess.run([python, "-c", REAL.format(refgen=str(REFGEN))], input=json.dumps(cases),
                          capture_output=True, text=True, timeout=600, check=True)
    real = json.loads(proc.stdout.strip().splitlines()[-1])
    assert len(real) >= 20, f"Triton {version} read only {sorted(real)}"
    assert any(cid.startswith("descriptor_") for cid in real)
    for cid, want in real.items():
        got = irkit_accesses(cases[cid][1], version)
        assert [op for op, _ in got] == [op for op, _ in want], cid
        for (op, mine), (_, theirs) in zip(got, want):
            assert mine == layout_params(theirs), f"{cid} {op}: irkit {mine}, Triton {version} {theirs}"


def test_version_rules():
    module = Parser('module attributes {"ttg.num-warps" = 4 : i32} {\n}\n', "m.mlir").parse().module
    assert [coalesce_rules(module, v) for v in ("3.3.1", "3.5.1", "3.6.0", "3.7", "3.8.0", 3.9)] == [
        RULES_31, RULES_31, RULES_36, RULES_39, RULES_39, RULES_39]


def test_descriptor_layout_from_36_and_ties_from_37():
    """Offline: what the live test measured, on the wrapped-syntax kernel and the 3-D sum of the data."""
    text = DESCRIPTOR_CASES["descriptor_wrapped"]
    before = irkit_accesses(text, "3.5.1")
    assert before[0][1]["sizePerThread"] == (1, 1)  # 3.5 leaves descriptor accesses alone
    assert irkit_accesses(text, "3.6.0")[0][1]["sizePerThread"] == (1, 8)
    sum3d = (DATA / "sum_3d_f32.in.ttgir").read_text()
    assert irkit_accesses(sum3d, "3.6.0")[0][1]["order"] == (2, 0, 1)  # ties in index order
    assert irkit_accesses(sum3d, "3.8.0")[0][1]["order"] == (2, 1, 0)  # ties row-major


def _irkit_opt(*args: str) -> str:
    proc = subprocess.run([sys.executable, "-m", "irkit.cli.opt", *args], capture_output=True, text=True,
                          check=False)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def test_irkit_opt_takes_the_version_from_cache_json_or_option(tmp_path):
    """The printed IR cannot tell 3.5 from 3.9: irkit-opt reads the cache entry's JSON, or --triton-version."""
    entry = tmp_path / "HASH"
    entry.mkdir()
    (entry / "k.ttgir").write_text(DESCRIPTOR_CASES["descriptor_wrapped"])
    (entry / "k.json").write_text(json.dumps({"name": "k", "triton_version": "3.5.1"}))
    assert "ttg.convert_layout" not in _irkit_opt(str(entry), "--coalesce")  # 3.5.1: left alone
    assert "ttg.convert_layout" in _irkit_opt(str(entry), "--coalesce", "--triton-version", "3.6.0")
    assert "ttg.convert_layout" not in _irkit_opt(str(entry), "--coalesce=version=3.5", "--triton-version=3.9")
    (entry / "k.json").unlink()
    assert "ttg.convert_layout" in _irkit_opt(str(entry), "--coalesce")  # ttg.* spelling: the newest rules
