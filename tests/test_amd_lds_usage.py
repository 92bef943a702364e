"""AMD's optimize-amd-lds-usage in the shared-memory model (irkit/analysis/amd_lds_usage.py): Triton 3.3-3.6 run it
in make_llir before the allocation, so a module over the LDS is priced as the pass leaves it.

tests/data/amd_lds holds four add-matrix GEMMs compiled for gfx942 by Triton 3.5.1 and 3.6.0 (256x256 tiles, f32
epilogue; their `shared` is the compile's metadata) and twelve random modules over the LDS (`tools/random_converts.py
--kind lds`, the first four each release rewrites), with each release's own allocation after the pass
(tools/refgen/real_shared.py --as-compiled; expected.json).  With IRKIT_TRITON_PYTHONS they are measured again."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from real_allocation import real_shared_bytes
from test_check_static import triton_python
from xdsl.dialects.builtin import Float32Type, TensorType

from irkit.analysis import amd_lds_usage
from irkit.analysis.scratch import cvt_scratch_bytes
from irkit.analysis.shared_memory import analyze_shared_memory
from irkit.dialects import encodings as enc
from irkit.dialects.ttg import ConvertLayoutOp
from irkit.frontend.parser import Parser

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "amd_lds"
EXPECTED = json.loads((DATA / "expected.json").read_text())
MODULES = sorted(EXPECTED["modules"].items())
COMPILED = sorted(EXPECTED["compiled"]["kernels"].items())


def _report(name: str, release: str | None):
    return analyze_shared_memory(Parser((DATA / name).read_text(), name).parse(), version=release)


@pytest.mark.parametrize("name,want", COMPILED, ids=[n for n, _ in COMPILED])
def test_the_compiled_gemms_take_what_their_compile_reported(name, want):
    """The epilogue's 256x256 f32 convert needs 262,144 B of scratch; the compile goes through a narrower blocked
    layout with the padded scratch and reports 17,408 B (4 warps) or 33,792 B (8 warps)."""
    report = _report(name, want["triton"])
    assert report.total_bytes == want["shared"]
    assert any("goes through #ttg.blocked" in note and "padded scratch" in note for note in report.notes)


@pytest.mark.parametrize("name,want", MODULES, ids=[n for n, _ in MODULES])
def test_random_modules_take_what_each_release_allocates_after_the_pass(name, want):
    report = _report(name, want["triton"])
    assert report.total_bytes == want["shared"] < want["allocation_alone"]
    assert any(note.startswith("optimize-amd-lds-usage") for note in report.notes)


def test_a_release_without_the_pass_prices_the_module_as_written():
    """3.7 removed the pass: the same TTGIR keeps its 262,144 B convert."""
    name = "gemm_add_matrix_256x256_w4_triton360.ttgir"
    assert _report(name, "3.7.0").total_bytes == 262144
    assert not _report(name, "3.7.0").notes


def test_without_a_release_the_report_asks_for_one():
    """A `ttg.*` module could come from 3.5 (the pass runs) or 3.9 (it does not): priced as written, with a note."""
    name = "gemm_add_matrix_256x256_w4_triton360.ttgir"
    for version in (None, "3.9"):
        report = _report(name, version)
        assert report.total_bytes == 262144
        assert any("give the release" in note for note in report.notes)
    assert not any("give the release" in note for note in _report(name, "3.8.0").notes)


def test_a_module_under_the_lds_is_left_alone():
    text = (DATA / "gemm_add_matrix_256x256_w4_triton360.ttgir").read_text().replace("256", "64")
    report = analyze_shared_memory(Parser(text, "small.ttgir").parse(), version="3.6.0")
    assert report.total_bytes <= 65536 and not report.notes


PADDED = """#src = #ttg.blocked<{sizePerThread = [8, 4], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#dst = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  tt.func @k(%x: tensor<64x64xi32, #src>) {
    %0 = ttg.convert_layout %x ATTR : tensor<64x64xi32, #src> -> tensor<64x64xi32, #dst>
    tt.return
  }
}
"""


@pytest.mark.parametrize("attr", amd_lds_usage.PADDED_SCRATCH_ATTRS)
def test_a_convert_marked_padded_takes_the_padded_scratch(attr):
    """The rep shape [64, 32] (the source's tile covers 32 columns) padded by 4 on the fastest dim: 64 x 36 i32 =
    9,216 B, where the swizzled scratch of the unmarked convert is the whole 64x64 tile (16,384 B; both under the
    LDS, so the pass does nothing).  Triton 3.6.0 (`amdg.`) and 3.5.1 (`amdgpu.`) allocate 9,216 and 16,384 B."""
    marked = analyze_shared_memory(Parser(PADDED.replace("ATTR", f"{{{attr}}}"), "m.mlir").parse(), version="3.6.0")
    plain = analyze_shared_memory(Parser(PADDED.replace("ATTR", ""), "m.mlir").parse(), version="3.6.0")
    assert (marked.total_bytes, plain.total_bytes) == (9216, 16384)


def test_warp_factorizations_follow_the_pass():
    assert amd_lds_usage.warp_factorizations(4, 2) == [(1, 4), (2, 2), (4, 1)]
    assert amd_lds_usage.warp_factorizations(8, 1) == [(8,)]
    assert len(amd_lds_usage.warp_factorizations(8, 3)) == 10


def _cvt(name: str) -> ConvertLayoutOp:
    module = Parser((DATA / name).read_text(), name).parse().module
    return next(op for op in module.walk() if isinstance(op, ConvertLayoutOp))


def test_candidates_keep_each_layout_but_its_warps():
    cvt = _cvt("gemm_add_matrix_256x256_w4_triton360.ttgir")
    src, dst = cvt.src.type, cvt.result.type
    layouts = amd_lds_usage.candidate_layouts(src, dst, 4, 64)
    assert len(layouts) == 9  # three layouts for each of [1, 4], [2, 2], [4, 1]
    mfma = [x for x in layouts if isinstance(x, enc.AmdMfmaEncodingAttr)]
    assert [x.warps_per_cta for x in mfma] == [(1, 4), (2, 2), (4, 1)]
    assert {x.instr_shape for x in mfma} == {dst.encoding.instr_shape}
    fallback = layouts[2]
    # one element a thread, 8 x 8 lanes, in the source's linear order: its 256 rows sit in registers
    assert (fallback.size_per_thread, fallback.threads_per_warp, fallback.order) == ((1, 1), (8, 8), (0, 1))


def test_a_slice_spreads_the_warps_from_34_and_keeps_them_in_33():
    parent = enc.BlockedEncodingAttr.of(size_per_thread=(1, 1), threads_per_warp=(8, 8), warps_per_cta=(2, 2),
                                        order=(1, 0))
    row = enc.SliceEncodingAttr.of(dim=0, parent=parent)
    assert amd_lds_usage.with_warps(row, (4,), amd_lds_usage.V35).parent.warps_per_cta == (1, 4)
    assert amd_lds_usage.with_warps(row, (4,), amd_lds_usage.V33).parent.warps_per_cta == (2, 2)


def test_the_choice_prefers_a_swizzled_fit_to_a_smaller_padded_one():
    cvt = _cvt("gemm_add_matrix_256x256_w4_triton360.ttgir")
    src, dst = cvt.src.type, cvt.result.type

    def scratch(a, b, padded):
        return cvt_scratch_bytes(a, b, "3.9", "hip:gfx942", True, False, padded=padded)[0]

    # under the LDS's 65,536 B nothing swizzled fits, so the smallest padded candidate is taken
    tight = amd_lds_usage.choose(src, dst, 65536, 65536, 4, 64, scratch)
    assert tight is not None and tight.padded and tight.bytes == 17408
    # with room for a swizzled candidate (as a custom LDS limit gives), that one wins though it is larger
    roomy = amd_lds_usage.choose(src, dst, 140000, 140000, 4, 64, scratch)
    assert roomy is not None and not roomy.padded and roomy.bytes > tight.bytes
    assert amd_lds_usage.choose(src, dst, 1024, 65536, 4, 64, scratch) is None


@pytest.mark.parametrize("release", ["3.3.1", "3.5.1", "3.6.0"])
def test_each_release_allocates_the_same_after_its_pass(release, tmp_path):
    python = triton_python(release.rsplit(".", 1)[0])
    if python is None:
        pytest.skip(f"no Triton {release} (IRKIT_TRITON_PYTHONS)")
    names = [n for n, want in MODULES + COMPILED if want["triton"] == release]
    for name in names:
        real = real_shared_bytes(python, DATA / name, as_compiled=True)
        assert real == _report(name, release).total_bytes, name


def test_the_report_speaks_of_the_modules_own_ops():
    """irkit-report prices the module the pass leaves but lists the TTGIR's ops: the epilogue convert with the larger
    of the two scratch buffers it became, the local_allocs with theirs; propagate-mma's model, asked with the same
    release, no longer takes the rewrite to bring the kernel under the LDS, since the compile fits it anyway."""
    from irkit.report.model import build_module_report

    name = "gemm_add_matrix_256x256_w4_triton360.ttgir"
    report = build_module_report(Parser((DATA / name).read_text(), name).parse(), version="3.6.0")
    assert report.shared_bytes == 17408
    assert [c.bytes for c in report.converts] == [17408]
    assert [a.bytes for a in report.local_allocs] == [16384, 16384]
    assert [v.verdict for v in report.verdicts] == ["keep"]
    assert not any("under the limit" in v.why for v in report.verdicts)
    without = build_module_report(Parser((DATA / name).read_text(), name).parse(), version="3.7.0")
    assert [c.bytes for c in without.converts] == [262144] and [v.verdict for v in without.verdicts] == ["remove"]


EPILOGUE = """#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 64], warpsPerCTA = [1, 4], order = [1, 0]}>
#mma = #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 64 : i32} {
  tt.func public @epilogue(%d: tensor<256x256xf32, #blocked>) -> tensor<256x256xf32, #mma> {
    %dm = ttg.convert_layout %d : tensor<256x256xf32, #blocked> -> tensor<256x256xf32, #mma>
    tt.return %dm : tensor<256x256xf32, #mma>
  }
}
"""


def test_the_pass_asked_by_name_runs_the_releases_generation_without_a_target():
    """A module with no ttg.target and a custom LDS budget (triton-opt's `lds-limit=`), the epilogue of
    lit_tests/passes/optimize-amd-lds-usage.mlir: the 3.6 pass goes through the fallback in the source's linear
    order [0, 1] with the padded scratch marked, the 3.3 pass through it in the layout's own order [1, 0],
    unmarked."""
    from irkit.analysis.shared_memory import optimize_lds_usage

    for release, marked, order in (("3.6.0", True, (0, 1)), ("3.3.1", False, (1, 0))):
        module = Parser(EPILOGUE, "m.mlir").parse().module
        assert optimize_lds_usage(module, release, lds_limit=65536)
        first, second = [op for op in module.walk() if isinstance(op, ConvertLayoutOp)]
        assert first.result.type.encoding.order == order, release
        assert amd_lds_usage.uses_padded_scratch(first) is marked and amd_lds_usage.uses_padded_scratch(second) is marked


def test_the_33_fallback_takes_the_layouts_own_order():
    """Measured with the real 3.3.1 pass (random modules over the LDS, tools/random_converts.py --kind lds): from a
    transposed MFMA it goes through an 8 x 8-lane blocked layout in order [1, 0], from that MFMA's operand B in
    [0, 1], where 3.5/3.6 take the linear order."""
    mfma = enc.AmdMfmaEncodingAttr.of(version_major=3, version_minor=0, warps_per_cta=(4, 1), instr_shape=(32, 32),
                                      is_transposed=True)
    operand_b = enc.DotOperandEncodingAttr.of(op_idx=1, parent=mfma, k_width=4)
    for layout, order in ((mfma, (1, 0)), (operand_b, (0, 1))):
        src = TensorType(Float32Type(), [256, 256], layout)
        fallback = amd_lds_usage.fallback_layout(src, 64, amd_lds_usage.V33)
        assert (fallback.threads_per_warp, fallback.order) == ((8, 8), order)


def test_irkit_check_gives_the_pass_the_triton_that_made_the_module():
    """irkit-check's rewrite (both modes) tells version-following passes the Triton at hand, as irkit-opt's
    --triton-version does: the same module goes through 3.3's pass (every candidate padded) or 3.6's."""
    from irkit.check.rewrite import rewrite_module

    text = (DATA / "gemm_add_matrix_256x256_w8_triton360.ttgir").read_text()
    said = {}
    for release in ("3.3.1", "3.6.0"):
        result = rewrite_module(text, "k.ttgir", "optimize-amd-lds-usage", release)
        assert result.changed and result.error is None
        said[release] = result.remarks[0]
    assert "as Triton 3.3 runs it on AMD" in said["3.3.1"] and "as Triton 3.5/3.6 runs it" in said["3.6.0"]
