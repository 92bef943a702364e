"""`irkit-report`: what a layout pass idea buys, measured on real Triton IR.

    irkit-report kernel.ttgir                          conversions, local_allocs, shared memory vs limits
    irkit-report before.ttgir after.ttgir              the difference: converts eliminated, bytes saved
    irkit-report kernel.ttgir --propagate-mma          the same, against the module after a pipeline
    irkit-report --per-pass log.txt.gz                 one row per MLIR_ENABLE_DUMP section
    irkit-report --screen cfg1.ttgir cfg2.ttgir -p propagate-mma
    irkit-report --screen --manifest manifest.jsonl --where target=hip:gfx942

`--json` prints the report as JSON, `--html FILE` writes one self-contained page with the dataflow
picture; `--dot/--graphml/--graph-json/--svg/--png FILE` export the dataflow graph.  Inputs are read
like irkit-opt reads them (dump logs with --dump-section, Triton cache folders, .gz), and pipelines
are built and run by irkit-opt's driver.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from types import SimpleNamespace

from irkit.cli import opt as driver
from irkit.cli.entry import ArgumentParser, CliError, run_command
from irkit.cli.opt import InputText, sidecar
from irkit.deep import run_deep
from irkit.outputs import write_output
from irkit.progress import progress_bar


class ReportFailed(Exception):
    """Diagnostics were already printed; exit 1."""


def build_arg_parser() -> argparse.ArgumentParser:
    ap = ArgumentParser(  # a bad option: one line and exit 1, as irkit-opt
        prog="irkit-report",
        allow_abbrev=False,
        description="Report layout conversions and predicted shared memory of Triton TTGIR: one module, "
        "a before/after pair, a dump log pass by pass, or a set of autotuning configs.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=__doc__.split("\n\n", 1)[1].split("`--json`")[0]
        + "\npasses (in command-line order, as in irkit-opt: --pass='opt=v', never the next word):\n"
        + driver.passes_epilog(),
    )
    ap.add_argument("inputs", nargs="*", metavar="INPUT", help="TTGIR file, dump log (.gz ok), Triton cache folder or '-'")
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument("--per-pass", action="store_true", help="one row per section of an MLIR_ENABLE_DUMP log")
    mode.add_argument("--screen", "--autotune", dest="screen", action="store_true",
                      help="autotuning screen: which configs exceed the limit, which the pipeline brings under it")
    ap.add_argument("--manifest", default=None, help="for --screen: a JSONL/JSON manifest of configs, or a file of paths")
    ap.add_argument("--manifest-any-path", action="store_true",
                    help="for --manifest: allow paths outside the manifest's folder (absolute, '..', links)")
    ap.add_argument("--where", action="append", default=[], metavar="KEY=VALUE",
                    help="for --manifest: keep rows whose KEY equals VALUE (KEY~TEXT: contains TEXT); repeatable")
    ap.add_argument("-p", "--pass-pipeline", dest="pipeline", default=None,
                    help="compare the module with itself after this pass pipeline (irkit-opt syntax)")
    ap.add_argument("--pass", dest="pass_names", action="append", default=[], metavar="NAME",
                    help="a pass to run (repeatable; same as --NAME)")
    ap.add_argument("--target", default=None, help="target for the verdict: A100, H100, B200, MI250X, MI300X, MI355X, PVC or a triple")
    ap.add_argument("--limit", type=int, default=None, help="shared-memory limit in bytes (overrides the target's)")
    ap.add_argument("--triton-version", default=None,
                    help="allocation rules: 3.1, 3.3 or 3.9 (default: the cache JSON next to the file, else the dialect spelling)")
    ap.add_argument("--json", action="store_true", help="print the report as JSON")
    ap.add_argument("--debug", action="store_true", help="on an internal error, print the Python traceback")
    ap.add_argument("--html", default=None, metavar="FILE", help="write a self-contained HTML page with the picture")
    ap.add_argument("-o", dest="output", default="-", help="where the text/JSON report goes ('-': stdout)")
    ap.add_argument("--dot", default=None, metavar="FILE", help="write the dataflow graph as Graphviz DOT")
    ap.add_argument("--graphml", default=None, metavar="FILE", help="write the dataflow graph as GraphML")
    ap.add_argument("--graph-json", default=None, metavar="FILE", help="write the dataflow graph as JSON")
    ap.add_argument("--svg", default=None, metavar="FILE", help="render the dataflow graph to SVG (needs Graphviz)")
    ap.add_argument("--png", default=None, metavar="FILE", help="render the dataflow graph to PNG (needs Graphviz)")
    ap.add_argument("--picture", choices=("focus", "full", "auto"), default="focus",
                    help="graph picture (--html, --dot, --svg, --png): focus (default) draws the conversions and "
                    "shared-memory users with their neighbours, full every op, auto full up to 250 ops")
    ap.add_argument("--dump-section", default=None, metavar="N|PASS[#k]", help="for a dump log: the section to report on")
    ap.add_argument("--dump-after", action="store_true", help="with --dump-section=PASS: the IR after that pass")
    ap.add_argument("--list-sections", action="store_true", help="for a dump log: list its sections and exit")
    return ap


# -- inputs --------------------------------------------------------------------------------------------


def read_one(path: str, args) -> InputText:
    """Read like irkit-opt (a dump log without --dump-section: its last TritonGPU section)."""
    ns = SimpleNamespace(input=path, list_sections=args.list_sections, dump_section=args.dump_section,
                         dump_after=args.dump_after)
    return driver.read_input(ns)


def parse(chunk: InputText):
    """Parse or print the diagnostic (file:line:col: error: ...) and raise ReportFailed."""
    from irkit.diagnostics import Diagnostic, position
    from irkit.frontend.lexer import ParseError
    from irkit.frontend.parser import Parser

    parser = Parser(chunk.text, chunk.name)
    try:
        parsed = run_deep(parser.parse)
    except ParseError as e:
        line, col, src = position(chunk.text, e.pos, chunk.line_offset)
        raise ReportFailed(Diagnostic("error", e.message, chunk.name, line, col, src).render()) from None
    except RecursionError:
        line, col, src = position(chunk.text, parser.cur.pos, chunk.line_offset)
        raise ReportFailed(Diagnostic("error", "input nests too deeply to parse", chunk.name, line, col, src).render()) from None
    parsed.line_offset = chunk.line_offset
    return parsed


def parse_verified(chunk: InputText):
    """parse(), then irkit-opt's verifier (irkit.verifier.verify_parsed): no analysis sees IR it rejects."""
    from irkit.verifier import verify_parsed

    parsed = parse(chunk)
    errors = run_deep(verify_parsed, parsed, chunk.text, chunk.name, chunk.line_offset)
    if errors:
        raise ReportFailed("\n".join(d.render() for d in errors))
    return parsed


def pipeline_spec(args) -> str | None:
    parts = []
    if args.pipeline:
        parts.append(args.pipeline)
    parts.extend(args.pass_names)
    for name, options in getattr(args, "pass_flags", None) or []:
        opts = options.strip().strip("{}")
        parts.append(f"{name}{{{opts}}}" if opts else name)
    return ",".join(parts) or None


def build_pipeline(spec: str | None):
    if spec is None:
        return None
    return driver.build_pipeline(SimpleNamespace(pipeline=spec, pass_flags=[]))


# irkit-opt's options as its pipeline driver reads them when a report runs a pipeline (irkit-sweep
# too): verify before and after every pass, print with locations (the report reads positions back)
PIPELINE_DRIVER_ARGS = SimpleNamespace(
    allow_unregistered_dialect=False,
    no_verify=False,
    mlir_print_ir_after_all=False,
    mlir_print_debuginfo=True,
    mlir_print_op_generic=False,
)


def run_pipeline(chunk: InputText, pipeline) -> InputText:
    """The module after the pipeline, printed with its locations (irkit-opt's own driver runs it)."""
    result = run_deep(driver.process_chunk, PIPELINE_DRIVER_ARGS, chunk, pipeline, sys.stderr)
    errors = []
    for d in result.diagnostics:
        if d.severity == "remark":
            continue
        if d.severity == "error":
            errors.append(d.render())
        else:
            sys.stderr.write(d.render() + "\n")
    if errors or result.output is None:
        raise ReportFailed("\n".join(errors) or f"{chunk.name}: error: the pipeline produced no module")
    return InputText(result.output, f"{chunk.name} (after pipeline)")


def split_modules(parsed) -> list:
    """One ParsedModule per top-level module of a file that has several (MLIR wraps them in one
    unnamed module: each is reported on its own, with its own num-warps and target)."""
    from dataclasses import replace

    targets = driver.pass_targets(parsed)
    if len(targets) == 1 and targets[0] is parsed.module:
        return [parsed]
    return [replace(parsed, module=m, implicit_module=False) for m in targets]


def module_list(report) -> list:
    """The module reports of a ModuleReport or a ModuleSetReport."""
    from irkit.report import ModuleSetReport

    return report.reports if isinstance(report, ModuleSetReport) else [report]


def module_report(chunk: InputText, args, meta: dict | None = None, version: str | None = None):
    """A ModuleReport, or a ModuleSetReport for a file with several top-level modules."""
    from irkit.report import ModuleSetReport, build_module_report

    meta = meta or {}
    ver = args.triton_version or version or meta.get("triton_version")
    recorded = meta.get("shared") if isinstance(meta.get("shared"), int) else None
    modules = split_modules(parse_verified(chunk))
    reports = []
    try:
        for i, parsed in enumerate(modules):
            name = chunk.name
            if len(modules) > 1:
                line = parsed.op_line(parsed.module)
                name = f"{chunk.name} (module {i + 1} of {len(modules)}" + (f", line {line})" if line else ")")
            reports.append(build_module_report(parsed, name=name, version=ver, target=args.target, limit=args.limit,
                                               recorded_shared=recorded if len(modules) == 1 else None))
    except ValueError as e:  # e.g. a bad --triton-version
        raise CliError(str(e)) from None
    return reports[0] if len(reports) == 1 else ModuleSetReport(chunk.name, reports)


# -- modes ---------------------------------------------------------------------------------------------


def run_module_or_diff(args, spec: str | None):
    from irkit.report import build_diff_report

    if len(args.inputs) > 2:
        raise CliError("give one module (with an optional pipeline) or two modules to compare; for more, use --screen")
    if len(args.inputs) == 2 and spec:
        raise CliError("a pipeline compares one module with its own result; with two inputs give no passes")
    from irkit.report import ModuleSetReport

    chunks = [read_one(p, args) for p in args.inputs]
    metas = [sidecar(p) for p in args.inputs]
    if len(chunks) == 1 and not spec:
        return module_report(chunks[0], args, metas[0])
    before = module_report(chunks[0], args, metas[0])
    if spec:
        pipeline = build_pipeline(spec)
        after_chunk = run_pipeline(chunks[0], pipeline)
        # the pipeline does not change which Triton produced the module
        version = module_list(before)[0].version
        after = module_report(after_chunk, args, None, version=version)
    else:
        after = module_report(chunks[1], args, metas[1])
    befores, afters = module_list(before), module_list(after)
    if len(befores) != len(afters):
        raise CliError(f"cannot compare a file of {len(befores)} module(s) with one of {len(afters)}")
    if spec:
        for a in afters:
            a.recorded_shared = None
    diffs = [build_diff_report(b, a, spec) for b, a in zip(befores, afters)]
    return diffs[0] if len(diffs) == 1 else ModuleSetReport(chunks[0].name, diffs)


def run_per_pass(args):
    from irkit.frontend import dumplog
    from irkit.report import build_per_pass_report

    if len(args.inputs) != 1:
        raise CliError("--per-pass takes one MLIR_ENABLE_DUMP log")
    path = Path(args.inputs[0])
    if not path.is_file():
        raise CliError(f"could not open input file '{path}': No such file or directory")
    try:
        text = dumplog.read_text(path)
    except (OSError, EOFError) as e:
        raise CliError(f"could not read input file '{path}': {e}") from None
    if not dumplog.is_dump_log(text[: 1 << 16]):
        raise CliError(f"'{path}' is not an MLIR_ENABLE_DUMP log (no 'IR Dump Before' header in its first 64 KB)")
    sections = dumplog.split_sections(text)
    if not sections:
        raise CliError(f"'{path}' looks like an MLIR_ENABLE_DUMP log but has no IR sections")
    for section in sections:
        if not section.text.strip():  # as irkit-opt --dump-section says of it
            from irkit.diagnostics import Diagnostic

            message = f"section {section.index} ({section.label}) holds no MLIR module"
            raise ReportFailed(Diagnostic("error", message, str(path), section.header_line, 1).render())
    try:
        return build_per_pass_report(sections, name=str(path), version=args.triton_version)
    except ValueError as e:
        raise CliError(str(e)) from None


def _manifest_rows(path: Path) -> list[dict]:
    try:
        text = path.read_bytes().decode("utf-8")
    except OSError as e:
        raise CliError(f"could not read manifest '{path}': {e.strerror or e}") from None
    except UnicodeDecodeError as e:
        raise CliError(f"manifest '{path}' is not UTF-8 text (byte {e.start} is {e.object[e.start]:#04x})") from None
    rows: list = []
    try:
        data = json.loads(text)
    except ValueError:
        data = None
    if isinstance(data, list):
        rows = data
    elif isinstance(data, dict):
        rows = data.get("configs") or data.get("entries") or [data]
    elif text.lstrip().startswith("{"):  # JSON lines, like the corpus manifest
        for i, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            try:
                rows.append(json.loads(line))
            except ValueError as e:
                raise CliError(f"{path}:{i}:1: error: not a JSON object: {e}") from None
    else:  # one path per line
        rows = [ln.strip() for ln in text.splitlines() if ln.strip() and not ln.strip().startswith("#")]
    if not isinstance(rows, list):
        raise CliError(f"manifest '{path}': 'configs' must be a list of rows, got {type(rows).__name__}")
    out = []
    for i, row in enumerate(rows, 1):
        if isinstance(row, str):
            row = {"path": row}
        if not isinstance(row, dict):
            raise CliError(f"manifest '{path}': row {i} must be an object or a path, got {type(row).__name__}")
        problem = _row_problem(row)
        if problem:
            raise CliError(f"manifest '{path}': row {i}: {problem}")
        out.append(row)
    return out


def _row_problem(row: dict) -> str | None:
    """What is wrong with the shape of one manifest row (the keys irkit reads)."""
    for key in ("ttgir", "path", "file", "triton_version", "target"):
        if row.get(key) is not None and not isinstance(row[key], str):
            return f"'{key}' must be a string, got {type(row[key]).__name__}"
    files = row.get("files")
    if files is not None and not isinstance(files, dict):
        return f"'files' must be an object, got {type(files).__name__}"
    if isinstance(files, dict) and files.get("ttgir") is not None and not isinstance(files["ttgir"], str):
        return "'files.ttgir' must be a string"
    return None


def _row_path(row: dict) -> str | None:
    files = row.get("files")
    if isinstance(files, dict) and files.get("ttgir"):
        return files["ttgir"]
    for key in ("ttgir", "path", "file"):
        if isinstance(row.get(key), str):
            return row[key]
    return None


def _row_name(row: dict, path: str) -> str:
    name = row.get("name") or row.get("id") or Path(path).name
    extra = [str(row[k]) for k in ("triton_version", "target") if row.get(k)]
    return f"{name} [{' '.join(extra)}]" if extra and row.get("id") else str(name)


def _where(rows: list[dict], clauses: list[str]) -> list[dict]:
    for clause in clauses:
        if "~" in clause and ("=" not in clause or clause.index("~") < clause.index("=")):
            key, _, text = clause.partition("~")
            rows = [r for r in rows if text in str(r.get(key.strip(), ""))]
        elif "=" in clause:
            key, _, value = clause.partition("=")
            rows = [r for r in rows if str(r.get(key.strip(), "")) == value]
        else:
            raise CliError(f"bad --where '{clause}': expected KEY=VALUE or KEY~TEXT")
    return rows


def _inside(path: Path, folder: Path) -> bool:
    """`path`, links resolved, lies under `folder`."""
    try:
        return path.resolve().is_relative_to(folder.resolve())
    except (OSError, RuntimeError):  # a link loop
        return False


def _looks_like_ir(text: str) -> bool:
    """What a config file of a manifest must hold before irkit quotes a line of it in a diagnostic."""
    return re.search(r"^\s*(?:module\b|\"builtin\.module\"|tt\.func\b|#[\w$.-]+ = |// -----)", text[: 1 << 20], re.M) is not None


def screen_configs(args) -> list[tuple[str, str, str | None]]:
    """(name, path, triton version from the manifest) for every config to screen."""
    configs: list[tuple[str, str, str | None]] = []
    for p in args.inputs:
        path = Path(p)
        found = sorted(path.rglob("*.ttgir")) if path.is_dir() else []
        if len(found) > 1:  # a folder of configs (one .ttgir: a cache entry, read as one input)
            configs.extend((str(f.relative_to(path)), str(f), None) for f in found)
        else:
            configs.append((p, p, None))
    if args.manifest:
        mpath = Path(args.manifest)
        rows = _where(_manifest_rows(mpath), args.where)
        if not rows and args.where:
            where = " ".join(f"--where {c}" for c in args.where)
            raise CliError(f"no manifest row matches {where} in '{mpath}'")
        skipped = 0
        for row in rows:
            rel = _row_path(row)
            if rel is None:
                skipped += 1
                continue
            full = Path(rel) if Path(rel).is_absolute() else mpath.parent / rel
            if not args.manifest_any_path and not _inside(full, mpath.parent):
                raise CliError(f"manifest '{mpath}' names '{rel}', outside the manifest's folder; "
                               "--manifest-any-path allows that")
            configs.append((_row_name(row, rel), str(full), row.get("triton_version")))
        if skipped:
            sys.stderr.write(f"irkit-report: note: {skipped} manifest row(s) name no TTGIR file (e.g. compile errors); skipped\n")
    elif args.where:
        raise CliError("--where filters --manifest rows")
    if not configs:
        raise CliError("--screen needs configs: TTGIR files, folders of them, or --manifest")
    return configs


def run_screen(args, spec: str | None):
    from irkit.report import ScreenEntry, build_screen_report

    pipeline = build_pipeline(spec)
    entries = []
    failed = False
    for name, path, version in progress_bar(screen_configs(args), desc="screen", unit="config"):
        try:
            chunk = read_one(path, args)
            if args.manifest and not _looks_like_ir(chunk.text):  # never quote a line of a file that is no IR
                raise ReportFailed(f"{path}: error: not an MLIR file (no module, function or alias in it)")
            meta = sidecar(path)
            reports = module_list(module_report(chunk, args, meta, version=version))
            afters: list = [None] * len(reports)
            if pipeline is not None:
                afters = module_list(module_report(run_pipeline(chunk, pipeline), args, None,
                                                   version=reports[0].version))
                for a in afters:
                    a.recorded_shared = None
            for i, (report, after) in enumerate(zip(reports, afters)):
                # a file with several modules: one config per module
                label = name if len(reports) == 1 else f"{name} (module {i + 1} of {len(reports)})"
                entries.append(ScreenEntry(label, path, report, after))
        except ReportFailed as e:
            sys.stderr.write(str(e) + "\n")
            entries.append(ScreenEntry(name, path, None, error=str(e).splitlines()[0]))
            failed = True
        except CliError as e:
            sys.stderr.write(f"irkit-report: error: {e}\n")
            entries.append(ScreenEntry(name, path, None, error=str(e)))
            failed = True
    return build_screen_report(entries, spec), failed


# -- output ----------------------------------------------------------------------------------------------


def _picture_nodes(graph, choice: str):
    from irkit.analysis import graph as graph_analysis

    if choice == "full" or (choice == "auto" and graph.number_of_nodes() <= 250):
        return None
    return graph_analysis.focus_nodes(graph, radius=1)


def _picture(graph, choice: str, title: str):
    """The SVG of the graph, and the line of IR behind each node drawn (for the HTML's click-a-node)."""
    from irkit.analysis import graph as graph_analysis
    from irkit.report.html import Picture

    svg = graph_analysis.render(graph_analysis.to_dot(graph, nodes=_picture_nodes(graph, choice), title=title), "svg").decode()
    drawn = set(re.findall(r"<title>(op\d+)</title>", svg))  # Graphviz titles each node's group with its name
    lines = {n: (graph.nodes[n].get("line"), graph.nodes[n].get("text", "")) for n in graph.nodes if n in drawn}
    return Picture(svg, {n: v for n, v in lines.items() if v[1]})


def write_graph_exports(report, args) -> None:
    from irkit.analysis import graph as graph_analysis
    from irkit.report import DiffReport, ModuleReport

    wanted = [args.dot, args.graphml, args.graph_json, args.svg, args.png]
    if not any(wanted):
        return
    module = report.after if isinstance(report, DiffReport) else report
    if not isinstance(module, ModuleReport) or module.graph is None:
        raise CliError("graph exports (--dot, --graphml, --graph-json, --svg, --png) need a module or a before/after pair")
    graph = module.graph
    dot = graph_analysis.to_dot(graph, nodes=_picture_nodes(graph, args.picture), title=module.file)
    if args.dot:
        write_output(args.dot, dot)
    if args.graphml:
        write_output(args.graphml, graph_analysis.to_graphml(graph))
    if args.graph_json:
        write_output(args.graph_json, json.dumps(graph_analysis.to_json(graph), indent=1, default=str) + "\n")
    for path, fmt in ((args.svg, "svg"), (args.png, "png")):
        if path:
            try:
                data = graph_analysis.render(dot, fmt)
            except graph_analysis.RenderError as e:
                raise CliError(str(e)) from None
            write_output(path, data)


def write_html(report, args) -> None:
    from irkit.analysis import graph as graph_analysis
    from irkit.report import DiffReport, ModuleReport
    from irkit.report.html import render_html

    pictures: dict = {}
    missing = None
    graphs = []
    if isinstance(report, ModuleReport) and report.graph is not None:
        graphs = [("dataflow graph", report.graph, args.picture)]
    elif isinstance(report, DiffReport):
        graphs = [("before: " + report.before.file, report.before.graph, args.picture),
                  ("after: " + report.after.file, report.after.graph, args.picture)]
    if graphs:
        if graph_analysis.dot_available():
            try:
                for title, graph, choice in graphs:
                    pictures[title] = _picture(graph, choice, title)
            except graph_analysis.RenderError as e:
                missing = f"no picture: {e}"
        else:
            missing = "no picture: Graphviz 'dot' is not installed (apt-get install graphviz); use --dot to export the graph"
    write_output(args.html, render_html(report, pictures, missing))


def check_options(args) -> None:
    """Reject nonsense the report would otherwise silently accept."""
    if args.limit is not None and args.limit <= 0:
        raise CliError(f"--limit must be a positive number of bytes, got {args.limit}")
    if args.target is not None:
        from irkit.analysis.shared_memory import TARGETS, resolve_target

        if resolve_target(args.target) is None:
            names = ", ".join(TARGETS)
            triples = ", ".join(t.triple for t in TARGETS.values())
            raise CliError(f"unknown --target '{args.target}': expected one of {names} or a triple ({triples})")
    if args.triton_version is not None:
        parts = args.triton_version.strip().split(".")
        # a release, with the pre-release or local tag a wheel may carry on its patch (triton-xpu's "3.3.0b1")
        known = (len(parts) in (2, 3) and parts[0] == "3" and parts[1].isdigit() and 1 <= int(parts[1]) <= 9
                 and (len(parts) == 2 or re.match(r"\d+[A-Za-z0-9+]*$", parts[2]) is not None))
        if not known:
            raise CliError(f"bad Triton version '{args.triton_version}' (--triton-version): irkit models Triton 3.1 to 3.9")


def _gpu_host_inputs(args) -> bool:
    """MLIR GPU host files (seed 001) get the launch-cost report instead of the Triton one."""
    from irkit.analysis.launch_cost import is_gpu_host_text

    try:
        return all(is_gpu_host_text(Path(p).read_text()) for p in args.inputs)
    except (OSError, UnicodeDecodeError):
        return False


def run_gpu_host(args, spec: str | None) -> int:
    """One row per loop and launch site (irkit/report/launch_cost.py); with a pipeline, before and after."""
    from irkit.diagnostics import position
    from irkit.report import launch_cost

    reports = []
    for path in args.inputs:
        chunk = read_one(path, args)
        stages = [("before" if spec else "", chunk)]
        if spec:
            stages.append(("after " + spec, run_pipeline(chunk, build_pipeline(spec))))
        for label, c in stages:
            parsed = parse(c)

            def locate(op, parsed=parsed, c=c):
                pos = parsed.op_positions.get(op)
                if pos is None:
                    return f"{c.name}:?"
                line, col, _ = position(c.text, pos, c.line_offset)
                return f"{c.name}:{line}:{col}"

            r = launch_cost.build(parsed.module, c.name, locate)
            r["label"] = label
            reports.append(r)
    out = json.dumps(reports if len(reports) > 1 else reports[0], indent=2) + "\n" if args.json \
        else launch_cost.render_text(reports)
    driver.write_output(args.output, out)
    if args.html:
        driver.write_output(args.html, launch_cost.render_html(reports))
    return 0


def run(argv: list[str]) -> int:
    ap = build_arg_parser()
    args = driver.parse_command_line(ap, argv)
    check_options(args)
    spec = pipeline_spec(args)
    if args.list_sections:
        if len(args.inputs) != 1:
            raise CliError("--list-sections takes one dump log")
        read_one(args.inputs[0], args)  # prints the listing and exits
        raise CliError(f"'{args.inputs[0]}' is not an MLIR_ENABLE_DUMP log")
    if not args.inputs and not (args.screen and args.manifest):
        ap.print_usage(sys.stderr)
        raise CliError("no input (give a TTGIR file, a dump log or a Triton cache folder)")
    if args.manifest and not args.screen:
        raise CliError("--manifest is for --screen")
    failed = False
    if args.per_pass:
        if spec:
            raise CliError("--per-pass reads what the compiler did; it runs no passes")
        report = run_per_pass(args)
    elif args.screen:
        report, failed = run_screen(args, spec)
    elif _gpu_host_inputs(args):
        build_pipeline(spec)
        return run_gpu_host(args, spec)
    else:
        build_pipeline(spec)  # reject a bad pipeline before reading anything
        report = run_module_or_diff(args, spec)
    from irkit.report.text import render_text

    if args.json:
        out = json.dumps(report.to_dict(), indent=2, default=str) + "\n"
    else:
        out = render_text(report)
    write_output(args.output, out)
    if args.html:
        write_html(report, args)
    write_graph_exports(report, args)
    return 1 if failed else 0


def main(argv: list[str] | None = None) -> None:
    # on irkit.deep's large stack: the analyses walk regions recursively, as the front end does
    sys.exit(run_command("irkit-report", lambda a: run_deep(run, a), sys.argv[1:] if argv is None else argv,
                         (ReportFailed,)))


if __name__ == "__main__":
    main()
