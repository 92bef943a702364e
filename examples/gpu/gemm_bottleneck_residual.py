"""A ResNet bottleneck block's last 1x1 convolution as a GEMM over channels-last pixels, with its folded batch norm,
the identity shortcut and the ReLU: Y = relu(R + (X @ W) * bn_scale[None, :] + bn_shift[None, :]), fp16 X and W, fp32
batch-norm scale and shift, R and Y fp16 or fp32, over a sweep of tile configurations.  A plain Triton program: it
knows nothing of irkit.  K is the bottleneck's width (256 or 512 channels, 320 for the masked size), so the main loop
runs 4 to 16 times and the epilogue (two per-channel rows, the shortcut tile, the store) is a large share of the kernel.

This program was written after round 41's run (session 19), with nothing in the pass changed since: a held-out check
of short main loops whose epilogue loads a residual tile (round 42, docs/propagate-mma-results/notes.md).

    irkit-check -p propagate-mma --each-size -- python examples/gpu/gemm_bottleneck_residual.py
    irkit-check -p propagate-mma -- python examples/gpu/gemm_bottleneck_residual.py --quick   # 2 configs, fp32

Every launch is checked against torch in float64, so the program fails loudly by itself if a kernel computes the
wrong thing.  Sizes: ResNet-50's stage 3 at batch 32 (6272 pixels, 256 -> 1024 channels) with fp16 and fp32 R and Y,
its stage 4 at batch 64 (3136 pixels, 512 -> 2048 channels), and a masked 2450 x 1000 x 320 (50 images of 7 x 7;
1000 is not a multiple of 16, so Triton cannot assume aligned rows of W, R and Y).
"""

from __future__ import annotations

import argparse

import triton
import triton.language as tl

# (BLOCK_M, BLOCK_N, BLOCK_K, num_warps, num_stages)
CONFIGS = [
    (64, 64, 64, 4, 3),
    (64, 128, 32, 4, 4),
    (128, 64, 64, 4, 3),
    (128, 128, 32, 4, 4),
    (128, 128, 64, 8, 3),
    (128, 256, 64, 8, 3),
    (256, 64, 32, 8, 4),
    (256, 128, 32, 8, 3),
]
# (M, N, K), output dtypes
SIZES = [
    ((6272, 1024, 256), ("float16", "float32")),
    ((3136, 2048, 512), ("float16",)),
    ((2450, 1000, 320), ("float16",)),
]


def _flops(grid, metadata, args):
    out = "fp32" if args["OUT_F32"] else "fp16"
    return {"flops": 2 * args["M"] * args["N"] * args["K"], "name": f"gemm_bottleneck_residual_kernel out={out}"}


@triton.jit(launch_metadata=_flops)
def gemm_bottleneck_residual_kernel(x_ptr, w_ptr, scale_ptr, shift_ptr, r_ptr, y_ptr, M, N, K, sxm, sxk, swk, swn,
                                    srm, srn, sym, syn, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                                    BLOCK_K: tl.constexpr, OUT_F32: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    x = x_ptr + rm[:, None] * sxm + rk[None, :] * sxk
    w = w_ptr + rk[:, None] * swk + rn[None, :] * swn
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        pixels = tl.load(x, mask=(rm[:, None] < M) & (rk[None, :] < K - k * BLOCK_K), other=0.0)
        weight = tl.load(w, mask=(rk[:, None] < K - k * BLOCK_K) & (rn[None, :] < N), other=0.0)
        acc = tl.dot(pixels, weight, acc)
        x += BLOCK_K * sxk
        w += BLOCK_K * swk
    scale = tl.load(scale_ptr + rn, mask=rn < N, other=0.0)
    shift = tl.load(shift_ptr + rn, mask=rn < N, other=0.0)
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    shortcut = tl.load(r_ptr + rm[:, None] * srm + rn[None, :] * srn, mask=mask, other=0.0).to(tl.float32)
    out = tl.maximum(shortcut + acc * scale[None, :] + shift[None, :], 0.0)
    y = y_ptr + rm[:, None] * sym + rn[None, :] * syn
    if OUT_F32:
        tl.store(y, out, mask=mask)
    else:
        tl.store(y, out.to(tl.float16), mask=mask)


def gemm_bottleneck_residual(x, w, scale, shift, shortcut, config):
    import torch

    bm, bn, bk, warps, stages = config
    m, k = x.shape
    n = w.shape[1]
    y = torch.empty((m, n), device=x.device, dtype=shortcut.dtype)
    grid = (triton.cdiv(m, bm), triton.cdiv(n, bn))
    gemm_bottleneck_residual_kernel[grid](x, w, scale, shift, shortcut, y, m, n, k, x.stride(0), x.stride(1),
                                          w.stride(0), w.stride(1), shortcut.stride(0), shortcut.stride(1),
                                          y.stride(0), y.stride(1), BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk,
                                          OUT_F32=shortcut.dtype == torch.float32, num_warps=warps,
                                          num_stages=stages)
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
        x = torch.randn(m, k, device="cuda", dtype=torch.float16, generator=rng)
        w = (torch.randn(k, n, device="cuda", generator=rng) / k ** 0.5).to(torch.float16)
        scale = torch.rand(n, device="cuda", generator=rng) + 0.5
        shift = torch.randn(n, device="cuda", generator=rng) * 0.1
        for dtype in dtypes:
            shortcut = torch.randn(m, n, device="cuda", dtype=getattr(torch, dtype), generator=rng)
            conv = x.double() @ w.double()
            ref = torch.relu(shortcut.double() + conv * scale.double()[None, :] + shift.double()[None, :])
            for config in configs:
                try:
                    y = gemm_bottleneck_residual(x, w, scale, shift, shortcut, config)
                except triton.runtime.errors.OutOfResources as e:
                    print(f"{m}x{n}x{k} {config}: skipped ({e})")
                    continue
                rel = ((y.double() - ref).norm() / ref.norm()).item()
                worst, launches = max(worst, rel), launches + 1
                if not rel < 1e-2:
                    raise SystemExit(f"{m}x{n}x{k} {config} out={dtype}: relative error {rel:.2e}")
    torch.cuda.synchronize()
    print(f"gemm_bottleneck_residual: {launches} launches, worst relative error vs float64 {worst:.2e}")


if __name__ == "__main__":
    main()
