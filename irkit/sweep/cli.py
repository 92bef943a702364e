"""`irkit-sweep`: run a pass pipeline over every kernel you have, one results row per kernel.

    irkit-sweep -p propagate-mma ~/.triton/cache/ dumps/ -o results.parquet
    irkit-sweep -p propagate-mma kernels/ -o results.jsonl --workers 8
    irkit-sweep -p propagate-mma kernels/ -o results.jsonl --resume        # after a kill: only what is missing
    irkit-sweep -p propagate-mma kernels/ -o results.parquet --ray auto    # on the Ray cluster you are in
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
    ap.add_argument("--summary-json", default=None, metavar="FILE", help="also write the summary as JSON")
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
    groups = summarise(result.rows)
    kept = f", {result.kept:,} kept from the file" if result.kept else ""
    sys.stdout.write(f"irkit-sweep: {len(result.rows):,} kernel(s) in {args.output} ({result.ran:,} run{kept})\n")
    sys.stdout.write(render(groups))
    if args.summary_json:
        from irkit.outputs import write_output

        summary = {"command": " ".join(["irkit-sweep", *argv]), "results": args.output, "kernels": len(result.rows),
                   "groups": [g.to_dict() for g in groups]}
        write_output(args.summary_json, json.dumps(summary, indent=1) + "\n")
    return 0


def main(argv: list[str] | None = None) -> None:
    sys.exit(run_command("irkit-sweep", run, sys.argv[1:] if argv is None else argv))


if __name__ == "__main__":
    main()
