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
