"""irkit-report: module, diff, per-pass and screen reports, their text/JSON/HTML forms and the CLI."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from irkit.analysis import graph
from irkit.cli import report as cli
from irkit.frontend import dumplog
from irkit.frontend.parser import Parser
from irkit.report import (
    ScreenEntry,
    build_diff_report,
    build_module_report,
    build_per_pass_report,
    build_screen_report,
)
from irkit.report.html import render_html
from irkit.report.text import render_text

DATA = Path(__file__).parent / "data" / "report"
BEFORE = DATA / "epilogue_before.ttgir"
AFTER = DATA / "epilogue_after.ttgir"


def _rows(corpus: Path) -> list[dict]:
    return [json.loads(line) for line in (corpus / "manifest.jsonl").read_text().splitlines() if line.strip()]


def _report(path: Path, version: str | None = None, **kw):
    return build_module_report(Parser(path.read_text(), str(path)).parse(), version=version, **kw)


def _check_schema(d: dict) -> None:
    d = json.loads(json.dumps(d))  # what --json prints
    assert isinstance(d["shared_bytes"], int) and not isinstance(d["shared_bytes"], bool)
    assert isinstance(d["converts"], list)
    for c in d["converts"]:
        assert isinstance(c["bytes"], int) and isinstance(c["shape"], list)
        assert {"src_layout", "dst_layout", "element_type", "needs_shared", "line", "loc"} <= set(c)


def _run(argv: list[str], capsys) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as e:
        cli.main(argv)
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return e.value.code, out, err


# -- every mode on every corpus file -------------------------------------------------------------------


def test_every_report_mode_on_every_corpus_file(corpus):
    """Each TTGIR of the corpus, parsed once: module report checked against the manifest (converts,
    their layouts, local_allocs, the compiler's shared bytes and OutOfResources status), rendered as
    text, JSON and HTML, diffed against itself, exported as a graph; then all of them screened."""
    entries = []
    for row in _rows(corpus):
        rel = (row.get("files") or {}).get("ttgir")
        if not rel:
            continue
        path = corpus / rel
        r = _report(path, version=row["triton_version"])
        where = f"{rel}"
        assert len(r.converts) == row["convert_layout"], where
        got = [(c.type_text, c.src_layout, c.dst_layout) for c in r.converts]
        want = [(x["src_type"], x["src_layout"], x["dst_layout"]) for x in row["convert_layouts"]]
        assert got == want, where
        assert len(r.local_allocs) == row["local_alloc"], where
        assert r.shared_bytes == row["shared"], where
        assert r.fits is (row["status"] != "out_of_resources"), where
        assert r.limit == row["max_shared_ref"], where
        _check_schema(r.to_dict())
        assert f"convert_layout: {len(r.converts)}" in render_text(r)
        assert render_html(r).startswith("<!DOCTYPE html>")
        same = build_diff_report(r, r)
        assert same.converts_eliminated == 0 and same.bytes_saved == 0 and not same.removed and not same.added
        _check_schema(same.to_dict())
        assert "converts eliminated: 0" in render_text(same)
        render_html(same)
        assert graph.to_dot(r.graph).count(" -> ") >= r.graph.number_of_edges()
        json.dumps(graph.to_json(r.graph))
        if len(entries) % 10 == 0:  # GraphML writing is slow; a sample is enough
            assert graph.to_graphml(r.graph).count("<node ") == r.graph.number_of_nodes()
        entries.append(ScreenEntry(f"{row['id']} {row['triton_version']} {row['target']}", str(path), r))
    assert len(entries) > 90
    screen = build_screen_report(entries)
    d = screen.to_dict()
    _check_schema(d)
    oor = sum(1 for row in _rows(corpus) if row["status"] == "out_of_resources" and (row.get("files") or {}).get("ttgir"))
    assert len(d["exceeding"]) == oor
    assert f"{len(screen.exceeding)} exceed" in render_text(screen)
    render_html(screen)


# -- diff ----------------------------------------------------------------------------------------------


def test_diff_of_hand_made_pair():
    before, after = _report(BEFORE), _report(AFTER)
    d = build_diff_report(before, after)
    assert d.converts_eliminated == 2
    assert [(c.src_layout, c.dst_layout, c.line) for c in d.removed] == [("#mma", "#blocked", 12), ("#blocked", "#mma", 16)]
    assert d.added == []
    assert before.shared_bytes == 66560 and after.shared_bytes == 0
    assert d.bytes_saved == 66560
    own = d.own_verdict
    assert own.name == "MI300X" and not own.before_fits and own.after_fits and own.change == "now fits"
    j = d.to_dict()
    _check_schema(j)
    assert j["verdict_change"] == "now fits" and j["converts_eliminated"] == 2
    text = render_text(d)
    assert "converts eliminated: 2; shared bytes saved: 66,560; MI300X: now fits" in text


def test_diff_matches_conversions_by_definition_not_alias(tmp_path):
    # renaming the aliases changes nothing: same conversions, nothing removed or added
    renamed = BEFORE.read_text().replace("#blocked", "#b0").replace("#mma", "#m0")
    p = tmp_path / "renamed.ttgir"
    p.write_text(renamed)
    d = build_diff_report(_report(BEFORE), _report(p))
    assert d.removed == [] and d.added == [] and d.bytes_saved == 0


def _have_pass(name: str) -> bool:
    from irkit.passes import all_passes

    return name in all_passes()


@pytest.mark.skipif(not _have_pass("propagate-mma"), reason="propagate-mma is not registered")
def test_diff_against_pipeline(corpus, capsys):
    f = corpus / "ir/3.1.0/hip_gfx942/matmul_addmm__bf16__BM256_BN256_BK32_G8__w8_s0.ttgir"
    code, out, err = _run([str(f), "--propagate-mma", "--json"], capsys)
    assert code == 0, err
    d = json.loads(out)
    assert d["pipeline"] == "propagate-mma"
    assert d["converts_before"] == 2 and d["shared_bytes_before"] == 66560
    assert d["converts_eliminated"] == d["converts_before"] - d["converts_after"]
    assert d["bytes_saved"] == d["shared_bytes_before"] - d["shared_bytes"]
    # the after module's lines refer to the printed result, and its sources survive the pipeline
    assert all(c["loc"] for c in d["after"]["converts"])


# -- per pass -------------------------------------------------------------------------------------------


def _dump_dirs(corpus: Path) -> list[Path]:
    return sorted(p.parent for p in (corpus / "dumps").glob("*/*/*/sections.json"))


def test_per_pass_rows_on_every_corpus_log(corpus):
    dirs = _dump_dirs(corpus)
    assert dirs
    for d in dirs:
        log = d / "mlir_dump.full.txt.gz"
        sections = dumplog.split_sections(dumplog.read_text(log))
        ref = json.loads((d / "sections.json").read_text())
        report = build_per_pass_report(sections, name=str(log))
        assert len(report.rows) == len(sections) == len(ref["sections"]), d
        allocated = False
        for row, s, r in zip(report.rows, sections, ref["sections"]):
            assert row.pass_class == r["pass"]
            assert row.converts == len(re.findall(r"^\s*(?:%\S+ = )?(?:ttg|triton_gpu)\.convert_layout\b", s.text, re.M))
            assert (row.stage == "llvm") == r["has_llvm_func"]
            # the compiler's figure appears once allocate-shared-memory has run, and is the kernel's
            assert row.recorded_shared == (ref["info"]["shared"] if allocated else None), (d, row.index)
            allocated = allocated or row.pass_class.startswith("AllocateSharedMemory")
            if row.shared is not None and row.recorded_shared is not None:
                assert row.shared == row.recorded_shared, (d, row.index)  # the model agrees with the compiler
        # what each pass did is read off the next section; the last pass's output was not dumped
        for row, nxt, s, s2 in zip(report.rows, report.rows[1:], sections, sections[1:]):
            assert row.changed == (s.text != s2.text)
            assert row.converts_delta == nxt.converts - row.converts
        assert report.rows[-1].changed is None
        _check_schema(report.to_dict())
        assert render_text(report).count("\n") >= len(sections) + 2
        assert "<svg" in render_html(report)


def test_per_pass_on_the_31_add_matrix_log(corpus, capsys):
    (log,) = (corpus / "dumps/3.1.0/cuda_80").glob("matmul_addmm_bp__*/mlir_dump.full.txt.gz")
    code, out, err = _run(["--per-pass", str(log), "--json"], capsys)
    assert code == 0, err
    d = json.loads(out)
    assert len(d["sections"]) == 44
    assert d["triton_version"] == "3.1"
    row = next(r for r in _rows(corpus) if r["id"] == log.parent.name and r["triton_version"] == "3.1.0" and r["target"] == "cuda:80")
    assert d["shared_bytes"] == row["shared"]
    # the model's prediction for the last TritonGPU section equals what the compiler recorded after it
    last = [s for s in d["sections"] if s["stage"] == "ttgir"][-1]
    assert last["shared"] == last["recorded_shared"] == row["shared"]
    # none in TTIR; ConvertTritonToTritonGPU makes the first ones; the last TritonGPU module has the
    # conversions of the kernel's final TTGIR
    to_gpu = next(s for s in d["sections"] if s["pass_class"] == "ConvertTritonToTritonGPU")
    assert to_gpu["stage"] == "ttir" and to_gpu["converts"] == 0
    assert d["sections"][to_gpu["index"] + 1]["converts"] > 0
    assert last["converts"] == len(d["converts"]) == row["convert_layout"]


# -- screen ---------------------------------------------------------------------------------------------


def test_screen_gfx942_31_add_matrix_variants(corpus, capsys):
    argv = ["--screen", "--manifest", str(corpus / "manifest.jsonl"), "--where", "target=hip:gfx942",
            "--where", "triton_version=3.1.0", "--where", "kernel~matmul_addmm", "--json"]
    code, out, err = _run(argv, capsys)
    assert code == 0, err
    d = json.loads(out)
    _check_schema(d)
    rows = [r for r in _rows(corpus) if r["target"] == "hip:gfx942" and r["triton_version"] == "3.1.0" and "matmul_addmm" in r["kernel"]]
    assert len(d["configs"]) == len(rows)
    over = {c["name"] for c in d["configs"] if c["fits"] is False}
    assert len(over) == sum(1 for r in rows if r["status"] == "out_of_resources") > 0
    for c in d["configs"]:
        assert c["limit"] == 65536
        if c["name"] in over:
            assert c["shared_bytes"] > 65536 and c["converts"] == 2


@pytest.mark.skipif(not _have_pass("propagate-mma"), reason="propagate-mma is not registered")
def test_screen_with_pipeline_finds_the_configs_it_rescues(corpus, capsys):
    argv = ["--screen", "--manifest", str(corpus / "manifest.jsonl"), "--where", "target=hip:gfx942",
            "--where", "triton_version=3.1.0", "--where", "kernel~matmul_addmm", "--pass", "propagate-mma", "--json"]
    code, out, err = _run(argv, capsys)
    assert code == 0, err
    d = json.loads(out)
    assert d["pipeline"] == "propagate-mma"
    for c in d["configs"]:
        assert c["rescued"] == (c["fits"] is False and c["after_fits"] is True)
    # seed 002: the add-matrix epilogue's round trip is what pushes these over; the pass removes it
    assert set(d["rescued"]) == set(d["exceeding"])


def test_screen_reports_a_bad_config_and_goes_on(tmp_path, capsys):
    bad = tmp_path / "bad.ttgir"
    bad.write_text("module {\n  %0 = tt.nonsense\n}\n")
    code, out, err = _run(["--screen", str(BEFORE), str(bad), str(AFTER)], capsys)
    assert code == 1
    assert re.search(rf"^{re.escape(str(bad))}:2:\d+: error: ", err, re.M)
    assert "epilogue_before.ttgir" in out and "epilogue_after.ttgir" in out and "error:" in out
    assert "2 config(s) read; 1 exceed" in out


# -- CLI -------------------------------------------------------------------------------------------------


def test_cli_module_text_and_json(capsys):
    code, out, err = _run([str(BEFORE)], capsys)
    assert code == 0, err
    assert "convert_layout: 2" in out and "[round trip]" in out
    assert "OUT OF RESOURCE (+1,024 over)  <- module target" in out
    code, out, _ = _run([str(BEFORE), "--json"], capsys)
    d = json.loads(out)
    _check_schema(d)
    assert d["shared_bytes"] == 66560 and len(d["converts"]) == 2 and d["fits"] is False
    assert d["chains"][0]["round_trip"] and d["chains"][0]["values"] == ["%1", "%4"]


def test_cli_target_and_limit_override(capsys):
    code, out, _ = _run([str(BEFORE), "--json", "--target", "A100"], capsys)
    assert json.loads(out)["fits"] is True and json.loads(out)["limit"] == 166912
    code, out, _ = _run([str(BEFORE), "--json", "--limit", "70000"], capsys)
    assert json.loads(out)["fits"] is True


def test_cli_two_files_is_a_diff(capsys):
    code, out, err = _run([str(BEFORE), str(AFTER), "--json"], capsys)
    assert code == 0, err
    d = json.loads(out)
    assert d["mode"] == "diff" and d["converts_eliminated"] == 2 and d["bytes_saved"] == 66560


def test_cli_html_is_self_contained(tmp_path, capsys):
    page = tmp_path / "r.html"
    code, _, err = _run([str(BEFORE), str(AFTER), "--html", str(page)], capsys)
    assert code == 0, err
    html = page.read_text()
    assert html.startswith("<!DOCTYPE html>") and "removed conversions (2)" in html
    assert not re.search(r"""(?:src|href)\s*=\s*["']?(?:https?:|//)""", html)
    assert not re.search(r"<script[^>]*\bsrc\s*=", html)  # the pan/zoom script is inlined
    if graph.dot_available():
        assert html.count("<svg") == 2
    else:
        assert "Graphviz" in html


def test_cli_html_without_dot(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(graph.shutil, "which", lambda name: None)
    page = tmp_path / "r.html"
    code, _, err = _run([str(BEFORE), "--html", str(page)], capsys)
    assert code == 0, err
    assert "Graphviz &#x27;dot&#x27; is not installed" in page.read_text()


def test_cli_graph_exports(tmp_path, capsys):
    files = {k: tmp_path / f"g.{k}" for k in ("dot", "graphml", "json")}
    code, _, err = _run([str(BEFORE), "--dot", str(files["dot"]), "--graphml", str(files["graphml"]),
                         "--graph-json", str(files["json"])], capsys)
    assert code == 0, err
    assert files["dot"].read_text().startswith("digraph")
    assert "<graphml" in files["graphml"].read_text()
    assert len(json.loads(files["json"].read_text())["nodes"]) == 12
    if graph.dot_available():
        svg = tmp_path / "g.svg"
        code, _, err = _run([str(BEFORE), "--svg", str(svg)], capsys)
        assert code == 0 and svg.read_text().lstrip().startswith("<?xml")
    else:
        code, _, err = _run([str(BEFORE), "--svg", str(tmp_path / "g.svg")], capsys)
        assert code == 1 and "irkit-report: error: Graphviz 'dot' is not installed" in err


def test_cli_dump_log_section_as_module(corpus, capsys):
    (log,) = (corpus / "dumps/3.1.0/cuda_80").glob("matmul_addmm_bp__*/mlir_dump.full.txt.gz")
    code, out, err = _run([str(log), "--dump-section", "TritonGPURemoveLayoutConversions#1", "--json"], capsys)
    assert code == 0, err
    d = json.loads(out)
    assert len(d["converts"]) == 7
    # lines are lines of the log
    text = dumplog.read_text(log).split("\n")
    for c in d["converts"]:
        assert "convert_layout" in text[c["line"] - 1]


@pytest.mark.parametrize(
    "argv, message",
    [
        (["/no/such/file.ttgir"], "irkit-report: error: could not open input file '/no/such/file.ttgir'"),
        ([str(BEFORE), "-p", "no-such-pass"], "irkit-report: error: unknown pass 'no-such-pass'"),
        (["--per-pass", str(BEFORE)], "is not an MLIR_ENABLE_DUMP log"),
        ([str(BEFORE), str(AFTER), str(BEFORE)], "irkit-report: error: give one module"),
        ([str(BEFORE), "--triton-version", "x.y"], "irkit-report: error: bad Triton version"),
        (["--screen"], "irkit-report: error:"),
        ([str(BEFORE), "--manifest", "m.jsonl"], "--manifest is for --screen"),
    ],
)
def test_cli_errors(argv, message, capsys):
    code, _, err = _run(argv, capsys)
    assert code == 1
    assert message in err


def test_cli_parse_error_points_at_the_line(tmp_path, capsys):
    bad = tmp_path / "bad.ttgir"
    bad.write_text(BEFORE.read_text().replace("%3 = arith.addf %1, %d", "%3 = arith.addf %1, %nope"))
    code, _, err = _run([str(bad)], capsys)
    assert code == 1
    assert re.match(rf"{re.escape(str(bad))}:15:\d+: error: use of undeclared SSA value name '%nope'", err)


def test_screen_expands_a_folder_of_configs(tmp_path, capsys):
    for name in ("a.ttgir", "b.ttgir"):
        (tmp_path / name).write_text(BEFORE.read_text())
    code, out, err = _run(["--screen", str(tmp_path), "--json", "--target", "MI300X"], capsys)
    assert code == 0, err
    d = json.loads(out)
    assert [c["name"] for c in d["configs"]] == ["a.ttgir", "b.ttgir"]
    assert d["exceeding"] == ["a.ttgir", "b.ttgir"]
