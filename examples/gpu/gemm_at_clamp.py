"""A GEMM whose A is stored transposed, with a scaled and clamped epilogue: C = clamp(r[:, None] * (A^T @ B) +
b[None, :], -4, 4), bf16 in, C bf16 or fp32, over a sweep of tile configurations.  A plain Triton program: it knows
nothing of irkit.  A is [K, M] row-major, so the kernel reads its tile with unit stride along M.  The epilogue loads
a row scale and a column bias and stores one tile, so propagate-mma may remove three conversions: the two vectors'
and the store's.

This program was written after round 16's run (the SASS cost rule of session 11 unchanged since it was chosen) and
is not used to tune anything: it is round 17's held-out check (docs/propagate-mma-results.md).

    irkit-check -p propagate-mma -- python examples/gpu/gemm_at_clamp.py
    irkit-check -p propagate-mma -- python examples/gpu/gemm_at_clamp.py --quick   # 2 configs, masked size

Every launch is checked against torch in float64, so the program fails loudly by itself if a kernel computes
the wrong thing.  Sizes: 4096 x 2048 x 4096 (bf16 out) and a masked 1900 x 2600 x 1400 (bf16 and fp32 out);
1900 and 2600 are not multiples of 16, so Triton cannot assume aligned rows there.
"""

from __future__ import annotations

import argparse

import triton
import triton.language as tl

# (BLOCK_M, BLOCK_N, BLOCK_K, num_warps, num_stages)
CONFIGS = [
    (128, 128, 64, 4, 3),
    (128, 64, 64, 4, 4),
    (64, 128, 64, 4, 4),
    (64, 64, 64, 4, 4),
    (128, 128, 32, 8, 4),
    (128, 128, 64, 8, 3),
    (256, 128, 64, 8, 3),
    (128, 256, 64, 8, 3),
]
# (M, N, K), output dtypes
SIZES = [
    ((4096, 2048, 4096), ("bfloat16",)),
    ((1900, 2600, 1400), ("bfloat16", "float32")),
]


def _flops(grid, metadata, args):
    out = "fp32" if args["OUT_F32"] else "bf16"
    return {"flops": 2 * args["M"] * args["N"] * args["K"], "name": f"gemm_at_clamp_kernel out={out}"}


@triton.jit(launch_metadata=_flops)
def gemm_at_clamp_kernel(a_ptr, b_ptr, r_ptr, bias_ptr, c_ptr, M, N, K, sak, sam, sbk, sbn, scm, scn,
                         BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, OUT_F32: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    a = a_ptr + rm[:, None] * sam + rk[None, :] * sak  # A^T's tile: A is [K, M]
    b = b_ptr + rk[:, None] * sbk + rn[None, :] * sbn
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(tl.cdiv(K, BLOCK_K)):
        k_left = K - k * BLOCK_K
        x = tl.load(a, mask=(rm[:, None] < M) & (rk[None, :] < k_left), other=0.0)
        w = tl.load(b, mask=(rk[:, None] < k_left) & (rn[None, :] < N), other=0.0)
        acc = tl.dot(x, w, acc)
        a += BLOCK_K * sak
        b += BLOCK_K * sbk
    r = tl.load(r_ptr + rm, mask=rm < M, other=0.0).to(tl.float32)
    bias = tl.load(bias_ptr + rn, mask=rn < N, other=0.0).to(tl.float32)
    out = tl.clamp(acc * r[:, None] + bias[None, :], -4.0, 4.0)
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    c = c_ptr + rm[:, None] * scm + rn[None, :] * scn
    if OUT_F32:
        tl.store(c, out, mask=mask)
    else:
        tl.store(c, out.to(tl.bfloat16), mask=mask)


def gemm_at_clamp(a_t, b, r, bias, out_dtype, config):
    import torch

    bm, bn, bk, warps, stages = config
    k, m = a_t.shape
    n = b.shape[1]
    c = torch.empty((m, n), device=b.device, dtype=out_dtype)
    grid = (triton.cdiv(m, bm), triton.cdiv(n, bn))
    gemm_at_clamp_kernel[grid](a_t, b, r, bias, c, m, n, k, a_t.stride(0), a_t.stride(1), b.stride(0), b.stride(1),
                               c.stride(0), c.stride(1), BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk,
                               OUT_F32=out_dtype == torch.float32, num_warps=warps, num_stages=stages)
    return c


def main(argv=None):
    import torch

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="2 configurations, the masked size, bf16 out")
    args = ap.parse_args(argv)
    sizes = [(SIZES[1][0], ("bfloat16",), CONFIGS[:2])] if args.quick else [(s, d, CONFIGS) for s, d in SIZES]
    rng = torch.Generator(device="cuda").manual_seed(73)
    worst, launches = 0.0, 0
    for (m, n, k), dtypes, configs in sizes:
        a_t = torch.randn(k, m, device="cuda", dtype=torch.bfloat16, generator=rng)
        b = (torch.randn(k, n, device="cuda", dtype=torch.bfloat16, generator=rng) / k ** 0.5).to(torch.bfloat16)
        r = (0.5 + torch.rand(m, device="cuda", generator=rng)).to(torch.bfloat16)
        bias = (torch.randn(n, device="cuda", generator=rng) * 0.1).to(torch.bfloat16)
        ref = (a_t.double().T @ b.double() * r.double()[:, None] + bias.double()[None, :]).clamp(-4.0, 4.0)
        for dtype in dtypes:
            for config in configs:
                try:
                    c = gemm_at_clamp(a_t, b, r, bias, getattr(torch, dtype), config)
                except triton.runtime.errors.OutOfResources as e:
                    print(f"{m}x{n}x{k} {config}: skipped ({e})")
                    continue
                rel = ((c.double() - ref).norm() / ref.norm()).item()
                worst, launches = max(worst, rel), launches + 1
                if not rel < 2e-2:
                    raise SystemExit(f"{m}x{n}x{k} {config} out={dtype}: relative error {rel:.2e}")
    torch.cuda.synchronize()
    print(f"gemm_at_clamp: {launches} launches, worst relative error vs float64 {worst:.2e}")


if __name__ == "__main__":
    main()
