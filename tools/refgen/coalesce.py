"""Reference pairs for tritongpu-coalesce, made by the real Triton 3.1.0 on the CPU.

For every case (our kernels in kernels.py + a selection of corpus post-make_ttir `.ttir` files):
    TTIR --real convert-triton-to-tritongpu(target, num_warps, threads_per_warp, num_ctas=1)--> in.ttgir
    in.ttgir (re-parsed) --real coalesce pass alone--> out.ttgir
`in` is exactly the IR that make_ttgir hands to TritonGPUCoalesce.  index.json lists per case the id, kind,
target, num_warps, threads_per_warp and, for every tt.load / tt.store / tt.atomic_rmw / tt.atomic_cas in
walk order, the op name and the full layout attribute text of its pointer operand in `out` (and in `in`);
scalar accesses get layout null.  Locations are kept; absolute source paths are shortened; `in` is parsed
back under the name `<id>.in.ttgir`, so locations MLIR takes from the parsed file point into that file.

    /work/.venv-triton31/bin/python tools/refgen/coalesce.py --out tests/data/coalesce
"""
import argparse
import json
import os
import re
import sys

import refgen_common

# (corpus file under ir/3.1.0, target to convert for, kind)
CORPUS = [
    ("cuda_80/matmul__fp16__BM256_BN256_BK64_G8__w8_s4", "cuda:80", "corpus matmul"),
    ("cuda_80/matmul_addmm__bf16__BM64_BN64_BK32_G8__w4_s2", "cuda:80", "corpus matmul + add-matrix"),
    ("cuda_80/matmul_addmm__bf16__BM128_BN128_BK32_G8__w8_s3", "cuda:80", "corpus matmul + add-matrix"),
    ("cuda_80/matmul_addmm_bp__bf16__BM128_BN128_BK32_G8__w4_s3", "cuda:80", "corpus matmul + add-matrix (bp)"),
    ("cuda_80/matmul_addmm_bp__bf16__BM256_BN256_BK32_G8__w8_s3", "cuda:80", "corpus matmul + add-matrix (bp)"),
    ("cuda_80/matmul_bp__bf16__BM128_BN128_BK32_G8__w4_s4", "cuda:80", "corpus matmul (bp)"),
    ("cuda_80/vector_add__fp32__BS1024__w4_s1", "cuda:80", "corpus vector_add"),
    ("cuda_80/vector_add__bf16__BS1024__w4_s1", "cuda:80", "corpus vector_add"),
    ("cuda_90/vector_add__fp16__BS4096__w8_s1", "cuda:80", "corpus vector_add"),
    ("cuda_90/softmax__fp16__BS1024__w4_s1", "cuda:80", "corpus softmax"),
    ("hip_gfx942/softmax__bf16__BS4096__w8_s1", "hip:gfx942", "corpus softmax"),
    ("hip_gfx942/matmul_addmm__bf16__BM128_BN128_BK32_G8__w8_s3", "hip:gfx942", "corpus matmul + add-matrix"),
    ("hip_gfx942/vector_add__bf16__BS1024__w4_s1", "hip:gfx942", "corpus vector_add"),
    ("hip_gfx90a/matmul__fp16__BM128_BN128_BK32_G8__w4_s4", "hip:gfx90a", "corpus matmul"),
]
MEM_OPS = ("tt.load", "tt.store", "tt.atomic_rmw", "tt.atomic_cas", "triton_gpu.async_copy_global_to_local")
HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))


def normalise(text):
    """absolute paths in locations -> repo-relative / the corpus' /opt/venv spelling"""
    text = text.replace(REPO + "/", "")
    return re.sub(r'"[^"]*/(lib/python3\.\d+/site-packages/triton/)', r'"/opt/venv/\1', text)


def accesses(mod):
    out = []

    def visit(op):
        name = op.get_name()
        if name in MEM_OPS:
            ty = str(op.get_operand(0).get_type())
            out.append({"op": name, "ptr_type": ty, "layout": refgen_common.split_tensor_type(ty)[1]})
    mod.walk(visit)
    return out


def one_case(ttir, target, num_warps, out_dir, cid, ctx):
    """ttir: an in-memory module (our kernels) or (text, file name) of a corpus .ttir"""
    from triton._C.libtriton import passes
    tpw = 32 if target.startswith("cuda") else 64
    mod = ttir if not isinstance(ttir, tuple) else refgen_common.parse_text(ttir[0], ctx, ttir[1])
    refgen_common.run_passes(mod, ctx, lambda pm: passes.ttir.add_convert_to_ttgpuir(pm, target, num_warps, tpw, 1))
    in_text = normalise(refgen_common.text(mod))
    mod_in = refgen_common.parse_text(in_text, ctx, f"{cid}.in.ttgir")
    acc_in = accesses(mod_in)
    refgen_common.run_passes(mod_in, ctx, passes.ttgpuir.add_coalesce)
    out_text = refgen_common.text(mod_in)
    acc_out = accesses(mod_in)
    assert [a["op"] for a in acc_in] == [a["op"] for a in acc_out], cid
    for kind, body in (("in", in_text), ("out", out_text)):
        with open(os.path.join(out_dir, f"{cid}.{kind}.ttgir"), "w") as f:
            f.write(body)
    return {"target": target, "num_warps": num_warps, "threads_per_warp": tpw, "num_ctas": 1,
            "in": f"{cid}.in.ttgir", "out": f"{cid}.out.ttgir",
            "convert_layout_out": len(re.findall(r"\btriton_gpu\.convert_layout\b", out_text)),
            "accesses": [{"op": o["op"], "layout": o["layout"], "in_layout": i["layout"], "ptr_type": o["ptr_type"]}
                         for i, o in zip(acc_in, acc_out)]}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpus", default="/work/shared/corpus")
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    t = refgen_common.triton()
    if not t.__version__.startswith("3.1."):
        sys.exit(f"coalesce.py: wants triton 3.1.x, got {t.__version__}")
    import kernels
    os.makedirs(a.out, exist_ok=True)
    cases = []
    for s in kernels.SPECS:
        mod, ctx = kernels.make_ttir(s)
        e = {"id": s["id"], "kind": s["kind"], "source": f"tools/refgen/kernels.py:{s['kernel'].__name__}",
             "constexprs": s["constexprs"], "signature": s["signature"], "div16": s["div16"]}
        e.update(one_case(mod, s["target"], s["num_warps"], a.out, s["id"], ctx))
        cases.append(e)
    for rel, target, kind in CORPUS:
        path = os.path.join(a.corpus, "ir", "3.1.0", rel + ".ttir")
        meta = json.load(open(os.path.join(a.corpus, "ir", "3.1.0", rel + ".meta.json")))
        tag = target.split(":")[1]
        cid = f"corpus__{os.path.basename(rel)}__{tag}"
        e = {"id": cid, "kind": kind, "source": f"corpus:ir/3.1.0/{rel}.ttir"}
        e.update(one_case((open(path).read(), os.path.basename(path)), target, meta["num_warps"], a.out, cid,
                          refgen_common.context(target)))
        cases.append(e)
    layouts = sorted({x["layout"] for c in cases for x in c["accesses"] if x["layout"]})
    for c in cases:
        print(f"{c['id']:55s} {c['target']:10s} w{c['num_warps']} tpw{c['threads_per_warp']}: "
              + ", ".join(f"{x['op'][3:]}={layouts.index(x['layout']) if x['layout'] else '-'}" for x in c["accesses"]))
    index = {"what": "in = TTGIR right after the real convert-triton-to-tritongpu; out = in after the real "
                     "tritongpu-coalesce alone; accesses in walk order with the layout of the pointer operand",
             "triton": t.__version__, "generator": "tools/refgen/coalesce.py", "cases": cases,
             "distinct_layouts": layouts}
    with open(os.path.join(a.out, "index.json"), "w") as f:
        json.dump(index, f, indent=1)
        f.write("\n")
    print(f"{len(cases)} cases, {sum(len(c['accesses']) for c in cases)} accesses, "
          f"{len(layouts)} distinct pointer layouts -> {a.out}")


if __name__ == "__main__":
    main()
