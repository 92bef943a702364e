"""Fit a module over the AMD arch's LDS by sending its largest converts through an intermediate layout
(Triton's -optimize-amd-lds-usage, third_party/amd/lib/TritonAMDGPUToLLVM/OptimizeLDSUsage.cpp, 3.3-3.6).

make_llir runs it just before the allocation on AMD, so the `shared` a compile of those releases reports is that
of the module this pass leaves.  The choice of layout is `irkit.analysis.amd_lds_usage`; the allocation it reads
is the shared-memory model's (docs/passes/optimize-amd-lds-usage.md).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from irkit.analysis.shared_memory import optimize_lds_usage
from irkit.analysis.walk import modules_with_functions
from irkit.diagnostics import PassFailure, emit_remark
from irkit.dialects.tt import FuncOp


@dataclass(frozen=True)
class OptimizeAmdLdsUsagePass(ModulePass):
    """Fit a module over the AMD arch's LDS by sending its largest converts through an intermediate layout
    (Triton's -optimize-amd-lds-usage, 3.3-3.6).

    Options:
      target-arch: the gfx arch (gfx942, gfx950, ...) when the module has no ttg.target.
      lds-limit:   the LDS a CTA may use, in bytes; 0: the arch's (64 KiB on gfx942, 160 KiB on gfx950).
      version:     the Triton whose pass runs: 3.3 (every candidate priced padded), 3.4, or 3.5/3.6 (a swizzled
                   fit first, else the padded scratch, marked on the converts); irkit-opt fills it from
                   --triton-version or the Triton cache JSON; releases without the pass run 3.6's.

    Each convert it rewrites gets a remark saying through what layout and at what size (--mlir-print-remarks).
    """

    name = "optimize-amd-lds-usage"  # triton-opt's own name for the C++ pass

    target_arch: str = ""
    lds_limit: int = 0
    version: str = ""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        target = f"hip:{self.target_arch}" if self.target_arch and ":" not in self.target_arch else self.target_arch
        for module in modules_with_functions(op, FuncOp):
            try:
                notes = optimize_lds_usage(module, self.version or None, target or None, int(self.lds_limit))
            except ValueError as e:  # a bad version
                raise PassFailure(module, f"optimize-amd-lds-usage: {e}") from e
            for note in notes:
                emit_remark(module, note)
