"""Random converts: irkit's scratch bytes against a real Triton's allocate-shared-memory pass.

Each module holds one `ttg.convert_layout` between two random blocked layouts (4 warps of 32 lanes; shapes
32/64/128 x 32/64/128; f16, bf16, f32 or i8), deterministic by seed.  With `--target xpu` (triton-xpu's
Python), Intel PVC layouts over 4 to 32 warps: a DPAS accumulator, its operands and 16-lane blocked layouts
in any pairing, 1-D slices of an accumulator and a blocked layout, and some blocked -> blocked modules over
32 lanes.  With `--kind fma`, a blocked layout to or from an FMA dot's operand (a dot_op of a blocked layout,
f32).  With `--kind lds` (AMD targets), modules over the LDS: a large convert between AMD layouts (MFMA, its
operands, 64-lane blocked layouts, slices), 4 or 8 warps, some with a shared buffer live across it, priced as
the compile prices them, after optimize-amd-lds-usage (real_shared.py --as-compiled).  The real pass runs in the
Triton's own Python (tools/refgen/real_shared.py); irkit runs here with that release's rules.

    .venv/bin/python tools/random_converts.py --python /work/venvs/t3.5.1/bin/python --version 3.5.1 \\
        --target cuda:90 --seed 1 --count 150
    .venv/bin/python tools/random_converts.py --python /work/venvs/xpu/bin/python --version 3.3.0b1 --target xpu
    .venv/bin/python tools/random_converts.py --python /work/venvs/t3.9.0/bin/python --version 3.9.0 --kind fma
    .venv/bin/python tools/random_converts.py --python /work/venvs/t3.6.0/bin/python --version 3.6.0 \
        --target hip:gfx942 --kind lds
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
def bytes_or_none(f):
    try:
        return real_shared.shared_bytes(f, as_compiled=sys.argv[3] == "lds")
    except Exception:  # the real parser or verifier refused the module
        return None
print(json.dumps({f: bytes_or_none(f) for f in sorted(glob.glob(sys.argv[1] + "/*.ttgir"))}))
"""


def blocked(rng: random.Random) -> str:
    """A random 2-D blocked layout over 4 warps of 32 lanes."""
    return blocked_of(rng, 32, 4)


def blocked_of(rng: random.Random, lanes: int, warps: int) -> str:
    """A random 2-D blocked layout over `lanes` work-items and `warps` warps (powers of two)."""
    spt = [rng.choice([1, 2, 4, 8]) for _ in range(2)]
    lane_bits, warp_bits = lanes.bit_length() - 1, warps.bit_length() - 1
    lb, wb = rng.randint(0, lane_bits), rng.randint(0, warp_bits)
    order = rng.choice([[0, 1], [1, 0]])
    return (f"#ttg.blocked<{{sizePerThread = {spt}, threadsPerWarp = {[2**lb, 2 ** (lane_bits - lb)]}, "
            f"warpsPerCTA = {[2**wb, 2 ** (warp_bits - wb)]}, order = {order}}}>")


def dpas(rng: random.Random, warps: int) -> tuple[str, int]:
    """A random PVC DPAS layout (16-wide sub-groups) and its opsPerChan."""
    opc = rng.choice([1, 2, 4])
    rc = [rng.choice([1, 2, 4]), rng.choice([1, 2])]
    wb = rng.randint(0, warps.bit_length() - 1)
    wpc = [2**wb, warps // 2**wb]
    k = 8 * opc
    return (f"#triton_intel_gpu.dpas<{{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = {opc}, "
            f"threadsPerWarp = 16, warpsPerCTA = {wpc}, repCluster = {rc}, A = {[8 * rc[0], k]}, "
            f"B = {[k, 16 * rc[1]]}, C = {[8 * rc[0], 16 * rc[1]]}}}>"), opc


def xpu_layouts(rng: random.Random) -> tuple[str, str, int, int, int]:
    """A source and destination for Intel PVC: a DPAS accumulator, its operands and blocked layouts, in any
    pairing, or 1-D slices of them (a reduction's result); and the sub-group size, the warps and the rank."""
    warps = rng.choice([4, 4, 8, 16, 32])
    if rng.random() < 0.15:  # blocked only, 32-wide sub-groups as some kernels pick
        return blocked_of(rng, 32, warps), blocked_of(rng, 32, warps), 32, warps, 2
    acc, opc = dpas(rng, warps)
    if rng.random() < 0.2:
        parents = [acc, blocked_of(rng, 16, warps)]
        src, dst = (f"#ttg.slice<{{dim = {rng.randint(0, 1)}, parent = {p}}}>" for p in rng.sample(parents, 2))
        return src, dst, 16, warps, 1
    dot = ("#ttg.dot_op<{opIdx = 0, parent = " + acc + f", kWidth = {2 if opc == 4 else 1}}}>",
           "#ttg.dot_op<{opIdx = 1, parent = " + acc + f", kWidth = {opc}}}>")
    pick = [acc, acc, rng.choice(dot), blocked_of(rng, 16, warps), blocked_of(rng, 16, warps)]
    src, dst = rng.sample(pick, 2)
    return src, dst, 16, warps, 2


def fma_operand_pair(rng: random.Random) -> tuple[str, str, str]:
    """A blocked layout and an FMA dot's operand (a dot_op of another blocked layout) in either direction, and the
    operand's f32 tensor (M or N of 16-64, K of 8-32)."""
    op = rng.choice([0, 1])
    operand = f"#ttg.dot_op<{{opIdx = {op}, parent = {blocked(rng)}}}>"
    other, k = rng.choice([16, 32, 64]), rng.choice([8, 16, 32])
    shape = (other, k) if op == 0 else (k, other)
    pair = [blocked(rng), operand]
    rng.shuffle(pair)
    return pair[0], pair[1], f"{shape[0]}x{shape[1]}xf32"


def mfma(rng: random.Random, warps: int, version: str) -> str:
    """A random MFMA accumulator of CDNA3 as `version` spells it (`versionMajor` up to 3.5, `version` from 3.6)."""
    wb = rng.randint(0, warps.bit_length() - 1)
    instr = rng.choice([[32, 32, 8], [16, 16, 16]])
    release = tuple(int(part) for part in version.split(".")[:2])
    gen = "versionMajor = 3, versionMinor = 0" if release < (3, 6) else "version = 3"
    return (f"#ttg.amd_mfma<{{{gen}, warpsPerCTA = {[2**wb, warps // 2**wb]}, instrShape = {instr}, "
            f"isTransposed = {rng.choice(['true', 'false'])}}}>")


def amd_lds_module(rng: random.Random, target: str, version: str) -> str:
    """A module whose convert overflows an AMD arch's LDS (or comes near it), as `lds` draws them."""
    warps = rng.choice([4, 8])
    acc = mfma(rng, warps, version)
    rank = 1 if rng.random() < 0.1 else 2
    if rank == 1:
        parents = [acc, blocked_of(rng, 64, warps)]
        src, dst = (f"#ttg.slice<{{dim = {rng.randint(0, 1)}, parent = {p}}}>" for p in rng.sample(parents, 2))
        t = f"{rng.choice([4096, 8192, 16384])}x{rng.choice(['f16', 'f32'])}"
    else:
        dot = f"#ttg.dot_op<{{opIdx = {rng.randint(0, 1)}, parent = {acc}, kWidth = {rng.choice([4, 8])}}}>"
        src, dst = rng.sample([acc, acc, dot, blocked_of(rng, 64, warps), blocked_of(rng, 64, warps)], 2)
        t = f"{rng.choice([128, 256])}x{rng.choice([128, 256])}x{rng.choice(['f16', 'bf16', 'f32'])}"
    held = use = ""
    if rng.random() < 0.4:  # a shared buffer live across the convert
        memdesc = f"!ttg.memdesc<{rng.choice([32, 64, 128, 256])}x64xf16, #sh, #smem, mutable>"
        held = f"    %h = ttg.local_alloc : () -> {memdesc}\n"
        use = f"    ttg.local_dealloc %h : {memdesc}\n"
    attrs = (f'"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = {warps} : i32, ttg.target = "{target}", '
             f'"ttg.threads-per-warp" = 64 : i32')
    return f"""#src = {src}
#dst = {dst}
#sh = #ttg.swizzled_shared<{{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}}>
#smem = #ttg.shared_memory
module attributes {{{attrs}}} {{
  tt.func public @k(%x: tensor<{t}, #src>) -> tensor<{t}, #dst> {{
{held}    %c = ttg.convert_layout %x : tensor<{t}, #src> -> tensor<{t}, #dst>
{use}    tt.return %c : tensor<{t}, #dst>
  }}
}}
"""


def module(rng: random.Random, target: str, kind: str = "blocked", version: str = "") -> str:
    if kind == "lds":
        return amd_lds_module(rng, target, version)
    if kind == "fma":
        src, dst, t = fma_operand_pair(rng)
        attrs = f'"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "{target}", "ttg.threads-per-warp" = 32 : i32'
    elif target.startswith("xpu"):
        src, dst, lanes, warps, rank = xpu_layouts(rng)
        dims = [rng.choice([16, 32, 64, 128, 256]) for _ in range(rank)]
        t = "x".join(map(str, dims)) + "x" + rng.choice(["f16", "bf16", "f32", "i8"])
        attrs = ("triton_intel_gpu.min_sg_size = 16 : i32, triton_intel_gpu.support_dpas, "
                 f'"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = {warps} : i32, ttg.target = "xpu", '
                 f'"ttg.threads-per-warp" = {lanes} : i32')
    else:
        src, dst = blocked(rng), blocked(rng)
        t = f"{rng.choice([32, 64, 128])}x{rng.choice([32, 64, 128])}x{rng.choice(['f16', 'bf16', 'f32', 'i8'])}"
        attrs = f'"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "{target}", "ttg.threads-per-warp" = 32 : i32'
    return f"""#src = {src}
#dst = {dst}
module attributes {{{attrs}}} {{
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
    ap.add_argument("--kind", choices=("blocked", "fma", "lds"), default="blocked",
                    help="fma: a blocked layout to or from an FMA dot's operand (NVIDIA and AMD targets); lds: AMD "
                         "modules over the LDS, after optimize-amd-lds-usage")
    args = ap.parse_args()
    from irkit.analysis.shared_memory import analyze_shared_memory
    from irkit.frontend.parser import Parser

    rng = random.Random(args.seed)
    work = Path(tempfile.mkdtemp(prefix="irkit-random-converts-"))
    for i in range(args.count):
        (work / f"{i:04d}.ttgir").write_text(module(rng, args.target, args.kind, args.version))
    proc = subprocess.run([args.python, "-c", _REAL, str(work), str(ROOT / "tools" / "refgen"), args.kind],
                          capture_output=True, text=True, check=True)
    answered = json.loads(proc.stdout.splitlines()[-1])
    real = {path: want for path, want in answered.items() if want is not None}
    if len(real) < len(answered):
        print(f"{len(answered) - len(real)} module(s) refused by the real compiler, left out")
    misses, optimized, alone = [], 0, 0
    for path, want in sorted(real.items()):
        parsed = Parser(Path(path).read_text(), path).parse()
        report = analyze_shared_memory(parsed, version=args.version)
        optimized += any(note.startswith("optimize-amd-lds-usage") for note in report.notes)
        alone += args.kind == "lds" and analyze_shared_memory(parsed, version=args.version,
                                                             as_compiled=False).total_bytes == want
        if report.total_bytes != want:
            misses.append((path, report.total_bytes, want))
    rewritten = (f" ({optimized} rewritten by optimize-amd-lds-usage; without it {alone} exact)"
                 if args.kind == "lds" else "")
    print(f"Triton {args.version} {args.target}: {len(real) - len(misses)}/{len(real)} exact{rewritten}")
    for path, got, want in misses:
        print(f"  {path}: irkit {got}, Triton {want}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
