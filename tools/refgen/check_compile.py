"""Compile a TTGIR file with the REAL Triton of a given version through its backend, all the way to the
binary (cubin via the bundled ptxas / hsaco via ld.lld), and print
    {"ok": bool, "shared": int|null, "error": str|null}
`shared` is CompiledKernel.metadata.shared.  No GPU is needed; Triton's OutOfResources check happens at load
time, so "ok" means "the compiler accepted it", not "it fits the device".

    python3 tools/refgen/check_compile.py --triton 3.1 --target cuda:80 FILE.ttgir
    python3 tools/refgen/check_compile.py --triton 3.1 --target hip:gfx942 FILE.ttgir   # needs /usr/bin/ld.lld

Targets: cuda:80, cuda:90, hip:gfx942, hip:gfx90a.  The script re-executes itself with the python of that
version's venv (REFGEN_VENV_ROOT, default /work) and compiles with a throw-away TRITON_CACHE_DIR.  On failure
`error` holds the exception and the last compiler diagnostics from stderr.
"""
import argparse
import json
import os
import sys
import tempfile

import refgen_common


def check(path, target):
    with tempfile.TemporaryDirectory() as cache, tempfile.TemporaryFile("w+b") as err:
        os.environ["TRITON_CACHE_DIR"] = cache
        os.environ["TRITON_ALWAYS_COMPILE"] = "1"
        sys.stderr.flush()
        saved = os.dup(2)
        os.dup2(err.fileno(), 2)  # MLIR diagnostics are printed by C++ on fd 2
        try:
            t = refgen_common.triton()
            k = t.compile(os.path.abspath(path), target=refgen_common.gpu_target(target))
            return {"ok": True, "shared": int(k.metadata.shared), "error": None}
        except BaseException as e:  # noqa: BLE001 - report everything, including SystemExit from backends
            sys.stderr.flush()
            os.dup2(saved, 2)
            err.seek(0)
            diag = err.read().decode(errors="replace").strip().splitlines()
            msg = f"{type(e).__name__}: {e}".strip()
            if diag:
                msg += "\n" + "\n".join(diag[-20:])
            return {"ok": False, "shared": None, "error": msg}
        finally:
            sys.stderr.flush()
            os.dup2(saved, 2)
            os.close(saved)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--triton", choices=sorted(refgen_common.VENVS), required=True)
    ap.add_argument("--target", required=True, choices=["cuda:80", "cuda:90", "hip:gfx942", "hip:gfx90a"])
    ap.add_argument("file")
    a = ap.parse_args()
    refgen_common.reexec_in_venv(a.triton)
    print(json.dumps(check(a.file, a.target)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
