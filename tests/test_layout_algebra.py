"""Layout algebra and linear layouts (irkit.layout.algebra, irkit.layout.linear).

Expected values are Triton's: the worked examples of docs/triton-passes.md §4.3/§5.3/§5.5 and linear
layouts printed by Triton 3.9's own `to_linear_layout` (gluon builder) for the same attributes.
"""

from xdsl.dialects.builtin import Float16Type, Float32Type, IntegerType, TensorType

from irkit.dialects.encodings import (
    AmdMfmaEncodingAttr,
    BlockedEncodingAttr,
    CTALayout,
    DotOperandEncodingAttr,
    DpasEncodingAttr,
    NvidiaMmaEncodingAttr,
    SliceEncodingAttr,
)
from irkit.dialects.types import PointerType
from irkit.layout import algebra, conversion, linear


def blocked(spt, tpw, wpc, order):
    return BlockedEncodingAttr.from_values(sizePerThread=spt, threadsPerWarp=tpw, warpsPerCTA=wpc, order=order)


def mma(wpc, version=2, instr=(16, 8)):
    return NvidiaMmaEncodingAttr.from_values(versionMajor=version, versionMinor=0, warpsPerCTA=wpc, instrShape=instr)


def dot(op, parent, k_width=2):
    return DotOperandEncodingAttr.from_values(opIdx=op, parent=parent, kWidth=k_width)


def tensor(shape, elem, enc):
    return TensorType(elem, shape, enc)


AL = blocked((1, 4), (4, 8), (4, 1), (1, 0))
BL = blocked((1, 4), (1, 32), (4, 1), (1, 0))
MMA41 = mma((4, 1))


# -- BlockedEncodingAttr::get (§4.1, §4.3) -----------------------------------------------------


def test_blocked_layout_issue_shape():
    enc = algebra.blocked_layout((256, 256), (1, 4), (1, 0), num_warps=32, threads_per_warp=16)
    assert enc.values() == {
        "sizePerThread": (1, 4),
        "threadsPerWarp": (1, 16),
        "warpsPerCTA": (8, 4),
        "order": (1, 0),
    }
    assert algebra.shape_per_cta_tile(enc) == (8, 256)


def test_blocked_layout_small_tensor_clamps_threads():
    # 16 elements along the fast dim, 4 per thread: 4 threads there, the rest go to dim 0
    enc = algebra.blocked_layout((64, 16), (1, 4), (1, 0), num_warps=4, threads_per_warp=32)
    assert enc.threads_per_warp == (8, 4)
    assert enc.warps_per_cta == (4, 1)


def test_blocked_layout_1d():
    enc = algebra.blocked_layout((1024,), (8,), (0,), num_warps=4, threads_per_warp=32)
    assert enc.threads_per_warp == (32,) and enc.warps_per_cta == (4,)


def test_blocked_layout_keeps_cta_fields():
    enc = algebra.blocked_layout(
        (128, 64), (1, 4), (1, 0), 4, 32, CTALayout(ctas_per_cga=(2, 1), cta_split_num=(2, 1), cta_order=(1, 0), cga_layout=None)
    )
    assert enc.cta_split_num == (2, 1) and enc.cga_layout is None
    assert algebra.shape_per_cta(enc, (128, 64)) == (64, 64)


# -- per-layout helpers (§5.3 table) ------------------------------------------------------------


def test_shape_per_cta_tile():
    assert algebra.shape_per_cta_tile(AL) == (16, 32)
    assert algebra.shape_per_cta_tile(BL) == (4, 128)
    assert algebra.shape_per_cta_tile(MMA41) == (64, 8)
    assert algebra.shape_per_cta_tile(mma((4, 1), 3, (16, 128, 16))) == (64, 128)
    assert algebra.shape_per_cta_tile(dot(0, MMA41)) == (64, 16)
    assert algebra.shape_per_cta_tile(dot(1, MMA41)) == (16, 8)
    mfma = AmdMfmaEncodingAttr.from_values(
        versionMajor=3, versionMinor=0, warpsPerCTA=(2, 2), instrShape=(32, 32), isTransposed=False
    )
    assert algebra.shape_per_cta_tile(mfma) == (64, 64)


def test_dpas_tiles_and_order():
    dpas = DpasEncodingAttr.build(8, 8, 16, 2, 16, (8, 4), (4, 2))
    assert algebra.shape_per_cta_tile(dpas) == (256, 128)
    assert algebra.get_order(dpas) == (1, 0)
    assert algebra.shape_per_cta_tile(dot(0, dpas)) == (256, 16)
    # operand B: Intel's legacy sizePerThread applies the repCluster (2) twice, so 16 * 2 * 2 * 4 warps columns
    # (triton-xpu 3.3.0b1 sizes a dot_op B -> dpas convert of 32x128 bf16 over 4 x 1 warps at 4,224 B, not 2,112)
    assert algebra.shape_per_cta_tile(dot(1, dpas)) == (16, 256)


def test_slice_helpers():
    s = SliceEncodingAttr.from_values(dim=1, parent=AL)
    assert algebra.slice_parent(s) == AL and algebra.slice_dim(s) == 1
    assert algebra.get_order(s) == (0,)
    assert algebra.shape_per_cta_tile(s) == (16,)
    assert algebra.size_per_thread(s) == (1,)
    # Triton 3.1 folds the sliced dim's threads/warps into the remaining dim
    assert algebra.threads_per_warp(s) == (32,)
    assert algebra.warps_per_cta(s) == (4,)
    assert algebra.slice_padded_shape(s, (128,)) == (128, 1)
    assert algebra.unique_contig_per_thread(SliceEncodingAttr.from_values(dim=0, parent=AL), (64,)) == (4,)


def test_contig_and_order():
    assert algebra.contig_per_thread(AL) == (1, 4)
    assert algebra.unique_contig_per_thread(AL, (128, 2)) == (1, 2)
    assert algebra.contig_per_thread(MMA41) == (1, 2)
    assert algebra.get_order(MMA41) == (1, 0)
    assert algebra.get_order(dot(0, MMA41)) == (1, 0)
    assert algebra.erase_order((2, 0, 1), 0) == (1, 0)


def test_warps_and_threads_with_unique_data():
    enc = blocked((8,), (32,), (4,), (0,))
    assert algebra.warps_per_cta_with_unique_data(enc, (1024,)) == (4,)
    assert algebra.warps_per_cta_with_unique_data(enc, (256,)) == (1,)
    assert algebra.threads_per_warp_with_unique_data(enc, (64,)) == (8,)


def test_num_elements_per_thread():
    assert algebra.num_elements_per_thread(AL, (128, 32)) == 32
    assert algebra.num_elements_per_thread(blocked((8,), (32,), (4,), (0,)), (1024,)) == 8


def test_kinds():
    assert algebra.is_mma(MMA41) and not algebra.is_mma(AL)
    assert algebra.is_mma_v2(MMA41) and algebra.is_dot_operand(dot(0, MMA41))
    assert algebra.is_distributed(AL) and algebra.rank_of(dot(1, MMA41)) == 2


def test_elem_bits():
    assert algebra.elem_bits(tensor((4,), Float16Type(), AL)) == 16
    assert algebra.elem_bits(PointerType(Float32Type())) == 64
    assert algebra.elem_bits(IntegerType(1)) == 1 and algebra.elem_bytes(IntegerType(1)) == 1
    assert algebra.elem_bytes(tensor((4,), PointerType(Float16Type()), AL)) == 8


# -- linear layouts -----------------------------------------------------------------------------


def bases(ll):
    return {k: [list(v) for v in vs] for k, vs in ll.bases.items()}


def test_blocked_to_linear_layout():
    ll = linear.to_linear_layout(AL, (128, 32))
    assert bases(ll) == {
        "register": [[0, 1], [0, 2], [16, 0], [32, 0], [64, 0]],
        "lane": [[0, 4], [0, 8], [0, 16], [1, 0], [2, 0]],
        "warp": [[4, 0], [8, 0]],
        "block": [],
    }


def test_mma_v2_to_linear_layout():
    # as Triton 3.9 prints it for #mma<{versionMajor = 2, warpsPerCTA = [2, 2]}> on 64x32
    ll = linear.to_linear_layout(mma((2, 2)), (64, 32))
    assert bases(ll) == {
        "register": [[0, 1], [8, 0], [0, 16], [32, 0]],
        "lane": [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]],
        "warp": [[0, 8], [16, 0]],
        "block": [],
    }


def test_small_tensor_broadcasts():
    ll = linear.to_linear_layout(blocked((4,), (32,), (4,), (0,)), (2,))
    assert bases(ll)["register"] == [[1]]  # the register beyond the tensor is dropped
    assert all(v == [0] for v in bases(ll)["lane"])
    assert linear.to_linear_layout(blocked((4,), (32,), (4,), (0,)), (2,), keep_broadcast_registers=True).bases[
        "register"
    ] == [(1,), (0,)]


def test_slice_and_dot_to_linear_layout():
    s = linear.to_linear_layout(SliceEncodingAttr.from_values(dim=1, parent=AL), (128,))
    assert s.out_dims == [("dim0", 128)] and s.in_dim_size("lane") == 32
    d = linear.to_linear_layout(dot(0, mma((2, 2))), (64, 32))
    # dot operands broadcast the mma warps along K
    assert [0, 0] in bases(d)["warp"]


def test_linear_layout_algebra():
    a = linear.LinearLayout.identity_1d(4, "register", "dim0")
    b = linear.LinearLayout.identity_1d(8, "lane", "dim0")
    p = a * b
    assert p.out_dims == [("dim0", 32)] and p.bases["lane"][0] == (4,)
    assert p.apply({"register": 3, "lane": 1}) == (7,)
    t = linear.identity_standard_nd("register", (2, 4), (1, 0))
    assert t.out_dim_names == ["dim1", "dim0"]


def test_linear_encoding_views():
    ll = linear.to_linear_layout(AL, (128, 32))
    assert linear.ll_order(ll) == (1, 0)
    assert linear.ll_contig_per_thread(ll) == (1, 4)
    assert linear.ll_shape_per_cta_tile(ll) == (16, 32)


def test_register_only_and_warp_local():
    assert conversion.cvt_is_register_only(AL, AL, (128, 32))
    assert not conversion.cvt_is_register_only(AL, BL, (128, 32))
    # swapping register and lane bits inside each warp keeps the data in the warp
    a = blocked((2, 1), (1, 32), (4, 1), (1, 0))
    b = blocked((1, 2), (2, 16), (4, 1), (1, 0))
    assert conversion.cvt_is_warp_local(a, b, (8, 64))
    assert conversion.cvt_is_register_only(MMA41, dot(0, MMA41), (64, 16)) is not None


def test_cvt_needs_shared_memory_per_version():
    # Triton 3.1.0 has no linear-layout test: even an identical blocked convert goes through shared memory
    assert conversion.cvt_needs_shared_memory(AL, AL, (64, 64), Float16Type(), "3.1")
    assert not conversion.cvt_needs_shared_memory(AL, AL, (64, 64), Float16Type(), "3.3")
    assert not conversion.cvt_needs_shared_memory(AL, AL, (64, 64), Float16Type(), "3.9")
    # 3.1 shortcuts
    assert not conversion.cvt_needs_shared_memory(MMA41, dot(0, MMA41), (64, 64), Float16Type(), "3.1")
    assert conversion.cvt_needs_shared_memory(MMA41, dot(0, MMA41), (64, 64), Float32Type(), "3.1")
    h1 = mma((4, 1), 3, (16, 64, 16))
    h2 = mma((4, 1), 3, (16, 128, 16))
    assert conversion.is_mma_to_mma_shortcut(h1, h2)
    assert conversion.cvt_needs_shared_memory(AL, BL, (128, 128), Float32Type(), "3.9")


def test_swizzled_scratch_matches_triton_39():
    # corpus: matmul_addmm 256x256 bf16, 4 warps, cuda:80 -> 32768 bytes per f32 convert
    b = blocked((1, 4), (1, 32), (2, 2), (1, 0))
    m = mma((2, 2))
    assert conversion.swizzled_scratch_elems(m, b, (256, 256), 32, "cuda:80") * 4 == 32768
    assert conversion.swizzled_scratch_elems(b, m, (256, 256), 32, "cuda:80") * 4 == 32768
    # corpus: matmul 256x256 fp16, 8 warps: ldmatrix tiles make the fp16 convert 8192 bytes on sm80
    b8 = blocked((1, 8), (1, 32), (8, 1), (1, 0))
    assert conversion.swizzled_scratch_elems(mma((2, 4)), b8, (256, 256), 16, "cuda:80") * 2 == 8192
    # without NVIDIA tiles (plain ld/st) the same convert needs four times more
    assert conversion.swizzled_scratch_elems(mma((2, 4)), b8, (256, 256), 16, "hip:gfx942") * 2 == 32768
