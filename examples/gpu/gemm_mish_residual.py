"""A Mish-activated residual branch: Y = R + mish(X @ W + b), mish(z) = z * tanh(softplus(z)), fp16 X and W, an
fp32 bias, R and Y fp32 or bf16, over a sweep of tile configurations.  A plain Triton program: it knows nothing of
irkit.  K is short (256 to 768), so the main loop runs 4 to 24 times and the epilogue, with its exp, log and
divide, weighs as much as the loop or more: the launches are often their epilogue.

This program was written after session 19 (round 45), with nothing in the pass changed since but the rule it was
written to check: in a launch that is its epilogue, the compiler's figures take a rewrite only where the
epilogue's spills fall by 512 B or more (round 46, docs/propagate-mma-results/notes.md).

    irkit-check -p propagate-mma --each-size -- python examples/gpu/gemm_mish_residual.py
    irkit-check -p propagate-mma -- python examples/gpu/gemm_mish_residual.py --quick   # 2 configs, one size

Every launch is checked against torch in float64, so the program fails loudly by itself if a kernel computes the
wrong thing.  3000 x 1400 is masked: neither is a multiple of the tiles.
"""

from __future__ import annotations

import argparse

import triton
import triton.language as tl

# (BLOCK_M, BLOCK_N, BLOCK_K, num_warps, num_stages)
CONFIGS = [
    (64, 64, 32, 4, 4),
    (64, 128, 64, 4, 3),
    (128, 64, 64, 4, 3),
    (128, 128, 32, 4, 4),
    (128, 128, 64, 4, 3),
    (128, 128, 64, 8, 3),
    (128, 256, 64, 8, 3),
    (256, 128, 64, 8, 3),
]
# (M, N, K), output dtypes
SIZES = [
    ((4096, 2048, 512), ("float32",)),
    ((3000, 1400, 768), ("float32",)),
    ((2048, 3072, 256), ("float32",)),
    ((4096, 1024, 512), ("bfloat16",)),
]


def _flops(grid, metadata, args):
    out = "fp32" if args["OUT_F32"] else "bf16"
    return {"flops": 2 * args["M"] * args["N"] * args["K"], "name": f"gemm_mish_residual_kernel out={out}"}


@triton.jit(launch_metadata=_flops)
def gemm_mish_residual_kernel(x_ptr, w_ptr, bias_ptr, r_ptr, y_ptr, M, N, K, sxm, sxk, swk, swn, srm, srn, sym, syn,
                              BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
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
    # softplus(z) = max(z, 0) + log(1 + exp(-|z|)), without overflow; tanh(s) = 1 - 2 / (exp(2s) + 1), s >= 0
    softplus = tl.maximum(z, 0.0) + tl.log(1.0 + tl.exp(-tl.abs(z)))
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    residual = tl.load(r_ptr + rm[:, None] * srm + rn[None, :] * srn, mask=mask, other=0.0).to(tl.float32)
    out = residual + z * (1.0 - 2.0 / (tl.exp(2.0 * softplus) + 1.0))
    y = y_ptr + rm[:, None] * sym + rn[None, :] * syn
    if OUT_F32:
        tl.store(y, out, mask=mask)
    else:
        tl.store(y, out.to(tl.bfloat16), mask=mask)


def gemm_mish_residual(x, w, bias, residual, config):
    import torch

    bm, bn, bk, warps, stages = config
    m, k = x.shape
    n = w.shape[1]
    y = torch.empty((m, n), device=x.device, dtype=residual.dtype)
    grid = (triton.cdiv(m, bm), triton.cdiv(n, bn))
    gemm_mish_residual_kernel[grid](x, w, bias, residual, y, m, n, k, x.stride(0), x.stride(1), w.stride(0),
                                    w.stride(1), residual.stride(0), residual.stride(1), y.stride(0), y.stride(1),
                                    BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk, OUT_F32=residual.dtype == torch.float32,
                                    num_warps=warps, num_stages=stages)
    return y


def main(argv=None):
    import torch

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="2 configurations, the first size")
    args = ap.parse_args(argv)
    sizes = [(SIZES[0][0], SIZES[0][1], CONFIGS[:2])] if args.quick else [(s, d, CONFIGS) for s, d in SIZES]
    rng = torch.Generator(device="cuda").manual_seed(167)
    worst, launches = 0.0, 0
    for (m, n, k), dtypes, configs in sizes:
        x = torch.randn(m, k, device="cuda", dtype=torch.float16, generator=rng)
        w = (torch.randn(k, n, device="cuda", generator=rng) / k ** 0.5).to(torch.float16)
        bias = torch.randn(n, device="cuda", generator=rng) * 0.1
        z = x.double() @ w.double() + bias.double()[None, :]
        branch = z * torch.tanh(torch.nn.functional.softplus(z))
        for dtype in dtypes:
            residual = torch.randn(m, n, device="cuda", dtype=getattr(torch, dtype), generator=rng)
            ref = residual.double() + branch
            for config in configs:
                try:
                    y = gemm_mish_residual(x, w, bias, residual, config)
                except triton.runtime.errors.OutOfResources as e:
                    print(f"{m}x{n}x{k} {config}: skipped ({e})")
                    continue
                rel = ((y.double() - ref).norm() / ref.norm()).item()
                worst, launches = max(worst, rel), launches + 1
                if not rel < 1e-2:
                    raise SystemExit(f"{m}x{n}x{k} {config} out={dtype}: relative error {rel:.2e}")
    torch.cuda.synchronize()
    print(f"gemm_mish_residual: {launches} launches, worst relative error vs float64 {worst:.2e}")


if __name__ == "__main__":
    main()
