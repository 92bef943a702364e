"""Errors and listings speak the command line's language: option names with dashes, values as they are
written in a pipeline, filters by the flag that was given. No Python spellings (`loads_only`,
`<class 'bool'>`, `('all',)`) reach the user."""

import dataclasses
import re

import pytest
from frontend_corpus import CORPUS
from test_cli import assert_tool_error, run

from irkit.cli.report import main as report_main

KERNEL = "examples/addmm_gfx942_256x256.ttgir"
PYTHON_SPELLINGS = re.compile(r"<class |\('|_only|_bytes|_run|_unchanged|=None\b")


@pytest.mark.parametrize(
    "flag, message",
    [
        ("--propagate-mma=loads-only=maybe", "option 'loads-only' of pass 'propagate-mma' expects true or false, got 'maybe'"),
        ("--propagate-mma=min-bytes=x", "option 'min-bytes' of pass 'propagate-mma' expects an integer, got 'x'"),
        ("--coalesce=skip-unchanged=2", "option 'skip-unchanged' of pass 'coalesce' expects true or false, got '2'"),
        ("--propagate-mma=bogus=1", "pass 'propagate-mma' has no option 'bogus' (its options: "),
        ("--propagate-mma=loads_only=maybe", "option 'loads-only' of pass 'propagate-mma' expects true or false"),
    ],
)
def test_bad_pass_option(flag, message):
    result = run([KERNEL, flag])
    assert_tool_error(result, message)
    assert not PYTHON_SPELLINGS.search(result.err.split("': ", 1)[1]), result.err


def test_unknown_option_lists_the_options_with_dashes():
    from irkit.passes import all_passes

    fields = [f.name for f in dataclasses.fields(all_passes()["propagate-mma"]) if f.name != "name"]
    assert "loads_only" in fields
    listed = ", ".join(f.replace("_", "-") for f in fields)
    assert_tool_error(run([KERNEL, "--propagate-mma=bogus=1"]), f"(its options: {listed})")


def test_good_options_still_reach_the_pass():
    assert run([KERNEL, "--propagate-mma=loads-only=true min-bytes=0 targets=mfma,all"]).code == 0


def test_list_passes_writes_defaults_as_a_pipeline_would():
    listing = run(["--list-passes"]).out
    line = next(line for line in listing.splitlines() if "--propagate-mma" in line)
    options = line[line.rindex("[") + 1 : line.rindex("]")].split()
    assert {"loads-only=false", "min-bytes=0", "targets=all"} <= set(options)
    assert not PYTHON_SPELLINGS.search(listing)


def test_screen_says_when_no_manifest_row_matches(capsys):
    with pytest.raises(SystemExit) as e:
        report_main(["--screen", "--manifest", str(CORPUS / "manifest.jsonl"), "--where", "target=hip:gfx1100"])
    assert e.value.code == 1
    assert "no manifest row matches --where target=hip:gfx1100" in capsys.readouterr().err


@pytest.mark.parametrize(
    "argv, meant",
    [
        (["--propgate-mma"], "did you mean '--propagate-mma'?"),
        (["-split-inptu-file"], "did you mean '--split-input-file'?"),
        (["-p", "coalsce"], "unknown pass 'coalsce'; did you mean 'coalesce'?"),
        (["--mlir-print-ir-after=propagate-mm"], "did you mean 'propagate-mma'?"),
    ],
)
def test_a_mistyped_pass_or_flag_gets_did_you_mean(argv, meant):
    assert_tool_error(run([KERNEL, *argv]), meant)


def test_nothing_close_gets_no_guess():
    result = run([KERNEL, "--zzz"])
    assert_tool_error(result, "unrecognized arguments: --zzz")
    assert "did you mean" not in result.err


@pytest.mark.parametrize(
    "main, argv, meant",
    [
        ("irkit.cli.report", ["--pass-pipelin", "coalesce", KERNEL], "did you mean '--pass-pipeline'?"),
        ("irkit.sweep.cli", ["--timout", "3", "-o", "x.csv", KERNEL], "did you mean '--timeout'?"),
        ("irkit.check.cli", ["-p", "coalesce", "--jsn", KERNEL], "did you mean '--json'?"),
        ("irkit.check.cli", ["-p", "propgate-mma", KERNEL], "did you mean 'propagate-mma'?"),
    ],
)
def test_the_other_tools_say_did_you_mean(main, argv, meant, capsys):
    import importlib

    with pytest.raises(SystemExit) as exited:
        importlib.import_module(main).main(argv)
    code, err = exited.value.code, capsys.readouterr().err
    assert code == 1 and ": error: " in err and meant in err, err
