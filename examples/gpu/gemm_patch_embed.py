"""A vision transformer's patch embedding as a GEMM over unfolded patches, with its bias and position embedding:
Y = X @ W + bias + pos[token % PATCHES], X the tokens' flattened patches (K = channels x patch x patch: 768 for
16 x 16 x 3, 588 for 14 x 14 x 3, 1536 for a video tubelet 2 x 16 x 16 x 3), fp16 in, Y fp16 or fp32, over a sweep of
tile configurations.  A plain Triton program: it knows nothing of irkit.  With K in the hundreds the main loop runs
10 to 48 times, and the epilogue (the bias row, the position-embedding tile, the store) is a large share of the
kernel.

This program was written after round 35 (session 17), with nothing in the pass changed since but the rule it was
written to check: a launch whose main loop executes fewer instructions than the code outside it takes nothing on
the compiler's figures (round 36, docs/propagate-mma-results/notes.md).

    irkit-check -p propagate-mma --each-size -- python examples/gpu/gemm_patch_embed.py
    irkit-check -p propagate-mma -- python examples/gpu/gemm_patch_embed.py --quick   # 2 configs, K = 768, fp32

Every launch is checked against torch in float64, so the program fails loudly by itself if a kernel computes the
wrong thing.  Sizes: 15 images of 196 patches (2940 tokens) into 1024 features at K = 768 (fp16 and fp32 Y) and at
K = 1536; 15 images of 256 patches (3840 tokens) into 1280 features at K = 588, whose rows are not 16-aligned.
"""

from __future__ import annotations

import argparse

import triton
import triton.language as tl

# (BLOCK_M, BLOCK_N, BLOCK_K, num_warps, num_stages)
CONFIGS = [
    (64, 64, 32, 4, 3),
    (64, 256, 32, 4, 3),
    (128, 64, 64, 4, 3),
    (128, 128, 32, 4, 3),
    (128, 128, 64, 4, 3),
    (128, 128, 64, 8, 3),
    (128, 256, 32, 8, 3),
    (256, 128, 64, 8, 3),
]
# (M, N, K), output dtypes; M is 15 images of PATCHES[K] patches
SIZES = [
    ((2940, 1024, 768), ("float16", "float32")),
    ((3840, 1280, 588), ("float16",)),
    ((2940, 1024, 1536), ("float16",)),
]
PATCHES = {768: 196, 588: 256, 1536: 196}


def _flops(grid, metadata, args):
    out = "fp32" if args["OUT_F32"] else "fp16"
    return {"flops": 2 * args["M"] * args["N"] * args["K"], "name": f"gemm_patch_embed_kernel out={out}"}


@triton.jit(launch_metadata=_flops)
def gemm_patch_embed_kernel(x_ptr, w_ptr, bias_ptr, pos_ptr, y_ptr, M, N, K, patches, sxm, sxk, swk, swn, spm, spn,
                            sym, syn, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                            OUT_F32: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    x = x_ptr + rm[:, None] * sxm + rk[None, :] * sxk
    w = w_ptr + rk[:, None] * swk + rn[None, :] * swn
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(tl.cdiv(K, BLOCK_K)):
        k_left = K - k * BLOCK_K
        patch = tl.load(x, mask=(rm[:, None] < M) & (rk[None, :] < k_left), other=0.0)
        weight = tl.load(w, mask=(rk[:, None] < k_left) & (rn[None, :] < N), other=0.0)
        acc = tl.dot(patch, weight, acc)
        x += BLOCK_K * sxk
        w += BLOCK_K * swk
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    bias = tl.load(bias_ptr + rn, mask=rn < N, other=0.0).to(tl.float32)
    where = rm % patches  # the token's patch: the position embedding repeats for each image
    pos = tl.load(pos_ptr + where[:, None] * spm + rn[None, :] * spn, mask=mask, other=0.0).to(tl.float32)
    out = acc + bias[None, :] + pos
    y = y_ptr + rm[:, None] * sym + rn[None, :] * syn
    if OUT_F32:
        tl.store(y, out, mask=mask)
    else:
        tl.store(y, out.to(tl.float16), mask=mask)


def gemm_patch_embed(x, w, bias, pos, out_dtype, config):
    import torch

    bm, bn, bk, warps, stages = config
    m, k = x.shape
    n = w.shape[1]
    y = torch.empty((m, n), device=x.device, dtype=out_dtype)
    grid = (triton.cdiv(m, bm), triton.cdiv(n, bn))
    gemm_patch_embed_kernel[grid](x, w, bias, pos, y, m, n, k, pos.shape[0], x.stride(0), x.stride(1), w.stride(0),
                                  w.stride(1), pos.stride(0), pos.stride(1), y.stride(0), y.stride(1), BLOCK_M=bm,
                                  BLOCK_N=bn, BLOCK_K=bk, OUT_F32=out_dtype == torch.float32, num_warps=warps,
                                  num_stages=stages)
    return y


def main(argv=None):
    import torch

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="2 configurations, K = 768, fp32")
    args = ap.parse_args(argv)
    sizes = [(SIZES[0][0], ("float32",), CONFIGS[:2])] if args.quick else [(s, d, CONFIGS) for s, d in SIZES]
    rng = torch.Generator(device="cuda").manual_seed(139)
    worst, launches = 0.0, 0
    for (m, n, k), dtypes, configs in sizes:
        x = torch.randn(m, k, device="cuda", dtype=torch.float16, generator=rng)
        w = torch.randn(k, n, device="cuda", dtype=torch.float16, generator=rng) / k ** 0.5
        bias = torch.randn(n, device="cuda", dtype=torch.float16, generator=rng)
        pos = torch.randn(PATCHES[k], n, device="cuda", dtype=torch.float16, generator=rng)
        rows = torch.arange(m, device="cuda") % PATCHES[k]
        ref = x.double() @ w.double() + bias.double()[None, :] + pos.double()[rows]
        for dtype in dtypes:
            for config in configs:
                try:
                    y = gemm_patch_embed(x, w, bias, pos, getattr(torch, dtype), config)
                except triton.runtime.errors.OutOfResources as e:
                    print(f"{m}x{n}x{k} {config}: skipped ({e})")
                    continue
                rel = ((y.double() - ref).norm() / ref.norm()).item()
                worst, launches = max(worst, rel), launches + 1
                if not rel < 1e-2:
                    raise SystemExit(f"{m}x{n}x{k} {config} out={dtype}: relative error {rel:.2e}")
    torch.cuda.synchronize()
    print(f"gemm_patch_embed: {launches} launches, worst relative error vs float64 {worst:.2e}")


if __name__ == "__main__":
    main()
