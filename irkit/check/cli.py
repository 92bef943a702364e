"""`irkit-check`: does a pass idea hold on the real compiler and on the GPU?

    irkit-check -p propagate-mma kernel.ttgir --json out.json          # static: real compiler, no GPU
    irkit-check -p propagate-mma -- python prog.py ARGS                # run: every kernel prog.py launches

Exit status: 0 checked, 1 bad input (one line on stderr), 2 internal error, 3 a finding: the real compiler
rejects a rewritten module, or a rewritten kernel's outputs differ from the original's.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from irkit.cli.entry import ArgumentParser, CliError, run_command
from irkit.outputs import write_output

FINDING = 3


def build_arg_parser() -> argparse.ArgumentParser:
    ap = ArgumentParser(prog="irkit-check", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-p", "--pass-pipeline", dest="pipeline", required=True, help="irkit pass pipeline, e.g. propagate-mma")
    ap.add_argument("inputs", nargs="*", help="static mode: .ttgir files, Triton cache dirs, MLIR_ENABLE_DUMP logs")
    ap.add_argument("--json", dest="json_out", metavar="FILE", help="write the report as JSON")
    ap.add_argument("--html", dest="html_out", metavar="FILE", help="write the report as HTML (run mode: with a chart)")
    ap.add_argument("--triton-python", metavar="PYTHON",
                    help="static mode: the Python whose Triton compiles (default: $IRKIT_TRITON_PYTHON, else this one)")
    ap.add_argument("--module-version", metavar="X.Y",
                    help="static mode: the Triton version that produced the inputs (default: the cache entry's JSON, "
                         "else the dialect spelling)")
    ap.add_argument("--target", help="static mode: compile for this target (default: the module's ttg.target)")
    ap.add_argument("--dump-section", metavar="N|PASS[#k]", help="static mode, dump-log input: the section to read")
    ap.add_argument("--dump-after", action="store_true", help="with --dump-section=PASS: the IR after that pass")
    run = ap.add_argument_group("run mode")
    run.add_argument("--max-seconds", type=float, default=20.0, help="timing budget per kernel (default 20)")
    run.add_argument("--min-pairs", type=int, default=20, help="fewest interleaved before/after pairs (default 20)")
    run.add_argument("--max-pairs", type=int, default=2000, help="most pairs (default 2000)")
    run.add_argument("--resolution", type=float, default=0.005,
                     help="stop when the 95%% interval of the after/before time ratio is this narrow on each side "
                          "(default 0.005: a 1%% difference is resolved)")
    run.add_argument("--decide-seconds", type=float, default=1.0,
                     help="timing budget per candidate for a pass that settles its decision on the GPU "
                          "(propagate-mma's default, profit=auto, here; default 1)")
    run.add_argument("--kernel", action="append", default=[], metavar="NAME",
                     help="only check kernels whose name contains NAME (repeatable)")
    run.add_argument("--each-size", action="store_true",
                     help="check each compiled kernel again at every new problem size (its runtime scalar "
                          "arguments), not only at its first launch: the same code's gain or loss changes with the "
                          "size")
    return ap


def _split_command(argv: list[str]) -> tuple[list[str], list[str]]:
    if "--" in argv:
        i = argv.index("--")
        return argv[:i], argv[i + 1:]
    return argv, []


def _write(path: str | None, text: str) -> None:
    if path:
        write_output(path, text)


def _gpu_host_inputs(paths: list[str]) -> list[tuple[str, str]]:
    """MLIR GPU host files (gpu.launch_func in a gpu.container_module): checked by call counts, not Triton."""
    from irkit.analysis.launch_cost import is_gpu_host_text

    texts = []
    for path in paths:
        try:
            texts.append((path, Path(path).read_text()))
        except (OSError, UnicodeDecodeError):
            return []
    return texts if texts and all(is_gpu_host_text(t) for _, t in texts) else []


def run(argv: list[str]) -> int:
    own, command = _split_command(argv)
    args = build_arg_parser().parse_args(own)
    from irkit.check import render

    if command:
        if args.inputs:
            raise CliError("give either input files (static mode) or '-- COMMAND' (run mode), not both")
        from irkit.check.runmode import run_program

        report = run_program(command, args)
        sys.stdout.write(render.run_text(report))
        _write(args.json_out, render.to_json(report))
        _write(args.html_out, render.run_html(report))
        return FINDING if report.get("findings") else 0
    if not args.inputs:
        raise CliError("nothing to check: give .ttgir inputs (static mode) or '-- python prog.py' (run mode)")
    gpu_host = _gpu_host_inputs(args.inputs)
    if gpu_host:
        from irkit.check.mlir_gpu import check_gpu_host, render_html, render_text

        report = check_gpu_host(gpu_host, args.pipeline)
        sys.stdout.write(render_text(report))
        _write(args.json_out, render.to_json(report))
        _write(args.html_out, render_html(report))
        return FINDING if any(m.get("error") for m in report["modules"]) else 0
    from irkit.check.static_mode import check_static, read_module_input

    inputs = []
    for path in args.inputs:
        if not Path(path).exists():
            raise CliError(f"could not open input file '{path}': No such file or directory")
        inputs.append(read_module_input(path, args.dump_section, args.dump_after))
    report = check_static(inputs, args.pipeline, args.triton_python, args.module_version, args.target)
    sys.stdout.write(render.static_text(report))
    _write(args.json_out, render.to_json(report))
    _write(args.html_out, render.static_html(report))
    return FINDING if any(m.get("error") for m in report["modules"]) else 0


def main(argv: list[str] | None = None) -> None:
    from irkit.cli.opt import InputError

    sys.exit(run_command("irkit-check", run, sys.argv[1:] if argv is None else argv, (InputError,)))


if __name__ == "__main__":
    main()
