"""GEMM with and without an add-matrix epilogue (C = A @ B [+ D]; A, B bf16; D, C f32), over a sweep of tile
configurations.  A plain Triton program: it knows nothing of irkit.  Run it under irkit-check to see what a pass
does to each compiled kernel, on the GPU:

    irkit-check -p propagate-mma -- python examples/gpu/addmm.py
    irkit-check -p propagate-mma -- python examples/gpu/addmm.py --quick      # 2 configs, small sizes

Every launch is checked against torch in float64 (the relative error must stay at bf16-product level), so the
program fails loudly by itself if a kernel computes the wrong thing.  Sizes: 4096^3 (the speed figures) and a
masked size that is not a multiple of any tile (3000 x 2900 x 1000; the first 4 configurations, with the epilogue),
so the masks of loads and stores matter.
The kernels carry `launch_metadata` with their FLOP count (the Triton convention profilers read), from which
irkit-check derives TFLOP/s.
"""

from __future__ import annotations

import argparse

import triton
import triton.language as tl

# (BLOCK_M, BLOCK_N, BLOCK_K, num_warps, num_stages): the first 8 are the configurations of the irkit-check issue
CONFIGS = [
    (128, 256, 64, 8, 3),
    (256, 128, 64, 8, 3),
    (128, 128, 64, 4, 4),
    (128, 128, 64, 8, 3),
    (128, 128, 32, 4, 3),
    (64, 256, 64, 4, 4),
    (256, 256, 64, 8, 3),
    (256, 256, 32, 8, 4),
    (128, 256, 32, 8, 4),
    (256, 128, 32, 8, 4),
    (128, 128, 64, 8, 4),
    (128, 64, 64, 4, 4),
    (64, 128, 64, 4, 4),
    (64, 64, 64, 4, 4),
    (128, 256, 64, 8, 4),
    (64, 128, 32, 4, 3),
]
SIZE = (4096, 4096, 4096)
MASKED_SIZE = (3000, 2900, 1000)


def _flops(grid, metadata, args):
    return {"flops": 2 * args["M"] * args["N"] * args["K"], "name": f"addmm_kernel ADD={args['ADD']}"}


@triton.jit(launch_metadata=_flops)
def addmm_kernel(a_ptr, b_ptr, d_ptr, c_ptr, M, N, K, sam, sak, sbk, sbn, sdm, sdn, scm, scn,
                 BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, ADD: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    a = a_ptr + rm[:, None] * sam + rk[None, :] * sak
    b = b_ptr + rk[:, None] * sbk + rn[None, :] * sbn
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(tl.cdiv(K, BLOCK_K)):
        x = tl.load(a, mask=(rm[:, None] < M) & (rk[None, :] < K - k * BLOCK_K), other=0.0)
        y = tl.load(b, mask=(rk[:, None] < K - k * BLOCK_K) & (rn[None, :] < N), other=0.0)
        acc = tl.dot(x, y, acc)
        a += BLOCK_K * sak
        b += BLOCK_K * sbk
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    if ADD:
        acc += tl.load(d_ptr + rm[:, None] * sdm + rn[None, :] * sdn, mask=mask, other=0.0)
    tl.store(c_ptr + rm[:, None] * scm + rn[None, :] * scn, acc, mask=mask)


def addmm(a, b, d, config, add=True):
    """C = A @ B (+ D) with one tile configuration."""
    import torch

    bm, bn, bk, warps, stages = config
    m, k = a.shape
    n = b.shape[1]
    c = torch.empty((m, n), device=a.device, dtype=torch.float32)
    grid = (triton.cdiv(m, bm), triton.cdiv(n, bn))
    addmm_kernel[grid](a, b, d, c, m, n, k, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                       d.stride(0), d.stride(1), c.stride(0), c.stride(1),
                       BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk, ADD=add, num_warps=warps, num_stages=stages)
    return c


def main(argv=None):
    import torch

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="2 configurations, the masked size only")
    ap.add_argument("--no-plain", action="store_true", help="only the add-matrix kernel")
    args = ap.parse_args(argv)
    # the masked size with the first 4 configurations only: it shows the masks cost, not a new optimum
    sizes = [(MASKED_SIZE, CONFIGS[:2])] if args.quick else [(SIZE, CONFIGS), (MASKED_SIZE, CONFIGS[:4])]
    g = torch.Generator(device="cuda").manual_seed(7)
    worst, launches = 0.0, 0
    for (m, n, k), configs in sizes:
        a = torch.randn(m, k, device="cuda", dtype=torch.bfloat16, generator=g)
        b = torch.randn(k, n, device="cuda", dtype=torch.bfloat16, generator=g)
        d = torch.randn(m, n, device="cuda", dtype=torch.float32, generator=g)
        ref_mm = a.double() @ b.double()
        for config in configs:
            for add in (True,) if args.no_plain or (m, n, k) == MASKED_SIZE else (True, False):
                try:
                    c = addmm(a, b, d, config, add)
                except triton.runtime.errors.OutOfResources as e:  # too large for this GPU: skip the config
                    print(f"{m}x{n}x{k} {config} ADD={add}: skipped ({e})")
                    continue
                ref = ref_mm + d.double() if add else ref_mm
                rel = ((c.double() - ref).norm() / ref.norm()).item()
                worst, launches = max(worst, rel), launches + 1
                if not rel < 1e-2:  # bf16 operands, f32 accumulation: ~1e-3 at most
                    raise SystemExit(f"{m}x{n}x{k} {config} ADD={add}: relative error {rel:.2e}")
    torch.cuda.synchronize()
    print(f"addmm: {launches} launches, worst relative error vs float64 {worst:.2e}")


if __name__ == "__main__":
    main()
