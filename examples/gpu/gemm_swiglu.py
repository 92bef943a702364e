"""The up-projection of a SwiGLU feed-forward block: Y = silu(X @ Wg) * (X @ Wu), bf16 in and out, two fp32
accumulators per tile, over a sweep of tile configurations.  A plain Triton program: it knows nothing of
irkit.  The epilogue combines the two accumulators and stores one bf16 tile, so the store's conversion is
the one propagate-mma may remove; with two accumulators live, registers are tight at the larger tiles.  Y is
written either row-major or into a column-major buffer (a transposed view, as when the next GEMM wants it
K-major); coalescing then picks an M-fastest layout for the store.

This program was written after the cost model's session-8 change (the latency of near-empty shared-memory
rounds, refuted by this program on the H100 and reverted) and is not used to tune it: it is the third
held-out check.

    irkit-check -p propagate-mma -- python examples/gpu/gemm_swiglu.py
    irkit-check -p propagate-mma -- python examples/gpu/gemm_swiglu.py --quick      # 2 configs, the masked size

Every launch is checked against torch in float64, so the program fails loudly by itself if a kernel computes
the wrong thing.  Sizes: 4096 x 4096 x 4096 and a masked 3000 x 2730 x 1000 (the first 5 configurations),
each with Y row-major and column-major; 2730 and 1000 are not multiples of 16, so Triton cannot assume
aligned rows there.
"""

from __future__ import annotations

import argparse

import triton
import triton.language as tl

# (BLOCK_M, BLOCK_N, BLOCK_K, num_warps, num_stages)
CONFIGS = [
    (128, 128, 32, 8, 3),
    (128, 64, 64, 4, 3),
    (64, 128, 64, 4, 3),
    (128, 128, 64, 8, 3),
    (64, 64, 64, 4, 4),
    (256, 64, 32, 8, 3),
    (64, 256, 32, 8, 3),
    (128, 64, 32, 4, 4),
    (64, 128, 32, 4, 4),
    (128, 256, 32, 8, 3),
]
SIZE = (4096, 4096, 4096)
MASKED_SIZE = (3000, 2730, 1000)


def _flops(grid, metadata, args):
    y_order = "col" if args["sym"] == 1 else "row"
    return {"flops": 4 * args["M"] * args["N"] * args["K"], "name": f"gemm_swiglu_kernel Y={y_order}"}


@triton.jit(launch_metadata=_flops)
def gemm_swiglu_kernel(x_ptr, wg_ptr, wu_ptr, y_ptr, M, N, K, sxm, sxk, swk, swn, sym, syn,
                       BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    x = x_ptr + rm[:, None] * sxm + rk[None, :] * sxk
    wg = wg_ptr + rk[:, None] * swk + rn[None, :] * swn
    wu = wu_ptr + rk[:, None] * swk + rn[None, :] * swn
    gate = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    up = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(tl.cdiv(K, BLOCK_K)):
        k_left = K - k * BLOCK_K
        a = tl.load(x, mask=(rm[:, None] < M) & (rk[None, :] < k_left), other=0.0)
        b_mask = (rk[:, None] < k_left) & (rn[None, :] < N)
        gate = tl.dot(a, tl.load(wg, mask=b_mask, other=0.0), gate)
        up = tl.dot(a, tl.load(wu, mask=b_mask, other=0.0), up)
        x += BLOCK_K * sxk
        wg += BLOCK_K * swk
        wu += BLOCK_K * swk
    y = gate * tl.sigmoid(gate) * up
    tl.store(y_ptr + rm[:, None] * sym + rn[None, :] * syn, y.to(tl.bfloat16),
             mask=(rm[:, None] < M) & (rn[None, :] < N))


def gemm_swiglu(x, wg, wu, config, column_major=False):
    import torch

    bm, bn, bk, warps, stages = config
    m, k = x.shape
    n = wg.shape[1]
    if column_major:
        y = torch.empty((n, m), device=x.device, dtype=torch.bfloat16).t()
    else:
        y = torch.empty((m, n), device=x.device, dtype=torch.bfloat16)
    grid = (triton.cdiv(m, bm), triton.cdiv(n, bn))
    gemm_swiglu_kernel[grid](x, wg, wu, y, m, n, k, x.stride(0), x.stride(1), wg.stride(0), wg.stride(1),
                             y.stride(0), y.stride(1), BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk, num_warps=warps,
                             num_stages=stages)
    return y


def main(argv=None):
    import torch

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="2 configurations, the masked size only")
    args = ap.parse_args(argv)
    sizes = [(MASKED_SIZE, CONFIGS[:2])] if args.quick else [(SIZE, CONFIGS), (MASKED_SIZE, CONFIGS[:5])]
    g = torch.Generator(device="cuda").manual_seed(41)
    worst, launches = 0.0, 0
    for (m, n, k), configs in sizes:
        x = torch.randn(m, k, device="cuda", dtype=torch.bfloat16, generator=g)
        wg = (torch.randn(k, n, device="cuda", dtype=torch.bfloat16, generator=g) / k ** 0.5).to(torch.bfloat16)
        wu = (torch.randn(k, n, device="cuda", dtype=torch.bfloat16, generator=g) / k ** 0.5).to(torch.bfloat16)
        gate, up = x.double() @ wg.double(), x.double() @ wu.double()
        ref = gate * torch.sigmoid(gate) * up
        for config in configs:
            for column_major in (False, True):
                try:
                    y = gemm_swiglu(x, wg, wu, config, column_major)
                except triton.runtime.errors.OutOfResources as e:
                    print(f"{m}x{n}x{k} {config}: skipped ({e})")
                    continue
                rel = ((y.double() - ref).norm() / ref.norm()).item()
                worst, launches = max(worst, rel), launches + 1
                if not rel < 2e-2:
                    raise SystemExit(f"{m}x{n}x{k} {config} column_major={column_major}: relative error {rel:.2e}")
    torch.cuda.synchronize()
    print(f"gemm_swiglu: {launches} launches, worst relative error vs float64 {worst:.2e}")


if __name__ == "__main__":
    main()
