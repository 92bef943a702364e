"""Launch a kernel's TTGIR before and after propagate-mma directly, on a GPU, for a profiler to look at.  For each
config whose `before_CONFIG.ttgir` and `after_CONFIG.ttgir` lie in DIR, it checks that the two outputs agree bit for
bit and, with `time`, prints each one's median time over 200 launches (CUDA events).  Without `time` each kernel
runs once, which is what a profiler wants.

PROGRAM names the launches, and CONFIG is DTYPE_MxNxK_BMxBNxBK_wW_sS (e.g. bf16_1500x1800x1000_128x64x64_w4_s4):
    batched_rowscale  examples/gpu/gemm_batched_rowscale.py's masked bf16 launches (batch 3); round 12
    latent_up         examples/gpu/gemm_latent_up.py (fp16 or fp32 residual and out; K is the launch's own,
                      the TTGIR takes it as an argument); session 18
    token_scaled      examples/gpu/gemm_token_scaled_residual.py (the same); session 18
    attn_out          examples/gpu/gemm_attn_out_residual.py (fp32 residual stream and out); session 19

    DIR holds, per config:
      before_CONFIG.ttgir   Triton 3.6's TTGIR for cuda:90 (tools/heldout_register.py compile)
      after_CONFIG.ttgir    irkit-opt --propagate-mma=profit=always before_CONFIG.ttgir
    python3 tools/ncu_pair.py PROGRAM DIR time
    ncu --clock-control none -k regex:gemm --section WarpStateStats ... python3 tools/ncu_pair.py PROGRAM DIR

Used for docs/propagate-mma-results/notes.md, round 13 and session 18 (where in the kernel a loser loses).
"""

from __future__ import annotations

import glob
import os
import sys

import torch
import triton


def batched_rowscale(dtype: str, m: int, n: int, k: int, bm: int, bn: int):
    b = 3
    a = torch.randn(b, m, k, device="cuda", dtype=torch.bfloat16)
    w = (torch.randn(b, k, n, device="cuda") / k ** 0.5).to(torch.bfloat16)
    s = torch.rand(b, m, device="cuda") * 4
    d = torch.randn(b, m, n, device="cuda", dtype=torch.bfloat16)
    c = torch.empty(b, m, n, device="cuda", dtype=torch.bfloat16)
    # the TTGIR's arguments: the 1-valued strides (sak, sbn, sdn, scn) are constexprs already
    args = (a, w, s, d, c, m, n, k, m * k, k, k * n, n, m, m * n, n, m * n, n)
    return args, c, (triton.cdiv(m, bm), triton.cdiv(n, bn), b)


def latent_up(dtype: str, m: int, n: int, k: int, bm: int, bn: int):
    out = torch.float16 if dtype == "fp16" else torch.float32
    latent = torch.randn(m, k, device="cuda", dtype=torch.float16)
    up = (torch.randn(k, n, device="cuda") / k ** 0.5).to(torch.float16)
    residual = torch.randn(m, n, device="cuda", dtype=out)
    y = torch.empty(m, n, device="cuda", dtype=out)
    # c, w, r, y, M, N, K, scm, swk, srm, sym: the 1-valued strides are constexprs already
    args = (latent, up, residual, y, m, n, k, k, n, n, n)
    return args, y, (triton.cdiv(m, bm), triton.cdiv(n, bn), 1)


def token_scaled(dtype: str, m: int, n: int, k: int, bm: int, bn: int):
    out = torch.float16 if dtype == "fp16" else torch.float32
    x = torch.randn(m, k, device="cuda", dtype=torch.float16)
    w = (torch.randn(k, n, device="cuda") / k ** 0.5).to(torch.float16)
    s = torch.rand(m, device="cuda") * 2 + 0.1
    residual = torch.randn(m, n, device="cuda", dtype=out)
    y = torch.empty(m, n, device="cuda", dtype=out)
    # x, w, s, r, y, M, N, K, sxm, swk, srm, sym: the 1-valued strides are constexprs already
    args = (x, w, s, residual, y, m, n, k, k, n, n, n)
    return args, y, (triton.cdiv(m, bm), triton.cdiv(n, bn), 1)


def attn_out(dtype: str, m: int, n: int, k: int, bm: int, bn: int):
    x = torch.randn(m, k, device="cuda", dtype=torch.float16)
    w = (torch.randn(k, n, device="cuda") / k ** 0.5).to(torch.float16)
    bias = (torch.randn(n, device="cuda") * 0.1).to(torch.float16)
    stream = torch.randn(m, n, device="cuda", dtype=torch.float32)
    y = torch.empty(m, n, device="cuda", dtype=torch.float32)
    # x, w, bias, r, y, M, N, K, sxm, swk, srm, sym: the 1-valued strides are constexprs already
    args = (x, w, bias, stream, y, m, n, k, k, n, n, n)
    return args, y, (triton.cdiv(m, bm), triton.cdiv(n, bn), 1)


PROGRAMS = {"batched_rowscale": batched_rowscale, "latent_up": latent_up, "token_scaled": token_scaled,
            "attn_out": attn_out}


def main() -> None:
    program, folder, timed = PROGRAMS[sys.argv[1]], sys.argv[2], sys.argv[3:] == ["time"]
    configs = sorted({os.path.basename(p)[len("before_"):-len(".ttgir")] for p in glob.glob(f"{folder}/before_*.ttgir")})
    for config in configs:
        dtype, size, tile = config.split("_")[:3]
        m, n, k = (int(x) for x in size.split("x"))
        bm, bn = (int(x) for x in tile.split("x")[:2])
        outs = {}
        for which in ("before", "after"):
            torch.manual_seed(0)
            args, out, grid = program(dtype, m, n, k, bm, bn)
            kernel = triton.compile(f"{folder}/{which}_{config}.ttgir")
            kernel[grid](*args)
            torch.cuda.synchronize()
            outs[which] = out.clone()
            if timed:
                times = []
                for _ in range(200):
                    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
                    start.record()
                    kernel[grid](*args)
                    end.record()
                    end.synchronize()
                    times.append(start.elapsed_time(end))
                times.sort()
                print(f"{config} {which}: median {times[100] * 1e3:.1f} us, regs {kernel.n_regs}, "
                      f"spills {kernel.n_spills}", flush=True)
        print(f"{config}: bit-identical {torch.equal(outs['before'], outs['after'])}", flush=True)


if __name__ == "__main__":
    main()
