"""tools/measured_profit_eval.py: propagate-mma's decisions taken on the GPU, judged against an earlier and
independent `profit=always` run; on hand-written reports, and on session 24's recorded run (41 programs)."""

from __future__ import annotations

import json
from pathlib import Path

from tools_dir import import_tool

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "docs" / "propagate-mma-results"


def _remark(timed: dict[str, tuple[float, float, float]], verdict: str) -> str:
    figures = "; ".join(f"{what}: after/before {r:.3f} [{lo:.3f}, {hi:.3f}] over 40 pairs"
                        for what, (r, lo, hi) in timed.items())
    return f"k.ttgir:1:1: remark: propagate-mma: {verdict} (profit=auto: measured on the GPU: {figures})"


def _kernel(block_m: int, status: str, ratio: float | None = None, remarks: list[str] | None = None) -> dict:
    out = {"name": "k", "status": status, "bit_identical": True, "remarks": remarks or [],
           "launch_metadata": {"name": "gemm"}, "family": ["gemm", [512, 512, 512]],
           "config": {"BLOCK_M": block_m, "BLOCK_N": 64, "BLOCK_K": 32, "num_warps": 4, "num_stages": 3}}
    if ratio is not None:
        out["timing"] = {"ratio": ratio, "ratio_lo": ratio - 0.002, "ratio_hi": ratio + 0.002}
    return out


def test_the_candidate_taken_is_the_fastest_of_those_measured_faster():
    tool = import_tool("measured_profit_eval")
    assert tool.picked({"the model's rewrite": [0.97, 0.96, 0.98], "every conversion removed": [0.95, 0.90, 1.01]}) \
        == "the model's rewrite"
    assert tool.picked({"the model's rewrite": [0.97, 0.96, 0.98], "every conversion removed": [0.95, 0.94, 0.96]}) \
        == "every conversion removed"
    assert tool.picked({"every conversion removed": [0.99, 0.98, 1.001]}) is None
    assert tool.picked({"every conversion removed": [0.99, 0.98, 1.0]}) is not None  # printed 1.000: maybe below
    remark = _remark({"the model's rewrite": (0.939, 0.934, 0.943), "every conversion removed": (1.062, 1.058, 1.067)},
                     "rewrite kept: measured faster")
    assert tool.decision_timings([remark]) == {"the model's rewrite": [0.939, 0.934, 0.943],
                                               "every conversion removed": [1.062, 1.058, 1.067]}


def test_signs_slower_rewrites_and_partial_rewrites_by_their_own_run(tmp_path, monkeypatch):
    tool = import_tool("measured_profit_eval")
    monkeypatch.setattr(tool.table, "DATA", tmp_path)
    monkeypatch.setattr(tool.rounds, "latest_runs", lambda: {"addmm": ("old_default.json", "old_always.json")})
    always = [_kernel(64, "checked", 0.90), _kernel(128, "checked", 1.05), _kernel(256, "checked", 1.06),
              _kernel(32, "checked", 0.95), _kernel(16, "checked", 1.001)]
    # the earlier default rewrote 256 partially (its own run: 0.97) and kept the rest
    old = [_kernel(64, "unchanged"), _kernel(128, "unchanged"), _kernel(256, "checked", 0.97), _kernel(32, "unchanged"),
           _kernel(16, "unchanged")]
    both = {"the model's rewrite": (0.96, 0.95, 0.97), "every conversion removed": (1.06, 1.05, 1.07)}
    new = [_kernel(64, "checked", remarks=[_remark({"every conversion removed": (0.9, 0.89, 0.91)}, "moved")]),
           _kernel(128, "checked", remarks=[_remark({"every conversion removed": (0.98, 0.97, 0.99)}, "moved")]),
           _kernel(256, "checked", remarks=[_remark(both, "rewrite kept: measured faster")]),
           _kernel(32, "unchanged", remarks=[_remark({"every conversion removed": (0.99, 0.97, 1.01)}, "kept")]),
           _kernel(16, "unchanged"), _kernel(8, "unchanged")]
    for name, kernels in (("old_always.json", always), ("old_default.json", old), ("addmm_default.json", new)):
        (tmp_path / name).write_text(json.dumps({"kernels": kernels}))
    result = tool.judge(tmp_path)
    c = result["all"]
    assert c["kernels"] == 5 and result["programs"]["addmm"]["not_in_always_run"] == 1
    # 128 ran 1.05 under profit=always: a slower rewrite; 32 ran 0.95: a gain left alone; 256 took the model's
    # partial rewrite, judged by its own earlier run (0.97: faster), not by profit=always's 1.06
    assert c["signs"] == 3 and c["partial_rewrites"] == 1 and c["judged_by_own_earlier_run"] == 1
    assert [s.split(" ", 1)[1] for s in c["slower_rewrites"]] == ["1.050 (always)"]
    assert "_128x64x32_" in c["slower_rewrites"][0]
    assert [g.split()[-1] for g in c["gains_left_alone"]] == ["0.950"]
    # the earlier default: 128 and 16 right, 256 right by its own run, the gains at 64 and 32 left alone
    assert c["static_signs"] == 3
    assert abs(c["gain_all"] - (1 / 0.90 - 1 + 1 / 0.95 - 1)) < 1e-9 and abs(c["gain_kept"] - (1 / 0.90 - 1)) < 1e-9


def test_session_24_every_program_judged_and_the_recorded_figures_are_the_tools():
    """Session 24's run (notes.md): all 41 programs of the latest runs, each kernel of theirs found in both runs;
    the recorded summary is what the tool computes from the recorded reports."""
    tool = import_tool("measured_profit_eval")
    result = tool.judge(RESULTS, "s24_")
    assert set(result["programs"]) == set(tool.rounds.latest_runs())
    assert result["all"]["kernels"] == sum(p["kernels"] for p in result["programs"].values())
    recorded = json.loads((RESULTS / "s24_measured_eval.json").read_text())
    assert recorded["all"] == json.loads(json.dumps(result["all"]))
    # every decision was timed, and each rewrite was shown faster; but where the model had rewritten and the one
    # removing every conversion was faster still, session 24's pass said nothing (fixed since: "replaced by"),
    # so those rewrites carry only the model's remarks, and are judged as profit=always's code
    rows = result["rows"]
    reports = {tool.kernel_key(k): k for path in RESULTS.glob("s24_*_default.json")
               for k in json.loads(path.read_text())["kernels"]}
    silent = [row for row in rows if row["changed"] and not row["timed"]]
    assert all(any(": moved to " in r for r in reports[row["kernel"]]["remarks"]) for row in silent)
    assert all(row["sign_by"] == "always" for row in silent) and len(silent) < 5
    assert all(tool.picked(row["timed"]) is not None for row in rows if row["changed"] and row["timed"])
    assert all(min(t[2] for t in row["timed"].values()) >= 1.0 for row in rows if not row["changed"] and row["timed"])
    # the judge timed the same code: nearly every rewrite into profit=always's module compiled to its very kernel
    assert result["all"]["same_code_as_judge"] >= 0.95 * result["all"]["judged_as_always"] > 0
    # each partial rewrite is one the earlier default made too, so its own earlier run judges it
    assert all(row["sign_by"] == "own earlier run" for row in rows if row["partial"])
