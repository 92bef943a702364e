"""What the real compiler makes of modules irkit holds in memory: registers per thread, spills and shared
memory, for `propagate-mma{profit=compiled}` and for its default, `profit=auto`, where a Triton is at hand.

Each module is printed in its own spelling (`triton_gpu.*` for Triton 3.1 IR) to a temporary file, and all
of them are compiled in one subprocess of the Python that has Triton (`static.compile_metrics`:
$IRKIT_TRITON_PYTHON, else this interpreter).  On the CPU: ptxas reports the registers, no GPU is needed; HIP
modules (hip:gfx90a/942/950) compile on the CPU too, and their VGPRs, SGPRs and spilled VGPRs come from the
AMDGCN (`binary_metrics.amdgcn_resources`).
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from xdsl.dialects.builtin import ModuleOp

from irkit.analysis import real_compiler
from irkit.analysis.occupancy import CompiledKernel
from irkit.analysis.real_compiler import CompileUnavailable
from irkit.analysis.triton_versions import V31, infer_version
from irkit.check import static
from irkit.frontend.printer import print_module
from irkit.frontend.spelling import Spelling

# The two candidates of a GEMM compile in about a second; a compile that takes minutes is stuck, and the
# pass (by default, under profit=auto) must not hang on it: the model decides instead.
COMPILE_TIMEOUT_S = 300


def triton_python() -> str:
    """The Python that has a Triton ($IRKIT_TRITON_PYTHON, else this one when it can import triton), without
    starting it.  Raises CompileUnavailable when there is none."""
    from irkit.cli.entry import CliError

    try:
        return static.find_triton_python()
    except CliError as e:
        raise CompileUnavailable(str(e), "no Triton here to compile with") from None


def find_compiler(modules: list[ModuleOp]) -> str:
    """The Python whose Triton can compile these modules (cheap: Triton is not imported).
    Raises CompileUnavailable when there is none."""
    from irkit.cli.entry import CliError

    python = triton_python()
    try:
        installed = static.installed_triton_version(python)
    except CliError as e:
        raise CompileUnavailable(str(e), "the Python found for Triton has no usable Triton") from None
    for is_legacy in {infer_version(m) == V31 for m in modules}:
        why = static.version_mismatch(None, is_legacy, installed)
        if why:
            raise CompileUnavailable(f"{why} ({python})", why)
    return python


def spill_bytes(row: dict) -> int:
    """Spill stores per thread: ptxas's bytes, or on AMD 4 bytes for each spilled VGPR (per lane)."""
    if row.get("spill_store_bytes") is not None:
        return int(row["spill_store_bytes"])
    return 4 * int(row.get("vgpr_spill_count") or 0)


def printed_for_triton(module: ModuleOp) -> str:
    """A module in memory as Triton reads it: in its own spelling (`triton_gpu.*` for Triton 3.1 IR)."""
    spelling = Spelling.LEGACY if infer_version(module) == V31 else Spelling.CURRENT
    return print_module(module, spelling=spelling)


def compile_modules(modules: list[ModuleOp], python: str | None = None) -> list[CompiledKernel | str]:
    """The real compiler's figures for each module, or why it could not compile it (one line).  `python`:
    from `find_compiler`, which is called when it is not given (CompileUnavailable when there is none)."""
    from irkit.cli.entry import CliError

    python = python or find_compiler(modules)
    with tempfile.TemporaryDirectory(prefix="irkit-compiled-") as d:
        paths = []
        for i, module in enumerate(modules):
            path = Path(d) / f"candidate{i}.ttgir"
            path.write_text(printed_for_triton(module))
            paths.append(path)
        try:
            _, metrics = static.compile_metrics(paths, triton_python=python, timeout_s=COMPILE_TIMEOUT_S)
        except static.CompileTimeout as e:
            raise CompileUnavailable(str(e), f"the real compiler did not finish in {COMPILE_TIMEOUT_S} s") from None
        except CliError as e:
            raise CompileUnavailable(str(e), "the real compiler did not start") from None
    out: list[CompiledKernel | str] = []
    for row in metrics:
        if not row["ok"]:
            out.append(row["error"] or "the compile failed")
        elif row.get("registers") is None:
            out.append(f"the compiler reported no register count for target {row['target']}")
        else:
            out.append(CompiledKernel(int(row["registers"]), spill_bytes(row), int(row["shared"] or 0),
                                      int(row.get("occupancy_sgprs") or row.get("sgpr_count") or 0),
                                      row.get("reload_exposure"), row.get("loop_other"), row.get("outside_loops"),
                                      row.get("loop_cycles"), row.get("spill_ops_loop"), row.get("spill_ops_outside")))
    return out


class TritonCompiler:
    """The real Triton, as `irkit.analysis.real_compiler.RealCompiler`: what the tools provide to passes."""

    def look(self) -> None:
        triton_python()

    def compile(self, modules: list[ModuleOp]) -> list[CompiledKernel | str]:
        return compile_modules(modules, find_compiler(modules))


def provide_triton() -> None:
    """What a tool calls before it runs a pipeline: passes that ask for the real compiler get Triton."""
    real_compiler.provide(TritonCompiler())


__all__ = ["COMPILE_TIMEOUT_S", "CompileUnavailable", "TritonCompiler", "compile_modules", "find_compiler",
           "printed_for_triton", "provide_triton", "triton_python"]
