"""The same compiled kernels at several problem sizes: does propagate-mma's gain keep its sign when only the
size changes?  addmm's add-matrix GEMM (examples/gpu/addmm.py: C = A @ B + D, bf16 A/B, f32 D/C) in 8 tile
configurations, at sizes that are all multiples of 256, so every size runs the same specialisation (one compiled
kernel per configuration) and only the epilogue's weight changes: K from 512 to 8192 at 4096x4096, and two other
M x N.  A plain Triton program; under irkit-check, `--each-size` times each kernel at every size, where by default
it checks a kernel once, at its first launch (docs/propagate-mma-results/notes.md, round 20):

    irkit-check -p 'propagate-mma{profit=always}' --each-size -- python3 bench/propagate_mma_sizes.py

Each launch is checked against torch in float64.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples" / "gpu"))
from addmm import CONFIGS as ADDMM_CONFIGS  # noqa: E402 - the example's tile configurations
from addmm import addmm  # noqa: E402 - its kernel and launch

# 8 of them, which `profit=always` ran from 0.77 to 1.07 of the original's time at 4096^3 on the H200 (round 19)
CONFIGS = [ADDMM_CONFIGS[i] for i in (0, 1, 2, 3, 4, 12, 11, 9)]
SIZES = [(4096, 4096, 512), (4096, 4096, 1024), (4096, 4096, 2048), (4096, 4096, 4096), (4096, 4096, 8192),
         (8192, 8192, 1024), (2048, 2048, 4096)]


def main() -> None:
    import torch

    g = torch.Generator(device="cuda").manual_seed(13)
    for m, n, k in SIZES:
        a = torch.randn(m, k, device="cuda", dtype=torch.bfloat16, generator=g)
        b = torch.randn(k, n, device="cuda", dtype=torch.bfloat16, generator=g)
        d = torch.randn(m, n, device="cuda", dtype=torch.float32, generator=g)
        ref = a.double() @ b.double() + d.double()
        for config in CONFIGS:
            c = addmm(a, b, d, config, add=True)
            rel = ((c.double() - ref).norm() / ref.norm()).item()
            if not rel < 1e-2:
                raise SystemExit(f"{m}x{n}x{k} {config}: relative error {rel:.2e}")
    torch.cuda.synchronize()
    print(f"addmm at {len(SIZES)} sizes x {len(CONFIGS)} configs: done")


if __name__ == "__main__":
    main()
