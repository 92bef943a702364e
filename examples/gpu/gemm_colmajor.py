"""fp16 GEMM whose epilogue reads and writes column-major matrices: C = A @ B + D + bias[:, None], with D
read and C written in column-major order (fp32), over a sweep of tile configurations.  A plain Triton
program: it knows nothing of irkit.  Coalescing picks an M-fastest layout for D's load and C's store, so
the accumulator's conversions go the other way round from a row-major epilogue; the bias is a 1-D column
broadcast along N.

This program was written after the cost model's round-8 calibration and is not used to tune it: it is the
second held-out check.

    irkit-check -p propagate-mma -- python examples/gpu/gemm_colmajor.py
    irkit-check -p propagate-mma -- python examples/gpu/gemm_colmajor.py --quick      # 2 configs, the masked size

Every launch is checked against torch in float64, so the program fails loudly by itself if a kernel computes
the wrong thing.  Sizes: 4096^3 and a masked 3500 x 2500 x 1500 (the first 4 configurations).
"""

from __future__ import annotations

import argparse

import triton
import triton.language as tl

# (BLOCK_M, BLOCK_N, BLOCK_K, num_warps, num_stages)
CONFIGS = [
    (128, 128, 64, 8, 3),
    (128, 256, 32, 8, 3),
    (256, 128, 64, 8, 3),
    (128, 128, 32, 4, 4),
    (64, 128, 64, 4, 3),
    (128, 64, 64, 4, 3),
    (64, 64, 32, 4, 4),
    (256, 64, 32, 8, 4),
]
SIZE = (4096, 4096, 4096)
MASKED_SIZE = (3500, 2500, 1500)


def _flops(grid, metadata, args):
    return {"flops": 2 * args["M"] * args["N"] * args["K"], "name": f"gemm_colmajor_kernel ADD={args['ADD']}"}


@triton.jit(launch_metadata=_flops)
def gemm_colmajor_kernel(a_ptr, b_ptr, d_ptr, bias_ptr, c_ptr, M, N, K, sam, sak, sbk, sbn, sdm, sdn, scm, scn,
                         BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, ADD: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    a = a_ptr + rm[:, None] * sam + rk[None, :] * sak
    b = b_ptr + rk[:, None] * sbk + rn[None, :] * sbn
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(tl.cdiv(K, BLOCK_K)):
        x = tl.load(a, mask=(rm[:, None] < M) & (rk[None, :] < K - k * BLOCK_K), other=0.0)
        y = tl.load(b, mask=(rk[:, None] < K - k * BLOCK_K) & (rn[None, :] < N), other=0.0)
        acc = tl.dot(x, y, acc)
        a += BLOCK_K * sak
        b += BLOCK_K * sbk
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    acc += tl.load(bias_ptr + rm, mask=rm < M, other=0.0)[:, None]
    if ADD:
        acc += tl.load(d_ptr + rm[:, None] * sdm + rn[None, :] * sdn, mask=mask, other=0.0)
    tl.store(c_ptr + rm[:, None] * scm + rn[None, :] * scn, acc, mask=mask)


def gemm_colmajor(a, b, d, bias, config, add=True):
    import torch

    bm, bn, bk, warps, stages = config
    m, k = a.shape
    n = b.shape[1]
    c = torch.empty((n, m), device=a.device, dtype=torch.float32).t()  # column-major
    grid = (triton.cdiv(m, bm), triton.cdiv(n, bn))
    gemm_colmajor_kernel[grid](a, b, d, bias, c, m, n, k, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                               d.stride(0), d.stride(1), c.stride(0), c.stride(1),
                               BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk, ADD=add, num_warps=warps, num_stages=stages)
    return c


def main(argv=None):
    import torch

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="2 configurations, the masked size only")
    args = ap.parse_args(argv)
    sizes = [(MASKED_SIZE, CONFIGS[:2])] if args.quick else [(SIZE, CONFIGS), (MASKED_SIZE, CONFIGS[:4])]
    g = torch.Generator(device="cuda").manual_seed(37)
    worst, launches = 0.0, 0
    for (m, n, k), configs in sizes:
        a = torch.randn(m, k, device="cuda", dtype=torch.float16, generator=g)
        b = torch.randn(k, n, device="cuda", dtype=torch.float16, generator=g)
        d = torch.randn(n, m, device="cuda", dtype=torch.float32, generator=g).t()  # column-major
        bias = torch.randn(m, device="cuda", dtype=torch.float32, generator=g)
        ref_mm = a.double() @ b.double() + bias.double()[:, None]
        for config in configs:
            for add in (True,) if (m, n, k) == MASKED_SIZE else (True, False):
                try:
                    c = gemm_colmajor(a, b, d, bias, config, add)
                except triton.runtime.errors.OutOfResources as e:
                    print(f"{m}x{n}x{k} {config} ADD={add}: skipped ({e})")
                    continue
                ref = ref_mm + d.double() if add else ref_mm
                rel = ((c.double() - ref).norm() / ref.norm()).item()
                worst, launches = max(worst, rel), launches + 1
                if not rel < 1e-2:
                    raise SystemExit(f"{m}x{n}x{k} {config} ADD={add}: relative error {rel:.2e}")
    torch.cuda.synchronize()
    print(f"gemm_colmajor: {launches} launches, worst relative error vs float64 {worst:.2e}")


if __name__ == "__main__":
    main()
