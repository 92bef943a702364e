"""irkit-report for MLIR GPU host code (seed 001): one row per loop and per launch site, with the runtime
calls each makes under MLIR 14 and 22 lowering and their cost (irkit/analysis/launch_cost.py), and the
lowering hazards as `file:line:col: warning:` lines.  Text, JSON (a dict) and HTML."""

from __future__ import annotations

import html
from collections.abc import Callable

from xdsl.ir import Operation

from irkit.analysis.launch_cost import (
    COST_SOURCES,
    COST_US,
    MLIR_VERSIONS,
    cf_loops,
    launch_sites,
    lowering_hazards,
    scf_loops,
)


def build(module: Operation, name: str, locate: Callable[[Operation], str]) -> dict:
    loops = []
    for row in scf_loops(module, locate) + cf_loops(module, locate):
        if not row.launches and not any(row.calls[m] for m in MLIR_VERSIONS):
            continue
        entry = {"kind": row.kind, "where": row.where, "trip_count": row.trip_count, "launches": len(row.launches),
                 "nested_symbolic": row.symbolic}
        for m in MLIR_VERSIONS:
            entry[f"calls_per_iter_mlir{m}"] = row.per_iteration(m)
            entry[f"calls_mlir{m}"] = dict(sorted(row.calls[m].items()))
            entry[f"us_per_iter_mlir{m}"] = {rt: round(row.cost_us(m, rt), 1) for rt in COST_US}
            if row.trip_count is not None:
                entry[f"total_calls_mlir{m}"] = row.per_iteration(m) * row.trip_count
        loops.append(entry)
    sites = [{"where": s.where, "kernel": s.kernel, "mode": s.mode,
              **{f"calls_mlir{m}": sum(s.calls[m].values()) for m in MLIR_VERSIONS}} for s in launch_sites(module, locate)]
    warnings = [{"where": h.where, "message": h.message} for h in lowering_hazards(module, locate)]
    return {"kind": "mlir-gpu-host", "name": name, "loops": loops, "launch_sites": sites, "warnings": warnings,
            "cost_us_per_call": COST_US, "cost_sources": COST_SOURCES}


def render_text(reports: list[dict]) -> str:
    lines = []
    for r in reports:
        if r.get("label"):
            lines.append(f"== {r['label']} ==")
        lines.append(f"{r['name']}: MLIR GPU host code, runtime calls per loop iteration (gpu-to-llvm rules)")
        lines.append(f"  {'loop':<40} {'trips':>6} {'calls/it 14':>11} {'calls/it 22':>11} "
                     f"{'µs/it 22 rocm':>13} {'cuda':>7} {'cuda-h100':>9}")
        for lp in r["loops"]:
            trips = "?" if lp["trip_count"] is None else str(lp["trip_count"])
            us = lp["us_per_iter_mlir22"]
            sym = "+" if lp["nested_symbolic"] else ""
            lines.append(f"  {lp['kind'] + ' ' + lp['where']:<40} {trips:>6} {str(lp['calls_per_iter_mlir14']) + sym:>11} "
                         f"{str(lp['calls_per_iter_mlir22']) + sym:>11} {us['rocm']:>13} {us['cuda']:>7} "
                         f"{us['cuda-h100']:>9}")
            lines.append("      per iteration (22): " + ", ".join(f"{k} {v}" for k, v in lp["calls_mlir22"].items()))
        lines.append(f"  {'launch site':<40} {'kernel':<24} {'mode':<12} {'calls 14':>8} {'calls 22':>8}")
        for s in r["launch_sites"]:
            lines.append(f"  {s['where']:<40} {s['kernel']:<24} {s['mode']:<12} {s['calls_mlir14']:>8} "
                         f"{s['calls_mlir22']:>8}")
        for w in r["warnings"]:
            lines.append(f"{w['where']}: warning: {w['message']}")
        lines.append("  cost per call: " + "; ".join(f"{k}: {v}" for k, v in r["cost_sources"].items()))
    return "\n".join(lines) + "\n"


def render_html(reports: list[dict]) -> str:
    e = html.escape
    parts = ["<!doctype html><meta charset='utf-8'><title>irkit-report: GPU host loops</title>",
             "<style>td,th{padding:2px 8px;text-align:right}td:first-child{text-align:left}</style>"]
    for r in reports:
        parts.append(f"<h2>{e(r.get('label') or '')} {e(r['name'])}</h2><table><tr><th>loop</th><th>trips</th>"
                     "<th>calls/iter MLIR 14</th><th>calls/iter MLIR 22</th><th>µs/iter 22 ROCm</th><th>CUDA</th>"
                     "<th>H100</th></tr>")
        for lp in r["loops"]:
            us = lp["us_per_iter_mlir22"]
            parts.append(f"<tr><td>{e(lp['kind'])} {e(lp['where'])}</td><td>{lp['trip_count'] or '?'}</td>"
                         f"<td>{lp['calls_per_iter_mlir14']}</td><td>{lp['calls_per_iter_mlir22']}</td>"
                         f"<td>{us['rocm']}</td><td>{us['cuda']}</td><td>{us['cuda-h100']}</td></tr>")
        parts.append("</table><table><tr><th>launch site</th><th>kernel</th><th>mode</th><th>calls 14</th>"
                     "<th>calls 22</th></tr>")
        for s in r["launch_sites"]:
            parts.append(f"<tr><td>{e(s['where'])}</td><td>{e(s['kernel'])}</td><td>{e(s['mode'])}</td>"
                         f"<td>{s['calls_mlir14']}</td><td>{s['calls_mlir22']}</td></tr>")
        parts.append("</table>")
        for w in r["warnings"]:
            parts.append(f"<p><b>warning</b> {e(w['where'])}: {e(w['message'])}</p>")
    return "\n".join(parts) + "\n"
