# lit configuration for irkit's FileCheck tests: `lit lit_tests` (or pytest, via tests/test_lit.py).
#
# FileCheck: RUN lines write `FileCheck` (as MLIR's and Triton's do); it is the Python `filecheck`
# package unless FILECHECK names another binary, as a lit parameter (`lit -D FILECHECK=...`) or an
# environment variable (FILECHECK=/usr/lib/llvm-14/bin/FileCheck).  Our files pass under both.
import os
import shutil
import sys

import lit.formats

config.name = "irkit"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir", ".ttgir", ".ttir"]
config.test_source_root = os.path.dirname(__file__)
config.excludes = ["Inputs", "lit.cfg.py"]

# irkit-opt and filecheck come from the Python environment running lit.
bin_dir = os.path.dirname(sys.executable)
config.environment["PATH"] = bin_dir + os.pathsep + os.environ.get("PATH", "")
config.environment["PYTHONHASHSEED"] = "0"

filecheck = lit_config.params.get("FILECHECK") or os.environ.get("FILECHECK") or "filecheck"
found = shutil.which(filecheck, path=config.environment["PATH"])
if found is None:
    lit_config.fatal(f"FileCheck binary '{filecheck}' not found (FILECHECK=)")
# `FileCheck` (and the package's own name `filecheck`, as a command) run the chosen one
config.substitutions.append((r"(?<![\w/.-])(?:FileCheck|filecheck)(?![\w/.-])", found))
config.available_features.add("llvm-filecheck" if "filecheck" != os.path.basename(found) else "python-filecheck")
lit_config.note(f"FileCheck: {found}")

# Real IR from the shared corpus, when the checkout has it beside it.
corpus = os.path.abspath(os.path.join(config.test_source_root, "..", "..", "shared", "corpus"))
config.substitutions.append(("%corpus", corpus))
if os.path.isdir(corpus):
    config.available_features.add("corpus")
