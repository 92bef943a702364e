"""Plain-text rendering of the reports (what `irkit-report` prints by default)."""

from __future__ import annotations

from collections.abc import Sequence

from irkit.report.model import DiffReport, ModuleReport, ModuleSetReport, ScreenReport
from irkit.report.perpass import PerPassReport


def _n(v: int | None) -> str:
    return "-" if v is None else f"{v:,}"


def _signed(v: int) -> str:
    return f"{v:+,}" if v else "0"


def table(headers: Sequence[str], rows: Sequence[Sequence[object]], right: Sequence[int] = ()) -> list[str]:
    """Columns padded to their widest cell; columns in `right` right-aligned."""
    cells = [[str(h) for h in headers]] + [["" if c is None else str(c) for c in r] for r in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(headers))]
    out = []
    for k, r in enumerate(cells):
        parts = [c.rjust(widths[i]) if i in right else c.ljust(widths[i]) for i, c in enumerate(r)]
        out.append("  " + "  ".join(parts).rstrip())
        if k == 0:
            out.append("  " + "  ".join("-" * w for w in widths))
    return out


def _short_loc(loc: str) -> str:
    return loc.rsplit("/", 1)[-1] if loc else ""


def _yes(v: bool | None) -> str:
    return "?" if v is None else ("yes" if v else "no")


def _fit_text(fits: bool, margin: int) -> str:
    return f"fits ({margin:,} spare)" if fits else f"OUT OF RESOURCE (+{-margin:,} over)"


def module_text(r: ModuleReport) -> str:
    tgt = f"{r.target_name} {r.target}" if r.target_name else (r.target or "unknown target")
    lines = [
        f"{r.file}",
        f"  {len(r.functions)} function(s) {', '.join('@' + f for f in r.functions)}; {r.ops:,} ops; "
        f"{r.num_warps or '?'} warps; {tgt}; allocation rules of Triton {r.version}",
        "",
        f"convert_layout: {len(r.converts)}" + (f"  (largest scratch {r.largest_convert_bytes:,} bytes)" if r.converts else ""),
    ]
    if r.converts:
        rows = [
            (i + 1, c.line, c.value, c.src_layout, c.dst_layout, c.type_text, _yes(c.needs_shared), _n(c.bytes), _short_loc(c.loc))
            for i, c in enumerate(r.converts)
        ]
        lines += table(("#", "line", "value", "from", "to", "type", "smem", "bytes", "source"), rows, right=(0, 1, 7))
    if any(v.verdict != "-" for v in r.verdicts):
        lines.append("")
        lines.append(f"propagate-mma cost model: {r.module_verdict}")
        by_line = {c.line: c for c in r.converts}
        for v in r.verdicts:
            if v.verdict == "-":
                continue
            record = by_line.get(v.line)
            which = f"#{r.converts.index(record) + 1} {record.value}" if record else f"line {v.line} (local_load)"
            lines.append(f"  {which}: {v.verdict}: {v.why}")
    if r.chains:
        lines.append("")
        lines.append("conversion chains (one convert's result reaches the next through one layout):")
        for ch in r.chains:
            tag = "  [round trip]" if ch.round_trip else ""
            lines.append(f"  {' -> '.join(ch.layouts)}  via {', '.join(r.chain_values(ch))}{tag}")
    lines.append("")
    lines.append(f"local_alloc: {len(r.local_allocs)}")
    if r.local_allocs:
        rows = [(a.line, a.value, a.type, _n(a.bytes), _short_loc(a.loc)) for a in r.local_allocs]
        lines += table(("line", "value", "type", "bytes", "source"), rows, right=(0, 3))
    lines.append("")
    rec = f"; the compiler recorded {r.recorded_shared:,}" if r.recorded_shared is not None else ""
    lines.append(f"shared memory (predicted): {r.shared_bytes:,} bytes{rec}")
    rows = []
    for t in r.targets:
        rows.append((t.name, t.triple, _n(t.limit), _fit_text(t.fits, t.margin), "<- module target" if t.module_target else ""))
    lines += table(("target", "triple", "limit", "verdict", ""), rows, right=(2,))
    lines.append(f"verdict: {r.verdict}")
    for note in r.notes:
        lines.append(f"note: {note}")
    return "\n".join(lines) + "\n"


def diff_text(d: DiffReport) -> str:
    b, a = d.before, d.after
    what = f"after pipeline '{d.pipeline}'" if d.pipeline else a.file
    lines = [f"before: {b.file}", f"after:  {what}", ""]
    own = d.own_verdict
    rows = [
        ("ops", _n(b.ops), _n(a.ops), _signed(a.ops - b.ops)),
        ("convert_layout", len(b.converts), len(a.converts), _signed(len(a.converts) - len(b.converts))),
        ("largest convert scratch", _n(b.largest_convert_bytes), _n(a.largest_convert_bytes),
         _signed(a.largest_convert_bytes - b.largest_convert_bytes)),
        ("local_alloc", len(b.local_allocs), len(a.local_allocs), _signed(len(a.local_allocs) - len(b.local_allocs))),
        ("shared bytes (predicted)", _n(b.shared_bytes), _n(a.shared_bytes), _signed(a.shared_bytes - b.shared_bytes)),
    ]
    if own is not None:
        rows.append(
            (f"verdict on {own.name} ({_n(own.limit)})", "fits" if own.before_fits else "OUT",
             "fits" if own.after_fits else "OUT", own.change or "same")
        )
    lines += table(("", "before", "after", "change"), rows, right=(1, 2, 3))
    lines.append("")
    lines.append(
        f"converts eliminated: {d.converts_eliminated}; shared bytes saved: {d.bytes_saved:,}"
        + (f"; {own.name}: {own.change}" if own is not None and own.change else "")
    )
    for title, recs in (("removed", d.removed), ("added", d.added)):
        lines.append(f"{title} conversions: {len(recs)}")
        if recs:
            rows = [(c.line, c.value, c.src_layout, c.dst_layout, c.type_text, _n(c.bytes), _short_loc(c.loc)) for c in recs]
            lines += table(("line", "value", "from", "to", "type", "bytes", "source"), rows, right=(0, 5))
    changes = [v for v in d.verdicts if v.change]
    if changes:
        lines.append("verdict changes:")
        for v in changes:
            lines.append(f"  {v.name} ({v.triple}, limit {v.limit:,}): {v.change}")
    lines.append(f"verdict before: {b.verdict}")
    lines.append(f"verdict after:  {a.verdict}")
    return "\n".join(lines) + "\n"


def per_pass_text(p: PerPassReport) -> str:
    lines = [
        f"{p.file}: {len(p.rows)} sections (allocation rules of Triton {p.version})",
        "  each row: the IR entering the pass; 'by pass': what the pass changed (the next section)",
    ]
    rows = []
    for r in p.rows:
        label = r.label if len(r.label) <= 60 else r.label[:57] + "..."
        if r.changed is None:
            effect = ""
        elif not r.changed:
            effect = "no change"
        else:
            effect = _signed(r.converts_delta) if r.converts_delta else "changed"
        rows.append((r.index, label, r.stage, _n(r.ops), r.converts, r.local_allocs, _n(r.shared), _n(r.recorded_shared), effect, r.note))
    lines += table(
        ("#", "pass", "stage", "ops", "converts", "local_alloc", "predicted", "recorded", "by pass", "note"),
        rows,
        right=(0, 3, 4, 5, 6, 7),
    )
    lines.append(f"final shared memory: {p.shared_bytes:,} bytes")
    return "\n".join(lines) + "\n"


def screen_text(s: ScreenReport) -> str:
    lines = []
    if s.pipeline:
        lines.append(f"pipeline: {s.pipeline}")
    rows = []
    for e in s.entries:
        if e.error:
            rows.append((e.name, "", "", "", "", "error: " + e.error) + (("", "", "") if s.pipeline else ()))
            continue
        r = e.report
        base = (
            e.name,
            r.target_name or r.target or "?",
            _n(r.limit),
            len(r.converts),
            _n(r.shared_bytes),
            "?" if r.fits is None else ("fits" if r.fits else f"OUT (+{r.shared_bytes - r.limit:,})"),
        )
        if s.pipeline:
            a = e.after
            after = (
                ("-", "-", "")
                if a is None
                else (
                    len(a.converts),
                    _n(a.shared_bytes),
                    ("?" if a.fits is None else "fits" if a.fits else "OUT") + ("  <- rescued" if e.rescued else ""),
                )
            )
            base = base + after
        rows.append(base)
    headers = ["config", "target", "limit", "converts", "shared", "verdict"]
    right = [2, 3, 4]
    if s.pipeline:
        headers += ["converts after", "shared after", "verdict after"]
        right += [6, 7]
    lines += table(headers, rows, right=right)
    lines.append("")
    n_ok = sum(1 for e in s.entries if e.report)
    lines.append(f"{n_ok} config(s) read; {len(s.exceeding)} exceed their target's limit" + (
        f"; the pipeline brings {len(s.rescued)} of them under it" if s.pipeline else ""))
    for e in s.exceeding:
        culprits = [c for c in e.report.converts if c.bytes]
        if culprits:
            big = max(culprits, key=lambda c: c.bytes)
            lines.append(
                f"  {e.name}: largest convert scratch {big.bytes:,} B ({big.src_layout} -> {big.dst_layout} "
                f"{big.type_text}, line {big.line}, {_short_loc(big.loc)})"
            )
    return "\n".join(lines) + "\n"


def module_set_text(s: ModuleSetReport) -> str:
    parts = [f"{s.file}: {len(s.reports)} modules, each reported on its own\n"]
    for i, r in enumerate(s.reports):
        parts.append(f"\n=== module {i + 1} of {len(s.reports)} ===\n")
        parts.append(render_text(r))
    return "".join(parts)


def render_text(report) -> str:
    if isinstance(report, ModuleSetReport):
        return module_set_text(report)
    if isinstance(report, ModuleReport):
        return module_text(report)
    if isinstance(report, DiffReport):
        return diff_text(report)
    if isinstance(report, PerPassReport):
        return per_pass_text(report)
    if isinstance(report, ScreenReport):
        return screen_text(report)
    raise TypeError(f"no text rendering for {type(report).__name__}")
