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

# Real Tritons for the RUN lines that compile (propagate-mma{profit=compiled}): $IRKIT_TRITON_PYTHON, and the
# entries of $IRKIT_TRITON_PYTHONS ("3.6.0=/path/python:...", as tests/ reads them).  Each gives the feature
# `triton-MAJOR.MINOR` and the substitution `%python-triton-MAJOR.MINOR`, for
# `env IRKIT_TRITON_PYTHON=%python-triton-3.6 irkit-opt ...`.
triton_pythons = []
if os.environ.get("IRKIT_TRITON_PYTHON"):
    triton_pythons.append(("", os.environ["IRKIT_TRITON_PYTHON"]))
for entry in filter(None, os.environ.get("IRKIT_TRITON_PYTHONS", "").split(":")):
    version, _, python = entry.partition("=")
    triton_pythons.append((version.strip(), python.strip()))
for version, python in triton_pythons:
    if not os.access(python, os.X_OK):
        continue
    if not version:
        from irkit.check.static import installed_triton_version

        try:
            version = installed_triton_version(python)
        except Exception:  # noqa: BLE001 - no usable Triton there: no feature
            continue
    major_minor = ".".join(version.split(".")[:2])
    if f"triton-{major_minor}" not in config.available_features:
        config.available_features.add(f"triton-{major_minor}")
        config.substitutions.append((f"%python-triton-{major_minor}", python))

# The tool the RUN lines call `irkit-opt`: `lit -D IRKIT_OPT='irkit-ref --triton-python PY' ...` runs the same
# files against the C++ passes the prototypes mirror (docs/porting.md); the feature `reference` is then set,
# for the RUN lines (`%if !reference %{ ... %}`) whose options have no C++ counterpart.
irkit_opt = lit_config.params.get("IRKIT_OPT")
if irkit_opt:
    config.substitutions.insert(0, (r"(?<![\w/.-])irkit-opt(?![\w/.-])", irkit_opt))
    config.available_features.add("reference")
    lit_config.note(f"irkit-opt: {irkit_opt}")
