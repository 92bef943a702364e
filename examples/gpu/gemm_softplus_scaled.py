"""A GEMM with a softplus epilogue between a row bias and a column scale: C = softplus(A @ B + rb[:, None]) *
cs[None, :] + R, bf16 in, the row bias and column scale fp32, R and C either bf16 or fp32, over a sweep of tile
configurations.  A plain Triton program: it knows nothing of irkit.  The epilogue loads a vector indexed by row and
one indexed by column, and the residual tile, and stores one tile, so propagate-mma may remove four conversions.
Softplus is log(1 + exp(x)), computed as max(x, 0) + log(1 + exp(-|x|)) so that it cannot overflow.

This program was written after round 26 (session 15), as round 27's held-out check of the rule that a rewrite the
model gains little on needs the compiler's confirmation (`mma_profit.marginal`), registered before its run
(docs/propagate-mma-results/notes.md).

    irkit-check -p propagate-mma -- python examples/gpu/gemm_softplus_scaled.py
    irkit-check -p propagate-mma -- python examples/gpu/gemm_softplus_scaled.py --quick   # 2 configs, masked size

Every launch is checked against torch in float64, so the program fails loudly by itself if a kernel computes
the wrong thing.  Sizes: 4096 x 4096 x 2048 (bf16 out) and a masked 2700 x 3100 x 1400 (bf16 and fp32 out); 2700,
3100 and 1400 are not multiples of 16, so Triton cannot assume aligned rows there.
"""

from __future__ import annotations

import argparse

import triton
import triton.language as tl

# (BLOCK_M, BLOCK_N, BLOCK_K, num_warps, num_stages)
CONFIGS = [
    (128, 128, 64, 8, 3),
    (128, 128, 32, 8, 4),
    (128, 128, 64, 8, 4),
    (128, 256, 64, 8, 3),
    (256, 128, 64, 8, 3),
    (128, 64, 64, 4, 4),
    (64, 128, 64, 4, 3),
    (64, 64, 64, 4, 4),
]
# (M, N, K), output dtypes
SIZES = [
    ((4096, 4096, 2048), ("bfloat16",)),
    ((2700, 3100, 1400), ("bfloat16", "float32")),
]


def _flops(grid, metadata, args):
    out = "fp32" if args["OUT_F32"] else "bf16"
    return {"flops": 2 * args["M"] * args["N"] * args["K"], "name": f"gemm_softplus_scaled_kernel out={out}"}


@triton.jit(launch_metadata=_flops)
def gemm_softplus_scaled_kernel(a_ptr, b_ptr, rb_ptr, cs_ptr, r_ptr, c_ptr, M, N, K, sam, sak, sbk, sbn, srm, srn,
                                scm, scn, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                                OUT_F32: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    a = a_ptr + rm[:, None] * sam + rk[None, :] * sak
    b = b_ptr + rk[:, None] * sbk + rn[None, :] * sbn
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(tl.cdiv(K, BLOCK_K)):
        k_left = K - k * BLOCK_K
        x = tl.load(a, mask=(rm[:, None] < M) & (rk[None, :] < k_left), other=0.0)
        w = tl.load(b, mask=(rk[:, None] < k_left) & (rn[None, :] < N), other=0.0)
        acc = tl.dot(x, w, acc)
        a += BLOCK_K * sak
        b += BLOCK_K * sbk
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    row_bias = tl.load(rb_ptr + rm, mask=rm < M, other=0.0)
    col_scale = tl.load(cs_ptr + rn, mask=rn < N, other=0.0)
    h = acc + row_bias[:, None]
    softplus = tl.maximum(h, 0.0) + tl.log(1.0 + tl.exp(-tl.abs(h)))
    r = tl.load(r_ptr + rm[:, None] * srm + rn[None, :] * srn, mask=mask, other=0.0).to(tl.float32)
    out = softplus * col_scale[None, :] + r
    c = c_ptr + rm[:, None] * scm + rn[None, :] * scn
    if OUT_F32:
        tl.store(c, out, mask=mask)
    else:
        tl.store(c, out.to(tl.bfloat16), mask=mask)


def gemm_softplus_scaled(a, b, row_bias, col_scale, r, config):
    import torch

    bm, bn, bk, warps, stages = config
    m, k = a.shape
    n = b.shape[1]
    c = torch.empty((m, n), device=a.device, dtype=r.dtype)
    grid = (triton.cdiv(m, bm), triton.cdiv(n, bn))
    gemm_softplus_scaled_kernel[grid](a, b, row_bias, col_scale, r, c, m, n, k, a.stride(0), a.stride(1), b.stride(0),
                                      b.stride(1), r.stride(0), r.stride(1), c.stride(0), c.stride(1), BLOCK_M=bm,
                                      BLOCK_N=bn, BLOCK_K=bk, OUT_F32=r.dtype == torch.float32, num_warps=warps,
                                      num_stages=stages)
    return c


def main(argv=None):
    import torch

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="2 configurations, the masked size, fp32 out")
    args = ap.parse_args(argv)
    sizes = [(SIZES[1][0], ("float32",), CONFIGS[:2])] if args.quick else [(s, d, CONFIGS) for s, d in SIZES]
    rng = torch.Generator(device="cuda").manual_seed(97)
    worst, launches = 0.0, 0
    for (m, n, k), dtypes, configs in sizes:
        a = torch.randn(m, k, device="cuda", dtype=torch.bfloat16, generator=rng)
        b = (torch.randn(k, n, device="cuda", dtype=torch.bfloat16, generator=rng) / k ** 0.5).to(torch.bfloat16)
        row_bias = torch.randn(m, device="cuda", generator=rng) * 0.5
        col_scale = torch.rand(n, device="cuda", generator=rng) + 0.5
        product = torch.nn.functional.softplus((a.double() @ b.double()) + row_bias.double()[:, None])
        product = product * col_scale.double()[None, :]
        for dtype in dtypes:
            r = torch.randn(m, n, device="cuda", dtype=getattr(torch, dtype), generator=rng)
            ref = product + r.double()
            for config in configs:
                try:
                    c = gemm_softplus_scaled(a, b, row_bias, col_scale, r, config)
                except triton.runtime.errors.OutOfResources as e:
                    print(f"{m}x{n}x{k} {config}: skipped ({e})")
                    continue
                rel = ((c.double() - ref).norm() / ref.norm()).item()
                worst, launches = max(worst, rel), launches + 1
                if not rel < 2e-2:
                    raise SystemExit(f"{m}x{n}x{k} {config} out={dtype}: relative error {rel:.2e}")
    torch.cuda.synchronize()
    print(f"gemm_softplus_scaled: {launches} launches, worst relative error vs float64 {worst:.2e}")


if __name__ == "__main__":
    main()
