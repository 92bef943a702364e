"""A mixture-of-experts router: each token's logits over all experts, and their softmax, in one kernel:
P = softmax(A @ W + bias[None, :], over each row), bf16 in, with up to 256 experts, so one tile holds a whole row.  A
plain Triton program: it knows nothing of irkit.  The epilogue reduces each row twice (its max, then its sum) in
whatever layout the accumulator is in, loads a bias row and stores the probabilities, so propagate-mma may remove
the bias's and the store's conversions while the reductions stay where they are.

This program was written after round 31 (session 16), with nothing in the pass changed since, as round 32's
held-out check of the default on a kind of kernel not timed before: row reductions across the whole accumulator
(docs/propagate-mma-results/notes.md).

    irkit-check -p propagate-mma -- python examples/gpu/gemm_router_softmax.py
    irkit-check -p propagate-mma -- python examples/gpu/gemm_router_softmax.py --quick   # 2 configs, masked size

Every launch is checked against torch in float64, so the program fails loudly by itself if a kernel computes the
wrong thing.  Sizes (tokens x experts x hidden): 8192 x 256 x 4096 (bf16 out), a masked 3000 x 200 x 2900 (bf16 and
fp32 out: no dimension a multiple of 16, so Triton cannot assume aligned rows there).
"""

from __future__ import annotations

import argparse

import triton
import triton.language as tl

# (BLOCK_M, BLOCK_N, BLOCK_K, num_warps, num_stages); BLOCK_N covers every expert
CONFIGS = [
    (64, 256, 64, 4, 3),
    (64, 256, 32, 4, 4),
    (64, 256, 64, 8, 3),
    (64, 256, 128, 4, 2),
    (128, 256, 64, 8, 3),
    (128, 256, 32, 8, 4),
    (128, 256, 64, 8, 4),
    (128, 256, 32, 8, 3),
]
# (M, N, K), output dtypes
SIZES = [
    ((8192, 256, 4096), ("bfloat16",)),
    ((3000, 200, 2900), ("bfloat16", "float32")),
]


def _flops(grid, metadata, args):
    out = "fp32" if args["OUT_F32"] else "bf16"
    return {"flops": 2 * args["M"] * args["N"] * args["K"], "name": f"gemm_router_softmax_kernel out={out}"}


@triton.jit(launch_metadata=_flops)
def gemm_router_softmax_kernel(a_ptr, w_ptr, bias_ptr, p_ptr, M, N, K, sam, sak, swk, swn, spm, spn,
                               BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                               OUT_F32: tl.constexpr):
    pid_m = tl.program_id(0)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    a = a_ptr + rm[:, None] * sam + rk[None, :] * sak
    w = w_ptr + rk[:, None] * swk + rn[None, :] * swn
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(tl.cdiv(K, BLOCK_K)):
        k_left = K - k * BLOCK_K
        x = tl.load(a, mask=(rm[:, None] < M) & (rk[None, :] < k_left), other=0.0)
        y = tl.load(w, mask=(rk[:, None] < k_left) & (rn[None, :] < N), other=0.0)
        acc = tl.dot(x, y, acc)
        a += BLOCK_K * sak
        w += BLOCK_K * swk
    bias = tl.load(bias_ptr + rn, mask=rn < N, other=0.0)
    logits = tl.where(rn[None, :] < N, acc + bias[None, :], float("-inf"))
    e = tl.exp(logits - tl.max(logits, axis=1)[:, None])
    probs = e / tl.sum(e, axis=1)[:, None]
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    p = p_ptr + rm[:, None] * spm + rn[None, :] * spn
    if OUT_F32:
        tl.store(p, probs, mask=mask)
    else:
        tl.store(p, probs.to(tl.bfloat16), mask=mask)


def gemm_router_softmax(a, w, bias, out_dtype, config):
    import torch

    bm, bn, bk, warps, stages = config
    m, k = a.shape
    n = w.shape[1]
    p = torch.empty((m, n), device=a.device, dtype=out_dtype)
    grid = (triton.cdiv(m, bm),)
    gemm_router_softmax_kernel[grid](a, w, bias, p, m, n, k, a.stride(0), a.stride(1), w.stride(0), w.stride(1),
                                     p.stride(0), p.stride(1), BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk,
                                     OUT_F32=out_dtype == torch.float32, num_warps=warps, num_stages=stages)
    return p


def main(argv=None):
    import torch

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="2 configurations, the masked size, fp32 out")
    args = ap.parse_args(argv)
    sizes = [(SIZES[1][0], ("float32",), CONFIGS[:2])] if args.quick else [(s, d, CONFIGS) for s, d in SIZES]
    rng = torch.Generator(device="cuda").manual_seed(113)
    worst, launches = 0.0, 0
    for (m, n, k), dtypes, configs in sizes:
        a = torch.randn(m, k, device="cuda", dtype=torch.bfloat16, generator=rng)
        w = (torch.randn(k, n, device="cuda", dtype=torch.bfloat16, generator=rng) / k ** 0.5).to(torch.bfloat16)
        bias = torch.randn(n, device="cuda", generator=rng) * 0.5
        ref = torch.softmax((a.double() @ w.double()) + bias.double()[None, :], dim=1)
        for dtype in dtypes:
            for config in configs:
                try:
                    p = gemm_router_softmax(a, w, bias, getattr(torch, dtype), config)
                except triton.runtime.errors.OutOfResources as e:
                    print(f"{m}x{n}x{k} {config}: skipped ({e})")
                    continue
                rel = ((p.double() - ref).norm() / ref.norm()).item()
                worst, launches = max(worst, rel), launches + 1
                if not rel < 2e-2:
                    raise SystemExit(f"{m}x{n}x{k} {config} out={dtype}: relative error {rel:.2e}")
    torch.cuda.synchronize()
    print(f"gemm_router_softmax: {launches} launches, worst relative error vs float64 {worst:.2e}")


if __name__ == "__main__":
    main()
