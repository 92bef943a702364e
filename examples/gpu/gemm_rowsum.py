"""A GEMM whose epilogue also reduces: C = alpha * (A @ B) + D, and each tile's row sums of C stored apart
(S[m, j] = sum of C[m, n] over the j-th column tile, added up on the host), fp16 in, C and D either fp16 or fp32,
over a sweep of tile configurations.  A plain Triton program: it knows nothing of irkit.  The epilogue loads one
tile, stores it, and stores a row vector reduced from it, so propagate-mma meets a reduction of the accumulator's
layout besides the load's and the store's conversions.

This program was written after round 15's run (the SASS cost rule of session 11 unchanged since it was chosen) and
is not used to tune anything: it is round 16's held-out check (docs/propagate-mma-results.md).

    irkit-check -p propagate-mma -- python examples/gpu/gemm_rowsum.py
    irkit-check -p propagate-mma -- python examples/gpu/gemm_rowsum.py --quick   # 2 configs, masked size

Every launch is checked against torch in float64, so the program fails loudly by itself if a kernel computes
the wrong thing.  Sizes: 4096 x 4096 x 2048 (fp16) and a masked 2300 x 2900 x 1500 (fp16 and fp32); 2900 and
1500 are not multiples of 16, so Triton cannot assume aligned rows there.
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
    (64, 64, 32, 4, 4),
    (128, 128, 32, 8, 3),
    (128, 128, 64, 8, 4),
    (256, 128, 64, 8, 3),
    (128, 256, 32, 8, 3),
]
# (M, N, K), output dtypes
SIZES = [
    ((4096, 4096, 2048), ("float16",)),
    ((2300, 2900, 1500), ("float16", "float32")),
]
ALPHA = 0.5


def _flops(grid, metadata, args):
    out = "fp32" if args["OUT_F32"] else "fp16"
    return {"flops": 2 * args["M"] * args["N"] * args["K"], "name": f"gemm_rowsum_kernel out={out}"}


@triton.jit(launch_metadata=_flops)
def gemm_rowsum_kernel(a_ptr, b_ptr, d_ptr, c_ptr, s_ptr, M, N, K, sam, sak, sbk, sbn, sdm, sdn, scm, scn, ssm,
                       BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, OUT_F32: tl.constexpr):
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
    d = tl.load(d_ptr + rm[:, None] * sdm + rn[None, :] * sdn, mask=mask, other=0.0).to(tl.float32)
    out = 0.5 * acc + d
    c = c_ptr + rm[:, None] * scm + rn[None, :] * scn
    if OUT_F32:
        tl.store(c, out, mask=mask)
    else:
        out = out.to(tl.float16).to(tl.float32)  # the row sums of what is stored
        tl.store(c, out.to(tl.float16), mask=mask)
    tl.store(s_ptr + rm * ssm + pid_n, tl.sum(tl.where(mask, out, 0.0), axis=1), mask=rm < M)


def gemm_rowsum(a, b, d, config):
    import torch

    bm, bn, bk, warps, stages = config
    m, k = a.shape
    n = b.shape[1]
    c = torch.empty((m, n), device=a.device, dtype=d.dtype)
    tiles_n = triton.cdiv(n, bn)
    s = torch.empty((m, tiles_n), device=a.device, dtype=torch.float32)
    grid = (triton.cdiv(m, bm), tiles_n)
    gemm_rowsum_kernel[grid](a, b, d, c, s, m, n, k, a.stride(0), a.stride(1), b.stride(0), b.stride(1), d.stride(0),
                             d.stride(1), c.stride(0), c.stride(1), s.stride(0), BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk,
                             OUT_F32=d.dtype == torch.float32, num_warps=warps, num_stages=stages)
    return c, s.sum(dim=1)


def main(argv=None):
    import torch

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="2 configurations, the masked size, fp16 out")
    args = ap.parse_args(argv)
    sizes = [(SIZES[1][0], ("float16",), CONFIGS[:2])] if args.quick else [(s, d, CONFIGS) for s, d in SIZES]
    rng = torch.Generator(device="cuda").manual_seed(71)
    worst, launches = 0.0, 0
    for (m, n, k), dtypes, configs in sizes:
        a = torch.randn(m, k, device="cuda", dtype=torch.float16, generator=rng)
        b = (torch.randn(k, n, device="cuda", dtype=torch.float16, generator=rng) / k ** 0.5).to(torch.float16)
        prod = a.double() @ b.double()
        for dtype in dtypes:
            d = torch.randn(m, n, device="cuda", dtype=getattr(torch, dtype), generator=rng)
            ref = ALPHA * prod + d.double()
            for config in configs:
                try:
                    c, rows = gemm_rowsum(a, b, d, config)
                except triton.runtime.errors.OutOfResources as e:
                    print(f"{m}x{n}x{k} {config}: skipped ({e})")
                    continue
                rel = ((c.double() - ref).norm() / ref.norm()).item()
                rel_rows = ((rows.double() - ref.sum(dim=1)).norm() / ref.sum(dim=1).norm()).item()
                worst, launches = max(worst, rel, rel_rows), launches + 1
                if not (rel < 2e-2 and rel_rows < 2e-2):
                    raise SystemExit(f"{m}x{n}x{k} {config} out={dtype}: relative error {rel:.2e}, rows {rel_rows:.2e}")
    torch.cuda.synchronize()
    print(f"gemm_rowsum: {launches} launches, worst relative error vs float64 {worst:.2e}")


if __name__ == "__main__":
    main()
