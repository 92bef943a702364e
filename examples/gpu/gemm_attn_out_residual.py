"""A transformer block's attention output projection added to an fp32 residual stream, as mixed-precision training
and many inference stacks keep it: Y = R + (X @ W_o + b_o), fp16 X and W_o, an fp16 bias, R and Y fp32, over a sweep of
tile configurations.  A plain Triton program: it knows nothing of irkit.  The model width sets both K and N (384 for
ViT-S, 512, 768 for ViT-B, 1024 for ViT-L), so at 64-wide K tiles the main loop runs 6 to 16 times: short enough
that some launches are their epilogue, long enough that others are not.

This program was written after round 42's run (session 19), with nothing in the pass changed since but the rule it
was written to check: the IR model's own rewrite is undone in a launch that is its epilogue (round 43,
docs/propagate-mma-results/notes.md).

    irkit-check -p propagate-mma --each-size -- python examples/gpu/gemm_attn_out_residual.py
    irkit-check -p propagate-mma -- python examples/gpu/gemm_attn_out_residual.py --quick   # 2 configs, one size

Every launch is checked against torch in float64, so the program fails loudly by itself if a kernel computes the
wrong thing.  Sizes (tokens x width x width): 64 images of 197 tokens at 384, 16 sequences of 512 tokens at 512, 32
images of 197 tokens at 768, 16 at 1024; 197 tokens make M a multiple of neither 16 nor the tiles.
"""

from __future__ import annotations

import argparse

import triton
import triton.language as tl

# (BLOCK_M, BLOCK_N, BLOCK_K, num_warps, num_stages)
CONFIGS = [
    (64, 128, 32, 4, 4),
    (128, 64, 64, 4, 3),
    (128, 128, 32, 4, 4),
    (128, 128, 64, 8, 3),
    (128, 256, 64, 8, 3),
    (256, 64, 32, 8, 4),
    (256, 128, 32, 8, 3),
    (256, 128, 64, 8, 3),
]
# (M, N, K), output dtypes
SIZES = [
    ((12608, 384, 384), ("float32",)),
    ((8192, 512, 512), ("float32",)),
    ((6304, 768, 768), ("float32",)),
    ((3152, 1024, 1024), ("float32",)),
]


def _flops(grid, metadata, args):
    return {"flops": 2 * args["M"] * args["N"] * args["K"], "name": "gemm_attn_out_residual_kernel out=fp32"}


@triton.jit(launch_metadata=_flops)
def gemm_attn_out_residual_kernel(x_ptr, w_ptr, bias_ptr, r_ptr, y_ptr, M, N, K, sxm, sxk, swk, swn, srm, srn, sym,
                                  syn, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                                  OUT_F32: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    x = x_ptr + rm[:, None] * sxm + rk[None, :] * sxk
    w = w_ptr + rk[:, None] * swk + rn[None, :] * swn
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        heads = tl.load(x, mask=(rm[:, None] < M) & (rk[None, :] < K - k * BLOCK_K), other=0.0)
        proj = tl.load(w, mask=(rk[:, None] < K - k * BLOCK_K) & (rn[None, :] < N), other=0.0)
        acc = tl.dot(heads, proj, acc)
        x += BLOCK_K * sxk
        w += BLOCK_K * swk
    bias = tl.load(bias_ptr + rn, mask=rn < N, other=0.0).to(tl.float32)
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    stream = tl.load(r_ptr + rm[:, None] * srm + rn[None, :] * srn, mask=mask, other=0.0).to(tl.float32)
    out = stream + acc + bias[None, :]
    y = y_ptr + rm[:, None] * sym + rn[None, :] * syn
    if OUT_F32:
        tl.store(y, out, mask=mask)
    else:
        tl.store(y, out.to(tl.float16), mask=mask)


def gemm_attn_out_residual(x, w, bias, stream, config):
    import torch

    bm, bn, bk, warps, stages = config
    m, k = x.shape
    n = w.shape[1]
    y = torch.empty((m, n), device=x.device, dtype=stream.dtype)
    grid = (triton.cdiv(m, bm), triton.cdiv(n, bn))
    gemm_attn_out_residual_kernel[grid](x, w, bias, stream, y, m, n, k, x.stride(0), x.stride(1), w.stride(0),
                                        w.stride(1), stream.stride(0), stream.stride(1), y.stride(0), y.stride(1),
                                        BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk, OUT_F32=stream.dtype == torch.float32,
                                        num_warps=warps, num_stages=stages)
    return y


def main(argv=None):
    import torch

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="2 configurations, the first size")
    args = ap.parse_args(argv)
    sizes = [(SIZES[0][0], SIZES[0][1], CONFIGS[:2])] if args.quick else [(s, d, CONFIGS) for s, d in SIZES]
    rng = torch.Generator(device="cuda").manual_seed(157)
    worst, launches = 0.0, 0
    for (m, n, k), dtypes, configs in sizes:
        x = torch.randn(m, k, device="cuda", dtype=torch.float16, generator=rng)
        w = (torch.randn(k, n, device="cuda", generator=rng) / k ** 0.5).to(torch.float16)
        bias = (torch.randn(n, device="cuda", generator=rng) * 0.1).to(torch.float16)
        for dtype in dtypes:
            stream = torch.randn(m, n, device="cuda", dtype=getattr(torch, dtype), generator=rng)
            ref = stream.double() + x.double() @ w.double() + bias.double()[None, :]
            for config in configs:
                try:
                    y = gemm_attn_out_residual(x, w, bias, stream, config)
                except triton.runtime.errors.OutOfResources as e:
                    print(f"{m}x{n}x{k} {config}: skipped ({e})")
                    continue
                rel = ((y.double() - ref).norm() / ref.norm()).item()
                worst, launches = max(worst, rel), launches + 1
                if not rel < 1e-2:
                    raise SystemExit(f"{m}x{n}x{k} {config} out={dtype}: relative error {rel:.2e}")
    torch.cuda.synchronize()
    print(f"gemm_attn_out_residual: {launches} launches, worst relative error vs float64 {worst:.2e}")


if __name__ == "__main__":
    main()
