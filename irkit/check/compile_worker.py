"""Compile saved TTGIR files with the real Triton; run by the Python that has Triton, as a script.

    python compile_worker.py REQUEST.json      # prints one JSON document on stdout

REQUEST: {"jobs": [{"path": "k.ttgir", "target": "cuda:90" | "hip:gfx942" | "xpu" | null, "options": {...}}]}
("options": Triton's compile options, e.g. {"waves_per_eu": 2}; optional).  For each job
the answer holds the Triton version, `metadata.shared`, the kernel name, the texts of the PTX/AMDGCN it
produced and, for CUDA, the `ptxas -v` log of that PTX (the same ptxas Triton ships and used), or the
error (the exception and the compiler's last diagnostics).  No GPU is needed: Triton checks shared
memory against the device only when a kernel is loaded.  This file imports nothing from irkit (the
Python that runs it need not have irkit or xDSL); irkit parses what it returns.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile

PVC = {"name": "Intel(R) Data Center GPU Max 1550", "architecture": 0, "max_work_group_size": 1024,
       "max_num_sub_groups": 64, "sub_group_sizes": [16, 32], "has_fp64": True,
       "has_subgroup_matrix_multiply_accumulate": True,
       "has_subgroup_matrix_multiply_accumulate_tensor_float32": False,
       "has_subgroup_2d_block_io": True, "has_bfloat16_conversions": True}


def gpu_target(spec):
    from triton.backends.compiler import GPUTarget

    if spec.startswith("cuda:"):
        return GPUTarget("cuda", int(spec.split(":", 1)[1]), 32)
    if spec.startswith("hip:"):
        return GPUTarget("hip", spec.split(":", 1)[1], 64)
    if spec.startswith("xpu"):
        _skip_xpu_arch_probe()
        return GPUTarget("xpu", PVC, 16)
    raise ValueError(f"unknown target '{spec}'")


def _skip_xpu_arch_probe():
    """The Intel backend builds a C helper only to name the device for `ocloc` queries: not without a GPU."""
    from triton import backends

    class _NoArch:
        @staticmethod
        def parse_device_arch(_):
            return ""

    intel = backends.backends.get("intel")
    if intel is not None:
        intel.compiler.__init__.__globals__["compile_module_from_src"] = lambda *a, **k: _NoArch()


def ptxas_path(triton_module, ptx=""):
    """The ptxas Triton itself runs (TRITON_PTXAS_PATH, else the one in its wheel; for sm_100 and later the
    wheel's `ptxas-blackwell` where it has one, as Triton 3.5+ does: its plain ptxas rejects their PTX)."""
    env = os.environ.get("TRITON_PTXAS_PATH")
    if env and os.path.exists(env):
        return env
    bin_dir = os.path.join(os.path.dirname(triton_module.__file__), "backends", "nvidia", "bin")
    arch = re.search(r"^\s*\.target\s+sm_(\d+)", ptx, re.MULTILINE)
    if arch and int(arch.group(1)) >= 100 and os.path.exists(os.path.join(bin_dir, "ptxas-blackwell")):
        return os.path.join(bin_dir, "ptxas-blackwell")
    bundled = os.path.join(bin_dir, "ptxas")
    return bundled if os.path.exists(bundled) else None


def ptxas_log(ptx, ptxas, fmad=True):
    arch = re.search(r"^\s*\.target\s+(sm_\w+)", ptx, re.MULTILINE)
    if ptxas is None or arch is None:
        return None
    with tempfile.TemporaryDirectory() as d:
        src = os.path.join(d, "k.ptx")
        with open(src, "w") as f:
            f.write(ptx)
        cmd = [ptxas, "-v", f"--gpu-name={arch.group(1)}", src, "-o", os.path.join(d, "k.cubin")]
        if not fmad:
            cmd.insert(1, "--fmad=false")
        p = subprocess.run(cmd, capture_output=True, text=True, check=False)
        return p.stderr + p.stdout


def sass_of(triton_module, cubin):
    """nvdisasm's text of a cubin, with the nvdisasm Triton's wheel carries (3.4+); None without one."""
    nvdisasm = os.path.join(os.path.dirname(triton_module.__file__), "backends", "nvidia", "bin", "nvdisasm")
    if not isinstance(cubin, bytes) or not os.path.exists(nvdisasm):
        return None
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "k.cubin")
        with open(path, "wb") as f:
            f.write(cubin)
        p = subprocess.run([nvdisasm, "-c", path], capture_output=True, text=True, check=False)
        return p.stdout if p.returncode == 0 else None


def compile_one(triton, path, target, options=None):
    with tempfile.TemporaryDirectory() as cache, tempfile.TemporaryFile("w+b") as err:
        os.environ["TRITON_CACHE_DIR"] = cache
        os.environ["TRITON_ALWAYS_COMPILE"] = "1"
        sys.stdout.flush()
        sys.stderr.flush()
        saved_err, saved_out = os.dup(2), os.dup(1)
        os.dup2(err.fileno(), 2)  # MLIR diagnostics are printed by C++ on fd 2
        os.dup2(err.fileno(), 1)  # and some backends print progress on fd 1, which carries our answer
        try:
            kernel = triton.compile(os.path.abspath(path), target=gpu_target(target), options=options or None)
            failure = None
        except BaseException as e:  # noqa: BLE001 - report everything, SystemExit of backends included
            kernel, failure = None, f"{type(e).__name__}: {e}".strip()
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            os.dup2(saved_err, 2)
            os.dup2(saved_out, 1)
            os.close(saved_err)
            os.close(saved_out)
        if kernel is None:
            err.seek(0)
            diag = [line for line in err.read().decode(errors="replace").splitlines() if line.strip()]
            return {"ok": False, "error": failure, "diagnostics": diag[-20:]}
    md = kernel.metadata
    asm = {k: v for k, v in kernel.asm.items() if isinstance(v, str) and k in ("ptx", "amdgcn", "llir", "spv")}
    out = {"ok": True, "shared": int(md.shared), "name": md.name, "num_warps": md.num_warps,
           "asm": {k: v for k, v in asm.items() if k != "llir"}}
    if "ptx" in asm:
        out["ptxas_log"] = ptxas_log(asm["ptx"], ptxas_path(triton, asm["ptx"]), getattr(md, "enable_fp_fusion", True))
        sass = sass_of(triton, kernel.asm.get("cubin"))
        if sass:
            out["asm"]["sass"] = sass
    for key in ("build_flags", "n_regs", "n_spills", "waves_per_eu"):
        if hasattr(md, key):
            out[key] = getattr(md, key)
    return out


def main(argv):
    os.environ.setdefault("TRITON_DEFAULT_FP_FUSION", "1")  # 3.9 warns on import otherwise
    with open(argv[1]) as f:
        request = json.load(f)
    import triton

    answers = []
    for job in request["jobs"]:
        try:
            answers.append(compile_one(triton, job["path"], job["target"], job.get("options")))
        except Exception as e:  # noqa: BLE001 - one bad job does not lose the others
            answers.append({"ok": False, "error": f"{type(e).__name__}: {e}", "diagnostics": []})
    print(json.dumps({"triton_version": triton.__version__, "python": sys.executable, "results": answers}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
