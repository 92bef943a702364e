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
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from irkit.cli.entry import ArgumentParser, CliError, InternalError, did_you_mean, run_command
from irkit.cli.pipeline import parse_textual_pipeline, split_command_line
from irkit.deep import run_deep
from irkit.outputs import write_output

# irkit.diagnostics and xDSL are imported where used, so `--help` stays fast
if TYPE_CHECKING:
    from xdsl.passes import ModulePass

    from irkit.cli.instrument import IRPrinting, Statistics, Timing
    from irkit.cli.pipeline import PassSpec
    from irkit.diagnostics import Diagnostic


class InputError(CliError):
    """A user error at a position of the input, printed as the diagnostic it holds."""


@dataclass
class InputText:
    text: str
    name: str  # what diagnostics call the file
    line_offset: int = 0  # lines of the original file before `text`
    triton_version: str | None = None  # from the kernel's Triton metadata JSON (cache entry, corpus)



# options whose value, if any, follows `=` only (MLIR's ValueOptional): --verify-diagnostics[=only-expected]
OPTIONAL_VALUE = {"--verify-diagnostics": "--verify-diagnostics-mode"}


def version_text() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        ours, xdsl = version("irkit"), version("xdsl")
    except PackageNotFoundError:
        ours, xdsl = "unknown", "unknown"
    return f"irkit-opt (irkit {ours}, xDSL {xdsl})"


def passes_epilog(prefix: str = "  ", details: bool = False) -> str:
    """One line per pass: the flag, its summary, its options, the upstream names it answers to;
    with `details`, the rest of its docstring under it (what its options mean, which is the default)."""
    from irkit.cli.pass_catalog import pass_catalog

    lines = []
    for name, info in pass_catalog().items():
        lines.append(f"{prefix}--{name:<28} {info.summary}{info.options_help}{info.aliases_help}")
        if details and info.details:
            lines.extend(f"{prefix}      {line}".rstrip() for line in info.details.splitlines())
    return "\n".join(lines)


def build_arg_parser(with_passes: bool = True) -> argparse.ArgumentParser:
    epilog = None
    if with_passes:
        # read from the pass modules' source: importing them (xDSL and all) would
        # make every `irkit-opt --help` cost half a second
        epilog = (
            "passes (run in command-line order, after --pass-pipeline; options only after '=':\n"
            "--pass='opt=v opt2=w', never the next word; a pass also answers to its C++ name):\n"
            + passes_epilog(details=True)
            + "\n\nFlags take one or two dashes (-split-input-file = --split-input-file); no abbreviations."
        )
    ap = ArgumentParser(
        prog="irkit-opt",
        description="Parse, transform and print Triton TTIR/TTGIR (both dialect spellings), "
        "MLIR_ENABLE_DUMP logs and Triton cache directories.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=epilog,
        allow_abbrev=False,
    )
    ap.add_argument("input", nargs="?", default="-", help="input file, '-' for stdin, a dump log (.gz ok) or a Triton cache dir")
    ap.add_argument("-o", dest="output", default="-", help="output file (written atomically); '-' for stdout")
    ap.add_argument("-p", "--pass-pipeline", dest="pipeline", default=None,
                    help="pass pipeline: 'builtin.module(p1,p2{opt=v})' as mlir-opt, or 'p1,p2{opt=v}'")
    ap.add_argument("--version", action="version", version=version_text())
    ap.add_argument("--split-input-file", action="store_true", help="split the input on '// -----' and process each part")
    ap.add_argument("--mlir-print-op-generic", action="store_true", help="print every op in generic form")
    ap.add_argument("--mlir-print-debuginfo", action="store_true", help="print locations (loc(#locN) with the alias block)")
    ap.add_argument("--mlir-print-triton-names", action="store_true",
                    default=os.environ.get("IRKIT_MLIR_PRINT_TRITON_NAMES", "") not in ("", "0"),
                    help="name values as triton-opt does (%%0, %%arg0, %%c0_i32, %%cst) instead of as the input wrote "
                    "them; default: on when $IRKIT_MLIR_PRINT_TRITON_NAMES is set (not 0), as a triton-opt stand-in")
    ap.add_argument("--mlir-print-input-aliases", action="store_true",
                    help="keep the input's alias names (#dot0, #AL) instead of triton-opt's (#blocked, #mma; dot_op inline)")
    ap.add_argument("--mlir-print-ir-after-all", action="store_true", help="print the IR after every pass to stderr")
    ap.add_argument("--mlir-print-ir-before-all", action="store_true", help="print the IR before every pass to stderr")
    ap.add_argument("--mlir-print-ir-after-change", action="store_true",
                    help="with --mlir-print-ir-after-all/--mlir-print-ir-after: only when the pass changed the IR")
    ap.add_argument("--mlir-print-ir-after", action="append", default=[], metavar="PASS",
                    help="print the IR after this pass to stderr (repeatable; names or upstream names)")
    ap.add_argument("--mlir-print-ir-before", action="append", default=[], metavar="PASS",
                    help="print the IR before this pass to stderr (repeatable)")
    ap.add_argument("--mlir-timing", action="store_true", help="print the wall time of parsing, each pass and printing")
    ap.add_argument("--mlir-pass-statistics", action="store_true",
                    help="print per-pass statistics (ops and layout conversions before/after)")
    ap.add_argument("--mlir-disable-threading", action="store_true", help="accepted for mlir-opt compatibility (irkit is single-threaded)")
    ap.add_argument("--mlir-print-remarks", action="store_true", help="print the remarks passes emit (why a rewrite was skipped)")
    ap.add_argument("--verify-diagnostics", action="store_true",
                    help="check emitted diagnostics against '// expected-error@+N {{...}}' comments; "
                    "--verify-diagnostics=only-expected ignores diagnostics nobody expected")
    ap.add_argument("--verify-diagnostics-mode", choices=("all", "only-expected"), default="all", help=argparse.SUPPRESS)
    ap.add_argument("--triton-version", default=os.environ.get("IRKIT_TRITON_VERSION") or None,
                    metavar="X.Y[.Z]|main",
                    help="the Triton that made the input, for passes whose rules follow the release (coalesce, "
                         "the test-print-* analyses); `main`: upstream main after the newest release; default: "
                         "$IRKIT_TRITON_VERSION, else the kernel's Triton cache JSON, else the spelling")
    ap.add_argument("--allow-unregistered-dialect", action="store_true", help="accept unknown ops written in generic form")
    ap.add_argument("--no-verify", action="store_true", help="skip the IR verifier")
    ap.add_argument("--debug", action="store_true", help="on an internal error, print the Python traceback")
    ap.add_argument("--list-passes", action="store_true", help="list the registered passes and their options")
    ap.add_argument("--dump-section", default=None, metavar="N|PASS[#k]",
                    help="for a MLIR_ENABLE_DUMP log: the section to read (index or pass name, k-th run); "
                    "default: the last TritonGPU section")
    ap.add_argument("--dump-after", action="store_true",
                    help="with --dump-section=PASS: read the IR after that pass ran (the next section)")
    ap.add_argument("--list-sections", action="store_true", help="for a dump log: list its sections and exit")
    return ap


def parse_command_line(ap: argparse.ArgumentParser, argv: list[str]) -> argparse.Namespace:
    """argparse after mlir-opt's rules (irkit.cli.pipeline.split_command_line); pass flags
    land in `args.pass_flags` as (name as written, options), in command-line order.
    Options that take a value (`-o out.mlir`, `--dump-section 3`) may take the next word."""
    from irkit.cli.pass_catalog import pass_names

    expanded = []
    for arg in argv:
        key, eq, value = ("--" + arg.lstrip("-")).partition("=")
        if arg.startswith("-") and key in OPTIONAL_VALUE:
            expanded.append(key)
            if eq:
                expanded.append(f"{OPTIONAL_VALUE[key]}={value}")
            continue
        expanded.append(arg)
    value_options = {o for a in ap._actions if a.nargs != 0 for o in a.option_strings}
    passes = set(pass_names())
    rest, flags = split_command_line(expanded, passes, value_options)
    if isinstance(ap, ArgumentParser):  # a mistyped pass is a flag argparse does not know: say which was meant
        ap.extra_flags = tuple(sorted("--" + name for name in passes))
    args = ap.parse_args(rest)
    args.pass_flags = flags
    return args


def list_passes() -> str:
    return "Available passes:\n" + passes_epilog() + "\n"


# -- input -----------------------------------------------------------------------------------------


def read_input(args) -> InputText:
    from irkit.frontend import dumplog

    if args.input == "-":
        return InputText(sys.stdin.read(), "<stdin>")
    path = Path(args.input)
    try:
        os.stat(path)
    except OSError as e:  # a link loop is ELOOP, not "No such file"
        raise CliError(f"could not open input file '{args.input}': {e.strerror or e}") from None
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
        if spec is None and args.dump_after:
            raise CliError("--dump-after needs --dump-section=PASS")
        try:
            if spec is None:
                section = dumplog.default_section(sections)  # irkit-report reads the same one
            else:
                section = dumplog.select_section(sections, spec, after=args.dump_after)
        except dumplog.DumpSelectError as e:
            raise CliError(f"'{path}': {e}") from None
        if not section.text.strip():  # the body between two headers holds no module: say so
            from irkit.diagnostics import Diagnostic

            message = f"section {section.index} ({section.label}) holds no MLIR module"
            raise InputError(Diagnostic("error", message, str(path), section.header_line, 1).render())
        return InputText(section.text, str(path), section.body_first_line - 1)
    if args.dump_section is not None or args.dump_after:
        raise CliError(f"--dump-section needs an MLIR_ENABLE_DUMP log, and '{path}' is not one")
    nul = text.find("\x00", 0, 4096)
    if nul >= 0:
        from irkit.diagnostics import Diagnostic, position

        line, col, _ = position(text, nul)
        message = f"unexpected NUL byte: '{path}' is a binary file, not MLIR text"
        raise InputError(Diagnostic("error", message, str(path), line, col).render())
    return InputText(text, str(path), triton_version=metadata_version(path))


def sidecar(path: str) -> dict:
    """Triton's metadata next to a kernel file: `<k>.json` in a cache entry, `<k>.meta.json` in the corpus."""
    p = Path(path)
    if not p.is_file() or p.suffix not in (".ttgir", ".mlir"):
        return {}
    import json

    for candidate in (p.with_suffix(".json"), p.with_suffix(".meta.json")):
        if candidate.is_file():
            try:
                data = json.loads(candidate.read_text())
            except (OSError, ValueError):
                return {}
            return data if isinstance(data, dict) else {}
    return {}


def metadata_version(path: Path) -> str | None:
    """`triton_version` of the JSON Triton writes next to a kernel (`<k>.json` in its cache)."""
    version = sidecar(str(path)).get("triton_version")
    return version if isinstance(version, str) else None


# -- pipeline ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ScheduledPass:
    instance: ModulePass
    written: str  # the name as the command line wrote it (maybe an upstream alias)


@dataclass(frozen=True)
class Pipeline:
    passes: tuple[ScheduledPass, ...]


def pipeline_specs(args) -> list[PassSpec]:
    """--pass-pipeline first, then the pass flags, in command-line order."""
    from irkit.cli.pipeline import PassSpec

    specs: list[PassSpec] = []
    if args.pipeline:
        specs.extend(parse_textual_pipeline(args.pipeline))
    for name, options in getattr(args, "pass_flags", None) or []:
        specs.append(PassSpec(name, options, ()))
    return specs


def build_pipeline(args) -> Pipeline | None:
    from xdsl.utils.arg_spec import parse_spec
    from xdsl.utils.exceptions import ArgSpecParseError

    from irkit.cli.pass_catalog import pass_names
    from irkit.cli.pass_options import check_pass_options, word_options
    from irkit.cli.pipeline import merge_options, quote_word_options
    from irkit.passes import all_passes

    specs = pipeline_specs(args)
    if not specs:
        return None
    _provide_the_real_compiler()
    names = pass_names()
    available = all_passes()
    scheduled = []
    for spec in specs:
        if spec.name not in names or names[spec.name][0] not in available:
            raise CliError(f"unknown pass '{spec.name}'{did_you_mean(spec.name, names)} (see --list-passes)")
        canonical, implied = names[spec.name]
        options = quote_word_options(merge_options(implied, spec.options), word_options(available[canonical]))
        text = f"{canonical}{{{options}}}" if options else canonical
        try:
            arg_spec = parse_spec(text)
        except (Exception, ArgSpecParseError) as e:  # xDSL's ArgSpecParseError is a BaseException
            raise CliError(f"invalid pass pipeline '{_written(spec)}': {_one_line(e)}") from None
        problem = check_pass_options(available[canonical], arg_spec.parameters)
        if problem:
            raise CliError(f"invalid options in pass pipeline '{_written(spec)}': {problem}")
        try:
            instance = available[canonical].from_pass_spec(arg_spec)
        except (Exception, ArgSpecParseError) as e:
            raise CliError(f"invalid options in pass pipeline '{_written(spec)}': {_one_line(e)}") from None
        scheduled.append(ScheduledPass(instance, spec.name))
    return Pipeline(tuple(scheduled))


def with_run_defaults(pipeline: Pipeline | None, version: str | None, remarks: bool) -> Pipeline | None:
    """Fill the options a pass left unset from the run: `version` (the Triton that made the input, for passes
    whose rules follow the release: the printed IR cannot tell 3.5 from 3.9) and `remarks` (a test pass
    that can report as remarks does so when the run checks diagnostics, as Triton's do since 2025)."""
    import dataclasses

    if pipeline is None:
        return pipeline
    scheduled = []
    for s in pipeline.passes:
        fields = {f.name for f in dataclasses.fields(s.instance)}
        changes: dict[str, object] = {}
        if version and "version" in fields and s.instance.version in ("", None):
            changes["version"] = version
        if "remarks" in fields and s.instance.remarks is None:
            changes["remarks"] = remarks
        if changes:
            s = ScheduledPass(dataclasses.replace(s.instance, **changes), s.written)
        scheduled.append(s)
    return Pipeline(tuple(scheduled))


def with_launch_facts(pipeline: Pipeline | None, **facts: int | None) -> Pipeline | None:
    """Give the passes that weigh a launch the facts of it they take as options left unset (`main_loop_trips`: how
    many times it runs the main loop; `launch_ctas`, `device_sms`: its CTAs and the SMs of its device): facts of the
    launch, not of the IR, that only a tool which sees the launch knows (irkit-check).  A fact None is not known."""
    import dataclasses

    known = {name: value for name, value in facts.items() if value is not None}
    if pipeline is None or not known:
        return pipeline
    scheduled = []
    for s in pipeline.passes:
        fields = {f.name for f in dataclasses.fields(s.instance)}
        given = {name: value for name, value in known.items() if name in fields and getattr(s.instance, name) is None}
        if given:
            s = ScheduledPass(dataclasses.replace(s.instance, **given), s.written)
        scheduled.append(s)
    return Pipeline(tuple(scheduled))


def _provide_the_real_compiler() -> None:
    """Every tool builds its pipeline here (irkit-opt, irkit-report, irkit-check, irkit-sweep's workers), and
    here the tools link the real Triton for the passes that ask for it (`irkit.analysis.real_compiler`):
    passes never find or start a compiler themselves."""
    from irkit.check.compiled_stats import provide_triton

    provide_triton()


def _written(spec: PassSpec) -> str:
    return f"{spec.name}{{{spec.options}}}" if spec.options else spec.name


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


@dataclass
class RunContext:
    """What one irkit-opt run keeps across modules and chunks."""

    timing: Timing | None = None
    statistics: Statistics | None = None
    printing: IRPrinting | None = None


def run_context(args, out_err) -> RunContext:
    from irkit.cli.instrument import IRPrinting, Statistics, Timing
    from irkit.cli.pass_catalog import pass_names

    def canonical(names: list[str]) -> set[str]:
        known = pass_names()
        unknown = [n for n in names if n not in known]
        if unknown:
            raise CliError(f"unknown pass '{unknown[0]}' in --mlir-print-ir-before/after{did_you_mean(unknown[0], known)} "
                           "(see --list-passes)")
        return {known[n][0] for n in names}

    printing = None
    after = canonical(getattr(args, "mlir_print_ir_after", []) or [])
    before = canonical(getattr(args, "mlir_print_ir_before", []) or [])
    before_all = getattr(args, "mlir_print_ir_before_all", False)
    after_change = getattr(args, "mlir_print_ir_after_change", False)
    # --mlir-print-ir-after-change alone prints after every pass that changed the IR
    after_all = args.mlir_print_ir_after_all or (after_change and not after)
    if before_all or after_all or after or before:
        printing = IRPrinting(before_all, after_all, after_change, before, after, out_err)
    return RunContext(
        timing=Timing() if getattr(args, "mlir_timing", False) else None,
        statistics=Statistics() if getattr(args, "mlir_pass_statistics", False) else None,
        printing=printing,
    )


def pass_targets(parsed) -> list:
    """The modules passes run on: the file's module, or each top-level module of a file that has
    several (MLIR wraps them in one unnamed module, as printed; Triton's test-allocation.mlir)."""
    from xdsl.dialects.builtin import ModuleOp

    module = parsed.module
    # the wrapper as MLIR prints it back (`module {` with no name or attributes) counts alike
    bare = parsed.implicit_module or (module.sym_name is None and not module.attributes)
    if bare:
        inner = list(module.body.block.ops)
        if inner and all(isinstance(op, ModuleOp) for op in inner):
            return inner
    return [module]


def process_chunk(args, chunk: InputText, pipeline, out_err, run_ctx: RunContext | None = None) -> ChunkResult:
    """Parse, verify, run the pipeline over and print one chunk of the input."""
    from xdsl.context import Context

    run_ctx = run_ctx or RunContext()
    parsed, diags = _ChunkRun.parse(args, chunk, run_ctx)
    if parsed is None:
        return ChunkResult(None, diags)
    run = _ChunkRun(args, chunk, parsed, run_ctx, diags)
    if not run.verify(None):
        return ChunkResult(None, run.diags)
    if pipeline is not None:
        ctx = Context(allow_unregistered=True)
        for scheduled in pipeline.passes:
            if not run.apply(scheduled, ctx):
                return ChunkResult(None, run.diags)
    with run.timed("Output"):
        text = run.printed()
    return ChunkResult(text, run.diags)


@dataclass
class _ChunkRun:
    """One chunk on its way through irkit-opt: its module, the diagnostics so far, and how to print and
    verify it between passes."""

    args: argparse.Namespace
    chunk: InputText
    parsed: object
    run_ctx: RunContext
    diags: list

    def timed(self, *what, **how):
        from contextlib import nullcontext

        return self.run_ctx.timing.phase(*what, **how) if self.run_ctx.timing is not None else nullcontext()

    @staticmethod
    def parse(args, chunk: InputText, run_ctx: RunContext) -> tuple[object | None, list]:
        """The chunk's module, or None and the parse error."""
        from contextlib import nullcontext

        from irkit.diagnostics import Diagnostic, position
        from irkit.frontend.lexer import ParseError
        from irkit.frontend.parser import Parser

        timed = run_ctx.timing.phase if run_ctx.timing is not None else (lambda *a, **k: nullcontext())
        parser = Parser(chunk.text, chunk.name, allow_unregistered=args.allow_unregistered_dialect)
        try:
            with timed("Parser"):
                parsed = parser.parse()
        except ParseError as e:
            line, col, src = position(chunk.text, e.pos, chunk.line_offset)
            return None, [Diagnostic("error", e.message, chunk.name, line, col, src)]
        except RecursionError:  # past irkit.deep's limit: point at where the parser was
            line, col, src = position(chunk.text, parser.cur.pos, chunk.line_offset)
            return None, [Diagnostic("error", "input nests too deeply to parse", chunk.name, line, col, src)]
        parsed.line_offset = chunk.line_offset
        return parsed, []

    def op_diag(self, severity: str, op, message: str):
        from irkit import diagnostics as diag

        chunk = self.chunk
        return diag.op_diagnostic(self.parsed, chunk.text, chunk.name, chunk.line_offset, severity, op, message)

    def printed(self) -> str:
        from irkit.analysis.triton_versions import release_of
        from irkit.frontend.printer import print_module

        args = self.args
        version = getattr(args, "triton_version", None) or self.chunk.triton_version
        return print_module(self.parsed, debuginfo=args.mlir_print_debuginfo, generic=args.mlir_print_op_generic,
                            input_aliases=getattr(args, "mlir_print_input_aliases", False),
                            mlir_value_names=getattr(args, "mlir_print_triton_names", False),
                            release=release_of(version, self.parsed.module) if version else None)

    def verify(self, after: str | None) -> bool:
        from irkit.verifier import verify_parsed

        if self.args.no_verify:
            return True
        chunk = self.chunk
        with self.timed("Verifier"):
            errors = verify_parsed(self.parsed, chunk.text, chunk.name, chunk.line_offset,
                                   f"after pass '{after}': " if after else "")
        self.diags.extend(errors)
        return not errors

    def apply(self, scheduled, ctx) -> bool:
        """Run one scheduled pass with the instrumentation asked for; False when the chunk stops here."""
        from irkit import diagnostics as diag
        from irkit.cli.instrument import module_statistics

        p, printing, statistics = scheduled.instance, self.run_ctx.printing, self.run_ctx.statistics
        label = f"{type(p).__name__} ({scheduled.written})"
        if printing is not None and printing.wants_before(p.name):
            printing.dump("Before", type(p).__name__, scheduled.written, self.printed())
        text_before = self.printed() if printing is not None and printing.needs_before_text else None
        targets = pass_targets(self.parsed)
        stats_before = [module_statistics(m) for m in targets] if statistics is not None else None
        diag.take()
        if not self._run_pass(p, label, targets, ctx):
            return False
        for d in diag.take():
            self.diags.append(self.op_diag(d.severity, d.op, d.message))
        if stats_before is not None:
            for target, before in zip(targets, stats_before):
                statistics.record(label, before, module_statistics(target))
        if not self.verify(p.name):
            return False
        if printing is not None and printing.wants_after(p.name):
            text_after = self.printed()
            if text_before is None or text_after != text_before:
                printing.dump("After", type(p).__name__, scheduled.written, text_after)
        return True

    def _run_pass(self, p, label: str, targets, ctx) -> bool:
        from irkit import diagnostics as diag
        from irkit.diagnostics import PassFailure
        from irkit.frontend.construct import gc_paused

        try:
            with gc_paused(), self.timed(label, is_pass=True):  # gc: as parsing, re-scans are superlinear
                for target in targets:
                    p.apply(ctx, target)
        except PassFailure as e:
            self.diags.append(self.op_diag("error", e.op, e.message))
            return False
        except Exception as e:  # a bug in the pass (bad IR was stopped by the verifier before it)
            if os.environ.get("IRKIT_TRACEBACK"):
                raise
            op = diag.failing_op(e.__traceback__, lambda o: o in self.parsed.op_positions)
            at = self.op_diag("error", op, "")
            where = f"{at.file}:{at.line}:{at.col}" if at.line is not None else self.chunk.name
            raise InternalError(f"internal error in pass '{p.name}' at {where}; please report: "
                                f"{type(e).__name__}: {e}") from e
        return True


# -- --verify-diagnostics -------------------------------------------------------------------------------

_EXPECTED = re.compile(r"//\s*expected-(error|warning|remark|note)\s*(?:@([+-]\d+|above|below))?\s*\{\{(.*?)\}\}")


def check_expected(chunk: InputText, diags: list[Diagnostic], only_expected: bool = False) -> list[str]:
    """MLIR's -verify-diagnostics: every expectation met, nothing unexpected
    (with =only-expected, diagnostics nobody expected are let through)."""
    expected = []
    below = []  # @below: the next line that is not itself an expectation (MLIR's forward expectations)
    for i, line in enumerate(chunk.text.split("\n")):
        found = list(_EXPECTED.finditer(line))
        if not found and below:
            for e in below:
                e[1] = i + 1 + chunk.line_offset
            below = []
        for m in found:
            lineno = i + 1 + chunk.line_offset
            off = m.group(2)
            if off in ("above",):
                lineno -= 1
            elif off in ("below",):
                lineno += 1
            elif off:
                lineno += int(off)
            expected.append([m.group(1), lineno, m.group(3), False, i + 1 + chunk.line_offset])
            if off == "below":
                below.append(expected[-1])
    problems = []
    for d in diags:
        if d.severity == "output":
            continue
        hit = None
        for e in expected:
            if not e[3] and e[0] == d.severity and e[1] == d.line and e[2] in d.message:
                hit = e
                break
        if hit is None:
            if only_expected:
                continue
            problems.append(f"{chunk.name}:{d.line or 0}:{d.col or 0}: error: unexpected {d.severity}: {d.message}")
        else:
            hit[3] = True
    for kind, _lineno, text, met, at in expected:
        if not met:
            problems.append(f"{chunk.name}:{at}:1: error: expected {kind} \"{text}\" was not produced")
    return problems


# -- main ---------------------------------------------------------------------------------------------


def split_chunks(inp: InputText, split: bool) -> list[InputText]:
    if not split:
        return [inp]
    from irkit.frontend.parser import split_input_file

    return [InputText(t, inp.name, inp.line_offset + start - 1, inp.triton_version)
            for t, start in split_input_file(inp.text)]


def run(argv: list[str]) -> int:
    ap = build_arg_parser()
    args = parse_command_line(ap, argv)
    if args.list_passes:
        sys.stdout.write(list_passes())
        return 0
    pipeline = build_pipeline(args)
    run_ctx = run_context(args, sys.stderr)
    inp = read_input(args)
    pipeline = with_run_defaults(pipeline, args.triton_version or inp.triton_version, args.verify_diagnostics)
    outputs: list[str] = []
    failed = False
    problems: list[str] = []
    only_expected = args.verify_diagnostics_mode == "only-expected"
    for chunk in split_chunks(inp, args.split_input_file):
        result = run_deep(process_chunk, args, chunk, pipeline, sys.stderr, run_ctx)  # deep nesting: big stack
        if args.verify_diagnostics:
            problems.extend(check_expected(chunk, result.diagnostics, only_expected))
            for d in result.diagnostics:
                if d.severity == "output":  # printed to stderr, not a diagnostic (as llvm::errs() in C++)
                    sys.stderr.write(d.render() + "\n")
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
    # on any error no file is written (-o may name the input itself); stdout still gets the
    # chunks that passed, as mlir-opt prints them
    if outputs and (not failed or args.output == "-"):
        write_output(args.output, "// -----\n".join(outputs) if args.split_input_file else outputs[0])
    if run_ctx.statistics is not None:
        sys.stderr.write(run_ctx.statistics.report())
    if run_ctx.timing is not None:
        sys.stderr.write(run_ctx.timing.report())
    return 1 if failed else 0


def main(argv: list[str] | None = None) -> None:
    sys.exit(run_command("irkit-opt", run, sys.argv[1:] if argv is None else argv, (InputError,)))


if __name__ == "__main__":
    main()
