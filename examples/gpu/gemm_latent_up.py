"""A latent up-projection added to a residual, as in multi-head latent attention's key/value decompression:
Y = R + C @ W, with C the M x r compressed latent (r = 128 or 512) and W its r x N up-projection, fp16 in, R and Y
fp16 or fp32, over a sweep of tile configurations.  A plain Triton program: it knows nothing of irkit.  With r = 128
the main loop runs 2 to 4 times, with r = 512 8 to 16 times: the epilogue (the load of R, the store of Y) is a
large share of the kernel, and larger the shorter the loop.

This program was written after round 34 (session 17), with nothing in the pass changed since but the rule it was
written to check: a launch that runs the main loop fewer than 10 times leaves propagate-mma's decision to the IR
model (round 35, docs/propagate-mma-results/notes.md).

    irkit-check -p propagate-mma -- python examples/gpu/gemm_latent_up.py
    irkit-check -p propagate-mma -- python examples/gpu/gemm_latent_up.py --quick   # 2 configs, r = 128, fp32

Every launch is checked against torch in float64, so the program fails loudly by itself if a kernel computes the
wrong thing.  Sizes: a masked 3000 x 5000 x 128 and a masked 2900 x 4100 x 512, each with fp16 and fp32 R and Y;
3000, 5000, 2900 and 4100 are not all multiples of 16, so Triton cannot assume aligned rows.
"""

from __future__ import annotations

import argparse

import triton
import triton.language as tl

# (BLOCK_M, BLOCK_N, BLOCK_K, num_warps, num_stages)
CONFIGS = [
    (64, 64, 32, 4, 3),
    (64, 256, 32, 4, 3),
    (128, 64, 64, 4, 3),
    (128, 128, 32, 4, 3),
    (128, 128, 64, 4, 3),
    (128, 128, 64, 8, 3),
    (128, 256, 32, 8, 3),
    (256, 128, 64, 8, 3),
]
# (M, N, K), output dtypes
SIZES = [
    ((3000, 5000, 128), ("float16", "float32")),
    ((2900, 4100, 512), ("float16", "float32")),
]
# --longer-k: the second size's M and N (2900 x 4100) at these K instead, fp16 and fp32 out (round 36's probe: the
# same compiled kernels as at K = 512, their main loops run 2 and 4 times as often)
LONGER_K = (1024, 2048)


def _flops(grid, metadata, args):
    out = "fp32" if args["OUT_F32"] else "fp16"
    return {"flops": 2 * args["M"] * args["N"] * args["K"], "name": f"gemm_latent_up_kernel out={out}"}


@triton.jit(launch_metadata=_flops)
def gemm_latent_up_kernel(c_ptr, w_ptr, r_ptr, y_ptr, M, N, K, scm, sck, swk, swn, srm, srn, sym, syn,
                          BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                          OUT_F32: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    c = c_ptr + rm[:, None] * scm + rk[None, :] * sck
    w = w_ptr + rk[:, None] * swk + rn[None, :] * swn
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(tl.cdiv(K, BLOCK_K)):
        k_left = K - k * BLOCK_K
        latent = tl.load(c, mask=(rm[:, None] < M) & (rk[None, :] < k_left), other=0.0)
        up = tl.load(w, mask=(rk[:, None] < k_left) & (rn[None, :] < N), other=0.0)
        acc = tl.dot(latent, up, acc)
        c += BLOCK_K * sck
        w += BLOCK_K * swk
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    residual = tl.load(r_ptr + rm[:, None] * srm + rn[None, :] * srn, mask=mask, other=0.0).to(tl.float32)
    out = residual + acc
    y = y_ptr + rm[:, None] * sym + rn[None, :] * syn
    if OUT_F32:
        tl.store(y, out, mask=mask)
    else:
        tl.store(y, out.to(tl.float16), mask=mask)


def gemm_latent_up(latent, up, residual, config):
    import torch

    bm, bn, bk, warps, stages = config
    m, k = latent.shape
    n = up.shape[1]
    y = torch.empty((m, n), device=latent.device, dtype=residual.dtype)
    grid = (triton.cdiv(m, bm), triton.cdiv(n, bn))
    gemm_latent_up_kernel[grid](latent, up, residual, y, m, n, k, latent.stride(0), latent.stride(1), up.stride(0),
                                up.stride(1), residual.stride(0), residual.stride(1), y.stride(0), y.stride(1),
                                BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk, OUT_F32=residual.dtype == torch.float32,
                                num_warps=warps, num_stages=stages)
    return y


def main(argv=None):
    import torch

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="2 configurations, r = 128, fp32")
    ap.add_argument("--longer-k", action="store_true", help=f"2900 x 4100 at K = {LONGER_K} instead of SIZES")
    args = ap.parse_args(argv)
    sizes = [(SIZES[0][0], ("float32",), CONFIGS[:2])] if args.quick else [(s, d, CONFIGS) for s, d in SIZES]
    if args.longer_k:
        m, n, _ = SIZES[1][0]
        sizes = [((m, n, k), ("float16", "float32"), CONFIGS) for k in LONGER_K]
    rng = torch.Generator(device="cuda").manual_seed(137)
    worst, launches = 0.0, 0
    for (m, n, k), dtypes, configs in sizes:
        latent = torch.randn(m, k, device="cuda", dtype=torch.float16, generator=rng)
        up = torch.randn(k, n, device="cuda", dtype=torch.float16, generator=rng) / k ** 0.5
        for dtype in dtypes:
            residual = torch.randn(m, n, device="cuda", dtype=getattr(torch, dtype), generator=rng)
            ref = residual.double() + latent.double() @ up.double()
            for config in configs:
                try:
                    y = gemm_latent_up(latent, up, residual, config)
                except triton.runtime.errors.OutOfResources as e:
                    print(f"{m}x{n}x{k} {config}: skipped ({e})")
                    continue
                rel = ((y.double() - ref).norm() / ref.norm()).item()
                worst, launches = max(worst, rel), launches + 1
                if not rel < 1e-2:
                    raise SystemExit(f"{m}x{n}x{k} {config} out={dtype}: relative error {rel:.2e}")
    torch.cuda.synchronize()
    print(f"gemm_latent_up: {launches} launches, worst relative error vs float64 {worst:.2e}")


if __name__ == "__main__":
    main()
