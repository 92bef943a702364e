"""Run ONLY the real allocate-shared-memory pass of a Triton version on a saved TTGIR file and print the bytes
it assigns (the module attribute triton_gpu.shared / ttg.shared, which make_llir copies into metadata.shared).

    python3 tools/refgen/real_shared.py --triton 3.1 FILE.ttgir            # prints e.g. 32768
    python3 tools/refgen/real_shared.py --triton 3.1 --offsets FILE.ttgir  # and every buffer's op and offset
    python3 tools/refgen/real_shared.py --triton 3.1 --manifest /work/shared/corpus/manifest.jsonl [--limit 5]
        # every compiled corpus variant of that version: compare with the manifest's `shared`

The pass per version (as each backend's make_llir adds it): 3.1/3.3 passes.ttgpuir.add_allocate_shared_memory;
3.9 nvidia.passes.ttgpuir.add_allocate_shared_memory_nv(pm, capability, ptx_version) /
amd.passes.ttgpuir.add_allocate_shared_memory(pm, arch).  The target comes from the module's target attribute
unless --target is given; `xpu` runs Intel's intel.passes.ttgpuir.add_allocate_shared_memory (triton-xpu).
`--as-compiled` first runs what make_llir runs before the allocation that changes it: on AMD targets of the releases
that have it (3.3 to 3.6), optimize-amd-lds-usage with the arch's LDS (custom_lds_size 0, as make_llir passes it).
The script re-executes itself with the python of that version's venv.
"""
import argparse
import json
import os
import re
import sys

import refgen_common


def module_target(text):
    m = re.search(r'(?:triton_gpu|ttg)\.target"?\s*=\s*"([^"]+)"', text)
    return m.group(1) if m else None


def shared_bytes(path, target=None, offsets=False, as_compiled=False):
    """The bytes the real pass assigns; with `offsets`, also (op text, allocation.offset) of every op it gave a
    buffer (the attribute the pass writes for the lowering), in the order the module prints them.  `as_compiled`:
    after the passes of make_llir that change the allocation (AMD's optimize-amd-lds-usage, where the release has
    it)."""
    text = open(path).read()
    target = target or module_target(text) or "cuda:80"
    from triton._C.libtriton import passes
    ver = refgen_common.version_tuple()
    backend, _, arch = target.partition(":")
    if backend == "xpu":
        # Intel's fork (triton-xpu): its own dialects and its allocation pass, which sizes converts with its
        # sub-group shuffle/transpose rules before the common ones
        from triton._C.libtriton import intel, ir
        ctx = ir.context()
        ir.load_dialects(ctx)
        intel.load_dialects(ctx)
        mod = refgen_common.parse_text(text, ctx, os.path.basename(path))
        refgen_common.run_passes(mod, ctx, intel.passes.ttgpuir.add_allocate_shared_memory)
        total = mod.get_int_attr("ttg.shared" if ver >= (3, 3) else "triton_gpu.shared")
        return (total, []) if offsets else total
    ctx = refgen_common.context(target)
    mod = refgen_common.parse_text(text, ctx, os.path.basename(path))
    if ver < (3, 4):
        add = passes.ttgpuir.add_allocate_shared_memory
    elif backend == "cuda" and not hasattr(refgen_common.backend_passes("nvidia"), "add_allocate_shared_memory_nv"):
        add = passes.ttgpuir.add_allocate_shared_memory  # 3.4 runs the common pass
    elif backend == "cuda":
        from triton._C.libtriton import nvidia
        from triton.backends.nvidia.compiler import get_ptx_version_from_options
        be = refgen_common.backend_for(target)
        ptx = get_ptx_version_from_options(be.parse_options({}), int(arch))
        add = lambda pm: nvidia.passes.ttgpuir.add_allocate_shared_memory_nv(pm, int(arch), ptx)  # noqa: E731
    else:
        from triton._C.libtriton import amd

        def add(pm):  # 3.9 takes the arch; 3.5-3.8 the pass manager alone; 3.4 runs the common pass
            if not hasattr(amd.passes.ttgpuir, "add_allocate_shared_memory"):
                passes.ttgpuir.add_allocate_shared_memory(pm)
                return
            try:
                amd.passes.ttgpuir.add_allocate_shared_memory(pm, arch)
            except TypeError:
                amd.passes.ttgpuir.add_allocate_shared_memory(pm)
    if as_compiled and backend == "hip":
        from triton._C.libtriton import amd
        if hasattr(amd.passes.ttgpuir, "add_optimize_lds_usage"):
            refgen_common.run_passes(mod, ctx, lambda pm: amd.passes.ttgpuir.add_optimize_lds_usage(pm, arch, 0))
    refgen_common.run_passes(mod, ctx, add)
    total = mod.get_int_attr("ttg.shared" if ver >= (3, 3) else "triton_gpu.shared")
    if not offsets:
        return total
    found = []
    for line in refgen_common.text(mod).splitlines():
        m = re.search(r"allocation\.offset = (\d+) : i32", line)
        if m:
            found.append((line.strip().split(" {")[0].split(" : ")[0][:100], int(m.group(1))))
    return total, found


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--triton", choices=sorted(refgen_common.VENVS), default=None, help="venv to run in (default: this python)")
    ap.add_argument("--target", default=None)
    ap.add_argument("--manifest", default=None, help="check every compiled variant of this version in a manifest")
    ap.add_argument("--limit", type=int, default=None, help="with --manifest: only the first N variants")
    ap.add_argument("--offsets", action="store_true", help="also print each buffer's op and allocation.offset")
    ap.add_argument("--as-compiled", action="store_true",
                    help="run make_llir's passes before the allocation that change it (AMD optimize-amd-lds-usage)")
    ap.add_argument("file", nargs="?")
    a = ap.parse_args()
    if a.triton:
        refgen_common.reexec_in_venv(a.triton)
    ver = refgen_common.triton().__version__
    if not a.manifest:
        if not a.file:
            ap.error("give a .ttgir file or --manifest")
        if a.offsets:
            total, found = shared_bytes(a.file, a.target, offsets=True, as_compiled=a.as_compiled)
            for op, off in found:
                print(f"offset = {off}  {op}")
            print(f"size = {total}")
        else:
            print(shared_bytes(a.file, a.target, as_compiled=a.as_compiled))
        return 0
    root = os.path.dirname(os.path.abspath(a.manifest))
    rows = [r for r in map(json.loads, open(a.manifest))
            if r["triton_version"] == ver and r.get("shared") is not None and r["files"].get("ttgir")]
    rows = rows[: a.limit] if a.limit else rows
    bad = 0
    for r in rows:
        got = shared_bytes(os.path.join(root, r["files"]["ttgir"]), r["target"])
        bad += got != r["shared"]
        print(f"{'OK  ' if got == r['shared'] else 'DIFF'} {r['target']:10s} {r['id']}: pass {got}, manifest {r['shared']}")
    print(f"triton {ver}: {len(rows) - bad}/{len(rows)} reproduce manifest shared")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
