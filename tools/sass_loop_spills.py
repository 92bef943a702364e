"""Where ptxas's spill code sits in a kernel: local-memory stores and loads (STL/LDL) and barriers inside
loops and outside them, in the SASS of TTGIR files compiled for cuda:90, one JSON object per file.

    /path/to/triton36/bin/python tools/sass_loop_spills.py KERNEL.ttgir ... > spills.jsonl

Runs under a Python with Triton (3.4+, whose wheel carries nvdisasm); no GPU is needed.  A loop is the span
from a label to a later branch back to it.  Spill bytes alone (ptxas -v, what `propagate-mma{profit=auto}`
reads) do not say where the spill code runs: a reload inside the main loop runs once per iteration, one in the
epilogue once.  Used for docs/propagate-mma-results.md, round 10.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile


def sass_of(path: str) -> str:
    import triton
    from triton.backends.compiler import GPUTarget

    kernel = triton.compile(path, target=GPUTarget("cuda", 90, 32))
    nvdisasm = os.path.join(os.path.dirname(triton.__file__), "backends", "nvidia", "bin", "nvdisasm")
    with tempfile.TemporaryDirectory() as d:
        cubin = os.path.join(d, "k.cubin")
        with open(cubin, "wb") as f:
            f.write(kernel.asm["cubin"])
        return subprocess.run([nvdisasm, "-c", cubin], capture_output=True, text=True, check=True).stdout


def loop_lines(lines: list[str]) -> set[int]:
    """Indices of the lines inside some loop: from a label to a later branch back to it."""
    labels = {}
    for i, line in enumerate(lines):
        m = re.match(r"^\.(L_x_\d+):", line.strip())
        if m:
            labels[m.group(1)] = i
    inside: set[int] = set()
    for i, line in enumerate(lines):
        m = re.search(r"BRA\S*\s+(?:`\()?\.?(L_x_\d+)", line)
        if m and m.group(1) in labels and labels[m.group(1)] < i:
            inside.update(range(labels[m.group(1)], i + 1))
    return inside


def counts(sass: str) -> dict[str, int]:
    lines = sass.splitlines()
    inside = loop_lines(lines)
    out = {}
    for op in ("STL", "LDL", "BAR"):
        hits = [i for i, line in enumerate(lines) if re.search(rf"\b{op}\b", line)]
        out[f"{op.lower()}_in_loops"] = sum(i in inside for i in hits)
        out[f"{op.lower()}_outside"] = sum(i not in inside for i in hits)
    return out


def main(argv: list[str]) -> int:
    for path in argv:
        print(json.dumps({"file": os.path.basename(path), **counts(sass_of(path))}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
