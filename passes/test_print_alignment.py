"""Print the AxisInfo of every op result: contiguity, divisibility, constancy, constant (Triton's -test-print-alignment).

The report of Triton's `TestAxisInfoPass` (test/lib/Analysis/TestAxisInfo.cpp), computed by irkit's AxisInfo
analysis (`irkit.analysis.axis_info`) under the rules of the `version` option (3.1's up to 3.6, 3.7-3.8's, or
upstream main's from 3.9 and for `main`; unset: 3.1's for a `triton_gpu.*` module, else main's).  For each
`tt.func`, in walk order: `@name`, then for every result of every op in post-order a line
`<the op> => contiguity = [...], divisibility = [...], constancy = [...], constant_value = N|<none>`.  With
`remarks=true` each line is a remark at the op instead (`loc: remark: <the op> => ...`), as Triton prints it
from 2025 on (tests checked with -verify-diagnostics).
The IR is unchanged.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from irkit.analysis.axis_info import AxisInfo, AxisInfoAnalysis
from irkit.analysis.axis_info_main import axis_rules
from irkit.analysis.triton_versions import MAIN
from irkit.analysis.walk import modules_with_functions, post_order
from irkit.diagnostics import emit_output, emit_remark
from irkit.dialects.tt import FuncOp
from irkit.frontend.printer import operation_text
from irkit.frontend.spelling import Spelling


def axis_info_text(info: AxisInfo | None) -> str:
    """AxisInfo::print: the three per-dimension vectors and the constant (`<none>` when unknown)."""
    if info is None:
        return ""
    constant = "<none>" if info.constant is None else str(info.constant)
    return (
        f"contiguity = {list(info.contiguity)}, divisibility = {list(info.divisibility)}, "
        f"constancy = {list(info.constancy)}, constant_value = {constant}"
    )


def module_spelling(module: ModuleOp) -> Spelling:
    """Triton 3.1 modules (`triton_gpu.*` attributes) print their ops as `triton_gpu.*`."""
    legacy = any(key.startswith("triton_gpu.") for key in module.attributes)
    return Spelling.LEGACY if legacy else Spelling.CURRENT


@dataclass(frozen=True)
class TestPrintAlignmentPass(ModulePass):
    """Print the AxisInfo of every op result: contiguity, divisibility, constancy, constant (Triton's -test-print-alignment)."""

    name = "test-print-alignment"

    # emit each line as a remark at its op (Triton 2025+ test style) instead of printing it; unset, irkit-opt
    # turns it on under --verify-diagnostics
    remarks: bool | None = None
    # the AxisInfo rules: up to 3.6 Triton 3.1's; 3.7-3.8 add tt.reshape and #9297's add/sub divisibility;
    # 3.9 and main: upstream main's (axis_info_main); empty: 3.1's for a triton_gpu.* module, else main's
    version: str = ""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for module in modules_with_functions(op, FuncOp):
            spelling = module_spelling(module)
            # unset: the newest rules irkit has (upstream main's), but Triton 3.1's for a module in 3.1's spelling
            version = str(self.version) if self.version else ("3.1" if spelling == Spelling.LEGACY else MAIN)
            analysis = AxisInfoAnalysis(module, axis_rules(version))
            for func in module.ops:
                if not isinstance(func, FuncOp):
                    continue
                if not self.remarks:
                    emit_output(f"@{func.sym_name.data}")
                for inner in post_order(func):
                    if not inner.results:
                        continue
                    text = operation_text(inner, spelling)  # Value::print of a result prints its op
                    for result in inner.results:
                        line = f"{text} => {axis_info_text(analysis.get(result))}"
                        if self.remarks:
                            emit_remark(inner, line)
                        else:
                            emit_output(line)
