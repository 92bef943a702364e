"""Static metrics of the GEMM + add-matrix kernel for an H100 (cuda:90), without a GPU.

For each tile config, Triton (3.6 here) compiles the kernel on the CPU; irkit's propagate-mma rewrites the
TTGIR (`profit=always`, and the default model), Triton compiles that to PTX and cubin, and `ptxas -v`
gives registers and spills.  PTX global load/store vector widths, shared-memory instructions and
barriers are counted.  The cost model (irkit/analysis/cost_model.py) is calibrated against these and
against the measured speeds in docs/propagate-mma-results.md.

    /path/to/triton36/bin/python tools/h100_static_metrics.py --irkit-opt .venv/bin/irkit-opt --out m.json
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

CONFIGS = [  # BLOCK_M, BLOCK_N, BLOCK_K, num_warps, num_stages
    (128, 256, 64, 8, 3), (256, 128, 64, 8, 3), (128, 128, 64, 4, 4), (128, 128, 64, 8, 3),
    (128, 128, 32, 4, 3), (64, 256, 64, 4, 4), (256, 256, 64, 8, 3), (256, 256, 32, 8, 4),
]
PTX_COUNTS = ("ld.global.v4", "ld.global.v2", "st.global.v4", "st.global.v2", "ld.global.b32", "st.global.b32",
              "st.shared", "ld.shared", "bar.sync", "stmatrix", "ldmatrix")


def _kernel():
    import triton
    import triton.language as tl

    @triton.jit
    def addmm(a_ptr, b_ptr, d_ptr, c_ptr, M, N, K, sam, sak, sbk, sbn, sdm, sdn, scm, scn,
              BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, ADD: tl.constexpr,
              D_F16: tl.constexpr):
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
        if ADD:
            acc += tl.load(d_ptr + rm[:, None] * sdm + rn[None, :] * sdn, mask=mask, other=0.0).to(tl.float32)
        tl.store(c_ptr + rm[:, None] * scm + rn[None, :] * scn, acc.to(c_ptr.dtype.element_ty), mask=mask)

    return addmm


def _example_kernel():
    """examples/gpu/addmm.py's kernel (what irkit-check runs on the GPU)."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples" / "gpu"))
    try:
        from addmm import addmm_kernel
    finally:
        sys.path.pop(0)
    return addmm_kernel


def compile_one(cfg, add, d_type, work: Path, irkit_opt: str, profit: str | None, example: bool = False):
    import triton
    from triton.backends.compiler import GPUTarget

    bm, bn, bk, w, s = cfg
    sig = {"a_ptr": "*bf16", "b_ptr": "*bf16", "d_ptr": f"*{d_type}", "c_ptr": f"*{d_type}", "M": "i32", "N": "i32",
           "K": "i32", "sam": "i32", "sak": "i32", "sbk": "i32", "sbn": "i32", "sdm": "i32", "sdn": "i32",
           "scm": "i32", "scn": "i32", "BLOCK_M": "constexpr", "BLOCK_N": "constexpr", "BLOCK_K": "constexpr",
           "ADD": "constexpr"}
    consts = {"BLOCK_M": bm, "BLOCK_N": bn, "BLOCK_K": bk, "ADD": add, "sak": 1, "sbn": 1, "sdn": 1, "scn": 1}
    if not example:
        sig["D_F16"] = "constexpr"
        consts["D_F16"] = d_type != "fp32"
    # what a launch at 4096^3 specialises: pointers and multiples of 16 get tt.divisibility = 16
    attrs = {(i,): [["tt.divisibility", 16]] for i in (0, 1, 2, 3, 4, 5, 6, 7, 9, 11, 13)}
    target = GPUTarget("cuda", 90, 32)
    src = triton.compiler.ASTSource(_example_kernel() if example else _kernel(), sig, constexprs=consts, attrs=attrs)
    k = triton.compile(src, target=target, options={"num_warps": w, "num_stages": s})
    out = {"before": metrics(k, work / "before")}
    if profit is None:
        return out
    ttgir = work / "before.ttgir"
    ttgir.write_text(k.asm["ttgir"])
    out["ttgir"] = str(ttgir)
    for mode in profit.split(","):
        after = work / f"after_{mode}.ttgir"
        p = subprocess.run([irkit_opt, str(ttgir), f"--propagate-mma=profit={mode}", "--mlir-print-remarks",
                            "-o", str(after)], capture_output=True, text=True, check=False)
        if p.returncode:
            out[mode] = {"error": p.stderr[-800:]}
            continue
        k2 = triton.compile(str(after), target=target, options={"num_warps": w, "num_stages": s})
        out[mode] = metrics(k2, work / mode)
        out[mode]["remarks"] = [line.split("remark: ", 1)[-1] for line in p.stderr.splitlines() if "remark:" in line]
    return out


def metrics(k, stem: Path) -> dict:
    ptx = k.asm["ptx"]
    m = {c: len(re.findall(re.escape(c) + r"[ .]", ptx)) for c in PTX_COUNTS}
    m["shared"] = k.metadata.shared
    m["converts"] = k.asm["ttgir"].count("ttg.convert_layout")
    cubin = stem.with_suffix(".cubin")
    cubin.write_bytes(k.asm["cubin"])
    ptx_file = stem.with_suffix(".ptx")
    ptx_file.write_text(ptx)
    import triton.backends.nvidia as nvidia_backend

    ptxas = Path(nvidia_backend.__file__).parent / "bin" / "ptxas"
    p = subprocess.run([str(ptxas), "-v", "--gpu-name", "sm_90a", str(ptx_file), "-o", str(stem) + ".o"],
                       capture_output=True, text=True, check=False)
    regs = re.search(r"Used (\d+) registers", p.stderr)
    spill = re.search(r"(\d+) bytes spill stores", p.stderr)
    m["n_regs"] = int(regs.group(1)) if regs else None
    m["spill_store_bytes"] = int(spill.group(1)) if spill else None
    return m


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--irkit-opt", default="irkit-opt")
    ap.add_argument("--out", required=True)
    ap.add_argument("--profit", default="always,model")
    ap.add_argument("--d-types", default="fp32")
    ap.add_argument("--configs", default="", help="semicolon list of BM,BN,BK,W,S (default: the 8 measured)")
    ap.add_argument("--example", action="store_true", help="examples/gpu/addmm.py's kernel and its 16 configs")
    args = ap.parse_args()
    configs = [tuple(int(x) for x in c.split(",")) for c in args.configs.split(";") if c]
    if args.example and not configs:
        sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples" / "gpu"))
        from addmm import CONFIGS as example_configs

        configs = list(example_configs)
    configs = configs or CONFIGS
    rows = []
    for cfg in configs:
        for d_type in args.d_types.split(","):
            for add in (True, False):
                work = Path(tempfile.mkdtemp(prefix="h100_"))
                os.environ["TRITON_CACHE_DIR"] = str(work / "cache")
                try:
                    r = compile_one(cfg, add, d_type, work, args.irkit_opt, args.profit, args.example)
                except Exception as e:  # noqa: BLE001 (a config that does not compile is a result too)
                    r = {"error": str(e)[-800:]}
                rows.append({"config": cfg, "add": add, "d_type": d_type, **r})
                print(json.dumps(rows[-1])[:300], file=sys.stderr)
    Path(args.out).write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
