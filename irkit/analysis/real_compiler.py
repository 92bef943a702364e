"""The real compiler as a pass sees it: an interface the tools provide, never something a pass finds or starts.

`propagate-mma{profit=compiled}` (and its default, `profit=auto`, on CUDA) compares what the real compiler
makes of two candidate modules.  Finding a Triton, printing modules and starting a compiler are the tools'
business (MLIR's tools link the passes, never the reverse): `irkit-opt`, `irkit-check`, `irkit-sweep` and
`irkit-report` provide `irkit.check.compiled_stats.TritonCompiler` when they build a pipeline, and a
program that runs passes itself provides its own (or none: then `auto` is the cost model alone).
"""

from __future__ import annotations

from typing import Protocol

from xdsl.dialects.builtin import ModuleOp

from irkit.analysis.occupancy import CompiledKernel
from irkit.analysis.tool_provided import ToolProvided


class CompileUnavailable(Exception):
    """No real compiler to compile with, or one that cannot read this IR.  The message says which and how to
    name one; `reason` says it in a few words, without paths (for a remark)."""

    def __init__(self, message: str, reason: str):
        super().__init__(message)
        self.reason = reason


class RealCompiler(Protocol):
    def look(self) -> None:
        """Cheap (nothing is started): raises CompileUnavailable when there is no compiler at all."""

    def compile(self, modules: list[ModuleOp]) -> list[CompiledKernel | str]:
        """The compiler's figures for each module, or why it could not compile it (one line); raises
        CompileUnavailable when no compiler can read these modules."""
        ...


_slot: ToolProvided[RealCompiler] = ToolProvided()
provide = _slot.provide  # what the tools call: passes asking get it (None: none)
provided = _slot.provided
providing = _slot.providing  # for the duration of a block (the tools around one module; tests)
