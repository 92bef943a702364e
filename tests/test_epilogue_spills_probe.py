"""tools/epilogue_spills_probe.py: the epilogue-bound rule's takes at other lines, on hand-written records, and on the
records of session 21 (docs/propagate-mma-results/r49_epilogue_spills_cpu.jsonl) against the latest runs."""

from __future__ import annotations

import json
from pathlib import Path

from tools_dir import import_tool

RESULTS = Path(__file__).resolve().parents[1] / "docs" / "propagate-mma-results"


def _call(before: int, after: int, **guards: bool) -> dict:
    return {"spills": [before, after], "trips": 4, "fewer_ctas": guards.get("fewer_ctas", False),
            "vetoed": guards.get("vetoed", False), "stores_outweigh": guards.get("stores_outweigh", False),
            "store_sectors_added": 0, "spill_ops": [0, 0]}


def test_a_take_needs_the_fall_and_every_guard():
    probe = import_tool("epilogue_spills_probe")
    records = [{"program": "p", "kernel": "a", "calls": [_call(900, 100)]},                      # 800 B, taken
               {"program": "p", "kernel": "b", "calls": [_call(900, 500)]},                      # 400 B
               {"program": "p", "kernel": "c", "calls": [_call(900, 100, stores_outweigh=True)]},
               {"program": "p", "kernel": "d", "calls": [_call(900, 100, fewer_ctas=True)]},
               {"program": "p", "kernel": "e", "calls": []},                                     # not epilogue-bound
               {"program": "p", "kernel": "f", "calls": [_call(900, 0)]}]                        # no GPU sign
    signs = {"a": "faster", "b": "slower", "c": "faster", "d": "faster", "e": "faster"}
    assert probe.takes_at(records, signs, 512) == {"faster": 1}
    assert probe.takes_at(records, signs, 384) == {"faster": 1, "slower": 1}
    assert probe.takes_at(records, signs, 1000) == {}


def test_session_21s_records_show_the_line_at_512_takes_no_loser():
    """Over the 11 programs with epilogue-bound launches, the line as it is takes no kernel that `profit=always` ran
    slower than 1% (round 35's LoRA kernel at 520 B ran 1.013 there, within noise, and 1.027 in its own run); lowered to
    384 B it takes one (a gelucol kernel whose spills fall by 392 B, 1.113)."""
    probe, rounds = import_tool("epilogue_spills_probe"), import_tool("propagate_mma_round")
    rows = rounds.latest_rows()
    assert len(rows) == json.loads((RESULTS / "latest_summary.json").read_text())["total"]["kernels"]
    signs = {key: row["sign"] for key, row in rows.items()}
    records = [json.loads(line) for line in (RESULTS / "r49_epilogue_spills_cpu.jsonl").read_text().splitlines()]
    assert "slower" not in probe.takes_at(records, signs, 512)
    assert probe.takes_at(records, signs, 384)["slower"] == 1
