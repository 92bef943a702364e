"""GEMM (+ add-matrix D, + bias row) for cuda:100 on a CPU-only machine: writes the TTGIR and prints metadata.shared (tests/data/blackwell).

    /path/to/venv-with-triton/bin/python tools/blackwell_gemms.py addmm|bias|gemm BM BN BK WARPS STAGES OUT.ttgir
"""
import sys

import triton
import triton.language as tl
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource


@triton.jit
def gemm_add_matrix(a_ptr, b_ptr, c_ptr, d_ptr, M, N, K, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, K, BLOCK_K):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :])
        b = tl.load(b_ptr + (k + rk)[:, None] * N + rn[None, :])
        acc += tl.dot(a, b)
    d = tl.load(d_ptr + rm[:, None] * N + rn[None, :])
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc + d)

@triton.jit
def gemm_bias(a_ptr, b_ptr, c_ptr, bias_ptr, M, N, K, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, K, BLOCK_K):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :])
        b = tl.load(b_ptr + (k + rk)[:, None] * N + rn[None, :])
        acc += tl.dot(a, b)
    bias = tl.load(bias_ptr + rn)
    out = acc + bias[None, :].to(tl.float32)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], out.to(tl.float16), mask=(rm[:, None] < M) & (rn[None, :] < N))

@triton.jit
def gemm(a_ptr, b_ptr, c_ptr, M, N, K, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, K, BLOCK_K):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :])
        b = tl.load(b_ptr + (k + rk)[:, None] * N + rn[None, :])
        acc += tl.dot(a, b)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc.to(tl.float16))

name, bm, bn, bk, w, s, out = sys.argv[1], *map(int, sys.argv[2:7]), sys.argv[7]
fn = {"addmm": gemm_add_matrix, "bias": gemm_bias, "gemm": gemm}[name]
types = {"addmm": ["*fp16", "*fp16", "*fp32", "*fp32", "i32", "i32", "i32"],
         "bias": ["*fp16", "*fp16", "*fp16", "*fp16", "i32", "i32", "i32"],
         "gemm": ["*fp16", "*fp16", "*fp16", "i32", "i32", "i32"]}[name]
src = ASTSource(fn, dict(zip(fn.arg_names, types)), constexprs={"BLOCK_M": bm, "BLOCK_N": bn, "BLOCK_K": bk})
k = triton.compile(src, target=GPUTarget("cuda", 100, 32), options={"num_warps": w, "num_stages": s})
open(out, "w").write(k.asm["ttgir"])
print(triton.__version__, name, bm, bn, bk, w, s, "shared", k.metadata.shared, "cubin", len(k.asm["cubin"]))
