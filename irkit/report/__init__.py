"""Reports on Triton IR: what a pass idea is judged by.

Data and rendering are kept apart: `model` and `perpass` build plain dataclasses from parsed modules
and dump-log sections (they never change IR); `text` and `html` render them; every report's
`to_dict()` is its JSON form.  `irkit.cli.report` (the `irkit-report` command) reads the inputs,
runs pass pipelines through irkit-opt's driver and picks the renderer.

    module   one module: conversions, local_allocs, predicted shared memory vs every target's limit
    diff     two modules (or one module before/after a pipeline): converts eliminated, bytes saved,
             verdict changes
    per-pass one MLIR_ENABLE_DUMP log: one row per section
    modules  a file with several top-level modules: one module or diff report per module
    screen   several autotuning configs: which exceed the limit, which a pipeline brings under it
"""

from irkit.report.model import (
    DiffReport,
    ModuleReport,
    ModuleSetReport,
    ScreenEntry,
    ScreenReport,
    TargetVerdict,
    build_diff_report,
    build_module_report,
    build_screen_report,
)
from irkit.report.perpass import PerPassReport, SectionRow, build_per_pass_report

__all__ = [
    "DiffReport",
    "ModuleReport",
    "ModuleSetReport",
    "PerPassReport",
    "ScreenEntry",
    "ScreenReport",
    "SectionRow",
    "TargetVerdict",
    "build_diff_report",
    "build_module_report",
    "build_per_pass_report",
    "build_screen_report",
]
