"""Facts about the repository itself that a newcomer relies on."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_ci_runs_the_readme_test_command():
    """.ci/run ends with exactly the command the README gives for running the tests."""
    readme = (ROOT / "README.md").read_text()
    section = readme[readme.index("Run the tests"):]
    command = re.search(r"```sh\n(.+?)\n```", section, re.S).group(1).strip()
    ci_lines = [line for line in (ROOT / ".ci" / "run").read_text().splitlines() if line and not line.startswith("#")]
    assert ci_lines[-1] == command
    assert "ruff check" in command and "pytest" in command


def test_tests_read_no_data_from_outside_the_repository():
    """A user's clone has nothing beside it: tests and lit tests read their real IR from tests/data."""
    outside = re.compile(r"\.\./shared|[\"']shared[\"']\s*/|/work/shared|shared/(corpus|seeds)")
    offenders = [
        str(path.relative_to(ROOT))
        for folder in ("tests", "lit_tests")
        for path in (ROOT / folder).rglob("*")
        if path.suffix in (".py", ".mlir", ".ttgir", ".ttir") and "data" not in path.relative_to(ROOT).parts
        and path != Path(__file__).resolve() and outside.search(path.read_text(errors="replace"))
    ]
    assert not offenders
