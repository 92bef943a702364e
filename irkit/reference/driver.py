"""Run C++ passes of the Triton this Python has on MLIR modules: the reference side of irkit-ref.

Runs under any Python that imports `triton` (3.1 to 3.9, triton-xpu): it imports only the standard
library and triton, never irkit.  Input on stdin, one JSON object:

    {"passes": ["tritongpu-coalesce", ...], "modules": ["module text", ...]}

Output on stdout, one JSON object:

    {"version": "3.9.0", "results": [{"text": "..."} | {"error": "..."}, ...]}

`python driver.py --list` prints the pass names this Triton has, one a line.
A pass is named as triton-opt names it; `passes.ttgpuir.add_coalesce` (a binding's path under
triton._C.libtriton) names any other binding that takes only the pass manager.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile

# triton-opt's name -> the binding that adds it (a path under triton._C.libtriton); the first one that exists
PASSES: dict[str, tuple[str, ...]] = {
    "tritongpu-coalesce": ("passes.ttgpuir.add_coalesce",),
    "tritongpu-remove-layout-conversions": ("passes.ttgpuir.add_remove_layout_conversions",),
    "tritongpu-optimize-thread-locality": ("passes.ttgpuir.add_optimize_thread_locality",),
    "tritongpu-reduce-data-duplication": ("passes.ttgpuir.add_reduce_data_duplication",),
    "tritongpu-reorder-instructions": ("passes.ttgpuir.add_reorder_instructions",),
    "triton-rewrite-tensor-pointer": ("passes.ttir.add_rewrite_tensor_pointer",),
    "triton-combine": ("passes.ttir.add_combine",),
    "triton-reorder-broadcast": ("passes.ttir.add_reorder_broadcast",),
    "canonicalize": ("passes.common.add_canonicalizer",),
    "cse": ("passes.common.add_cse",),
    "symbol-dce": ("passes.common.add_symbol_dce",),
    # Intel's XPU backend (triton-xpu)
    "tritonintelgpu-coalesce": ("intel.passes.ttgpuir.add_coalesce",),
    "tritonintelgpu-remove-layout-conversions": ("intel.passes.ttgpuir.add_remove_layout_conversions",),
    "tritonintelgpu-reduce-data-duplication": ("intel.passes.ttgpuir.add_reduce_data_duplication",),
    "tritonintelgpu-materialize-block-pointer": ("intel.passes.ttgpuir.add_materialize_block_pointer",),
    "triton-raise-block-pointer": ("intel.passes.ttir.add_raise_block_pointer",),
}


def _binding(path: str):
    from triton._C import libtriton

    obj = libtriton
    for part in path.split("."):
        if part in ("nvidia", "amd", "intel") and obj is libtriton:
            try:
                __import__(f"triton._C.libtriton.{part}")
            except ImportError:
                return None
        obj = getattr(obj, part, None)
        if obj is None:
            return None
    return obj if callable(obj) else None


def adder(name: str):
    """The function adding pass `name` to a pass manager, or None where this Triton has no such pass."""
    for path in PASSES.get(name, (name,) if "." in name else ()):
        fn = _binding(path)
        if fn is not None:
            return fn
    return None


def context():
    from triton._C.libtriton import ir

    ctx = ir.context()
    ir.load_dialects(ctx)
    for backend in ("nvidia", "amd", "intel"):
        try:
            module = __import__(f"triton._C.libtriton.{backend}", fromlist=["load_dialects"])
            module.load_dialects(ctx)
        except (ImportError, AttributeError):
            pass
    return ctx


class _StderrToFile:
    """fd 2 (where MLIR's C++ diagnostics go) into a temporary file while a pass runs."""

    def __enter__(self):
        sys.stderr.flush()
        self.saved = os.dup(2)
        self.tmp = tempfile.TemporaryFile(mode="w+b")
        os.dup2(self.tmp.fileno(), 2)
        return self

    def __exit__(self, *exc):
        sys.stderr.flush()
        os.dup2(self.saved, 2)
        os.close(self.saved)
        self.tmp.seek(0)
        self.text = self.tmp.read().decode("utf-8", errors="replace").strip()
        self.tmp.close()
        return False


def run_one(text: str, adders, ctx) -> dict:
    from triton._C.libtriton import ir

    unreadable = False
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "input.mlir")
        with open(path, "w") as f:
            f.write(text)
        with _StderrToFile() as err:
            try:
                try:
                    module = ir.parse_mlir_module(path, ctx)
                except Exception:  # noqa: BLE001 - ops or layouts this Triton does not have
                    unreadable = True
                    raise
                module.context = ctx
                pm = ir.pass_manager(ctx)
                for add in adders:
                    add(pm)
                try:
                    pm.run(module)
                except TypeError:  # 3.9: run(module, pipeline_name)
                    pm.run(module, "irkit-ref")
                out = module.str()
            except Exception as e:  # noqa: BLE001 - Triton raises RuntimeError on a bad module or a failed pass
                out, error = None, f"{type(e).__name__}: {e}"
    if out is None:
        return {"error": (err.text + "\n" + error).strip(), "unreadable": unreadable}
    return {"text": out}


def isolated(text: str, adders, ctx) -> dict:
    """run_one in a forked child, so that a pass that aborts (an assertion, llvm_unreachable) costs one
    module's result, not the whole batch."""
    if not hasattr(os, "fork"):
        return run_one(text, adders, ctx)
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # child
        os.close(read_end)
        try:
            answer = json.dumps(run_one(text, adders, ctx))
        except BaseException as e:  # noqa: BLE001 - anything, as this module's result
            answer = json.dumps({"error": f"{type(e).__name__}: {e}"})
        with os.fdopen(write_end, "w") as f:
            f.write(answer)
        os._exit(0)
    os.close(write_end)
    with os.fdopen(read_end) as f:
        answer = f.read()
    _, status = os.waitpid(pid, 0)
    if answer:
        return json.loads(answer)
    signal = os.WTERMSIG(status) if os.WIFSIGNALED(status) else None
    return {"error": f"the C++ pass crashed (signal {signal})" if signal else f"the C++ pass exited ({status})"}


def main(argv: list[str]) -> int:
    os.environ.setdefault("TRITON_DEFAULT_FP_FUSION", "1")  # 3.9 warns on import without it
    import triton

    if argv[:1] == ["--list"]:
        sys.stdout.write("".join(f"{n}\n" for n in PASSES if adder(n) is not None))
        return 0
    request = json.load(sys.stdin)
    adders = []
    for name in request["passes"]:
        fn = adder(name)
        if fn is None:
            json.dump({"version": triton.__version__, "missing": name}, sys.stdout)
            return 0
        adders.append(fn)
    ctx = context()
    results = [isolated(text, adders, ctx) for text in request["modules"]]
    json.dump({"version": triton.__version__, "results": results}, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
