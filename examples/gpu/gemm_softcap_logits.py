"""Logits with a soft cap, as Gemma 2's output layer computes them: Y = cap * tanh((X @ W) / cap), bf16 X and W, Y
bf16 or fp32, over a sweep of tile configurations.  The epilogue has no second operand: the accumulator goes through
tanh to the store.  A plain Triton program: it knows nothing of irkit.

This program was written after round 40's run (session 18), with nothing in the pass changed since but the stores
rule's use on the IR model's own rewrites (514409d): a held-out check of it (round 41,
docs/propagate-mma-results/notes.md).

    irkit-check -p propagate-mma --each-size -- python examples/gpu/gemm_softcap_logits.py
    irkit-check -p propagate-mma -- python examples/gpu/gemm_softcap_logits.py --quick   # 2 configs, fp32

Every launch is checked against torch in float64, so the program fails loudly by itself if a kernel computes the
wrong thing.  Sizes: a masked 2900 x 6000 x 1536 and a masked 1200 x 8000 x 1000 (a slice of a vocabulary), each with
bf16 and fp32 Y; 1000 and the masked M and N keep Triton from assuming aligned tiles everywhere.
"""

from __future__ import annotations

import argparse

import triton
import triton.language as tl

# (BLOCK_M, BLOCK_N, BLOCK_K, num_warps, num_stages)
CONFIGS = [
    (64, 128, 64, 4, 4),
    (128, 64, 64, 4, 3),
    (128, 128, 32, 4, 4),
    (128, 128, 64, 8, 3),
    (128, 256, 64, 8, 3),
    (256, 64, 64, 8, 3),
    (256, 128, 32, 8, 3),
    (256, 128, 64, 8, 3),
]
# (M, N, K), output dtypes
SIZES = [
    ((2900, 6000, 1536), ("bfloat16", "float32")),
    ((1200, 8000, 1000), ("bfloat16", "float32")),
]
CAP = 30.0


def _flops(grid, metadata, args):
    out = "fp32" if args["OUT_F32"] else "bf16"
    return {"flops": 2 * args["M"] * args["N"] * args["K"], "name": f"gemm_softcap_logits_kernel out={out}"}


@triton.jit(launch_metadata=_flops)
def gemm_softcap_logits_kernel(x_ptr, w_ptr, y_ptr, M, N, K, sxm, sxk, swk, swn, sym, syn, BLOCK_M: tl.constexpr,
                               BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, OUT_F32: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    x = x_ptr + rm[:, None] * sxm + rk[None, :] * sxk
    w = w_ptr + rk[:, None] * swk + rn[None, :] * swn
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        a = tl.load(x, mask=(rm[:, None] < M) & (rk[None, :] < K - k * BLOCK_K), other=0.0)
        b = tl.load(w, mask=(rk[:, None] < K - k * BLOCK_K) & (rn[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc)
        x += BLOCK_K * sxk
        w += BLOCK_K * swk
    # cap * tanh(acc / cap), with tanh(z) = 2 sigmoid(2 z) - 1
    out = 30.0 * (2.0 * tl.sigmoid(acc * (2.0 / 30.0)) - 1.0)
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    y = y_ptr + rm[:, None] * sym + rn[None, :] * syn
    if OUT_F32:
        tl.store(y, out, mask=mask)
    else:
        tl.store(y, out.to(tl.bfloat16), mask=mask)


def gemm_softcap_logits(x, w, out_dtype, config):
    import torch

    bm, bn, bk, warps, stages = config
    m, k = x.shape
    n = w.shape[1]
    y = torch.empty((m, n), device=x.device, dtype=out_dtype)
    grid = (triton.cdiv(m, bm), triton.cdiv(n, bn))
    gemm_softcap_logits_kernel[grid](x, w, y, m, n, k, x.stride(0), x.stride(1), w.stride(0), w.stride(1),
                                     y.stride(0), y.stride(1), BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk,
                                     OUT_F32=out_dtype == torch.float32, num_warps=warps, num_stages=stages)
    return y


def main(argv=None):
    import torch

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="2 configurations, the first size, fp32")
    args = ap.parse_args(argv)
    sizes = [(SIZES[0][0], ("float32",), CONFIGS[:2])] if args.quick else [(s, d, CONFIGS) for s, d in SIZES]
    rng = torch.Generator(device="cuda").manual_seed(151)
    worst, launches = 0.0, 0
    for (m, n, k), dtypes, configs in sizes:
        x = torch.randn(m, k, device="cuda", dtype=torch.bfloat16, generator=rng)
        w = (torch.randn(k, n, device="cuda", generator=rng) * (40 / k ** 0.5)).to(torch.bfloat16)
        ref = CAP * torch.tanh((x.double() @ w.double()) / CAP)
        for dtype in dtypes:
            for config in configs:
                try:
                    y = gemm_softcap_logits(x, w, getattr(torch, dtype), config)
                except triton.runtime.errors.OutOfResources as e:
                    print(f"{m}x{n}x{k} {config}: skipped ({e})")
                    continue
                rel = ((y.double() - ref).norm() / ref.norm()).item()
                worst, launches = max(worst, rel), launches + 1
                if not rel < 1e-2:
                    raise SystemExit(f"{m}x{n}x{k} {config} out={dtype}: relative error {rel:.2e}")
    torch.cuda.synchronize()
    print(f"gemm_softcap_logits: {launches} launches, worst relative error vs float64 {worst:.2e}")


if __name__ == "__main__":
    main()
