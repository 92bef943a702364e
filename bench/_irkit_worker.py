"""One irkit measurement in a fresh process (run by bench/run.py; prints JSON).

    python bench/_irkit_worker.py FILE [FILE ...] [--pass propagate-mma]

Times (CPU seconds of this process, and wall seconds) of: import, parse, verify,
print with locations, and optionally one pass on the parsed module; the
operation count; peak resident memory over the post-import baseline.  Several
files are measured as one input (their times and ops summed).
"""

from __future__ import annotations

import json
import resource
import sys
import time


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


class _Clock:
    def __init__(self) -> None:
        self.cpu: dict[str, float] = {}
        self.wall: dict[str, float] = {}

    def add(self, key: str, cpu: float, wall: float) -> None:
        self.cpu[key] = self.cpu.get(key, 0.0) + cpu
        self.wall[key] = self.wall.get(key, 0.0) + wall


# Options that keep the timed pass to irkit's own work: propagate-mma's default (profit=auto) would add the
# real compiler's time wherever a Triton is installed.
OWN_WORK = {"propagate-mma": {"profit": "model"}}


def main(argv: list[str]) -> None:
    pass_name = None
    if "--pass" in argv:
        i = argv.index("--pass")
        pass_name = argv[i + 1]
        argv = argv[:i] + argv[i + 2 :]
    clock = _Clock()
    c0, w0 = time.process_time(), time.perf_counter()
    from xdsl.context import Context

    from irkit.frontend.construct import gc_paused
    from irkit.frontend.parser import Parser
    from irkit.frontend.printer import print_module
    from irkit.verifier import verify_module

    pass_cls = None
    if pass_name is not None:
        from irkit.passes import all_passes

        pass_cls = all_passes().get(pass_name)
    clock.add("import", time.process_time() - c0, time.perf_counter() - w0)
    base_rss = _current_rss_mb()
    ops = 0
    errors = 0
    out_bytes = 0
    converts = [0, 0]
    for path in argv:
        with open(path) as f:
            text = f.read()
        c, w = time.process_time(), time.perf_counter()
        parsed = Parser(text, path).parse()
        clock.add("parse", time.process_time() - c, time.perf_counter() - w)
        ops += sum(1 for _ in parsed.module.walk())
        c, w = time.process_time(), time.perf_counter()
        errors += len(verify_module(parsed.module))
        clock.add("verify", time.process_time() - c, time.perf_counter() - w)
        c, w = time.process_time(), time.perf_counter()
        out_bytes += len(print_module(parsed, debuginfo=True))
        clock.add("print", time.process_time() - c, time.perf_counter() - w)
        if pass_cls is not None:
            converts[0] += sum(1 for o in parsed.module.walk() if o.name == "ttg.convert_layout")
            c, w = time.process_time(), time.perf_counter()
            with gc_paused():  # as irkit-opt runs a pass
                pass_cls(**OWN_WORK.get(pass_name, {})).apply(Context(allow_unregistered=True), parsed.module)
            clock.add("pass", time.process_time() - c, time.perf_counter() - w)
            converts[1] += sum(1 for o in parsed.module.walk() if o.name == "ttg.convert_layout")
        del parsed
    result = {
        "tool": "irkit",
        "files": len(argv),
        "ops": ops,
        "verify_errors": errors,
        "printed_bytes": out_bytes,
        "cpu": clock.cpu,
        "wall": clock.wall,
        "rss_base_mb": base_rss,
        "rss_peak_mb": _rss_mb(),
        "pass": pass_name if pass_cls is not None else None,
        "converts_before_after": converts if pass_cls is not None else None,
    }
    print(json.dumps(result))


if __name__ == "__main__":
    main(sys.argv[1:])
