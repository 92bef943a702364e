"""Helpers shared by the refgen scripts: load the real Triton of the running venv, parse and print MLIR
with its C++ bindings, and run single real passes.  Imported by the scripts next to it (sys.path[0]).

Nothing here imports irkit; everything runs inside a Triton venv (see README.md).
"""
import os
import sys
import tempfile

# where the Triton venvs live; override with REFGEN_VENV_ROOT
VENV_ROOT = os.environ.get("REFGEN_VENV_ROOT", "/work")
# each version's venvs under VENV_ROOT, the first that exists taken: the brief's names, then venvs/t<release>
VENVS = {"3.1": (".venv-triton31", "venvs/t3.1.0"), "3.3": (".venv-triton33", "venvs/t3.3.1"),
         "3.4": ("venvs/t3.4.0",), "3.5": ("venvs/t3.5.1",), "3.6": ("venvs/t3.6.0",), "3.7": ("venvs/t3.7.0",),
         "3.8": ("venvs/t3.8.0",), "3.9": (".venv-triton39", "venvs/t3.9.0")}


def venv_of(version):
    """The venv of `version` ("3.1" ... "3.9") under VENV_ROOT: the first of VENVS's names that exists."""
    paths = [os.path.realpath(os.path.join(VENV_ROOT, name)) for name in VENVS[version]]
    return next((p for p in paths if os.path.exists(os.path.join(p, "bin", "python"))), paths[0])


def reexec_in_venv(version):
    """Restart the current script with the python of the venv for `version` ("3.1", "3.3", "3.9")."""
    venv = venv_of(version)
    if os.path.realpath(sys.prefix) == venv:
        return
    py = os.path.join(venv, "bin", "python")
    if not os.path.exists(py):
        sys.exit(f"refgen: no venv for triton {version} at {venv}")
    if os.environ.get("REFGEN_REEXEC") == venv:
        sys.exit(f"refgen: re-exec into {venv} did not take (sys.prefix={sys.prefix})")
    os.environ["REFGEN_REEXEC"] = venv
    os.execv(py, [py, os.path.abspath(sys.argv[0])] + sys.argv[1:])


def triton():
    os.environ.setdefault("TRITON_DEFAULT_FP_FUSION", "1")  # silences a 3.9 warning; it is the default
    import triton as triton_module
    return triton_module


def version_tuple():
    return tuple(int(x) for x in triton().__version__.split(".")[:2])


def gpu_target(spec):
    """'cuda:80' | 'cuda:90' | 'hip:gfx942' | 'hip:gfx90a' -> GPUTarget (warp size 32 for cuda, 64 for hip)."""
    triton()
    from triton.backends.compiler import GPUTarget
    backend, arch = spec.split(":", 1)
    if backend == "cuda":
        return GPUTarget("cuda", int(arch), 32)
    return GPUTarget("hip", arch, 64)


def backend_for(spec):
    from triton.compiler.compiler import make_backend
    return make_backend(gpu_target(spec))


def context(target_spec="cuda:80"):
    """An MLIR context with the Triton dialects and the backend's own dialects loaded."""
    triton()
    from triton._C.libtriton import ir
    ctx = ir.context()
    ir.load_dialects(ctx)
    backend_for(target_spec).load_dialects(ctx)
    return ctx


def parse_file(path, ctx):
    from triton._C.libtriton import ir
    mod = ir.parse_mlir_module(str(path), ctx)
    mod.context = ctx
    return mod


def parse_text(text, ctx, name="input.mlir"):
    """Parse `text` as if it were the file `name` (a bare file name).  MLIR gives values whose location is not
    printed in the custom syntax (e.g. scf.for block arguments) a location in the parsed file, so parsing a
    temporary file would leak its random path into the IR; this keeps such locations deterministic."""
    assert os.sep not in name, name
    cwd = os.getcwd()
    with tempfile.TemporaryDirectory() as d:
        with open(os.path.join(d, name), "w") as f:
            f.write(text)
        os.chdir(d)
        try:
            return parse_file(name, ctx)
        finally:
            os.chdir(cwd)


def backend_passes(name):
    """A backend's `passes.ttgpuir` module of the running Triton (`nvidia`, `amd`)."""
    import importlib
    return importlib.import_module(f"triton._C.libtriton.{name}").passes.ttgpuir


def run_passes(mod, ctx, *adders):
    """Run the given pass adders (callables taking a pass_manager) in one real pass manager."""
    from triton._C.libtriton import ir
    pm = ir.pass_manager(ctx)
    pm.enable_debug()
    for add in adders:
        add(pm)
    try:
        pm.run(mod)
    except TypeError:  # 3.9: run(module, pipeline_name)
        pm.run(mod, "refgen")
    return mod


def text(mod):
    """The module as Triton prints it (module.str(): generic=False, locations kept)."""
    s = mod.str()
    return s if s.endswith("\n") else s + "\n"


def split_tensor_type(ty):
    """'tensor<4x!tt.ptr<f32>, #enc<{...}>>' -> ('4x!tt.ptr<f32>', '#enc<{...}>' or None)."""
    ty = ty.strip()
    if not ty.startswith("tensor<"):
        return ty, None
    body = ty[len("tensor<"):-1]
    depth = 0
    for i, ch in enumerate(body):
        if ch in "<{[(":
            depth += 1
        elif ch in ">}])":
            depth -= 1
        elif ch == "," and depth == 0:
            return body[:i].strip(), body[i + 1:].strip()
    return body, None
