"""Attention forward (softmax(Q K^T / sqrt(d)) V, fp16, online softmax as in FlashAttention-2) over a sweep
of tile configurations.  A plain Triton program; run it under irkit-check:

    irkit-check -p propagate-mma -- python examples/gpu/attention.py

Every launch is checked against torch's attention in float32.  Sequence length 4096 (speed) and 1000 (not a
multiple of any tile: the masks on K/V rows matter).  `launch_metadata` gives the FLOP count (4 * b * h * n^2 * d).
"""

from __future__ import annotations

import argparse

import triton
import triton.language as tl

# (BLOCK_M, BLOCK_N, num_warps, num_stages)
CONFIGS = [
    (128, 64, 4, 3),
    (128, 64, 8, 3),
    (128, 128, 8, 3),
    (64, 64, 4, 3),
    (64, 128, 4, 3),
    (128, 32, 4, 4),
    (64, 32, 4, 4),
    (128, 128, 8, 2),
]
SHAPES = [(4, 16, 4096, 64), (2, 8, 1000, 64)]  # batch, heads, sequence, head dim


def _flops(grid, metadata, args):
    n, d = args["N_CTX"], args["HEAD_DIM"]
    return {"flops": 4 * args["Z"] * args["H"] * n * n * d, "name": "attention_fwd"}


@triton.jit(launch_metadata=_flops)
def attention_fwd(q_ptr, k_ptr, v_ptr, o_ptr, sm_scale, Z, H, N_CTX,
                  stride_z, stride_h, stride_n,
                  HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    start_m = tl.program_id(0)
    off_zh = tl.program_id(1)
    base = (off_zh // H) * stride_z + (off_zh % H) * stride_h
    rm = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = tl.arange(0, BLOCK_N)
    rd = tl.arange(0, HEAD_DIM)
    q = tl.load(q_ptr + base + rm[:, None] * stride_n + rd[None, :], mask=rm[:, None] < N_CTX, other=0.0)
    m_i = tl.full((BLOCK_M,), float("-inf"), tl.float32)
    l_i = tl.zeros((BLOCK_M,), tl.float32)
    acc = tl.zeros((BLOCK_M, HEAD_DIM), tl.float32)
    qk_scale = sm_scale * 1.44269504  # log2(e): exp2 below
    for start_n in range(0, N_CTX, BLOCK_N):
        cols = start_n + rn
        k = tl.load(k_ptr + base + cols[None, :] * stride_n + rd[:, None], mask=cols[None, :] < N_CTX, other=0.0)
        qk = tl.dot(q, k) * qk_scale
        qk = tl.where(cols[None, :] < N_CTX, qk, float("-inf"))
        m_new = tl.maximum(m_i, tl.max(qk, 1))
        p = tl.math.exp2(qk - m_new[:, None])
        alpha = tl.math.exp2(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, 1)
        v = tl.load(v_ptr + base + cols[:, None] * stride_n + rd[None, :], mask=cols[:, None] < N_CTX, other=0.0)
        acc = acc * alpha[:, None] + tl.dot(p.to(v.dtype), v)
        m_i = m_new
    acc = acc / l_i[:, None]
    tl.store(o_ptr + base + rm[:, None] * stride_n + rd[None, :], acc.to(o_ptr.dtype.element_ty),
             mask=rm[:, None] < N_CTX)


def attention(q, k, v, config):
    import torch

    bm, bn, warps, stages = config
    z, h, n, d = q.shape
    o = torch.empty_like(q)
    grid = (triton.cdiv(n, bm), z * h)
    attention_fwd[grid](q, k, v, o, d ** -0.5, z, h, n, q.stride(0), q.stride(1), q.stride(2),
                        HEAD_DIM=d, BLOCK_M=bm, BLOCK_N=bn, num_warps=warps, num_stages=stages)
    return o


def main(argv=None):
    import torch

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="2 configurations, the short sequence only")
    args = ap.parse_args(argv)
    configs = CONFIGS[:2] if args.quick else CONFIGS
    shapes = SHAPES[1:] if args.quick else SHAPES
    g = torch.Generator(device="cuda").manual_seed(11)
    worst = 0.0
    for z, h, n, d in shapes:
        q, k, v = (torch.randn(z, h, n, d, device="cuda", dtype=torch.float16, generator=g) for _ in range(3))
        ref = torch.nn.functional.scaled_dot_product_attention(q.float(), k.float(), v.float())
        for config in configs:
            try:
                o = attention(q, k, v, config)
            except triton.runtime.errors.OutOfResources as e:
                print(f"{z}x{h}x{n}x{d} {config}: skipped ({e})")
                continue
            rel = ((o.float() - ref).norm() / ref.norm()).item()
            worst = max(worst, rel)
            if not rel < 1e-2:
                raise SystemExit(f"{z}x{h}x{n}x{d} {config}: relative error {rel:.2e}")
    torch.cuda.synchronize()
    print(f"attention: {len(configs)} configs x {len(shapes)} shapes, worst relative error vs float32 {worst:.2e}")


if __name__ == "__main__":
    main()
