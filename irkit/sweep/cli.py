"""`irkit-sweep`: run a pass pipeline over every kernel you have, one results row per kernel.

    irkit-sweep -p propagate-mma ~/.triton/cache/ dumps/ -o results.parquet
    irkit-sweep -p propagate-mma kernels/ -o results.jsonl --workers 8
    irkit-sweep -p propagate-mma kernels/ -o results.jsonl --resume        # after a kill: only what is missing
    irkit-sweep -p propagate-mma kernels/ -o results.parquet --ray auto    # on the Ray cluster you are in
    irkit-sweep --screen gemm.py --kernel matmul --target hip:gfx942 --config BLOCK_M=64,128 \
        --knob num_warps=4,8 --knob waves_per_eu=0,2 -o screen.jsonl --html screen.html   # the knob screen
"""

from __future__ import annotations

import argparse
import json
import sys

from irkit.cli.entry import ArgumentParser, CliError, run_command
from irkit.sweep.kernel import DEFAULT_TIMEOUT_S


def build_arg_parser() -> argparse.ArgumentParser:
    ap = ArgumentParser(
        prog="irkit-sweep",
        description="Run a pass pipeline over many Triton kernels (.ttir/.ttgir files, Triton cache and "
        "TRITON_KERNEL_DUMP folders, MLIR_ENABLE_DUMP logs; folders walked recursively) and write one row per "
        "kernel: identity, convert_layout counts, predicted shared memory and verdict before/after, the "
        "passes' remarks. Results go to Parquet, CSV or JSONL as they come; a summary by Triton version and "
        "target is printed at the end.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=__doc__.split("\n\n", 1)[1],
    )
    ap.add_argument("inputs", nargs="+", metavar="INPUT", help="kernel file, folder (walked recursively) or dump log")
    ap.add_argument("-p", "--pass-pipeline", dest="pipeline", default=None,
                    help="the pass pipeline, irkit-opt syntax (e.g. 'propagate-mma'); none: report the kernels as they are")
    ap.add_argument("-o", dest="output", required=True, metavar="RESULTS",
                    help="results file: .parquet (needs pyarrow), .csv or .jsonl")
    ap.add_argument("--workers", type=int, default=None, metavar="N",
                    help="worker processes (default: this machine's cores; with --ray and no address: the local Ray's CPUs)")
    ap.add_argument("--ray", nargs="?", const="local", default=None, metavar="ADDRESS",
                    help="run on Ray: 'auto' or an address joins a cluster, no value starts a local one (needs irkit[ray])")
    ap.add_argument("--all-stages", action="store_true",
                    help="a row for every IR file, also the TTIR of a kernel whose TTGIR lies beside it (default: one row per kernel)")
    ap.add_argument("--resume", action="store_true", help="keep the rows already in RESULTS and run only the kernels missing")
    ap.add_argument("--compile", action="store_true",
                    help="also compile each TTGIR kernel before and after with the real Triton (irkit-check's static "
                    "mode): compile_* columns")
    ap.add_argument("--triton-python", action="append", default=[], metavar="PYTHON",
                    help="with --compile: a Python that has Triton (repeatable: each kernel goes to the first whose "
                    "Triton version matches it; default: $IRKIT_TRITON_PYTHON, else this one)")
    ap.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT_S, metavar="SECONDS",
                    help=f"give up on a kernel after SECONDS of wall time: an error row of kind timeout, and the "
                    f"sweep goes on (default {DEFAULT_TIMEOUT_S:g}; 0: no limit)")
    ap.add_argument("--max-tasks-per-worker", type=int, default=None, metavar="N",
                    help="recycle a worker process after N kernels (default 500), so memory stays flat")
    ap.add_argument("--no-progress", action="store_true", help="no progress bar (there is none when stderr is not a terminal)")
    ap.add_argument("--against", default=None, metavar="REFERENCE",
                    help="compare each kernel's result with a C++ pass's: its name in the reference Triton "
                    "(tritongpu-coalesce) or a command run as 'COMMAND FILE' (docs/porting.md): reference_* columns")
    ap.add_argument("--reference-python", action="append", default=[], metavar="PYTHON",
                    help="with --against NAME: a Python whose Triton runs it (repeatable: each kernel goes to the one of its "
                    "Triton version, else the first; default: $IRKIT_TRITON_PYTHON, $IRKIT_TRITON_PYTHONS, else this one)")
    ap.add_argument("--against-normalise", default="", metavar="PASSES",
                    help="with --against NAME: C++ passes of that Triton run on both results before comparing "
                    "(e.g. 'canonicalize,cse': compare modulo dead code, constant placement and duplicates)")
    ap.add_argument("--diffs", default=None, metavar="DIR",
                    help="with --against: where the diff of each kernel that differs goes (default: RESULTS.diffs/)")
    ap.add_argument("--summary-json", default=None, metavar="FILE", help="also write the summary as JSON")
    screen = ap.add_argument_group("knob screen (--screen): one kernel over configs and compiler knobs, compiled by "
                                   "the real Triton; one row per config (docs/amd.md)")
    screen.add_argument("--screen", action="store_true",
                        help="INPUT is one Python program (with --kernel) or saved TTIR to compile under every config")
    screen.add_argument("--kernel", default=None, help="the @triton.jit (or autotuned) function of the program")
    screen.add_argument("--target", default=None, help="the target to compile for: hip:gfx942, hip:gfx950, cuda:90, ...")
    screen.add_argument("--config", action="append", default=[], metavar="NAME=V1,V2",
                        help="a constexpr and its values (repeatable; every combination is a tile)")
    screen.add_argument("--knob", action="append", default=[], metavar="NAME=V1,V2",
                        help="num_warps, num_stages, waves_per_eu, matrix_instr_nonkdim, kpack and their values "
                        "(repeatable; varied one at a time around the first values unless --full-grid)")
    screen.add_argument("--full-grid", action="store_true", help="every combination of the knobs' values")
    screen.add_argument("--signature", default=None, metavar="JSON",
                        help='the kernel\'s argument types, e.g. \'{"a_ptr": "*fp16", "M": "i32"}\' (default: the '
                        "program's SIGNATURE)")
    screen.add_argument("--html", default=None, metavar="FILE", help="the screen's summary: one chart per knob")
    return ap


def _sweep(args, max_tasks: int, tritons):
    from irkit.sweep.run import run_sweep

    return run_sweep(
        args.inputs,
        args.output,
        args.pipeline,
        workers=args.workers,
        use_ray=args.ray is not None,
        ray_address=args.ray,
        resume=args.resume,
        max_tasks=max_tasks,
        compile_with=tritons,
        all_stages=args.all_stages,
        progress=not args.no_progress,
        timeout_s=args.timeout or None,
    )


def run(argv: list[str]) -> int:
    from irkit.sweep import engines
    from irkit.sweep.summary import render, summarise

    args = build_arg_parser().parse_args(argv)
    if args.screen:
        return _run_screen(args, argv)
    if args.workers is not None and args.workers < 1:
        raise CliError("--workers must be at least 1")
    if args.timeout < 0:
        raise CliError("--timeout must be 0 (no limit) or more seconds")
    if args.triton_python and not args.compile:
        raise CliError("--triton-python is for --compile")
    tritons = ()
    if args.compile:
        from irkit.sweep.compiled import probe

        tritons = probe(args.triton_python)
    max_tasks = args.max_tasks_per_worker or engines.DEFAULT_MAX_TASKS
    try:
        result = _sweep(args, max_tasks, tritons)
    except KeyboardInterrupt:
        sys.stderr.write(f"irkit-sweep: interrupted; the kernels done are in {args.output}: "
                         "the same command with --resume runs the rest\n")
        return 130
    if args.against:
        from irkit.reference import sweep as against
        from irkit.sweep.results import write_rows

        against.compare_rows(result.rows, args.pipeline, args.against, args.reference_python,
                             args.diffs or args.output + ".diffs", args.against_normalise)
        write_rows(args.output, result.rows)
    groups = summarise(result.rows)
    kept = f", {result.kept:,} kept from the file" if result.kept else ""
    sys.stdout.write(f"irkit-sweep: {len(result.rows):,} kernel(s) in {args.output} ({result.ran:,} run{kept})\n")
    sys.stdout.write(render(groups))
    if args.against:
        sys.stdout.write(against.render(result.rows, args.against))
    if args.summary_json:
        from irkit.outputs import write_output

        summary = {"command": " ".join(["irkit-sweep", *argv]), "results": args.output, "kernels": len(result.rows),
                   "groups": [g.to_dict() for g in groups]}
        if args.against:
            summary["against"] = {"reference": args.against, **against.summary(result.rows)}
        write_output(args.summary_json, json.dumps(summary, indent=1) + "\n")
    return 0


def _run_screen(args, argv: list[str]) -> int:
    from irkit.cli.opt import write_output
    from irkit.sweep.screen import parse_axis, render_text, run_screen
    from irkit.sweep.screen_html import screen_html

    if len(args.inputs) != 1:
        raise CliError("--screen takes one INPUT: a Python program or a .ttir file")
    if not args.target:
        raise CliError("--screen needs --target (hip:gfx942, hip:gfx950, cuda:90, ...)")
    try:
        signature = json.loads(args.signature) if args.signature else None
    except json.JSONDecodeError as e:
        raise CliError(f"--signature: not JSON: {e}") from None
    configs = dict(parse_axis(c) for c in args.config)
    knobs = dict(parse_axis(k) for k in args.knob)
    screen = run_screen(args.inputs[0], args.kernel, args.target, configs, knobs, args.pipeline, args.full_grid,
                        (args.triton_python or [None])[0], signature, args.timeout or None)
    if args.output.endswith(".csv"):
        import csv
        import io

        cols = list(dict.fromkeys(k for r in screen.rows for k in r))
        buf = io.StringIO()
        w = csv.DictWriter(buf, cols)
        w.writeheader()
        w.writerows(screen.rows)
        write_output(args.output, buf.getvalue())
    else:
        write_output(args.output, "".join(json.dumps(r) + "\n" for r in screen.rows))
    if args.html:
        write_output(args.html, screen_html(screen))
    if args.summary_json:
        summary = {"command": " ".join(["irkit-sweep", *argv]), "results": args.output,
                   **{k: v for k, v in screen.to_dict().items() if k != "rows"}}
        write_output(args.summary_json, json.dumps(summary, indent=1) + "\n")
    sys.stdout.write(render_text(screen))
    return 0


def main(argv: list[str] | None = None) -> None:
    sys.exit(run_command("irkit-sweep", run, sys.argv[1:] if argv is None else argv, debug_option=False))


if __name__ == "__main__":
    main()
