"""Make tests/data/verdicts/: fresh TTGIR of our GEMMs compiled by a real Triton (3.5, 3.8) for cuda:80, cuda:90,
cuda:100, hip:gfx942 and hip:gfx950, tiles chosen so that some are over a target's shared memory / LDS, with the
compiler's `metadata.shared`.  tests/test_target_verdicts.py checks that irkit-report, with no --limit, gives
each the verdict Triton's launch gives (OutOfResources when metadata.shared is over the device's limit).

    /work/venvs/t3.5.1/bin/python tools/verdict_corpus.py --out tests/data/verdicts
    /work/venvs/t3.8.0/bin/python tools/verdict_corpus.py --out tests/data/verdicts

Runs under the Python that has Triton; one compile at a time.  Writes <version>/<target>/<config>.ttgir (locations
stripped, they are not what is tested) and appends to manifest.json.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import re
import sys
import tempfile
from pathlib import Path

TARGETS = ("cuda:80", "cuda:90", "cuda:100", "hip:gfx942", "hip:gfx950")
# (kernel, BLOCK_M, BLOCK_N, BLOCK_K, num_warps, num_stages)
CONFIGS = [
    ("matmul", 128, 128, 64, 4, 3),
    ("matmul", 256, 256, 64, 8, 3),
    ("matmul_add", 256, 128, 128, 8, 4),
    ("matmul", 256, 256, 128, 8, 2),
    ("matmul", 256, 256, 128, 8, 4),
    ("matmul", 128, 256, 256, 8, 2),  # 192 KiB on NVIDIA: over the A100, under the H100 and B200
]


def main() -> None:
    import triton
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource

    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="tests/data/verdicts")
    ap.add_argument("--skip-existing", action="store_true", help="compile only the configs not in the manifest")
    a = ap.parse_args()
    here = Path(__file__).resolve().parent.parent
    spec = importlib.util.spec_from_file_location("amd_kernels", here / "tests" / "data" / "amd" / "kernels.py")
    kernels = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(kernels)
    out = Path(a.out)
    manifest_path = out / "manifest.json"
    manifest = json.loads(manifest_path.read_text()) if manifest_path.exists() else []
    version = triton.__version__
    for target in TARGETS:
        backend, arch = target.split(":")
        gpu = GPUTarget(backend, int(arch) if backend == "cuda" else arch, 32 if backend == "cuda" else 64)
        for name, bm, bn, bk, w, s in CONFIGS:
            fn = getattr(kernels, name)
            consts = {"BLOCK_M": bm, "BLOCK_N": bn, "BLOCK_K": bk}
            src = ASTSource(fn, {k: v for k, v in kernels.SIGNATURE.items()}, constexprs=consts)
            tag = f"{name}_{bm}x{bn}x{bk}_w{w}_s{s}"
            rel = f"{version}/{target.replace(':', '_')}/{tag}.ttgir"
            if a.skip_existing and any(m["path"] == rel for m in manifest):
                continue
            with tempfile.TemporaryDirectory() as cache:
                os.environ["TRITON_CACHE_DIR"] = cache
                try:
                    k = triton.compile(src, target=gpu, options={"num_warps": w, "num_stages": s})
                except Exception as e:  # noqa: BLE001
                    print(f"{version} {target} {tag}: {type(e).__name__}: {str(e)[:200]}", file=sys.stderr)
                    continue
            ttgir = re.sub(r"^#loc.*\n", "", k.asm["ttgir"], flags=re.MULTILINE)
            ttgir = re.sub(r" loc\([^()]*(?:\([^()]*\)[^()]*)*\)", "", ttgir)
            path = out / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(ttgir)
            manifest = [m for m in manifest if m["path"] != rel]
            manifest.append({"path": rel, "triton": version, "target": target,
                             "shared": int(k.metadata.shared), "num_warps": w, "num_stages": s})
            print(f"{version} {target} {tag}: shared {k.metadata.shared}", file=sys.stderr)
            tmp = manifest_path.with_suffix(".tmp")
            tmp.write_text(json.dumps(sorted(manifest, key=lambda m: m["path"]), indent=1) + "\n")
            tmp.replace(manifest_path)


if __name__ == "__main__":
    main()
