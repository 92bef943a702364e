"""One self-contained HTML page per report: tables, and the pictures inlined as SVG.

Graph pictures are rendered by the caller (Graphviz, see irkit.analysis.graph.render) and passed in as
SVG text, with the line of IR behind each node (`Picture`); the per-pass chart is drawn here, so that
page needs no Graphviz.  A picture pans (drag) and zooms (wheel, or the buttons), and a click on a node
shows its line of IR, through the small script below, inlined: nothing is loaded from elsewhere (no
scripts, fonts or images by URL), so the page works offline and can be mailed as one file.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from html import escape

from irkit.report.model import DiffReport, ModuleReport, ModuleSetReport, ScreenReport
from irkit.report.perpass import PerPassReport

_CSS = """
body { font-family: -apple-system, 'Segoe UI', Helvetica, Arial, sans-serif; margin: 1.5em; color: #222; }
h1 { font-size: 1.3em; } h2 { font-size: 1.1em; margin-top: 1.6em; }
table { border-collapse: collapse; margin: 0.5em 0; font-size: 0.9em; }
th, td { border: 1px solid #ccc; padding: 3px 8px; text-align: left; vertical-align: top; }
th { background: #f0f0f0; } td.num { text-align: right; font-variant-numeric: tabular-nums; }
tr.bad td { background: #ffe3e3; } tr.good td { background: #e6f6e6; } tr.dim td { color: #888; }
code, .mono { font-family: Menlo, Consolas, monospace; font-size: 0.92em; }
.picture { overflow: hidden; border: 1px solid #ddd; height: 70vh; margin: 0 0 0.5em 0; position: relative;
           cursor: grab; background: #fff; }
.picture > svg { transform-origin: 0 0; }
.picture-head { display: flex; gap: 6px; align-items: flex-start; margin-top: 0.5em; position: sticky; top: 0;
                z-index: 1; background: #fff; padding: 2px 0; }
.zoom { white-space: nowrap; }
.zoom button { font-size: 0.9em; min-width: 2.2em; margin-left: 2px; cursor: pointer; }
.irline { flex: 1; font-family: Menlo, Consolas, monospace; font-size: 0.88em; background: #f7f7f7;
          border: 1px solid #ddd; padding: 4px 8px; white-space: pre-wrap; min-height: 1.3em; }
g.node.picked > path, g.node.picked > polygon, g.node.picked > ellipse { stroke: #1f5fbf; stroke-width: 3px; }
.verdict-bad { color: #b00000; font-weight: bold; } .verdict-good { color: #1a7f1a; font-weight: bold; }
.note { color: #666; font-size: 0.9em; }
"""


def _n(v: int | None) -> str:
    return "-" if v is None else f"{v:,}"


def _table(headers: Sequence[str], rows: Sequence[Sequence[object]], numeric: Sequence[int] = (),
           classes: Sequence[str] | None = None) -> str:
    out = ["<table><tr>" + "".join(f"<th>{escape(h)}</th>" for h in headers) + "</tr>"]
    for k, r in enumerate(rows):
        cls = f' class="{classes[k]}"' if classes and classes[k] else ""
        cells = []
        for i, c in enumerate(r):
            text = "" if c is None else escape(str(c))
            cells.append(f'<td class="num">{text}</td>' if i in numeric else f"<td>{text}</td>")
        out.append(f"<tr{cls}>" + "".join(cells) + "</tr>")
    out.append("</table>")
    return "\n".join(out)


def _svg_inline(svg: str) -> str:
    """Graphviz SVG without its XML prolog and DOCTYPE, so it can sit inside HTML."""
    svg = re.sub(r"<\?xml[^>]*\?>", "", svg)
    svg = re.sub(r"<!DOCTYPE[^>]*>", "", svg, flags=re.S)
    return svg.strip()


@dataclass
class Picture:
    """A graph picture: Graphviz's SVG, and per node (the name in each node's `<title>`) the line number
    and text of the IR it stands for."""

    svg: str
    lines: dict[str, tuple[int | None, str]] = field(default_factory=dict)


# Pan (drag), zoom (wheel, buttons), fit; a click on a node shows its IR line above the picture.  The picture
# opens at the width of its box (never so small that its text is unreadable: at most 1/0.75 of the box's
# width shows), the box no taller than the picture; `fit` shows all of it.  The buttons and the IR line sit
# in a bar above the box that stays in view while the page scrolls, so neither covers the legend.
_SCRIPT = """
(function () {
  document.querySelectorAll('.picture').forEach(function (box) {
    var svg = box.querySelector('svg');
    if (!svg) return;
    var data = box.querySelector('script.irkit-lines');
    var lines = data ? JSON.parse(data.textContent) : {};
    var head = box.previousElementSibling;
    var out = head.querySelector('.irline');
    var s = 1, x = 0, y = 0, drag = null, moved = false;
    function apply() { svg.style.transform = 'translate(' + x + 'px,' + y + 'px) scale(' + s + ')'; }
    function zoom(f, px, py) { x = px - (px - x) * f; y = py - (py - y) * f; s *= f; apply(); }
    function size() {
      return [svg.width.baseVal.value || svg.getBoundingClientRect().width / s,
              svg.height.baseVal.value || svg.getBoundingClientRect().height / s];
    }
    function fit() {
      var wh = size();
      s = Math.min(1, box.clientWidth / wh[0], box.clientHeight / wh[1]);
      x = (box.clientWidth - wh[0] * s) / 2; y = 0; apply();
    }
    function fitWidth() {
      var wh = size();
      s = Math.max(Math.min(1, box.clientWidth / wh[0]), 0.75);
      box.style.height = Math.max(Math.min(wh[1] * s + 2, window.innerHeight * 0.8), 120) + 'px';
      x = Math.max((box.clientWidth - wh[0] * s) / 2, 0); y = 0; apply();
    }
    box.addEventListener('wheel', function (e) {
      e.preventDefault();
      var r = box.getBoundingClientRect();
      zoom(e.deltaY < 0 ? 1.2 : 1 / 1.2, e.clientX - r.left, e.clientY - r.top);
    }, {passive: false});
    box.addEventListener('mousedown', function (e) {
      if (e.target.closest('.zoom')) return;
      drag = [e.clientX - x, e.clientY - y]; moved = false; box.style.cursor = 'grabbing';
    });
    window.addEventListener('mousemove', function (e) {
      if (!drag) return;
      if (Math.abs(e.clientX - drag[0] - x) + Math.abs(e.clientY - drag[1] - y) > 2) moved = true;
      x = e.clientX - drag[0]; y = e.clientY - drag[1]; apply();
    });
    window.addEventListener('mouseup', function () { drag = null; box.style.cursor = 'grab'; });
    var bar = head.querySelector('.zoom');
    bar.querySelector('[data-z=in]').onclick = function () { zoom(1.25, box.clientWidth / 2, box.clientHeight / 2); };
    bar.querySelector('[data-z=out]').onclick = function () { zoom(0.8, box.clientWidth / 2, box.clientHeight / 2); };
    bar.querySelector('[data-z=fit]').onclick = fit;
    svg.querySelectorAll('g.node').forEach(function (g) {
      var t = g.querySelector('title');
      var info = t ? lines[t.textContent] : null;
      if (!info) return;
      g.style.cursor = 'pointer';
      g.addEventListener('click', function () {
        if (moved) return;
        svg.querySelectorAll('g.node.picked').forEach(function (p) { p.classList.remove('picked'); });
        g.classList.add('picked');
        out.textContent = (info[0] ? 'line ' + info[0] + ': ' : '') + info[1];
        var r = out.getBoundingClientRect();
        if (r.top < 0 || r.bottom > window.innerHeight) out.scrollIntoView({block: 'nearest'});
      });
    });
    fitWidth();
  });
})();
"""


def _lines_json(lines: dict[str, tuple[int | None, str]]) -> str:
    # inside <script> no `<` may appear at all: "</script" ends the element and "<!--" starts the HTML
    # parser's escaped-comment state, which swallows the rest of the page; \u003c is the same string in JSON
    text = json.dumps(lines, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _pictures(pictures: dict[str, str | Picture] | None, missing: str | None) -> str:
    out = []
    for title, picture in (pictures or {}).items():
        if isinstance(picture, str):
            picture = Picture(picture)
        out.append(f"<h2>{escape(title)}</h2>")
        hint = "Drag to pan, wheel to zoom; click a node to see its line of IR here."
        out.append(
            f'<div class="picture-head"><div class="irline">{hint}</div>'
            '<div class="zoom"><button data-z="in" title="zoom in">+</button>'
            '<button data-z="out" title="zoom out">&minus;</button>'
            '<button data-z="fit" title="show the whole picture">fit</button></div></div>'
        )
        out.append(
            '<div class="picture">'
            f'<script type="application/json" class="irkit-lines">{_lines_json(picture.lines)}</script>'
            f"{_svg_inline(picture.svg)}</div>"
        )
    if missing:
        out.append(f'<p class="note">{escape(missing)}</p>')
    if pictures:
        out.append(f"<script>{_SCRIPT}</script>")
    return "\n".join(out)


def _page(title: str, body: str) -> str:
    return (
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        f"<title>{escape(title)}</title><style>{_CSS}</style></head>\n<body>\n"
        f"<h1>{escape(title)}</h1>\n{body}\n"
        '<p class="note">Generated by irkit-report. Shared memory is predicted by irkit\'s model of '
        "Triton's Allocation analysis.</p>\n</body></html>\n"
    )


def _verdict(text: str, fits: bool | None) -> str:
    cls = "verdict-good" if fits else ("verdict-bad" if fits is False else "")
    return f'<p class="{cls}">{escape(text)}</p>'


def _module_body(r: ModuleReport) -> str:
    out = [
        f"<p><b>{escape(r.file)}</b><br>{len(r.functions)} function(s) "
        f"{escape(', '.join('@' + f for f in r.functions))}; {r.ops:,} ops; {r.num_warps or '?'} warps; "
        f"target {escape(str(r.target_name or r.target))}; allocation rules of Triton {escape(r.version)}</p>",
        f"<h2>convert_layout ({len(r.converts)})</h2>",
    ]
    if r.converts:
        rows = [
            (i + 1, c.line, c.value, c.src_layout, c.dst_layout, c.type_text,
             "?" if c.needs_shared is None else ("yes" if c.needs_shared else "no"), _n(c.bytes), c.loc)
            for i, c in enumerate(r.converts)
        ]
        out.append(_table(("#", "line", "value", "from", "to", "type", "shared memory", "bytes", "source"), rows, numeric=(0, 1, 7)))
    judged = [v for v in r.verdicts if v.verdict != "-"]
    if judged:
        out.append(f"<h2>propagate-mma cost model: {escape(r.module_verdict)}</h2>")
        rows = [(v.line, v.verdict, v.why) for v in judged]
        out.append(_table(("line", "verdict", "why (the model's numbers)"), rows, numeric=(0,),
                          classes=["good" if v.verdict == "remove" else "bad" for v in judged]))
    if r.chains:
        out.append("<h2>conversion chains</h2><ul>")
        for ch in r.chains:
            tag = " <b>(round trip)</b>" if ch.round_trip else ""
            out.append(f"<li><code>{escape(' -> '.join(ch.layouts))}</code> via {escape(', '.join(r.chain_values(ch)))}{tag}</li>")
        out.append("</ul>")
    out.append(f"<h2>local_alloc ({len(r.local_allocs)})</h2>")
    if r.local_allocs:
        rows = [(a.line, a.value, a.type, _n(a.bytes), a.loc) for a in r.local_allocs]
        out.append(_table(("line", "value", "type", "bytes", "source"), rows, numeric=(0, 3)))
    rec = f" (the compiler recorded {r.recorded_shared:,})" if r.recorded_shared is not None else ""
    out.append(f"<h2>shared memory: {r.shared_bytes:,} bytes predicted{escape(rec)}</h2>")
    rows, classes = [], []
    for t in r.targets:
        verdict = f"fits ({t.margin:,} spare)" if t.fits else f"out of resource (+{-t.margin:,})"
        rows.append((t.name + (" (module target)" if t.module_target else ""), t.triple, _n(t.limit), verdict))
        classes.append("good" if t.fits else "bad")
    out.append(_table(("target", "triple", "limit", "verdict"), rows, numeric=(2,), classes=classes))
    out.append(_verdict(r.verdict, r.fits))
    if r.buffers:
        out.append("<details><summary>buffers of the allocation model</summary>")
        rows = [(b["kind"], b["op"], b["value"], _n(b["bytes"]), _n(b["offset"]), f"[{b['live'][0]}, {b['live'][1]})",
                 b["line"], b["note"]) for b in r.buffers]
        out.append(_table(("kind", "op", "value", "bytes", "offset", "live", "line", "note"), rows, numeric=(3, 4, 6)))
        out.append("</details>")
    for note in r.notes:
        out.append(f'<p class="note">note: {escape(note)}</p>')
    if r.graph is not None and r.graph.graph.get("layout_defs"):
        out.append("<details><summary>layouts</summary>")
        out.append(_table(("alias", "definition"), sorted(r.graph.graph["layout_defs"].items())))
        out.append("</details>")
    return "\n".join(out)


def module_html(r: ModuleReport, pictures: dict[str, str] | None = None, missing: str | None = None) -> str:
    return _page(f"irkit-report: {r.file}", _module_body(r) + _pictures(pictures, missing))


def diff_html(d: DiffReport, pictures: dict[str, str] | None = None, missing: str | None = None) -> str:
    b, a = d.before, d.after
    own = d.own_verdict
    rows = [
        ("ops", _n(b.ops), _n(a.ops), f"{a.ops - b.ops:+,}"),
        ("convert_layout", len(b.converts), len(a.converts), f"{len(a.converts) - len(b.converts):+}"),
        ("local_alloc", len(b.local_allocs), len(a.local_allocs), f"{len(a.local_allocs) - len(b.local_allocs):+}"),
        ("shared bytes (predicted)", _n(b.shared_bytes), _n(a.shared_bytes), f"{a.shared_bytes - b.shared_bytes:+,}"),
    ]
    if own is not None:
        rows.append((f"verdict on {own.name}", "fits" if own.before_fits else "out of resource",
                     "fits" if own.after_fits else "out of resource", own.change or "same"))
    out = [
        f"<p>before: <b>{escape(b.file)}</b><br>after: <b>{escape(('pipeline ' + d.pipeline) if d.pipeline else a.file)}</b></p>",
        _table(("", "before", "after", "change"), rows, numeric=(1, 2, 3)),
        f"<p><b>{d.converts_eliminated}</b> conversion(s) eliminated, <b>{d.bytes_saved:,}</b> bytes of shared memory saved.</p>",
    ]
    for title, recs in (("removed conversions", d.removed), ("added conversions", d.added)):
        out.append(f"<h2>{title} ({len(recs)})</h2>")
        if recs:
            rows = [(c.line, c.value, c.src_layout, c.dst_layout, c.type_text, _n(c.bytes), c.loc) for c in recs]
            out.append(_table(("line", "value", "from", "to", "type", "bytes", "source"), rows, numeric=(0, 5)))
    rows, classes = [], []
    for v in d.verdicts:
        rows.append((v.name + (" (module target)" if v.module_target else ""), v.triple, _n(v.limit),
                     "fits" if v.before_fits else "out", "fits" if v.after_fits else "out", v.change))
        classes.append("good" if v.change == "now fits" else ("bad" if v.change else ""))
    out.append("<h2>verdict per target</h2>")
    out.append(_table(("target", "triple", "limit", "before", "after", "change"), rows, numeric=(2,), classes=classes))
    out.append(_verdict("before: " + b.verdict, b.fits))
    out.append(_verdict("after: " + a.verdict, a.fits))
    return _page("irkit-report: before / after", "\n".join(out) + _pictures(pictures, missing))


def _per_pass_chart(p: PerPassReport) -> str:
    """Two bar rows per section: convert_layouts and predicted (or recorded) shared memory."""
    rows = p.rows
    if not rows:
        return ""
    bar_w, gap, h = 14, 4, 110
    width = len(rows) * (bar_w + gap) + 80
    max_c = max((r.converts for r in rows), default=0) or 1
    shared = [r.shared if r.shared is not None else r.recorded_shared for r in rows]
    max_s = max((s or 0 for s in shared), default=0) or 1
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{2 * h + 60}" font-family="Helvetica" font-size="10">']
    parts.append(f'<text x="4" y="12">convert_layout (max {max_c})</text>')
    parts.append(f'<text x="4" y="{h + 32}">shared memory bytes (max {max_s:,})</text>')
    for i, r in enumerate(rows):
        x = 60 + i * (bar_w + gap)
        ch = int((h - 20) * r.converts / max_c)
        parts.append(
            f'<rect x="{x}" y="{h - ch}" width="{bar_w}" height="{ch}" fill="#d62728">'
            f'<title>{escape(f"#{r.index} {r.label}: {r.converts} converts")}</title></rect>'
        )
        s = shared[i]
        if s:
            sh = int((h - 20) * s / max_s)
            color = "#ff9f1c" if r.shared is not None else "#bbbbbb"
            parts.append(
                f'<rect x="{x}" y="{2 * h + 20 - sh}" width="{bar_w}" height="{sh}" fill="{color}">'
                f'<title>{escape(f"#{r.index} {r.label}: {s:,} bytes")}</title></rect>'
            )
        parts.append(f'<text x="{x + bar_w / 2}" y="{2 * h + 36}" text-anchor="middle">{r.index}</text>')
    parts.append("</svg>")
    return "\n".join(parts)


def per_pass_html(p: PerPassReport) -> str:
    rows, classes = [], []
    for r in p.rows:
        if r.changed is None:
            effect = ""
        elif not r.changed:
            effect = "no change"
        else:
            effect = f"{r.converts_delta:+} converts" if r.converts_delta else "changed"
        rows.append((r.index, r.label, r.pass_arg, r.stage, _n(r.ops), r.converts, r.local_allocs, _n(r.shared),
                     _n(r.recorded_shared), effect, r.note))
        classes.append("dim" if r.changed is False else "")
    body = [
        f"<p><b>{escape(p.file)}</b>: {len(p.rows)} sections; allocation rules of Triton {escape(p.version)}; "
        f"final shared memory {p.shared_bytes:,} bytes. Each row is the IR entering the pass; "
        "'by pass' is what the pass changed; grey rows: passes that changed nothing.</p>",
        '<div class="picture">' + _per_pass_chart(p) + "</div>",
        '<p class="note">red: convert_layout count; orange: shared memory predicted by the model; '
        "grey: recorded by the compiler (ttg.shared) where no prediction is made.</p>",
        _table(("#", "pass", "argument", "stage", "ops", "converts", "local_alloc", "predicted", "recorded", "by pass", "note"),
               rows, numeric=(0, 4, 5, 6, 7, 8), classes=classes),
    ]
    return _page(f"irkit-report --per-pass: {p.file}", "\n".join(body))


def screen_html(s: ScreenReport) -> str:
    rows, classes = [], []
    for e in s.entries:
        if e.error:
            rows.append((e.name, "", "", "", "", "error: " + e.error, "", "", ""))
            classes.append("bad")
            continue
        r, a = e.report, e.after
        rows.append((
            e.name, r.target_name or r.target, _n(r.limit), len(r.converts), _n(r.shared_bytes),
            "?" if r.fits is None else ("fits" if r.fits else "out of resource"),
            "" if a is None else len(a.converts), "" if a is None else _n(a.shared_bytes),
            "" if a is None else (("fits" if a.fits else "out of resource") + (" (rescued)" if e.rescued else "")),
        ))
        classes.append("good" if e.rescued else ("bad" if r.fits is False else ""))
    body = [
        f"<p>pipeline: <code>{escape(s.pipeline or '(none)')}</code>; {len(s.exceeding)} of {len(s.entries)} configs exceed their "
        f"target's limit; {len(s.rescued)} rescued by the pipeline.</p>",
        _table(("config", "target", "limit", "converts", "shared", "verdict", "converts after", "shared after", "verdict after"),
               rows, numeric=(2, 3, 4, 6, 7), classes=classes),
    ]
    return _page("irkit-report: autotuning screen", "\n".join(body))


def module_set_html(s: ModuleSetReport) -> str:
    bodies = []
    for i, r in enumerate(s.reports):
        if not isinstance(r, ModuleReport):
            raise TypeError("HTML of several modules is rendered for module reports only")
        bodies.append(f"<h1>module {i + 1} of {len(s.reports)}</h1>\n{_module_body(r)}")
    return _page(f"irkit-report: {s.file}", "\n".join(bodies))


def render_html(report, pictures: dict[str, str] | None = None, missing: str | None = None) -> str:
    if isinstance(report, ModuleSetReport):
        return module_set_html(report)
    if isinstance(report, ModuleReport):
        return module_html(report, pictures, missing)
    if isinstance(report, DiffReport):
        return diff_html(report, pictures, missing)
    if isinstance(report, PerPassReport):
        return per_pass_html(report)
    if isinstance(report, ScreenReport):
        return screen_html(report)
    raise TypeError(f"no HTML rendering for {type(report).__name__}")
