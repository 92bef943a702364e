"""Launch a kernel's TTGIR before and after propagate-mma directly, on a GPU, for a profiler to look at: the
masked bf16 launches of examples/gpu/gemm_batched_rowscale.py (3 x 1500 x 1800 x 1000).  For each config whose
`before_CONFIG.ttgir` and `after_CONFIG.ttgir` lie in DIR, it checks that the two outputs agree bit for bit and,
with `time`, prints each one's median time over 200 launches (CUDA events).  Without `time` each kernel runs
once, which is what a profiler wants.

    DIR holds, per config (e.g. bf16_1500x1800x1000_128x64x64_w4_s4):
      before_CONFIG.ttgir   Triton 3.6's TTGIR for cuda:90 (tools/cost_model_search.py compile --only r12)
      after_CONFIG.ttgir    irkit-opt --propagate-mma=profit=always before_CONFIG.ttgir
    python3 tools/ncu_pair.py DIR time
    ncu --clock-control none -k regex:gemm --section WarpStateStats ... python3 tools/ncu_pair.py DIR

Used for docs/propagate-mma-results.md, round 12 (where in the kernel the masked 128x64x64 w4 s4 loser loses).
"""

from __future__ import annotations

import glob
import os
import sys

import torch
import triton

B, M, N, K = 3, 1500, 1800, 1000


def main() -> None:
    folder, timed = sys.argv[1], sys.argv[2:] == ["time"]
    torch.manual_seed(0)
    a = torch.randn(B, M, K, device="cuda", dtype=torch.bfloat16)
    b = (torch.randn(B, K, N, device="cuda") / K ** 0.5).to(torch.bfloat16)
    s = torch.rand(B, M, device="cuda") * 4
    d = torch.randn(B, M, N, device="cuda", dtype=torch.bfloat16)
    configs = sorted({os.path.basename(p)[len("before_"):-len(".ttgir")] for p in glob.glob(f"{folder}/before_*.ttgir")})
    for config in configs:
        bm, bn = (int(x) for x in config.split("_")[2].split("x")[:2])
        grid = (triton.cdiv(M, bm), triton.cdiv(N, bn), B)
        outs = {}
        for which in ("before", "after"):
            kernel = triton.compile(f"{folder}/{which}_{config}.ttgir")
            c = torch.empty(B, M, N, device="cuda", dtype=torch.bfloat16)
            # the TTGIR's arguments: the 1-valued strides (sak, sbn, sdn, scn) are constexprs already
            args = (a, b, s, d, c, M, N, K, M * K, K, K * N, N, M, M * N, N, M * N, N)
            kernel[grid](*args)
            torch.cuda.synchronize()
            outs[which] = c.clone()
            if timed:
                times = []
                for _ in range(200):
                    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
                    start.record()
                    kernel[grid](*args)
                    end.record()
                    end.synchronize()
                    times.append(start.elapsed_time(end))
                times.sort()
                print(f"{config} {which}: median {times[100] * 1e3:.1f} us, regs {kernel.n_regs}, "
                      f"spills {kernel.n_spills}", flush=True)
        print(f"{config}: bit-identical {torch.equal(outs['before'], outs['after'])}", flush=True)


if __name__ == "__main__":
    main()
