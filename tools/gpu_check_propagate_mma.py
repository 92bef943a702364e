"""On a machine with an NVIDIA GPU: check that `propagate-mma` does not change what a kernel computes.

For each configuration of a GEMM + add-matrix kernel (C = A @ B + D; bf16 A/B, f32 D/C; sizes that are not
multiples of the tiles, so the masks matter):

1. run it with the installed Triton, dumping its stages (TRITON_KERNEL_DUMP), and keep C;
2. rewrite the dumped TTGIR with irkit's `propagate-mma`;
3. run it again with that TTGIR swapped in (TRITON_KERNEL_OVERRIDE; fresh cache), and keep C;
4. compare: the two C must be bit-identical (same arithmetic, only layouts differ) and close to torch's.

It also reports the conversions in the TTGIR each run compiled and each compile's `metadata.shared`.
Needs torch, a Triton whose TTGIR irkit reads (3.2+ `ttg.*` spelling) and xdsl; irkit is imported from
this checkout (no install needed).

    python3 tools/gpu_check_propagate_mma.py --out results.json
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

ROOT = Path(__file__).resolve().parents[1]

# (BLOCK_M, BLOCK_N, BLOCK_K, num_warps, num_stages, M, N, K)
CONFIGS = [
    (128, 128, 32, 4, 3, 1000, 1000, 512),
    (128, 128, 64, 8, 3, 777, 1029, 320),
    (256, 128, 32, 8, 3, 1000, 1000, 256),
    (64, 64, 32, 4, 2, 333, 444, 96),
    (32, 32, 32, 4, 2, 130, 70, 64),
    (16, 64, 32, 2, 2, 100, 200, 64),
    (128, 256, 64, 8, 3, 1024, 1024, 1024),
]


def _kernel():
    """The add-matrix GEMM of the shipped example (examples/make_addmm_gfx942.py)."""
    sys.path.insert(0, str(ROOT / "examples"))
    try:
        from make_addmm_gfx942 import addmm_kernel
    finally:
        sys.path.pop(0)
    return addmm_kernel


def child(index: int, out: Path) -> None:
    """Run one configuration in this process (the environment chooses dump or override) and save C."""
    import torch
    import triton

    bm, bn, bk, warps, stages, m, n, k = CONFIGS[index]
    kernel = _kernel()
    g = torch.Generator(device="cuda").manual_seed(1234 + index)
    a = torch.randn(m, k, device="cuda", dtype=torch.bfloat16, generator=g)
    b = torch.randn(k, n, device="cuda", dtype=torch.bfloat16, generator=g)
    d = torch.randn(m, n, device="cuda", dtype=torch.float32, generator=g)
    c = torch.full((m, n), float("nan"), device="cuda", dtype=torch.float32)
    grid = (triton.cdiv(m, bm) * triton.cdiv(n, bn),)
    compiled = kernel[grid](a, b, c, d, m, n, k, a.stride(0), b.stride(0), c.stride(0), d.stride(0),
                            BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk, GROUP_M=8, num_warps=warps, num_stages=stages)
    torch.cuda.synchronize()
    ref = a.double() @ b.double() + d.double()
    ttgir = compiled.asm["ttgir"]
    torch.save(c.cpu(), out)
    mma = re.search(r"#ttg\.nvidia_mma<\{versionMajor = (\d+)", ttgir)
    print(json.dumps({
        "mma_version": int(mma.group(1)) if mma else None,
        "shared": int(compiled.metadata.shared),
        "convert_layout": ttgir.count("ttg.convert_layout"),
        "max_abs_err_vs_fp64": float((c.double() - ref).abs().max()),
        "nan": bool(torch.isnan(c).any()),
    }))


def _irkit():
    """irkit from this checkout: `passes/` is installed as `irkit.passes`, so alias it when not installed."""
    sys.path.insert(0, str(ROOT))
    try:
        import irkit.passes  # noqa: F401
    except ImportError:
        import irkit
        import passes

        sys.modules["irkit.passes"] = passes
        irkit.passes = passes


def rewrite(src: Path, dst: Path) -> dict:
    _irkit()
    from irkit.passes import all_passes
    from xdsl.context import Context

    from irkit import diagnostics
    from irkit.frontend.parser import Parser
    from irkit.frontend.printer import print_module
    from irkit.verifier import verify_module

    parsed = Parser(src.read_text(), src.name).parse()
    all_passes()["propagate-mma"]().apply(Context(allow_unregistered=True), parsed.module)
    remarks = [d.message for d in diagnostics.take()]
    errors = verify_module(parsed.module)
    if errors:
        raise RuntimeError(f"rewritten module does not verify: {errors[0][1]}")
    dst.parent.mkdir(parents=True, exist_ok=True)
    dst.write_text(print_module(parsed))
    return {"remarks": remarks}


def run_child(index: int, out: Path, env: dict) -> dict:
    proc = subprocess.run([sys.executable, __file__, "--child", str(index), "--save", str(out)],
                          env={**os.environ, **env}, capture_output=True, text=True, timeout=600)
    lines = [line for line in proc.stdout.splitlines() if line.startswith("{")]
    if proc.returncode != 0 or not lines:
        raise RuntimeError(f"config {index} failed:\n{proc.stdout[-2000:]}\n{proc.stderr[-4000:]}")
    return json.loads(lines[-1])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--child", type=int, default=None, help=argparse.SUPPRESS)
    ap.add_argument("--save", type=Path, default=None, help=argparse.SUPPRESS)
    ap.add_argument("--out", type=Path, default=None, help="write the results as JSON")
    a = ap.parse_args()
    if a.child is not None:
        child(a.child, a.save)
        return 0

    import torch
    import triton

    results = []
    with tempfile.TemporaryDirectory() as tmp_s:
        tmp = Path(tmp_s)
        for i, cfg in enumerate(CONFIGS):
            dump, override = tmp / f"dump{i}", tmp / f"override{i}"
            before = run_child(i, tmp / f"c{i}_before.pt", {
                "TRITON_KERNEL_DUMP": "1", "TRITON_DUMP_DIR": str(dump), "TRITON_CACHE_DIR": str(tmp / f"cache{i}a"),
                "TRITON_ALWAYS_COMPILE": "1"})
            (ttgir,) = list(dump.glob("*/addmm_kernel.ttgir"))
            info = rewrite(ttgir, override / ttgir.parent.name / ttgir.name)
            after = run_child(i, tmp / f"c{i}_after.pt", {
                "TRITON_KERNEL_OVERRIDE": "1", "TRITON_OVERRIDE_DIR": str(override),
                "TRITON_CACHE_DIR": str(tmp / f"cache{i}b"), "TRITON_ALWAYS_COMPILE": "1"})
            c_before = torch.load(tmp / f"c{i}_before.pt")
            c_after = torch.load(tmp / f"c{i}_after.pt")
            row = {
                "config": dict(zip(("BLOCK_M", "BLOCK_N", "BLOCK_K", "num_warps", "num_stages", "M", "N", "K"), cfg)),
                "before": before, "after": after, "remarks": info["remarks"],
                "bit_identical": bool(torch.equal(c_before, c_after)),
            }
            results.append(row)
            print(json.dumps(row), flush=True)
    summary = {"triton": triton.__version__, "torch": torch.__version__, "device": torch.cuda.get_device_name(),
               "results": results}
    if a.out:
        a.out.write_text(json.dumps(summary, indent=1) + "\n")
    ok = all(r["bit_identical"] and not r["after"]["nan"] for r in results)
    print("ALL BIT-IDENTICAL" if ok else "MISMATCH")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
