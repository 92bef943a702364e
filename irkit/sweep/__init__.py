"""irkit-sweep: a pass pipeline over every kernel a team has, one results row per kernel.

    inputs   which kernels: files, Triton cache / kernel-dump folders, dump logs (walked)
    kernel   one kernel: irkit-report's reader, irkit-opt's driver, the report model; one row
    schema   the columns, their types and meaning (one home)
    results  Parquet / CSV / JSONL written as rows come, read back for --resume, sorted at the end
    engines  a local process pool or Ray: the same function on the same tasks
    summary  by Triton version and target: changed, conversions removed, bytes saved, unlocked, failures
    run      the whole sweep (`run_sweep`), used by the CLI (`irkit.sweep.cli`) and bench/sweep.py
"""

from irkit.sweep.run import SweepResult, run_sweep

__all__ = ["SweepResult", "run_sweep"]
