"""Terminal tables, JSON and HTML for irkit-check reports (static and run mode)."""

from __future__ import annotations

import html
import json

from irkit.check.binary_metrics import width_summary


def _fmt_int(v) -> str:
    return "-" if v is None else f"{v:,}"


def _pair(a, b, fmt=_fmt_int) -> str:
    return f"{fmt(a)} -> {fmt(b)}"


def _spills(real: dict) -> str:
    if real.get("spill_store_bytes") is not None:
        return f"{real['spill_store_bytes']:,}/{real['spill_load_bytes']:,} B"
    if real.get("vgpr_spill_count") is not None:
        return f"v{real['vgpr_spill_count']}/s{real.get('sgpr_spill_count', 0)}"
    return "-"


def _shared_instrs(real: dict) -> str:
    counts = real.get("shared_and_barriers") or {}
    return " ".join(f"{k}x{v}" for k, v in counts.items()) or "-"


def static_rows(check: dict) -> list[tuple[str, str, str, str, str]]:
    """(metric, before real, before predicted, after real, after predicted) lines for one module."""
    b, a = check["before"], check["after"]
    br, ar = b.get("real") or {}, a.get("real") or {}
    bp, ap = b.get("predicted") or {}, a.get("predicted") or {}
    limit = check.get("limit")
    rows = [
        ("metadata.shared (B)", _fmt_int(br.get("shared")), _fmt_int(bp.get("shared")),
         _fmt_int(ar.get("shared")), _fmt_int(ap.get("shared"))),
        ("shared limit (B)", _fmt_int(limit), "", _fmt_int(limit), ""),
        ("convert_layout", _fmt_int(br.get("ttgir_convert_layout")), _fmt_int(bp.get("convert_layout")),
         _fmt_int(ar.get("ttgir_convert_layout")), _fmt_int(ap.get("convert_layout"))),
        ("registers", _fmt_int(br.get("registers")), "", _fmt_int(ar.get("registers")), ""),
        ("spill stores/loads", _spills(br), "", _spills(ar), ""),
        ("global loads", width_summary(br.get("global_loads") or {}), "", width_summary(ar.get("global_loads") or {}), ""),
        ("global stores", width_summary(br.get("global_stores") or {}), "",
         width_summary(ar.get("global_stores") or {}), ""),
        ("shared instrs, barriers", _shared_instrs(br), "", _shared_instrs(ar), ""),
    ]
    return rows


def table(header: list[str], rows: list[list[str]]) -> str:
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]
    line = lambda r: "  ".join(str(c).ljust(w) for c, w in zip(r, widths)).rstrip()
    return "\n".join([line(header), line(["-" * w for w in widths]), *(line(r) for r in rows)]) + "\n"


def static_text(report: dict) -> str:
    out = [(f"irkit-check (static): pipeline '{report['pipeline']}', real Triton {report['triton']['version']} "
            f"({report['triton']['python']})\n")]
    for check in report["modules"]:
        out.append(f"\n{check['name']}  target {check['target']}  "
                   f"{'changed by the pipeline' if check['changed'] else 'unchanged by the pipeline'}\n")
        for r in check["remarks"]:
            out.append(f"  {r}\n")
        rows = [list(r) for r in static_rows(check)]
        out.append(table(["metric", "before (compiler)", "before (irkit)", "after (compiler)", "after (irkit)"], rows))
        if check.get("error"):
            out.append(f"  ERROR: {check['error']}\n")
        for d in check["disagreements"]:
            out.append(f"  DISAGREE: {d}\n")
        if not check["disagreements"] and not check.get("error"):
            out.append("  irkit's predictions agree with the compiler\n")
    return "".join(out)


def to_json(report: dict) -> str:
    return json.dumps(report, indent=1, default=str) + "\n"


_CSS = ("body{font-family:sans-serif;margin:2em}table{border-collapse:collapse;margin:1em 0}"
        "td,th{border:1px solid #bbb;padding:3px 8px;text-align:right}th{background:#eee}"
        "td:first-child{text-align:left}.bad{background:#fdd}.good{background:#dfd}")


def _html_table(header: list[str], rows: list[list[str]], classes: list[str] | None = None) -> str:
    out = ["<table><tr>" + "".join(f"<th>{html.escape(h)}</th>" for h in header) + "</tr>"]
    for i, r in enumerate(rows):
        cls = f' class="{classes[i]}"' if classes and classes[i] else ""
        out.append(f"<tr{cls}>" + "".join(f"<td>{html.escape(str(c))}</td>" for c in r) + "</tr>")
    return "".join(out) + "</table>"


def static_html(report: dict) -> str:
    parts = [f"<html><head><meta charset='utf-8'><title>irkit-check</title><style>{_CSS}</style></head><body>",
             f"<h1>irkit-check (static): {html.escape(report['pipeline'])}</h1>",
             f"<p>real Triton {html.escape(report['triton']['version'])}</p>"]
    for check in report["modules"]:
        parts.append(f"<h2>{html.escape(check['name'])} ({html.escape(str(check['target']))})</h2>")
        parts.append(_html_table(["metric", "before (compiler)", "before (irkit)", "after (compiler)", "after (irkit)"],
                                 [list(r) for r in static_rows(check)]))
        for d in check["disagreements"] + ([check["error"]] if check.get("error") else []):
            parts.append(f"<p class='bad'>{html.escape(d)}</p>")
    parts.append("</body></html>\n")
    return "".join(parts)
