"""Reference pairs for tritongpu-coalesce, made by the real Triton 3.9.0 on the CPU (the 3.9 counterpart of
coalesce.py, whose pairs are 3.1.0's).

Cases: our kernels of kernels.py (compiled by the 3.9 frontend and make_ttir; a kernel the 3.9 frontend
rejects is listed as skipped) and the 3.9.0 TTIR of more_kernels.py under tests/data/kernels/3.9.0 (tensor
descriptors, atomics, attention, ...; cuda:80 and cuda:90 files).  Per case:
    TTIR --real convert-triton-to-tritongpu(target, num_warps, threads_per_warp, 1)--> <id>.in.ttgir
    in (re-parsed) --real coalesce alone--> <id>.out.ttgir
`index.json`: per case id, source, target, warps, and every memory access in walk order (tt.load, tt.store,
tt.atomic_rmw, tt.atomic_cas, ttg.async_copy_global_to_local, tt.descriptor_load/store/gather/scatter/...)
with the layout of its tensor (pointer operand, or the descriptor op's result / stored value) in `in`/`out`.
Only cases with at least one access are written.

    /work/.venv-triton39/bin/python tools/refgen/coalesce39.py --out tests/data/coalesce39
"""
import argparse
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
os.environ.setdefault("TRITON_DEFAULT_FP_FUSION", "1")

import refgen_common

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
KERNELS39 = os.path.join(REPO, "tests", "data", "kernels")
PTR_OPS = ("tt.load", "tt.store", "tt.atomic_rmw", "tt.atomic_cas", "ttg.async_copy_global_to_local")
DESC_PREFIX = "tt.descriptor_"


def normalise(text):
    text = text.replace(REPO + "/", "")
    return re.sub(r'"[^"]*/(lib/python3\.\d+/site-packages/triton/)', r'"/opt/venv/\1', text)


def accesses(mod):
    """Walk order; the layout of the pointer operand (pointer ops) or of the tensor a descriptor op loads or
    stores (its result, else its last operand)."""
    out = []

    def visit(op):
        name = op.get_name()
        if name in PTR_OPS:
            ty = str(op.get_operand(0).get_type())
        elif name.startswith(DESC_PREFIX) and name != "tt.descriptor_prefetch":
            ty = str(op.get_result(0).get_type()) if op.get_num_results() else str(
                op.get_operand(op.get_num_operands() - 1).get_type())
        else:
            return
        out.append({"op": name, "type": ty, "layout": refgen_common.split_tensor_type(ty)[1]})
    mod.walk(visit)
    return out


def ttir_of_spec(spec):
    """kernels.py spec -> TTIR text, with the 3.9 frontend and make_ttir as triton.compile runs them."""
    from triton._C.libtriton import ir
    from triton.compiler.compiler import ASTSource, make_backend
    fn = spec["kernel"]
    gt = refgen_common.gpu_target(spec["target"])
    backend = make_backend(gt)
    options = backend.parse_options({"num_warps": spec["num_warps"]})
    sig = {n: spec["signature"].get(n, "constexpr") for n in fn.arg_names}
    attrs = {(i,): backend.parse_attr("D") for i, n in enumerate(fn.arg_names) if n in spec["div16"]}
    src = ASTSource(fn, sig, constexprs=dict(spec["constexprs"]), attrs=attrs)
    ctx = ir.context()
    ir.load_dialects(ctx)
    backend.load_dialects(ctx)
    mod = src.make_ir(gt, options, backend.get_codegen_implementation(options), backend.get_module_map(), ctx)
    stages = {}
    backend.add_stages(stages, options, src.language)
    metadata = {"hash": "refgen", "target": gt, **options.__dict__}
    return normalise(str(stages["ttir"](mod, metadata)))


def one_case(ttir_text, name, target, num_warps, out_dir, cid):
    from triton._C.libtriton import passes
    ctx = refgen_common.context(target)
    tpw = 32 if target.startswith("cuda") else 64
    mod = refgen_common.parse_text(ttir_text, ctx, name)
    refgen_common.run_passes(mod, ctx, lambda pm: passes.ttir.add_convert_to_ttgpuir(pm, target, num_warps, tpw, 1))
    in_text = normalise(refgen_common.text(mod))
    mod_in = refgen_common.parse_text(in_text, ctx, f"{cid}.in.ttgir")
    acc_in = accesses(mod_in)
    if not acc_in:
        return None
    refgen_common.run_passes(mod_in, ctx, passes.ttgpuir.add_coalesce)
    out_text = refgen_common.text(mod_in)
    acc_out = accesses(mod_in)
    assert [a["op"] for a in acc_in] == [a["op"] for a in acc_out], cid
    for kind, body in (("in", in_text), ("out", out_text)):
        with open(os.path.join(out_dir, f"{cid}.{kind}.ttgir"), "w") as f:
            f.write(body)
    return {"target": target, "num_warps": num_warps, "threads_per_warp": tpw, "num_ctas": 1,
            "in": f"{cid}.in.ttgir", "out": f"{cid}.out.ttgir",
            "accesses": [{"op": o["op"], "layout": o["layout"], "in_layout": i["layout"], "type": o["type"]}
                         for i, o in zip(acc_in, acc_out)]}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True)
    ap.add_argument("--only", nargs="*", help="only these case ids (the measurement in docs used all of them)")
    ap.add_argument("--triton", choices=("3.3", "3.5", "3.6", "3.8", "3.9"), default="3.9",
                    help="3.3: only the tests/data/kernels/3.3.1 TTIR (kernels.py needs the 3.9 frontend); "
                         "3.5, 3.6, 3.8: kernels.py only (no stored TTIR of those versions)")
    a = ap.parse_args()
    refgen_common.reexec_in_venv(a.triton)
    t = refgen_common.triton()
    import kernels
    os.makedirs(a.out, exist_ok=True)
    cases, skipped = [], []

    def wanted(cid):
        return not a.only or cid in a.only

    for s in kernels.SPECS if a.triton != "3.3" else []:
        cid = s["id"]
        if not wanted(cid):
            continue
        try:
            text = ttir_of_spec(s)
            e = one_case(text, f"{cid}.ttir", s["target"], s["num_warps"], a.out, cid)
        except Exception as ex:  # noqa: BLE001 - a kernel the 3.9 frontend rejects is recorded, not fatal
            skipped.append({"id": cid, "reason": f"{type(ex).__name__}: {str(ex).strip().splitlines()[-1:]}"})
            continue
        if e is not None:
            cases.append({"id": cid, "kind": s["kind"], "source": f"tools/refgen/kernels.py:{s['kernel'].__name__}",
                          **e})
    with open(os.path.join(KERNELS39, "index.json")) as f:
        index_k = json.load(f)
    for k in index_k["cases"]:
        if k["version"] != t.__version__ or k["target"] not in ("cuda_80", "cuda_90"):
            continue
        target = k["target"].replace("_", ":")
        cid = f"kernels__{k['name']}__{k['target'].split('_')[1]}"
        if not wanted(cid):
            continue
        path = os.path.join(KERNELS39, t.__version__, k["target"], k["name"] + ".ttir")
        with open(path) as f:
            e = one_case(f.read(), os.path.basename(path), target, k["num_warps"], a.out, cid)
        if e is not None:
            cases.append({"id": cid, "kind": k["note"].splitlines()[0][:80],
                          "source": f"tests/data/kernels/{t.__version__}/{k['target']}/{k['name']}.ttir", **e})
    for c in cases:
        print(f"{c['id']:50s} {c['target']:8s} w{c['num_warps']}: {len(c['accesses'])} accesses")
    for s in skipped:
        print(f"SKIP {s['id']}: {s['reason']}", file=sys.stderr)
    index = {"what": "in = TTGIR right after the real convert-triton-to-tritongpu; out = in after the real "
                     "tritongpu-coalesce alone; accesses in walk order with the layout of the pointer operand "
                     "(descriptor ops: the loaded/stored tensor)",
             "triton": t.__version__, "generator": "tools/refgen/coalesce39.py", "cases": cases,
             "skipped": skipped}
    with open(os.path.join(a.out, "index.json"), "w") as f:
        json.dump(index, f, indent=1)
        f.write("\n")
    print(f"{len(cases)} cases, {sum(len(c['accesses']) for c in cases)} accesses -> {a.out}")


if __name__ == "__main__":
    main()
