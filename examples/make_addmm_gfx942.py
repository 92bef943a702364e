"""Make examples/addmm_gfx942_256x256.ttgir with the REAL Triton 3.1 (CPU only, no GPU needed).

    /work/.venv-triton31/bin/python examples/make_addmm_gfx942.py      # needs ld.lld for the HIP backend

A GEMM with an add-matrix epilogue, C = A @ B + D (A, B bf16; D, C f32), compiled for MI300X
(`GPUTarget("hip", "gfx942", 64)`) with 256x256x32 tiles, 8 warps and num_stages=0 (Triton 3.1's AMD stream
pipeliner), all the way to the hsaco.  The script writes the TTGIR the compiler produced (source paths in
locations shortened to `examples/make_addmm_gfx942.py` and `site-packages/triton/...`) and prints `metadata.shared`, which Triton checks
against the 65,536 bytes of MI300X shared memory when the kernel is loaded.
"""

import os
import sys
import tempfile
from pathlib import Path

import triton
import triton.language as tl
from triton.backends.compiler import GPUTarget
from triton.compiler.compiler import ASTSource

HERE = Path(__file__).resolve().parent


@triton.jit
def addmm_kernel(a_ptr, b_ptr, c_ptr, d_ptr, M, N, K, stride_am, stride_bk, stride_cm, stride_dm,
                 BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr):
    pid = tl.program_id(0)
    grid_m = tl.cdiv(M, BLOCK_M)
    grid_n = tl.cdiv(N, BLOCK_N)
    width = GROUP_M * grid_n
    group = pid // width
    first_m = group * GROUP_M
    rows_in_group = min(grid_m - first_m, GROUP_M)
    pid_m = first_m + (pid % width) % rows_in_group
    pid_n = (pid % width) // rows_in_group

    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + (rm[:, None] % M) * stride_am + rk[None, :]
    b_ptrs = b_ptr + rk[:, None] * stride_bk + (rn[None, :] % N)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        a = tl.load(a_ptrs, mask=rk[None, :] < K - k * BLOCK_K, other=0.0)
        b = tl.load(b_ptrs, mask=rk[:, None] < K - k * BLOCK_K, other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BLOCK_K
        b_ptrs += BLOCK_K * stride_bk

    mask = (rm[:, None] < M) & (rn[None, :] < N)
    d = tl.load(d_ptr + rm[:, None] * stride_dm + rn[None, :], mask=mask, other=0.0)
    tl.store(c_ptr + rm[:, None] * stride_cm + rn[None, :], acc + d, mask=mask)


def main() -> int:
    signature = {0: "*bf16", 1: "*bf16", 2: "*fp32", 3: "*fp32",
                 4: "i32", 5: "i32", 6: "i32", 7: "i32", 8: "i32", 9: "i32", 10: "i32"}
    constants = {"BLOCK_M": 256, "BLOCK_N": 256, "BLOCK_K": 32, "GROUP_M": 8}
    # what the JIT specialises for 16-aligned pointers and sizes/strides that are multiples of 16
    attrs = triton.compiler.AttrsDescriptor(divisible_by_16=set(range(11)))
    src = ASTSource(addmm_kernel, signature, constants=constants, attrs=attrs)
    with tempfile.TemporaryDirectory() as cache:
        os.environ["TRITON_CACHE_DIR"] = cache
        kernel = triton.compile(src, target=GPUTarget("hip", "gfx942", 64),
                                options={"num_warps": 8, "num_stages": 0})
    site_packages = str(Path(triton.__file__).resolve().parents[1])
    ttgir = (kernel.asm["ttgir"].replace(str(Path(__file__).resolve()), "examples/make_addmm_gfx942.py")
             .replace(site_packages, "site-packages"))
    out = HERE / "addmm_gfx942_256x256.ttgir"
    out.write_text(ttgir)
    print(f"triton {triton.__version__}: wrote {out.relative_to(HERE.parent)}; metadata.shared = {kernel.metadata.shared}"
          f" (MI300X limit 65536)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
