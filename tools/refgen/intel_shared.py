"""Shared-memory references from the REAL Intel XPU Triton compiler (triton-xpu 3.3.0b1) for PVC, on the CPU.

    /work/.venv-xpu/bin/python tools/refgen/intel_shared.py --out tests/data/intel-shared

Compiles our GEMM + add-matrix kernel with block pointers (bf16 A/B, f32 D/C; the add-matrix D is loaded
in a #blocked layout and converted to #triton_intel_gpu.dpas, the conversion whose scratch dominates) for
BM x BN in {128, 256}^2, BK 32, 16 and 32 warps, 2 stages, through the whole Intel pipeline to SPIR-V, and
writes `<name>.ttgir` (the TTGIR the compiler allocated: `kernel.asm["ttgir"]`) and `index.json` with
`metadata.shared` per configuration.  No Intel GPU or oneAPI is needed: the backend's device-architecture
probe (a C helper built against SYCL) is replaced by an empty answer and PVC's properties are given.
"""
import argparse
import json
import os
import re
import sys
import tempfile

os.environ.setdefault("TRITON_DEFAULT_FP_FUSION", "1")

import triton  # noqa: E402
import triton.backends as backends  # noqa: E402
import triton.language as tl  # noqa: E402
from triton.backends.compiler import GPUTarget  # noqa: E402

PVC = {"name": "Intel(R) Data Center GPU Max 1550", "architecture": 0, "max_work_group_size": 1024,
       "max_num_sub_groups": 64, "sub_group_sizes": [16, 32], "has_fp64": True,
       "has_subgroup_matrix_multiply_accumulate": True,
       "has_subgroup_matrix_multiply_accumulate_tensor_float32": False,
       "has_subgroup_2d_block_io": True, "has_bfloat16_conversions": True}


class _NoDeviceArch:
    @staticmethod
    def parse_device_arch(_):
        return ""


def _skip_arch_probe():
    """The Intel backend builds a SYCL helper only to name the device architecture; answer "" instead."""
    init = backends.backends["intel"].compiler.__init__
    init.__globals__["compile_module_from_src"] = lambda *a, **k: _NoDeviceArch()


@triton.jit
def gemm_addmm_bp(a_ptr, b_ptr, d_ptr, c_ptr, M, N, K, sam, sak, sbk, sbn, sdm, sdn, scm, scn,
                  BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    """C = A @ B + D with block pointers: the D tile is loaded row-major and added to the DPAS result"""
    pm = tl.program_id(0)
    pn = tl.program_id(1)
    a = tl.make_block_ptr(a_ptr, (M, K), (sam, sak), (pm * BM, 0), (BM, BK), (1, 0))
    b = tl.make_block_ptr(b_ptr, (K, N), (sbk, sbn), (0, pn * BN), (BK, BN), (1, 0))
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for _ in range(0, K, BK):
        acc += tl.dot(tl.load(a, boundary_check=(0, 1)), tl.load(b, boundary_check=(0, 1)))
        a = tl.advance(a, (0, BK))
        b = tl.advance(b, (BK, 0))
    d = tl.make_block_ptr(d_ptr, (M, N), (sdm, sdn), (pm * BM, pn * BN), (BM, BN), (1, 0))
    acc += tl.load(d, boundary_check=(0, 1))
    c = tl.make_block_ptr(c_ptr, (M, N), (scm, scn), (pm * BM, pn * BN), (BM, BN), (1, 0))
    tl.store(c, acc, boundary_check=(0, 1))


def compile_config(bm, bn, bk, warps, stages):
    sig = {n: t for n, t in zip(gemm_addmm_bp.arg_names,
                                ["*bf16", "*bf16", "*fp32", "*fp32"] + ["i32"] * 11 + ["constexpr"] * 3)}
    consts = {"BM": bm, "BN": bn, "BK": bk, "sak": 1, "sbn": 1, "sdn": 1, "scn": 1}
    src = triton.compiler.ASTSource(gemm_addmm_bp, sig, constexprs=consts)
    return triton.compile(src, target=GPUTarget("xpu", PVC, 16), options={"num_warps": warps, "num_stages": stages})


def shorten(text):
    text = text.replace(os.path.abspath(__file__), "tools/refgen/intel_shared.py")
    return re.sub(r'"[^"]*?/site-packages/triton/', '"/opt/venv/lib/python3.11/site-packages/triton/', text)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    _skip_arch_probe()
    os.makedirs(a.out, exist_ok=True)
    rows = []
    with tempfile.TemporaryDirectory() as cache:
        os.environ["TRITON_CACHE_DIR"] = cache
        for bm in (128, 256):
            for bn in (128, 256):
                for warps in (16, 32):
                    name = f"addmm_bp_bf16_{bm}x{bn}x32_w{warps}_s2"
                    k = compile_config(bm, bn, 32, warps, 2)
                    with open(os.path.join(a.out, name + ".ttgir"), "w") as f:
                        f.write(shorten(k.asm["ttgir"]))
                    rows.append({"name": name, "BM": bm, "BN": bn, "BK": 32, "num_warps": warps, "num_stages": 2,
                                 "shared": int(k.metadata.shared), "ttgir": name + ".ttgir"})
                    print(f"{name}: shared {k.metadata.shared}")
    index = {"compiler": f"triton-xpu {triton.__version__}", "target": "PVC (xpu, 16-lane sub-groups)",
             "generator": "tools/refgen/intel_shared.py", "cases": rows}
    with open(os.path.join(a.out, "index.json"), "w") as f:
        json.dump(index, f, indent=1)
        f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
