"""Run Triton's own lit tests with irkit-opt in place of triton-opt.

    python tools/run_upstream_lit.py /path/to/triton [test/TritonGPU/coalesce.mlir ...] [--filecheck BIN]

Takes a checkout (or an export of its test/ folder) of triton-lang/triton that you made; fetches
nothing and copies nothing into this repository.  Each test file is copied into a temporary folder
with one change, `triton-opt` -> `irkit-opt` on its RUN lines, and run by lit with upstream's
FileCheck setting (FILECHECK_OPTS=--enable-var-scope).  Standing in for triton-opt, irkit-opt names
values as triton-opt does (`IRKIT_MLIR_PRINT_TRITON_NAMES=1`: `%arg0`, `%0`, `%c0_i32`), since upstream's
CHECKs were written against that printer; `--input-names` keeps irkit's default (names as written).
The tree's release reaches irkit-opt as `IRKIT_TRITON_VERSION`, as in tools/upstream_runlines.py.
Then, for a file that fails, its RUN pipeline is run once more and every failing CHECK line is listed:
LLVM's FileCheck checks each CHECK-LABEL block on its own, so one failure does not hide the others.

Without test paths it runs the four files of issue 8: test/TritonGPU/coalesce.mlir,
test/Triton/rewrite-tensor-pointer.mlir, test/Analysis/test-allocation.mlir,
test/Analysis/test-alignment.mlir.  `--json FILE` writes the summary.
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

DEFAULT_TESTS = (
    "test/TritonGPU/coalesce.mlir",
    "test/Triton/rewrite-tensor-pointer.mlir",
    "test/Analysis/test-allocation.mlir",
    "test/Analysis/test-alignment.mlir",
)

LIT_CFG = """\
import os
import lit.formats

config.name = "triton-upstream-on-irkit"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir"]
config.test_source_root = os.path.dirname(__file__)
config.environment["PATH"] = {path!r}
config.environment["FILECHECK_OPTS"] = "--enable-var-scope"  # as Triton's test/lit.cfg.py
config.environment["IRKIT_MLIR_PRINT_TRITON_NAMES"] = {triton_names!r}
if {version!r}:
    config.environment["IRKIT_TRITON_VERSION"] = {version!r}
config.substitutions.append((r"(?<![\\w/.-])FileCheck(?![\\w/.-])", {filecheck!r}))
"""

RUN_LINE = re.compile(r"^\s*//\s*RUN:(.*)$")


def tree_version(root: Path) -> str | None:
    """`__version__` of the tree's python/triton/__init__.py, if the export has it."""
    init = root / "python" / "triton" / "__init__.py"
    if not init.is_file():
        return None
    found = re.search(r"^__version__\s*=\s*['\"]([^'\"]+)['\"]", init.read_text(), re.MULTILINE)
    return found.group(1) if found else None


def stand_in_env(env: dict[str, str], version: str | None, input_names: bool) -> dict[str, str]:
    """`env` for irkit-opt standing in for triton-opt: the tree's release (`IRKIT_TRITON_VERSION`, unset when
    unknown) and triton-opt's value names unless `input_names`."""
    out = dict(env, IRKIT_MLIR_PRINT_TRITON_NAMES="0" if input_names else "1")
    out.pop("IRKIT_TRITON_VERSION", None)
    if version:
        out["IRKIT_TRITON_VERSION"] = version
    return out


def llvm_filecheck() -> str | None:
    found = shutil.which("FileCheck")
    if found:
        return found
    versions = sorted(glob.glob("/usr/lib/llvm-*/bin/FileCheck"), key=lambda p: int(p.split("llvm-")[1].split("/")[0]))
    return versions[-1] if versions else None


def rewrite_run_lines(text: str) -> str:
    """`triton-opt` -> `irkit-opt` on RUN lines; nothing else changes."""
    out = []
    for line in text.splitlines(keepends=True):
        if RUN_LINE.match(line):
            line = re.sub(r"\btriton-opt\b", "irkit-opt", line)
        out.append(line)
    return "".join(out)


def run_commands(text: str) -> list[str]:
    """The RUN lines of a file joined at trailing backslashes."""
    commands, current = [], ""
    for line in text.splitlines():
        m = RUN_LINE.match(line)
        if not m:
            continue
        part = m.group(1).strip()
        if part.endswith("\\"):
            current += part[:-1] + " "
            continue
        commands.append(current + part)
        current = ""
    return commands


def failing_check_lines(test: Path, filecheck: str, env: dict) -> list[dict]:
    """Every CHECK line FileCheck reports for each RUN line that pipes into it."""
    failures = []
    for command in run_commands(test.read_text()):
        if "FileCheck" not in command:
            continue
        producer, _, checker = command.rpartition("|")
        producer = producer.replace("%s", str(test)).replace("%t", str(test) + ".tmp")
        checker = checker.replace("%s", str(test)).replace("FileCheck", filecheck, 1)
        if os.path.basename(filecheck) == "FileCheck":  # LLVM's: no input dump, only the errors
            checker += " --dump-input=never"
        proc = subprocess.run(f"{producer} | {checker}", shell=True, capture_output=True, text=True, env=env,
                              check=False)
        # LLVM: `file:line:col: error: CHECK: ...`; Python filecheck: `file:line: error: Couldn't match ...`;
        # irkit-opt's own diagnostics (a parse error) have the same form and are listed too
        lines = test.read_text().splitlines()
        for m in re.finditer(rf"^{re.escape(str(test))}:(\d+)(?::\d+)?: error: (.*)$", proc.stderr, re.MULTILINE):
            line = int(m.group(1))
            failures.append({"line": line, "check": lines[line - 1].strip(), "error": m.group(2)})
    return failures


def count_checks(text: str) -> int:
    return sum(1 for line in text.splitlines() if re.match(r"^\s*//\s*CHECK[\w-]*:", line))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], allow_abbrev=False)
    ap.add_argument("triton", help="a checkout of triton-lang/triton (the folder holding test/)")
    ap.add_argument("tests", nargs="*", help=f"test files relative to it (default: {', '.join(DEFAULT_TESTS)})")
    ap.add_argument("--filecheck", default=None, help="FileCheck binary (default: LLVM's if installed, else filecheck)")
    ap.add_argument("--json", default=None, metavar="FILE", help="write the summary as JSON")
    ap.add_argument("--keep", action="store_true", help="keep the temporary folder and print its path")
    ap.add_argument("--triton-version", default=None,
                    help="the release the tree targets (X.Y or main); default: the tree's python/triton/__init__.py")
    ap.add_argument("--input-names", action="store_true",
                    help="print value names as the input wrote them (irkit's default) instead of as triton-opt does")
    args = ap.parse_args(argv)

    root = Path(args.triton)
    tests = args.tests or list(DEFAULT_TESTS)
    bin_dir = os.path.dirname(sys.executable)
    filecheck = args.filecheck or llvm_filecheck() or shutil.which("filecheck", path=bin_dir) or "filecheck"
    path = bin_dir + os.pathsep + os.environ.get("PATH", "")
    version = args.triton_version or tree_version(root)
    env = stand_in_env(dict(os.environ, PATH=path, FILECHECK_OPTS="--enable-var-scope"), version, args.input_names)
    work = Path(tempfile.mkdtemp(prefix="upstream-lit-"))
    summary = {"triton": str(root), "filecheck": filecheck, "files": []}
    try:
        (work / "lit.cfg.py").write_text(LIT_CFG.format(path=path, filecheck=filecheck,
                                                        triton_names=env["IRKIT_MLIR_PRINT_TRITON_NAMES"], version=version))
        for rel in tests:
            src = root / rel
            if not src.is_file():
                print(f"missing: {src}", file=sys.stderr)
                return 1
            dst = work / rel.replace("/", "__")
            dst.write_text(rewrite_run_lines(src.read_text()))
        for rel in tests:
            dst = work / rel.replace("/", "__")
            proc = subprocess.run([sys.executable, "-c", "from lit.main import main; main()", "-q", str(dst)],
                                  capture_output=True, text=True, env=env, check=False)
            passed = proc.returncode == 0
            text = dst.read_text()
            failures = [] if passed else failing_check_lines(dst, filecheck, env)
            total = count_checks(text)
            entry = {"file": rel, "passed": passed, "check_lines": total,
                     "failing_check_lines": failures}
            summary["files"].append(entry)
            status = "PASS" if passed else f"FAIL ({len(failures)} of {total} CHECK lines reported)"
            print(f"{status:>40}  {rel}")
            for f in failures:
                print(f"      line {f['line']}: {f['check'][:110]}")
                print(f"          {f['error'][:150]}")
            if not passed and not failures:
                print("      " + (proc.stdout + proc.stderr).strip().replace("\n", "\n      ")[-2000:])
        n_pass = sum(1 for f in summary["files"] if f["passed"])
        print(f"{n_pass} of {len(summary['files'])} upstream files pass with irkit-opt (FileCheck: {filecheck})")
        if args.json:
            Path(args.json).write_text(json.dumps(summary, indent=1) + "\n")
        return 0 if n_pass == len(summary["files"]) else 1
    finally:
        if args.keep:
            print(f"kept: {work}", file=sys.stderr)
        else:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
