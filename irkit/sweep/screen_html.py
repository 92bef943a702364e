"""The knob screen's HTML summary: one bar chart per knob (waves per SIMD, or CTAs per SM, for each of its values,
a bar per tile, out-of-resources configs in red, a dashed outline where the pipeline changes the waves), and the
table of every config."""

from __future__ import annotations

import html

from irkit.sweep.screen import COLUMNS, Screen

BAR_W, GAP, HEIGHT = 14, 10, 120
TILE_COLOURS = ("#4c78a8", "#f58518", "#54a24b", "#b279a2", "#9d755d", "#72b7b2", "#eeca3b", "#ff9da6")


def _occupancy(row: dict) -> int:
    return row.get("waves_per_simd") or row.get("ctas_per_sm") or 0


def _tile(row: dict, screen: Screen) -> str:
    return "x".join(str(row.get(k)) for k in screen.configs) or "kernel"


def knob_rows(screen: Screen, knob: str) -> dict[tuple[str, object], dict]:
    """(tile, value of `knob`) -> the row with every other knob at its first value."""
    base = {k: v[0] for k, v in screen.knobs.items() if k != knob}
    out = {}
    for r in screen.rows:
        if all(r.get(k) == v for k, v in base.items()):
            out.setdefault((_tile(r, screen), r.get(knob)), r)
    return out


def knob_chart(screen: Screen, knob: str) -> str:
    rows = knob_rows(screen, knob)
    tiles = list(dict.fromkeys(t for t, _ in rows))
    values = screen.knobs[knob]
    top = max([_occupancy(r) for r in rows.values()] + [r.get("after_waves_per_simd") or 0 for r in rows.values()] + [1])
    group_w = len(tiles) * BAR_W + GAP
    width = max(40 + len(values) * group_w, 230)
    unit = "waves/SIMD" if any(r.get("waves_per_simd") for r in rows.values()) else "CTAs/SM"
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{HEIGHT + 50}" '
             f'font-family="Helvetica" font-size="10"><text x="2" y="10">{html.escape(knob)}: {unit}</text>']
    for i, v in enumerate(values):
        x0 = 40 + i * group_w
        parts.append(f'<text x="{x0}" y="{HEIGHT + 40}">{html.escape(str(v))}</text>')
        for j, t in enumerate(tiles):
            r = rows.get((t, v))
            if r is None:
                continue
            h = _occupancy(r) / top * (HEIGHT - 20)
            colour = "#d62728" if (not r.get("ok") or r.get("fits") is False) else TILE_COLOURS[j % len(TILE_COLOURS)]
            tip = html.escape(f"{t} {knob}={v}: {r.get('occupancy') or r.get('error', '')} "
                              f"VGPRs {r.get('vgprs')} spilled {r.get('spilled_vgprs')} LDS {r.get('shared')}")
            y = HEIGHT + 20 - h
            parts.append(f'<rect x="{x0 + j * BAR_W}" y="{y:.1f}" width="{BAR_W - 2}" height="{h:.1f}" '
                         f'fill="{colour}"><title>{tip}</title></rect>')
            parts.append(f'<text x="{x0 + j * BAR_W}" y="{y - 2:.1f}" font-size="8">{_occupancy(r)}</text>')
            after = r.get("after_waves_per_simd")
            if after is not None and after != _occupancy(r):  # what the pipeline makes of it: an outline
                ha = after / top * (HEIGHT - 20)
                parts.append(f'<rect x="{x0 + j * BAR_W}" y="{HEIGHT + 20 - ha:.1f}" width="{BAR_W - 2}" '
                             f'height="{ha:.1f}" fill="none" stroke="black" stroke-dasharray="2,1"/>')
    parts.append("</svg>")
    return "".join(parts)


def screen_html(screen: Screen) -> str:
    legend = " ".join(f'<span style="color:{TILE_COLOURS[j % len(TILE_COLOURS)]}">■ {html.escape(t)}</span>'
                      for j, t in enumerate(dict.fromkeys(_tile(r, screen) for r in screen.rows)))
    charts = "".join(f'<div class="chart">{knob_chart(screen, k)}</div>' for k in screen.knobs)
    cols = [c for c in COLUMNS if any(r.get(c) is not None for r in screen.rows)]
    head = "".join(f"<th>{html.escape(c)}</th>" for c in cols)
    body = "".join("<tr>" + "".join(f"<td>{html.escape('-' if r.get(c) is None else str(r.get(c)))}</td>"
                                    for c in cols) + "</tr>" for r in screen.rows)
    return (f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>irkit knob screen</title><style>"
            "body{font-family:Helvetica,sans-serif;font-size:13px} .chart{display:inline-block;margin:8px;"
            "vertical-align:top} table{border-collapse:collapse} td,th{border:1px solid #ccc;padding:2px 6px}"
            f"</style></head><body><h1>Knob screen: {html.escape(screen.target)}, Triton {html.escape(screen.triton)}"
            f"</h1><p>{len(screen.rows)} configs; pipeline: {html.escape(screen.pipeline or '(none)')}. "
            f"Real compiles {screen.compile_seconds:.1f} s, irkit's own {screen.irkit_seconds:.1f} s. "
            f"Red: out of resources or failed; dashed outline: waves/SIMD after the pipeline.</p><p>{legend}</p>{charts}"
            f"<table><tr>{head}</tr>{body}</table></body></html>\n")
