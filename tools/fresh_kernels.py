"""Held-out robustness sweep: ~30 small Triton kernels of kinds the other generators lack, compiled by a real Triton.

The other generators (tools/refgen/*.py, tools/triton36_kernels.py, tools/blackwell_gemms.py, examples/) cover
plain GEMMs, flash attention, layernorm forward, softmax, simple scans and sorts.  These kernels exercise what
they do not: online softmax, cross-entropy, layernorm backward with atomics, rotary embedding, top-k, 2-D
gather, tuple reductions and scans, split/join/interleave/reshape/permute, fp8/int8/int4 matmuls, transposed
dot operands, persistent loops with `tl.range(flatten=..., warp_specialize=...)`, device-side tensor
descriptors, `tl.dot_scaled` with e2m1, batched 3-D dots, 16x16 dots, grouped and split-K GEMMs.

Run with the Python of a real Triton (no GPU needed; targets are explicit), from the repository root:

    /work/venvs/t3.9.0/bin/python tools/fresh_kernels.py --out /tmp/fresh [--targets cuda:80,hip:gfx942] [--jobs 2]
    /work/venvs/xpu/bin/python tools/fresh_kernels.py --out /tmp/fresh --targets xpu:pvc    # Intel PVC

It writes `<out>/<triton version>/<target>/<name>.ttgir` (the text Triton writes to its cache) and
`<out>/<triton version>/index.json`: per kernel and target, `shared` (the compiler's `metadata.shared`) or the
compiler's error (a combination it rejects).  The check of irkit on these files is tools/fresh_sweep.py.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import traceback
from concurrent.futures import ProcessPoolExecutor

import triton
import triton.language as tl
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource

TARGETS = ("cuda:80", "cuda:90", "cuda:100", "hip:gfx942", "hip:gfx950")


@triton.jit
def online_softmax(X, Y, stride, N, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    m = tl.full([BLOCK], float("-inf"), tl.float32)
    s = tl.zeros([BLOCK], tl.float32)
    for start in range(0, N, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(X + row * stride + cols, mask=cols < N, other=float("-inf")).to(tl.float32)
        m_new = tl.maximum(m, x)
        s = s * tl.exp(m - m_new) + tl.exp(x - m_new)
        m = m_new
    mx = tl.max(m, 0)
    total = tl.sum(s * tl.exp(m - mx), 0)
    for start in range(0, N, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(X + row * stride + cols, mask=cols < N, other=float("-inf")).to(tl.float32)
        tl.store(Y + row * stride + cols, (tl.exp(x - mx) / total).to(Y.dtype.element_ty), mask=cols < N)


@triton.jit
def cross_entropy_fwd(Logits, Labels, Loss, stride, V, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    label = tl.load(Labels + row)
    m = float("-inf")
    s = 0.0
    for start in range(0, V, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(Logits + row * stride + cols, mask=cols < V, other=float("-inf")).to(tl.float32)
        m_new = tl.maximum(m, tl.max(x, 0))
        s = s * tl.exp(m - m_new) + tl.sum(tl.exp(x - m_new), 0)
        m = m_new
    target = tl.load(Logits + row * stride + label).to(tl.float32)
    tl.store(Loss + row, tl.log(s) + m - target)


@triton.jit
def layernorm_bwd(DY, X, W, Mean, Rstd, DX, DW, DB, stride, N, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < N
    x = tl.load(X + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
    dy = tl.load(DY + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
    w = tl.load(W + cols, mask=mask).to(tl.float32)
    mean = tl.load(Mean + row)
    rstd = tl.load(Rstd + row)
    xhat = tl.where(mask, (x - mean) * rstd, 0.0)
    wdy = tl.where(mask, w * dy, 0.0)
    c1 = tl.sum(xhat * wdy, axis=0) / N
    c2 = tl.sum(wdy, axis=0) / N
    dx = (wdy - (xhat * c1 + c2)) * rstd
    tl.store(DX + row * stride + cols, dx.to(DX.dtype.element_ty), mask=mask)
    tl.atomic_add(DW + cols, dy * xhat, mask=mask)
    tl.atomic_add(DB + cols, dy, mask=mask)


@triton.jit
def rmsnorm_rows(X, Y, W, stride, N, eps, ROWS: tl.constexpr, BLOCK: tl.constexpr):
    rows = tl.program_id(0) * ROWS + tl.arange(0, ROWS)
    cols = tl.arange(0, BLOCK)
    mask = cols[None, :] < N
    x = tl.load(X + rows[:, None] * stride + cols[None, :], mask=mask, other=0.0).to(tl.float32)
    rstd = tl.rsqrt(tl.sum(x * x, axis=1) / N + eps)
    w = tl.load(W + cols, mask=cols < N).to(tl.float32)
    tl.store(Y + rows[:, None] * stride + cols[None, :], (x * rstd[:, None] * w[None, :]).to(Y.dtype.element_ty),
             mask=mask)


@triton.jit
def rotary_interleaved(X, Cos, Sin, Y, stride, HALF: tl.constexpr, ROWS: tl.constexpr):
    rows = tl.program_id(0) * ROWS + tl.arange(0, ROWS)
    pairs = tl.arange(0, HALF)
    offs = rows[:, None] * stride + 2 * pairs[None, :]
    x = tl.load(X + tl.join(offs, offs + 1)).to(tl.float32)   # [ROWS, HALF, 2]
    x0, x1 = tl.split(x)
    c = tl.load(Cos + rows[:, None] * HALF + pairs[None, :])
    s = tl.load(Sin + rows[:, None] * HALF + pairs[None, :])
    y = tl.interleave(x0 * c - x1 * s, x1 * c + x0 * s)       # [ROWS, 2 * HALF]
    tl.store(Y + rows[:, None] * stride + tl.arange(0, 2 * HALF)[None, :], y.to(Y.dtype.element_ty))


@triton.jit
def topk_rows(X, Vals, stride, N: tl.constexpr, K: tl.constexpr, ROWS: tl.constexpr):
    rows = tl.program_id(0) * ROWS + tl.arange(0, ROWS)
    x = tl.load(X + rows[:, None] * stride + tl.arange(0, N)[None, :])
    top = tl.topk(x, K, dim=1)
    tl.store(Vals + rows[:, None] * K + tl.arange(0, K)[None, :], top)


@triton.jit
def sort_desc_2d(X, Y, N: tl.constexpr, ROWS: tl.constexpr):
    offs = tl.arange(0, ROWS)[:, None] * N + tl.arange(0, N)[None, :]
    x = tl.load(X + offs)
    tl.store(Y + offs, tl.flip(tl.sort(x, dim=1, descending=True), 1))


@triton.jit
def gather_cols(Src, Idx, Out, N: tl.constexpr, M: tl.constexpr, ROWS: tl.constexpr):
    rows = tl.arange(0, ROWS)
    src = tl.load(Src + rows[:, None] * N + tl.arange(0, N)[None, :])
    idx = tl.load(Idx + rows[:, None] * M + tl.arange(0, M)[None, :])
    tl.store(Out + rows[:, None] * M + tl.arange(0, M)[None, :], tl.gather(src, idx, axis=1))


@triton.jit
def atomic_histogram(X, Hist, n, NBINS: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(X + offs, mask=offs < n, other=0)
    tl.atomic_add(Hist + (x % NBINS), 1, mask=offs < n)
    local = tl.histogram(x % NBINS, NBINS)
    tl.atomic_max(Hist + NBINS + tl.arange(0, NBINS), local)


@triton.jit
def _linrec(a1, b1, a2, b2):
    return a1 * a2, b1 * a2 + b2


@triton.jit
def linear_recurrence_scan(A, B, H, L: tl.constexpr, ROWS: tl.constexpr):
    offs = tl.arange(0, ROWS)[:, None] * L + tl.arange(0, L)[None, :]
    a = tl.load(A + offs)
    b = tl.load(B + offs)
    _, h = tl.associative_scan((a, b), 1, _linrec)
    tl.store(H + offs, h)


@triton.jit
def reverse_cumsum_cols(X, Y, R: tl.constexpr, C: tl.constexpr):
    offs = tl.arange(0, R)[:, None] * C + tl.arange(0, C)[None, :]
    x = tl.load(X + offs)
    y = tl.cumsum(x, axis=0, reverse=True) + tl.cumprod(x, axis=1)
    tl.store(Y + offs, y)


@triton.jit
def reshape_permute_3d(X, Y, A: tl.constexpr, B: tl.constexpr, C: tl.constexpr):
    x = tl.load(X + tl.arange(0, A * B * C))
    x3 = tl.reshape(x, [A, B, C])
    y = tl.permute(x3, (2, 0, 1)) * 2.0
    ya = tl.arange(0, C)[:, None, None] * (A * B) + tl.arange(0, A)[None, :, None] * B + tl.arange(0, B)[None, None, :]
    tl.store(Y + ya, y)


@triton.jit
def trans_reduce(X, Y, Z, M: tl.constexpr, N: tl.constexpr):
    x = tl.load(X + tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :])
    t = tl.trans(x)
    tl.store(Y + tl.arange(0, N)[:, None] * M + tl.arange(0, M)[None, :], t)
    tl.store(Z + tl.arange(0, N), tl.max(t, axis=1))


@triton.jit
def cat_halves(X, Y, N: tl.constexpr):
    a = tl.load(X + tl.arange(0, N))
    b = tl.load(X + N + tl.arange(0, N))
    tl.store(Y + tl.arange(0, 2 * N), tl.cat(b, a, can_reorder=True))


@triton.jit
def welford_rows(X, Mean, Var, stride, N: tl.constexpr, ROWS: tl.constexpr):
    rows = tl.program_id(0) * ROWS + tl.arange(0, ROWS)
    x = tl.load(X + rows[:, None] * stride + tl.arange(0, N)[None, :]).to(tl.float32)
    count = tl.full([ROWS, N], 1.0, tl.float32)
    mean, m2, cnt = tl.reduce((x, tl.zeros_like(x), count), 1, _welford_combine)
    tl.store(Mean + rows, mean)
    tl.store(Var + rows, m2 / cnt)


@triton.jit
def _welford_combine(mean1, m21, n1, mean2, m22, n2):
    n = n1 + n2
    delta = mean2 - mean1
    frac = tl.where(n == 0.0, 0.0, n2 / n)
    return mean1 + delta * frac, m21 + m22 + delta * delta * n1 * frac, n


@triton.jit
def argmin_3d(X, Out, A: tl.constexpr, B: tl.constexpr, C: tl.constexpr):
    offs = tl.arange(0, A)[:, None, None] * (B * C) + tl.arange(0, B)[None, :, None] * C + tl.arange(0, C)[None, None, :]
    x = tl.load(X + offs)
    tl.store(Out + tl.arange(0, A)[:, None] * C + tl.arange(0, C)[None, :], tl.argmin(x, axis=1))


@triton.jit
def group_norm(X, Y, HW, G: tl.constexpr, BLOCK: tl.constexpr, eps):
    n = tl.program_id(0)
    g = tl.arange(0, G)
    cols = tl.arange(0, BLOCK)
    offs = n * G * HW + g[:, None] * HW + cols[None, :]
    x = tl.load(X + offs, mask=cols[None, :] < HW, other=0.0).to(tl.float32)
    mean = tl.sum(x, axis=1) / HW
    xc = tl.where(cols[None, :] < HW, x - mean[:, None], 0.0)
    rstd = 1.0 / tl.sqrt(tl.sum(xc * xc, axis=1) / HW + eps)
    tl.store(Y + offs, (xc * rstd[:, None]).to(Y.dtype.element_ty), mask=cols[None, :] < HW)


@triton.jit
def softmax_bwd(P, DP, DS, stride, N, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    p = tl.load(P + row * stride + cols, mask=cols < N, other=0.0).to(tl.float32)
    dp = tl.load(DP + row * stride + cols, mask=cols < N, other=0.0).to(tl.float32)
    ds = p * (dp - tl.sum(p * dp, 0))
    tl.store(DS + row * stride + cols, ds.to(DS.dtype.element_ty), mask=cols < N)


@triton.jit
def _mm_loop(a_ptrs, b_ptrs, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, stride_ak, stride_bk):
    acc = tl.zeros([BM, BN], tl.float32)
    for _ in range(0, K, BK):
        acc += tl.dot(tl.load(a_ptrs), tl.load(b_ptrs))
        a_ptrs += BK * stride_ak
        b_ptrs += BK * stride_bk
    return acc


@triton.jit
def fp8_scaled_matmul(A, B, C, SA, SB, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = _mm_loop(A + rm[:, None] * K + rk[None, :], B + rk[:, None] * N + rn[None, :], K, BM, BN, BK, 1, N)
    acc = acc * tl.load(SA + rm)[:, None] * tl.load(SB + rn)[None, :]
    tl.store(C + rm[:, None] * N + rn[None, :], acc.to(tl.bfloat16))


@triton.jit
def int8_dequant_matmul(A, B, C, SA, SB, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros([BM, BN], tl.int32)
    for k in range(0, K, BK):
        a = tl.load(A + rm[:, None] * K + (k + rk)[None, :])
        b = tl.load(B + (k + rk)[:, None] * N + rn[None, :])
        acc += tl.dot(a, b, out_dtype=tl.int32)
    out = acc.to(tl.float32) * tl.load(SA + rm)[:, None] * tl.load(SB + rn)[None, :]
    tl.store(C + rm[:, None] * N + rn[None, :], out.to(tl.float16))


@triton.jit
def int4_weight_matmul(A, Bq, C, Scale, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk2 = tl.arange(0, BK // 2)
    acc = tl.zeros([BM, BN], tl.float32)
    for k in range(0, K, BK):
        a = tl.load(A + rm[:, None] * K + k + tl.arange(0, BK)[None, :])
        packed = tl.load(Bq + (k // 2 + rk2)[:, None] * N + rn[None, :])      # [BK/2, BN] int8
        lo = (packed << 4) >> 4
        hi = packed >> 4
        w = tl.reshape(tl.permute(tl.join(lo, hi), (0, 2, 1)), [BK, BN])     # [BK, BN]
        acc += tl.dot(a, w.to(tl.float16))
    acc *= tl.load(Scale + rn)[None, :]
    tl.store(C + rm[:, None] * N + rn[None, :], acc.to(tl.float16))


@triton.jit
def matmul_trans_a(A, B, C, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    # A is stored K-major ([K, M]); the tile is loaded as [BK, BM] and transposed for the dot
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros([BM, BN], tl.float32)
    for k in range(0, K, BK):
        at = tl.load(A + (k + rk)[:, None] * M + rm[None, :])
        b = tl.load(B + (k + rk)[:, None] * N + rn[None, :])
        acc += tl.dot(tl.trans(at), b)
    tl.store(C + rm[:, None] * N + rn[None, :], acc.to(tl.float16))


@triton.jit
def matmul_trans_both(A, B, C, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    # C^T = B^T A^T: both operands are transposed views of row-major tiles
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros([BN, BM], tl.float32)
    for k in range(0, K, BK):
        a = tl.load(A + rm[:, None] * K + (k + rk)[None, :])       # [BM, BK]
        bt = tl.load(B + rn[:, None] * K + (k + rk)[None, :])      # [BN, BK]
        acc = tl.dot(bt, tl.trans(a), acc)
    tl.store(C + rn[:, None] * M + rm[None, :], acc.to(tl.bfloat16))


@triton.jit
def persistent_flatten(A, B, C, M, N, K, NUM_SMS: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr,
                       BK: tl.constexpr):
    tiles_n = tl.cdiv(N, BN)
    tiles = tl.cdiv(M, BM) * tiles_n
    for tile in tl.range(tl.program_id(0), tiles, NUM_SMS, flatten=True):
        rm = (tile // tiles_n) * BM + tl.arange(0, BM)
        rn = (tile % tiles_n) * BN + tl.arange(0, BN)
        rk = tl.arange(0, BK)
        acc = tl.zeros([BM, BN], tl.float32)
        for k in range(0, K, BK):
            a = tl.load(A + rm[:, None] * K + (k + rk)[None, :], mask=(k + rk)[None, :] < K, other=0.0)
            b = tl.load(B + (k + rk)[:, None] * N + rn[None, :], mask=(k + rk)[:, None] < K, other=0.0)
            acc = tl.dot(a, b, acc)
        tl.store(C + rm[:, None] * N + rn[None, :], acc.to(tl.float16), mask=(rm[:, None] < M) & (rn[None, :] < N))


@triton.jit
def persistent_desc_ws(A, B, C, M, N, K, NUM_SMS: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr,
                       BK: tl.constexpr):
    a_desc = tl.make_tensor_descriptor(A, [M, K], [K, 1], [BM, BK])
    b_desc = tl.make_tensor_descriptor(B, [N, K], [K, 1], [BN, BK])
    c_desc = tl.make_tensor_descriptor(C, [M, N], [N, 1], [BM, BN])
    tiles_n = tl.cdiv(N, BN)
    tiles = tl.cdiv(M, BM) * tiles_n
    for tile in tl.range(tl.program_id(0), tiles, NUM_SMS, flatten=True, warp_specialize=True):
        om = (tile // tiles_n) * BM
        on = (tile % tiles_n) * BN
        acc = tl.zeros([BM, BN], tl.float32)
        for k in range(0, K, BK):
            acc = tl.dot(a_desc.load([om, k]), b_desc.load([on, k]).T, acc)
        c_desc.store([om, on], acc.to(tl.float16))


@triton.jit
def desc_gemm_epilogue(A, B, C, Bias, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    a_desc = tl.make_tensor_descriptor(A, [M, K], [K, 1], [BM, BK])
    b_desc = tl.make_tensor_descriptor(B, [K, N], [N, 1], [BK, BN])
    om = tl.program_id(0) * BM
    on = tl.program_id(1) * BN
    acc = tl.zeros([BM, BN], tl.float32)
    for k in tl.range(0, K, BK, num_stages=3):
        acc = tl.dot(a_desc.load([om, k]), b_desc.load([k, on]), acc)
    acc += tl.load(Bias + on + tl.arange(0, BN))[None, :]
    c_desc = tl.make_tensor_descriptor(C, [M, N], [N, 1], [BM, BN])
    c_desc.store([om, on], tl.maximum(acc, 0.0).to(tl.bfloat16))


@triton.jit
def dot_scaled_e2m1(A, AS, B, BS, C, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    # mxfp4 x mxfp4: two e2m1 values per byte along K, one e8m0 scale per 32 values
    a = tl.load(A + tl.arange(0, BM)[:, None] * (BK // 2) + tl.arange(0, BK // 2)[None, :])
    b = tl.load(B + tl.arange(0, BK // 2)[:, None] * BN + tl.arange(0, BN)[None, :])
    sa = tl.load(AS + tl.arange(0, BM)[:, None] * (BK // 32) + tl.arange(0, BK // 32)[None, :])
    sb = tl.load(BS + tl.arange(0, BN)[:, None] * (BK // 32) + tl.arange(0, BK // 32)[None, :])
    c = tl.dot_scaled(a, sa, "e2m1", b, sb, "e2m1")
    tl.store(C + tl.arange(0, BM)[:, None] * BN + tl.arange(0, BN)[None, :], c)


@triton.jit
def dot_scaled_bf16_e4m3(A, B, BS, C, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    a = tl.load(A + tl.arange(0, BM)[:, None] * BK + tl.arange(0, BK)[None, :])
    b = tl.load(B + tl.arange(0, BK)[:, None] * BN + tl.arange(0, BN)[None, :])
    sb = tl.load(BS + tl.arange(0, BN)[:, None] * (BK // 32) + tl.arange(0, BK // 32)[None, :])
    c = tl.dot_scaled(a, None, "bf16", b, sb, "e4m3")
    tl.store(C + tl.arange(0, BM)[:, None] * BN + tl.arange(0, BN)[None, :], c.to(tl.bfloat16))


@triton.jit
def batched_matmul_3d(A, B, C, BATCH: tl.constexpr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    bb = tl.arange(0, BATCH)[:, None, None]
    a = tl.load(A + bb * (M * K) + tl.arange(0, M)[None, :, None] * K + tl.arange(0, K)[None, None, :])
    b = tl.load(B + bb * (K * N) + tl.arange(0, K)[None, :, None] * N + tl.arange(0, N)[None, None, :])
    c = tl.dot(a, b)
    tl.store(C + bb * (M * N) + tl.arange(0, M)[None, :, None] * N + tl.arange(0, N)[None, None, :], c)


@triton.jit
def small_dot_16(A, B, C, D):
    r = tl.arange(0, 16)
    a = tl.load(A + r[:, None] * 16 + r[None, :])
    b = tl.load(B + r[:, None] * 16 + r[None, :])
    c = tl.dot(a, b)
    d = tl.dot(c.to(tl.float16), b, input_precision="ieee")
    tl.store(C + r[:, None] * 16 + r[None, :], c)
    tl.store(D + r[:, None] * 16 + r[None, :], d.to(tl.float16))


@triton.jit
def grouped_gemm(APtrs, BPtrs, CPtrs, Sizes, GROUPS: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr,
                 BK: tl.constexpr):
    pid = tl.program_id(0)
    for g in range(GROUPS):
        m = tl.load(Sizes + 3 * g)
        n = tl.load(Sizes + 3 * g + 1)
        k = tl.load(Sizes + 3 * g + 2)
        a_ptr = tl.load(APtrs + g).to(tl.pointer_type(tl.float16))
        b_ptr = tl.load(BPtrs + g).to(tl.pointer_type(tl.float16))
        c_ptr = tl.load(CPtrs + g).to(tl.pointer_type(tl.float16))
        tiles_n = tl.cdiv(n, BN)
        if pid < tl.cdiv(m, BM) * tiles_n:
            rm = (pid // tiles_n) * BM + tl.arange(0, BM)
            rn = (pid % tiles_n) * BN + tl.arange(0, BN)
            rk = tl.arange(0, BK)
            acc = tl.zeros([BM, BN], tl.float32)
            for kk in range(0, k, BK):
                a = tl.load(a_ptr + rm[:, None] * k + (kk + rk)[None, :])
                b = tl.load(b_ptr + (kk + rk)[:, None] * n + rn[None, :])
                acc += tl.dot(a, b)
            tl.store(c_ptr + rm[:, None] * n + rn[None, :], acc.to(tl.float16))


@triton.jit
def splitk_matmul(A, B, C, M, N, K, SPLIT: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.program_id(2) * BK + tl.arange(0, BK)
    acc = tl.zeros([BM, BN], tl.float32)
    for k in range(0, K, BK * SPLIT):
        a = tl.load(A + rm[:, None] * K + (k + rk)[None, :])
        b = tl.load(B + (k + rk)[:, None] * N + rn[None, :])
        acc += tl.dot(a, b)
    tl.atomic_add(C + rm[:, None] * N + rn[None, :], acc)


@triton.jit
def dot_fp16_acc_tf32(A, B, C, X, Y, Z, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    ra = tl.arange(0, BM)[:, None] * BK + tl.arange(0, BK)[None, :]
    rb = tl.arange(0, BK)[:, None] * BN + tl.arange(0, BN)[None, :]
    rc = tl.arange(0, BM)[:, None] * BN + tl.arange(0, BN)[None, :]
    c = tl.dot(tl.load(A + ra), tl.load(B + rb), out_dtype=tl.float16)
    tl.store(C + rc, c)
    z = tl.dot(tl.load(X + ra), tl.load(Y + rb), input_precision="tf32")
    tl.store(Z + rc, z)


@triton.jit
def lock_reduce_rows(X, Out, Lock, stride, N, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    part = tl.load(X + row * stride + cols, mask=cols < N, other=0.0).to(tl.float32)
    while tl.atomic_cas(Lock, 0, 1) == 1:
        pass
    acc = tl.load(Out + cols, mask=cols < N, other=0.0)
    tl.store(Out + cols, acc + part, mask=cols < N)
    tl.debug_barrier()
    tl.atomic_xchg(Lock, 0)


F16 = "*fp16"
F32 = "*fp32"
GEMM = {"A": F16, "B": F16, "C": F16, "M": "i32", "N": "i32", "K": "i32"}
# name: kernel, signature (non-constexpr arguments), constexprs, num_warps, num_stages
CASES: dict[str, tuple] = {
    "online_softmax": (online_softmax, {"X": F16, "Y": F16, "stride": "i32", "N": "i32"}, {"BLOCK": 1024}, 4, 1),
    "cross_entropy_fwd": (cross_entropy_fwd, {"Logits": "*bf16", "Labels": "*i64", "Loss": F32, "stride": "i32",
                                              "V": "i32"}, {"BLOCK": 2048}, 8, 1),
    "layernorm_bwd": (layernorm_bwd, {"DY": F16, "X": F16, "W": F16, "Mean": F32, "Rstd": F32, "DX": F16, "DW": F32,
                                      "DB": F32, "stride": "i32", "N": "i32"}, {"BLOCK": 512}, 4, 1),
    "rmsnorm_rows": (rmsnorm_rows, {"X": "*bf16", "Y": "*bf16", "W": "*bf16", "stride": "i32", "N": "i32",
                                    "eps": "fp32"}, {"ROWS": 4, "BLOCK": 256}, 4, 1),
    "rotary_interleaved": (rotary_interleaved, {"X": F16, "Cos": F32, "Sin": F32, "Y": F16, "stride": "i32"},
                           {"HALF": 32, "ROWS": 16}, 4, 1),
    "topk_rows": (topk_rows, {"X": F32, "Vals": F32, "stride": "i32"}, {"N": 128, "K": 8, "ROWS": 8}, 4, 1),
    "sort_desc_2d": (sort_desc_2d, {"X": "*i32", "Y": "*i32"}, {"N": 64, "ROWS": 16}, 4, 1),
    "gather_cols": (gather_cols, {"Src": F32, "Idx": "*i32", "Out": F32}, {"N": 64, "M": 32, "ROWS": 32}, 4, 1),
    "atomic_histogram": (atomic_histogram, {"X": "*i32", "Hist": "*i32", "n": "i32"}, {"NBINS": 64, "BLOCK": 1024},
                         4, 1),
    "linear_recurrence_scan": (linear_recurrence_scan, {"A": F32, "B": F32, "H": F32}, {"L": 128, "ROWS": 8}, 4, 1),
    "reverse_cumsum_cols": (reverse_cumsum_cols, {"X": F32, "Y": F32}, {"R": 64, "C": 32}, 4, 1),
    "reshape_permute_3d": (reshape_permute_3d, {"X": F32, "Y": F32}, {"A": 4, "B": 16, "C": 8}, 4, 1),
    "trans_reduce": (trans_reduce, {"X": F16, "Y": F16, "Z": F16}, {"M": 64, "N": 32}, 4, 1),
    "cat_halves": (cat_halves, {"X": F32, "Y": F32}, {"N": 256}, 4, 1),
    "welford_rows": (welford_rows, {"X": F16, "Mean": F32, "Var": F32, "stride": "i32"}, {"N": 256, "ROWS": 4}, 4, 1),
    "argmin_3d": (argmin_3d, {"X": F32, "Out": "*i32"}, {"A": 8, "B": 32, "C": 16}, 4, 1),
    "group_norm": (group_norm, {"X": F16, "Y": F16, "HW": "i32", "eps": "fp32"}, {"G": 8, "BLOCK": 256}, 4, 1),
    "softmax_bwd": (softmax_bwd, {"P": F16, "DP": F16, "DS": F16, "stride": "i32", "N": "i32"}, {"BLOCK": 4096}, 8, 1),
    "fp8_scaled_matmul": (fp8_scaled_matmul, {"A": "*fp8e4nv", "B": "*fp8e4nv", "C": "*bf16", "SA": F32, "SB": F32,
                                              "M": "i32", "N": "i32", "K": "i32"}, {"BM": 128, "BN": 64, "BK": 64}, 4, 3),
    "int8_dequant_matmul": (int8_dequant_matmul, {"A": "*i8", "B": "*i8", "C": F16, "SA": F32, "SB": F32, "M": "i32",
                                                  "N": "i32", "K": "i32"}, {"BM": 64, "BN": 64, "BK": 64}, 4, 3),
    "int4_weight_matmul": (int4_weight_matmul, {"A": F16, "Bq": "*i8", "C": F16, "Scale": F16, "M": "i32", "N": "i32",
                                                "K": "i32"}, {"BM": 64, "BN": 64, "BK": 64}, 4, 2),
    "matmul_trans_a": (matmul_trans_a, GEMM, {"BM": 64, "BN": 128, "BK": 32}, 4, 3),
    "matmul_trans_both": (matmul_trans_both, {**GEMM, "C": "*bf16"}, {"BM": 64, "BN": 64, "BK": 64}, 4, 2),
    "persistent_flatten": (persistent_flatten, GEMM, {"NUM_SMS": 132, "BM": 128, "BN": 128, "BK": 64}, 8, 3),
    "persistent_desc_ws": (persistent_desc_ws, GEMM, {"NUM_SMS": 132, "BM": 128, "BN": 128, "BK": 64}, 4, 3),
    "desc_gemm_epilogue": (desc_gemm_epilogue, {**GEMM, "C": "*bf16", "Bias": F32},
                           {"BM": 128, "BN": 64, "BK": 64}, 4, 3),
    "dot_scaled_e2m1": (dot_scaled_e2m1, {"A": "*u8", "AS": "*u8", "B": "*u8", "BS": "*u8", "C": F32},
                        {"BM": 128, "BN": 128, "BK": 128}, 4, 1),
    "dot_scaled_bf16_e4m3": (dot_scaled_bf16_e4m3, {"A": "*bf16", "B": "*fp8e4nv", "BS": "*u8", "C": "*bf16"},
                             {"BM": 64, "BN": 64, "BK": 64}, 4, 1),
    "batched_matmul_3d": (batched_matmul_3d, {"A": F16, "B": F16, "C": F32}, {"BATCH": 4, "M": 32, "N": 32, "K": 32},
                          4, 1),
    "small_dot_16": (small_dot_16, {"A": F16, "B": F16, "C": F32, "D": F16}, {}, 1, 1),
    "grouped_gemm": (grouped_gemm, {"APtrs": "*i64", "BPtrs": "*i64", "CPtrs": "*i64", "Sizes": "*i32"},
                     {"GROUPS": 4, "BM": 64, "BN": 64, "BK": 32}, 4, 2),
    "splitk_matmul": (splitk_matmul, {"A": F16, "B": F16, "C": F32, "M": "i32", "N": "i32", "K": "i32"},
                      {"SPLIT": 4, "BM": 64, "BN": 64, "BK": 32}, 4, 3),
    "dot_fp16_acc_tf32": (dot_fp16_acc_tf32, {"A": F16, "B": F16, "C": F16, "X": F32, "Y": F32, "Z": F32},
                          {"BM": 64, "BN": 32, "BK": 32}, 4, 1),
    "lock_reduce_rows": (lock_reduce_rows, {"X": F16, "Out": F32, "Lock": "*i32", "stride": "i32", "N": "i32"},
                         {"BLOCK": 1024}, 4, 1),
}


def _shorten(text: str) -> str:
    here = os.path.dirname(os.path.abspath(__file__))
    return text.replace(here + os.sep, "")


def compile_one(job: tuple[str, str, str]) -> dict:
    name, target, out = job
    kernel, signature, constexprs, warps, stages = CASES[name]
    backend, arch = target.split(":")
    if backend == "xpu":  # Intel's triton-xpu only: its PVC target, without the device probe
        from intel_xpu_kernels import PVC_TARGET as gpu
    else:
        gpu = GPUTarget(backend, arch if backend == "hip" else int(arch), 64 if backend == "hip" else 32)
    sig = {p: signature.get(p, "constexpr") for p in kernel.arg_names}
    rec: dict = {"name": name, "target": target, "num_warps": warps, "num_stages": stages, "constexprs": constexprs}
    try:
        compiled = triton.compile(ASTSource(kernel, sig, constexprs=constexprs), target=gpu,
                                  options={"num_warps": warps, "num_stages": stages})
    except Exception as e:  # the compiler rejects this combination: record why
        lines = [ln for ln in f"{type(e).__name__}: {e}".splitlines() if ln.strip()]
        rec["error"] = " | ".join(lines[-3:])[:500]
        rec["traceback_tail"] = traceback.format_exc()[-800:]
        return rec
    folder = os.path.join(out, triton.__version__, target.replace(":", "_"))
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, f"{name}.ttgir")
    with open(path, "w") as f:
        f.write(_shorten(compiled.asm["ttgir"]))
    rec["ttgir"] = os.path.relpath(path, out)
    rec["shared"] = compiled.metadata.shared
    return rec


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--targets", default=",".join(TARGETS))
    ap.add_argument("--only", default="", help="comma-separated kernel names (default: all)")
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    names = [n for n in CASES if not args.only or n in args.only.split(",")]
    jobs = [(n, t, args.out) for n in names for t in args.targets.split(",")]
    with ProcessPoolExecutor(args.jobs) as pool:
        records = list(pool.map(compile_one, jobs))
    for r in records:
        print(f"{r['target']:11} {r['name']:24} " + (f"shared={r['shared']}" if "shared" in r else f"REJECTED {r['error'][:150]}"))
    index = os.path.join(args.out, triton.__version__, "index.json")
    os.makedirs(os.path.dirname(index), exist_ok=True)
    with open(index, "w") as f:
        json.dump({"triton": triton.__version__, "cases": records}, f, indent=1, sort_keys=True)
        f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
