"""A linear layer as PyTorch stores it, with a squared-ReLU epilogue: Y = relu(X @ W^T + b[None, :])^2 (+ R), bf16
in, the output (and the residual R, when there is one) bf16 or fp32, over a sweep of tile configurations.  A plain
Triton program: it knows nothing of irkit.  W is [N, K] row-major, so the kernel reads its tile transposed (unit
stride along K).  The epilogue loads a bias row and, with RES, one residual tile, and stores one tile, so
propagate-mma may remove three conversions: the bias row's, the residual load's and the store's.

This program was written after the SASS cost rule (`occupancy.sass_cost_decides`, session 11) and its first
held-out check (examples/gpu/gemm_silu_scaled.py); it is not used to tune anything: it is round 15's held-out
check (docs/propagate-mma-results.md).

    irkit-check -p propagate-mma -- python examples/gpu/linear_relu2.py
    irkit-check -p propagate-mma -- python examples/gpu/linear_relu2.py --quick   # 2 configs, masked size

Every launch is checked against torch in float64, so the program fails loudly by itself if a kernel computes
the wrong thing.  Sizes: 4096 x 3072 x 2048 (bf16 out, no residual) and a masked 2100 x 2700 x 1700 (bf16 and
fp32 out, with a residual); 2700 and 1700 are not multiples of 16, so Triton cannot assume aligned rows there.
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
    (128, 128, 64, 8, 4),
    (256, 128, 64, 8, 3),
    (128, 256, 64, 8, 3),
]
# (M, N, K), output dtypes, whether a residual is added
SIZES = [
    ((4096, 3072, 2048), ("bfloat16",), False),
    ((2100, 2700, 1700), ("bfloat16", "float32"), True),
]


def _flops(grid, metadata, args):
    out = "fp32" if args["OUT_F32"] else "bf16"
    return {"flops": 2 * args["M"] * args["N"] * args["K"], "name": f"linear_relu2_kernel out={out} RES={args['RES']}"}


@triton.jit(launch_metadata=_flops)
def linear_relu2_kernel(x_ptr, w_ptr, b_ptr, r_ptr, y_ptr, M, N, K, sxm, sxk, swn, swk, srm, srn, sym, syn,
                        BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, OUT_F32: tl.constexpr,
                        RES: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    x = x_ptr + rm[:, None] * sxm + rk[None, :] * sxk
    w = w_ptr + rk[:, None] * swk + rn[None, :] * swn  # W^T's tile: W is [N, K]
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(tl.cdiv(K, BLOCK_K)):
        k_left = K - k * BLOCK_K
        a = tl.load(x, mask=(rm[:, None] < M) & (rk[None, :] < k_left), other=0.0)
        b = tl.load(w, mask=(rk[:, None] < k_left) & (rn[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc)
        x += BLOCK_K * sxk
        w += BLOCK_K * swk
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    bias = tl.load(b_ptr + rn, mask=rn < N, other=0.0).to(tl.float32)
    h = tl.maximum(acc + bias[None, :], 0.0)
    out = h * h
    if RES:
        out += tl.load(r_ptr + rm[:, None] * srm + rn[None, :] * srn, mask=mask, other=0.0).to(tl.float32)
    y = y_ptr + rm[:, None] * sym + rn[None, :] * syn
    if OUT_F32:
        tl.store(y, out, mask=mask)
    else:
        tl.store(y, out.to(tl.bfloat16), mask=mask)


def linear_relu2(x, w, bias, r, out_dtype, config):
    import torch

    bm, bn, bk, warps, stages = config
    m, k = x.shape
    n = w.shape[0]
    y = torch.empty((m, n), device=x.device, dtype=out_dtype)
    res = r if r is not None else y  # not read without RES
    grid = (triton.cdiv(m, bm), triton.cdiv(n, bn))
    linear_relu2_kernel[grid](x, w, bias, res, y, m, n, k, x.stride(0), x.stride(1), w.stride(0), w.stride(1),
                              res.stride(0), res.stride(1), y.stride(0), y.stride(1), BLOCK_M=bm, BLOCK_N=bn,
                              BLOCK_K=bk, OUT_F32=out_dtype == torch.float32, RES=r is not None, num_warps=warps,
                              num_stages=stages)
    return y


def main(argv=None):
    import torch

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="2 configurations, the masked size, bf16 out")
    args = ap.parse_args(argv)
    sizes = [(SIZES[1][0], ("bfloat16",), True, CONFIGS[:2])] if args.quick else [(s, d, r, CONFIGS) for s, d, r in SIZES]
    rng = torch.Generator(device="cuda").manual_seed(67)
    worst, launches = 0.0, 0
    for (m, n, k), dtypes, with_residual, configs in sizes:
        x = torch.randn(m, k, device="cuda", dtype=torch.bfloat16, generator=rng)
        w = (torch.randn(n, k, device="cuda", dtype=torch.bfloat16, generator=rng) / k ** 0.5).to(torch.bfloat16)
        bias = (torch.randn(n, device="cuda", generator=rng) * 0.1).to(torch.bfloat16)
        h = torch.relu(x.double() @ w.double().T + bias.double()[None, :])
        for dtype in dtypes:
            out_dtype = getattr(torch, dtype)
            r = torch.randn(m, n, device="cuda", dtype=out_dtype, generator=rng) if with_residual else None
            ref = h * h + (r.double() if r is not None else 0.0)
            for config in configs:
                try:
                    y = linear_relu2(x, w, bias, r, out_dtype, config)
                except triton.runtime.errors.OutOfResources as e:
                    print(f"{m}x{n}x{k} {config}: skipped ({e})")
                    continue
                rel = ((y.double() - ref).norm() / ref.norm()).item()
                worst, launches = max(worst, rel), launches + 1
                if not rel < 2e-2:
                    raise SystemExit(f"{m}x{n}x{k} {config} out={dtype}: relative error {rel:.2e}")
    torch.cuda.synchronize()
    print(f"linear_relu2: {launches} launches, worst relative error vs float64 {worst:.2e}")


if __name__ == "__main__":
    main()
