"""Our own small Triton kernels (Triton 3.1 API) whose loads/stores should get *different* coalesced layouts,
and `make_ttir(spec)`, which runs the real frontend + make_ttir for one of them on the CPU (no GPU, no ptxas).

Each SPECS entry: id, kind, kernel, signature (type of each runtime argument), constexprs, div16 (arguments
specialised as divisible by 16, as the JIT does for 16-aligned pointers and multiples of 16), target, num_warps.

    /work/.venv-triton31/bin/python tools/refgen/kernels.py --list
    /work/.venv-triton31/bin/python tools/refgen/kernels.py --dump /tmp/ttir      # the TTIR of every spec
"""
import argparse
import os

import triton
import triton.language as tl


@triton.jit
def vector_add(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) + tl.load(y_ptr + offs, mask=mask), mask=mask)


@triton.jit
def copy_1d(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    """element width comes from the signature (i8 / fp8 / fp16 / f32 / f64)"""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=offs < n), mask=offs < n)


@triton.jit
def mixed_width(a_ptr, b_ptr, c_ptr, d_ptr, out_ptr, n, BLOCK: tl.constexpr):
    """i8 + fp16 + f32 + fp8 loads feeding one f32 store"""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    a = tl.load(a_ptr + offs, mask=m).to(tl.float32)
    b = tl.load(b_ptr + offs, mask=m).to(tl.float32)
    c = tl.load(c_ptr + offs, mask=m)
    d = tl.load(d_ptr + offs, mask=m).to(tl.float32)
    tl.store(out_ptr + offs, a + b + c + d, mask=m)


@triton.jit
def strided_copy(x_ptr, y_ptr, n, STRIDE: tl.constexpr, BLOCK: tl.constexpr):
    """gathers every STRIDE-th element: the load has contiguity 1, the store is contiguous"""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y_ptr + offs, tl.load(x_ptr + offs * STRIDE, mask=offs < n), mask=offs < n)


@triton.jit
def transpose_copy(x_ptr, y_ptr, M, N, stride_xn, stride_ym, BM: tl.constexpr, BN: tl.constexpr):
    """x is column-major (unit stride along m), y row-major: load order [0,1], store order [1,0]"""
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    x = tl.load(x_ptr + rm[:, None] + rn[None, :] * stride_xn, mask=mask)
    tl.store(y_ptr + rm[:, None] * stride_ym + rn[None, :], x, mask=mask)


@triton.jit
def colmajor_scale(x_ptr, y_ptr, M, N, stride_n, BM: tl.constexpr, BN: tl.constexpr):
    """column-major in and out (both order [0,1])"""
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    off = rm[:, None] + rn[None, :] * stride_n
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    tl.store(y_ptr + off, tl.load(x_ptr + off, mask=mask) * 2.0, mask=mask)


@triton.jit
def softmax(out_ptr, in_ptr, in_stride, out_stride, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(in_ptr + row * in_stride + cols, mask=cols < n_cols, other=-float("inf")).to(tl.float32)
    x = x - tl.max(x, axis=0)
    num = tl.exp(x)
    y = num / tl.sum(num, axis=0)
    tl.store(out_ptr + row * out_stride + cols, y.to(out_ptr.dtype.element_ty), mask=cols < n_cols)


@triton.jit
def layernorm_fwd(X, Y, W, B, Mean, Rstd, stride, N, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    X += row * stride
    Y += row * stride
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for off in range(0, N, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        acc += tl.load(X + cols, mask=cols < N, other=0.).to(tl.float32)
    mean = tl.sum(acc, axis=0) / N
    acc2 = tl.zeros([BLOCK], dtype=tl.float32)
    for off in range(0, N, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        x = tl.load(X + cols, mask=cols < N, other=0.).to(tl.float32)
        x = tl.where(cols < N, x - mean, 0.)
        acc2 += x * x
    rstd = 1 / tl.sqrt(tl.sum(acc2, axis=0) / N + eps)
    tl.store(Mean + row, mean)
    tl.store(Rstd + row, rstd)
    for off in range(0, N, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        mask = cols < N
        w = tl.load(W + cols, mask=mask)
        b = tl.load(B + cols, mask=mask)
        x = tl.load(X + cols, mask=mask, other=0.).to(tl.float32)
        tl.store(Y + cols, ((x - mean) * rstd * w + b).to(tl.float16), mask=mask)


@triton.jit
def rmsnorm_bf16(X, Y, W, stride, N, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < N
    x = tl.load(X + row * stride + cols, mask=mask, other=0.).to(tl.float32)
    r = 1 / tl.sqrt(tl.sum(x * x, axis=0) / N + eps)
    w = tl.load(W + cols, mask=mask).to(tl.float32)
    tl.store(Y + row * stride + cols, (x * r * w).to(tl.bfloat16), mask=mask)


@triton.jit
def row_sum(x_ptr, out_ptr, M, N, stride_m, BM: tl.constexpr, BN: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    acc = tl.zeros([BM], dtype=tl.float32)
    for n0 in range(0, N, BN):
        rn = n0 + tl.arange(0, BN)
        x = tl.load(x_ptr + rm[:, None] * stride_m + rn[None, :], mask=(rm[:, None] < M) & (rn[None, :] < N), other=0.)
        acc += tl.sum(x, axis=1)
    tl.store(out_ptr + rm, acc, mask=rm < M)


@triton.jit
def col_sum(x_ptr, out_ptr, M, N, stride_m, BM: tl.constexpr, BN: tl.constexpr):
    rn = tl.program_id(0) * BN + tl.arange(0, BN)
    acc = tl.zeros([BN], dtype=tl.float32)
    for m0 in range(0, M, BM):
        rm = m0 + tl.arange(0, BM)
        x = tl.load(x_ptr + rm[:, None] * stride_m + rn[None, :], mask=(rm[:, None] < M) & (rn[None, :] < N), other=0.)
        acc += tl.sum(x.to(tl.float32), axis=0)
    tl.store(out_ptr + rn, acc, mask=rn < N)


@triton.jit
def bcast_add(x_ptr, row_ptr, col_ptr, out_ptr, M, N, stride_m, BM: tl.constexpr, BN: tl.constexpr):
    """out[m, n] = x[m, n] + row[n] + col[m]"""
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    x = tl.load(x_ptr + rm[:, None] * stride_m + rn[None, :], mask=mask)
    r = tl.load(row_ptr + rn, mask=rn < N)
    c = tl.load(col_ptr + rm, mask=rm < M)
    tl.store(out_ptr + rm[:, None] * stride_m + rn[None, :], x + r[None, :] + c[:, None], mask=mask)


@triton.jit
def masked_odd(x_ptr, y_ptr, M, N, stride_xm, stride_ym, BM: tl.constexpr, BN: tl.constexpr):
    """strides and sizes without divisibility (odd shapes): vector width limited by alignment"""
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.arange(0, BN)
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    x = tl.load(x_ptr + rm[:, None] * stride_xm + rn[None, :], mask=mask, other=1.0)
    tl.store(y_ptr + rm[:, None] * stride_ym + rn[None, :], x + 1.0, mask=mask)


@triton.jit
def atomic_add(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    tl.atomic_add(out_ptr + offs, x, mask=offs < n)


@triton.jit
def histogram(idx_ptr, hist_ptr, n, BLOCK: tl.constexpr):
    """atomic_add through indirect (data-dependent) pointers"""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    idx = tl.load(idx_ptr + offs, mask=offs < n, other=0)
    tl.atomic_add(hist_ptr + idx, 1, mask=offs < n)


@triton.jit
def sum_3d(x_ptr, out_ptr, sa, sb, BA: tl.constexpr, BB: tl.constexpr, BC: tl.constexpr):
    a = tl.arange(0, BA)
    b = tl.arange(0, BB)
    c = tl.arange(0, BC)
    x = tl.load(x_ptr + a[:, None, None] * sa + b[None, :, None] * sb + c[None, None, :])
    s = tl.sum(x, axis=1)
    tl.store(out_ptr + a[:, None] * BC + c[None, :], s)


@triton.jit
def permute_3d(x_ptr, y_ptr, sa, sc, BA: tl.constexpr, BB: tl.constexpr, BC: tl.constexpr):
    """3-D copy whose unit-stride axis is the middle one (order [1, ...]) on load, the last one on store"""
    a = tl.arange(0, BA)
    b = tl.arange(0, BB)
    c = tl.arange(0, BC)
    x = tl.load(x_ptr + a[:, None, None] * sa + b[None, :, None] + c[None, None, :] * sc)
    tl.store(y_ptr + a[:, None, None] * (BB * BC) + b[None, :, None] * BC + c[None, None, :], x)


@triton.jit
def matmul_bp(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bk, stride_cm,
              BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    """block pointers: make_ttir's rewrite-tensor-pointer turns them into plain pointer tensors"""
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    a_bp = tl.make_block_ptr(a_ptr, (M, K), (stride_am, 1), (pid_m * BM, 0), (BM, BK), (1, 0))
    b_bp = tl.make_block_ptr(b_ptr, (K, N), (stride_bk, 1), (0, pid_n * BN), (BK, BN), (1, 0))
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for _k in range(0, K, BK):
        acc += tl.dot(tl.load(a_bp, boundary_check=(0, 1)), tl.load(b_bp, boundary_check=(0, 1)))
        a_bp = tl.advance(a_bp, (0, BK))
        b_bp = tl.advance(b_bp, (BK, 0))
    c_bp = tl.make_block_ptr(c_ptr, (M, N), (stride_cm, 1), (pid_m * BM, pid_n * BN), (BM, BN), (1, 0))
    tl.store(c_bp, acc.to(tl.float16), boundary_check=(0, 1))


@triton.jit
def matmul_colmajor_b(a_ptr, b_ptr, c_ptr, K, stride_am, stride_bn, stride_cm,
                      BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    """A row-major, B column-major (B^T access), f32 dot, loop-carried pointer increments"""
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a_ptrs = a_ptr + rm[:, None] * stride_am + rk[None, :]
    b_ptrs = b_ptr + rk[:, None] + rn[None, :] * stride_bn
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for _k in range(0, K, BK):
        acc += tl.dot(tl.load(a_ptrs), tl.load(b_ptrs))
        a_ptrs += BK
        b_ptrs += BK
    tl.store(c_ptr + rm[:, None] * stride_cm + rn[None, :], acc)


@triton.jit
def attention_fwd(Q, K, V, Out, stride_qm, stride_kn, stride_vn, stride_om, N_CTX, sm_scale,
                  BM: tl.constexpr, BN: tl.constexpr, D: tl.constexpr):
    """two dots (q k^T, p v); K is read transposed (order [0,1])"""
    offs_m = tl.program_id(0) * BM + tl.arange(0, BM)
    offs_n = tl.arange(0, BN)
    offs_d = tl.arange(0, D)
    q = tl.load(Q + offs_m[:, None] * stride_qm + offs_d[None, :])
    m_i = tl.zeros([BM], dtype=tl.float32) - float("inf")
    l_i = tl.zeros([BM], dtype=tl.float32)
    acc = tl.zeros([BM, D], dtype=tl.float32)
    for start_n in range(0, N_CTX, BN):
        k = tl.load(K + (start_n + offs_n)[None, :] * stride_kn + offs_d[:, None])
        qk = tl.dot(q, k) * sm_scale
        m_new = tl.maximum(m_i, tl.max(qk, 1))
        p = tl.exp(qk - m_new[:, None])
        alpha = tl.exp(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, 1)
        v = tl.load(V + (start_n + offs_n)[:, None] * stride_vn + offs_d[None, :])
        acc = acc * alpha[:, None] + tl.dot(p.to(tl.float16), v)
        m_i = m_new
    tl.store(Out + offs_m[:, None] * stride_om + offs_d[None, :], (acc / l_i[:, None]).to(tl.float16))


@triton.jit
def gather_1d(x_ptr, idx_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    idx = tl.load(idx_ptr + offs, mask=offs < n, other=0)
    tl.store(out_ptr + offs, tl.load(x_ptr + idx, mask=offs < n), mask=offs < n)


@triton.jit
def embedding(w_ptr, idx_ptr, out_ptr, D, BM: tl.constexpr, BD: tl.constexpr):
    """rows gathered by index, columns contiguous"""
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rd = tl.arange(0, BD)
    idx = tl.load(idx_ptr + rm)
    x = tl.load(w_ptr + idx[:, None] * D + rd[None, :], mask=rd[None, :] < D)
    tl.store(out_ptr + rm[:, None] * D + rd[None, :], x, mask=rd[None, :] < D)


@triton.jit
def fill(out_ptr, n, value, BLOCK: tl.constexpr):
    """store only"""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.full([BLOCK], value, tl.float32), mask=offs < n)


@triton.jit
def fill_2d(out_ptr, stride_m, BM: tl.constexpr, BN: tl.constexpr):
    """store only, 2-D, no mask"""
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.arange(0, BN)
    tl.store(out_ptr + rm[:, None] * stride_m + rn[None, :], tl.zeros([BM, BN], dtype=tl.float16))


@triton.jit
def i64_offsets(x_ptr, y_ptr, M, N, stride_m, BM: tl.constexpr, BN: tl.constexpr):
    rm = (tl.program_id(0) * BM + tl.arange(0, BM)).to(tl.int64)
    rn = tl.arange(0, BN).to(tl.int64)
    off = rm[:, None] * stride_m + rn[None, :]
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    tl.store(y_ptr + off, tl.load(x_ptr + off, mask=mask) * 3, mask=mask)


@triton.jit
def cumsum(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + tl.program_id(0) * n + offs, mask=offs < n, other=0)
    tl.store(y_ptr + tl.program_id(0) * n + offs, tl.cumsum(x, axis=0), mask=offs < n)


@triton.jit
def where_clamp(x_ptr, lo_ptr, y_ptr, n, BLOCK: tl.constexpr):
    """the scalar lo is loaded once (scalar load: not coalesced); tensor load/store are"""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    lo = tl.load(lo_ptr)
    x = tl.load(x_ptr + offs, mask=offs < n)
    tl.store(y_ptr + offs, tl.where(x < lo, lo, x), mask=offs < n)


PTRS = object()  # marker: "every pointer argument is 16-divisible"


def _s(id_, kind, fn, sig, cx, target="cuda:80", num_warps=4, div16=PTRS):
    names = [n for n in fn.arg_names if n not in cx]
    assert len(names) == len(sig), (id_, names, sig)
    if div16 is PTRS:
        div16 = [n for n, t in zip(names, sig) if t.startswith("*")]
    return {"id": id_, "kind": kind, "kernel": fn, "signature": dict(zip(names, sig)), "constexprs": cx,
            "div16": list(div16), "target": target, "num_warps": num_warps}



_F = ["*fp32", "*fp32", "*fp32", "i32"]
SPECS = [
    _s("vector_add_f32_w4", "vector_add", vector_add, _F, {"BLOCK": 1024}),
    _s("vector_add_f32_w8_b4096", "vector_add", vector_add, _F, {"BLOCK": 4096}, num_warps=8),
    _s("vector_add_f32_gfx942", "vector_add", vector_add, _F, {"BLOCK": 1024}, target="hip:gfx942"),
    _s("vector_add_f32_unaligned", "vector_add(no ptr divisibility)", vector_add, _F, {"BLOCK": 1024}, div16=[]),
    _s("copy_i8", "copy int8", copy_1d, ["*i8", "*i8", "i32"], {"BLOCK": 4096}),
    _s("copy_fp8e5", "copy fp8", copy_1d, ["*fp8e5", "*fp8e5", "i32"], {"BLOCK": 2048}),
    _s("copy_fp16", "copy fp16", copy_1d, ["*fp16", "*fp16", "i32"], {"BLOCK": 2048}),
    _s("copy_f64_w8", "copy f64", copy_1d, ["*fp64", "*fp64", "i32"], {"BLOCK": 1024}, num_warps=8),
    _s("copy_i8_gfx942", "copy int8", copy_1d, ["*i8", "*i8", "i32"], {"BLOCK": 4096}, target="hip:gfx942"),
    _s("mixed_width", "i8/fp16/f32/fp8 loads", mixed_width,
       ["*i8", "*fp16", "*fp32", "*fp8e5", "*fp32", "i32"], {"BLOCK": 1024}),
    _s("strided_copy_f32", "strided copy", strided_copy, ["*fp32", "*fp32", "i32"], {"STRIDE": 2, "BLOCK": 1024}),
    _s("transpose_copy_f32", "transposed copy (column-major load)", transpose_copy,
       ["*fp32", "*fp32", "i32", "i32", "i32", "i32"], {"BM": 64, "BN": 64},
       div16=["x_ptr", "y_ptr", "M", "N", "stride_xn", "stride_ym"]),
    _s("transpose_copy_fp16_gfx942", "transposed copy (column-major load)", transpose_copy,
       ["*fp16", "*fp16", "i32", "i32", "i32", "i32"], {"BM": 64, "BN": 64}, target="hip:gfx942",
       div16=["x_ptr", "y_ptr", "M", "N", "stride_xn", "stride_ym"]),
    _s("colmajor_scale_f32_w8", "column-major elementwise", colmajor_scale,
       ["*fp32", "*fp32", "i32", "i32", "i32"], {"BM": 128, "BN": 32}, num_warps=8,
       div16=["x_ptr", "y_ptr", "stride_n"]),
    _s("softmax_f32_w8", "softmax", softmax, ["*fp32", "*fp32", "i32", "i32", "i32"], {"BLOCK": 2048},
       num_warps=8, div16=["out_ptr", "in_ptr", "in_stride", "out_stride"]),
    _s("softmax_fp16_gfx942", "softmax", softmax, ["*fp16", "*fp16", "i32", "i32", "i32"], {"BLOCK": 512},
       target="hip:gfx942", div16=["out_ptr", "in_ptr", "in_stride", "out_stride"]),
    _s("layernorm_fwd_fp16", "layernorm fwd", layernorm_fwd,
       ["*fp16", "*fp16", "*fp32", "*fp32", "*fp32", "*fp32", "i32", "i32", "fp32"], {"BLOCK": 1024},
       num_warps=8, div16=["X", "Y", "W", "B", "Mean", "Rstd", "stride"]),
    _s("layernorm_fwd_fp16_gfx942", "layernorm fwd", layernorm_fwd,
       ["*fp16", "*fp16", "*fp32", "*fp32", "*fp32", "*fp32", "i32", "i32", "fp32"], {"BLOCK": 512},
       target="hip:gfx942", div16=["X", "Y", "W", "B", "Mean", "Rstd", "stride"]),
    _s("rmsnorm_bf16", "rmsnorm", rmsnorm_bf16, ["*bf16", "*bf16", "*bf16", "i32", "i32", "fp32"],
       {"BLOCK": 4096}, num_warps=8, div16=["X", "Y", "W", "stride"]),
    _s("row_sum_f32", "row reduction", row_sum, ["*fp32", "*fp32", "i32", "i32", "i32"], {"BM": 16, "BN": 128},
       div16=["x_ptr", "out_ptr", "stride_m"]),
    _s("col_sum_fp16", "column reduction", col_sum, ["*fp16", "*fp32", "i32", "i32", "i32"],
       {"BM": 64, "BN": 64}, div16=["x_ptr", "out_ptr", "stride_m"]),
    _s("bcast_add_f32", "broadcast row+column", bcast_add,
       ["*fp32", "*fp32", "*fp32", "*fp32", "i32", "i32", "i32"], {"BM": 32, "BN": 64},
       div16=["x_ptr", "row_ptr", "col_ptr", "out_ptr", "stride_m"]),
    _s("masked_odd_f32", "masked, odd sizes, unaligned strides", masked_odd,
       ["*fp32", "*fp32", "i32", "i32", "i32", "i32"], {"BM": 16, "BN": 32}),
    _s("masked_odd_fp16_w8", "masked, odd sizes, unaligned strides (fp16)", masked_odd,
       ["*fp16", "*fp16", "i32", "i32", "i32", "i32"], {"BM": 64, "BN": 64}, num_warps=8),
    _s("atomic_add_f32", "atomic_add", atomic_add, ["*fp32", "*fp32", "i32"], {"BLOCK": 512}),
    _s("histogram_i32", "atomic_add (indirect)", histogram, ["*i32", "*i32", "i32"], {"BLOCK": 1024}),
    _s("sum_3d_f32", "3-D load + reduction", sum_3d, ["*fp32", "*fp32", "i32", "i32"],
       {"BA": 4, "BB": 8, "BC": 32}, div16=["x_ptr", "out_ptr", "sa", "sb"]),
    _s("permute_3d_fp16_w8", "3-D permuted copy", permute_3d, ["*fp16", "*fp16", "i32", "i32"],
       {"BA": 8, "BB": 32, "BC": 16}, num_warps=8, div16=["x_ptr", "y_ptr", "sa", "sc"]),
    _s("matmul_bp_fp16", "matmul (block pointers, rewritten)", matmul_bp,
       ["*fp16", "*fp16", "*fp16", "i32", "i32", "i32", "i32", "i32", "i32"], {"BM": 128, "BN": 128, "BK": 32},
       num_warps=8, div16=["a_ptr", "b_ptr", "c_ptr", "M", "N", "K", "stride_am", "stride_bk", "stride_cm"]),
    _s("matmul_colmajor_b_f32", "matmul (B column-major, f32)", matmul_colmajor_b,
       ["*fp32", "*fp32", "*fp32", "i32", "i32", "i32", "i32"], {"BM": 64, "BN": 64, "BK": 16},
       div16=["a_ptr", "b_ptr", "c_ptr", "K", "stride_am", "stride_bn", "stride_cm"]),
    _s("attention_fwd_fp16", "attention (two dots)", attention_fwd,
       ["*fp16", "*fp16", "*fp16", "*fp16", "i32", "i32", "i32", "i32", "i32", "fp32"], {"BM": 64, "BN": 32, "D": 64},
       div16=["Q", "K", "V", "Out", "stride_qm", "stride_kn", "stride_vn", "stride_om", "N_CTX"]),
    _s("attention_fwd_fp16_gfx942", "attention (two dots)", attention_fwd,
       ["*fp16", "*fp16", "*fp16", "*fp16", "i32", "i32", "i32", "i32", "i32", "fp32"],
       {"BM": 128, "BN": 64, "D": 128}, target="hip:gfx942", num_warps=8,
       div16=["Q", "K", "V", "Out", "stride_qm", "stride_kn", "stride_vn", "stride_om", "N_CTX"]),
    _s("gather_1d_f32", "gather (indirect pointers)", gather_1d, ["*fp32", "*i32", "*fp32", "i32"], {"BLOCK": 512}),
    _s("embedding_bf16", "embedding (row gather)", embedding, ["*bf16", "*i64", "*bf16", "i32"],
       {"BM": 16, "BD": 256}, div16=["w_ptr", "idx_ptr", "out_ptr", "D"]),
    _s("fill_f32", "store only", fill, ["*fp32", "i32", "fp32"], {"BLOCK": 1024}),
    _s("fill_2d_fp16_w8", "store only 2-D", fill_2d, ["*fp16", "i32"], {"BM": 64, "BN": 128}, num_warps=8,
       div16=["out_ptr", "stride_m"]),
    _s("i64_offsets_f32", "i64 offsets", i64_offsets, ["*fp32", "*fp32", "i64", "i64", "i64"],
       {"BM": 32, "BN": 128}, div16=["x_ptr", "y_ptr", "stride_m"]),
    _s("cumsum_i32_small", "scan, small block (fewer elements than threads)", cumsum, ["*i32", "*i32", "i32"],
       {"BLOCK": 64}, div16=["x_ptr", "y_ptr", "n"]),
    _s("where_clamp_fp16", "scalar load + select", where_clamp, ["*fp16", "*fp16", "*fp16", "i32"], {"BLOCK": 256}),
]


def make_ttir(spec):
    """(module, context) after the real frontend and the backend's make_ttir, as triton.compile has it."""
    import refgen_common
    from triton._C.libtriton import ir
    from triton.compiler.compiler import ASTSource, AttrsDescriptor, make_backend
    fn, names = spec["kernel"], spec["kernel"].arg_names
    sig = {names.index(n): t for n, t in spec["signature"].items()}
    attrs = AttrsDescriptor(divisible_by_16={names.index(n) for n in spec["div16"]})
    src = ASTSource(fn, sig, constants=dict(spec["constexprs"]), attrs=attrs)
    backend = make_backend(refgen_common.gpu_target(spec["target"]))
    options = backend.parse_options({"num_warps": spec["num_warps"]})
    ctx = ir.context()
    ir.load_dialects(ctx)
    backend.load_dialects(ctx)
    mod = src.make_ir(options, backend.get_codegen_implementation(), ctx)
    stages = {}
    backend.add_stages(stages, options)
    metadata = {"hash": "refgen", "target": refgen_common.gpu_target(spec["target"]), **options.__dict__}
    return stages["ttir"](mod, metadata), ctx


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--dump", metavar="DIR", help="write <id>.ttir for every spec")
    a = ap.parse_args()
    for s in SPECS:
        if a.list:
            print(f"{s['id']:32s} {s['target']:11s} w{s['num_warps']}  {s['kind']}")
        if a.dump:
            os.makedirs(a.dump, exist_ok=True)
            mod, _ = make_ttir(s)
            open(os.path.join(a.dump, s["id"] + ".ttir"), "w").write(mod.str())


if __name__ == "__main__":
    main()
