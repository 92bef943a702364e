"""Shapes where propagate-mma might move the tuned optimum of a GEMM + add-matrix (C = A @ B + D; bf16 A/B):
a short K (8192x8192x1024, where the epilogue weighs more), D and C in fp16/bf16 as well as f32, 64-wide K tiles
and more pipeline stages (the conversion's scratch no longer competes with them).  A plain Triton program; run it
under irkit-check on a GPU (docs/propagate-mma-results.md):

    irkit-check -p propagate-mma -- python3 bench/propagate_mma_shapes.py
    irkit-check -p 'propagate-mma{profit=always}' -- python3 bench/propagate_mma_shapes.py

Each launch is checked against torch in float64.
"""

from __future__ import annotations

import argparse

import triton
import triton.language as tl

CONFIGS = [  # BLOCK_M, BLOCK_N, BLOCK_K, num_warps, num_stages
    (128, 256, 64, 8, 3),
    (128, 256, 64, 8, 4),
    (256, 128, 64, 8, 3),
    (256, 128, 64, 8, 4),
    (128, 128, 64, 8, 4),
    (128, 128, 64, 8, 5),
    (128, 256, 32, 8, 5),
    (256, 128, 32, 8, 5),
]
SHAPES = [(8192, 8192, 1024), (4096, 4096, 4096)]
D_TYPES = ["float32", "float16", "bfloat16"]


def _flops(grid, metadata, args):
    d_type = str(args["d_ptr"].dtype).replace("torch.", "")
    return {"flops": 2 * args["M"] * args["N"] * args["K"], "name": f"addmm_shapes D={d_type}"}


@triton.jit(launch_metadata=_flops)
def addmm_shapes(a_ptr, b_ptr, d_ptr, c_ptr, M, N, K, sam, sak, sbk, sbn, sdm, sdn, scm, scn,
                 BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    rm = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    a = a_ptr + rm[:, None] * sam + rk[None, :] * sak
    b = b_ptr + rk[:, None] * sbk + rn[None, :] * sbn
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(tl.cdiv(K, BLOCK_K)):
        x = tl.load(a, mask=rk[None, :] < K - k * BLOCK_K, other=0.0)
        y = tl.load(b, mask=rk[:, None] < K - k * BLOCK_K, other=0.0)
        acc = tl.dot(x, y, acc)
        a += BLOCK_K * sak
        b += BLOCK_K * sbk
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    acc += tl.load(d_ptr + rm[:, None] * sdm + rn[None, :] * sdn, mask=mask, other=0.0).to(tl.float32)
    tl.store(c_ptr + rm[:, None] * scm + rn[None, :] * scn, acc.to(c_ptr.dtype.element_ty), mask=mask)


def main(argv=None):
    import torch

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--d-types", default=",".join(D_TYPES))
    args = ap.parse_args(argv)
    g = torch.Generator(device="cuda").manual_seed(11)
    for m, n, k in SHAPES:
        a = torch.randn(m, k, device="cuda", dtype=torch.bfloat16, generator=g)
        b = torch.randn(k, n, device="cuda", dtype=torch.bfloat16, generator=g)
        ref_mm = a.double() @ b.double()
        for name in args.d_types.split(","):
            dtype = getattr(torch, name)
            d = torch.randn(m, n, device="cuda", dtype=torch.float32, generator=g).to(dtype)
            ref = ref_mm + d.double()
            for bm, bn, bk, warps, stages in CONFIGS:
                c = torch.empty((m, n), device="cuda", dtype=dtype)
                grid = (triton.cdiv(m, bm), triton.cdiv(n, bn))
                try:
                    addmm_shapes[grid](a, b, d, c, m, n, k, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                                       d.stride(0), d.stride(1), c.stride(0), c.stride(1),
                                       BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk, num_warps=warps, num_stages=stages)
                except triton.runtime.errors.OutOfResources as e:
                    print(f"{m}x{n}x{k} {name} {(bm, bn, bk, warps, stages)}: skipped ({e})")
                    continue
                rel = ((c.double() - ref).norm() / ref.norm()).item()
                if not rel < 2e-2:
                    raise SystemExit(f"{m}x{n}x{k} {name} {(bm, bn, bk, warps, stages)}: relative error {rel:.2e}")
    torch.cuda.synchronize()
    print("addmm_shapes: done")


if __name__ == "__main__":
    main()
