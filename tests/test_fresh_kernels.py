"""Held-out kernels of the fresh sweep (tools/fresh_kernels.py, tools/fresh_sweep.py): each failure it found,
on the smallest real IR that shows it (tests/data/fresh, with the compiler's `metadata.shared`).

* Triton 3.5.1 on AMD writes `elementType` in an `#ttg.amd_mfma` of an integer dot and spells its mx upcast
  `amdgpu.upcast_mxfp`, Intel's triton-xpu 3.3.0b1 `triton_intel_gpu.upcast_mxfp`: irkit refused the files;
  irkit-report refused the version `3.3.0b1` itself.
* `tt.gather` is free of scratch when it is warp-local (`GatherLoweringHelper::isWarpLocal`): irkit priced
  every gather at its whole source (+4,096 B on `gather_cols`, all versions and targets).
* Triton 3.4-3.7 size a reduce's scratch with the pre-linear-layout formula; irkit used 3.8's for every
  `ttg.*` module (-512 / -2,048 B on 3.5.1's top-k and sort).
* Triton 3.4/3.5's ld/stmatrix swizzling of a convert makes every register basis common to both sides a
  rep (3.6 keeps some in the segment): a quarter of the scratch on sm90+ (+3,072 B on 3.5.1's dot_scaled
  bf16 x e4m3, cuda:100).
* Triton 3.4-3.6 define `ttng.tmem_load` without result segments: irkit's generic form (written for 3.7 on,
  with `resultSegmentSizes`) was refused by 3.5.1/3.6.0 on every Blackwell GEMM, and irkit refused theirs.
* Triton 3.3-3.6 put a `ttg.warp_specialize`'s captures on the op itself in generic form, not on its
  `ttg.warp_specialize.partitions`: 3.5.1 and 3.6.0 refused irkit's generic form of the persistent
  warp-specialized GEMM.
* The compiler pads warp_specialize partitions to whole warp groups (AllocateWarpGroups) before allocating:
  partitions of 1 + 2 warps own 4 bytes, not 3 (-1 B on the persistent warp-specialized GEMM, cuda:100).
* Triton 3.4 sizes a convert at the larger of its swizzled and padded scratch: irkit took the swizzled alone
  (-6,144 B on 3.4.0's transposed-A matmul, cuda:90; -256 B on its split-K GEMM, gfx942).
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from test_more_kernels import _pythons as triton_pythons  # the IRKIT_TRITON_PYTHONS convention

from irkit.analysis import scratch
from irkit.analysis.shared_memory import analyze_shared_memory
from irkit.cli import opt, report
from irkit.frontend.parser import Parser
from irkit.frontend.printer import print_module

DATA = Path(__file__).parent / "data" / "fresh"
CASES = json.loads((DATA / "index.json").read_text())["cases"]
REAL_FILES = sorted({c["file"] for c in CASES if "/" in c["file"]})


def parse(rel: str):
    return Parser((DATA / rel).read_text(), str(DATA / rel)).parse()


@pytest.mark.parametrize("rel", REAL_FILES)
def test_real_file_prints_back_byte_for_byte(rel):
    assert print_module(parse(rel), debuginfo=True) == (DATA / rel).read_text()


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c['triton']}-{c['file']}")
def test_shared_memory_is_the_compilers(case):
    assert analyze_shared_memory(parse(case["file"]), version=case["triton"]).total_bytes == case["shared"]


@pytest.mark.parametrize("rel", REAL_FILES)
@pytest.mark.parametrize("pipeline", ["propagate-mma", "propagate-mma{profit=always}"])
def test_propagate_mma_runs(rel, pipeline, tmp_path, monkeypatch):
    for var in ("IRKIT_TRITON_PYTHON", "IRKIT_TRITON_PYTHONS"):  # the model decides, no compiler run
        monkeypatch.delenv(var, raising=False)
    out = tmp_path / "out.mlir"
    with pytest.raises(SystemExit) as exit_:
        opt.main([str(DATA / rel), "-p", pipeline, "-o", str(out)])
    assert exit_.value.code == 0
    Parser(out.read_text(), str(out)).parse()


def test_amd_mfma_element_type_is_kept():
    mfma = next(op.results[0].type.encoding for op in parse("3.5.1/hip_gfx942/int8_dequant_matmul.ttgir").module.walk()
                if op.name == "tt.dot")
    assert str(mfma.element_type) == "i32"


def gathers(rel: str):
    return [op for op in parse(rel).module.walk() if op.name == "tt.gather"]


def test_gather_of_efficient_layout_is_warp_local():
    (op,) = gathers("3.9.0/cuda_90/gather_cols.ttgir")
    assert scratch.gather_is_warp_local(op)
    assert scratch.gather_scratch_bytes(op) == 0


def test_gather_across_warps_takes_the_whole_source():
    """tests/data/kernels' gather_rows gathers along both axes: along dim 1 inside a warp (0 B), along dim 0
    across warps (the whole 32x32xf32 source); the real 3.3.1 / 3.9.0 passes give 4,608 / 4,096 B in all."""
    kernels = Path(__file__).parent / "data" / "kernels"
    for version, total in (("3.3.1", 4608), ("3.9.0", 4096)):
        parsed = Parser((kernels / version / "cuda_80" / "gather_rows_f32.ttgir").read_text(), "g").parse()
        ops = {op.properties["axis"].value.data: op for op in parsed.module.walk() if op.name == "tt.gather"}
        assert scratch.gather_is_warp_local(ops[1]) and not scratch.gather_is_warp_local(ops[0])
        assert scratch.gather_scratch_bytes(ops[0]) == 32 * 32 * 4
        assert analyze_shared_memory(parsed, version=version).total_bytes == total


def test_warp_specialize_partitions_padded_to_warp_groups():
    """Partitions of 1 and 2 warps: the compiler's metadata.shared counts 4 partition warps (131,172 B, Triton
    3.5.1, 3.8.0 and 3.9.0 alike); the allocate-shared-memory pass alone on the TTGIR counts 3 (131,171 B,
    tools/refgen/real_shared.py with 3.9.0), which is what test-print-allocation must print."""
    parsed = parse("3.9.0/cuda_100/persistent_desc_ws.ttgir")
    assert analyze_shared_memory(parsed, version="3.9.0").total_bytes == 131172
    assert analyze_shared_memory(parsed, version="3.9.0", warp_groups=False).total_bytes == 131171


TMEM = "3.6.0/cuda_100/dot_fp16_acc_tf32.ttgir"
WS = "3.6.0/cuda_100/persistent_desc_ws.ttgir"


def test_generic_tmem_load_follows_the_release():
    """3.6's generic form has no resultSegmentSizes on tmem_load; irkit reads it and prints the custom form
    back byte for byte; without a release (or for 3.7 on) the segments are printed."""
    parsed = parse(TMEM)
    old = print_module(parsed, generic=True, debuginfo=True, release=(3, 6, 0))
    assert '"ttng.tmem_load"' in old and "resultSegmentSizes" not in old
    assert "resultSegmentSizes" in print_module(parsed, generic=True, release=(3, 7, 0))
    assert "resultSegmentSizes" in print_module(parsed, generic=True)
    assert print_module(Parser(old, "generic").parse(), debuginfo=True) == (DATA / TMEM).read_text()


def test_generic_warp_specialize_captures_follow_the_release():
    """For 3.6 the captures are the warp_specialize's operands and its partitions op has none; for 3.7 on
    the reverse.  irkit reads both back to the same module."""
    parsed = parse(WS)
    old = print_module(parsed, generic=True, debuginfo=True, release=(3, 6, 0))
    new = print_module(parsed, generic=True, debuginfo=True, release=(3, 7, 0))
    assert '"ttg.warp_specialize"(%' in old and '"ttg.warp_specialize.partitions"() (' in old
    assert '"ttg.warp_specialize"()' in new and '"ttg.warp_specialize.partitions"(%' in new
    for text in (old, new):
        assert print_module(Parser(text, "generic").parse(), debuginfo=True) == (DATA / WS).read_text()


@pytest.mark.parametrize(("version", "rel"), [("3.6.0", TMEM), ("3.9.0", TMEM), ("3.6.0", WS)])
def test_real_parser_reads_generic_form_of_its_release(version, rel, tmp_path):
    python = triton_pythons().get(version)
    if python is None:
        pytest.skip(f"no Triton {version} (set IRKIT_TRITON_PYTHONS)")
    release = tuple(int(x) for x in version.split("."))
    out = tmp_path / "generic.mlir"
    out.write_text(print_module(parse(rel), generic=True, debuginfo=True, release=release))  # type: ignore[arg-type]
    checker = Path(__file__).parent / "real_triton_check.py"
    proc = subprocess.run([python, str(checker), str(out)], capture_output=True, text=True, check=True)
    assert json.loads(proc.stdout)["results"][str(out)] is None


def test_report_takes_a_pre_release_version(capsys):
    """triton-xpu calls itself 3.3.0b1 (its cache JSON too); 3.3.x is no release."""
    xpu = str(DATA / "3.3.0b1/xpu_pvc/dot_scaled_bf16_e4m3.ttgir")
    with pytest.raises(SystemExit) as exit_:
        report.main(["--json", "--triton-version", "3.3.0b1", xpu])
    assert exit_.value.code == 0
    assert json.loads(capsys.readouterr().out)["shared_bytes"] == 8192
    with pytest.raises(SystemExit) as exit_:
        report.main(["--triton-version", "3.3.x", xpu])
    assert exit_.value.code == 1
