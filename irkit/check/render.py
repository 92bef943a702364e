"""Terminal tables, JSON and HTML for irkit-check reports (static and run mode)."""

from __future__ import annotations

import html
import json

from irkit.check.binary_metrics import width_summary


def _fmt_int(v) -> str:
    return "-" if v is None else f"{v:,}"


def _spills(real: dict) -> str:
    if real.get("spill_store_bytes") is not None:
        return f"{real['spill_store_bytes']:,}/{real['spill_load_bytes']:,} B"
    if real.get("vgpr_spill_count") is not None:
        return f"v{real['vgpr_spill_count']}/s{real.get('sgpr_spill_count', 0)}"
    return "-"


def _registers_amd(real: dict) -> str:
    if real.get("registers") is None:
        return "-"
    split = ""
    if real.get("accum_offset") is not None and real.get("agpr_count") is not None:
        split = f" ({real['accum_offset']}+{real['agpr_count']} AGPR)"
    return f"{real['registers']}{split} / {_fmt_int(real.get('occupancy_sgprs') or real.get('sgpr_count'))}"


def _shared_instrs(real: dict) -> str:
    counts = real.get("shared_and_barriers") or {}
    return " ".join(f"{k}×{v}" for k, v in counts.items()) or "-"


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
    if br.get("scratch_bytes") is not None or ar.get("scratch_bytes") is not None:
        rows.append(("scratch (B)", _fmt_int(br.get("scratch_bytes")), "", _fmt_int(ar.get("scratch_bytes")), ""))
    if br.get("occupancy") or ar.get("occupancy"):  # AMD: the register split and waves per SIMD
        rows.append(("VGPR+AGPR / SGPR", _registers_amd(br), "", _registers_amd(ar), ""))
        rows.append(("waves/SIMD (limiter)", br.get("occupancy") or "-", "", ar.get("occupancy") or "-", ""))
        rows.append(("compiler's ; Occupancy", _fmt_int(br.get("compiler_occupancy")), "",
                     _fmt_int(ar.get("compiler_occupancy")), ""))
    if "build_flags" in br or "build_flags" in ar:  # Intel XPU: the GRF mode the compiler chose
        rows.append(("build flags (GRF mode)", br.get("build_flags") or "(none)", "", ar.get("build_flags") or "(none)", ""))
    return rows


def table(header: list[str], rows: list[list[str]]) -> str:
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]
    def line(r):
        return "  ".join(str(c).ljust(w) for c, w in zip(r, widths)).rstrip()
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


# -- run mode ------------------------------------------------------------------------------------------------


def config_text(config: dict | None) -> str:
    """{"BLOCK_M": 128, ..., "num_warps": 8, "num_stages": 3} -> '128x256x64 ADD=1 w8 s3'."""
    if not config:
        return "-"
    cfg = dict(config)
    warps, stages = cfg.pop("num_warps", None), cfg.pop("num_stages", None)
    blocks = [str(v) for k, v in cfg.items() if k.upper().startswith("BLOCK") and isinstance(v, int)]
    rest = [f"{k}={int(v) if isinstance(v, bool) else v}" for k, v in cfg.items()
            if not (k.upper().startswith("BLOCK") and isinstance(v, int))]
    return " ".join(filter(None, ["x".join(blocks), *rest, f"w{warps}" if warps else "", f"s{stages}" if stages else ""]))


def kernel_name(r: dict) -> str:
    """One name per kernel, checked or not: its `launch_metadata` name where it gives one, else Triton's."""
    return (r.get("launch_metadata") or {}).get("name") or r.get("name", "?")


_SIZE_ARGS = ("m", "n", "k")


def size_text(r: dict) -> str:
    """The problem size a kernel ran at: `MxNxK` from arguments so named, else its first integer arguments."""
    sizes = r.get("sizes")
    if not sizes:
        problem = (r.get("family") or [None, []])[1] or []
        return "x".join(str(v) for v in problem[:3]) or "-"
    lower = {k.lower(): v for k, v in sizes.items()}
    named = [lower[k] for k in _SIZE_ARGS if k in lower]
    if named:
        return "x".join(str(v) for v in named)
    return " ".join(f"{k}={v}" for k, v in list(sizes.items())[:3])


def unchanged_reason(r: dict) -> str:
    """Why the pipeline left a kernel alone, from its remarks (the pass's decision on each conversion)."""
    reasons = []
    for remark in r.get("remarks") or []:
        text = remark.split(" remark: ", 1)[-1].split(" warning: ", 1)[-1]
        text = text.split(": ", 1)[1] if text.startswith("propagate-mma: ") else text
        if text not in reasons:
            reasons.append(text)
    if not reasons:
        return "no conversion the pipeline acts on"
    # a rewrite the pass made and then undid leaves its "moved to ..." remarks before the one that undoes it: the
    # kernel is unchanged because of the last, so it is the reason, and the moves it undid are none
    undone = [text for text in reasons if text.startswith(("rewrite undone", "rewrite would be undone"))]
    if undone:
        reasons = undone + [text for text in reasons if text not in undone and not text.startswith("moved ")]
    return _ends(reasons[0]) + (f" (+{len(reasons) - 1} more)" if len(reasons) > 1 else "")


REASON_WIDTH = 220


def _ends(text: str, width: int = REASON_WIDTH) -> str:
    """A long reason's both ends, cut between words: a remark opens with what the pass did to the conversion and
    closes, in its last clause, with the criterion that decided it (the compiler check's, where it ran); the
    figures between are in the report.  The last clause is kept whole where it takes up to three quarters of
    `width`."""
    if len(text) <= width:
        return text
    tail = text.rsplit("; ", 1)[-1]
    if len(tail) > width * 3 // 4:
        tail = tail[-(width * 3 // 4):].split(" ", 1)[-1]
    head = text[:width - len(tail) - 5].rsplit(" ", 1)[0]
    return f"{head} ... {tail}"


def _arrow(before, after) -> str:
    if before is None and after is None:
        return "-"
    return f"{before}" if before == after else f"{before}->{after}"


def _widths(static: dict, key: str) -> str:
    return width_summary(static.get(key) or {}).replace(".b32", "").replace(" ", ",")  # compact for the run table


def run_rows(report: dict) -> list[list[str]]:
    rows = []
    for r in report["kernels"]:
        if r.get("status") != "checked":
            continue
        t, st = r.get("timing") or {}, r.get("static") or {}
        sb, sa = st.get("before", {}), st.get("after", {})
        tf = (f"{t['before_tflops']:.0f} / {t['after_tflops']:.0f}" if t.get("before_tflops") else "-")
        rows.append([
            kernel_name(r), size_text(r), config_text(r.get("config")),
            tf, f"{t.get('before_median_ms', 0):.4f} / {t.get('after_median_ms', 0):.4f}",
            f"{t.get('ratio', 0):.3f} [{t.get('ratio_lo', 0):.3f},{t.get('ratio_hi', 0):.3f}]", t.get("verdict", "-"),
            "yes" if r.get("bit_identical") else _difference(r),
            _arrow(sb.get("convert_layout"), sa.get("convert_layout")),
            _arrow(sb.get("shared"), sa.get("shared")),
            f"{_widths(sb, 'global_loads')} -> {_widths(sa, 'global_loads')}",
            _arrow(sb.get("n_regs"), sa.get("n_regs")), _arrow(sb.get("n_spills"), sa.get("n_spills")),
            str(t.get("pairs", "-")),
        ])
    return rows


RUN_HEADER = ["kernel", "size", "config", "TFLOP/s before/after", "ms before/after", "after/before [95%]", "verdict",
              "bit-identical", "converts", "shared B", "global loads", "regs", "spills", "pairs"]


def _difference(r: dict) -> str:
    diffs = (r.get("comparison") or {}).get("differences") or []
    worst = max(diffs, key=lambda d: d.get("max_abs") or 0, default={})
    text = f"NO: max abs {worst.get('max_abs')}, rel {worst.get('max_rel')}"
    if r.get("original_deterministic") is False:
        text += " (the original differs from itself too)"
    return text


def run_text(report: dict) -> str:
    out = [(f"irkit-check (run): pipeline '{report['pipeline']}', Triton {', '.join(report['triton'])}, "
            f"{report.get('device') or 'GPU'}\n\n")]
    rows = run_rows(report)
    if rows:
        out.append(table(RUN_HEADER, rows))
    for r in report["kernels"]:
        if r.get("status") == "unchanged":
            alone = r.get("timing_alone") or {}
            timed = f": {alone['median_ms']:.4f} ms" if alone else ""
            timed += f", {alone['tflops']:.0f} TFLOP/s" if alone.get("tflops") else ""
            out.append(f"unchanged by the pipeline (not compared): {kernel_name(r)} {size_text(r)} "
                       f"{config_text(r.get('config'))}{timed}; why: {unchanged_reason(r)}\n")
        elif r.get("status") not in ("checked", "unchanged"):
            out.append(f"{r.get('status', 'error').upper()}: {kernel_name(r)} {size_text(r)} {config_text(r.get('config'))}: "
                       f"{r.get('error')}\n")
    for b in report["best"]:
        bb, ba = b["best_before"], b["best_after"]
        def tf(x):
            return f", {x['tflops']:.0f} TFLOP/s" if x.get("tflops") else ""
        same = "" if ba.get("changed", True) else " (unchanged by the pipeline)"
        out.append(f"tuned optimum {b['family'][0]} {b['family'][1][:3]} over {b.get('configs', '?')} configs: "
                   f"before {config_text(bb['config'])} {bb['median_ms']:.4f} ms{tf(bb)}; "
                   f"after {config_text(ba['config'])}{same} {ba['median_ms']:.4f} ms{tf(ba)}; "
                   f"after/before {b['ratio']:.3f}\n")
    unchecked = report.get("unchecked_sizes") or []
    if unchecked:
        kernels = len({u["hash"] for u in unchecked})
        out.append(f"not checked: {len(unchecked)} other problem size(s) of {kernels} checked kernel(s) (their "
                   f"runtime scalar arguments); the pass decided for the first, and its decision can depend on the "
                   f"size (the main loop's trip count): --each-size checks each\n")
    if report.get("findings"):
        out.append(f"FINDINGS: {', '.join(report['findings'])}\n")
    return "".join(out)


def _svg_chart(report: dict) -> str:
    """Horizontal bars: before and after throughput (TFLOP/s, else 1/ms) of each checked kernel."""
    items = []
    for r in report["kernels"]:
        t = r.get("timing") or {}
        if r.get("status") != "checked" or not t.get("before_median_ms"):
            continue
        b = t.get("before_tflops") or 1 / t["before_median_ms"]
        a = t.get("after_tflops") or 1 / t["after_median_ms"]
        items.append((f"{kernel_name(r)} {size_text(r)} {config_text(r.get('config'))}", b, a))
    if not items:
        return ""
    top = max(max(b, a) for _, b, a in items)
    unit = "TFLOP/s" if any((r.get("timing") or {}).get("before_tflops") for r in report["kernels"]) else "1/ms"
    row_h, left, width = 34, 330, 420
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{left + width + 80}" height="{row_h * len(items) + 40}">',
             f'<text x="{left}" y="14" font-size="12">{unit}: before (grey), after (blue)</text>']
    for i, (label, b, a) in enumerate(items):
        y = 24 + i * row_h
        parts.append(f'<text x="0" y="{y + 18}" font-size="11">{html.escape(label[:52])}</text>')
        for j, (v, color) in enumerate(((b, "#999"), (a, "#36c"))):
            w = width * v / top
            parts.append(f'<rect x="{left}" y="{y + j * 14}" width="{w:.1f}" height="12" fill="{color}"/>')
            parts.append(f'<text x="{left + w + 4:.1f}" y="{y + j * 14 + 10}" font-size="10">{v:.1f}</text>')
    parts.append("</svg>")
    return "".join(parts)


def run_html(report: dict) -> str:
    rows = run_rows(report)
    classes = ["" if row[RUN_HEADER.index("bit-identical")] == "yes" else "bad" for row in rows]
    parts = [f"<html><head><meta charset='utf-8'><title>irkit-check</title><style>{_CSS}</style></head><body>",
             f"<h1>irkit-check (run): {html.escape(report['pipeline'])}</h1>",
             (f"<p>{html.escape(' '.join(report['command']))} &mdash; Triton {html.escape(', '.join(report['triton']))}, "
              f"{html.escape(str(report.get('device')))}</p>"), _svg_chart(report),
             _html_table(RUN_HEADER, rows, classes)]
    unchanged = [f"{kernel_name(r)} {size_text(r)} {config_text(r.get('config'))}: {unchanged_reason(r)}"
                 for r in report["kernels"] if r.get("status") == "unchanged"]
    if unchanged:
        parts.append("<h2>Unchanged by the pipeline (not compared)</h2><ul>" +
                     "".join(f"<li>{html.escape(u)}</li>" for u in unchanged) + "</ul>")
    for b in report["best"]:
        parts.append(f"<p>Tuned optimum {html.escape(str(b['family'][0]))}: before "
                     f"{html.escape(config_text(b['best_before']['config']))} {b['best_before']['median_ms']:.4f} ms, "
                     f"after {html.escape(config_text(b['best_after']['config']))} {b['best_after']['median_ms']:.4f} ms "
                     f"(after/before {b['ratio']:.3f})</p>")
    parts.append("</body></html>\n")
    return "".join(parts)
