"""Make tests/data/amd/: real HIP compiles of GEMMs (Triton 3.6 on the CPU) for gfx90a, gfx942 and gfx950 over
tiles, num_warps, num_stages and the AMD knobs, with what the compiler said about each: the AMDGCN lines that
carry registers, spills, scratch and its `; Occupancy`, and `metadata.shared`.  The tests check irkit's
CDNA occupancy against them (tests/test_amd_occupancy.py).

    .venv/bin/python tools/amd_occupancy_golden.py --python /work/venvs/t3.6.0/bin/python --out tests/data/amd

The kernels (tests/data/amd/kernels.py) are ours; the grid is not the one docs/amd.md was written from.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

WORKER = Path(__file__).resolve().parent.parent / "irkit" / "sweep" / "knob_worker.py"
RESOURCE_LINE = re.compile(r"^\s*(?:; (?:NumVgprs|NumAgprs|TotalNumVgprs|TotalNumSgprs|NumSGPRsForWavesPerEU|"
                           r"NumVGPRsForWavesPerEU|Occupancy|ScratchSize|codeLenInByte):.*|\.amdhsa_accum_offset .*|"
                           r"\.(?:vgpr_count|sgpr_count|agpr_count|vgpr_spill_count|sgpr_spill_count|"
                           r"group_segment_fixed_size|private_segment_fixed_size|max_flat_workgroup_size):.*)$")

# (kernel, BLOCK_M, BLOCK_N, BLOCK_K, num_warps, num_stages, options)
GRID = [
    ("matmul", 64, 128, 32, 4, 2, {}),
    ("matmul", 128, 64, 64, 4, 2, {"waves_per_eu": 3}),
    ("matmul", 128, 128, 32, 2, 2, {}),
    ("matmul", 256, 128, 32, 8, 2, {}),
    ("matmul", 128, 256, 64, 4, 2, {}),
    ("matmul", 32, 32, 32, 1, 2, {}),
    ("matmul", 64, 64, 64, 4, 2, {"waves_per_eu": 8}),
    ("matmul", 128, 128, 64, 4, 2, {"matrix_instr_nonkdim": 16, "waves_per_eu": 2}),
    ("matmul", 64, 64, 256, 4, 3, {}),          # LDS-heavy, few VGPRs: LDS limits on gfx942
    ("matmul", 128, 64, 128, 8, 3, {"kpack": 2}),
    ("matmul", 64, 32, 128, 4, 2, {}),          # few VGPRs, LDS for 2 workgroups on gfx90a/gfx942
    ("matmul", 32, 32, 256, 2, 3, {}),
    ("matmul_add", 128, 128, 32, 4, 2, {}),
    ("matmul_add", 64, 256, 32, 8, 2, {"waves_per_eu": 1}),
    ("matmul_add", 32, 64, 64, 2, 2, {"matrix_instr_nonkdim": 16}),
    ("transpose", 64, 128, 1, 4, 2, {}),        # ~70 VGPRs, the layout change through LDS: LDS limits
    ("transpose", 128, 128, 1, 8, 2, {}),
    ("transpose", 32, 64, 1, 2, 2, {"waves_per_eu": 4}),
]
ARCHS = ("gfx90a", "gfx942", "gfx950")


def excerpt(asm: str) -> str:
    return "\n".join(line.strip() for line in asm.splitlines() if RESOURCE_LINE.match(line)) + "\n"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--python", required=True, help="a Python with Triton 3.6")
    ap.add_argument("--out", default="tests/data/amd")
    a = ap.parse_args()
    out = Path(a.out)
    rows = []
    for arch in ARCHS:
        configs = [{"constexprs": {"BLOCK_M": m, "BLOCK_N": n, "BLOCK_K": k},
                    "options": {"num_warps": w, "num_stages": s, **opts}, "kernel": name}
                   for name, m, n, k, w, s, opts in GRID]
        for name in sorted({c["kernel"] for c in configs}):
            mine = [c for c in configs if c["kernel"] == name]
            request = {"source": str(out / "kernels.py"), "kernel": name, "target": f"hip:{arch}", "configs": mine}
            with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
                json.dump(request, f)
            p = subprocess.run([a.python, str(WORKER), f.name], capture_output=True, text=True, check=True)
            answer = json.loads(p.stdout)
            for config, r in zip(mine, answer["results"]):
                c = config["constexprs"]
                tag = f"{arch}_{name}_{c['BLOCK_M']}x{c['BLOCK_N']}x{c['BLOCK_K']}_" + "_".join(
                    f"{k}{v}" for k, v in config["options"].items())
                row = {"id": tag, "arch": arch, "kernel": name, **c, **config["options"], "ok": r["ok"]}
                if r["ok"]:
                    (out / "amdgcn" / f"{tag}.txt").parent.mkdir(parents=True, exist_ok=True)
                    (out / "amdgcn" / f"{tag}.txt").write_text(excerpt(r["asm"]["amdgcn"]))
                    row.update(shared=r["shared"], compile_seconds=round(r["seconds"], 2))
                else:
                    row["error"] = r["error"][:300]
                rows.append(row)
                print(tag, row.get("shared"), row.get("error", ""), file=sys.stderr)
            if arch == "gfx942" and name == "matmul":  # one whole kernel for the parsers' tests
                small = answer["results"][[c["constexprs"]["BLOCK_M"] for c in mine].index(32)]
                (out / "gfx942_matmul_32x32x32_w1.amdgcn").write_text(small["asm"]["amdgcn"])
    (out / "golden.json").write_text(json.dumps({"triton": answer["triton_version"], "rows": rows}, indent=1) + "\n")


if __name__ == "__main__":
    main()
