"""Held-out shared-memory references: our own kernels compiled to the binary by a REAL Triton for a target, with
the compiler's `metadata.shared`, to check irkit's allocation model on kernels it was not tuned on.

    /work/.venv-triton31/bin/python tools/refgen/shared_held_out.py --family attention --target cuda:90 \
        --out tests/data/shared_held_out/3.1.0/cuda_90 [--keep N] [--ship NAME...] [--only NAME...] [--list]

Per configuration: the real frontend, make_ttir and make_ttgir (`more_kernels.compile_ttir_ttgir`), then
`triton.compile(<that .ttgir>)` through make_llir and ptxas (`check_compile.check`): `metadata.shared` is
what the driver checks against the device.  Writes `index.json` (every configuration: name, constexprs,
warps, stages, `shared`; `skipped` with the compiler's last message for a configuration it rejects, e.g. the
3.1 C++ assertion on 8-warp 64-row Hopper tiles) and the TTGIR of the configurations named by `--ship`
(or `--only`, or the first `--keep`) as `<name>.ttgir`, the files irkit's tests read.  No GPU is needed.

Families:
* `attention`: `more_kernels.attention_fwd` (two dots: the Hopper mma accumulator of the first feeds the
  second as operand A, the conversion Triton 3.1 gives one element of scratch), fp16/bf16, causal or not,
  4/8 warps, tiles BM x BN x D.
"""
import argparse
import itertools
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
os.environ.setdefault("TRITON_DEFAULT_FP_FUSION", "1")

import check_compile
import more_kernels


def attention_configs():
    """(name, spec) of the attention family: every combination below that the compiler accepts."""
    out = []
    for dt, causal, (bm, bn, d), warps, stages in itertools.product(
        ("fp16", "bf16"), (False, True), ((64, 64, 64), (128, 64, 64), (128, 64, 128), (128, 128, 64),
                                           (128, 128, 128), (64, 128, 128)), (4, 8), (2, 3)):
        name = f"attention_{dt}_{'causal_' if causal else ''}BM{bm}_BN{bn}_D{d}_w{warps}_s{stages}"
        out.append((name, more_kernels.spec(name, more_kernels.attention_fwd, [f"*{dt}"] * 4 + ["*fp32"] + [more_kernels._I] * 5 + ["fp32"],
                                  {"BM": bm, "BN": bn, "D": d, "CAUSAL": causal}, num_warps=warps,
                                  num_stages=stages)))
    return out


FAMILIES = {"attention": attention_configs}


def compile_one(name, s, target):
    """The index row of one configuration (metadata.shared) and its TTGIR text; raises on failure."""
    r = more_kernels.resolve(s, target)
    _, _, ttgir = more_kernels.compile_ttir_ttgir(r, target)
    ttgir = more_kernels.shorten_paths(ttgir if ttgir.endswith("\n") else ttgir + "\n")
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, name + ".ttgir")
        with open(path, "w") as f:
            f.write(ttgir)
        res = check_compile.check(path, target)
    if not res["ok"]:
        raise RuntimeError(res["error"].splitlines()[0])
    row = {"name": name, "constexprs": r["constexprs"], "num_warps": r["num_warps"], "num_stages": r["num_stages"],
           "signature": r["signature"], "target": target, "triton": more_kernels.triton.__version__, "shared": res["shared"]}
    return row, ttgir


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--family", choices=sorted(FAMILIES), default="attention")
    ap.add_argument("--target", default="cuda:90")
    ap.add_argument("--out", required=True)
    ap.add_argument("--keep", type=int, default=0, help="write the TTGIR of the first N configurations")
    ap.add_argument("--ship", nargs="*", default=[], help="also write the TTGIR of these configurations")
    ap.add_argument("--only", nargs="*", help="only these configuration names (their TTGIR is written)")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--worker", help=argparse.SUPPRESS)  # one configuration, in a child process
    a = ap.parse_args()
    configs = FAMILIES[a.family]()
    if a.worker:
        name, s = next(c for c in configs if c[0] == a.worker)
        row, ttgir = compile_one(name, s, a.target)
        with open(os.path.join(a.out, name + ".ttgir.tmp"), "w") as f:
            f.write(ttgir)
        print(json.dumps(row))
        return 0
    if a.only:
        configs = [c for c in configs if c[0] in a.only]
    if a.list:
        print("\n".join(n for n, _ in configs))
        return 0
    os.makedirs(a.out, exist_ok=True)
    rows, kept = [], 0
    for name, _ in configs:
        # a child per configuration: the 3.1 compiler aborts (C++ assertion) on some layouts
        p = subprocess.run([sys.executable, os.path.abspath(__file__), "--family", a.family, "--target", a.target,
                            "--out", a.out, "--worker", name], capture_output=True, text=True, check=False)
        tmp = os.path.join(a.out, name + ".ttgir.tmp")
        if p.returncode != 0:
            why = (p.stderr.strip().splitlines() or [f"exit {p.returncode}"])[-1]
            print(f"SKIP {name}: {why[:200]}", file=sys.stderr)
            rows.append({"name": name, "shared": None, "skipped": why[:300]})
            if os.path.exists(tmp):
                os.remove(tmp)
            continue
        row = json.loads(p.stdout.strip().splitlines()[-1])
        keep = bool(a.only) or kept < a.keep or name in a.ship
        if keep:
            kept += 1
            os.replace(tmp, os.path.join(a.out, name + ".ttgir"))
        else:
            os.remove(tmp)
        row["ttgir"] = name + ".ttgir" if keep else None
        rows.append(row)
        print(f"ok   {name}: shared {row['shared']}")
    index = {"family": a.family, "target": a.target, "triton": more_kernels.triton.__version__,
             "command": "tools/refgen/shared_held_out.py " + " ".join(sys.argv[1:]), "cases": rows}
    with open(os.path.join(a.out, "index.json"), "w") as f:
        json.dump(index, f, indent=1)
        f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
