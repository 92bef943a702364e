"""Real Triton 3.6 TTIR/TTGIR of a few of our own kernels, compiled on the CPU for NVIDIA targets.

irkit must read what Triton 3.6 prints (the GPU machine of irkit-check runs Triton 3.6).  This script
compiles GEMM, GEMM + add-matrix (tools/gemm_kernels.py) (C = A @ B + D, bf16 A/B, f32 D/C), flash-attention forward and layernorm
forward with the real Triton 3.6 compiler for cuda:80 and cuda:90 (no GPU needed: the target is explicit)
and writes, under --out:

    <target>/<name>.ttir  .ttgir        the text Triton writes to its cache (custom syntax, locations)
    index.json                          per case: kernel, target, config, signature, metadata.shared

Run from the repository root (deterministic; source paths in locations are shortened):

    /work/.venv-triton36/bin/python tools/triton36_kernels.py --out tests/data/triton36
"""

from __future__ import annotations

import argparse
import json
import os
import sys

import triton
import triton.language as tl
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gemm_kernels import (
    gemm,
    gemm_add_matrix,
    gemm_add_matrix_bp,
    gemm_signature,
    shorten_paths,
)


@triton.jit
def attention_fwd(Q, K, V, Out, stride_m, N_CTX, sm_scale, BM: tl.constexpr, BN: tl.constexpr, D: tl.constexpr):
    offs_m = tl.program_id(0) * BM + tl.arange(0, BM)
    offs_n = tl.arange(0, BN)
    offs_d = tl.arange(0, D)
    q = tl.load(Q + offs_m[:, None] * stride_m + offs_d[None, :])
    m_i = tl.zeros([BM], dtype=tl.float32) - float("inf")
    l_i = tl.zeros([BM], dtype=tl.float32) + 1.0
    acc = tl.zeros([BM, D], dtype=tl.float32)
    for start_n in range(0, N_CTX, BN):
        k = tl.load(K + (start_n + offs_n)[None, :] * stride_m + offs_d[:, None])
        qk = tl.dot(q, k)
        m_ij = tl.maximum(m_i, tl.max(qk, 1) * sm_scale)
        p = tl.math.exp2(qk * sm_scale - m_ij[:, None])
        alpha = tl.math.exp2(m_i - m_ij)
        l_i = l_i * alpha + tl.sum(p, 1)
        v = tl.load(V + (start_n + offs_n)[:, None] * stride_m + offs_d[None, :])
        acc = acc * alpha[:, None] + tl.dot(p.to(v.dtype), v)
        m_i = m_ij
    tl.store(Out + offs_m[:, None] * stride_m + offs_d[None, :], (acc / l_i[:, None]).to(Out.dtype.element_ty))


@triton.jit
def layernorm_fwd(X, Y, W, B, stride, N, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < N
    x = tl.load(X + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
    mean = tl.sum(x, axis=0) / N
    xc = tl.where(mask, x - mean, 0.0)
    rstd = 1 / tl.sqrt(tl.sum(xc * xc, axis=0) / N + eps)
    w = tl.load(W + cols, mask=mask)
    b = tl.load(B + cols, mask=mask)
    tl.store(Y + row * stride + cols, (xc * rstd * w + b).to(Y.dtype.element_ty), mask=mask)


GEMM_SIG = gemm_signature(gemm)
ADDMM_SIG = gemm_signature(gemm_add_matrix)
CASES = [
    # name, kernel, signature, constexprs, warps, stages, targets
    ("gemm_bf16_128x128x32_w4_s3", gemm, GEMM_SIG, {"BM": 128, "BN": 128, "BK": 32}, 4, 3, ("cuda:80", "cuda:90")),
    ("addmm_bf16_128x128x32_w8_s3", gemm_add_matrix, ADDMM_SIG, {"BM": 128, "BN": 128, "BK": 32}, 8, 3,
     ("cuda:80", "cuda:90")),
    ("addmm_bf16_256x256x32_w8_s3", gemm_add_matrix, ADDMM_SIG, {"BM": 256, "BN": 256, "BK": 32}, 8, 3,
     ("cuda:90",)),
    ("addmm_bp_bf16_128x128x32_w4_s3", gemm_add_matrix_bp, gemm_signature(gemm_add_matrix_bp),
     {"BM": 128, "BN": 128, "BK": 32}, 4, 3, ("cuda:80", "cuda:90")),
    ("attention_fwd_fp16_128x64x64_w4_s2", attention_fwd,
     {"Q": "*fp16", "K": "*fp16", "V": "*fp16", "Out": "*fp16", "stride_m": "i32", "N_CTX": "i32", "sm_scale": "fp32"},
     {"BM": 128, "BN": 64, "D": 64}, 4, 2, ("cuda:80", "cuda:90")),
    ("layernorm_fwd_fp16_1024_w4", layernorm_fwd,
     {"X": "*fp16", "Y": "*fp16", "W": "*fp16", "B": "*fp16", "stride": "i32", "N": "i32", "eps": "fp32"},
     {"BLOCK": 1024}, 4, 1, ("cuda:80", "cuda:90")),
]

def compile_case(kernel, signature, constexprs, warps, stages, target):
    backend, arch = target.split(":")
    params = list(kernel.arg_names)
    sig = {name: signature.get(name, "constexpr") for name in params}
    src = ASTSource(kernel, sig, constexprs=constexprs)
    return triton.compile(src, target=GPUTarget(backend, int(arch), 32),
                          options={"num_warps": warps, "num_stages": stages})


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default="tests/data/triton36")
    args = ap.parse_args()
    if not triton.__version__.startswith("3.6"):
        print(f"needs Triton 3.6, this Python has {triton.__version__}", file=sys.stderr)
        return 1
    index = {"triton": triton.__version__, "cases": []}
    for name, kernel, signature, constexprs, warps, stages, targets in CASES:
        for target in targets:
            compiled = compile_case(kernel, signature, constexprs, warps, stages, target)
            folder = os.path.join(args.out, target.replace(":", "_"))
            os.makedirs(folder, exist_ok=True)
            for stage in ("ttir", "ttgir"):
                with open(os.path.join(folder, f"{name}.{stage}"), "w") as f:
                    f.write(shorten_paths(compiled.asm[stage]))
            index["cases"].append({"name": name, "kernel": kernel.__name__, "target": target,
                                   "constexprs": constexprs, "signature": signature, "num_warps": warps,
                                   "num_stages": stages, "shared": compiled.metadata.shared})
            print(f"{target} {name}: shared={compiled.metadata.shared}")
    with open(os.path.join(args.out, "index.json"), "w") as f:
        json.dump(index, f, indent=1, sort_keys=True)
        f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
