"""Compile one kernel under many configs with the real Triton; run by the Python that has Triton, as a script.

    python knob_worker.py REQUEST.json      # prints one JSON document on stdout

With "list_configs": true it compiles nothing and answers {"configs": [...]}: the kernel's `@triton.autotune`
configs (their AMD knobs, passed as kwargs, moved to the options).

REQUEST: {"source": "gemm.py" | "k.ttir", "kernel": "matmul_kernel" (a Python source), "signature": {"a_ptr":
"*fp16", ...} (a Python source; default: the program's SIGNATURES[kernel], else SIGNATURE), "target": "hip:gfx942",
"configs": [{"constexprs": {"BLOCK_M": 128}, "options": {"num_warps": 4, "waves_per_eu": 2}}]}.

For each config the answer holds `metadata.shared`, num_warps, the TTGIR and the AMDGCN/PTX texts, and
for CUDA the `ptxas -v` log, or the error (an OutOfResources is an answer too: Triton raises it only at load
time, so a compile on the CPU succeeds and irkit judges the fit).  No GPU is needed.  This file imports
nothing from irkit; irkit parses what it returns.  Compiles run one after another: the machine's cores
belong to Triton's own threads.
"""

from __future__ import annotations

import importlib.util
import json
import os
import sys
import time

_HERE = os.path.dirname(os.path.abspath(__file__))


def _load_program(path):
    spec = importlib.util.spec_from_file_location(f"_irkit_screen_{abs(hash(path))}", path)
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, os.path.dirname(os.path.abspath(path)))
    spec.loader.exec_module(module)
    return module


def _kernel_of(module, name):
    fn = getattr(module, name, None)
    if fn is None:
        raise ValueError(f"the program defines no '{name}'")
    from triton.runtime.jit import JITFunction

    while not isinstance(fn, JITFunction) and hasattr(fn, "fn"):  # @triton.autotune / heuristics wrap it
        fn = fn.fn
    return fn


def _source(triton, request, module, config):
    from triton.compiler import ASTSource

    if module is None:
        return request["source"]
    fn = _kernel_of(module, request["kernel"])
    signature = dict(request.get("signature") or getattr(module, "SIGNATURES", {}).get(request["kernel"])
                     or getattr(module, "SIGNATURE", {}) or {})
    constexprs = dict(config.get("constexprs", {}))
    missing = [a for a in fn.arg_names if a not in signature and a not in constexprs]
    if missing:
        raise ValueError(f"no type for argument(s) {', '.join(missing)} of {request['kernel']}: give SIGNATURE or a "
                         "constexpr value")
    types = {a: signature[a] for a in fn.arg_names if a not in constexprs}
    return ASTSource(fn, types, constexprs=constexprs)


AMD_KNOBS = ("waves_per_eu", "matrix_instr_nonkdim", "kpack")  # options Triton's AMD autotune configs carry as kwargs


def autotune_configs(module, name):
    """The configs of an `@triton.autotune` kernel, as the screen's plan: [{"constexprs", "options"}] ([] when the
    kernel is not autotuned)."""
    fn = getattr(module, name, None)
    out = []
    for c in getattr(fn, "configs", None) or []:
        kwargs = dict(getattr(c, "kwargs", {}) or {})
        options = {k: kwargs.pop(k) for k in AMD_KNOBS if k in kwargs}
        for key in ("num_warps", "num_stages"):
            if getattr(c, key, None) is not None:
                options[key] = getattr(c, key)
        out.append({"constexprs": kwargs, "options": options})
    return out


def compile_config(triton, request, module, config):
    import tempfile

    sys.path.insert(0, os.path.join(os.path.dirname(_HERE), "check"))
    from compile_worker import gpu_target, ptxas_log, ptxas_path  # the targets as irkit-check's worker builds them

    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as cache:
        os.environ["TRITON_CACHE_DIR"] = cache
        os.environ["TRITON_ALWAYS_COMPILE"] = "1"
        try:
            kernel = triton.compile(_source(triton, request, module, config), target=gpu_target(request["target"]),
                                    options=dict(config.get("options", {})))
        except BaseException as e:  # noqa: BLE001 - report everything, SystemExit of backends included
            return {"ok": False, "error": f"{type(e).__name__}: {e}".strip()[:2000],
                    "seconds": time.perf_counter() - started}
    md = kernel.metadata
    asm = {k: v for k, v in kernel.asm.items() if isinstance(v, str) and k in ("ptx", "amdgcn", "ttgir")}
    out = {"ok": True, "shared": int(md.shared), "name": md.name, "num_warps": md.num_warps, "asm": asm,
           "seconds": time.perf_counter() - started}
    for key in ("waves_per_eu", "matrix_instr_nonkdim", "kpack", "num_stages"):
        if hasattr(md, key):
            out[key] = getattr(md, key)
    if "ptx" in asm:
        out["ptxas_log"] = ptxas_log(asm["ptx"], ptxas_path(triton, asm["ptx"]), getattr(md, "enable_fp_fusion", True))
    return out


def main(argv):
    os.environ.setdefault("TRITON_DEFAULT_FP_FUSION", "1")
    with open(argv[1]) as f:
        request = json.load(f)
    started = time.perf_counter()
    import triton

    source = request["source"]
    module = _load_program(source) if source.endswith(".py") else None
    ready = time.perf_counter() - started
    if request.get("list_configs"):
        print(json.dumps({"triton_version": triton.__version__, "configs": autotune_configs(module, request["kernel"])}))
        return 0
    # the compiles print progress and warnings (kpack on gfx950) on fd 1, which carries our answer
    saved_out = os.dup(1)
    os.dup2(2, 1)
    try:
        answers = [compile_config(triton, request, module, c) for c in request["configs"]]
    finally:
        sys.stdout.flush()
        os.dup2(saved_out, 1)
        os.close(saved_out)
    print(json.dumps({"triton_version": triton.__version__, "python": sys.executable, "startup_seconds": ready,
                      "results": answers}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
