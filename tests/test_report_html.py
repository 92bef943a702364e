"""The HTML report's pictures: focused by default, pan/zoom and click-a-node-to-see-its-IR-line through an
inlined script, nothing loaded from elsewhere."""

import json
import re
from pathlib import Path

import pytest

from irkit.analysis import graph
from irkit.cli.report import main as report_main
from irkit.report.html import Picture, _pictures

ROOT = Path(__file__).resolve().parents[1]
GEMM = ROOT / "examples" / "addmm_gfx942_256x256.ttgir"


def _report(argv, capsys) -> tuple[int, str]:
    with pytest.raises(SystemExit) as e:
        report_main(argv)
    return e.value.code, capsys.readouterr().err


def _lines_of(page: str) -> list[dict]:
    return [json.loads(m) for m in re.findall(r'<script type="application/json" class="irkit-lines">(.*?)</script>',
                                              page, re.S)]


def test_a_picture_carries_its_nodes_ir_lines_and_the_script():
    svg = '<svg width="10pt" height="10pt"><g id="node1" class="node"><title>op3</title></g></svg>'
    html = _pictures({"g": Picture(svg, {"op3": (12, "%x = tt.load %p : tensor<4x!tt.ptr<f32>> </script>")})}, None)
    (lines,) = _lines_of(html)
    assert lines == {"op3": [12, "%x = tt.load %p : tensor<4x!tt.ptr<f32>> </script>"]}
    assert html.count("</script>") == 2  # the data cannot end its own element early
    assert "addEventListener('wheel'" in html and "data-z=\"fit\"" in html
    assert not re.search(r"<script[^>]*\bsrc\s*=", html)
    assert "<script>" not in _pictures({}, "no picture: Graphviz 'dot' is not installed")


def test_the_default_picture_is_the_focus(tmp_path, capsys):
    dots = {}
    for choice in ("focus", "full", None):
        out = tmp_path / f"{choice}.dot"
        code, err = _report([str(GEMM), "--dot", str(out)] + ([f"--picture={choice}"] if choice else []), capsys)
        assert code == 0, err
        dots[choice] = len(re.findall(r'^\s*"op\d+" \[', out.read_text(), re.M))
    assert dots[None] == dots["focus"] < dots["full"] // 3


@pytest.mark.skipif(not graph.dot_available(), reason="Graphviz 'dot' is not installed")
def test_clicking_a_convert_shows_its_line(tmp_path, capsys):
    page = tmp_path / "r.html"
    code, err = _report([str(GEMM), "--html", str(page), "--json", "-o", str(tmp_path / "r.json")], capsys)
    assert code == 0, err
    html = page.read_text()
    (lines,) = _lines_of(html)
    report = json.loads((tmp_path / "r.json").read_text())
    source = GEMM.read_text().splitlines()
    converts = {c["line"] for c in report["converts"]}
    shown = {line for line, text in lines.values() if "convert_layout" in text}
    assert shown == converts
    for line, text in lines.values():
        assert source[line - 1].strip().startswith(text[:60])
    titles = set(re.findall(r'<g id="node\d+" class="node">\s*<title>(op\d+)</title>', html))
    assert set(lines) <= titles  # every line belongs to a node drawn in the picture
