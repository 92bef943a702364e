"""Errors and listings speak the command line's language: option names with dashes, values as they are
written in a pipeline, filters by the flag that was given. No Python spellings (`loads_only`,
`<class 'bool'>`, `('all',)`) reach the user."""

import re

import pytest
from frontend_corpus import CORPUS
from test_cli import assert_tool_error, run

from irkit.cli.report import main as report_main

KERNEL = "examples/addmm_gfx942_256x256.ttgir"
PYTHON_SPELLINGS = re.compile(r"<class |\('|_only|_bytes|_run|_unchanged")


@pytest.mark.parametrize(
    "flag, message",
    [
        ("--propagate-mma=loads-only=maybe", "option 'loads-only' of pass 'propagate-mma' expects true or false, got 'maybe'"),
        ("--propagate-mma=min-bytes=x", "option 'min-bytes' of pass 'propagate-mma' expects an integer, got 'x'"),
        ("--coalesce=skip-unchanged=2", "option 'skip-unchanged' of pass 'coalesce' expects true or false, got '2'"),
        ("--propagate-mma=bogus=1",
         "pass 'propagate-mma' has no option 'bogus' (its options: loads-only, min-bytes, dry-run, targets)"),
        ("--propagate-mma=loads_only=maybe", "option 'loads-only' of pass 'propagate-mma' expects true or false"),
    ],
)
def test_bad_pass_option(flag, message):
    result = run([KERNEL, flag])
    assert_tool_error(result, message)
    assert not PYTHON_SPELLINGS.search(result.err.split("': ", 1)[1]), result.err


def test_good_options_still_reach_the_pass():
    assert run([KERNEL, "--propagate-mma=loads-only=true min-bytes=0 targets=mfma,all"]).code == 0


def test_list_passes_writes_defaults_as_a_pipeline_would():
    listing = run(["--list-passes"]).out
    line = next(line for line in listing.splitlines() if "--propagate-mma" in line)
    assert line.endswith("[loads-only=false min-bytes=0 dry-run=false targets=all]")
    assert not PYTHON_SPELLINGS.search(listing)


def test_screen_says_when_no_manifest_row_matches(capsys):
    with pytest.raises(SystemExit) as e:
        report_main(["--screen", "--manifest", str(CORPUS / "manifest.jsonl"), "--where", "target=hip:gfx1100"])
    assert e.value.code == 1
    assert "no manifest row matches --where target=hip:gfx1100" in capsys.readouterr().err
