"""Run an irkit pipeline on one TTGIR module and predict what it costs, before and after.

`rewrite_module` is what both modes call: static mode in-process, run mode through `serve` (the checked
program's Python asks irkit's Python over a pipe, one JSON line each way, so that Python needs no xDSL):

    python -m irkit.check.rewrite --serve -p PIPELINE
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field


@dataclass
class RewriteResult:
    changed: bool
    text: str | None  # the module after the pipeline, printed with locations (None on error)
    remarks: list[str] = field(default_factory=list)
    error: str | None = None
    predicted_before: dict | None = None
    predicted_after: dict | None = None
    timed_as: str | None = None  # the text of a module timed on the GPU that equals the result, when one does

    def to_dict(self) -> dict:
        return asdict(self)


def _options(**over) -> argparse.Namespace:
    base = {"allow_unregistered_dialect": False, "no_verify": False, "mlir_print_ir_after_all": False,
            "mlir_print_debuginfo": True, "mlir_print_op_generic": False, "pipeline": None, "pass_flags": None}
    base.update(over)
    return argparse.Namespace(**base)


def parse_pipeline(spec: str):
    """An xDSL PassPipeline from `-p` text; CliError on an unknown pass or bad options."""
    from irkit.cli.opt import build_pipeline

    return build_pipeline(_options(pipeline=spec))


def predict(text: str, name: str, version: str | None) -> dict:
    """irkit's own figures for one module: predicted shared memory, its limit, conversions."""
    from irkit.cli.opt import InputText
    from irkit.cli.report import parse_verified
    from irkit.report.model import build_module_report

    report = build_module_report(parse_verified(InputText(text, name)), name=name, version=version)
    return {"shared": report.shared_bytes, "limit": report.limit, "fits": report.fits,
            "convert_layout": len(report.converts), "target": report.target, "rules": report.version,
            "num_warps": report.num_warps}


def launch_trips(text: str, name: str, scalars: Mapping[str, int] | None) -> int | None:
    """How many times a launch whose scalar arguments are `scalars` (by name) runs the module's main loop
    (`trip_count.main_loop_trips`); None where that is not known, or the module does not parse."""
    from irkit.analysis.trip_count import main_loop_trips
    from irkit.cli.opt import InputText
    from irkit.cli.report import ReportFailed, parse_verified

    if not scalars:
        return None
    try:
        return main_loop_trips(parse_verified(InputText(text, name)).module, scalars)
    except ReportFailed:  # rewrite_module reports what is wrong with the module
        return None


def rewrite_module(text: str, name: str, pipeline, version: str | None = None, line_offset: int = 0,
                   main_loop_trips: int | None = None, launch_ctas: int | None = None,
                   device_sms: int | None = None) -> RewriteResult:
    """Apply `pipeline` (a PassPipeline or its text) to the module `text`, made by Triton `version` (where known: the
    passes whose rules follow the release take it, as from irkit-opt's --triton-version); the launch's facts, where it is known
    (`main_loop_trips` from `launch_trips`; its CTAs and its device's SMs), go to the passes that weigh them.
    `changed` compares irkit's own print of the module before and after, so formatting never counts as a change."""
    from irkit.cli.opt import InputText, process_chunk, with_launch_facts, with_run_defaults

    if isinstance(pipeline, str):
        pipeline = parse_pipeline(pipeline)
    # the Triton that made the module, for the passes whose rules follow the release, as irkit-opt gives it
    pipeline = with_run_defaults(pipeline, version, remarks=False)
    pipeline = with_launch_facts(pipeline, main_loop_trips=main_loop_trips, launch_ctas=launch_ctas,
                                 device_sms=device_sms)
    chunk = InputText(text, name, line_offset)
    before = process_chunk(_options(), chunk, None, sys.stderr)
    errors = [d.render().splitlines()[0] for d in before.diagnostics if d.severity == "error"]
    if before.output is None or errors:
        return RewriteResult(False, None, error=errors[0] if errors else "irkit could not read the module")
    after = process_chunk(_options(), chunk, pipeline, sys.stderr)
    remarks = [d.render().splitlines()[0] for d in after.diagnostics if d.severity in ("remark", "warning")]
    errors = [d.render().splitlines()[0] for d in after.diagnostics if d.severity == "error"]
    if after.output is None or errors:
        return RewriteResult(False, None, remarks, error=errors[0] if errors else "the pipeline failed")
    result = RewriteResult(after.output != before.output, after.output, remarks)
    try:
        result.predicted_before = predict(text, name, version)
        result.predicted_after = predict(after.output, name, version)
    except Exception as e:  # noqa: BLE001 - a prediction that fails is reported, the check goes on
        result.remarks.append(f"irkit's prediction failed: {type(e).__name__}: {e}")
    return result


class PipeTimer:
    """`irkit.analysis.kernel_timer.KernelTimer` for run mode: the checked program's Python holds the launch and
    the GPU, so each candidate goes there as text, one JSON line ({"time": candidate, "against": reference,
    the latter only when the reference is not the module as the program compiled it}), and the answer comes
    back on the same pipe ({"ratio", "low", "high", "pairs", "bit_identical"} or {"error"}), before the
    module's own answer."""

    def __init__(self, stdin, stdout, launched: str, name: str):
        self.stdin, self.stdout = stdin, stdout
        self.launched, self.name = launched, name
        self._launched_module = None
        self.sent: list[tuple[object, str]] = []  # (candidate module, the text timed)

    def _is_launched(self, module) -> bool:
        from irkit.cli.opt import InputText
        from irkit.cli.report import parse_verified

        if self._launched_module is None:
            self._launched_module = parse_verified(InputText(self.launched, self.name)).module
        return module.is_structurally_equivalent(self._launched_module)

    def time(self, reference, candidate):
        from irkit.analysis.kernel_timer import MeasuredRatio
        from irkit.check.compiled_stats import printed_for_triton

        request = {"time": printed_for_triton(candidate)}
        if not self._is_launched(reference):
            request["against"] = printed_for_triton(reference)
        self.stdout.write(json.dumps(request) + "\n")
        self.stdout.flush()
        line = self.stdin.readline()
        if not line:
            return "the checked program stopped answering"
        answer = json.loads(line)
        if answer.get("error"):
            return str(answer["error"])
        self.sent.append((candidate.clone(), request["time"]))
        return MeasuredRatio(float(answer["ratio"]), float(answer["low"]), float(answer["high"]),
                             int(answer["pairs"]), bool(answer["bit_identical"]))

    def text_of(self, result_text: str | None) -> str | None:
        """The text timed of the candidate the result is, so that the program reuses that compile."""
        from irkit.cli.opt import InputText
        from irkit.cli.report import ReportFailed, parse_verified

        if not self.sent or result_text is None:
            return None
        try:
            result = parse_verified(InputText(result_text, self.name)).module
        except ReportFailed:
            return None
        return next((text for module, text in self.sent if result.is_structurally_equivalent(module)), None)


def serve(pipeline_spec: str, stdin=None, stdout=None) -> int:
    """Answer {"ttgir", "name", "version", "scalars", "ctas", "sms", "can_time"} lines with RewriteResult lines
    until stdin closes ("ctas": the launch's CTAs, "sms": its device's SMs; each optional).  With "can_time", the
    asking program times candidates for the passes that ask (`PipeTimer`: a line each way per candidate, before
    the answer).  A module asked again at a launch with the same facts gets the same answer, not a second run."""
    from irkit.analysis import kernel_timer

    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    pipeline = parse_pipeline(pipeline_spec)
    answered: dict[tuple, str] = {}
    while line := stdin.readline():
        if not line.strip():
            continue
        request = json.loads(line)
        name = request.get("name", "kernel.ttgir")
        try:
            trips = launch_trips(request["ttgir"], name, request.get("scalars"))
            ctas, sms = request.get("ctas"), request.get("sms")
            key = (request["ttgir"], name, request.get("version"), trips, ctas, sms)
            if key not in answered:
                timer = PipeTimer(stdin, stdout, request["ttgir"], name) if request.get("can_time") else None
                with kernel_timer.providing(timer):
                    result = rewrite_module(request["ttgir"], name, pipeline, request.get("version"),
                                            main_loop_trips=trips, launch_ctas=ctas, device_sms=sms)
                if timer is not None:
                    result.timed_as = timer.text_of(result.text)
                answered[key] = json.dumps(result.to_dict())
            answer = answered[key]
        except Exception as e:  # noqa: BLE001 - the program under check must go on
            answer = json.dumps(RewriteResult(False, None, error=f"irkit failed: {type(e).__name__}: {e}").to_dict())
        stdout.write(answer + "\n")
        stdout.flush()
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m irkit.check.rewrite")
    ap.add_argument("--serve", action="store_true", required=True)
    ap.add_argument("-p", "--pipeline", required=True)
    args = ap.parse_args(argv)
    return serve(args.pipeline)


if __name__ == "__main__":
    sys.exit(main())
