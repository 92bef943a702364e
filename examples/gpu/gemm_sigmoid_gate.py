"""A GEMM with a sigmoid-gated epilogue: C = G * sigmoid(A @ B + bias[None, :]), bf16 in, the gate G and the output
either bf16 or fp32, over a sweep of tile configurations.  A plain Triton program: it knows nothing of irkit.  The
epilogue loads a column bias (broadcast over the tile's rows) and one gate tile, and stores one tile, so
propagate-mma may remove three conversions: the bias's, the gate load's and the store's.

This program was written after round 21's loop-schedule criterion (session 13) and was not used to tune it: it was
its held-out check, round 22 (docs/propagate-mma-results/notes.md), which refuted it.

    irkit-check -p propagate-mma -- python examples/gpu/gemm_sigmoid_gate.py
    irkit-check -p propagate-mma -- python examples/gpu/gemm_sigmoid_gate.py --quick   # 2 configs, masked size

Every launch is checked against torch in float64, so the program fails loudly by itself if a kernel computes
the wrong thing.  Sizes: 4096 x 4096 x 2048 (bf16 out) and a masked 2700 x 2300 x 1500 (bf16 and fp32 out);
2700, 2300 and 1500 are not multiples of 16, so Triton cannot assume aligned rows there.
"""

from __future__ import annotations

import argparse

import triton
import triton.language as tl

# (BLOCK_M, BLOCK_N, BLOCK_K, num_warps, num_stages)
CONFIGS = [
    (128, 64, 64, 4, 4),
    (64, 128, 64, 4, 4),
    (128, 128, 64, 4, 3),
    (64, 64, 64, 4, 4),
    (128, 128, 64, 8, 3),
    (128, 128, 32, 8, 4),
    (256, 128, 64, 8, 3),
    (128, 256, 64, 8, 3),
]
# (M, N, K), output dtypes
SIZES = [
    ((4096, 4096, 2048), ("bfloat16",)),
    ((2700, 2300, 1500), ("bfloat16", "float32")),
]


def _flops(grid, metadata, args):
    out = "fp32" if args["OUT_F32"] else "bf16"
    return {"flops": 2 * args["M"] * args["N"] * args["K"], "name": f"gemm_sigmoid_gate_kernel out={out}"}


@triton.jit(launch_metadata=_flops)
def gemm_sigmoid_gate_kernel(a_ptr, b_ptr, bias_ptr, g_ptr, c_ptr, M, N, K, sam, sak, sbk, sbn, sgm, sgn, scm, scn,
                             BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                             OUT_F32: tl.constexpr):
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
    bias = tl.load(bias_ptr + rn, mask=rn < N, other=0.0).to(tl.float32)
    g = tl.load(g_ptr + rm[:, None] * sgm + rn[None, :] * sgn, mask=mask, other=0.0).to(tl.float32)
    out = g * tl.sigmoid(acc + bias[None, :])
    c = c_ptr + rm[:, None] * scm + rn[None, :] * scn
    if OUT_F32:
        tl.store(c, out, mask=mask)
    else:
        tl.store(c, out.to(tl.bfloat16), mask=mask)


def gemm_sigmoid_gate(a, b, bias, g, config):
    import torch

    bm, bn, bk, warps, stages = config
    m, k = a.shape
    n = b.shape[1]
    c = torch.empty((m, n), device=a.device, dtype=g.dtype)
    grid = (triton.cdiv(m, bm), triton.cdiv(n, bn))
    gemm_sigmoid_gate_kernel[grid](a, b, bias, g, c, m, n, k, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                                   g.stride(0), g.stride(1), c.stride(0), c.stride(1), BLOCK_M=bm, BLOCK_N=bn,
                                   BLOCK_K=bk, OUT_F32=g.dtype == torch.float32, num_warps=warps, num_stages=stages)
    return c


def main(argv=None):
    import torch

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="2 configurations, the masked size, bf16 out")
    args = ap.parse_args(argv)
    sizes = [(SIZES[1][0], ("bfloat16",), CONFIGS[:2])] if args.quick else [(s, d, CONFIGS) for s, d in SIZES]
    rng = torch.Generator(device="cuda").manual_seed(67)
    worst, launches = 0.0, 0
    for (m, n, k), dtypes, configs in sizes:
        a = torch.randn(m, k, device="cuda", dtype=torch.bfloat16, generator=rng)
        b = (torch.randn(k, n, device="cuda", dtype=torch.bfloat16, generator=rng) / k ** 0.5).to(torch.bfloat16)
        bias = (torch.randn(n, device="cuda", generator=rng) * 0.5).to(torch.bfloat16)
        gate = torch.sigmoid((a.double() @ b.double()) + bias.double()[None, :])
        for dtype in dtypes:
            g = torch.randn(m, n, device="cuda", dtype=getattr(torch, dtype), generator=rng)
            ref = g.double() * gate
            for config in configs:
                try:
                    c = gemm_sigmoid_gate(a, b, bias, g, config)
                except triton.runtime.errors.OutOfResources as e:
                    print(f"{m}x{n}x{k} {config}: skipped ({e})")
                    continue
                rel = ((c.double() - ref).norm() / ref.norm()).item()
                worst, launches = max(worst, rel), launches + 1
                if not rel < 2e-2:
                    raise SystemExit(f"{m}x{n}x{k} {config} out={dtype}: relative error {rel:.2e}")
    torch.cuda.synchronize()
    print(f"gemm_sigmoid_gate: {launches} launches, worst relative error vs float64 {worst:.2e}")


if __name__ == "__main__":
    main()
