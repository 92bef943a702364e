"""One MLIR C++ measurement in a fresh process, through Triton's Python bindings
(run by bench/run.py under a Python that imports `triton`; prints JSON).

    python bench/_mlir_worker.py FILE [FILE ...] [--pass remove-layout-conversions]

Times (CPU seconds of the process, all threads, and wall seconds) of: import and
context set-up, parse (`ir.parse_mlir_module`, which also verifies), print
(`module.str()`, with locations, as Triton writes its dumps) and optionally
TritonGPU's remove-layout-conversions pass; peak resident memory over the
post-import baseline.  This file imports nothing from irkit.
"""

from __future__ import annotations

import json
import re
import resource
import sys
import time

_CONVERT = re.compile(r"\b(?:triton_gpu|ttg)\.convert_layout\b")


def _rss_mb() -> float:
    """Peak resident memory of this process so far (MB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # ru_maxrss is in KB on Linux


def _current_rss_mb() -> float:
    """Resident memory now (MB): the baseline, since the import peak may be higher."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * resource.getpagesize() / (1 << 20)
    except OSError:
        return _rss_mb()


def main(argv: list[str]) -> None:
    pass_name = None
    if "--pass" in argv:
        i = argv.index("--pass")
        pass_name = argv[i + 1]
        argv = argv[:i] + argv[i + 2 :]
    cpu: dict[str, float] = {}
    wall: dict[str, float] = {}

    def add(key: str, c: float, w: float) -> None:
        cpu[key] = cpu.get(key, 0.0) + time.process_time() - c
        wall[key] = wall.get(key, 0.0) + time.perf_counter() - w

    c, w = time.process_time(), time.perf_counter()
    import triton
    from triton._C.libtriton import ir, passes

    ctx = ir.context()
    ir.load_dialects(ctx)
    for backend in ("nvidia", "amd"):
        try:
            getattr(__import__("triton._C.libtriton", fromlist=[backend]), backend).load_dialects(ctx)
        except Exception:  # noqa: BLE001 - a wheel without that backend
            pass
    add("import", c, w)
    base_rss = _current_rss_mb()
    out_bytes = 0
    converts = [0, 0]
    for path in argv:
        c, w = time.process_time(), time.perf_counter()
        module = ir.parse_mlir_module(path, ctx)
        add("parse", c, w)
        c, w = time.process_time(), time.perf_counter()
        text = module.str()
        add("print", c, w)
        out_bytes += len(text)
        if pass_name == "remove-layout-conversions":
            converts[0] += len(_CONVERT.findall(text))
            c, w = time.process_time(), time.perf_counter()
            pm = ir.pass_manager(ctx)
            passes.ttgpuir.add_remove_layout_conversions(pm)
            pm.run(module)
            add("pass", c, w)
            converts[1] += len(_CONVERT.findall(module.str()))
        del module
    print(
        json.dumps(
            {
                "tool": "mlir",
                "triton_version": triton.__version__,
                "files": len(argv),
                "printed_bytes": out_bytes,
                "cpu": cpu,
                "wall": wall,
                "rss_base_mb": base_rss,
                "rss_peak_mb": _rss_mb(),
                "pass": pass_name,
                "converts_before_after": converts if pass_name else None,
            }
        )
    )


if __name__ == "__main__":
    main(sys.argv[1:])
