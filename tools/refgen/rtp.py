"""Reference pairs for triton-rewrite-tensor-pointer (RTP), made by the real Triton of the running venv.

For every corpus `<ver>/<target>/<id>.source.ttir` that contains `tt.make_tensor_ptr` and was produced by
this Triton version:
    in  = source TTIR after the real inliner only (what make_ttir hands to RTP; block pointers intact)
    out = `in` re-parsed, then the real `triton-rewrite-tensor-pointer` pass alone (no canonicalize/cse)
Both printed by Triton (module.str(), locations kept).  Text is parsed under the bare file name (source
file name / `<id>.in.ttir`), so locations MLIR derives from the parsed file are deterministic.  Files:
    <out>/<ver>/<target>__<id>.in.ttir, .out.ttir  and  <out>/index.json (entries of other versions kept).

    /work/.venv-triton31/bin/python tools/refgen/rtp.py --out tests/data/rtp
    /work/.venv-triton33/bin/python tools/refgen/rtp.py --out tests/data/rtp
"""
import argparse
import glob
import json
import os
import re

import refgen_common


def count(text, op):
    return len(re.findall(r"\b" + re.escape(op) + r"\b", text))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpus", default="/work/shared/corpus")
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    t = refgen_common.triton()
    from triton._C.libtriton import passes
    ver = t.__version__
    entries = []
    for src in sorted(glob.glob(os.path.join(a.corpus, "ir", ver, "*", "*.source.ttir"))):
        if "tt.make_tensor_ptr" not in open(src).read():
            continue
        tdir = os.path.basename(os.path.dirname(src))  # cuda_80, hip_gfx942, ...
        target = tdir.replace("_", ":", 1)
        variant = os.path.basename(src)[: -len(".source.ttir")]
        ctx = refgen_common.context(target)
        vid = f"{tdir}__{variant}"
        mod = refgen_common.parse_text(open(src).read(), ctx, os.path.basename(src))
        refgen_common.run_passes(mod, ctx, passes.common.add_inliner)
        in_text = refgen_common.text(mod)
        mod = refgen_common.parse_text(in_text, ctx, f"{vid}.in.ttir")
        roundtrip_ok = refgen_common.text(mod) == in_text
        refgen_common.run_passes(mod, ctx, passes.ttir.add_rewrite_tensor_pointer)
        out_text = refgen_common.text(mod)
        os.makedirs(os.path.join(a.out, ver), exist_ok=True)
        for kind, body in (("in", in_text), ("out", out_text)):
            with open(os.path.join(a.out, ver, f"{vid}.{kind}.ttir"), "w") as f:
                f.write(body)
        ops = ("tt.make_tensor_ptr", "tt.advance", "tt.load", "tt.store", "scf.for")
        e = {"id": vid, "variant": variant, "version": ver, "target": target,
             "in": f"{ver}/{vid}.in.ttir", "out": f"{ver}/{vid}.out.ttir",
             "source": os.path.relpath(src, a.corpus),
             "in_ops": {op: count(in_text, op) for op in ops},
             "out_ops": {op: count(out_text, op) for op in ops},
             "in_roundtrip_identical": roundtrip_ok}
        assert e["in_ops"]["tt.make_tensor_ptr"] > 0 and e["out_ops"]["tt.make_tensor_ptr"] == 0, vid
        entries.append(e)
        print(f"{vid}: in {len(in_text)} B, out {len(out_text)} B, roundtrip={roundtrip_ok}")
    idx_path = os.path.join(a.out, "index.json")
    old = json.load(open(idx_path)) if os.path.exists(idx_path) else {"pairs": []}
    pairs = [p for p in old["pairs"] if p["version"] != ver] + entries
    pairs.sort(key=lambda p: (p["version"], p["id"]))
    index = {"what": "in = source TTIR after the real inliner; out = in after the real "
                     "triton-rewrite-tensor-pointer pass alone; printed by Triton with locations",
             "generator": "tools/refgen/rtp.py", "pairs": pairs}
    with open(idx_path, "w") as f:
        json.dump(index, f, indent=1)
        f.write("\n")
    print(f"triton {ver}: {len(entries)} pairs -> {a.out}")


if __name__ == "__main__":
    main()
