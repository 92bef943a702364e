"""Run mode, inside the checked program: intercept Triton launches and check each new kernel once.

Installed by the `sitecustomize.py` that `irkit-check -- COMMAND` puts first on PYTHONPATH, so the program
runs unmodified.  Needs Triton >= 3.4 (`CompiledKernel.run` a property) and torch.

For the first launch of each compiled kernel (by hash; with --each-size, of each compiled kernel at each problem
size, its runtime scalar arguments):
  1. its TTGIR (`kernel.asm["ttgir"]`) goes to irkit's Python (`python -m irkit.check.rewrite --serve`,
     kept running), which applies the pipeline and says whether the module changed;
  2. unchanged kernels are recorded and launched as usual;
  3. changed ones are recompiled from the same source, options and target with the rewritten TTGIR swapped
     in (Triton's override directory, a private cache), so the launcher, specialisation and arguments are
     exactly those of the original;
  4. `capture.check_launch` runs both on copies of the captured inputs, compares, times;
  5. the program's own launch then runs the original kernel on the program's tensors.
One JSON line per kernel goes to $IRKIT_CHECK_OUT.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
import traceback

ENV_PIPELINE = "IRKIT_CHECK_PIPELINE"
ENV_OUT = "IRKIT_CHECK_OUT"
ENV_IRKIT_PYTHON = "IRKIT_CHECK_IRKIT_PYTHON"
ENV_OPTIONS = "IRKIT_CHECK_OPTIONS"
ENV_HOOK_DIR = "IRKIT_CHECK_HOOK_DIR"
ENV_PROGRESS_FD = "IRKIT_CHECK_PROGRESS_FD"  # irkit-check's own terminal, when it has one

_checker = None


class Rewriter:
    """A running `python -m irkit.check.rewrite --serve` in irkit's Python."""

    def __init__(self, python: str, pipeline: str):
        env = dict(os.environ)
        for key in (ENV_PIPELINE, ENV_OUT, ENV_OPTIONS, ENV_PROGRESS_FD):
            env.pop(key, None)
        hook_dir = env.get(ENV_HOOK_DIR)
        if hook_dir:  # irkit's own Python must not load this hook
            parts = [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p and p != hook_dir]
            env["PYTHONPATH"] = os.pathsep.join(parts)
        self.proc = subprocess.Popen([python, "-m", "irkit.check.rewrite", "--serve", "-p", pipeline],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     text=True, env=env)

    def rewrite(self, ttgir: str, name: str, version: str, scalars: dict, ctas: int | None = None,
                sms: int | None = None, timer=None) -> dict:
        """irkit's answer for one module, launched with the scalar arguments `scalars` (by name) as `ctas` CTAs on a
        device of `sms` SMs.  `timer`, where given, answers the pass's requests to time a candidate on the GPU
        (`rewrite.PipeTimer`'s lines: {"time", "against"} -> {"ratio", "low", "high", "pairs", "bit_identical"}
        or {"error"})."""
        request = {"ttgir": ttgir, "name": name, "version": version, "scalars": scalars, "ctas": ctas, "sms": sms,
                   "can_time": timer is not None}
        self._send(request)
        while True:
            line = self.proc.stdout.readline()
            if not line:
                err = self.proc.stderr.read().strip().splitlines()
                return {"changed": False, "text": None, "error": "irkit stopped: " + (err[-1] if err else "no answer")}
            message = json.loads(line)
            if "time" not in message:
                return message
            try:
                answer = timer(message["time"], message.get("against"))
            except Exception as e:  # noqa: BLE001 - a candidate that cannot be timed is the pass's to weigh
                answer = {"error": " ".join(f"{type(e).__name__}: {e}".split())[:300]}
            self._send(answer)

    def _send(self, message: dict) -> None:
        self.proc.stdin.write(json.dumps(message) + "\n")
        self.proc.stdin.flush()


class Progress:
    """One status line, redrawn in place, on irkit-check's terminal (only when it has one)."""

    def __init__(self):
        fd = os.environ.get(ENV_PROGRESS_FD)
        self.out = None
        if fd:
            try:
                self.out = os.fdopen(int(fd), "w", closefd=False)
            except (OSError, ValueError):
                self.out = None
        self.enabled = self.out is not None
        self.count = 0

    def show(self, text: str) -> None:
        if self.enabled:
            self.out.write("\r\x1b[2K" + text[:150])
            self.out.flush()

    def timing(self, name: str, pairs: int, limit: int) -> None:
        width = 20
        done = min(width, int(width * pairs / max(1, limit)))
        self.show(f"irkit-check [{self.count}] {name}: timing [{'#' * done}{'.' * (width - done)}] {pairs} pairs")

    def done(self, record: dict, seconds: float) -> None:
        """Without a terminal (a log, a pipe), one line per kernel on stderr, so a long run shows how far it is."""
        if self.enabled:
            return
        from irkit.check.render import config_text, kernel_name, size_text

        print(f"irkit-check [{self.count}] {kernel_name(record)} {size_text(record)} {config_text(record.get('config'))}: "
              f"{record.get('status', '?')} in {seconds:.1f} s", file=sys.stderr, flush=True)

    def clear(self) -> None:
        if self.enabled:
            self.out.write("\r\x1b[2K")
            self.out.flush()


def _declared_constexprs(kernel) -> set[int]:
    """Positions of the parameters the kernel declares `tl.constexpr` (not the ints Triton specialised to 1)."""
    fn = getattr(kernel.src, "fn", None)
    return set(getattr(fn, "constexprs", None) or [])


def _config(kernel) -> dict:
    src = kernel.src
    out = {}
    names = getattr(getattr(src, "fn", None), "arg_names", None)
    declared = _declared_constexprs(kernel)
    for key, value in sorted(getattr(src, "constants", {}).items(), key=lambda kv: str(kv[0])):
        if names and isinstance(key, tuple) and len(key) == 1 and key[0] in declared:
            out[names[key[0]]] = value if isinstance(value, (int, float, bool, str)) else str(value)
    md = kernel.metadata
    out["num_warps"] = md.num_warps
    out["num_stages"] = getattr(md, "num_stages", None)
    return out


def _launch_info(kernel, grid, args) -> dict:
    """FLOPs/bytes and a display name from the kernel's `launch_metadata` (Triton's profiler convention)."""
    fn = getattr(kernel.src, "fn", None)
    hook = getattr(fn, "launch_metadata", None)
    if hook is None:
        return {}
    try:
        arg_dict = dict(zip(fn.arg_names, args))
        info = hook(grid, kernel.metadata, arg_dict) or {}
        return {k: v for k, v in info.items() if isinstance(v, (int, float, str))}
    except Exception:  # noqa: BLE001 - a user's metadata hook must not break the check
        return {}


def _problem(kernel, args) -> list:
    """The runtime scalar arguments (sizes, strides): with the launch name they make a kernel family."""
    declared = _declared_constexprs(kernel)
    return [a for i, a in enumerate(args) if i not in declared and isinstance(a, (int, float)) and not isinstance(a, bool)]


def _launch_args(launch: tuple) -> list:
    """The kernel's own arguments of a launch as the patched `CompiledKernel.run` makes it: after the grid (3),
    stream, function, packed metadata, launch metadata and the enter and exit hooks."""
    return list(launch[9:])


def _sizes(kernel, args) -> dict:
    """The runtime integer arguments by name (M, N, K, strides...): the table's size column."""
    fn = getattr(kernel.src, "fn", None)
    names = getattr(fn, "arg_names", None) or []
    declared = _declared_constexprs(kernel)
    return {names[i]: a for i, a in enumerate(args)
            if i < len(names) and i not in declared and isinstance(a, int) and not isinstance(a, bool)}


def _static(kernel) -> dict:
    import triton

    from irkit.check import binary_metrics, compile_worker

    asm = {k: v for k, v in kernel.asm.items() if isinstance(v, str)}
    log = None
    if "ptx" in asm:
        log = compile_worker.ptxas_log(asm["ptx"], compile_worker.ptxas_path(triton, asm["ptx"]),
                                       getattr(kernel.metadata, "enable_fp_fusion", True))
    out = binary_metrics.binary_summary(asm, log, kernel.metadata.name)
    out["shared"] = kernel.metadata.shared
    out["n_regs"] = getattr(kernel, "n_regs", None)
    out["n_spills"] = getattr(kernel, "n_spills", None)
    return out


class Checker:
    def __init__(self, pipeline: str, out_path: str, irkit_python: str, options: dict):
        from irkit.check.capture import TimingOptions

        self.pipeline = pipeline
        self.out_path = out_path
        self.irkit_python = irkit_python
        self.kernel_filter = options.pop("kernel", [])
        # --each-size: the same compiled code's gain or loss changes with the problem size (round 20)
        self.each_size = options.pop("each_size", False)
        # a pass that settles its decision by timing (propagate-mma's default here) gets this budget per candidate
        decide_seconds = options.pop("decide_seconds", 1.0)
        self.timing_options = TimingOptions(**options)
        self.decision_timing = TimingOptions(min_pairs=20, max_seconds=decide_seconds)
        self.seen: set = set()  # kernel hashes, or (hash, problem) pairs with each_size
        self.checked_problem: dict[str, tuple] = {}  # kernel hash -> the problem it was first checked at
        self.unchecked: set = set()  # (hash, problem) pairs launched but not checked (without each_size)
        self.answers: dict[tuple, dict] = {}  # (kernel hash, sizes) -> irkit's answer for its TTGIR
        self.recompiled: dict[tuple, object] = {}  # (kernel hash, rewritten TTGIR) -> the kernel, or the error
        self.compile_args: dict[str, tuple] = {}
        self.busy = threading.local()
        self.rewriter = None
        self.progress = Progress()
        self.workdir = tempfile.mkdtemp(prefix="irkit-check-kernels-", dir=os.environ.get(ENV_HOOK_DIR))

    # -- Triton patches ----------------------------------------------------------------------------------

    def install(self) -> None:
        import triton
        import triton.compiler as triton_compiler
        from triton.compiler import compiler

        prop = compiler.CompiledKernel.__dict__.get("run")
        if not isinstance(prop, property):
            self.record({"status": "error", "error": f"irkit-check run mode needs Triton >= 3.4; this is "
                         f"{triton.__version__}"})
            return
        original_compile = compiler.compile
        checker = self

        def compile(src, target=None, options=None, _env_vars=None):
            kernel = original_compile(src, target=target, options=options, _env_vars=_env_vars)
            if hasattr(kernel, "hash"):
                checker.compile_args.setdefault(kernel.hash, (src, target, dict(options or {})))
            return kernel

        for module in (compiler, triton_compiler, triton):
            if getattr(module, "compile", None) is original_compile:
                module.compile = compile
        self.original_compile = original_compile
        fget = prop.fget

        def run(kernel):
            return checker.launcher_for(kernel, fget(kernel))

        compiler.CompiledKernel.run = property(run)

    # -- one kernel ---------------------------------------------------------------------------------------

    def launcher_for(self, kernel, launcher):
        """What a launch of `kernel` runs: the kernel, or first a check of it (at its first launch; with
        --each-size, at its first launch with each problem)."""
        # a rewritten kernel runs only inside a check (busy), where nothing is checked; it is told by that alone,
        # since it carries the original's hash (the same source and options, another TTGIR)
        if getattr(self.busy, "on", False):
            return launcher
        if not self.each_size:
            if kernel.hash in self.seen:
                return lambda *a: self.launch_unchecked(kernel, launcher, *a)
            return lambda *a: self.first_launch(kernel.hash, kernel, launcher, *a)
        return lambda *a: self.launch_at_size(kernel, launcher, *a)

    def launch_unchecked(self, kernel, launcher, *launch):
        """A checked kernel launched again: note, once, each problem it was not checked at (the report says how
        many: the pass's decision can depend on the problem, through the main loop's trip count)."""
        args = _launch_args(launch)
        problem = tuple(_problem(kernel, args))
        if problem != self.checked_problem.get(kernel.hash, problem) and (kernel.hash, problem) not in self.unchecked:
            self.unchecked.add((kernel.hash, problem))
            self.record({"unchecked_size": {"name": kernel.metadata.name, "hash": kernel.hash,
                                            "sizes": _sizes(kernel, args)}})
        return launcher(*launch)

    def launch_at_size(self, kernel, launcher, *launch):
        """--each-size: check the kernel at the first launch with each new problem (runtime scalar arguments)."""
        key = (kernel.hash, tuple(_problem(kernel, _launch_args(launch))))
        if key in self.seen:
            return launcher(*launch)
        return self.first_launch(key, kernel, launcher, *launch)

    def first_launch(self, key, kernel, launcher, gx, gy, gz, stream, function, packed, launch_md, enter, exit_,
                     *args):
        self.seen.add(key)
        self.busy.on = True
        started = time.monotonic()
        try:
            record = self.check(kernel, launcher, (gx, gy, gz), stream, list(args))
        except Exception as e:  # noqa: BLE001 - the program must go on; the report says what broke
            record = {"name": kernel.metadata.name, "status": "error", "error": f"{type(e).__name__}: {e}",
                      "traceback": traceback.format_exc()[-2000:]}
        finally:
            self.busy.on = False
            self.progress.clear()
        if record is not None:  # None: left out by --kernel, and then its other sizes are not noted either
            self.record(record)
            self.progress.done(record, time.monotonic() - started)
            self.checked_problem.setdefault(kernel.hash, tuple(_problem(kernel, list(args))))
        return launcher(gx, gy, gz, stream, function, packed, launch_md, enter, exit_, *args)

    def check(self, kernel, launcher, grid, stream, args) -> dict | None:
        import torch
        import triton

        name = kernel.metadata.name
        if self.kernel_filter and not any(f in name for f in self.kernel_filter):
            return None
        self.progress.count += 1
        self.progress.show(f"irkit-check [{self.progress.count}] {name}: rewriting")
        info = _launch_info(kernel, grid, args)
        record = {"name": name, "hash": kernel.hash, "config": _config(kernel), "grid": list(grid),
                  "target": str(kernel.metadata.target.backend) + ":" + str(kernel.metadata.target.arch),
                  "triton": triton.__version__, "launch_metadata": info, "device": torch.cuda.get_device_name(),
                  "family": [info.get("name", name), _problem(kernel, args)], "sizes": _sizes(kernel, args)}
        if torch.cuda.is_current_stream_capturing():
            record.update(status="skipped", error="launched while a CUDA graph is captured")
            return record
        ttgir = kernel.asm.get("ttgir")
        if ttgir is None:
            record.update(status="skipped", error="the compiled kernel keeps no TTGIR (TRITON_STORE_BINARY_ONLY?)")
            return record
        ctas = grid[0] * grid[1] * grid[2]
        sms = torch.cuda.get_device_properties(torch.cuda.current_device()).multi_processor_count

        def launch_of(compiled):
            run = compiled.run  # its launcher, looked up once: timed launches pay no lookup
            return lambda a: run(*grid, stream, compiled.function, compiled.packed_metadata, None, None, None, *a)

        def before(a):
            launcher(*grid, stream, kernel.function, kernel.packed_metadata, None, None, None, *a)

        from irkit.check.capture import check_launch, time_alone
        from irkit.check.torch_backend import TorchBackend

        def time_candidate(candidate_text: str, reference_text: str | None) -> dict:
            """A pass's question (profit=measured, or auto here): the candidate against the kernel as compiled
            (or against `reference_text`), on copies of this launch's inputs, for the decision's time budget."""
            compiled = self.recompile_once(kernel, name, candidate_text)
            if isinstance(compiled, str):
                return {"error": f"the compiler rejected it: {compiled[:240]}"}
            reference = before
            if reference_text is not None:
                compiled_reference = self.recompile_once(kernel, name, reference_text)
                if isinstance(compiled_reference, str):
                    return {"error": f"the compiler rejected the reference: {compiled_reference[:240]}"}
                reference = launch_of(compiled_reference)
            self.progress.show(f"irkit-check [{self.progress.count}] {name}: timing a candidate for the pass")
            result = check_launch(TorchBackend(), reference, launch_of(compiled), args, self.decision_timing)
            summary = result.timing.summary() if result.timing else {"pairs": 0}
            if not summary["pairs"]:
                return {"error": "no timing pairs"}
            return {"ratio": summary["ratio"], "low": summary["ratio_lo"], "high": summary["ratio_hi"],
                    "pairs": summary["pairs"], "bit_identical": result.comparison.identical}

        answer = self.rewrite_once(kernel, name, ttgir, record["sizes"], ctas, sms, time_candidate)
        record["remarks"] = answer.get("remarks", [])
        record["predicted"] = {"before": answer.get("predicted_before"), "after": answer.get("predicted_after")}
        if answer.get("error"):
            record.update(status="irkit-error", error=answer["error"])
            return record

        if not answer["changed"]:  # not compared; timed alone, so the family's optimum covers every config
            record["status"] = "unchanged"
            if self.timing_options.max_pairs > 0:
                self.progress.show(f"irkit-check [{self.progress.count}] {name}: unchanged, timing it alone")
                record["timing_alone"] = time_alone(TorchBackend(), before, args, self.timing_options)
            return record
        # a candidate the pass had timed is that compile (its text was printed apart from the answer's)
        rewritten = self.recompile_once(kernel, name, answer.get("timed_as") or answer["text"])
        if isinstance(rewritten, str):
            record.update(status="rejected", error=rewritten)
            record["static"] = {"before": _static(kernel)}
            return record
        after = launch_of(rewritten)

        limit = self.timing_options.max_pairs
        result = check_launch(TorchBackend(), before, after, args, self.timing_options,
                              progress=lambda t: self.progress.timing(name, t.pairs, limit))
        record.update(result.to_dict())
        record["status"] = "checked"
        record["static"] = {"before": _static(kernel), "after": _static(rewritten)}
        return record

    def rewrite_once(self, kernel, name: str, ttgir: str, sizes: dict, ctas: int | None = None,
                     sms: int | None = None, timer=None) -> dict:
        """irkit's answer for a compiled kernel's TTGIR at a launch with the scalar arguments `sizes` of `ctas` CTAs
        on `sms` SMs, asked once per kernel and launch (--each-size checks a kernel at each; the answer can depend
        on them: how many times the main loop runs, how many waves the CTAs take)."""
        key = (kernel.hash, tuple(sorted(sizes.items())), ctas, sms)
        if key not in self.answers:
            import triton

            if self.rewriter is None:
                self.rewriter = Rewriter(self.irkit_python, self.pipeline)
            self.answers[key] = self.rewriter.rewrite(ttgir, f"{name}.ttgir", triton.__version__, sizes, ctas, sms,
                                                      timer)
        return self.answers[key]

    def recompile_once(self, kernel, name: str, ttgir: str):
        """The rewritten kernel, loaded, or the compiler's error in one line: compiled once per kernel and
        rewritten TTGIR."""
        key = (kernel.hash, ttgir)
        if key not in self.recompiled:
            self.progress.show(f"irkit-check [{self.progress.count}] {name}: compiling the rewritten TTGIR")
            try:
                rewritten = self.recompile(kernel, ttgir)
                rewritten.run  # noqa: B018 - loading it is where OutOfResources shows
            except Exception as e:  # noqa: BLE001 - a rewritten kernel the compiler rejects is a finding
                rewritten = " ".join(f"{type(e).__name__}: {e}".split())[:600]
            self.recompiled[key] = rewritten
        return self.recompiled[key]

    def recompile(self, kernel, ttgir: str):
        """The same source, target and options as `kernel`, with the TTGIR stage's output replaced."""
        from triton import knobs
        from triton.compiler.compiler import make_backend

        src, target, options = self.compile_args.get(kernel.hash, (kernel.src, kernel.metadata.target, None))
        if options is None:  # compiled before the hook: rebuild the options from the metadata
            backend = make_backend(kernel.metadata.target)
            options = {k: v for k, v in kernel.metadata._asdict().items()
                       if k in backend.parse_options({}).__dict__}
        from triton.runtime import cache

        work = tempfile.mkdtemp(dir=self.workdir)
        key = src.hash()
        key = cache._base32(key) if hasattr(cache, "_base32") else key  # the folder name Triton looks up
        override_dir = os.path.join(work, "override", key)
        os.makedirs(override_dir)
        with open(os.path.join(override_dir, f"{src.name[:150]}.ttgir"), "w") as f:
            f.write(ttgir)
        with knobs.compilation.scope(), knobs.cache.scope(), contextlib.redirect_stdout(io.StringIO()):
            knobs.compilation.override = True
            knobs.compilation.always_compile = True
            knobs.compilation.dump_ir = False
            knobs.cache.override_dir = os.path.join(work, "override")
            knobs.cache.dir = os.path.join(work, "cache")
            return self.original_compile(src, target=target, options=options)

    def record(self, record: dict) -> None:
        with open(self.out_path, "a") as f:
            f.write(json.dumps(record, default=str) + "\n")


def install() -> None:
    """Called from sitecustomize: hook Triton when this process imports it (and only then)."""
    pipeline = os.environ.get(ENV_PIPELINE)
    if not pipeline:
        return
    try:
        import triton  # noqa: F401
    except Exception:  # noqa: BLE001 - not a Triton program (a helper process): leave it alone
        return
    global _checker
    options = json.loads(os.environ.get(ENV_OPTIONS, "{}"))
    _checker = Checker(pipeline, os.environ[ENV_OUT], os.environ[ENV_IRKIT_PYTHON], options)
    _checker.install()
