"""Run mode, irkit's side: start the user's command with the launch hook, collect what it recorded.

The command runs unmodified; a temporary folder first on its PYTHONPATH holds a `sitecustomize.py` that
installs `irkit.check.hook` in every Python process of the command that imports Triton, and a link to
this irkit package (the program's Python needs torch and triton, not xDSL: the rewriting is done by this
Python, which the hook starts as a server).
"""

from __future__ import annotations

import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

from irkit.check import hook
from irkit.cli.entry import CliError

PACKAGE = Path(__file__).resolve().parents[1]  # the irkit package folder


def gpu_present() -> bool:
    """An NVIDIA or AMD GPU this machine's drivers expose (IRKIT_CHECK_ASSUME_GPU=0/1 overrides)."""
    forced = os.environ.get("IRKIT_CHECK_ASSUME_GPU")
    if forced is not None:
        return forced == "1"
    return bool(glob.glob("/dev/nvidia[0-9]*")) or os.path.exists("/dev/kfd")


def _forward(fd: int, sink_fd: int, tail: bytearray) -> None:
    """Copy the program's stderr to ours as it comes (partial lines too), keeping its last 4 KB."""
    while True:
        chunk = os.read(fd, 65536)
        if not chunk:
            break
        os.write(sink_fd, chunk)
        tail.extend(chunk)
        del tail[:-4096]
    os.close(fd)


def run_program(command: list[str], args) -> dict:
    from irkit.check.rewrite import parse_pipeline

    parse_pipeline(args.pipeline)  # a bad pipeline is a one-line error before anything runs
    if not gpu_present():
        raise CliError("run mode needs an NVIDIA or AMD GPU and this machine has none (no /dev/nvidia*, /dev/kfd); "
                       "static mode needs none: irkit-check -p PIPELINE KERNEL.ttgir")
    if shutil.which(command[0]) is None and not Path(command[0]).exists():
        raise CliError(f"cannot run '{command[0]}': no such program")
    hook_dir = tempfile.mkdtemp(prefix="irkit-check-")
    try:
        shutil.copy(Path(__file__).with_name("sitecustomize_template.py"), Path(hook_dir) / "sitecustomize.py")
        os.symlink(PACKAGE, Path(hook_dir) / "irkit")
        out = Path(hook_dir) / "records.jsonl"
        options = {"min_pairs": args.min_pairs, "max_pairs": args.max_pairs, "resolution": args.resolution,
                   "max_seconds": args.max_seconds, "kernel": args.kernel, "each_size": args.each_size,
                   "decide_seconds": args.decide_seconds}
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join([hook_dir] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p])
        env.update({hook.ENV_PIPELINE: args.pipeline, hook.ENV_OUT: str(out), hook.ENV_IRKIT_PYTHON: sys.executable,
                    hook.ENV_OPTIONS: json.dumps(options), hook.ENV_HOOK_DIR: hook_dir})
        tail = bytearray()
        progress_fd = None
        if sys.stderr.isatty():  # the hook draws its progress line on our terminal, not into the pipe
            progress_fd = os.dup(sys.stderr.fileno())
            env[hook.ENV_PROGRESS_FD] = str(progress_fd)
        read_fd, write_fd = os.pipe()
        try:
            proc = subprocess.Popen(command, env=env, stderr=write_fd,
                                    pass_fds=(progress_fd,) if progress_fd is not None else ())
        except OSError as e:
            raise CliError(f"cannot run '{command[0]}': {e.strerror}") from None
        finally:
            os.close(write_fd)
            if progress_fd is not None:
                os.close(progress_fd)
        sys.stderr.flush()
        forward = threading.Thread(target=_forward, args=(read_fd, sys.stderr.fileno(), tail), daemon=True)
        forward.start()
        rc = proc.wait()
        forward.join(5)
        records = [json.loads(line) for line in out.read_text().splitlines() if line.strip()] if out.exists() else []
    finally:
        shutil.rmtree(hook_dir, ignore_errors=True)
    unchecked = [r["unchecked_size"] for r in records if "unchecked_size" in r]
    records = [r for r in records if "unchecked_size" not in r]
    fatal = [r for r in records if r.get("status") == "error" and "name" not in r]
    if fatal:
        raise CliError(fatal[0]["error"])
    if rc != 0:
        lines = tail.decode(errors="replace").replace("\r", "\n").splitlines()
        last = next((line for line in reversed(lines) if line.strip()), "")
        raise CliError(f"the program exited with status {rc}" + (f": {last.strip()[:300]}" if last else ""))
    if not records:
        raise CliError("the program launched no Triton kernel (nothing to check)")
    return build_report(command, args.pipeline, records, unchecked)


def build_report(command: list[str], pipeline: str, records: list[dict], unchecked: list[dict] | None = None) -> dict:
    """The run-mode report: one row per kernel, and per family the best config before and after; `unchecked`: the
    launches of checked kernels at problems they were not checked at (without --each-size)."""
    kernels = []
    for r in records:
        timing = r.get("timing") or {}
        flops = (r.get("launch_metadata") or {}).get("flops")
        if flops and timing.get("before_median_ms"):
            timing["before_tflops"] = flops / timing["before_median_ms"] * 1e-9
            timing["after_tflops"] = flops / timing["after_median_ms"] * 1e-9
        kernels.append(r)
        alone = r.get("timing_alone")
        if flops and alone:
            alone["tflops"] = flops / alone["median_ms"] * 1e-9
    families: dict[str, list[dict]] = {}
    for r in kernels:  # timed kernels only: --max-pairs 0 checks outputs and times nothing
        if (r.get("status") == "checked" and r.get("timing")) or r.get("timing_alone"):
            families.setdefault(json.dumps(r.get("family")), []).append(r)
    best = []
    for key, rows in families.items():
        if not any(r.get("status") == "checked" for r in rows):
            continue  # the pipeline changed nothing in this family
        b = min(rows, key=lambda r: _median(r, "before"))
        a = min(rows, key=lambda r: _median(r, "after"))
        best.append({"family": json.loads(key), "best_before": _brief(b, "before"), "best_after": _brief(a, "after"),
                     "ratio": _median(a, "after") / _median(b, "before"),
                     "configs": len(rows), "unchanged_configs": sum(r.get("status") == "unchanged" for r in rows)})
    findings = [r["name"] for r in kernels
                if r.get("status") == "rejected" or (r.get("status") == "checked" and not r.get("bit_identical"))]
    versions = sorted({r["triton"] for r in kernels if r.get("triton")})
    return {"mode": "run", "command": command, "pipeline": pipeline, "triton": versions,
            "device": next((r.get("device") for r in kernels if r.get("device")), None),
            "kernels": kernels, "best": best, "findings": findings, "unchecked_sizes": unchecked or []}


def _median(r: dict, side: str) -> float:
    """A kernel's median time before or after the pipeline; an unchanged one's is the same both ways."""
    if r.get("status") == "checked":
        return r["timing"][f"{side}_median_ms"]
    return r["timing_alone"]["median_ms"]


def _brief(r: dict, side: str) -> dict:
    if r.get("status") == "checked":
        t = r["timing"]
        return {"config": r.get("config"), "median_ms": t[f"{side}_median_ms"], "tflops": t.get(f"{side}_tflops"),
                "changed": True}
    t = r["timing_alone"]
    return {"config": r.get("config"), "median_ms": t["median_ms"], "tflops": t.get("tflops"), "changed": False}
