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


def _code_outside_front_end():
    for folder in ("irkit", "passes"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            if path.relative_to(ROOT).parts[:2] not in (("irkit", "dialects"), ("irkit", "frontend")):
                yield path, path.read_text()


def test_layouts_are_read_through_typed_properties():
    """Outside the dialects and the front end, layout parameters are read as `enc.warps_per_cta`, never by
    the key Triton prints (`enc.get("warpsPerCTA")`).  Only keys that are no plain word are looked for:
    `.get("parent")` may well be a dictionary."""
    from irkit.dialects.encodings import STRUCT_LAYOUTS

    keys = sorted({f.key for cls in STRUCT_LAYOUTS for f in cls.LAYOUT_FIELDS if f.key != f.key.lower()})
    by_key = re.compile(r"""\.(get\(|values\(\)\[)["'](""" + "|".join(keys) + r""")["']""")
    offenders = [f"{path.relative_to(ROOT)}: {m.group(0)}" for path, text in _code_outside_front_end() for m in by_key.finditer(text)]
    assert not offenders


def test_ops_are_matched_by_class():
    """Analyses and passes compare no op's name with a literal op name (`op.name == "tt.load"`).  The line
    scanner that counts ops in text without parsing it (irkit/analysis/opcount.py) has only names."""
    by_name = re.compile(r"""\bname\s*(==|!=|\bin\b|\bnot in\b)\s*[("'{\[]*\s*["'](tt|ttg|ttng|ttig|amdg|scf|arith|math|func|cf)\.[a-z_]+["']""")
    offenders = [f"{path.relative_to(ROOT)}: {m.group(0)}" for path, text in _code_outside_front_end()
                 if path.name != "opcount.py" for m in by_name.finditer(text)]
    assert not offenders


def test_docs_the_code_cites_are_in_the_repository():
    """A comment or docstring that names a page under docs/ names one a clone has."""
    cited = re.compile(r"\bdocs/[\w./-]+?\.md\b")
    missing = sorted({
        f"{path.relative_to(ROOT)}: {m.group(0)}"
        for folder in ("irkit", "passes", "tools", "tests", "bench")
        for path in (ROOT / folder).rglob("*.py")
        for m in cited.finditer(path.read_text())
        if not (ROOT / m.group(0)).exists()
    })
    assert not missing
