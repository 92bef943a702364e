"""A per-token scaled GEMM added to a scaled residual, as a quantized linear layer's dequantization meets a residual
stream: Y = R / 2 + s[:, None] * (X @ W), fp16 X and W, a per-row (per-token) fp32 scale s, R and Y fp16 or fp32,
over a sweep of tile configurations.  A plain Triton program: it knows nothing of irkit.

This program was written after round 39's run (session 18), with nothing in the pass changed since: a second held-out
check of the stores rule of ae00d12 (round 40, docs/propagate-mma-results/notes.md).

    irkit-check -p propagate-mma --each-size -- python examples/gpu/gemm_token_scaled_residual.py
    irkit-check -p propagate-mma -- python examples/gpu/gemm_token_scaled_residual.py --quick   # 2 configs, fp32

Every launch is checked against torch in float64, so the program fails loudly by itself if a kernel computes the
wrong thing.  Sizes: a masked 2600 x 3300 x 1024 and a masked 3500 x 2100 x 2048, each with fp16 and fp32 R and Y;
3300 and 2100 are not multiples of 16, so Triton cannot assume aligned rows of W, R and Y.
"""

from __future__ import annotations

import argparse

import triton
import triton.language as tl

# (BLOCK_M, BLOCK_N, BLOCK_K, num_warps, num_stages)
CONFIGS = [
    (64, 64, 64, 4, 4),
    (64, 256, 32, 4, 3),
    (128, 64, 32, 4, 4),
    (128, 128, 32, 4, 3),
    (128, 128, 64, 8, 4),
    (128, 256, 32, 8, 3),
    (256, 64, 64, 8, 3),
    (256, 128, 32, 8, 3),
]
# (M, N, K), output dtypes
SIZES = [
    ((2600, 3300, 1024), ("float16", "float32")),
    ((3500, 2100, 2048), ("float16", "float32")),
]


def _flops(grid, metadata, args):
    out = "fp32" if args["OUT_F32"] else "fp16"
    return {"flops": 2 * args["M"] * args["N"] * args["K"], "name": f"gemm_token_scaled_residual_kernel out={out}"}


@triton.jit(launch_metadata=_flops)
def gemm_token_scaled_residual_kernel(x_ptr, w_ptr, s_ptr, r_ptr, y_ptr, M, N, K, sxm, sxk, swk, swn, srm, srn,
                                      sym, syn, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
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
    scale = tl.load(s_ptr + rm, mask=rm < M, other=0.0)
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    residual = tl.load(r_ptr + rm[:, None] * srm + rn[None, :] * srn, mask=mask, other=0.0).to(tl.float32)
    out = 0.5 * residual + scale[:, None] * acc
    y = y_ptr + rm[:, None] * sym + rn[None, :] * syn
    if OUT_F32:
        tl.store(y, out, mask=mask)
    else:
        tl.store(y, out.to(tl.float16), mask=mask)


def gemm_token_scaled_residual(x, w, s, residual, config):
    import torch

    bm, bn, bk, warps, stages = config
    m, k = x.shape
    n = w.shape[1]
    y = torch.empty((m, n), device=x.device, dtype=residual.dtype)
    grid = (triton.cdiv(m, bm), triton.cdiv(n, bn))
    gemm_token_scaled_residual_kernel[grid](x, w, s, residual, y, m, n, k, x.stride(0), x.stride(1),
                                            w.stride(0), w.stride(1), residual.stride(0), residual.stride(1),
                                            y.stride(0), y.stride(1), BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk,
                                            OUT_F32=residual.dtype == torch.float32, num_warps=warps,
                                            num_stages=stages)
    return y


def main(argv=None):
    import torch

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="2 configurations, the first size, fp32")
    args = ap.parse_args(argv)
    sizes = [(SIZES[0][0], ("float32",), CONFIGS[:2])] if args.quick else [(s, d, CONFIGS) for s, d in SIZES]
    rng = torch.Generator(device="cuda").manual_seed(149)
    worst, launches = 0.0, 0
    for (m, n, k), dtypes, configs in sizes:
        x = torch.randn(m, k, device="cuda", dtype=torch.float16, generator=rng)
        w = (torch.randn(k, n, device="cuda", generator=rng) / k ** 0.5).to(torch.float16)
        s = torch.rand(m, device="cuda", generator=rng) * 2 + 0.1
        for dtype in dtypes:
            residual = torch.randn(m, n, device="cuda", dtype=getattr(torch, dtype), generator=rng)
            ref = 0.5 * residual.double() + s.double()[:, None] * (x.double() @ w.double())
            for config in configs:
                try:
                    y = gemm_token_scaled_residual(x, w, s, residual, config)
                except triton.runtime.errors.OutOfResources as e:
                    print(f"{m}x{n}x{k} {config}: skipped ({e})")
                    continue
                rel = ((y.double() - ref).norm() / ref.norm()).item()
                worst, launches = max(worst, rel), launches + 1
                if not rel < 1e-2:
                    raise SystemExit(f"{m}x{n}x{k} {config} out={dtype}: relative error {rel:.2e}")
    torch.cuda.synchronize()
    print(f"gemm_token_scaled_residual: {launches} launches, worst relative error vs float64 {worst:.2e}")


if __name__ == "__main__":
    main()
