"""tools/ncu_summary.py: an Nsight Compute raw CSV of tools/ncu_pair.py's launches, summarised before/after."""

from __future__ import annotations

import json

from tools_dir import import_tool


def _tool():
    return import_tool("ncu_summary")


def test_rows_pair_up_before_and_after_per_config_and_keep_the_stalls_that_count(tmp_path):
    header = ["Kernel Name", "gpu__time_duration.sum", "lts__t_requests_srcunit_tex_op_write.sum",
              "launch__registers_per_thread", "sass__inst_executed_local_loads",
              "smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio",
              "smsp__average_warps_issue_stalled_drain_per_issue_active.ratio"]
    units = ["", "us", "request", "register/thread", "inst", "inst", "inst"]
    rows = [["k", "47.5", "160,896", "255", "9600", "3.70", "0.05"], ["k", "42.4", "600,991", "227", "0", "1.05", "0.02"],
            ["k", "23.5", "131,072", "162", "0", "0.92", "0.40"], ["k", "23.6", "496,914", "135", "0", "0.63", "0.33"]]
    csv_path = tmp_path / "raw.csv"
    csv_path.write_text("\n".join(",".join(f'"{v}"' for v in row) for row in [header, units, *rows]) + "\n")
    out = tmp_path / "s.json"
    assert _tool().main([str(csv_path), "--configs", "big", "small", "--json", str(out), "--command", "c",
                         "--inputs", "i", "--device", "d"]) == 0
    kernels = json.loads(out.read_text())["kernels"]
    assert [(k["kernel"], k["module"]) for k in kernels] == [("big", "before"), ("big", "after"), ("small", "before"),
                                                              ("small", "after")]
    assert kernels[1]["l2_write_requests"] == 600991 and kernels[0]["local_loads_executed"] == 9600
    assert kernels[0]["stalls_per_issue"] == {"barrier": 3.70} and kernels[3]["stalls_per_issue"] == {
        "barrier": 0.63, "drain": 0.33}
    assert "instructions" not in kernels[0]  # a figure the report lacks is left out, not made up
