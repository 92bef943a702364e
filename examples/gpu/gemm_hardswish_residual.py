"""A pointwise projection with a hard-swish activation added to a residual, as MobileNetV3's inverted-residual blocks
and some vision transformers' MLPs compute it: Y = R + hardswish(X @ W + b), hardswish(z) = z * min(max(z + 3, 0), 6)
/ 6, with fp16 X and W, an fp32 bias, and R and Y fp32 (fp16 at the longest K), over a sweep of tile configurations.
A plain Triton program: it knows nothing of irkit.  The activation is a few FMAs, so the epilogue is light: what
it costs is its loads and stores.  K runs from 256 to 3,072, so at 64-wide K tiles the main loop runs 4 to 48
times, and 256x64 tiles at 8 warps appear at every K.

This program was written after session 21 (round 49), with nothing in the profit rule changed since, to time the
IR model's own rewrites of 256x64 tiles at 8 warps over K (docs/propagate-mma-results/notes.md, session 22).

    irkit-check -p propagate-mma --each-size -- python examples/gpu/gemm_hardswish_residual.py
    irkit-check -p propagate-mma -- python examples/gpu/gemm_hardswish_residual.py --quick   # 2 configs, one size

Every launch is checked against torch in float64, so the program fails loudly by itself if a kernel computes the
wrong thing.  Sizes (tokens x width x K): M is a multiple of neither 16 nor the tiles at three of the four.
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
    (256, 64, 64, 8, 3),
    (256, 128, 64, 8, 3),
]
# (M, N, K), output dtypes
SIZES = [
    ((9630, 640, 256), ("float32",)),
    ((7200, 768, 640), ("float32",)),
    ((4810, 1024, 1536), ("float32",)),
    ((3010, 1280, 3072), ("float16",)),
]


def _flops(grid, metadata, args):
    out = "fp32" if args["OUT_F32"] else "fp16"
    return {"flops": 2 * args["M"] * args["N"] * args["K"], "name": f"gemm_hardswish_residual_kernel out={out}"}


@triton.jit(launch_metadata=_flops)
def gemm_hardswish_residual_kernel(x_ptr, w_ptr, bias_ptr, r_ptr, y_ptr, M, N, K, sxm, sxk, swk, swn, srm, srn, sym,
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
        a = tl.load(x, mask=(rm[:, None] < M) & (rk[None, :] < K - k * BLOCK_K), other=0.0)
        b = tl.load(w, mask=(rk[:, None] < K - k * BLOCK_K) & (rn[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc)
        x += BLOCK_K * sxk
        w += BLOCK_K * swk
    bias = tl.load(bias_ptr + rn, mask=rn < N, other=0.0)
    z = acc + bias[None, :]
    act = z * tl.minimum(tl.maximum(z + 3.0, 0.0), 6.0) * (1.0 / 6.0)
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    res = tl.load(r_ptr + rm[:, None] * srm + rn[None, :] * srn, mask=mask, other=0.0).to(tl.float32)
    out = res + act
    y = y_ptr + rm[:, None] * sym + rn[None, :] * syn
    if OUT_F32:
        tl.store(y, out, mask=mask)
    else:
        tl.store(y, out.to(tl.float16), mask=mask)


def gemm_hardswish_residual(x, w, bias, res, config):
    import torch

    bm, bn, bk, warps, stages = config
    m, k = x.shape
    n = w.shape[1]
    y = torch.empty((m, n), device=x.device, dtype=res.dtype)
    grid = (triton.cdiv(m, bm), triton.cdiv(n, bn))
    gemm_hardswish_residual_kernel[grid](x, w, bias, res, y, m, n, k, x.stride(0), x.stride(1), w.stride(0),
                                         w.stride(1), res.stride(0), res.stride(1), y.stride(0), y.stride(1),
                                         BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk, OUT_F32=res.dtype == torch.float32,
                                         num_warps=warps, num_stages=stages)
    return y


def main(argv=None):
    import torch

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="2 configurations, the first size")
    args = ap.parse_args(argv)
    sizes = [(SIZES[0][0], SIZES[0][1], CONFIGS[:2])] if args.quick else [(s, d, CONFIGS) for s, d in SIZES]
    rng = torch.Generator(device="cuda").manual_seed(223)
    worst, launches = 0.0, 0
    for (m, n, k), dtypes, configs in sizes:
        x = torch.randn(m, k, device="cuda", dtype=torch.float16, generator=rng)
        w = (torch.randn(k, n, device="cuda", generator=rng) / k ** 0.5).to(torch.float16)
        bias = torch.randn(n, device="cuda", generator=rng) * 0.5
        for dtype in dtypes:
            res = torch.randn(m, n, device="cuda", dtype=getattr(torch, dtype), generator=rng)
            z = x.double() @ w.double() + bias.double()[None, :]
            ref = res.double() + z * (z + 3).clamp(0, 6) / 6
            for config in configs:
                try:
                    y = gemm_hardswish_residual(x, w, bias, res, config)
                except triton.runtime.errors.OutOfResources as e:
                    print(f"{m}x{n}x{k} {config}: skipped ({e})")
                    continue
                rel = ((y.double() - ref).norm() / ref.norm()).item()
                worst, launches = max(worst, rel), launches + 1
                if not rel < 1e-2:
                    raise SystemExit(f"{m}x{n}x{k} {config} out={dtype}: relative error {rel:.2e}")
    torch.cuda.synchronize()
    print(f"gemm_hardswish_residual: {launches} launches, worst relative error vs float64 {worst:.2e}")


if __name__ == "__main__":
    main()
