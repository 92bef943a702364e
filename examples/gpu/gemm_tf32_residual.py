"""An fp32 GEMM on the tensor cores in TF32 with a bias and residual epilogue: C = A @ B + bias[None, :] + R, A, B and
the bias fp32, R and C either fp32 or bf16, over a sweep of tile configurations.  A plain Triton program: it knows
nothing of irkit.  `tl.dot(..., input_precision="tf32")` makes a TF32 wgmma, whose operands take twice the shared
memory and registers of fp16 ones; the epilogue loads the bias row and the residual tile and stores one tile, so
propagate-mma may remove their three conversions.

This program was written after round 25 (session 15), with nothing in the pass changed since, as round 26's
held-out check of the default on a kind of kernel not timed before: a TF32 GEMM (docs/propagate-mma-results/notes.md).

    irkit-check -p propagate-mma -- python examples/gpu/gemm_tf32_residual.py
    irkit-check -p propagate-mma -- python examples/gpu/gemm_tf32_residual.py --quick   # 2 configs, masked size

Every launch is checked against torch in float64 (to TF32's and bf16's precision), so the program fails loudly by
itself if a kernel computes the wrong thing.  Sizes: 4096 x 4096 x 2048 (fp32 out) and a masked 2900 x 2700 x 1300
(fp32 and bf16 out); 2900, 2700 and 1300 are not multiples of 16, so Triton cannot assume aligned rows there.
"""

from __future__ import annotations

import argparse

import triton
import triton.language as tl

# (BLOCK_M, BLOCK_N, BLOCK_K, num_warps, num_stages): K tiles of 32 fp32 are the 128 bytes of an fp16 tile of 64
CONFIGS = [
    (128, 128, 32, 8, 3),
    (128, 256, 32, 8, 3),
    (256, 128, 32, 8, 3),
    (128, 128, 32, 4, 4),
    (128, 64, 32, 4, 4),
    (64, 128, 32, 4, 4),
    (128, 128, 64, 8, 3),
    (64, 64, 32, 4, 3),
]
# (M, N, K), output dtypes
SIZES = [
    ((4096, 4096, 2048), ("float32",)),
    ((2900, 2700, 1300), ("float32", "bfloat16")),
]


def _flops(grid, metadata, args):
    out = "fp32" if args["OUT_F32"] else "bf16"
    return {"flops": 2 * args["M"] * args["N"] * args["K"], "name": f"gemm_tf32_residual_kernel out={out}"}


@triton.jit(launch_metadata=_flops)
def gemm_tf32_residual_kernel(a_ptr, b_ptr, bias_ptr, r_ptr, c_ptr, M, N, K, sam, sak, sbk, sbn, srm, srn, scm, scn,
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
        acc = tl.dot(x, w, acc, input_precision="tf32")
        a += BLOCK_K * sak
        b += BLOCK_K * sbk
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    bias = tl.load(bias_ptr + rn, mask=rn < N, other=0.0)
    r = tl.load(r_ptr + rm[:, None] * srm + rn[None, :] * srn, mask=mask, other=0.0).to(tl.float32)
    out = acc + bias[None, :] + r
    c = c_ptr + rm[:, None] * scm + rn[None, :] * scn
    if OUT_F32:
        tl.store(c, out, mask=mask)
    else:
        tl.store(c, out.to(tl.bfloat16), mask=mask)


def gemm_tf32_residual(a, b, bias, r, config):
    import torch

    bm, bn, bk, warps, stages = config
    m, k = a.shape
    n = b.shape[1]
    c = torch.empty((m, n), device=a.device, dtype=r.dtype)
    grid = (triton.cdiv(m, bm), triton.cdiv(n, bn))
    gemm_tf32_residual_kernel[grid](a, b, bias, r, c, m, n, k, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                                    r.stride(0), r.stride(1), c.stride(0), c.stride(1), BLOCK_M=bm, BLOCK_N=bn,
                                    BLOCK_K=bk, OUT_F32=r.dtype == torch.float32, num_warps=warps, num_stages=stages)
    return c


def main(argv=None):
    import torch

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="2 configurations, the masked size, fp32 out")
    args = ap.parse_args(argv)
    sizes = [(SIZES[1][0], ("float32",), CONFIGS[:2])] if args.quick else [(s, d, CONFIGS) for s, d in SIZES]
    rng = torch.Generator(device="cuda").manual_seed(89)
    worst, launches = 0.0, 0
    for (m, n, k), dtypes, configs in sizes:
        a = torch.randn(m, k, device="cuda", dtype=torch.float32, generator=rng)
        b = torch.randn(k, n, device="cuda", dtype=torch.float32, generator=rng) / k ** 0.5
        bias = torch.randn(n, device="cuda", generator=rng) * 0.5
        product = (a.double() @ b.double()) + bias.double()[None, :]
        for dtype in dtypes:
            r = torch.randn(m, n, device="cuda", dtype=getattr(torch, dtype), generator=rng)
            ref = product + r.double()
            for config in configs:
                try:
                    c = gemm_tf32_residual(a, b, bias, r, config)
                except triton.runtime.errors.OutOfResources as e:
                    print(f"{m}x{n}x{k} {config}: skipped ({e})")
                    continue
                rel = ((c.double() - ref).norm() / ref.norm()).item()
                worst, launches = max(worst, rel), launches + 1
                if not rel < 2e-2:
                    raise SystemExit(f"{m}x{n}x{k} {config} out={dtype}: relative error {rel:.2e}")
    torch.cuda.synchronize()
    print(f"gemm_tf32_residual: {launches} launches, worst relative error vs float64 {worst:.2e}")


if __name__ == "__main__":
    main()
