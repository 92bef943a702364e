"""Parse MLIR files with the real Triton's C++ parser (which also verifies).

Used by tests/test_real_parser.py in-process (when `triton` imports) and as a
script under another Python that has another Triton version:

    python tests/real_triton_check.py [--isolate] FILE...   ->  one JSON object on stdout:
    {"version": "3.1.0", "results": {"FILE": null | "error text", ...}}
    python tests/real_triton_check.py --print FILE          ->  the module as this Triton prints it
    python tests/real_triton_check.py --print-nodebug FILE...  ->  {"version", "texts": {FILE: text}}

Only the standard library and triton are imported: the other Python has
neither pytest nor irkit.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile


def triton_version() -> str:
    import triton

    return triton.__version__


def make_context():
    """An MLIR context with every dialect Triton's own tools load."""
    from triton._C.libtriton import ir

    ctx = ir.context()
    ir.load_dialects(ctx)
    try:
        from triton._C.libtriton import nvidia

        nvidia.load_dialects(ctx)
    except (ImportError, AttributeError):
        pass
    try:
        from triton._C.libtriton import amd

        amd.load_dialects(ctx)
    except (ImportError, AttributeError):
        pass
    try:  # Intel's XPU backend (triton-xpu)
        from triton._C.libtriton import intel

        intel.load_dialects(ctx)
    except (ImportError, AttributeError):
        pass
    return ctx


def _capture_stderr_fd():
    """Redirect fd 2 (where MLIR's C++ diagnostics go) into a temporary file."""
    sys.stderr.flush()
    saved = os.dup(2)
    tmp = tempfile.TemporaryFile(mode="w+b")
    os.dup2(tmp.fileno(), 2)
    return saved, tmp


def _restore_stderr_fd(saved, tmp) -> str:
    sys.stderr.flush()
    os.dup2(saved, 2)
    os.close(saved)
    tmp.seek(0)
    text = tmp.read().decode("utf-8", errors="replace")
    tmp.close()
    return text


def check_one(path: str, ctx) -> str | None:
    from triton._C.libtriton import ir

    saved, tmp = _capture_stderr_fd()
    error = None
    try:
        ir.parse_mlir_module(path, ctx)
    except Exception as e:  # Triton raises RuntimeError("Parse MLIR file failed.")
        error = f"{type(e).__name__}: {e}"
    finally:
        diagnostics = _restore_stderr_fd(saved, tmp)
    return None if error is None else (diagnostics.strip() + "\n" + error).strip()


ISOLATE_TIMEOUT_S = 30  # per file with --isolate


def check_files(paths: list[str], isolate: bool = False) -> dict[str, str | None]:
    """None for a file the real parser accepts, else its diagnostics.

    With `isolate`, each file is parsed in a forked child, so that input
    which crashes the C++ parser costs one result, not the whole run."""
    ctx = make_context()
    results: dict[str, str | None] = {}
    for path in paths:
        if not isolate:
            results[path] = check_one(path, ctx)
            continue
        read_end, write_end = os.pipe()
        pid = os.fork()
        if pid == 0:  # child
            os.close(read_end)
            try:
                text = json.dumps(check_one(path, ctx))
            except BaseException as e:  # noqa: BLE001 - anything, as one result
                text = json.dumps(f"{type(e).__name__}: {e}")
            with os.fdopen(write_end, "w") as f:
                f.write(text)
            os._exit(0)
        os.close(write_end)
        import select

        if not select.select([read_end], [], [], ISOLATE_TIMEOUT_S)[0]:  # a parser stuck in a loop: one result
            os.kill(pid, 9)
            os.waitpid(pid, 0)
            os.close(read_end)
            results[path] = f"the parser did not finish in {ISOLATE_TIMEOUT_S} s"
            continue
        with os.fdopen(read_end) as f:
            text = f.read()
        _, status = os.waitpid(pid, 0)
        results[path] = json.loads(text) if text else f"the parser crashed (wait status {status})"
    return results


def print_file(path: str) -> str:
    """The module in `path` as this Triton prints it (`str(module)`: with locations)."""
    from triton._C.libtriton import ir

    ctx = make_context()
    module = ir.parse_mlir_module(path, ctx)
    return str(module)


def print_files_nodebug(paths: list[str]) -> dict[str, str | None]:
    """Each module as triton-opt prints it by default (no locations, values numbered as MLIR does); None
    where this Triton cannot (3.1 and 3.3 have no `str_nodebug`)."""
    from triton._C.libtriton import ir

    ctx = make_context()
    out: dict[str, str | None] = {}
    for path in paths:
        module = ir.parse_mlir_module(path, ctx)
        out[path] = module.str_nodebug() if hasattr(module, "str_nodebug") else None
    return out


def main(argv: list[str]) -> int:
    if argv[:1] == ["--print"]:
        sys.stdout.write(print_file(argv[1]))
        return 0
    if argv[:1] == ["--print-nodebug"]:
        json.dump({"version": triton_version(), "texts": print_files_nodebug(argv[1:])}, sys.stdout)
        return 0
    isolate = "--isolate" in argv
    paths = [a for a in argv if a != "--isolate"]
    out = {"version": triton_version(), "results": check_files(paths, isolate)}
    json.dump(out, sys.stdout)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
