"""Cross-check the committed reference data against the compiler's own MLIR_ENABLE_DUMP logs in the corpus.

A dump holds "IR Dump Before <Pass> (<arg>)" sections; the IR after pass k is section k+1.  For every corpus
dump of this Triton version that one of our pairs was made from, this checks
    rtp:      section before triton-rewrite-tensor-pointer == in, the section after it == out
    coalesce: section before tritongpu-coalesce == in, the section after it == out   (same target only)
after parsing both sides with the real Triton and printing them again.  A pair is "identical", or
"same-modulo-locations" (the IR matches once loc(...) is stripped: a pair made from a printed corpus .ttir
loses the locations of scf.for block arguments, which the custom syntax does not print).  Exit status 1 on
any real difference.

    /work/.venv-triton31/bin/python tools/refgen/validate_dumps.py --data tests/data
"""
import argparse
import glob
import json
import os
import re
import sys

import refgen_common

HDR = re.compile(r"^// -----// IR Dump Before \w+ \(([\w-]+)\) \('([\w.]+)' operation[^)]*\) //----- //$", re.M)


def sections(path):
    text = open(path).read()
    hits = list(HDR.finditer(text))
    return [(m.group(1), m.group(2), text[m.end() + 1: hits[i + 1].start() if i + 1 < len(hits) else len(text)])
            for i, m in enumerate(hits)]


def around(secs, arg):
    """(IR before the module-level pass `arg`, IR after it)"""
    for i, (a, anchor, body) in enumerate(secs):
        if a == arg and anchor == "builtin.module":
            return body, secs[i + 1][2]
    return None, None


LOC = re.compile(r"\s*loc\((?:[^()]|\((?:[^()]|\([^()]*\))*\))*\)")


def strip_locs(text):
    return "\n".join(LOC.sub("", ln) for ln in text.splitlines() if not ln.startswith("#loc"))


def same(a_text, b_text, target):
    """'identical' | 'same-modulo-locations' | 'DIFFERENT'"""
    ctx = refgen_common.context(target)
    a, b = refgen_common.text(refgen_common.parse_text(a_text, ctx)), refgen_common.text(refgen_common.parse_text(b_text, ctx))
    if a == b:
        return "identical"
    return "same-modulo-locations" if strip_locs(a) == strip_locs(b) else "DIFFERENT"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpus", default="/work/shared/corpus")
    ap.add_argument("--data", default="tests/data")
    a = ap.parse_args()
    ver = refgen_common.triton().__version__
    rtp = json.load(open(os.path.join(a.data, "rtp", "index.json")))["pairs"]
    coal = json.load(open(os.path.join(a.data, "coalesce", "index.json")))
    coal = coal["cases"] if coal["triton"] == ver else []
    bad = checked = 0
    for dump in sorted(glob.glob(os.path.join(a.corpus, "dumps", ver, "*", "*", "mlir_dump.ttgir.txt"))):
        tdir, vid = dump.split(os.sep)[-3:-1]
        target = tdir.replace("_", ":", 1)
        secs = sections(dump)
        jobs = [("rtp", "triton-rewrite-tensor-pointer", os.path.join(a.data, "rtp"), p) for p in rtp
                if p["version"] == ver and p["source"] == f"ir/{ver}/{tdir}/{vid}.source.ttir"]
        jobs += [("coalesce", "tritongpu-coalesce", os.path.join(a.data, "coalesce"), c) for c in coal
                 if c["source"] == f"corpus:ir/{ver}/{tdir}/{vid}.ttir" and c["target"] == target]
        for kind, arg, base, e in jobs:
            before, after = around(secs, arg)
            r_in = same(before, open(os.path.join(base, e["in"])).read(), target)
            r_out = same(after, open(os.path.join(base, e["out"])).read(), target)
            checked += 1
            bad += "DIFFERENT" in (r_in, r_out)
            print(f"{kind:8s} {e['id']}: in vs dump {r_in}, out vs dump {r_out}")
    print(f"triton {ver}: {checked} pairs checked against compiler dumps, {bad} mismatches")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
