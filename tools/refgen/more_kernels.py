"""More of our own Triton kernels, written to cover the ops real Triton emits, compiled to TTIR and TTGIR by the
REAL compiler of each installed version (3.1, 3.3, 3.9) for several targets, on the CPU.

Output: `tests/data/kernels/<version>/<target>/<name>.{ttir,ttgir}` (target spelled `cuda_80`, `hip_gfx942`),
the text Triton writes to its cache (`str(module)`: custom syntax, locations kept), plus `index.json` with the
spec of every case and why a (kernel, version, target) was skipped.  Run from the repository root:

    /work/.venv-triton31/bin/python tools/refgen/more_kernels.py --out tests/data/kernels
    /work/.venv-triton33/bin/python tools/refgen/more_kernels.py --out tests/data/kernels
    /work/.venv-triton39/bin/python tools/refgen/more_kernels.py --out tests/data/kernels
    ... --only attention --targets cuda:90            # a subset; --list shows the specs

The kernels use only the language features of the version that compiles them (`versions` of each spec);
where an API changed between versions the kernel body branches on `tl` attributes at Python level
(`triton.jit` specialises on constexpr globals, see `_V`).  Source paths inside locations are shortened as in
the other refgen data (`tools/refgen/more_kernels.py`, `/opt/venv/lib/python3.11/site-packages/triton/...`).
"""
import argparse
import json
import os
import re
import sys
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
os.environ.setdefault("TRITON_DEFAULT_FP_FUSION", "1")

import triton  # noqa: E402
import triton.language as tl  # noqa: E402

VERSION = tuple(int(x) for x in triton.__version__.split(".")[:2])
V = tl.constexpr(VERSION[0] * 100 + VERSION[1])  # 301, 303, 309: a global constexpr the kernels branch on
from triton.language.extra import libdevice  # noqa: E402

# -- kernels ----------------------------------------------------------------------------------------------------


@triton.jit
def attention_fwd(Q, K, V_, Out, M_out, stride_qm, stride_kn, stride_vn, stride_om, N_CTX, sm_scale,
                  BM: tl.constexpr, BN: tl.constexpr, D: tl.constexpr, CAUSAL: tl.constexpr):
    """flash attention forward: two dots, online softmax, causal mask, exp2, log2 of the row sums"""
    start_m = tl.program_id(0)
    off_h = tl.program_id(1).to(tl.int64)
    offs_m = start_m * BM + tl.arange(0, BM)
    offs_n = tl.arange(0, BN)
    offs_d = tl.arange(0, D)
    Q += off_h * N_CTX * stride_qm
    K += off_h * N_CTX * stride_kn
    V_ += off_h * N_CTX * stride_vn
    q = tl.load(Q + offs_m[:, None] * stride_qm + offs_d[None, :])
    m_i = tl.zeros([BM], dtype=tl.float32) - float("inf")
    l_i = tl.zeros([BM], dtype=tl.float32) + 1.0
    acc = tl.zeros([BM, D], dtype=tl.float32)
    qk_scale = sm_scale * 1.44269504
    hi = N_CTX
    if CAUSAL:
        hi = (start_m + 1) * BM
    for start_n in range(0, hi, BN):
        k = tl.load(K + (start_n + offs_n)[None, :] * stride_kn + offs_d[:, None])
        qk = tl.dot(q, k)
        if CAUSAL:
            qk = tl.where(offs_m[:, None] >= (start_n + offs_n)[None, :], qk, float("-inf"))
        m_ij = tl.maximum(m_i, tl.max(qk, 1) * qk_scale)
        p = tl.math.exp2(qk * qk_scale - m_ij[:, None])
        alpha = tl.math.exp2(m_i - m_ij)
        l_i = l_i * alpha + tl.sum(p, 1)
        v = tl.load(V_ + (start_n + offs_n)[:, None] * stride_vn + offs_d[None, :])
        acc = acc * alpha[:, None] + tl.dot(p.to(v.dtype), v)
        m_i = m_ij
    m_i += tl.math.log2(l_i)
    tl.store(M_out + off_h * N_CTX + offs_m, m_i)
    tl.store(Out + off_h * N_CTX * stride_om + offs_m[:, None] * stride_om + offs_d[None, :],
             (acc / l_i[:, None]).to(Out.dtype.element_ty))


@triton.jit
def layernorm_fwd_bwd(X, Y, W, B, DY, DX, Mean, Rstd, stride, N, eps, BLOCK: tl.constexpr):
    """one row per program: mean/var reductions, rsqrt, then the input gradient (two more reductions)"""
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < N
    x = tl.load(X + row * stride + cols, mask=mask, other=0.).to(tl.float32)
    mean = tl.sum(x, axis=0) / N
    xc = tl.where(mask, x - mean, 0.)
    var = tl.sum(xc * xc, axis=0) / N
    rstd = tl.math.rsqrt(var + eps)
    w = tl.load(W + cols, mask=mask).to(tl.float32)
    b = tl.load(B + cols, mask=mask).to(tl.float32)
    xhat = xc * rstd
    tl.store(Y + row * stride + cols, (xhat * w + b).to(Y.dtype.element_ty), mask=mask)
    tl.store(Mean + row, mean)
    tl.store(Rstd + row, rstd)
    dy = tl.load(DY + row * stride + cols, mask=mask, other=0.).to(tl.float32)
    wdy = w * dy
    c1 = tl.sum(xhat * wdy, axis=0) / N
    c2 = tl.sum(wdy, axis=0) / N
    dx = (wdy - (xhat * c1 + c2)) * rstd
    tl.store(DX + row * stride + cols, dx.to(DX.dtype.element_ty), mask=mask)


@triton.jit
def _argmax_combine(v1, i1, v2, i2):
    gt = (v1 > v2) | ((v1 == v2) & (i1 < i2))
    return tl.where(gt, v1, v2), tl.where(gt, i1, i2)


@triton.jit
def _bitor(a, b):
    return a | b


@triton.jit
def reductions(X, OutMax, OutArg, OutMin, OutXor, OutOr, OutProd, M, N, stride,
               BM: tl.constexpr, BN: tl.constexpr):
    """2-D block: max/argmax (tuple reduce), min along the other axis, xor_sum, a custom combine, a
    multiplicative reduce and a full (scalar) reduction"""
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.arange(0, BN)
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    x = tl.load(X + rm[:, None] * stride + rn[None, :], mask=mask, other=0.)
    idx = tl.broadcast_to(rn[None, :], (BM, BN))
    vmax, imax = tl.reduce((x, idx), 1, _argmax_combine)
    tl.store(OutMax + rm, vmax, mask=rm < M)
    tl.store(OutArg + rm, imax, mask=rm < M)
    tl.store(OutMin + rn, tl.min(x, axis=0), mask=rn < N)
    xi = x.to(tl.int32, bitcast=True)
    tl.store(OutXor + rm, tl.xor_sum(xi, axis=1), mask=rm < M)
    tl.store(OutOr + rm, tl.reduce(xi, 1, _bitor), mask=rm < M)
    tl.atomic_add(OutProd, tl.sum(tl.reduce(x + 1.0, 1, _mul), axis=0))
    tl.store(OutArg + M + tl.program_id(0), tl.argmin(tl.sum(x, axis=1), axis=0))


@triton.jit
def _mul(a, b):
    return a * b


@triton.jit
def _pair_scan(a1, b1, a2, b2):
    """first-order linear recurrence h = a*h + b as an associative scan over (a, b)"""
    return a1 * a2, b1 * a2 + b2


@triton.jit
def scans(X, A, Y, Z, W, N, BLOCK: tl.constexpr):
    """cumsum, reversed cumprod, a two-input associative scan, and a 2-D scan along axis 0"""
    offs = tl.arange(0, BLOCK)
    row = tl.program_id(0)
    m = offs < N
    x = tl.load(X + row * N + offs, mask=m, other=0.)
    a = tl.load(A + row * N + offs, mask=m, other=1.)
    tl.store(Y + row * N + offs, tl.cumsum(x, axis=0), mask=m)
    tl.store(Z + row * N + offs, tl.cumprod(a, axis=0, reverse=True), mask=m)
    _, h = tl.associative_scan((a, x), 0, _pair_scan)
    tl.store(W + row * N + offs, h, mask=m)
    x2 = tl.reshape(x, (BLOCK // 16, 16))
    s2 = tl.cumsum(x2.to(tl.int32), axis=0)
    tl.store(W + N * 1024 + row * BLOCK + tl.arange(0, BLOCK // 16)[:, None] * 16 + tl.arange(0, 16)[None, :], s2)


@triton.jit
def histogram(X, Hist, N, BLOCK: tl.constexpr, BINS: tl.constexpr):
    """tt.histogram on values clamped into range, then atomically added into the global histogram"""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(X + offs, mask=offs < N, other=0)
    x = tl.minimum(tl.maximum(x, 0), BINS - 1)
    h = tl.histogram(x, BINS)
    tl.atomic_add(Hist + tl.arange(0, BINS), h, sem="relaxed")


@triton.jit
def atomics(P, Q, L, Cnt, X, N, BLOCK: tl.constexpr):
    """every tt.atomic_rmw kind with sems/scopes, atomic_cas spin lock around a critical section"""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < N
    x = tl.load(X + offs, mask=m, other=0)
    tl.atomic_add(P + offs, x, mask=m)
    tl.atomic_max(P + offs + N, x, mask=m, sem="acquire", scope="gpu")
    tl.atomic_min(P + offs + 2 * N, x, mask=m, sem="release", scope="cta")
    tl.atomic_and(P + offs + 3 * N, x, mask=m, sem="acq_rel", scope="sys")
    tl.atomic_or(P + offs + 4 * N, x, mask=m)
    tl.atomic_xor(P + offs + 5 * N, x, mask=m)
    old = tl.atomic_xchg(P + offs + 6 * N, x, mask=m)
    tl.atomic_max(Q + offs, old.to(tl.uint32), mask=m)
    tl.atomic_min(Q + offs + N, old.to(tl.uint32), mask=m)
    tl.atomic_add(Q.to(tl.pointer_type(tl.float32)) + 2 * N + offs, x.to(tl.float32), mask=m)
    while tl.atomic_cas(L, 0, 1, sem="acquire") == 1:
        pass
    c = tl.load(Cnt, volatile=True)
    tl.store(Cnt, c + 1, cache_modifier=".wt")
    tl.debug_barrier()
    tl.atomic_xchg(L, 0, sem="release")


@triton.jit
def fp8_casts(X16, Y8a, Y8b, Z32, N, BLOCK: tl.constexpr, F8A: tl.constexpr, F8B: tl.constexpr):
    """fp16/f32 <-> fp8 (both formats of the target), with explicit rounding, bitcasts of the bytes"""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < N
    x = tl.load(X16 + offs, mask=m, other=0.)
    a = x.to(F8A)
    b = x.to(tl.float32).to(F8B, fp_downcast_rounding="rtne")
    tl.store(Y8a + offs, a.to(tl.int8, bitcast=True), mask=m)
    tl.store(Y8b + offs, b, mask=m)
    tl.store(Z32 + offs, a.to(tl.float32) + b.to(tl.float16).to(tl.float32), mask=m)


@triton.jit
def dot_fp8(A, B, C, K, stride_am, stride_bk, stride_cm,
            BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    """fp8 x fp8 -> f32 dot (fp8 format of the target)"""
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = tl.load(A + rm[:, None] * stride_am + (k + rk)[None, :])
        b = tl.load(B + (k + rk)[:, None] * stride_bk + rn[None, :])
        acc = tl.dot(a, b, acc)
    tl.store(C + rm[:, None] * stride_cm + rn[None, :], acc.to(tl.float16))


@triton.jit
def dot_int8(A, B, C, K, stride_am, stride_bk, stride_cm,
             BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    """int8 x int8 -> int32 dot, software pipelined"""
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a_ptrs = A + rm[:, None] * stride_am + rk[None, :]
    b_ptrs = B + rk[:, None] * stride_bk + rn[None, :]
    acc = tl.zeros((BM, BN), dtype=tl.int32)
    for _k in range(0, K, BK):
        acc += tl.dot(tl.load(a_ptrs), tl.load(b_ptrs), out_dtype=tl.int32)
        a_ptrs += BK
        b_ptrs += BK * stride_bk
    tl.store(C + rm[:, None] * stride_cm + rn[None, :], acc)


@triton.jit
def dot_tf32x3(A, B, C, K, stride_am, stride_bk, stride_cm,
               BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, PREC: tl.constexpr):
    """f32 dots with two input precisions (tf32x3 where the target has it), masked K tail"""
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    acc2 = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        mk = (k + rk) < K
        a = tl.load(A + rm[:, None] * stride_am + (k + rk)[None, :], mask=mk[None, :], other=0.)
        b = tl.load(B + (k + rk)[:, None] * stride_bk + rn[None, :], mask=mk[:, None], other=0.)
        acc = tl.dot(a, b, acc, input_precision=PREC)
        acc2 = tl.dot(a, b, acc2, input_precision="ieee")
    tl.store(C + rm[:, None] * stride_cm + rn[None, :], acc + acc2)


@triton.jit
def batched_dot(A, B, C, BB: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    """3-D tt.dot"""
    rb = tl.arange(0, BB)
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a = tl.load(A + rb[:, None, None] * BM * BK + rm[None, :, None] * BK + rk[None, None, :])
    b = tl.load(B + rb[:, None, None] * BK * BN + rk[None, :, None] * BN + rn[None, None, :])
    c = tl.dot(a, b)
    tl.store(C + rb[:, None, None] * BM * BN + rm[None, :, None] * BN + rn[None, None, :], c)


@triton.jit
def matmul_pipelined(A, B, C, M, N, K, stride_am, stride_bk, stride_cm,
                     BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, GROUP_M: tl.constexpr,
                     STAGES: tl.constexpr):
    """grouped-ordering fp16 GEMM with a masked K loop, tl.range with num_stages, fused leaky-relu epilogue"""
    pid = tl.program_id(0)
    num_pid_m = tl.cdiv(M, BM)
    num_pid_n = tl.cdiv(N, BN)
    num_pid_in_group = GROUP_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_M)
    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m
    rm = (pid_m * BM + tl.arange(0, BM)) % M
    rn = (pid_n * BN + tl.arange(0, BN)) % N
    rm = tl.max_contiguous(tl.multiple_of(rm, BM), BM)
    rn = tl.max_contiguous(tl.multiple_of(rn, BN), BN)
    rk = tl.arange(0, BK)
    a_ptrs = A + rm[:, None] * stride_am + rk[None, :]
    b_ptrs = B + rk[:, None] * stride_bk + rn[None, :]
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in tl.range(0, tl.cdiv(K, BK), num_stages=STAGES):
        a = tl.load(a_ptrs, mask=rk[None, :] < K - k * BK, other=0.)
        b = tl.load(b_ptrs, mask=rk[:, None] < K - k * BK, other=0.)
        acc = tl.dot(a, b, acc)
        a_ptrs += BK
        b_ptrs += BK * stride_bk
    acc = tl.where(acc >= 0, acc, 0.01 * acc)
    c = acc.to(tl.float16)
    cm = pid_m * BM + tl.arange(0, BM)
    cn = pid_n * BN + tl.arange(0, BN)
    tl.store(C + cm[:, None] * stride_cm + cn[None, :], c, mask=(cm[:, None] < M) & (cn[None, :] < N))


@triton.jit
def block_ptr_matmul(A, B, C, M, N, K, stride_am, stride_bk, stride_cm,
                     BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    """block pointers with boundary checks and padding (3.1/3.3)"""
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    a_bp = tl.make_block_ptr(A, (M, K), (stride_am, 1), (pid_m * BM, 0), (BM, BK), (1, 0))
    b_bp = tl.make_block_ptr(B, (K, N), (stride_bk, 1), (0, pid_n * BN), (BK, BN), (1, 0))
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for _k in range(0, K, BK):
        a = tl.load(a_bp, boundary_check=(0, 1), padding_option="zero")
        b = tl.load(b_bp, boundary_check=(0,), padding_option="nan")
        acc += tl.dot(a, b)
        a_bp = tl.advance(a_bp, (0, BK))
        b_bp = tl.advance(b_bp, (BK, 0))
    c_bp = tl.make_block_ptr(C, (M, N), (stride_cm, 1), (pid_m * BM, pid_n * BN), (BM, BN), (1, 0))
    tl.store(c_bp, acc.to(tl.float16), boundary_check=(0, 1))


@triton.jit
def tensor_desc_matmul(A, B, C, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    """device-side tensor descriptors (3.3: _experimental_make_tensor_descriptor; 3.9: make_tensor_descriptor)"""
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    if V >= 309:
        a_desc = tl.make_tensor_descriptor(A, [M, K], [K, 1], [BM, BK])
        b_desc = tl.make_tensor_descriptor(B, [N, K], [K, 1], [BN, BK])
        c_desc = tl.make_tensor_descriptor(C, [M, N], [N, 1], [BM, BN])
    else:
        a_desc = tl._experimental_make_tensor_descriptor(A, [M, K], [K, 1], [BM, BK])
        b_desc = tl._experimental_make_tensor_descriptor(B, [N, K], [K, 1], [BN, BK])
        c_desc = tl._experimental_make_tensor_descriptor(C, [M, N], [N, 1], [BM, BN])
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in tl.range(0, K, BK, num_stages=3):
        a = a_desc.load([pid_m * BM, k])
        b = b_desc.load([pid_n * BN, k])
        acc = tl.dot(a, b.T, acc)
    c_desc.store([pid_m * BM, pid_n * BN], acc.to(tl.float16))


@triton.jit
def tma_desc_copy_31(in_desc, out_desc, BM: tl.constexpr, BN: tl.constexpr):
    """3.1 host-side TMA descriptors (tt.experimental_descriptor_load/store)"""
    off_m = tl.program_id(0) * BM
    x = tl._experimental_descriptor_load(in_desc, [off_m, 0], [BM, BN], tl.float16)
    tl._experimental_descriptor_store(out_desc, x * 2.0, [off_m, 0])


@triton.jit
def gather_rows(X, Idx, Out, N, stride, BM: tl.constexpr, BN: tl.constexpr):
    """tt.gather along both axes (3.3+)"""
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    x = tl.load(X + rm[:, None] * stride + rn[None, :])
    idx = tl.load(Idx + rm[:, None] * BN + rn[None, :]) % BN
    g1 = tl.gather(x, idx, axis=1)
    idx0 = (idx * 7 + 3) % BM
    g0 = tl.gather(x, idx0, axis=0)
    tl.store(Out + rm[:, None] * BN + rn[None, :], g1 + g0)


@triton.jit
def shapes(X, Y, Z, W, BM: tl.constexpr, BN: tl.constexpr):
    """join/split/interleave, trans/permute, reshape (also with can_reorder), cat, broadcast, expand_dims, flip"""
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    x = tl.load(X + rm[:, None] * BN + rn[None, :])
    y = tl.load(Y + rm[:, None] * BN + rn[None, :])
    j = tl.join(x, y)  # [BM, BN, 2]
    a, b = tl.split(tl.permute(j, (1, 0, 2)))  # [BN, BM] each
    t = tl.trans(a + b)  # [BM, BN]
    r = tl.reshape(t, (BM * BN // 4, 4))
    r = tl.reshape(r * 2.0, (BM, BN))
    il = tl.interleave(x, y)  # [BM, 2*BN]
    s = tl.sum(tl.reshape(il, (BM, BN, 2)), axis=2)
    c = tl.cat(tl.ravel(x), tl.ravel(y), can_reorder=True)
    tl.store(Z + tl.arange(0, 2 * BM * BN), c)
    tl.store(W + rm[:, None] * BN + rn[None, :], r + s + tl.flip(x, 1))
    tl.store(W + BM * BN + tl.arange(0, BM), tl.reshape(tl.sum(x, 1)[:, None], (BM,)))


@triton.jit
def sort_small(X, Y, BM: tl.constexpr, BN: tl.constexpr):
    """tl.sort (a bitonic network of reshapes, reductions and xors) on short rows"""
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    x = tl.load(X + rm[:, None] * BN + rn[None, :])
    tl.store(Y + rm[:, None] * BN + rn[None, :], tl.sort(x, descending=True))


@triton.jit
def inline_asm_ptx(X, Y, Z, N, BLOCK: tl.constexpr):
    """tt.elementwise_inline_asm with one and with two results, packed"""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(X + offs, mask=offs < N, other=0)
    y = tl.load(Y + offs, mask=offs < N, other=0)
    s = tl.inline_asm_elementwise("shf.l.wrap.b32 $0, $1, $2, $3;", "=r,r,r,r", [x, y, x & 31], dtype=tl.int32,
                                  is_pure=True, pack=1)
    b = x.to(tl.uint8)
    lo, hi = tl.inline_asm_elementwise(
        "{ .reg .b32 t; mov.b32 t, $2; mov.b32 $0, t; mov.b32 $1, t; }", "=r,=r,r", [b],
        dtype=(tl.int8, tl.int8), is_pure=False, pack=4)
    tl.store(Z + offs, s + lo.to(tl.int32) + hi.to(tl.int32), mask=offs < N)


@triton.jit
def print_assert(X, Y, N, BLOCK: tl.constexpr):
    """tt.print (scalar and tensor, hex) and tt.assert (compiled with debug=True)"""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(X + offs, mask=offs < N, other=0)
    tl.device_assert(x >= 0, "x must be non-negative")
    tl.device_print("pid", tl.program_id(0))
    tl.device_print("x=", x, hex=True)
    tl.device_print("x and offs", x, offs)
    tl.static_print("compile time", BLOCK)
    tl.store(Y + offs, x + 1, mask=offs < N)


@triton.jit
def libdevice_math(X, Y, Z, N, BLOCK: tl.constexpr):
    """tt.extern_elementwise through libdevice, math-dialect ops, precise sqrt/div, umulhi, fma, clamp"""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < N
    x = tl.load(X + offs, mask=m, other=1.)
    y = tl.load(Y + offs, mask=m, other=1.)
    a = libdevice.erf(x) + libdevice.pow(x, y) + libdevice.tanh(y) + libdevice.asin(x * 0.5)
    b = tl.sin(x) * tl.cos(y) + tl.exp(x) + tl.log(y * y + 1.0) + tl.sqrt(tl.abs(x)) + tl.math.rsqrt(y * y + 1.0)
    c = tl.floor(x) + tl.ceil(y) + tl.math.log2(tl.abs(y) + 1.0) + tl.math.exp2(x) + tl.math.erf(y)
    d = tl.math.fma(x, y, a) + tl.math.div_rn(x, y + 2.0) + tl.math.sqrt_rn(tl.abs(y))
    e = tl.clamp(d, -1.0, 1.0) + tl.maximum(a, b) + tl.minimum(b, c) + tl.fdiv(x, y + 3.0)
    u = tl.umulhi(offs.to(tl.uint32), 0x9E3779B9)
    f = (u >> 3).to(tl.float32) + (offs.to(tl.int64) * 3 // 7 % 5).to(tl.float32)
    g = libdevice.isnan(x).to(tl.float32) + tl.where(x != x, 0., 1.)
    tl.store(Z + offs, e + f + g + x.to(tl.float64).to(tl.float32), mask=m)


@triton.jit
def philox_dropout(X, Y, N, p, seed, BLOCK: tl.constexpr):
    """tl.rand (philox: many integer ops), dropout"""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < N
    x = tl.load(X + offs, mask=m)
    r = tl.rand(seed, offs, n_rounds=3)
    ri = tl.randint(seed, offs, n_rounds=2)
    keep = r > p
    tl.store(Y + offs, tl.where(keep, x / (1 - p), 0.0) + (ri & 1).to(tl.float32), mask=m)


@triton.jit
def while_loop(X, Y, Steps, N, BLOCK: tl.constexpr):
    """scf.while with a data-dependent condition, nested scf.if/else yielding values, scalar loop"""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(X + offs, mask=offs < N, other=1).to(tl.int32)
    steps = 0
    while tl.max(x, axis=0) > 1:
        odd = (x & 1) == 1
        x = tl.where(odd, 3 * x + 1, x >> 1)
        x = tl.where(x < 1, 1, x)
        steps += 1
        if steps > 1000:
            x = x * 0 + 1
    i = 0
    acc = 0
    while i < N:
        if i % 2 == 0:
            acc += i
        else:
            acc -= 1
        i += 3
    tl.store(Y + offs, x + acc, mask=offs < N)
    tl.store(Steps + tl.program_id(0), steps)


@triton.jit(noinline=True)
def _noinline_scale(x, s):
    return x * s


@triton.jit(noinline=True)
def _noinline_block(X, Y, N, pid, s, BLOCK: tl.constexpr):
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    tl.store(Y + offs, tl.load(X + offs, mask=offs < N) * s, mask=offs < N)


@triton.jit(noinline=True)
def _noinline_pair(a, b):
    return a + b, a - b


@triton.jit(noinline=True)
def _noinline_store_scalar(ptr, i, v):
    tl.store(ptr + i, v)


@triton.jit
def calls(X, Y, N, s, BLOCK: tl.constexpr):
    """several tt.func and tt.call (noinline helpers take scalars only: one result, two results, none; one
    helper works on blocks inside and is specialised on a constexpr)"""
    s2 = _noinline_scale(s, 2.0)
    a, b = _noinline_pair(s2, s)
    _noinline_store_scalar(Y, N + tl.program_id(0), a * b)
    _noinline_block(X, Y, N, tl.program_id(0), a, BLOCK)


@triton.jit
def dot_scaled_mx(A, AS, B, BS, C, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, FMT: tl.constexpr):
    """tt.dot_scaled: mxfp8 (e4m3/e5m2) A/B with e8m0 scales (3.3+)"""
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, BK)
    rs = tl.arange(0, BK // 32)
    a = tl.load(A + rm[:, None] * BK + rk[None, :])
    b = tl.load(B + rk[:, None] * BN + rn[None, :])
    a_s = tl.load(AS + rm[:, None] * (BK // 32) + rs[None, :])
    b_s = tl.load(BS + rn[:, None] * (BK // 32) + rs[None, :])
    c = tl.dot_scaled(a, a_s, FMT, b, b_s, FMT)
    tl.store(C + rm[:, None] * BN + rn[None, :], c)


@triton.jit
def load_store_hints(X, Y, Z, B1, N, BLOCK: tl.constexpr):
    """cache modifiers and eviction policies, volatile, i1 pointers, i64/u8/u16/f64 types, num_programs"""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < N
    x = tl.load(X + offs, mask=m, other=0., cache_modifier=".cg", eviction_policy="evict_last")
    y = tl.load(Y + offs, mask=m, other=0, cache_modifier=".ca", eviction_policy="evict_first", volatile=True)
    flag = tl.load(B1 + offs, mask=m, other=0)
    v = tl.where(flag, x, y.to(tl.float64))
    tl.store(Z + offs, v, mask=m, cache_modifier=".cs", eviction_policy="evict_last")
    tl.store(B1 + offs, v > 0, mask=m)
    npg = tl.num_programs(0) * tl.num_programs(1) + tl.num_programs(2) + tl.program_id(2)
    tl.store(Z + N + tl.program_id(1), npg.to(tl.float64))


@triton.jit
def persistent_matmul(A, B, C, M, N, K, stride_am, stride_bk, stride_cm, NUM_SMS: tl.constexpr,
                      BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    """persistent GEMM: a tile loop with an inner K loop, tl.assume (3.3+)"""
    pid = tl.program_id(0)
    num_m = tl.cdiv(M, BM)
    num_n = tl.cdiv(N, BN)
    if V >= 303:
        tl.assume(stride_am > 0)
        tl.assume(stride_bk > 0)
    for tile in tl.range(pid, num_m * num_n, NUM_SMS):
        pid_m = tile // num_n
        pid_n = tile % num_n
        rm = pid_m * BM + tl.arange(0, BM)
        rn = pid_n * BN + tl.arange(0, BN)
        rk = tl.arange(0, BK)
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for k in range(0, K, BK):
            a = tl.load(A + rm[:, None] * stride_am + (k + rk)[None, :], mask=rm[:, None] < M, other=0.)
            b = tl.load(B + (k + rk)[:, None] * stride_bk + rn[None, :], mask=rn[None, :] < N, other=0.)
            acc = tl.dot(a, b, acc)
        tl.store(C + rm[:, None] * stride_cm + rn[None, :], acc.to(tl.bfloat16),
                 mask=(rm[:, None] < M) & (rn[None, :] < N))


@triton.jit
def warp_specialized_matmul(A, B, C, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    """3.9 tl.range(warp_specialize=True) with tensor descriptors"""
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    a_desc = tl.make_tensor_descriptor(A, [M, K], [K, 1], [BM, BK])
    b_desc = tl.make_tensor_descriptor(B, [N, K], [K, 1], [BN, BK])
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in tl.range(0, K, BK, warp_specialize=True):
        acc = tl.dot(a_desc.load([pid_m * BM, k]), b_desc.load([pid_n * BN, k]).T, acc)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    tl.store(C + rm[:, None] * N + rn[None, :], acc.to(tl.float16))


@triton.jit
def _square(x):
    return x * x


@triton.jit
def map_topk(X, Y, Z, BM: tl.constexpr, BN: tl.constexpr):
    """3.9: tl.map_elementwise, tl.topk, cat along dim 1"""
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    x = tl.load(X + rm[:, None] * BN + rn[None, :])
    y = tl.map_elementwise(_square, x)
    tl.store(Y + rm[:, None] * BN + rn[None, :], y)
    t = tl.topk(x, 2, dim=1)
    tl.store(Z + rm[:, None] * 2 + tl.arange(0, 2)[None, :], t)


@triton.jit
def buffer_ops(X, Y, H, N, BLOCK: tl.constexpr):
    """offsets the AMD buffer-op conversion can prove non-negative (arange only; the row offset goes into
    the scalar base): loads, stores and an atomic become amdgpu.buffer_* ops"""
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    m = offs < N
    x = tl.load(X + row * N + offs, mask=m, other=0.)
    tl.store(Y + row * N + offs, x * 2.0, mask=m)
    tl.atomic_add(H + offs, x, mask=m)


@triton.jit
def int_arith(X, Y, Out, N, BLOCK: tl.constexpr):
    """signed/unsigned division and remainder, shifts, comparisons, casts between widths, i1 logic"""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < N
    x = tl.load(X + offs, mask=m, other=1)
    y = tl.load(Y + offs, mask=m, other=1)
    ux = x.to(tl.uint32)
    uy = y.to(tl.uint32) | 1
    a = (ux // uy) + (ux % uy) + (ux >> 3) + (ux << 2)
    b = (x // (y | 1)) + (x % (y | 1)) + (x >> 2) + tl.cdiv(x, 4)
    c = tl.where((ux > uy) ^ (x < y), a.to(tl.int32), b)
    d = (c.to(tl.int16).to(tl.int64) * 3 + x.to(tl.int8).to(tl.int64)).to(tl.int32)
    e = (x.to(tl.float32) / 3.0).to(tl.int32) + (ux.to(tl.float32) * 0.5).to(tl.uint32).to(tl.int32)
    f = tl.minimum(x, y) + tl.maximum(ux, uy).to(tl.int32) + tl.abs(x) + (~x) + (-y)
    tl.store(Out + offs, c + d + e + f, mask=m)


# -- specs ------------------------------------------------------------------------------------------------------

ALL_VERSIONS = ("3.1", "3.3", "3.9")
DEFAULT_TARGETS = ("cuda:80", "cuda:90", "hip:gfx942")
# kernels without dots: the cuda:90 TTGIR differs from cuda:80 only in the target attribute, so skip it
NO_DOT_TARGETS = ("cuda:80", "hip:gfx942")
PTRS = object()  # marker: every pointer argument 16-divisible


def spec(name, kernel, sig, constexprs, *, targets=DEFAULT_TARGETS, versions=ALL_VERSIONS, num_warps=4,
         num_stages=None, div16=PTRS, options=None, per_target=None, env=None, note="", keep_source=False):
    """`sig`: the runtime arguments' types in order (the names come from the kernel); `per_target`: target ->
    dict overriding sig/constexprs/num_warps/num_stages/options for that target; `keep_source`: also write the
    frontend's TTIR (`<name>.source.ttir`, before make_ttir rewrites block pointers / descriptors)."""
    return {"name": name, "kernel": kernel, "sig": list(sig), "constexprs": dict(constexprs),
            "targets": list(targets), "versions": list(versions), "num_warps": num_warps,
            "num_stages": num_stages, "div16": div16, "options": dict(options or {}),
            "per_target": dict(per_target or {}), "env": dict(env or {}), "note": note or kernel.__doc__ or "",
            "keep_source": keep_source}


_I = "i32"
FP8 = {  # per target: (format of the first, format of the second fp8 type) usable in dots/casts
    "cuda:80": ("fp8e5", "fp8e5"),
    "cuda:90": ("fp8e4nv", "fp8e5"),
    "hip:gfx942": ("fp8e4b8", "fp8e5b16"),
}
_TL_FP8 = {"fp8e5": "float8e5", "fp8e4nv": "float8e4nv", "fp8e4b8": "float8e4b8", "fp8e5b16": "float8e5b16"}

SPECS = [
    spec("attention_fwd_fp16", attention_fwd, ["*fp16"] * 4 + ["*fp32"] + [_I] * 5 + ["fp32"],
         {"BM": 64, "BN": 64, "D": 64, "CAUSAL": False}, num_stages=3),
    spec("attention_fwd_causal_bf16_w8", attention_fwd, ["*bf16"] * 4 + ["*fp32"] + [_I] * 5 + ["fp32"],
         {"BM": 128, "BN": 64, "D": 128, "CAUSAL": True}, num_warps=8, num_stages=2),
    spec("layernorm_fwd_bwd_fp16", layernorm_fwd_bwd, ["*fp16", "*fp16", "*fp32", "*fp32", "*fp16", "*fp16",
                                                       "*fp32", "*fp32", _I, _I, "fp32"], {"BLOCK": 2048},
         num_warps=8, targets=NO_DOT_TARGETS),
    spec("reductions_f32", reductions, ["*fp32", "*fp32", "*i32", "*fp32", "*i32", "*i32", "*fp32", _I, _I, _I],
         {"BM": 32, "BN": 64}, targets=NO_DOT_TARGETS),
    spec("scans_f32", scans, ["*fp32", "*fp32", "*fp32", "*fp32", "*fp32", _I], {"BLOCK": 256}, targets=NO_DOT_TARGETS),
    spec("histogram_i32", histogram, ["*i32", "*i32", _I], {"BLOCK": 1024, "BINS": 64}, targets=NO_DOT_TARGETS),
    spec("atomics_i32", atomics, ["*i32", "*u32", "*i32", "*i32", "*i32", _I], {"BLOCK": 256}, targets=NO_DOT_TARGETS),
    spec("fp8_casts", fp8_casts, ["*fp16", "*i8", "*fp8e5", "*fp32", _I], {"BLOCK": 1024},
         per_target={t: {"constexprs": {"F8A": _TL_FP8[a], "F8B": _TL_FP8[b]},
                         "sig": ["*fp16", "*i8", "*" + b, "*fp32", _I]} for t, (a, b) in FP8.items()}),
    spec("dot_fp8", dot_fp8, ["*fp8e5", "*fp8e5", "*fp16", _I, _I, _I, _I], {"BM": 64, "BN": 64, "BK": 64},
         num_stages=3, per_target={t: {"sig": ["*" + a, "*" + a, "*fp16", _I, _I, _I, _I]} for t, (a, _) in FP8.items()}),
    spec("dot_int8", dot_int8, ["*i8", "*i8", "*i32", _I, _I, _I, _I], {"BM": 128, "BN": 128, "BK": 64},
         num_stages=3, num_warps=8),
    spec("dot_f32_precisions", dot_tf32x3, ["*fp32", "*fp32", "*fp32", _I, _I, _I, _I],
         {"BM": 64, "BN": 64, "BK": 32, "PREC": "tf32x3"}, num_stages=2,
         per_target={"hip:gfx942": {"constexprs": {"PREC": "ieee"}}}),
    spec("batched_dot_fp16", batched_dot, ["*fp16", "*fp16", "*fp32"], {"BB": 2, "BM": 32, "BN": 32, "BK": 32}),
    spec("matmul_pipelined_fp16", matmul_pipelined, ["*fp16", "*fp16", "*fp16"] + [_I] * 6,
         {"BM": 128, "BN": 128, "BK": 64, "GROUP_M": 8, "STAGES": 3}, num_stages=3, num_warps=8,
         div16=["A", "B", "C", "M", "N", "K", "stride_am", "stride_bk", "stride_cm"]),
    spec("block_ptr_matmul_fp16", block_ptr_matmul, ["*fp16", "*fp16", "*fp16"] + [_I] * 6,
         {"BM": 64, "BN": 64, "BK": 32}, num_stages=3, versions=("3.1", "3.3"), keep_source=True,
         div16=["A", "B", "C", "M", "N", "K", "stride_am", "stride_bk", "stride_cm"]),
    spec("tensor_desc_matmul_fp16", tensor_desc_matmul, ["*fp16", "*fp16", "*fp16", _I, _I, _I],
         {"BM": 128, "BN": 128, "BK": 64}, versions=("3.3", "3.9"), num_warps=4, keep_source=True,
         div16=["A", "B", "C", "M", "N", "K"]),
    spec("tma_desc_copy", tma_desc_copy_31, ["*i8", "*i8"], {"BM": 64, "BN": 64}, versions=("3.1",),
         targets=("cuda:90",), div16=[]),
    spec("gather_rows_f32", gather_rows, ["*fp32", "*i32", "*fp32", _I, _I], {"BM": 32, "BN": 32},
         versions=("3.3", "3.9"), targets=NO_DOT_TARGETS),
    spec("shapes_f32", shapes, ["*fp32"] * 4, {"BM": 16, "BN": 32}, targets=NO_DOT_TARGETS),
    spec("inline_asm", inline_asm_ptx, ["*i32", "*i32", "*i32", _I], {"BLOCK": 512}, targets=NO_DOT_TARGETS),
    spec("print_assert", print_assert, ["*i32", "*i32", _I], {"BLOCK": 128}, options={"debug": True}, targets=NO_DOT_TARGETS),
    spec("libdevice_math", libdevice_math, ["*fp32", "*fp32", "*fp32", _I], {"BLOCK": 256}, targets=NO_DOT_TARGETS),
    spec("philox_dropout", philox_dropout, ["*fp16", "*fp16", _I, "fp32", _I], {"BLOCK": 1024}, targets=NO_DOT_TARGETS),
    spec("while_loop", while_loop, ["*i64", "*i32", "*i32", _I], {"BLOCK": 128}, targets=NO_DOT_TARGETS),
    spec("calls", calls, ["*fp32", "*fp32", _I, "fp32"], {"BLOCK": 256}, targets=NO_DOT_TARGETS),
    spec("dot_scaled_mxfp8", dot_scaled_mx, ["*fp8e4nv", "*u8", "*fp8e4nv", "*u8", "*fp32"],
         {"BM": 64, "BN": 64, "BK": 128, "FMT": "e4m3"}, versions=("3.3", "3.9"),
         per_target={"cuda:80": {"sig": ["*fp8e5", "*u8", "*fp8e5", "*u8", "*fp32"], "constexprs": {"FMT": "e5m2"}}}),
    spec("load_store_hints", load_store_hints, ["*fp32", "*i16", "*fp64", "*i1", _I], {"BLOCK": 256}, targets=NO_DOT_TARGETS),
    spec("persistent_matmul_bf16", persistent_matmul, ["*bf16", "*bf16", "*bf16"] + [_I] * 6,
         {"NUM_SMS": 132, "BM": 128, "BN": 128, "BK": 64}, num_stages=3, num_warps=8,
         div16=["A", "B", "C", "M", "N", "K", "stride_am", "stride_bk", "stride_cm"]),
    spec("warp_specialized_matmul", warp_specialized_matmul, ["*fp16", "*fp16", "*fp16", _I, _I, _I],
         {"BM": 128, "BN": 128, "BK": 64}, versions=("3.9",), num_stages=3,
         div16=["A", "B", "C", "M", "N", "K"]),
    spec("map_topk", map_topk, ["*fp32", "*fp32", "*fp32"], {"BM": 16, "BN": 8}, versions=("3.9",), targets=NO_DOT_TARGETS),
    spec("sort_small_f32", sort_small, ["*fp32", "*fp32"], {"BM": 16, "BN": 8}, targets=("cuda:80",)),
    spec("int_arith", int_arith, ["*i32", "*i32", "*i32", _I], {"BLOCK": 512}, targets=NO_DOT_TARGETS),
    spec("buffer_ops_gfx942", buffer_ops, ["*fp32", "*fp32", "*fp32", _I], {"BLOCK": 512},
         targets=("hip:gfx942",), versions=("3.3", "3.9"), env={"AMDGCN_USE_BUFFER_OPS": "1"},
         note="AMDGCN_USE_BUFFER_OPS=1 (3.3; default in 3.9): amdgpu.buffer_load/store/atomic_rmw"),
    spec("matmul_gfx942_async_copy", matmul_pipelined, ["*fp16", "*fp16", "*fp16"] + [_I] * 6,
         {"BM": 128, "BN": 128, "BK": 64, "GROUP_M": 8, "STAGES": 2}, num_stages=2, num_warps=4,
         targets=("hip:gfx942",), versions=("3.3", "3.9"), env={"TRITON_HIP_USE_ASYNC_COPY": "1"},
         div16=["A", "B", "C", "M", "N", "K", "stride_am", "stride_bk", "stride_cm"],
         note="TRITON_HIP_USE_ASYNC_COPY=1: global-to-shared copies (buffer_load_to_local / async_copy)"),
    spec("matmul_gfx942_pingpong", matmul_pipelined, ["*fp16", "*fp16", "*fp16"] + [_I] * 6,
         {"BM": 256, "BN": 256, "BK": 64, "GROUP_M": 8, "STAGES": 2}, num_stages=2, num_warps=8,
         targets=("hip:gfx942",), versions=("3.3", "3.9"), env={"TRITON_HIP_USE_BLOCK_PINGPONG": "1"},
         div16=["A", "B", "C", "M", "N", "K", "stride_am", "stride_bk", "stride_cm"],
         note="TRITON_HIP_USE_BLOCK_PINGPONG=1: ping-pong scheduling (cond_barrier, sched barriers)"),
    # Blackwell (3.9 only): tensor memory, tcgen05 MMA, mbarriers
    spec("matmul_pipelined_fp16", matmul_pipelined, ["*fp16", "*fp16", "*fp16"] + [_I] * 6,
         {"BM": 128, "BN": 128, "BK": 64, "GROUP_M": 8, "STAGES": 3}, num_stages=3, num_warps=4,
         targets=("cuda:100",), versions=("3.9",),
         div16=["A", "B", "C", "M", "N", "K", "stride_am", "stride_bk", "stride_cm"]),
    spec("tensor_desc_matmul_fp16", tensor_desc_matmul, ["*fp16", "*fp16", "*fp16", _I, _I, _I],
         {"BM": 128, "BN": 128, "BK": 64}, versions=("3.9",), targets=("cuda:100",), div16=["A", "B", "C", "M", "N", "K"]),
    spec("dot_scaled_mxfp8", dot_scaled_mx, ["*fp8e4nv", "*u8", "*fp8e4nv", "*u8", "*fp32"],
         {"BM": 128, "BN": 128, "BK": 128, "FMT": "e4m3"}, versions=("3.9",), targets=("cuda:100",)),
    spec("attention_fwd_fp16", attention_fwd, ["*fp16"] * 4 + ["*fp32"] + [_I] * 5 + ["fp32"],
         {"BM": 128, "BN": 64, "D": 64, "CAUSAL": False}, num_stages=2, versions=("3.9",), targets=("cuda:100",)),
    spec("warp_specialized_matmul", warp_specialized_matmul, ["*fp16", "*fp16", "*fp16", _I, _I, _I],
         {"BM": 128, "BN": 128, "BK": 64}, versions=("3.9",), num_stages=3, targets=("cuda:100",),
         div16=["A", "B", "C", "M", "N", "K"]),
    # newer AMD (3.9 only): gfx1250's tensor data mover (descriptor loads); gfx942's fp8e4b8 dot on gfx950, which
    # upcasts it and schedules with `rocdl.sched.barrier none`
    spec("tensor_desc_matmul_fp16", tensor_desc_matmul, ["*fp16", "*fp16", "*fp16", _I, _I, _I],
         {"BM": 128, "BN": 128, "BK": 64}, versions=("3.9",), targets=("hip:gfx1250",),
         div16=["A", "B", "C", "M", "N", "K"]),
    spec("dot_fp8", dot_fp8, ["*fp8e4b8", "*fp8e4b8", "*fp16", _I, _I, _I, _I], {"BM": 64, "BN": 64, "BK": 64},
         num_stages=3, versions=("3.9",), targets=("hip:gfx950",)),
    spec("matmul_gfx90a", matmul_pipelined, ["*fp16", "*fp16", "*fp16"] + [_I] * 6,
         {"BM": 128, "BN": 128, "BK": 32, "GROUP_M": 8, "STAGES": 2}, num_stages=2, num_warps=4,
         targets=("hip:gfx90a",), div16=["A", "B", "C", "M", "N", "K", "stride_am", "stride_bk", "stride_cm"]),
]


# -- compiling ---------------------------------------------------------------------------------------------------


def resolve(s, target):
    """The spec with its per-target overrides applied."""
    r = dict(s)
    over = s["per_target"].get(target, {})
    for k in ("sig", "num_warps", "num_stages"):
        if k in over:
            r[k] = over[k]
    r["constexprs"] = {**s["constexprs"], **over.get("constexprs", {})}
    r["options"] = {**s["options"], **over.get("options", {})}
    names = [n for n in s["kernel"].arg_names if n not in r["constexprs"]]
    assert len(names) == len(r["sig"]), (s["name"], names, r["sig"])
    r["signature"] = dict(zip(names, r["sig"]))
    r["div16"] = [n for n, t in r["signature"].items() if t.startswith("*")] if s["div16"] is PTRS else list(s["div16"])
    return r


def _gpu_target(spec_):
    from triton.backends.compiler import GPUTarget
    backend, arch = spec_.split(":", 1)
    if backend == "cuda":
        return GPUTarget("cuda", int(arch), 32)
    return GPUTarget("hip", arch, 64 if arch.startswith("gfx9") else 32)  # gfx12xx run wave32


def _tl_constexpr_value(v):
    if isinstance(v, str) and v.startswith("float8"):
        return getattr(tl, v)
    return v


def compile_ttir_ttgir(r, target):
    """(source ttir, ttir, ttgir) texts of resolved spec `r` for `target`, with the real frontend, make_ttir and
    make_ttgir of the running Triton, as triton.compile runs them."""
    from triton._C.libtriton import ir
    from triton.compiler.compiler import ASTSource, make_backend
    fn = r["kernel"]
    names = fn.arg_names
    gt = _gpu_target(target)
    backend = make_backend(gt)
    opts = {"num_warps": r["num_warps"], **r["options"]}
    if r["num_stages"] is not None:
        opts["num_stages"] = r["num_stages"]
    options = backend.parse_options(opts)
    consts = {k: _tl_constexpr_value(v) for k, v in r["constexprs"].items()}
    if VERSION < (3, 3):
        from triton.compiler.compiler import AttrsDescriptor
        sig = {names.index(n): t for n, t in r["signature"].items()}
        attrs = AttrsDescriptor(divisible_by_16={names.index(n) for n in r["div16"]})
        src = ASTSource(fn, sig, constants=consts, attrs=attrs)
    else:
        sig = {n: (r["signature"][n] if n in r["signature"] else "constexpr") for n in names}
        buffer_ops = (target.startswith("hip") and (VERSION >= (3, 9) or os.environ.get("AMDGCN_USE_BUFFER_OPS") == "1"))
        attrs = {}
        for i, n in enumerate(names):
            desc = ("D" if n in r["div16"] else "") + ("S" if buffer_ops and r["signature"].get(n, "").startswith("*") else "")
            if desc:
                attrs[(i,)] = backend.parse_attr(desc)
        src = ASTSource(fn, sig, constexprs=consts, attrs=attrs)
    ctx = ir.context()
    ir.load_dialects(ctx)
    backend.load_dialects(ctx)
    stages = {}
    if VERSION < (3, 3):
        mod = src.make_ir(options, backend.get_codegen_implementation(), ctx)
        backend.add_stages(stages, options)
    elif VERSION < (3, 9):
        mod = src.make_ir(options, backend.get_codegen_implementation(options), backend.get_module_map(), ctx)
        backend.add_stages(stages, options)
    else:
        mod = src.make_ir(gt, options, backend.get_codegen_implementation(options), backend.get_module_map(), ctx)
        backend.add_stages(stages, options, src.language)
    metadata = {"hash": "refgen", "target": gt, **options.__dict__}
    source = str(mod)
    ttir = stages["ttir"](mod, metadata)
    ttir_text = str(ttir)
    ttgir = stages["ttgir"](ttir, metadata)
    return source, ttir_text, str(ttgir)


_SITE = re.compile(r'"[^"]*?/site-packages/triton/')
_HERE = os.path.abspath(__file__)


def shorten_paths(text):
    text = text.replace(_HERE, "tools/refgen/more_kernels.py")
    return _SITE.sub('"/opt/venv/lib/python3.11/site-packages/triton/', text)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default="tests/data/kernels")
    ap.add_argument("--only", nargs="*", help="spec names (substring match)")
    ap.add_argument("--targets", nargs="*")
    ap.add_argument("--list", action="store_true")
    a = ap.parse_args()
    ver = "{}.{}".format(*VERSION)
    full = triton.__version__
    index_path = os.path.join(a.out, "index.json")
    index = json.load(open(index_path)) if os.path.exists(index_path) else {"cases": [], "skipped": []}
    done_cases, done_skips = [], []
    for s in SPECS:
        if a.only and not any(o in s["name"] for o in a.only):
            continue
        if ver not in s["versions"]:
            continue
        for target in s["targets"]:
            if a.targets and target not in a.targets:
                continue
            r = resolve(s, target)
            if a.list:
                print(f"{s['name']:32s} {target:11s} w{r['num_warps']} s{r['num_stages']}  {s['note'].splitlines()[0]}")
                continue
            tdir = target.replace(":", "_")
            saved = {k: os.environ.get(k) for k in s["env"]}
            os.environ.update(s["env"])
            try:
                source, ttir, ttgir = compile_ttir_ttgir(r, target)
            except Exception as e:  # noqa: BLE001 - record why this combination does not compile
                cause = e
                while cause.__cause__ is not None or getattr(cause, "error_message", None):
                    if getattr(cause, "error_message", None):
                        cause = RuntimeError(cause.error_message)
                        break
                    cause = cause.__cause__
                msg = f"{type(e).__name__}: {cause if cause is not e else e}".strip().splitlines()
                msg = " | ".join(m.strip() for m in msg if m.strip())[-300:]
                print(f"SKIP {full} {target} {s['name']}: {msg}", file=sys.stderr)
                if os.environ.get("REFGEN_TRACE"):
                    traceback.print_exc()
                done_skips.append({"name": s["name"], "version": full, "target": tdir, "reason": msg})
                continue
            finally:
                for k, v in saved.items():
                    if v is None:
                        os.environ.pop(k, None)
                    else:
                        os.environ[k] = v
            d = os.path.join(a.out, full, tdir)
            os.makedirs(d, exist_ok=True)
            texts = [("ttir", ttir), ("ttgir", ttgir)] + ([("source.ttir", source)] if s["keep_source"] else [])
            for ext, txt in texts:
                with open(os.path.join(d, f"{s['name']}.{ext}"), "w") as f:
                    f.write(shorten_paths(txt if txt.endswith("\n") else txt + "\n"))
            print(f"ok   {full} {target} {s['name']}")
            done_cases.append({"name": s["name"], "version": full, "target": tdir, "kernel": s["kernel"].__name__,
                               "signature": r["signature"], "constexprs": {k: str(v) for k, v in r["constexprs"].items()},
                               "div16": r["div16"], "num_warps": r["num_warps"], "num_stages": r["num_stages"],
                               "options": r["options"], "env": s["env"], "note": s["note"].strip().splitlines()[0]})
    if a.list:
        return
    key = lambda c: (c["version"], c["target"], c["name"])  # noqa: E731
    new = {key(c) for c in done_cases} | {key(c) for c in done_skips}
    index["cases"] = sorted([c for c in index["cases"] if key(c) not in new] + done_cases, key=key)
    index["skipped"] = sorted([c for c in index["skipped"] if key(c) not in new] + done_skips, key=key)
    os.makedirs(a.out, exist_ok=True)
    with open(index_path, "w") as f:
        json.dump(index, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
