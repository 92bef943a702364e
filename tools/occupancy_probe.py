"""Is a propagate-mma gain (or loss) an occupancy effect?  Time an example program's ORIGINAL kernel with ptxas's
register budget capped (`maxnreg`) to what the rewritten kernel uses, against the uncapped original, interleaved on
the GPU.  If the capped original moves as much as the rewrite did, the rewrite's gain (or loss) came from the extra
CTA per SM that fewer registers allow, not from the epilogue's code.

    python3 tools/occupancy_probe.py --out probe.json                    # addmm at 4096^3 (the H100's probe)
    python3 tools/occupancy_probe.py --program f16acc --out probe.json   # round 28's loss
    python3 tools/occupancy_probe.py --program fp8out --out probe.json   # round 30's

On a machine with an NVIDIA GPU, Triton >= 3.4.  Cases are kernels whose registers the rewrite lowered (ptxas,
docs/propagate-mma-results/).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

# program -> cases: (BLOCK_M, BLOCK_N, BLOCK_K, num_warps, num_stages), registers after propagate-mma, what the
# rewrite measured
CASES = {
    "addmm": [
        ((128, 128, 32, 4, 3), 168, "rewrite 0.954x on the H100: 176 -> 168 registers, 2 -> 3 CTAs per SM by registers"),
        ((64, 128, 32, 4, 3), 96, "rewrite 1.014x on the H100: 110 -> 96 registers, 4 -> 5 CTAs per SM by registers"),
        ((128, 128, 64, 4, 4), 200, "control, rewrite 1.010x: one CTA per SM by shared memory whatever the registers"),
        ((128, 128, 32, 4, 4), 168, "the 2 -> 3 CTA case at 4 stages: 64 KB of shared memory per CTA, not 48"),
    ],
    "f16acc": [
        ((128, 128, 32, 4, 4), 149, "rewrite 1.086x on the H200 (round 28): 176 -> 149 registers, 2 -> 3 CTAs per SM"),
        ((128, 128, 32, 4, 4), 168, "the same kernel capped at 168 registers: 3 CTAs per SM as well"),
        ((128, 128, 64, 4, 4), 149, "control: one CTA per SM by shared memory whatever the registers"),
        ((128, 128, 32, 4, 3), 149, "the 2 -> 3 CTA case at 3 stages: 48 KB of shared memory per CTA, not 64"),
    ],
    "fp8out": [
        ((128, 128, 32, 4, 4), 168, "rewrite 1.166x on the H200 (round 30): 254 -> 168 registers, 2 -> 3 CTAs per SM"),
        ((128, 128, 32, 4, 3), 168, "the same at 3 stages: 48 KB of shared memory per CTA, not 64"),
    ],
}


def _addmm(torch, m, n, k):
    """The plain GEMM of examples/gpu/addmm.py (ADD=False): its kernel, arguments, flags and output."""
    from addmm import addmm_kernel

    g = torch.Generator(device="cuda").manual_seed(7)
    a = torch.randn(m, k, device="cuda", dtype=torch.bfloat16, generator=g)
    b = torch.randn(k, n, device="cuda", dtype=torch.bfloat16, generator=g)
    c = torch.empty(m, n, device="cuda", dtype=torch.float32)
    args = (a, b, c, c, m, n, k, a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0), c.stride(1),
            c.stride(0), c.stride(1))
    return addmm_kernel, args, {"ADD": False}, c


def _f16acc(torch, m, n, k):
    """examples/gpu/gemm_f16acc_residual.py's kernel (round 28)."""
    from gemm_f16acc_residual import gemm_f16acc_residual_kernel

    g = torch.Generator(device="cuda").manual_seed(101)
    a = torch.randn(m, k, device="cuda", dtype=torch.float16, generator=g)
    b = (torch.randn(k, n, device="cuda", dtype=torch.float16, generator=g) / k ** 0.5).to(torch.float16)
    bias = torch.randn(n, device="cuda", dtype=torch.float16, generator=g)
    r = torch.randn(m, n, device="cuda", dtype=torch.float16, generator=g)
    c = torch.empty(m, n, device="cuda", dtype=torch.float16)
    args = (a, b, bias, r, c, m, n, k, a.stride(0), a.stride(1), b.stride(0), b.stride(1), r.stride(0), r.stride(1),
            c.stride(0), c.stride(1))
    return gemm_f16acc_residual_kernel, args, {}, c


def _fp8out(torch, m, n, k):
    """examples/gpu/gemm_fp8_out.py's kernel (round 30)."""
    from gemm_fp8_out import gemm_fp8_out_kernel

    g = torch.Generator(device="cuda").manual_seed(107)
    a = torch.randn(m, k, device="cuda", dtype=torch.float16, generator=g)
    b = (torch.randn(k, n, device="cuda", dtype=torch.float16, generator=g) / k ** 0.5).to(torch.float16)
    bias = torch.randn(n, device="cuda", dtype=torch.float16, generator=g)
    scale = torch.full((1,), 16.0, device="cuda")
    c = torch.empty(m, n, device="cuda", dtype=torch.float8_e4m3fn)
    args = (a, b, bias, scale, c, m, n, k, a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0),
            c.stride(1))
    return gemm_fp8_out_kernel, args, {}, c


def _launcher(triton, kernel, args, flags, m, n):
    """Launch `kernel` on a 2-D grid of tiles with a config and, if given, ptxas's register cap."""
    def launch(config, maxnreg):
        bm, bn, bk, w, s = config
        extra = {"maxnreg": maxnreg} if maxnreg else {}
        return kernel[(triton.cdiv(m, bm), triton.cdiv(n, bn))](*args, BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk, num_warps=w,
                                                                  num_stages=s, **flags, **extra)
    return launch


PROGRAMS = {"addmm": _addmm, "f16acc": _f16acc, "fp8out": _fp8out}


def main() -> None:
    import torch
    import triton

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples" / "gpu"))
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--program", choices=sorted(PROGRAMS), default="addmm")
    ap.add_argument("--rounds", type=int, default=15)
    args = ap.parse_args()
    m = n = k = 4096
    kernel, kernel_args, flags, c = PROGRAMS[args.program](torch, m, n, k)
    launch = _launcher(triton, kernel, kernel_args, flags, m, n)
    rows = []
    for config, regs_after, what in CASES[args.program]:
        uncapped = launch(config, None)
        ref = c.clone()
        capped = launch(config, regs_after)
        same = torch.equal(ref.view(torch.uint8), c.view(torch.uint8))  # bit for bit, fp8 included
        figures = {name: {"registers": getattr(kernel, "n_regs", None), "spills": getattr(kernel, "n_spills", None)}
                   for name, kernel in (("uncapped", uncapped), ("capped", capped))}
        ratios = []
        for _ in range(args.rounds):  # interleaved: each pair sees the same clocks and temperature
            t0 = triton.testing.do_bench(lambda config=config: launch(config, None), warmup=5, rep=40)
            t1 = triton.testing.do_bench(lambda config=config, cap=regs_after: launch(config, cap), warmup=5, rep=40)
            ratios.append(t1 / t0)
        bm, bn, bk, w, s = config
        row = {"program": args.program, "config": f"{bm}x{bn}x{bk} w{w} s{s}", "maxnreg": regs_after, **figures,
               "capped_over_uncapped": statistics.median(ratios), "min": min(ratios), "max": max(ratios),
               "bit_identical": same, "rewrite": what}
        rows.append(row)
        print(json.dumps(row), flush=True)
    dev = torch.cuda.get_device_name()
    Path(args.out).write_text(json.dumps({"device": dev, "triton": triton.__version__, "rows": rows}, indent=1))


if __name__ == "__main__":
    main()
