"""GEMMs with an epilogue for Blackwell (cuda:100), compiled on a CPU-only machine: writes the TTGIR and prints
metadata.shared (tests/data/blackwell).

    /path/to/venv-with-triton/bin/python tools/blackwell_gemms.py addmm|bias|gemm BM BN BK WARPS STAGES OUT.ttgir

addmm: C = A @ B + D (fp16 A, B; f32 D, C), the add-matrix epilogue; bias: C = A @ B + bias[None, :] (fp16,
masked store); gemm: C = A @ B (fp16 store).
"""
import sys

import triton
import triton.language as tl
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource

EPILOGUES = {"gemm": 0, "addmm": 1, "bias": 2}


@triton.jit
def gemm_epilogue(a_ptr, b_ptr, c_ptr, d_ptr, M, N, K, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                  BLOCK_K: tl.constexpr, EPI: tl.constexpr):
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
    if EPI == 1:
        d = tl.load(d_ptr + rm[:, None] * N + rn[None, :])
        tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc + d)
    elif EPI == 2:
        bias = tl.load(d_ptr + rn)
        out = acc + bias[None, :].to(tl.float32)
        tl.store(c_ptr + rm[:, None] * N + rn[None, :], out.to(tl.float16), mask=(rm[:, None] < M) & (rn[None, :] < N))
    else:
        tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc.to(tl.float16))


def main() -> None:
    name, bm, bn, bk, warps, stages, out = sys.argv[1], *map(int, sys.argv[2:7]), sys.argv[7]
    epi = EPILOGUES[name]
    c, d = ("*fp32", "*fp32") if name == "addmm" else ("*fp16", "*fp16")
    types = dict(zip(gemm_epilogue.arg_names, ["*fp16", "*fp16", c, d, "i32", "i32", "i32"]))
    src = ASTSource(gemm_epilogue, types, constexprs={"BLOCK_M": bm, "BLOCK_N": bn, "BLOCK_K": bk, "EPI": epi})
    kernel = triton.compile(src, target=GPUTarget("cuda", 100, 32), options={"num_warps": warps, "num_stages": stages})
    with open(out, "w") as f:
        f.write(kernel.asm["ttgir"])
    print(triton.__version__, name, bm, bn, bk, warps, stages, "shared", kernel.metadata.shared, "cubin", len(kernel.asm["cubin"]))


if __name__ == "__main__":
    main()
