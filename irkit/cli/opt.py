"""`irkit-opt`: mlir-opt/triton-opt for real Triton IR, with passes written in Python.

    irkit-opt kernel.ttgir --propagate-mma -o out.ttgir
    irkit-opt log.txt.gz --dump-section=TritonGPUCoalesce --dump-after --coalesce
    irkit-opt ~/.triton/cache/<hash>/ -p 'rewrite-tensor-pointer{mode=intel-2400},coalesce'
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from irkit.cli.entry import CliError, run_command

# irkit.diagnostics imports xDSL: imported where used, so `--help` stays fast


class InputError(CliError):
    """A user error at a position of the input, printed as the diagnostic it holds."""


@dataclass
class InputText:
    text: str
    name: str  # what diagnostics call the file
    line_offset: int = 0  # lines of the original file before `text`


class _PassFlag(argparse.Action):
    """Keeps `--pass-name[=options]` flags in command-line order."""

    def __call__(self, parser, namespace, values, option_string=None):
        flags = getattr(namespace, "pass_flags", None) or []
        flags.append((self.dest, values or ""))
        namespace.pass_flags = flags


class _ArgumentParser(argparse.ArgumentParser):
    """argparse exits with status 2 and its usage text on a bad option; irkit-opt
    reports every user error alike: `irkit-opt: error: ...`, exit 1."""

    def error(self, message: str):
        raise CliError(f"{message} (see --help)")


def build_arg_parser(with_passes: bool = True) -> argparse.ArgumentParser:
    ap = _ArgumentParser(
        prog="irkit-opt",
        description="Parse, transform and print Triton TTIR/TTGIR (both dialect spellings), "
        "MLIR_ENABLE_DUMP logs and Triton cache directories.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    ap.add_argument("input", nargs="?", default="-", help="input file, '-' for stdin, a dump log (.gz ok) or a Triton cache dir")
    ap.add_argument("-o", dest="output", default="-", help="output file (written atomically); '-' for stdout")
    ap.add_argument("-p", "--pass-pipeline", dest="pipeline", default=None,
                    help="pass pipeline, e.g. 'rewrite-tensor-pointer{mode=upstream},coalesce'")
    ap.add_argument("--split-input-file", action="store_true", help="split the input on '// -----' and process each part")
    ap.add_argument("--mlir-print-op-generic", action="store_true", help="print every op in generic form")
    ap.add_argument("--mlir-print-debuginfo", action="store_true", help="print locations (loc(#locN) with the alias block)")
    ap.add_argument("--mlir-print-ir-after-all", action="store_true", help="print the IR after every pass to stderr")
    ap.add_argument("--mlir-print-remarks", action="store_true", help="print the remarks passes emit (why a rewrite was skipped)")
    ap.add_argument("--verify-diagnostics", action="store_true",
                    help="check emitted diagnostics against '// expected-error@+N {{...}}' comments")
    ap.add_argument("--allow-unregistered-dialect", action="store_true", help="accept unknown ops written in generic form")
    ap.add_argument("--no-verify", action="store_true", help="skip the IR verifier")
    ap.add_argument("--list-passes", action="store_true", help="list the registered passes and their options")
    ap.add_argument("--dump-section", default=None, metavar="N|PASS[#k]",
                    help="for a MLIR_ENABLE_DUMP log: the section to read (index or pass name, k-th run)")
    ap.add_argument("--dump-after", action="store_true",
                    help="with --dump-section=PASS: read the IR after that pass ran (the next section)")
    ap.add_argument("--list-sections", action="store_true", help="for a dump log: list its sections and exit")
    if with_passes:
        group = ap.add_argument_group("passes (in command-line order; options as --pass='opt=v opt2=w')")
        # read from the pass modules' source: importing them (xDSL and all) would
        # make every `irkit-opt --help` cost half a second
        from irkit.cli.pass_catalog import pass_catalog

        for name, info in pass_catalog().items():
            group.add_argument(f"--{name}", dest=name, nargs="?", const="", action=_PassFlag,
                               metavar="OPTIONS", help=info.summary + info.options_help)
    return ap


def list_passes() -> str:
    from irkit.cli.pass_catalog import pass_catalog

    lines = ["Available passes:"]
    for name, info in pass_catalog().items():
        lines.append(f"  --{name:<28} {info.summary}{info.options_help}")
    return "\n".join(lines) + "\n"


# -- input -----------------------------------------------------------------------------------------


def read_input(args) -> InputText:
    from irkit.frontend import dumplog

    if args.input == "-":
        return InputText(sys.stdin.read(), "<stdin>")
    path = Path(args.input)
    if not path.exists():
        raise CliError(f"could not open input file '{args.input}': No such file or directory")
    try:
        path = dumplog.resolve_cache_input(path)
    except dumplog.DumpSelectError as e:
        raise CliError(str(e)) from None
    try:
        text = dumplog.read_text(path)
    except (OSError, EOFError) as e:
        raise CliError(f"could not read input file '{path}': {e}") from None
    if dumplog.is_dump_log(text[: 1 << 16]):
        sections = dumplog.split_sections(text)
        if not sections:
            raise CliError(f"'{path}' looks like an MLIR_ENABLE_DUMP log but has no IR sections")
        if args.list_sections:
            for index, cls, arg in dumplog.section_summary(sections):
                sys.stdout.write(f"{index:4d}  {cls} ({arg})\n")
            raise SystemExit(0)
        spec = args.dump_section
        if spec is None:
            if args.dump_after:
                raise CliError("--dump-after needs --dump-section=PASS")
            spec = "-1"  # the last section
        try:
            section = dumplog.select_section(sections, spec, after=args.dump_after)
        except dumplog.DumpSelectError as e:
            raise CliError(str(e)) from None
        return InputText(section.text, str(path), section.body_first_line - 1)
    if args.dump_section is not None or args.dump_after:
        raise CliError(f"--dump-section needs an MLIR_ENABLE_DUMP log, and '{path}' is not one")
    nul = text.find("\x00", 0, 4096)
    if nul >= 0:
        from irkit.diagnostics import Diagnostic, position

        line, col, _ = position(text, nul)
        message = f"unexpected NUL byte: '{path}' is a binary file, not MLIR text"
        raise InputError(Diagnostic("error", message, str(path), line, col).render())
    return InputText(text, str(path))


# -- pipeline ----------------------------------------------------------------------------------------


def build_pipeline(args):
    from xdsl.passes import PassPipeline
    from xdsl.utils.arg_spec import parse_pipeline
    from xdsl.utils.exceptions import ArgSpecParseError

    from irkit.passes import all_passes

    specs: list[str] = []
    if args.pipeline:
        specs.append(args.pipeline)
    for name, options in getattr(args, "pass_flags", None) or []:
        opts = options.strip().strip("{}")
        specs.append(f"{name}{{{opts}}}" if opts else name)
    if not specs:
        return None
    spec = ",".join(specs)
    available = {n: (lambda c=c: c) for n, c in all_passes().items()}
    try:
        parsed = tuple(parse_pipeline(spec))
    except (Exception, ArgSpecParseError) as e:  # xDSL's ArgSpecParseError is a BaseException
        raise CliError(f"invalid pass pipeline '{spec}': {_one_line(e)}") from None
    unknown = [p.name for p in parsed if p.name not in available]
    if unknown:
        raise CliError(f"unknown pass '{unknown[0]}' (see --list-passes)")
    try:
        return PassPipeline.parse_spec(available, spec)
    except (Exception, ArgSpecParseError) as e:
        raise CliError(f"invalid options in pass pipeline '{spec}': {_one_line(e)}") from None


def _one_line(e: BaseException) -> str:
    """xDSL's pipeline errors span lines (the spec, a caret, the message): keep the message."""
    lines = [line.strip() for line in str(e).splitlines() if line.strip()]
    if len(lines) > 1 and lines[0].startswith("Error parsing pass pipeline"):
        where = next((line for line in lines if line.startswith("pass-pipeline:")), "")
        column = where.rsplit(":", 1)[-1] if where else ""
        return f"{lines[-1]}" + (f" (at column {column})" if column.isdigit() else "")
    return " ".join(lines)


# -- one chunk -----------------------------------------------------------------------------------------


@dataclass
class ChunkResult:
    output: str | None
    diagnostics: list[Diagnostic]


def process_chunk(args, chunk: InputText, pipeline, out_err) -> ChunkResult:
    from xdsl.context import Context

    from irkit import diagnostics as diag
    from irkit.diagnostics import Diagnostic, PassFailure, position
    from irkit.frontend.construct import gc_paused
    from irkit.frontend.lexer import ParseError
    from irkit.frontend.parser import Parser
    from irkit.frontend.printer import print_module
    from irkit.verifier import verify_module

    diags: list[Diagnostic] = []
    try:
        parsed = Parser(chunk.text, chunk.name, allow_unregistered=args.allow_unregistered_dialect).parse()
    except ParseError as e:
        line, col, src = position(chunk.text, e.pos, chunk.line_offset)
        diags.append(Diagnostic("error", e.message, chunk.name, line, col, src))
        return ChunkResult(None, diags)
    except RecursionError:
        diags.append(Diagnostic("error", "input nests too deeply to parse", chunk.name, 1, 1))
        return ChunkResult(None, diags)
    parsed.line_offset = chunk.line_offset

    def op_diag(severity: str, op, message: str) -> Diagnostic:
        pos = parsed.op_positions.get(op) if op is not None else None
        if pos is None:
            src = diag.source_location(op.location) if op is not None else None
            if src is not None:
                return Diagnostic(severity, message, src[0], src[1], src[2], op=op)
            return Diagnostic(severity, message, chunk.name, op=op)
        line, col, text = position(chunk.text, pos, chunk.line_offset)
        return Diagnostic(severity, message, chunk.name, line, col, text, op=op)

    if not args.no_verify:
        errors = verify_module(parsed.module)
        if errors:
            diags.extend(op_diag("error", op, msg) for op, msg in errors)
            return ChunkResult(None, diags)
    if pipeline is not None:
        ctx = Context(allow_unregistered=True)
        for p in pipeline.passes:
            diag.take()
            try:
                with gc_paused():  # as parsing: the collector re-scanning the module is superlinear
                    p.apply(ctx, parsed.module)
            except PassFailure as e:
                diags.append(op_diag("error", e.op, e.message))
                return ChunkResult(None, diags)
            except Exception as e:  # a bug in a pass: report it, never a traceback
                if os.environ.get("IRKIT_TRACEBACK"):
                    raise
                diags.append(Diagnostic("error", f"pass '{p.name}' failed: {type(e).__name__}: {e}", chunk.name))
                return ChunkResult(None, diags)
            for d in diag.take():
                diags.append(op_diag(d.severity, d.op, d.message))
            if not args.no_verify:
                errors = verify_module(parsed.module)
                if errors:
                    diags.extend(op_diag("error", op, f"after pass '{p.name}': {msg}") for op, msg in errors)
                    return ChunkResult(None, diags)
            if args.mlir_print_ir_after_all:
                out_err.write(f"// -----// IR Dump After {type(p).__name__} ({p.name}) //----- //\n")
                out_err.write(print_module(parsed, debuginfo=args.mlir_print_debuginfo, generic=args.mlir_print_op_generic))
    text = print_module(parsed, debuginfo=args.mlir_print_debuginfo, generic=args.mlir_print_op_generic)
    return ChunkResult(text, diags)


# -- --verify-diagnostics -------------------------------------------------------------------------------

_EXPECTED = re.compile(r"//\s*expected-(error|warning|remark|note)\s*(?:@([+-]\d+|above|below))?\s*\{\{(.*?)\}\}")


def check_expected(chunk: InputText, diags: list[Diagnostic]) -> list[str]:
    """MLIR's -verify-diagnostics: every expectation met, nothing unexpected."""
    expected = []
    for i, line in enumerate(chunk.text.split("\n")):
        for m in _EXPECTED.finditer(line):
            lineno = i + 1 + chunk.line_offset
            off = m.group(2)
            if off in ("above",):
                lineno -= 1
            elif off in ("below",):
                lineno += 1
            elif off:
                lineno += int(off)
            expected.append([m.group(1), lineno, m.group(3), False, i + 1 + chunk.line_offset])
    problems = []
    for d in diags:
        hit = None
        for e in expected:
            if not e[3] and e[0] == d.severity and e[1] == d.line and e[2] in d.message:
                hit = e
                break
        if hit is None:
            problems.append(f"{chunk.name}:{d.line or 0}:{d.col or 0}: error: unexpected {d.severity}: {d.message}")
        else:
            hit[3] = True
    for kind, lineno, text, met, at in expected:
        if not met:
            problems.append(f"{chunk.name}:{at}:1: error: expected {kind} \"{text}\" was not produced")
    return problems


# -- main ---------------------------------------------------------------------------------------------


def split_chunks(inp: InputText, split: bool) -> list[InputText]:
    if not split:
        return [inp]
    from irkit.frontend.parser import split_input_file

    return [InputText(t, inp.name, inp.line_offset + start - 1) for t, start in split_input_file(inp.text)]


def write_output(path: str, text: str) -> None:
    if path == "-":
        sys.stdout.write(text)
        return
    target = Path(path)
    directory = target.parent if str(target.parent) else Path(".")
    if not directory.is_dir():
        raise CliError(f"cannot write '{path}': directory '{directory}' does not exist")
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", dir=directory)
    try:
        with os.fdopen(fd, "w") as f:
            f.write(text)
        # mkstemp makes the file 0600; give it the mode a plain open() would have
        umask = os.umask(0)
        os.umask(umask)
        mode = (target.stat().st_mode & 0o777) if target.exists() else (0o666 & ~umask)
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def run(argv: list[str]) -> int:
    ap = build_arg_parser()
    args = ap.parse_args(argv)
    if args.list_passes:
        sys.stdout.write(list_passes())
        return 0
    pipeline = build_pipeline(args)
    inp = read_input(args)
    outputs: list[str] = []
    failed = False
    problems: list[str] = []
    for chunk in split_chunks(inp, args.split_input_file):
        result = process_chunk(args, chunk, pipeline, sys.stderr)
        if args.verify_diagnostics:
            problems.extend(check_expected(chunk, result.diagnostics))
        else:
            for d in result.diagnostics:
                if d.severity == "remark" and not args.mlir_print_remarks:
                    continue
                sys.stderr.write(d.render() + "\n")
                if d.severity == "error":
                    failed = True
        if result.output is not None:
            outputs.append(result.output)
    if args.verify_diagnostics:
        for p in problems:
            sys.stderr.write(p + "\n")
        failed = bool(problems)
    if outputs:
        write_output(args.output, "// -----\n".join(outputs) if args.split_input_file else outputs[0])
    return 1 if failed else 0


def main(argv: list[str] | None = None) -> None:
    sys.exit(run_command("irkit-opt", run, sys.argv[1:] if argv is None else argv, (InputError,)))


if __name__ == "__main__":
    main()
