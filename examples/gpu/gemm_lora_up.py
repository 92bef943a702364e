"""A low-rank adapter's up-projection added to the base layer's output: Y = base + (A @ B) / 8, with A the
M x 16 activations of a rank-16 adapter and B its 16 x N weight, bf16 in, base and Y bf16 or fp32, over a sweep of
tile configurations.  A plain Triton program: it knows nothing of irkit.  With K = 16 the main loop runs once, so
the kernel is its epilogue: it loads the base tile and stores Y, and propagate-mma may remove both conversions in a
kernel whose time they take a large share of.

This program was written after round 33 (session 16), with nothing in the pass changed since, as round 34's
held-out check of the default on a kind of kernel not timed before: an epilogue-bound GEMM
(docs/propagate-mma-results/notes.md).

    irkit-check -p propagate-mma -- python examples/gpu/gemm_lora_up.py
    irkit-check -p propagate-mma -- python examples/gpu/gemm_lora_up.py --quick   # 2 configs, masked size, fp32

Every launch is checked against torch in float64, so the program fails loudly by itself if a kernel computes the
wrong thing.  Sizes: 8192 x 4096 x 16 (bf16) and a masked 3000 x 5000 x 16 (bf16 and fp32); 3000 and 5000 are not
multiples of 16, so Triton cannot assume aligned rows there.
"""

from __future__ import annotations

import argparse

import triton
import triton.language as tl

SCALE = tl.constexpr(0.125)  # the adapter's alpha / rank
# (BLOCK_M, BLOCK_N, BLOCK_K, num_warps, num_stages)
CONFIGS = [
    (64, 64, 16, 4, 2),
    (64, 128, 16, 4, 2),
    (128, 64, 16, 4, 2),
    (128, 128, 16, 4, 2),
    (128, 128, 16, 8, 2),
    (64, 256, 16, 4, 2),
    (128, 256, 16, 8, 2),
    (256, 128, 16, 8, 2),
]
# (M, N, K), output dtypes
SIZES = [
    ((8192, 4096, 16), ("bfloat16",)),
    ((3000, 5000, 16), ("bfloat16", "float32")),
]


def _flops(grid, metadata, args):
    out = "fp32" if args["OUT_F32"] else "bf16"
    return {"flops": 2 * args["M"] * args["N"] * args["K"], "name": f"gemm_lora_up_kernel out={out}"}


@triton.jit(launch_metadata=_flops)
def gemm_lora_up_kernel(a_ptr, b_ptr, base_ptr, y_ptr, M, N, K, sam, sak, sbk, sbn, srm, srn, scm, scn,
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
    base = tl.load(base_ptr + rm[:, None] * srm + rn[None, :] * srn, mask=mask, other=0.0).to(tl.float32)
    out = base + SCALE * acc
    y = y_ptr + rm[:, None] * scm + rn[None, :] * scn
    if OUT_F32:
        tl.store(y, out, mask=mask)
    else:
        tl.store(y, out.to(tl.bfloat16), mask=mask)


def gemm_lora_up(a, b, base, config):
    import torch

    bm, bn, bk, warps, stages = config
    m, k = a.shape
    n = b.shape[1]
    y = torch.empty((m, n), device=a.device, dtype=base.dtype)
    grid = (triton.cdiv(m, bm), triton.cdiv(n, bn))
    gemm_lora_up_kernel[grid](a, b, base, y, m, n, k, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                              base.stride(0), base.stride(1), y.stride(0), y.stride(1), BLOCK_M=bm, BLOCK_N=bn,
                              BLOCK_K=bk, OUT_F32=base.dtype == torch.float32, num_warps=warps, num_stages=stages)
    return y


def main(argv=None):
    import torch

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="2 configurations, the masked size, fp32")
    args = ap.parse_args(argv)
    sizes = [(SIZES[1][0], ("float32",), CONFIGS[:2])] if args.quick else [(s, d, CONFIGS) for s, d in SIZES]
    rng = torch.Generator(device="cuda").manual_seed(131)
    worst, launches = 0.0, 0
    for (m, n, k), dtypes, configs in sizes:
        a = torch.randn(m, k, device="cuda", dtype=torch.bfloat16, generator=rng)
        b = torch.randn(k, n, device="cuda", dtype=torch.bfloat16, generator=rng)
        for dtype in dtypes:
            base = torch.randn(m, n, device="cuda", dtype=getattr(torch, dtype), generator=rng)
            ref = base.double() + SCALE.value * (a.double() @ b.double())
            for config in configs:
                try:
                    y = gemm_lora_up(a, b, base, config)
                except triton.runtime.errors.OutOfResources as e:
                    print(f"{m}x{n}x{k} {config}: skipped ({e})")
                    continue
                rel = ((y.double() - ref).norm() / ref.norm()).item()
                worst, launches = max(worst, rel), launches + 1
                if not rel < 1e-2:
                    raise SystemExit(f"{m}x{n}x{k} {config} out={dtype}: relative error {rel:.2e}")
    torch.cuda.synchronize()
    print(f"gemm_lora_up: {launches} launches, worst relative error vs float64 {worst:.2e}")


if __name__ == "__main__":
    main()
