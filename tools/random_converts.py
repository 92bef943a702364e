"""Random blocked -> blocked converts: irkit's scratch bytes against a real Triton's allocate-shared-memory pass.

Each module holds one `ttg.convert_layout` between two random blocked layouts (4 warps of 32 lanes; shapes
32/64/128 x 32/64/128; f16, bf16, f32 or i8), deterministic by seed.  The real pass runs in the Triton's own
Python (tools/refgen/real_shared.py); irkit runs here with that release's rules.

    .venv/bin/python tools/random_converts.py --python /work/venvs/t3.5.1/bin/python --version 3.5.1 \\
        --target cuda:90 --seed 1 --count 150
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

_REAL = """
import glob, json, sys
sys.path.insert(0, sys.argv[2])
import real_shared
print(json.dumps({f: real_shared.shared_bytes(f) for f in sorted(glob.glob(sys.argv[1] + "/*.ttgir"))}))
"""


def blocked(rng: random.Random) -> str:
    spt = [rng.choice([1, 2, 4, 8]) for _ in range(2)]
    lanes, warps = rng.randint(0, 5), rng.randint(0, 2)
    order = rng.choice([[0, 1], [1, 0]])
    return (f"#ttg.blocked<{{sizePerThread = {spt}, threadsPerWarp = {[2**lanes, 2 ** (5 - lanes)]}, "
            f"warpsPerCTA = {[2**warps, 2 ** (2 - warps)]}, order = {order}}}>")


def module(rng: random.Random, target: str) -> str:
    src, dst = blocked(rng), blocked(rng)
    t = f"{rng.choice([32, 64, 128])}x{rng.choice([32, 64, 128])}x{rng.choice(['f16', 'bf16', 'f32', 'i8'])}"
    return f"""#src = {src}
#dst = {dst}
module attributes {{"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "{target}", "ttg.threads-per-warp" = 32 : i32}} {{
  tt.func public @k(%x: tensor<{t}, #src>) -> tensor<{t}, #dst> {{
    %c = ttg.convert_layout %x : tensor<{t}, #src> -> tensor<{t}, #dst>
    tt.return %c : tensor<{t}, #dst>
  }}
}}
"""


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--python", required=True, help="a Python that imports the real Triton")
    ap.add_argument("--version", required=True, help="that Triton's version (irkit's rules follow it)")
    ap.add_argument("--target", default="cuda:90")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=150)
    args = ap.parse_args()
    from irkit.analysis.shared_memory import analyze_shared_memory
    from irkit.frontend.parser import Parser

    rng = random.Random(args.seed)
    work = Path(tempfile.mkdtemp(prefix="irkit-random-converts-"))
    for i in range(args.count):
        (work / f"{i:04d}.ttgir").write_text(module(rng, args.target))
    proc = subprocess.run([args.python, "-c", _REAL, str(work), str(ROOT / "tools" / "refgen")],
                          capture_output=True, text=True, check=True)
    real = json.loads(proc.stdout)
    misses = []
    for path, want in sorted(real.items()):
        got = analyze_shared_memory(Parser(Path(path).read_text(), path).parse(), version=args.version).total_bytes
        if got != want:
            misses.append((path, got, want))
    print(f"Triton {args.version} {args.target}: {len(real) - len(misses)}/{len(real)} exact")
    for path, got, want in misses:
        print(f"  {path}: irkit {got}, Triton {want}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
