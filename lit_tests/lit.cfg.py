# lit configuration for irkit's FileCheck tests: `lit lit_tests` (or pytest, via tests/test_lit.py).
import os
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

# Real IR shipped with the repository (tests/data/corpus).
corpus = os.path.abspath(os.path.join(config.test_source_root, "..", "tests", "data", "corpus"))
config.substitutions.append(("%corpus", corpus))
config.available_features.add("corpus")
