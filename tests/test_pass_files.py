"""Every pass comes with its lit test and its doc page, and tools/new_pass.py makes such a pass in one
command: listed by irkit-opt, passing its lit test, documented, lint-clean."""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from irkit.passes import all_passes

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent


def _lit_runs_pass(text: str, name: str) -> bool:
    runs = [line for line in text.splitlines() if line.startswith("// RUN:")]
    return any(re.search(rf"(--{re.escape(name)}\b|['\"{{(,]{re.escape(name)}\b)", run) for run in runs)


def _missing_files(name: str, root: Path = ROOT) -> list[str]:
    missing = []
    lit = root / "lit_tests" / "passes" / f"{name}.mlir"
    if not lit.is_file():
        missing.append(f"lit_tests/passes/{name}.mlir")
    elif not _lit_runs_pass(lit.read_text(), name):
        missing.append(f"a RUN line running {name} in lit_tests/passes/{name}.mlir")
    doc = root / "docs" / "passes" / f"{name}.md"
    if not doc.is_file():
        missing.append(f"docs/passes/{name}.md")
    elif not re.search(r"^## .*(mirrors|C\+\+)", doc.read_text(), re.M):
        missing.append(f"a section naming the C++ pass it mirrors in docs/passes/{name}.md")
    return missing


@pytest.mark.parametrize("name", sorted(all_passes()))
def test_every_pass_has_a_lit_test_and_a_doc_page(name):
    assert not _missing_files(name)


def test_the_check_sees_a_missing_lit_file_and_doc_page(tmp_path):
    (tmp_path / "lit_tests" / "passes").mkdir(parents=True)
    (tmp_path / "docs" / "passes").mkdir(parents=True)
    assert _missing_files("coalesce", tmp_path) == ["lit_tests/passes/coalesce.mlir", "docs/passes/coalesce.md"]
    (tmp_path / "lit_tests" / "passes" / "coalesce.mlir").write_text("// RUN: irkit-opt %s --canonicalize\n")
    (tmp_path / "docs" / "passes" / "coalesce.md").write_text("# coalesce\n\n## Options\n")
    assert len(_missing_files("coalesce", tmp_path)) == 2


def _run(*argv: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PATH=f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}")
    return subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, timeout=300, env=env)


def test_new_pass_scaffold_is_listed_tested_and_documented():
    name = f"scaffold-selftest-{os.getpid()}"
    module = name.replace("-", "_")
    made = [ROOT / "passes" / f"{module}.py", ROOT / "lit_tests" / "passes" / f"{name}.mlir",
            ROOT / "docs" / "passes" / f"{name}.md"]
    try:
        result = _run(sys.executable, "tools/new_pass.py", name)
        assert result.returncode == 0, result.stderr
        assert all(p.is_file() for p in made)
        assert not _missing_files(name)
        listed = _run(str(BIN / "irkit-opt"), "--list-passes")
        assert re.search(rf"^\s+--{name}\s", listed.stdout, re.M), listed.stdout
        lit = _run(str(BIN / "lit"), "-v", f"lit_tests/passes/{name}.mlir")
        assert lit.returncode == 0 and "Passed: 1" in lit.stdout, lit.stdout + lit.stderr
        lint = _run(str(BIN / "ruff"), "check", str(made[0]))
        assert lint.returncode == 0, lint.stdout
        again = _run(sys.executable, "tools/new_pass.py", name)
        assert again.returncode == 2 and "exists" in again.stderr
    finally:
        for path in [*made, *(ROOT / "passes" / "__pycache__").glob(f"{module}.*.pyc")]:
            path.unlink(missing_ok=True)
        shutil.rmtree(ROOT / "lit_tests" / "passes" / "Output" / f"{name}.mlir.script", ignore_errors=True)


@pytest.mark.parametrize("bad", ["Coalesce", "new_pass", "9lives", "two--dashes"])
def test_new_pass_rejects_names_that_are_not_pass_names(bad):
    result = _run(sys.executable, "tools/new_pass.py", bad)
    assert result.returncode == 2 and "is not a pass name" in result.stderr


def test_new_pass_never_overwrites():
    result = _run(sys.executable, "tools/new_pass.py", "coalesce")
    assert result.returncode == 2 and "passes/coalesce.py exists" in result.stderr
