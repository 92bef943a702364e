"""The knob screen: one kernel under many configs and compiler knobs, compiled by the real Triton (on the CPU),
one row per config: waves per SIMD (CTAs per SM on NVIDIA) and what limits them, registers, spills, LDS, whether
it fits, and what a pass pipeline changes.  The seed's tuning guide as a command: which configs are out of
resources, which are register-bound, which a pass moves.

    irkit-sweep --screen gemm.py --kernel matmul --target hip:gfx942 \\
        --config BLOCK_M=64,128 --config BLOCK_N=128 --config BLOCK_K=32,64 \\
        --knob num_warps=4,8 --knob waves_per_eu=0,2 --knob matrix_instr_nonkdim=0,16 --knob kpack=1,2 \\
        -p propagate-mma -o screen.jsonl --html screen.html

The grid: every combination of --config values (tiles), or without --config the kernel's own
`@triton.autotune` configs, and for each the knobs one at a time around their first values (`--full-grid`: every
combination).  All compiles of the kernel run in one subprocess of the
Python that has Triton (`knob_worker.py`), then the configs the pipeline changes are compiled again before and
after it (`irkit-check`'s worker, with the same knobs).
"""

from __future__ import annotations

import itertools
import json
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from irkit.cli.entry import CliError

WORKER = Path(__file__).with_name("knob_worker.py")
OPTION_KNOBS = ("num_warps", "num_stages", "waves_per_eu", "matrix_instr_nonkdim", "kpack")
AFTER_TTGIR_OPTIONS = ("waves_per_eu",)  # what still acts when a TTGIR is compiled


def parse_axis(spec: str) -> tuple[str, list]:
    """'BLOCK_M=64,128' -> ('BLOCK_M', [64, 128])."""
    name, eq, values = spec.partition("=")
    if not eq or not name.strip() or not values.strip():
        raise CliError(f"'{spec}': expected NAME=V1,V2,...")
    out = []
    for v in values.split(","):
        v = v.strip()
        try:
            out.append(int(v))
        except ValueError:
            out.append(v)
    return name.strip(), out


def grid(configs: dict[str, list], knobs: dict[str, list], full: bool = False,
         autotuned: list[dict] | None = None) -> list[dict]:
    """[{"constexprs": {...}, "options": {...}}]: every tile (or each of the kernel's autotune configs); the knobs
    in full or one at a time, over the config's own options."""
    if autotuned:
        out = []
        for config in autotuned:
            for setting in grid({}, knobs, full):
                out.append({"constexprs": config["constexprs"], "options": {**config["options"], **setting["options"]}})
        return list({json.dumps(c, sort_keys=True): c for c in out}.values())
    tiles = [dict(zip(configs, values)) for values in itertools.product(*configs.values())] or [{}]
    if full:
        settings = [dict(zip(knobs, values)) for values in itertools.product(*knobs.values())] or [{}]
    else:
        base = {k: v[0] for k, v in knobs.items()}
        settings = [base] + [{**base, k: v} for k, vs in knobs.items() for v in vs[1:]]
    return [{"constexprs": t, "options": s} for t in tiles for s in settings]


@dataclass
class Screen:
    target: str
    rows: list[dict]
    knobs: dict[str, list]
    configs: dict[str, list]
    pipeline: str | None
    triton: str = ""
    compile_seconds: float = 0.0  # the real compiler's, summed over all compiles
    worker_seconds: float = 0.0  # wall time of the compile subprocesses (Triton's start-up included)
    irkit_seconds: float = 0.0  # irkit's own: parsing, the pipeline, the analyses
    notes: list[str] = field(default_factory=list)

    def to_dict(self) -> dict:
        return {k: getattr(self, k) for k in ("target", "knobs", "configs", "pipeline", "triton", "compile_seconds",
                                              "worker_seconds", "irkit_seconds", "rows")}


def _run_worker(python: str, request: dict, timeout_s: float | None) -> dict:
    with tempfile.TemporaryDirectory(prefix="irkit-screen-") as d:
        path = Path(d) / "request.json"
        path.write_text(json.dumps(request))
        try:
            p = subprocess.run([python, str(WORKER), str(path)], capture_output=True, text=True, check=False,
                               timeout=timeout_s)
        except subprocess.TimeoutExpired:
            raise CliError(f"the Triton in '{python}' did not finish the screen's compiles in {timeout_s:g} s") from None
    if p.returncode != 0 or not p.stdout.strip():
        last = (p.stderr.strip().splitlines() or ["no output"])[-1]
        raise CliError(f"the Triton in '{python}' failed: {last}")
    return json.loads(p.stdout.strip().splitlines()[-1])


def figures(result: dict, target: str) -> dict:
    """One compile's row figures: registers, spills, LDS, occupancy and the limiter, fit."""
    from irkit.analysis.occupancy import ctas_per_sm, cu_limits, sm_limits
    from irkit.analysis.shared_memory import resolve_target, verdict
    from irkit.check import binary_metrics
    from irkit.check.static import amd_occupancy

    if not result.get("ok"):
        return {"ok": False, "error": result.get("error", "")[:500]}
    s = binary_metrics.binary_summary(result.get("asm", {}), result.get("ptxas_log"), result.get("name"))
    known = resolve_target(target)
    shared = result["shared"]
    row = {"ok": True, "num_warps": result["num_warps"], "shared": shared, "vgprs": s.get("registers"),
           "agprs": s.get("agpr_count"), "sgprs": s.get("occupancy_sgprs") or s.get("sgpr_count"),
           "spilled_vgprs": s.get("vgpr_spill_count"), "spill_store_bytes": s.get("spill_store_bytes"),
           "scratch_bytes": s.get("scratch_bytes"), "compiler_occupancy": s.get("compiler_occupancy"),
           "global_loads": binary_metrics.width_summary(s.get("global_loads") or {}),
           "lds_instrs": binary_metrics.width_summary({k: v for k, v in (s.get("shared_and_barriers") or {}).items()
                                                       if k.startswith("ds_")}),
           "fits": None if known is None else shared <= known.limit,
           "verdict": verdict(shared, known.limit if known else None)}
    if cu_limits(target):
        occ = amd_occupancy({"registers": s.get("registers"), "shared": shared, "occupancy_sgprs": row["sgprs"]},
                            target, result["num_warps"], result.get("waves_per_eu"))
        row.update(waves_per_simd=occ.get("waves_per_simd"), limited_by=occ.get("limited_by"),
                   occupancy=occ.get("occupancy"), next_vgprs=occ.get("next_vgprs"))
    elif sm_limits(target) and s.get("registers") is not None:
        o = ctas_per_sm(sm_limits(target), s["registers"], result["num_warps"], shared)
        row.update(ctas_per_sm=o.ctas, limited_by=o.limited_by, occupancy=str(o), registers=row.pop("vgprs"),
                   spill_store_bytes=s.get("spill_store_bytes"))
    if row["fits"] is False:
        row["limited_by"] = "out of resources"
    return row


def _pipeline_columns(pending: list[tuple[dict, dict, str, str]], target: str, python: str,
                      timeout_s: float | None) -> float:
    """Compile the TTGIR of each config the pipeline changed, before and after, with its knobs; fill the
    after_* columns.  Returns the compile subprocess's wall time."""
    from irkit.check.static import compile_metrics

    if not pending:
        return 0.0
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="irkit-screen-") as d:
        paths, options = [], []
        for i, (_, config, before, after) in enumerate(pending):
            opts = {k: v for k, v in config["options"].items() if k in AFTER_TTGIR_OPTIONS}
            for side, text in (("before", before), ("after", after)):
                p = Path(d) / f"{i}_{side}" / "kernel.ttgir"
                p.parent.mkdir()
                p.write_text(text)
                paths.append(p)
                options.append(opts)
        _, metrics = compile_metrics(paths, [target] * len(paths), python, timeout_s, options)
    for i, (row, _, _, _) in enumerate(pending):
        b, a = metrics[2 * i], metrics[2 * i + 1]
        if not (b["ok"] and a["ok"]):
            row["pipeline_effect"] = f"compile failed: {(b if not b['ok'] else a)['error']}"
            continue
        row.update(after_vgprs=a.get("registers"), after_spilled_vgprs=a.get("vgpr_spill_count"),
                   after_shared=a.get("shared"), after_waves_per_simd=a.get("waves_per_simd"),
                   after_occupancy=a.get("occupancy"))
        row["pipeline_effect"] = _effect(b, a)
    return time.perf_counter() - started


def _effect(b: dict, a: dict) -> str:
    parts = []
    for key, label in (("registers", "VGPRs"), ("vgpr_spill_count", "spilled"), ("shared", "LDS B"),
                       ("waves_per_simd", "waves/SIMD"), ("ttgir_convert_layout", "convert_layout")):
        if b.get(key) is not None and b.get(key) != a.get(key):
            parts.append(f"{label} {b[key]}->{a[key]}")
    return ", ".join(parts) or "no change in the binary"


def run_screen(source: str, kernel: str | None, target: str, configs: dict[str, list], knobs: dict[str, list],
               pipeline: str | None = None, full_grid: bool = False, triton_python: str | None = None,
               signature: dict | None = None, timeout_s: float | None = None) -> Screen:
    from irkit.analysis.shared_memory import resolve_target
    from irkit.check.rewrite import parse_pipeline, rewrite_module
    from irkit.check.static import _triton_python_env, find_triton_python, installed_triton_version

    known = resolve_target(target)
    target = known.triple if known else target  # "MI355X", "gfx950" -> "hip:gfx950"
    if not target.startswith(("cuda:", "hip:", "xpu")):
        raise CliError(f"--target '{target}': a name (B200, MI355X, ...) or a triple (cuda:100, hip:gfx950)")
    unknown = [k for k in knobs if k not in OPTION_KNOBS]
    if unknown:
        raise CliError(f"unknown knob(s) {', '.join(unknown)}: --knob takes {', '.join(OPTION_KNOBS)}")
    if source.endswith(".py") and not kernel:
        raise CliError(f"{source}: name the kernel to screen (--kernel NAME)")
    if not source.endswith((".py", ".ttir")):
        raise CliError(f"{source}: the screen compiles a Python program (.py) or a saved TTIR (.ttir)")
    if source.endswith(".ttir") and configs:
        raise CliError(f"{source}: a TTIR's tiles are fixed; --config is for a Python program")
    if not Path(source).is_file():
        raise CliError(f"{source}: no such file")
    python = find_triton_python(triton_python)
    version = installed_triton_version(python)
    request = {"source": str(Path(source).resolve()), "kernel": kernel, "target": target}
    autotuned = None
    if source.endswith(".py") and not configs:  # an autotuned kernel brings its own configs
        autotuned = _run_worker(python, {**request, "list_configs": True}, timeout_s)["configs"]
        configs.update({k: sorted({c["constexprs"][k] for c in autotuned if k in c["constexprs"]})
                        for c in autotuned for k in c["constexprs"]})
    plan = grid(configs, knobs, full_grid, autotuned)
    request["configs"] = plan
    if signature:
        request["signature"] = signature
    started = time.perf_counter()
    answer = _run_worker(python, request, timeout_s)
    screen = Screen(target, [], knobs, configs, pipeline, answer["triton_version"])
    screen.worker_seconds = time.perf_counter() - started
    screen.compile_seconds = sum(r.get("seconds", 0.0) for r in answer["results"])
    own = time.perf_counter()
    passes = parse_pipeline(pipeline) if pipeline else None
    pending = []
    for config, result in zip(plan, answer["results"]):
        row = {"config": " ".join(f"{k}={v}" for k, v in {**config["constexprs"], **config["options"]}.items()),
               **config["constexprs"], **config["options"], **figures(result, target),
               "compile_seconds": round(result.get("seconds", 0.0), 2)}
        screen.rows.append(row)
        if pipeline and row["ok"]:
            ttgir = result["asm"].get("ttgir", "")
            with _triton_python_env(python):  # what propagate-mma (profit=auto, compiled) compiles with
                res = rewrite_module(ttgir, f"{kernel or Path(source).stem}[{row['config']}]", passes, version)
            if res.error:
                row["pipeline_effect"] = f"irkit: {res.error}"
            elif not res.changed:
                row["pipeline_effect"] = "unchanged"
            else:
                row["pipeline_remarks"] = " | ".join(res.remarks)
                pending.append((row, config, ttgir, res.text))
    screen.irkit_seconds = time.perf_counter() - own
    again = _pipeline_columns(pending, target, python, timeout_s)
    screen.worker_seconds += again
    screen.compile_seconds += again  # the re-compiles' wall time: their parse into figures is irkit's, but small
    return screen


COLUMNS = ("config", "ok", "waves_per_simd", "ctas_per_sm", "limited_by", "registers", "spill_store_bytes", "vgprs",
           "agprs", "sgprs", "spilled_vgprs", "scratch_bytes", "shared", "fits", "compiler_occupancy", "pipeline_effect")


def render_text(screen: Screen) -> str:
    from irkit.check.render import table

    cols = [c for c in COLUMNS if any(r.get(c) is not None for r in screen.rows)]
    rows = [["-" if r.get(c) is None else str(r.get(c) if r.get("ok") or c in ("config", "ok") else "")
             for c in cols] for r in screen.rows]
    out = [f"irkit-sweep --screen: {len(screen.rows)} config(s), target {screen.target}, real Triton {screen.triton}\n",
           table(cols, rows)]
    for r in screen.rows:
        if not r["ok"]:
            out.append(f"  {r['config']}: {r['error'].splitlines()[0] if r['error'] else 'failed'}\n")
    out.append(f"time: real compiles {screen.compile_seconds:.1f} s (compile subprocesses {screen.worker_seconds:.1f} s "
               f"wall), irkit's own {screen.irkit_seconds:.1f} s\n")
    return "".join(out)
