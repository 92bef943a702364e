"""Run, one by one, the RUN lines of Triton's lit files whose pipeline irkit-opt can run alone.

    python tools/upstream_runlines.py /path/to/triton [--json FILE]

Takes a checkout (or an export of its test/ folder) of triton-lang/triton that you made, like
tools/run_upstream_lit.py (whose RUN-line handling it reuses), and copies nothing into this repository.
It picks every RUN line outside Conversion, LLVMIR, Proton and Gluon that calls `triton-opt` with one of
the passes below and nothing but those passes and driver flags, runs it with `irkit-opt` in place of
`triton-opt` (`%s` the file, FileCheck with upstream's --enable-var-scope), and reports which pass.

The RUN lines do not say which Triton release their tree targets, and the `ttg.*` spelling cannot tell 3.3
from 3.9, so the runs get it the way a user's shell would give it: `IRKIT_TRITON_VERSION`, which irkit-opt
reads as the default of `--triton-version`.  It is `--triton-version` when given (`main` for a commit of
upstream main past the newest release), else the `__version__` of the tree's python/triton/__init__.py
when the export has it, else unset.  Standing in for triton-opt, irkit-opt also names values as triton-opt
does (`IRKIT_MLIR_PRINT_TRITON_NAMES=1`, the default of `--mlir-print-triton-names`), since upstream's CHECKs
were written against that printer; `--input-names` keeps irkit's default, names as the input wrote them.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run_upstream_lit import llvm_filecheck, run_commands, stand_in_env, tree_version  # noqa: E402

PASSES = ("tritongpu-coalesce", "triton-rewrite-tensor-pointer", "test-print-alignment", "test-print-allocation",
          "canonicalize", "cse")
DRIVER_FLAGS = ("split-input-file", "mlir-disable-threading", "allow-unregistered-dialect", "verify-diagnostics",
                "o", "mlir-print-debuginfo")
SKIP_DIRS = re.compile(r"/(Conversion|LLVMIR|Proton|Gluon)/")


def selected(command: str) -> bool:
    if "triton-opt" not in command or "split-file" in command or "%t/" in command:
        return False  # `%t/x.mlir` inputs come from an earlier split-file RUN line
    producer = command.split("|")[0].split("triton-opt", 1)[1]
    flags = re.findall(r"(?<!\S)--?([\w-]+)", producer)
    return any(f in PASSES for f in flags) and all(f in PASSES or f in DRIVER_FLAGS for f in flags)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("triton")
    ap.add_argument("--json", default=None)
    ap.add_argument("--triton-version", default=None,
                    help="the release the tree targets (X.Y or main); default: the tree's python/triton/__init__.py")
    ap.add_argument("--input-names", action="store_true",
                    help="print value names as the input wrote them (irkit's default) instead of as triton-opt does")
    args = ap.parse_args(argv)
    root = Path(args.triton)
    version = args.triton_version or tree_version(root)
    bin_dir = os.path.dirname(sys.executable)
    filecheck = llvm_filecheck() or shutil.which("filecheck", path=bin_dir) or "filecheck"
    env = stand_in_env(dict(os.environ, PATH=bin_dir + os.pathsep + os.environ.get("PATH", ""),
                            FILECHECK_OPTS="--enable-var-scope"), version, args.input_names)
    print(f"Triton version of the tree: {version or '(unknown: irkit-opt reads it from the spelling)'}")
    rows = []
    with tempfile.TemporaryDirectory(prefix="upstream-runlines-") as tmp:
        for path in sorted(root.glob("test/**/*.mlir")):
            rel = str(path.relative_to(root))
            if SKIP_DIRS.search("/" + rel):
                continue
            for command in run_commands(path.read_text()):
                if not selected(command):
                    continue
                shell = command.replace("%s", str(path)).replace("%t", os.path.join(tmp, "out"))
                shell = re.sub(r"\btriton-opt\b", "irkit-opt", shell)
                shell = re.sub(r"(?<![\w/.-])FileCheck(?![\w/.-])", filecheck, shell)
                proc = subprocess.run(shell, shell=True, capture_output=True, text=True, env=env, check=False)
                ok = proc.returncode == 0
                rows.append({"file": rel, "run": command, "passed": ok,
                             "first_error": "" if ok else next((ln for ln in proc.stderr.splitlines()
                                                               if "error" in ln), proc.stderr[-200:])[:300]})
                print(f"{'PASS' if ok else 'FAIL'}  {rel}  ::  {command[:110]}")
    n = sum(r["passed"] for r in rows)
    print(f"{n} of {len(rows)} RUN lines pass with irkit-opt (FileCheck: {filecheck})")
    if args.json:
        Path(args.json).write_text(json.dumps({"triton": str(root), "triton_version": version,
                                               "value_names": "input" if args.input_names else "triton-opt",
                                               "filecheck": filecheck, "run_lines": rows},
                                              indent=1) + "\n")
    return 0 if n == len(rows) else 1


if __name__ == "__main__":
    sys.exit(main())
