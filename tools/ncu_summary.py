"""Summarise an Nsight Compute raw CSV (`ncu -i REPORT --page raw --csv`) of `tools/ncu_pair.py`'s launches into the
figures docs/propagate-mma-results/notes.md compares between a kernel before and after propagate-mma: time,
instructions, L2 and L1 traffic of global accesses, DRAM bytes, registers, local (spill) accesses and the warp
stalls per issue that move.  ncu_pair launches each config's `before` then `after` module, configs sorted, so the
rows pair up in that order.

    python3 tools/ncu_summary.py RAW.csv --json OUT.json --command "..." --inputs "..." --device "..."

Used for r43_ncu_attn.json (session 19).
"""

from __future__ import annotations

import argparse
import csv
import json
from pathlib import Path

FIGURES = {
    "duration_us": "gpu__time_duration.sum",
    "instructions": "smsp__inst_executed.sum",
    "l2_write_requests": "lts__t_requests_srcunit_tex_op_write.sum",
    "l2_write_sectors": "lts__t_sectors_srcunit_tex_op_write.sum",
    "l2_read_requests": "lts__t_requests_srcunit_tex_op_read.sum",
    "l2_read_sectors": "lts__t_sectors_srcunit_tex_op_read.sum",
    "l1_global_load_requests": "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
    "l1_global_store_requests": "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
    "dram_read_MB": "dram__bytes_read.sum",
    "dram_write_MB": "dram__bytes_write.sum",
    "local_loads_executed": "sass__inst_executed_local_loads",
    "local_stores_executed": "sass__inst_executed_local_stores",
    "registers": "launch__registers_per_thread",
    "shared_bank_conflicts": "l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum",
}
STALL = ("smsp__average_warps_issue_stalled_", "_per_issue_active.ratio")


def _number(text: str) -> float | None:
    try:
        return float(text.replace(",", ""))
    except ValueError:
        return None


def summarise(path: Path, configs: list[str]) -> list[dict]:
    rows = list(csv.reader(path.open()))
    header, data = rows[0], rows[2:]  # the second row holds the units
    column = {name: i for i, name in enumerate(header)}
    stalls = [h for h in header if h.startswith(STALL[0]) and h.endswith(STALL[1])]
    kernels = []
    for n, row in enumerate(data):
        kernel = {"kernel": configs[n // 2] if n // 2 < len(configs) else str(n // 2),
                  "module": "before" if n % 2 == 0 else "after"}
        for key, metric in FIGURES.items():
            if metric in column:
                kernel[key] = _number(row[column[metric]])
        kernel["stalls_per_issue"] = {h[len(STALL[0]):-len(STALL[1])]: _number(row[column[h]]) for h in stalls
                                      if (_number(row[column[h]]) or 0) >= 0.1}
        kernels.append(kernel)
    return kernels


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("csv", type=Path)
    ap.add_argument("--configs", nargs="+", required=True, help="the configs in ncu_pair's (sorted) order")
    ap.add_argument("--json", type=Path, required=True)
    ap.add_argument("--command", required=True)
    ap.add_argument("--inputs", required=True)
    ap.add_argument("--device", required=True)
    args = ap.parse_args(argv)
    report = {"command": args.command, "inputs": args.inputs, "device": args.device,
              "kernels": summarise(args.csv, args.configs)}
    args.json.write_text(json.dumps(report, indent=1) + "\n")
    for k in report["kernels"]:
        print(f"{k['kernel']} {k['module']}: {k.get('duration_us')} us, L2 write requests {k.get('l2_write_requests')}, "
              f"L2 read requests {k.get('l2_read_requests')}, registers {k.get('registers')}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
