"""bf16 GEMM with a dequantisation-style epilogue: a per-row scale, a per-column scale and a bias
(C = (A @ B) * row_scale[:, None] * col_scale[None, :] + bias[None, :], stored as bf16), over a sweep of
tile configurations.  A plain Triton program: it knows nothing of irkit.  Its three epilogue operands are
1-D tensors broadcast into the accumulator, one along each dimension: Triton converts each to a `#slice`
of the accumulator's layout (dim 1 for the row scale, dim 0 for the others), the conversions propagate-mma
may move into their loads.

This program was written after the cost model's last calibration (issue 22, round 8) and is not used to
tune it: it is the held-out check.

    irkit-check -p propagate-mma -- python examples/gpu/gemm_scale.py
    irkit-check -p propagate-mma -- python examples/gpu/gemm_scale.py --quick      # 2 configs, the masked size

Every launch is checked against torch in float64, so the program fails loudly by itself if a kernel computes
the wrong thing.  Sizes: 4096^3 and a masked 2000 x 3000 x 4000 (the first 4 configurations).
"""

from __future__ import annotations

import argparse

import triton
import triton.language as tl

# (BLOCK_M, BLOCK_N, BLOCK_K, num_warps, num_stages)
CONFIGS = [
    (128, 256, 64, 8, 4),
    (256, 128, 32, 8, 4),
    (128, 128, 64, 8, 4),
    (128, 128, 64, 4, 3),
    (64, 256, 32, 4, 4),
    (128, 64, 32, 4, 4),
    (64, 64, 64, 4, 3),
    (256, 64, 64, 8, 3),
]
SIZE = (4096, 4096, 4096)
MASKED_SIZE = (2000, 3000, 4000)


def _flops(grid, metadata, args):
    return {"flops": 2 * args["M"] * args["N"] * args["K"], "name": f"gemm_scale_kernel BIAS={args['BIAS']}"}


@triton.jit(launch_metadata=_flops)
def gemm_scale_kernel(a_ptr, b_ptr, rs_ptr, cs_ptr, bias_ptr, c_ptr, M, N, K, sam, sak, sbk, sbn, scm, scn,
                      BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, BIAS: tl.constexpr):
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
    row_scale = tl.load(rs_ptr + rm, mask=rm < M, other=0.0)
    col_scale = tl.load(cs_ptr + rn, mask=rn < N, other=0.0)
    acc = acc * row_scale[:, None] * col_scale[None, :]
    if BIAS:
        acc += tl.load(bias_ptr + rn, mask=rn < N, other=0.0)[None, :].to(tl.float32)
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    tl.store(c_ptr + rm[:, None] * scm + rn[None, :] * scn, acc.to(tl.bfloat16), mask=mask)


def gemm_scale(a, b, row_scale, col_scale, bias, config, with_bias=True):
    import torch

    bm, bn, bk, warps, stages = config
    m, k = a.shape
    n = b.shape[1]
    c = torch.empty((m, n), device=a.device, dtype=torch.bfloat16)
    grid = (triton.cdiv(m, bm), triton.cdiv(n, bn))
    gemm_scale_kernel[grid](a, b, row_scale, col_scale, bias, c, m, n, k, a.stride(0), a.stride(1), b.stride(0),
                            b.stride(1), c.stride(0), c.stride(1),
                            BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk, BIAS=with_bias, num_warps=warps, num_stages=stages)
    return c


def main(argv=None):
    import torch

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="2 configurations, the masked size only")
    args = ap.parse_args(argv)
    sizes = [(MASKED_SIZE, CONFIGS[:2])] if args.quick else [(SIZE, CONFIGS), (MASKED_SIZE, CONFIGS[:4])]
    g = torch.Generator(device="cuda").manual_seed(23)
    worst, launches = 0.0, 0
    for (m, n, k), configs in sizes:
        a = torch.randn(m, k, device="cuda", dtype=torch.bfloat16, generator=g)
        b = torch.randn(k, n, device="cuda", dtype=torch.bfloat16, generator=g)
        row_scale = torch.rand(m, device="cuda", dtype=torch.float32, generator=g) + 0.5
        col_scale = torch.rand(n, device="cuda", dtype=torch.float32, generator=g) + 0.5
        bias = torch.randn(n, device="cuda", dtype=torch.bfloat16, generator=g)
        ref_mm = (a.double() @ b.double()) * row_scale.double()[:, None] * col_scale.double()[None, :]
        for config in configs:
            for with_bias in (True,) if (m, n, k) == MASKED_SIZE else (True, False):
                try:
                    c = gemm_scale(a, b, row_scale, col_scale, bias, config, with_bias)
                except triton.runtime.errors.OutOfResources as e:
                    print(f"{m}x{n}x{k} {config} BIAS={with_bias}: skipped ({e})")
                    continue
                ref = ref_mm + bias.double()[None, :] if with_bias else ref_mm
                rel = ((c.double() - ref).norm() / ref.norm()).item()
                worst, launches = max(worst, rel), launches + 1
                if not rel < 1e-2:
                    raise SystemExit(f"{m}x{n}x{k} {config} BIAS={with_bias}: relative error {rel:.2e}")
    torch.cuda.synchronize()
    print(f"gemm_scale: {launches} launches, worst relative error vs float64 {worst:.2e}")


if __name__ == "__main__":
    main()
