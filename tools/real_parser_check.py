"""Do the real Triton parsers read what irkit prints?  Figures per Triton version.

irkit's own round-trip checks re-read irkit's output with irkit; this asks the C++ parser (which also
verifies) of each real Triton instead.  Every input file is split on `// -----` lines (as
`--split-input-file`); each part irkit reads is printed in three forms: the default (triton-opt's
aliases, values as written), with triton-opt's value names, and generic with locations.

* A file under a `<version>/` folder (tests/data/kernels/3.1.0/..., the corpus's ir/3.9.0/...) was
  written by that Triton: only that version reads irkit's output of it.
* Any other file (Triton's own lit tests, hand-written IR) is tried with every version: a version
  counts the parts whose *input* it reads, and of those, how many of irkit's outputs it reads.

    python tools/real_parser_check.py --pythons 3.1.0=/work/.venv-triton31/bin/python,... FILE|DIR ...
    python tools/real_parser_check.py --json docs/printer-real-parsers.json tests/data/corpus/ir ...
    python tools/real_parser_check.py --positive --pythons 3.9.0=... <triton test/ folders> ...

With `--positive`, Triton's lit files are split and filtered as tools/upstream_chunks.py does: only the
chunks that expect no diagnostic.  For the parts a version does not read as input, the figures also say
whether that version reads irkit's default printout of them anyway (`input_refused_output_read`) or
refuses both (`both_refused`): such a part uses syntax that version does not have and is no fault of
irkit's printer.

(`--pythons` defaults to IRKIT_TRITON_PYTHONS, `VERSION=PYTHON` entries separated by ':'.)  Exit status 1
when a real parser rejects irkit's output of a part it accepts as input.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CHECKER = ROOT / "tests" / "real_triton_check.py"
FORMS = {"default": {}, "triton-names": {"mlir_value_names": True}, "generic": {"generic": True, "debuginfo": True}}
_VERSION_DIR = re.compile(r"^\d+\.\d+\.\d+(?:\w+)?$")
_NEGATIVE = re.compile(r"expected-(error|warning|remark|note)")  # the chunks tools/upstream_chunks.py leaves out


def parse_pythons(spec: str) -> dict[str, str]:
    out = {}
    for entry in filter(None, (e.strip() for e in re.split(r"[:,]", spec))):
        version, sep, python = entry.partition("=")
        if sep and Path(python).exists():
            out[version] = python
    return out


def input_files(args: list[str]) -> list[Path]:
    files: list[Path] = []
    for a in args:
        p = Path(a)
        if p.is_dir():
            files += sorted(q for q in p.rglob("*") if q.suffix in (".mlir", ".ttir", ".ttgir"))
        else:
            files.append(p)
    return files


def version_of(path: Path) -> str | None:
    for part in path.resolve().parts:
        if _VERSION_DIR.match(part):
            return part
    return None


def _first_error(diagnostics: str) -> str:
    """The first `error:` line of a parser's diagnostics, without its location."""
    line = next((ln for ln in diagnostics.splitlines() if "error:" in ln), diagnostics.strip()[:200])
    return re.sub(r"^.*?error: ", "", line)[:300]


def real_check(python: str, paths: list[str]) -> dict[str, str | None]:
    results: dict[str, str | None] = {}
    for i in range(0, len(paths), 400):  # keep the command line short
        proc = subprocess.run([python, str(CHECKER), "--isolate", *paths[i : i + 400]], capture_output=True,
                              text=True, timeout=3600, check=False)
        if proc.returncode != 0:
            raise RuntimeError(f"{python}: {proc.stderr[-2000:]}")
        results.update(json.loads(proc.stdout)["results"])
    return results


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("inputs", nargs="+", help="files or folders (.mlir/.ttir/.ttgir)")
    ap.add_argument("--pythons", default=os.environ.get("IRKIT_TRITON_PYTHONS", ""),
                    help="VERSION=PYTHON,... (default: IRKIT_TRITON_PYTHONS)")
    ap.add_argument("--json", type=Path, help="write the figures and every rejection here")
    ap.add_argument("--positive", action="store_true",
                    help="only the chunks that expect no diagnostic (as tools/upstream_chunks.py)")
    args = ap.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    from irkit.frontend.lexer import ParseError
    from irkit.frontend.parser import Parser, split_input_file
    from irkit.frontend.printer import print_module

    pythons = parse_pythons(args.pythons)
    if not pythons:
        ap.error("no Triton Python: give --pythons or set IRKIT_TRITON_PYTHONS")
    work = Path(tempfile.mkdtemp(prefix="irkit-real-parser-"))
    parts: list[dict] = []  # one per `// -----` part
    for path in input_files(args.inputs):
        text = path.read_text()
        chunks = split_input_file(text) if re.search(r"^// -----", text, re.MULTILINE) else [(text, 1)]
        for chunk, line in chunks:
            if not chunk.strip() or "module" not in chunk and "tt.func" not in chunk:
                continue
            if args.positive and _NEGATIVE.search(chunk):
                continue
            name = f"{len(parts):05d}"
            part = {"file": str(path), "line": line, "version": version_of(path), "outputs": {}}
            src = work / f"{name}.input.mlir"
            src.write_text(chunk)
            part["input"] = str(src)
            try:
                parsed = Parser(chunk, str(path)).parse()
                for form, kw in FORMS.items():
                    out = work / f"{name}.{form}.mlir"
                    out.write_text(print_module(parsed, **kw))
                    part["outputs"][form] = str(out)
            except (ParseError, RecursionError) as e:
                part["irkit_error"] = str(e)
            parts.append(part)
    report: dict = {"pythons": sorted(pythons), "versions": {}}
    failed = False
    for version, python in sorted(pythons.items()):
        mine = [p for p in parts if p["version"] in (None, version)]
        paths = [p["input"] for p in mine if p["version"] is None]
        paths += [o for p in mine for o in p["outputs"].values()]
        results = real_check(python, paths)
        row = {"parts": len(mine), "input_read": 0, "irkit_unreadable": 0, "forms": {f: 0 for f in FORMS},
               "input_refused_output_read": 0, "both_refused": 0, "both_refused_irkit_parse": 0, "rejected": [],
               "input_refused": []}
        for p in mine:
            if p["version"] is None and results[p["input"]] is not None:
                # this Triton does not read the input itself (newer or older syntax): no fault of the printer
                if "irkit_error" in p:  # irkit's parser refuses it too (as irkit-opt without --allow-unregistered-dialect)
                    row["both_refused_irkit_parse"] += 1
                    row["input_refused"].append({"file": p["file"], "line": p["line"], "printout_read": None,
                                                 "error": _first_error(results[p["input"]]),
                                                 "irkit_error": p["irkit_error"].splitlines()[0][:300]})
                elif "default" in p["outputs"]:
                    read_anyway = results[p["outputs"]["default"]] is None
                    row["input_refused_output_read" if read_anyway else "both_refused"] += 1
                    row["input_refused"].append({"file": p["file"], "line": p["line"], "printout_read": read_anyway,
                                                 "error": _first_error(results[p["input"]])})
                continue
            row["input_read"] += 1
            if "irkit_error" in p:
                failed = True
                row["irkit_unreadable"] += 1
                row["rejected"].append({"file": p["file"], "line": p["line"], "form": "irkit parse",
                                        "error": p["irkit_error"][:500]})
                continue
            for form, out in p["outputs"].items():
                if results[out] is None:
                    row["forms"][form] += 1
                else:
                    failed = True
                    row["rejected"].append({"file": p["file"], "line": p["line"], "form": form,
                                            "error": results[out][-800:]})
        report["versions"][version] = row
        forms = ", ".join(f"{f} {n}" for f, n in row["forms"].items())
        print(f"Triton {version}: {row['input_read']} of {row['parts']} parts readable by it as input; "
              f"irkit's output read: {forms}; irkit could not read {row['irkit_unreadable']}; "
              f"input refused: {row['both_refused']} with irkit's printout, "
              f"{row['both_refused_irkit_parse']} by irkit's parser too, "
              f"{row['input_refused_output_read']} while the printout is read")
        for r in row["rejected"][:10]:
            print(f"  {r['file']}:{r['line']} [{r['form']}] {r['error'].strip().splitlines()[0][:200]}")
    if args.json:
        args.json.write_text(json.dumps(report, indent=1) + "\n")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
