"""A GEMM that accumulates into its output in place, as a weight-gradient or split-K step does: C += A @ B, with C
in fp32 or bf16, over a sweep of tile configurations.  A plain Triton program: it knows nothing of irkit.  The
accumulator starts from the loaded C tile instead of zeros, so the epilogue's store is not the only conversion
between the accumulator's layout and a global access: the load of C before the main loop is one too, and
propagate-mma may remove both.

This program was written after round 32 (session 16), with nothing in the pass changed since, as round 33's
held-out check of the default on a kind of kernel not timed before: an accumulator loaded from memory
(docs/propagate-mma-results/notes.md).

    irkit-check -p propagate-mma -- python examples/gpu/gemm_accumulate.py
    irkit-check -p propagate-mma -- python examples/gpu/gemm_accumulate.py --quick   # 2 configs, masked size, fp32

Every launch is checked against torch in float64, so the program fails loudly by itself if a kernel computes the
wrong thing; each launch starts from a fresh copy of C, since the kernel overwrites it.  Sizes: 4096 x 4096 x 2048
(fp32 C) and a masked 3300 x 2700 x 1900 (fp32 and bf16 C); 3300, 2700 and 1900 are not multiples of 16, so Triton
cannot assume aligned rows there.
"""

from __future__ import annotations

import argparse

import triton
import triton.language as tl

# (BLOCK_M, BLOCK_N, BLOCK_K, num_warps, num_stages)
CONFIGS = [
    (128, 128, 64, 8, 3),
    (128, 256, 64, 8, 3),
    (256, 128, 64, 8, 3),
    (128, 128, 32, 4, 4),
    (128, 128, 64, 4, 3),
    (128, 64, 64, 4, 4),
    (64, 128, 64, 4, 3),
    (64, 64, 64, 4, 4),
]
# (M, N, K), C's dtypes
SIZES = [
    ((4096, 4096, 2048), ("float32",)),
    ((3300, 2700, 1900), ("float32", "bfloat16")),
]


def _flops(grid, metadata, args):
    out = "fp32" if args["OUT_F32"] else "bf16"
    return {"flops": 2 * args["M"] * args["N"] * args["K"], "name": f"gemm_accumulate_kernel out={out}"}


@triton.jit(launch_metadata=_flops)
def gemm_accumulate_kernel(a_ptr, b_ptr, c_ptr, M, N, K, sam, sak, sbk, sbn, scm, scn, BLOCK_M: tl.constexpr,
                           BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, OUT_F32: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    c = c_ptr + rm[:, None] * scm + rn[None, :] * scn
    acc = tl.load(c, mask=mask, other=0.0).to(tl.float32)
    a = a_ptr + rm[:, None] * sam + rk[None, :] * sak
    b = b_ptr + rk[:, None] * sbk + rn[None, :] * sbn
    for k in range(tl.cdiv(K, BLOCK_K)):
        k_left = K - k * BLOCK_K
        x = tl.load(a, mask=(rm[:, None] < M) & (rk[None, :] < k_left), other=0.0)
        w = tl.load(b, mask=(rk[:, None] < k_left) & (rn[None, :] < N), other=0.0)
        acc = tl.dot(x, w, acc)
        a += BLOCK_K * sak
        b += BLOCK_K * sbk
    if OUT_F32:
        tl.store(c, acc, mask=mask)
    else:
        tl.store(c, acc.to(tl.bfloat16), mask=mask)


def gemm_accumulate(a, b, c, config):
    bm, bn, bk, warps, stages = config
    m, k = a.shape
    n = b.shape[1]
    grid = (triton.cdiv(m, bm), triton.cdiv(n, bn))
    gemm_accumulate_kernel[grid](a, b, c, m, n, k, a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0),
                                 c.stride(1), BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk, OUT_F32=c.element_size() == 4,
                                 num_warps=warps, num_stages=stages)
    return c


def main(argv=None):
    import torch

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="2 configurations, the masked size, fp32 C")
    args = ap.parse_args(argv)
    sizes = [(SIZES[1][0], ("float32",), CONFIGS[:2])] if args.quick else [(s, d, CONFIGS) for s, d in SIZES]
    rng = torch.Generator(device="cuda").manual_seed(127)
    worst, launches = 0.0, 0
    for (m, n, k), dtypes, configs in sizes:
        a = torch.randn(m, k, device="cuda", dtype=torch.bfloat16, generator=rng)
        b = (torch.randn(k, n, device="cuda", dtype=torch.bfloat16, generator=rng) / k ** 0.5).to(torch.bfloat16)
        product = a.double() @ b.double()
        for dtype in dtypes:
            c0 = torch.randn(m, n, device="cuda", dtype=getattr(torch, dtype), generator=rng)
            ref = c0.double() + product
            for config in configs:
                try:
                    c = gemm_accumulate(a, b, c0.clone(), config)
                except triton.runtime.errors.OutOfResources as e:
                    print(f"{m}x{n}x{k} {config}: skipped ({e})")
                    continue
                rel = ((c.double() - ref).norm() / ref.norm()).item()
                worst, launches = max(worst, rel), launches + 1
                if not rel < 1e-2:
                    raise SystemExit(f"{m}x{n}x{k} {config} C={dtype}: relative error {rel:.2e}")
    torch.cuda.synchronize()
    print(f"gemm_accumulate: {launches} launches, worst relative error vs float64 {worst:.2e}")


if __name__ == "__main__":
    main()
