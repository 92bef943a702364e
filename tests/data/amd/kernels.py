"""Our GEMMs for the CDNA occupancy golden data (tools/amd_occupancy_golden.py): C = A @ B, C = A @ B + D."""

import triton
import triton.language as tl

SIGNATURE = {"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp16", "M": "i32", "N": "i32", "K": "i32",
             "sam": "i32", "sbk": "i32", "scm": "i32"}


@triton.jit
def matmul(a_ptr, b_ptr, c_ptr, M, N, K, sam, sbk, scm, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
           BLOCK_K: tl.constexpr):
    rm = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, K, BLOCK_K):
        a = tl.load(a_ptr + rm[:, None] * sam + (k + rk)[None, :])
        b = tl.load(b_ptr + (k + rk)[:, None] * sbk + rn[None, :])
        acc += tl.dot(a, b)
    tl.store(c_ptr + rm[:, None] * scm + rn[None, :], acc.to(tl.float16))


@triton.jit
def matmul_add(a_ptr, b_ptr, c_ptr, M, N, K, sam, sbk, scm, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
               BLOCK_K: tl.constexpr):
    rm = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, K, BLOCK_K):
        a = tl.load(a_ptr + rm[:, None] * sam + (k + rk)[None, :])
        b = tl.load(b_ptr + (k + rk)[:, None] * sbk + rn[None, :])
        acc += tl.dot(a, b)
    d = tl.load(c_ptr + rm[:, None] * scm + rn[None, :])
    tl.store(c_ptr + rm[:, None] * scm + rn[None, :], (acc + d.to(tl.float32)).to(tl.float16))


@triton.jit
def transpose(x_ptr, y_ptr, sx, sy, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    """Few VGPRs, and the layout change goes through LDS: LDS limits its occupancy.  BLOCK_K: unused."""
    rm = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    x = tl.load(x_ptr + rm[:, None] * sx + rn[None, :])
    tl.store(y_ptr + rn[None, :] * sy + rm[:, None], x)


SIGNATURES = {"transpose": {"x_ptr": "*fp32", "y_ptr": "*fp32", "sx": "i32", "sy": "i32"}}
