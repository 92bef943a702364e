"""Differential reference for tritongpu-coalesce: random kernels through the real Triton 3.1.0 pass.

The kernels come from coalesce_fuzz_kernels.py (deterministic by family and seed).  For each family the
script runs the real coalesce pass on seeds 0, 1, 2, ... and keeps the kernels where some access gets more
than one element per thread (the ones that say something about contiguity and alignment) until it has
--keep of them, plus the first --keep-trivial kernels where every access gets one element per thread.
It writes, per kept kernel, the layout parameters of every access in walk order (null for scalar ones):

    /work/.venv-triton31/bin/python tools/refgen/coalesce_fuzz.py --out tests/data/coalesce/fuzz.json
"""
import argparse
import json
import re
import sys

import refgen_common
from coalesce_fuzz_kernels import FAMILIES, kernel

MEM_OPS = ("tt.load", "tt.store", "tt.atomic_rmw", "tt.atomic_cas")


def layout_params(text):
    if text is None:
        return None
    return {k: [int(x) for x in v.split(",") if x.strip()] for k, v in re.findall(r"(\w+) = \[([\d, ]*)\]", text)}


def run_real(text, ctx):
    from triton._C.libtriton import passes
    mod = refgen_common.parse_text(text, ctx, "fuzz.ttgir")
    refgen_common.run_passes(mod, ctx, passes.ttgpuir.add_coalesce)
    out = []

    def visit(op):
        if op.get_name() in MEM_OPS:
            out.append([op.get_name(), layout_params(refgen_common.split_tensor_type(str(op.get_operand(0).get_type()))[1])])
    mod.walk(visit)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True)
    ap.add_argument("--keep", type=int, default=100, help="kernels with a vector access, per family")
    ap.add_argument("--keep-trivial", type=int, default=30, help="kernels with scalar-width accesses only")
    ap.add_argument("--max-seed", type=int, default=5000)
    a = ap.parse_args()
    refgen_common.reexec_in_venv("3.1")
    t = refgen_common.triton()
    if not t.__version__.startswith("3.1."):
        sys.exit(f"coalesce_fuzz.py: wants triton 3.1.x, got {t.__version__}")
    ctx = refgen_common.context("cuda:80")
    families = {}
    for family in FAMILIES:
        kept, vector, trivial = {}, 0, 0
        for seed in range(a.max_seed):
            if vector >= a.keep and trivial >= a.keep_trivial:
                break
            accesses = run_real(kernel(family, seed), ctx)
            wide = any(lay and max(lay["sizePerThread"]) > 1 for _, lay in accesses)
            if wide and vector < a.keep:
                vector += 1
            elif not wide and trivial < a.keep_trivial:
                trivial += 1
            else:
                continue
            kept[str(seed)] = accesses
        families[family] = kept
        print(f"{family}: {len(kept)} kernels ({vector} with vector accesses), "
              f"{sum(len(v) for v in kept.values())} accesses, seeds < {seed + 1}")
    with open(a.out, "w") as f:
        json.dump({"what": "per family and seed (tools/refgen/coalesce_fuzz_kernels.py): the layout parameters "
                           "the real tritongpu-coalesce gives every access, in walk order",
                   "triton": t.__version__, "generator": "tools/refgen/coalesce_fuzz.py", "families": families},
                  f, indent=None, separators=(",", ":"))
        f.write("\n")


if __name__ == "__main__":
    main()
