"""Real Intel XPU TTIR/TTGIR of our own GEMM kernels, compiled on the CPU for a PVC target.

Intel's backend (`triton-xpu` 3.3.0b1 on PyPI) prints core TritonGPU ops as `ttg.*` and its own as
`triton_intel_gpu.*` / `#triton_intel_gpu.dpas<...>`; irkit must read that and print it back so this
compiler reads it again.  The whole compile pipeline runs without an Intel GPU once the backend's
device-architecture probe (a C helper built against SYCL headers, only used to name the architecture)
is replaced and the target's properties are given (PVC below: 16-lane sub-groups, DPAS, 2D block IO,
128 KiB of shared local memory).

Kernels (tools/gemm_kernels.py): GEMM and GEMM + add-matrix (C = A @ B + D; bf16 A/B, f32 D/C), each with
plain pointers and with block pointers, in a few tile configurations.  Written under --out:

    <name>.ttir  <name>.ttgir    the text the compiler writes to its cache (custom syntax, locations)
    index.json                   per case: kernel, config, signature, the compiler's metadata.shared

Run from the repository root (deterministic; source paths in locations are shortened):

    /work/.venv-xpu/bin/python tools/intel_xpu_kernels.py --out tests/data/intel
"""

from __future__ import annotations

import argparse
import json
import os
import sys

import triton
from triton import backends
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gemm_kernels import (
    gemm,
    gemm_add_matrix,
    gemm_add_matrix_bp,
    gemm_bp,
    gemm_signature,
    shorten_paths,
)


class _NoArchProbe:
    @staticmethod
    def parse_device_arch(_):
        return ""


# The backend compiles a C helper only to name the device architecture: replace it by a fixed answer.
backends.backends["intel"].compiler.__init__.__globals__["compile_module_from_src"] = lambda *a, **k: _NoArchProbe()

PVC = {"name": "Intel(R) Data Center GPU Max 1550", "architecture": 0, "max_work_group_size": 1024,
       "max_num_sub_groups": 64, "sub_group_sizes": [16, 32], "has_fp64": True,
       "has_subgroup_matrix_multiply_accumulate": True,
       "has_subgroup_matrix_multiply_accumulate_tensor_float32": False,
       "has_subgroup_2d_block_io": True, "has_bfloat16_conversions": True}
PVC_TARGET = GPUTarget("xpu", PVC, 16)
PVC_SLM_BYTES = 131072


KERNELS = {"gemm": gemm, "gemm_bp": gemm_bp, "addmm": gemm_add_matrix, "addmm_bp": gemm_add_matrix_bp}
# (BM, BN, BK, warps, stages): the default-ish tile, a wide one, and the seed's 256x256x32 w32 that is out of
# resources on PVC until the add-matrix conversion is removed.
CONFIGS = [(128, 128, 32, 8, 2), (256, 128, 32, 32, 2), (256, 256, 32, 32, 2)]

def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default="tests/data/intel")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    index = {"triton": triton.__version__, "target": "xpu (PVC, 16-lane sub-groups)",
             "slm_bytes": PVC_SLM_BYTES, "cases": []}
    for kname, kernel in KERNELS.items():
        for bm, bn, bk, warps, stages in CONFIGS:
            consts = {"BM": bm, "BN": bn, "BK": bk}
            src = ASTSource(kernel, gemm_signature(kernel), constexprs=consts)
            compiled = triton.compile(src, target=PVC_TARGET, options={"num_warps": warps, "num_stages": stages})
            name = f"{kname}_bf16_{bm}x{bn}x{bk}_w{warps}_s{stages}"
            for stage in ("ttir", "ttgir"):
                with open(os.path.join(args.out, f"{name}.{stage}"), "w") as f:
                    f.write(shorten_paths(compiled.asm[stage]))
            shared = compiled.metadata.shared
            index["cases"].append({"name": name, "kernel": kernel.__name__, "block_pointers": kname.endswith("_bp"),
                                   "add_matrix": kname.startswith("addmm"), "constexprs": consts,
                                   "num_warps": warps, "num_stages": stages, "shared": shared,
                                   "fits": shared <= PVC_SLM_BYTES})
            print(f"{name}: shared={shared}")
    with open(os.path.join(args.out, "index.json"), "w") as f:
        json.dump(index, f, indent=1, sort_keys=True)
        f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
