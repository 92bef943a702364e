"""`irkit-ref`: the C++ pass a prototype mirrors, run like irkit-opt runs the prototype.

    irkit-ref --triton-python /venvs/t3.9/bin/python kernel.ttgir --coalesce -o out.ttgir
    irkit-ref --triton-python 3.1=/venvs/t3.1/bin/python --triton-python /venvs/t3.9/bin/python \\
              tests.mlir --split-input-file -p 'coalesce{version=3.1}'
    irkit-ref --triton-opt ~/triton/build/bin/triton-opt kernel.ttgir --tritongpu-coalesce
    irkit-ref --triton-python /venvs/xpu/bin/python k.ttgir --tritonintelgpu-remove-layout-conversions

Passes are named as irkit-opt names them (`--coalesce`, `-p 'rewrite-tensor-pointer'`): each runs as the C++
pass its `upstream_names` declare, in the Triton its `version=` option names; a Triton pass name
(`--tritongpu-coalesce`) runs as itself.  An option the C++ pass has no counterpart for is an error.
The output is printed by irkit in the input's spelling, with the input's value names where the C++ pass kept
the op (docs/porting.md), so a lit file written for irkit-opt checks it unchanged: `lit -D IRKIT_OPT=...`.
Without --triton-python/--triton-opt: $IRKIT_TRITON_PYTHON, then $IRKIT_TRITON_PYTHONS.
"""

from __future__ import annotations

import argparse
import re
import sys
from types import SimpleNamespace

from irkit.cli.entry import CliError, run_command


class _ArgumentParser(argparse.ArgumentParser):
    def error(self, message: str):
        raise CliError(f"{message} (see --help)")


def build_arg_parser() -> argparse.ArgumentParser:
    ap = _ArgumentParser(prog="irkit-ref", description=__doc__.split("\n\n")[0],
                         formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__.split("\n\n", 1)[1])
    ap.add_argument("input", nargs="?", default="-")
    ap.add_argument("-o", dest="output", default="-")
    ap.add_argument("-p", "--pass-pipeline", dest="pipeline", default=None)
    ap.add_argument("--split-input-file", action="store_true")
    ap.add_argument("--verify-diagnostics", nargs="?", const="all", default=None,
                    help="accepted for irkit-opt's RUN lines: any error fails (the C++ pass's remarks are not compared)")
    ap.add_argument("--mlir-print-debuginfo", action="store_true")
    ap.add_argument("--triton-python", action="append", default=[], metavar="[VERSION=]PYTHON",
                    help="a Python with Triton whose C++ passes to run (repeatable: a pass's version= option picks one)")
    ap.add_argument("--triton-opt", default=None, metavar="PATH", help="a triton-opt binary you built")
    ap.add_argument("--list-passes", action="store_true", help="the C++ passes the reference Triton has, by name")
    return ap


def _split_flags(argv: list[str]) -> tuple[list[str], list[str]]:
    """irkit-opt's pass flags (`--coalesce`, `--coalesce=version=3.1`) apart from irkit-ref's own options."""
    own = {a.option_strings[-1].lstrip("-") for a in build_arg_parser()._actions if a.option_strings}
    own |= {s.lstrip("-") for a in build_arg_parser()._actions for s in a.option_strings}
    rest, flags = [], []
    for arg in argv:
        name, _, opts = arg[2:].partition("=")
        if arg.startswith("--") and name and name not in own:
            opts = opts.strip().strip("'\"").strip("{}")
            flags.append(f"{name}{{{opts}}}" if opts else name)
        else:
            rest.append(arg)
    return rest, flags


def references(args):
    from irkit.reference.runner import Reference, python_references, pythons_from_environment, triton_version

    if args.triton_opt:
        return [Reference(triton_opt=args.triton_opt)]
    pythons = [p.partition("=")[2] if "=" in p else p for p in args.triton_python] or pythons_from_environment()
    if not pythons:
        return [Reference(python=sys.executable, version=triton_version(sys.executable))]
    return python_references(pythons)


def run(argv: list[str]) -> int:
    from irkit.cli.opt import read_input, split_chunks, write_output
    from irkit.cli.report import ReportFailed, parse
    from irkit.frontend.spelling import Spelling
    from irkit.reference.passes import upstream_pipeline
    from irkit.reference.runner import choose

    rest, flags = _split_flags(argv)
    args = build_arg_parser().parse_args(rest)
    spec = ",".join(filter(None, [args.pipeline, *flags]))
    passes = upstream_pipeline(spec) if spec else []  # before any Triton starts: a bad option is cheap to say
    refs = references(args)
    if args.list_passes:
        import subprocess

        from irkit.reference.runner import DRIVER

        for ref in refs:
            if ref.python:
                sys.stdout.write(f"triton {ref.version} ({ref.python}):\n")
                sys.stdout.write(subprocess.run([ref.python, str(DRIVER), "--list"], capture_output=True, text=True).stdout)
        return 0
    if not spec:
        raise CliError("no pass given (e.g. --coalesce, -p 'rewrite-tensor-pointer', --tritongpu-coalesce)")
    versions = {p.version for p in passes if p.version}
    if len(versions) > 1:
        raise CliError(f"the pipeline asks for several Tritons' rules ({', '.join(sorted(versions))})")
    chunks = split_chunks(read_input(SimpleNamespace(input=args.input, list_sections=False, dump_section=None,
                                                     dump_after=False)), args.split_input_file)
    parsed = []
    for chunk in chunks:
        try:
            parsed.append(parse(chunk))
        except ReportFailed as e:
            sys.stderr.write(f"{e}\n")
            return 1
    outputs, failed = compare_free_run(chunks, parsed, refs, [p.name for p in passes], versions, choose,
                                       Spelling, args.mlir_print_debuginfo, args.verify_diagnostics is not None, spec)
    if outputs and (not failed or args.output == "-"):
        write_output(args.output, "// -----\n".join(outputs) if args.split_input_file else outputs[0])
    return 1 if failed else 0


def prototype_output(chunk, spec: str, debuginfo: bool) -> str | None:
    """irkit-opt's output for a chunk a lit file declares prototype-only (REFERENCE-SKIP): FileCheck then
    checks the rest of the file; the chunk itself is reported as not run against the C++ pass."""
    from irkit.cli import opt as driver
    from irkit.cli.report import PIPELINE_DRIVER_ARGS, build_pipeline

    args = SimpleNamespace(**{**vars(PIPELINE_DRIVER_ARGS), "mlir_print_debuginfo": debuginfo})
    return driver.process_chunk(args, chunk, build_pipeline(spec), None).output


def compare_free_run(chunks, parsed, refs, names, versions, choose, Spelling, debuginfo, verify=False, spec=""):
    """Each chunk through its reference; the printed results, and whether any failed.  With `verify`
    (--verify-diagnostics), a chunk whose `expected-error` says the prototype rejects it must be rejected
    by the C++ pass too (its words, often an assertion, are shown, not compared); any other chunk must pass."""
    from irkit.reference.bridge import spelling_for
    from irkit.reference.roundtrip import through_reference
    from irkit.reference.runner import MissingPass

    candidates = {i: choose(refs, next(iter(versions), None), p.spelling is Spelling.LEGACY) for i, p in enumerate(parsed)}
    results: dict[int, tuple[str | None, str | None]] = {}
    skipped: dict[int, str] = {}
    while len(results) < len(parsed):
        groups: dict = {}
        for i in range(len(parsed)):
            if i not in results:
                groups.setdefault(candidates[i][0], []).append(i)
        for ref, idx in groups.items():
            for i in list(idx):
                why = skip_reason(chunks[i].text, ref.version)
                if why is not None:  # tried when this reference has the pass (a missing one moves all on)
                    skipped[i] = f"not run against the C++ pass ({why}); irkit-opt's output stands in"
                    results[i] = (None, None)
                    idx.remove(i)
        for ref, idx in groups.items():
            if not idx:
                continue
            spelling = spelling_for(ref.version) if ref.version else None
            unreadable: set[int] = set()
            try:
                done = through_reference(ref, names, [parsed[i] for i in idx], spelling, debuginfo, unreadable=unreadable)
            except MissingPass:
                if any(len(candidates[i]) == 1 for i in idx):
                    raise
                for i in idx:
                    candidates[i] = candidates[i][1:]
                continue
            for k, (i, res) in enumerate(zip(idx, done)):
                if k in unreadable and len(candidates[i]) > 1:  # e.g. Intel's layouts: try the next Triton
                    candidates[i] = candidates[i][1:]
                else:
                    results[i] = res
    outputs, failed = [], False
    for i, chunk in enumerate(chunks):
        text, error = results[i]
        if i in skipped:
            sys.stderr.write(f"{chunk.name}:{chunk.line_offset + 1}:1: note: {skipped[i]}\n")
            text = prototype_output(chunk, spec, debuginfo)
            if text is not None:
                outputs.append(text)
            continue
        expects_error = verify and "expected-error" in chunk.text
        where = f"{chunk.name}:{chunk.line_offset + 1}:1"
        if error is not None and expects_error:
            sys.stderr.write(f"{where}: note: rejected by the C++ pass too: {error.splitlines()[0]}\n")
        elif error is not None:
            failed = True
            sys.stderr.write(f"{where}: error: {error}\n")
        elif expects_error:
            failed = True
            sys.stderr.write(f"{where}: error: the prototype rejects this module (expected-error); the C++ pass "
                             "accepted it\n")
        else:
            outputs.append(text)
    return outputs, failed


_SKIP = re.compile(r"//\s*REFERENCE-SKIP(?:\(triton\s*(<|>=)\s*(\d+)\.(\d+)\))?:\s*(.*)")


def skip_reason(chunk_text: str, version: str) -> str | None:
    """Why this chunk of a lit file is not for the reference Triton `version`, if it says so:
    `// REFERENCE-SKIP: why` (any Triton) or `// REFERENCE-SKIP(triton<3.4): why` (also `>=`)."""
    have = tuple(int(x) for x in re.findall(r"\d+", version)[:2])
    for m in _SKIP.finditer(chunk_text):
        op, major, minor, why = m.groups()
        if op is None or (have < (int(major), int(minor))) == (op == "<"):
            return why.strip()
    return None


def main(argv: list[str] | None = None) -> None:
    sys.exit(run_command("irkit-ref", run, sys.argv[1:] if argv is None else argv))


if __name__ == "__main__":
    main()
