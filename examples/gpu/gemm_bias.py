"""fp16 GEMM with a fused epilogue: a bias row, a residual matrix and an activation (C = act(A @ B + bias + R)),
over a sweep of tile configurations.  A plain Triton program: it knows nothing of irkit.  The bias is a 1-D
operand broadcast into the accumulator's rows: Triton converts it to a `#slice` of the accumulator layout,
the conversion propagate-mma moves into the bias load.

    irkit-check -p propagate-mma -- python examples/gpu/gemm_bias.py
    irkit-check -p propagate-mma -- python examples/gpu/gemm_bias.py --quick      # 2 configs, the masked size

Every launch is checked against torch in float64, so the program fails loudly by itself if a kernel computes
the wrong thing.  Sizes: 4096^3 (the speed figures) and a masked 3000 x 5000 x 2000 (the first 4 configurations).
"""

from __future__ import annotations

import argparse

import triton
import triton.language as tl

# (BLOCK_M, BLOCK_N, BLOCK_K, num_warps, num_stages)
CONFIGS = [
    (128, 256, 64, 8, 3),
    (256, 128, 64, 8, 3),
    (128, 128, 64, 4, 4),
    (128, 128, 64, 8, 3),
    (128, 128, 32, 4, 3),
    (64, 256, 64, 4, 4),
    (64, 128, 64, 4, 4),
    (128, 64, 64, 4, 4),
]
SIZE = (4096, 4096, 4096)
MASKED_SIZE = (3000, 5000, 2000)


def _flops(grid, metadata, args):
    return {"flops": 2 * args["M"] * args["N"] * args["K"], "name": f"gemm_bias_kernel RES={args['RES']}"}


@triton.jit(launch_metadata=_flops)
def gemm_bias_kernel(a_ptr, b_ptr, bias_ptr, r_ptr, c_ptr, M, N, K, sam, sak, sbk, sbn, srm, srn, scm, scn,
                     BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, RES: tl.constexpr):
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
    bias = tl.load(bias_ptr + rn, mask=rn < N, other=0.0)
    acc += bias[None, :].to(tl.float32)
    if RES:
        acc += tl.load(r_ptr + rm[:, None] * srm + rn[None, :] * srn, mask=mask, other=0.0).to(tl.float32)
    acc = tl.where(acc > 0, acc, 0.01 * acc)  # leaky ReLU
    tl.store(c_ptr + rm[:, None] * scm + rn[None, :] * scn, acc.to(tl.float16), mask=mask)


def gemm_bias(a, b, bias, r, config, res=True):
    import torch

    bm, bn, bk, warps, stages = config
    m, k = a.shape
    n = b.shape[1]
    c = torch.empty((m, n), device=a.device, dtype=torch.float16)
    grid = (triton.cdiv(m, bm), triton.cdiv(n, bn))
    gemm_bias_kernel[grid](a, b, bias, r, c, m, n, k, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                           r.stride(0), r.stride(1), c.stride(0), c.stride(1),
                           BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk, RES=res, num_warps=warps, num_stages=stages)
    return c


def main(argv=None):
    import torch

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="2 configurations, the masked size only")
    args = ap.parse_args(argv)
    sizes = [(MASKED_SIZE, CONFIGS[:2])] if args.quick else [(SIZE, CONFIGS), (MASKED_SIZE, CONFIGS[:4])]
    g = torch.Generator(device="cuda").manual_seed(11)
    worst, launches = 0.0, 0
    for (m, n, k), configs in sizes:
        a = torch.randn(m, k, device="cuda", dtype=torch.float16, generator=g)
        b = torch.randn(k, n, device="cuda", dtype=torch.float16, generator=g)
        bias = torch.randn(n, device="cuda", dtype=torch.float16, generator=g)
        r = torch.randn(m, n, device="cuda", dtype=torch.float16, generator=g)
        ref_mm = a.double() @ b.double() + bias.double()[None, :]
        for config in configs:
            for res in (True,) if (m, n, k) == MASKED_SIZE else (True, False):
                try:
                    c = gemm_bias(a, b, bias, r, config, res)
                except triton.runtime.errors.OutOfResources as e:
                    print(f"{m}x{n}x{k} {config} RES={res}: skipped ({e})")
                    continue
                ref = ref_mm + r.double() if res else ref_mm
                ref = torch.where(ref > 0, ref, 0.01 * ref)
                rel = ((c.double() - ref).norm() / ref.norm()).item()
                worst, launches = max(worst, rel), launches + 1
                if not rel < 1e-2:
                    raise SystemExit(f"{m}x{n}x{k} {config} RES={res}: relative error {rel:.2e}")
    torch.cuda.synchronize()
    print(f"gemm_bias: {launches} launches, worst relative error vs float64 {worst:.2e}")


if __name__ == "__main__":
    main()
