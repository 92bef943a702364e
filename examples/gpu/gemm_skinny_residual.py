"""A skinny GEMM as an LLM's decode step makes it, a few rows of activations against a wide weight: C = A @ B +
bias[None, :] + R, fp16, with M of 64 to 200 rows, over a sweep of tile configurations.  A plain Triton program: it
knows nothing of irkit.  With so few rows the grid is one or two rows of CTAs, fewer than an H100's or H200's 132
SMs hold, so the kernel is bound by the weight's loads and the latency of each CTA, not by occupancy; the epilogue
loads the bias row and the residual and stores one tile, so propagate-mma may remove their three conversions.

This program was written after round 30 (session 16), after the change of the CTA criterion it checks
(docs/propagate-mma-results/notes.md, round 31), as a held-out program of a kind not timed before: a decode-shaped GEMM.

    irkit-check -p propagate-mma -- python examples/gpu/gemm_skinny_residual.py
    irkit-check -p propagate-mma -- python examples/gpu/gemm_skinny_residual.py --quick   # 2 configs, masked size

Every launch is checked against torch in float64, so the program fails loudly by itself if a kernel computes the
wrong thing.  Sizes: 64 x 8192 x 4096, and two masked ones: 100 x 5000 x 3000, no dimension a multiple of 16, so
Triton cannot assume aligned rows there, and 200 x 7000 x 2048, where it can for A's rows (K = 2048) but not for B's,
R's or C's.
"""

from __future__ import annotations

import argparse

import triton
import triton.language as tl

# (BLOCK_M, BLOCK_N, BLOCK_K, num_warps, num_stages)
CONFIGS = [
    (64, 64, 64, 4, 4),
    (64, 128, 64, 4, 3),
    (64, 128, 128, 4, 3),
    (64, 256, 64, 8, 3),
    (64, 64, 128, 4, 4),
    (64, 32, 128, 4, 4),
    (128, 64, 64, 4, 4),
    (128, 128, 64, 8, 3),
]
# (M, N, K), output dtypes
SIZES = [
    ((64, 8192, 4096), ("float16",)),
    ((100, 5000, 3000), ("float16",)),
    ((200, 7000, 2048), ("float16",)),
]


def _flops(grid, metadata, args):
    return {"flops": 2 * args["M"] * args["N"] * args["K"], "name": "gemm_skinny_residual_kernel out=fp16"}


@triton.jit(launch_metadata=_flops)
def gemm_skinny_residual_kernel(a_ptr, b_ptr, bias_ptr, r_ptr, c_ptr, M, N, K, sam, sak, sbk, sbn, srm, srn, scm, scn,
                                BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
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
    bias = tl.load(bias_ptr + rn, mask=rn < N, other=0.0).to(tl.float32)
    r = tl.load(r_ptr + rm[:, None] * srm + rn[None, :] * srn, mask=mask, other=0.0).to(tl.float32)
    out = acc + bias[None, :] + r
    tl.store(c_ptr + rm[:, None] * scm + rn[None, :] * scn, out.to(tl.float16), mask=mask)


def gemm_skinny_residual(a, b, bias, r, config):
    import torch

    bm, bn, bk, warps, stages = config
    m, k = a.shape
    n = b.shape[1]
    c = torch.empty((m, n), device=a.device, dtype=torch.float16)
    grid = (triton.cdiv(m, bm), triton.cdiv(n, bn))
    gemm_skinny_residual_kernel[grid](a, b, bias, r, c, m, n, k, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                                      r.stride(0), r.stride(1), c.stride(0), c.stride(1), BLOCK_M=bm, BLOCK_N=bn,
                                      BLOCK_K=bk, num_warps=warps, num_stages=stages)
    return c


def main(argv=None):
    import torch

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="2 configurations, the first masked size")
    args = ap.parse_args(argv)
    sizes = [(SIZES[1][0], CONFIGS[:2])] if args.quick else [(s, CONFIGS) for s, _ in SIZES]
    rng = torch.Generator(device="cuda").manual_seed(109)
    worst, launches = 0.0, 0
    for (m, n, k), configs in sizes:
        a = torch.randn(m, k, device="cuda", dtype=torch.float16, generator=rng)
        b = (torch.randn(k, n, device="cuda", dtype=torch.float16, generator=rng) / k ** 0.5).to(torch.float16)
        bias = (torch.randn(n, device="cuda", generator=rng) * 0.5).to(torch.float16)
        r = torch.randn(m, n, device="cuda", dtype=torch.float16, generator=rng)
        ref = (a.double() @ b.double()) + bias.double()[None, :] + r.double()
        for config in configs:
            try:
                c = gemm_skinny_residual(a, b, bias, r, config)
            except triton.runtime.errors.OutOfResources as e:
                print(f"{m}x{n}x{k} {config}: skipped ({e})")
                continue
            rel = ((c.double() - ref).norm() / ref.norm()).item()
            worst, launches = max(worst, rel), launches + 1
            if not rel < 1e-2:
                raise SystemExit(f"{m}x{n}x{k} {config}: relative error {rel:.2e}")
    torch.cuda.synchronize()
    print(f"gemm_skinny_residual: {launches} launches, worst relative error vs float64 {worst:.2e}")


if __name__ == "__main__":
    main()
