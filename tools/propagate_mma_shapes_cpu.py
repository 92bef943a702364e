"""The cost model's verdicts on bench/propagate_mma_shapes.py's kernels, without a GPU: Triton (3.6 for the H100
figures) compiles each config for cuda:90 on the CPU with the specialisation a 4096-divisible launch gets, and
`irkit-opt --propagate-mma` says per conversion whether it removes or keeps it.

    /path/to/triton36/bin/python tools/propagate_mma_shapes_cpu.py --irkit-opt .venv/bin/irkit-opt
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--irkit-opt", default="irkit-opt")
    ap.add_argument("--d-types", default="fp16,bf16,fp32")
    args = ap.parse_args()
    sys.path.insert(0, str(ROOT / "bench"))
    import triton
    from propagate_mma_shapes import CONFIGS, addmm_shapes
    from triton.backends.compiler import GPUTarget

    work = Path(tempfile.mkdtemp(prefix="shapes_"))
    for d_type in args.d_types.split(","):
        for bm, bn, bk, warps, stages in CONFIGS:
            os.environ["TRITON_CACHE_DIR"] = str(work / "cache")
            sig = {"a_ptr": "*bf16", "b_ptr": "*bf16", "d_ptr": f"*{d_type}", "c_ptr": f"*{d_type}", "M": "i32",
                   "N": "i32", "K": "i32", "sam": "i32", "sak": "i32", "sbk": "i32", "sbn": "i32", "sdm": "i32",
                   "sdn": "i32", "scm": "i32", "scn": "i32", "BLOCK_M": "constexpr", "BLOCK_N": "constexpr",
                   "BLOCK_K": "constexpr"}
            consts = {"BLOCK_M": bm, "BLOCK_N": bn, "BLOCK_K": bk, "sak": 1, "sbn": 1, "sdn": 1, "scn": 1}
            attrs = {(i,): [["tt.divisibility", 16]] for i in (0, 1, 2, 3, 4, 5, 6, 7, 9, 11, 13)}
            src = triton.compiler.ASTSource(addmm_shapes, sig, constexprs=consts, attrs=attrs)
            kernel = triton.compile(src, target=GPUTarget("cuda", 90, 32), options={"num_warps": warps, "num_stages": stages})
            path = work / f"{d_type}_{bm}x{bn}x{bk}_w{warps}_s{stages}.ttgir"
            path.write_text(kernel.asm["ttgir"])
            p = subprocess.run([args.irkit_opt, str(path), "--propagate-mma", "--mlir-print-remarks", "-o", os.devnull],
                               capture_output=True, text=True, check=False)
            words = ["remove" if "moved to" in line else "keep" for line in p.stderr.splitlines()
                     if "remark: propagate-mma" in line]
            print(d_type, (bm, bn, bk, warps, stages), words, flush=True)


if __name__ == "__main__":
    main()
