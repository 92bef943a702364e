"""Our own GEMM kernels for the IR generators (tools/intel_xpu_kernels.py, tools/triton36_kernels.py).

C = A @ B, and C = A @ B + D (the add-matrix epilogue), with plain pointers or block pointers; A and B
row-major with unit inner stride.  The main loops are shared `@triton.jit` helpers, which Triton inlines.
Works with the Triton 3.3+ frontend (3.3 Intel XPU, 3.6).
"""

import os

import triton
import triton.language as tl


@triton.jit
def _acc_plain(a_ptr, b_ptr, K, sam, sbk, rm, rn, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * sam + (k + rk)[None, :])
        b = tl.load(b_ptr + (k + rk)[:, None] * sbk + rn[None, :])
        acc += tl.dot(a, b)
    return acc


@triton.jit
def _acc_block_ptr(a_ptr, b_ptr, M, N, K, sam, sbk, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    a = tl.make_block_ptr(a_ptr, (M, K), (sam, 1), (tl.program_id(0) * BM, 0), (BM, BK), (1, 0))
    b = tl.make_block_ptr(b_ptr, (K, N), (sbk, 1), (0, tl.program_id(1) * BN), (BK, BN), (1, 0))
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for _ in range(0, K, BK):
        acc += tl.dot(tl.load(a, boundary_check=(0, 1)), tl.load(b, boundary_check=(0, 1)))
        a = tl.advance(a, (0, BK))
        b = tl.advance(b, (BK, 0))
    return acc


@triton.jit
def gemm(a_ptr, b_ptr, c_ptr, M, N, K, sam, sbk, scm, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    acc = _acc_plain(a_ptr, b_ptr, K, sam, sbk, rm, rn, BM, BN, BK)
    tl.store(c_ptr + rm[:, None] * scm + rn[None, :], acc)


@triton.jit
def gemm_add_matrix(a_ptr, b_ptr, d_ptr, c_ptr, M, N, K, sam, sbk, sdm, scm,
                    BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    acc = _acc_plain(a_ptr, b_ptr, K, sam, sbk, rm, rn, BM, BN, BK)
    acc += tl.load(d_ptr + rm[:, None] * sdm + rn[None, :])
    tl.store(c_ptr + rm[:, None] * scm + rn[None, :], acc)


@triton.jit
def gemm_bp(a_ptr, b_ptr, c_ptr, M, N, K, sam, sbk, scm, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    acc = _acc_block_ptr(a_ptr, b_ptr, M, N, K, sam, sbk, BM, BN, BK)
    offsets = (tl.program_id(0) * BM, tl.program_id(1) * BN)
    c = tl.make_block_ptr(c_ptr, (M, N), (scm, 1), offsets, (BM, BN), (1, 0))
    tl.store(c, acc, boundary_check=(0, 1))


@triton.jit
def gemm_add_matrix_bp(a_ptr, b_ptr, d_ptr, c_ptr, M, N, K, sam, sbk, sdm, scm,
                       BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    acc = _acc_block_ptr(a_ptr, b_ptr, M, N, K, sam, sbk, BM, BN, BK)
    offsets = (tl.program_id(0) * BM, tl.program_id(1) * BN)
    acc += tl.load(tl.make_block_ptr(d_ptr, (M, N), (sdm, 1), offsets, (BM, BN), (1, 0)), boundary_check=(0, 1))
    c = tl.make_block_ptr(c_ptr, (M, N), (scm, 1), offsets, (BM, BN), (1, 0))
    tl.store(c, acc, boundary_check=(0, 1))


def gemm_signature(kernel, a_type: str = "*bf16", c_type: str = "*fp32") -> dict[str, str]:
    """Argument name -> Triton type for ASTSource (constexprs named as such)."""
    types = {"a_ptr": a_type, "b_ptr": a_type, "d_ptr": "*fp32", "c_ptr": c_type}
    return {n: types.get(n, "i32" if n[0] in "MNKs" else "constexpr") for n in kernel.arg_names}


_TOOLS_DIR = os.path.dirname(os.path.abspath(__file__))
_TRITON_DIR = os.path.dirname(triton.__file__)


def shorten_paths(text: str) -> str:
    """Locations name source files; keep them independent of the machine that ran the generator."""
    return text.replace(_TOOLS_DIR + "/", "tools/").replace(_TRITON_DIR, "/site-packages/triton")
