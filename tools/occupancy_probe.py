"""Is a propagate-mma gain an occupancy gain?  Time the ORIGINAL kernel of examples/gpu/addmm.py at 4096^3
with ptxas's register budget capped (`maxnreg`) to what the rewritten kernel uses, against the uncapped
original, interleaved on the GPU.  If the capped original speeds up as much as the rewrite did, the rewrite's
gain came from the extra CTA per SM that fewer registers allow, not from the epilogue's memory traffic.

    python3 tools/occupancy_probe.py --out probe.json        # on a machine with an NVIDIA GPU, Triton >= 3.4

Cases are the plain-GEMM kernels whose registers the rewrite lowered (ptxas, docs/propagate-mma-results/).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

# (BLOCK_M, BLOCK_N, BLOCK_K, num_warps, num_stages), registers after propagate-mma, what the rewrite measured
CASES = [
    ((128, 128, 32, 4, 3), 168, "rewrite 0.954x: 176 -> 168 registers, 2 -> 3 CTAs per SM by registers"),
    ((64, 128, 32, 4, 3), 96, "rewrite 1.014x: 110 -> 96 registers, 4 -> 5 CTAs per SM by registers"),
    ((128, 128, 64, 4, 4), 200, "control, rewrite 1.010x: one CTA per SM by shared memory whatever the registers"),
]


def main() -> None:
    import torch
    import triton

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples" / "gpu"))
    from addmm import addmm_kernel

    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--rounds", type=int, default=15)
    args = ap.parse_args()
    m = n = k = 4096
    g = torch.Generator(device="cuda").manual_seed(7)
    a = torch.randn(m, k, device="cuda", dtype=torch.bfloat16, generator=g)
    b = torch.randn(k, n, device="cuda", dtype=torch.bfloat16, generator=g)
    c = torch.empty(m, n, device="cuda", dtype=torch.float32)
    rows = []
    for (bm, bn, bk, w, s), regs_after, what in CASES:
        grid = (triton.cdiv(m, bm), triton.cdiv(n, bn))

        def launch(maxnreg, bm=bm, bn=bn, bk=bk, w=w, s=s, grid=grid):
            extra = {"maxnreg": maxnreg} if maxnreg else {}
            return addmm_kernel[grid](a, b, c, c, m, n, k, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                                      c.stride(0), c.stride(1), c.stride(0), c.stride(1), BLOCK_M=bm, BLOCK_N=bn,
                                      BLOCK_K=bk, ADD=False, num_warps=w, num_stages=s, **extra)

        uncapped = launch(None)
        ref = c.clone()
        capped = launch(regs_after)
        same = torch.equal(ref, c)
        regs = {None: getattr(uncapped, "n_regs", None), regs_after: getattr(capped, "n_regs", None)}
        ratios = []
        for _ in range(args.rounds):  # interleaved: each pair sees the same clocks and temperature
            t0 = triton.testing.do_bench(lambda: launch(None), warmup=5, rep=40)
            t1 = triton.testing.do_bench(lambda r=regs_after: launch(r), warmup=5, rep=40)
            ratios.append(t1 / t0)
        row = {"config": f"{bm}x{bn}x{bk} w{w} s{s}", "maxnreg": regs_after, "registers": [regs[None], regs[regs_after]],
               "capped_over_uncapped": statistics.median(ratios), "min": min(ratios), "max": max(ratios),
               "bit_identical": same, "rewrite": what}
        rows.append(row)
        print(json.dumps(row), flush=True)
    dev = torch.cuda.get_device_name()
    Path(args.out).write_text(json.dumps({"device": dev, "triton": triton.__version__, "rows": rows}, indent=1))


if __name__ == "__main__":
    main()
