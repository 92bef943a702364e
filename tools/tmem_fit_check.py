"""Check irkit's 32x32b tensor-memory test (irkit/layout/tmem.py) against a real Triton's canonicalize.

    python tools/tmem_fit_check.py --triton-python /work/venvs/t3.9.0/bin/python --seed 2 --count 150

Makes `count` random register layouts of a 128x64 tensor (8 warps; f32, bf16 packed or unpacked), about half of
them near the 32x32b shape, each in a kernel that converts it and stores it to tensor memory; the real
`canonicalize` drops the convert exactly when Triton finds the layout tensor-memory compatible.  Prints how
often both, only Triton, only irkit or neither accept; `irkit_only` must be 0 (irkit never folds where
Triton would not).  Exits 1 otherwise.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
from pathlib import Path

from irkit.frontend.parser import Parser
from irkit.layout.tmem import fits_32x32b_message

REFGEN = Path(__file__).resolve().parent / "refgen"
ROWS = [[1 << i, 0] for i in range(7)]
COLS = [[0, 1 << i] for i in range(6)]

KERNEL = """#blocked = #ttg.blocked<{{sizePerThread = [1, 32], threadsPerWarp = [32, 1], warpsPerCTA = [4, 2], order = [0, 1]}}>
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = {col_stride}>
module attributes {{"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32}} {{
  tt.func @f(%arg0: tensor<128x64x{dt}, {layout}>, %arg1: !ttg.memdesc<128x64x{dt}, #tmem, #ttng.tensor_memory, mutable>) {{
    %true = arith.constant true
    %0 = ttg.convert_layout %arg0 : tensor<128x64x{dt}, {layout}> -> tensor<128x64x{dt}, #blocked>
    ttng.tmem_store %0, %arg1, %true : tensor<128x64x{dt}, #blocked> -> !ttg.memdesc<128x64x{dt}, #tmem, #ttng.tensor_memory, mutable>
    tt.return
  }}
}}
"""

REAL = """
import json, os, sys
sys.path.insert(0, {refgen!r})
os.environ.setdefault("TRITON_DEFAULT_FP_FUSION", "1")
import refgen_common
from triton._C.libtriton import passes
out = {{}}
for cid, text in json.loads(sys.stdin.read()):
    ctx = refgen_common.context("cuda:100")
    mod = refgen_common.parse_text(text, ctx, cid + ".mlir")
    refgen_common.run_passes(mod, ctx, passes.common.add_canonicalizer)
    out[cid] = "convert_layout" not in refgen_common.text(mod)
print(json.dumps(out))
"""


def random_layout(rng: random.Random) -> str:
    if rng.random() < 0.5:  # near the 32x32b shape: lanes on rows, warps 0/1 on rows 32/64
        lane, warp, rest = ROWS[:5], ROWS[5:7], COLS[:]
        rng.shuffle(rest)
        if rng.random() < 0.3:
            i, j = rng.randrange(5), rng.randrange(6)
            lane = lane[:]
            lane[i], rest[j] = rest[j], lane[i]
        if rng.random() < 0.2:
            warp = warp[::-1]
        warp = warp + [rest.pop()]
        register = rest
    else:
        bases = ROWS + COLS
        rng.shuffle(bases)
        lane, warp, register = bases[:5], bases[5:8], bases[8:]
    return f"#ttg.linear<{{register = {register}, lane = {lane}, warp = {warp}, block = []}}>"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--triton-python", required=True)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--count", type=int, default=150)
    args = ap.parse_args(argv)
    rng = random.Random(args.seed)
    cases = []
    for k in range(args.count):
        dt, col_stride = rng.choice([("f32", 1), ("bf16", 1), ("bf16", 2)])
        cases.append((f"c{k}", KERNEL.format(dt=dt, col_stride=col_stride, layout=random_layout(rng))))
    proc = subprocess.run([args.triton_python, "-c", REAL.format(refgen=str(REFGEN))], input=json.dumps(cases),
                          capture_output=True, text=True, check=True)
    real = json.loads(proc.stdout.strip().splitlines()[-1])
    counts = {"both": 0, "triton_only": 0, "irkit_only": 0, "neither": 0}
    for cid, text in cases:
        func = next(op for op in Parser(text, cid).parse().module.walk() if op.name == "tt.func")
        tensor, buffer = func.regions[0].blocks.first.args
        ours, theirs = fits_32x32b_message(tensor.type, buffer.type), real[cid]
        counts["both" if ours and theirs else "irkit_only" if ours else "triton_only" if theirs else "neither"] += 1
        if ours and not theirs:
            print(f"irkit accepts, Triton does not:\n{text}")
    print(json.dumps(counts))
    return 1 if counts["irkit_only"] else 0


if __name__ == "__main__":
    sys.exit(main())
