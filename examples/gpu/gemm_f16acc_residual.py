"""A GEMM that accumulates in fp16, with a bias and residual epilogue: C = A @ B + bias[None, :] + R, all fp16, over a
sweep of tile configurations.  A plain Triton program: it knows nothing of irkit.  `tl.dot(..., out_dtype=tl.float16)`
makes a wgmma with an fp16 accumulator (half the accumulator registers of fp32; Triton 3.6 waits for it in every
iteration, where an fp32 accumulator keeps one in flight), as inference kernels use where fp16 range suffices; the
epilogue loads the bias row and the residual tile and stores one tile, so propagate-mma may remove their three
conversions.

This program was written after round 27 (session 15), with nothing in the pass changed since, as round 28's
held-out check of the default on a kind of kernel not timed before (docs/propagate-mma-results/notes.md).

    irkit-check -p propagate-mma -- python examples/gpu/gemm_f16acc_residual.py
    irkit-check -p propagate-mma -- python examples/gpu/gemm_f16acc_residual.py --quick   # 2 configs, masked size

Every launch is checked against torch in float64 (to an fp16 accumulator's precision), so the program fails loudly by
itself if a kernel computes the wrong thing.  Sizes: 4096 x 4096 x 4096, 2048 x 8192 x 1024 (short K) and a masked
3100 x 2700 x 1500; 3100, 2700 and 1500 are not multiples of 16, so Triton cannot assume aligned rows there.
"""

from __future__ import annotations

import argparse

import triton
import triton.language as tl

# (BLOCK_M, BLOCK_N, BLOCK_K, num_warps, num_stages)
CONFIGS = [
    (128, 128, 64, 8, 3),
    (128, 256, 64, 8, 3),
    (256, 128, 64, 8, 3),
    (128, 128, 64, 4, 4),
    (128, 64, 64, 4, 4),
    (64, 128, 64, 4, 4),
    (128, 128, 32, 4, 4),
    (64, 64, 64, 4, 3),
]
# (M, N, K), output dtypes
SIZES = [
    ((4096, 4096, 4096), ("float16",)),
    ((2048, 8192, 1024), ("float16",)),
    ((3100, 2700, 1500), ("float16",)),
]


def _flops(grid, metadata, args):
    return {"flops": 2 * args["M"] * args["N"] * args["K"], "name": "gemm_f16acc_residual_kernel out=fp16"}


@triton.jit(launch_metadata=_flops)
def gemm_f16acc_residual_kernel(a_ptr, b_ptr, bias_ptr, r_ptr, c_ptr, M, N, K, sam, sak, sbk, sbn, srm, srn, scm, scn,
                                BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    a = a_ptr + rm[:, None] * sam + rk[None, :] * sak
    b = b_ptr + rk[:, None] * sbk + rn[None, :] * sbn
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float16)
    for k in range(tl.cdiv(K, BLOCK_K)):
        k_left = K - k * BLOCK_K
        x = tl.load(a, mask=(rm[:, None] < M) & (rk[None, :] < k_left), other=0.0)
        w = tl.load(b, mask=(rk[:, None] < k_left) & (rn[None, :] < N), other=0.0)
        acc = tl.dot(x, w, acc, out_dtype=tl.float16)
        a += BLOCK_K * sak
        b += BLOCK_K * sbk
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    bias = tl.load(bias_ptr + rn, mask=rn < N, other=0.0)
    r = tl.load(r_ptr + rm[:, None] * srm + rn[None, :] * srn, mask=mask, other=0.0)
    tl.store(c_ptr + rm[:, None] * scm + rn[None, :] * scn, acc + bias[None, :] + r, mask=mask)


def gemm_f16acc_residual(a, b, bias, r, config):
    import torch

    bm, bn, bk, warps, stages = config
    m, k = a.shape
    n = b.shape[1]
    c = torch.empty((m, n), device=a.device, dtype=torch.float16)
    grid = (triton.cdiv(m, bm), triton.cdiv(n, bn))
    gemm_f16acc_residual_kernel[grid](a, b, bias, r, c, m, n, k, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                                      r.stride(0), r.stride(1), c.stride(0), c.stride(1), BLOCK_M=bm, BLOCK_N=bn,
                                      BLOCK_K=bk, num_warps=warps, num_stages=stages)
    return c


def main(argv=None):
    import torch

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="2 configurations, the masked size")
    args = ap.parse_args(argv)
    sizes = [(SIZES[2][0], CONFIGS[:2])] if args.quick else [(s, CONFIGS) for s, _ in SIZES]
    rng = torch.Generator(device="cuda").manual_seed(101)
    worst, launches = 0.0, 0
    for (m, n, k), configs in sizes:
        a = torch.randn(m, k, device="cuda", dtype=torch.float16, generator=rng)
        b = (torch.randn(k, n, device="cuda", dtype=torch.float16, generator=rng) / k ** 0.5).to(torch.float16)
        bias = (torch.randn(n, device="cuda", generator=rng) * 0.5).to(torch.float16)
        r = torch.randn(m, n, device="cuda", dtype=torch.float16, generator=rng)
        ref = (a.double() @ b.double()) + bias.double()[None, :] + r.double()
        for config in configs:
            try:
                c = gemm_f16acc_residual(a, b, bias, r, config)
            except triton.runtime.errors.OutOfResources as e:
                print(f"{m}x{n}x{k} {config}: skipped ({e})")
                continue
            rel = ((c.double() - ref).norm() / ref.norm()).item()
            worst, launches = max(worst, rel), launches + 1
            if not rel < 2e-2:
                raise SystemExit(f"{m}x{n}x{k} {config}: relative error {rel:.2e}")
    torch.cuda.synchronize()
    print(f"gemm_f16acc_residual: {launches} launches, worst relative error vs float64 {worst:.2e}")


if __name__ == "__main__":
    main()
