"""A latency schedule of a kernel's SASS, one warp issuing in order: how many cycles the code outside loops
takes, and one steady-state iteration of its loops.  A candidate static figure for propagate-mma's profit rule
(docs/propagate-mma-results/notes.md, round 21), tried because the instruction counts the rule weighs
(`binary_metrics.sass_instruction_counts`) do not see where a load's latency is left uncovered.

    # under a Python with Triton 3.4+ (its wheel carries nvdisasm); no GPU is needed; compiles for cuda:90
    /path/to/triton36/bin/python tools/sass_schedule.py --before DIR --after DIR > pairs.jsonl

Each output line: {"kernel": the TTGIR's stem, "before": figures, "after": figures} for the files of the same
name in the two folders (the original TTGIRs, and `propagate-mma{profit=always}`'s outputs).

The model: each instruction issues one cycle after the one before it, or later when a register (general,
uniform or predicate) it reads is not ready yet; what it writes is ready after its opcode's latency
(`LATENCY`); a `BAR` waits for the last shared-memory store to land.  It ignores the other warps, the issue
ports and memory bandwidth: with 255 registers per thread, most kernels that propagate-mma's rule misjudges run
one or two warps per scheduler, where a warp's own dependencies are what it waits on (ncu's long-scoreboard
stalls, round 13)."""

from __future__ import annotations

import argparse
import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path

# irkit's SASS reader from this checkout (plain Python): this tool runs under Triton's Python, where irkit need
# not be installed
sys.path[:0] = [str(Path(__file__).resolve().parents[1] / "irkit" / "check")]
import binary_metrics  # noqa: E402

# cycles until a result can be read, by opcode (before the first '.').  Rough Hopper figures (microbenchmark
# papers on Hopper put an L2 hit near 260 cycles and a DRAM access near 480, an L1 hit near 35, shared memory
# near 30); a spill reload is taken as mostly an L1 hit.  Every other opcode: DEFAULT_LATENCY.
LATENCY = {"LDG": 500, "LDL": 100, "LDS": 30, "LDSM": 30, "LDC": 10, "ULDC": 10, "S2R": 25, "S2UR": 25,
           "MUFU": 15, "SHFL": 20, "HGMMA": 200, "I2F": 6, "F2F": 6, "F2I": 6, "F2FP": 6}
DEFAULT_LATENCY = 5
SHARED_STORE_SETTLE = 30  # cycles a barrier waits after the last shared-memory store
BARRIER = 20  # cycles a barrier itself takes
_REGISTER = re.compile(r"\b(U?R\d+|U?P\d+)\b")
_PREDICATE = re.compile(r"@!?(U?P\d+)")
_NOT_WRITTEN = ("RZ", "URZ", "PT", "UPT")
_VECTOR_LOADS = ("LDG", "LDL", "LDS", "LDSM", "LDC", "LD")
_STORES = ("STG", "STS", "STL", "ST")


@dataclass(frozen=True)
class Instruction:
    in_loop: bool
    opcode: str  # before the first '.'
    writes: tuple[str, ...]
    reads: tuple[str, ...]


def _width(opcode: str) -> int:
    """Registers a vector access moves per thread."""
    return 4 if ".128" in opcode else 2 if ".64" in opcode else 1


def _registers(first: str, count: int) -> list[str]:
    m = re.fullmatch(r"(U?R)(\d+)", first)
    if m is None:
        return [first]
    return [f"{m.group(1)}{int(m.group(2)) + k}" for k in range(count)]


def parse(sass: str) -> list[Instruction]:
    """The instructions of `nvdisasm` text, in order, each with the registers it writes and reads."""
    lines = sass.splitlines()
    inside = binary_metrics.sass_loop_lines(lines)
    out = []
    for i, line in enumerate(lines):
        m = binary_metrics._SASS_INSN.search(line)
        if m is None:
            continue
        full, head = m.group(1), m.group(1).split(".", 1)[0]
        args = m.group(2).replace(".reuse", "")
        parts = [a.strip() for a in re.split(r",(?![^\[]*\])", args)] if args else []
        writes: list[str] = []
        if parts and not full.startswith(binary_metrics._SASS_NO_DEST):
            count = _width(full) if head in _VECTOR_LOADS else 1
            if head == "HGMMA":  # 64xNx16 with fp32 accumulators: N/2 registers per thread
                shape = re.search(r"64x(\d+)x", full)
                count = int(shape.group(1)) // 2 if shape else 1
            writes = [r for r in _registers(parts[0].split()[0], count) if r not in _NOT_WRITTEN]
            parts = parts[1:]
        reads = [r for a in parts for r in _REGISTER.findall(a)]
        if head in _STORES and parts:  # the stored data, a vector of registers
            reads += [r for first in _REGISTER.findall(parts[-1]) for r in _registers(first, _width(full))]
        reads += _PREDICATE.findall(line)
        out.append(Instruction(i in inside, head, tuple(writes), tuple(reads)))
    return out


def schedule(code: list[Instruction]) -> int:
    """Cycles from the first issue until the last result is ready."""
    ready: dict[str, int] = {}
    clock = last_shared_store = 0
    for insn in code:
        start = max([clock + 1, *(ready.get(r, 0) for r in insn.reads)])
        if insn.opcode == "BAR":
            start = max(start, last_shared_store + SHARED_STORE_SETTLE) + BARRIER
        elif insn.opcode == "STS":
            last_shared_store = start
        clock = start
        for r in insn.writes:
            ready[r] = start + LATENCY.get(insn.opcode, DEFAULT_LATENCY)
    return max([clock, *ready.values()])


def figures(sass: str, repeats: int = 3) -> dict[str, float]:
    """`cycles_outside_loops`: the code outside loops in order (prologue and epilogue); `cycles_per_iteration`:
    the loops' instructions, scheduled `repeats` times back to back, less once, over `repeats - 1` (so a value
    carried from one iteration to the next is waited for)."""
    code = parse(sass)
    body = [x for x in code if x.in_loop]
    per_iteration = (schedule(body * repeats) - schedule(body)) / (repeats - 1) if body else 0.0
    return {"cycles_outside_loops": schedule([x for x in code if not x.in_loop]),
            "cycles_per_iteration": per_iteration}


def _compiled_sass(path: Path) -> str:
    import compile_worker
    import triton

    compiled = triton.compile(str(path), target=compile_worker.gpu_target("cuda:90"))
    return compile_worker.sass_of(triton, compiled.asm["cubin"])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--before", type=Path, required=True, help="folder of original TTGIRs")
    ap.add_argument("--after", type=Path, required=True, help="folder of the same names after the pass")
    args = ap.parse_args(argv)
    for before in sorted(args.before.glob("*.ttgir")):
        row: dict = {"kernel": before.stem}
        try:
            row["before"] = figures(_compiled_sass(before))
            row["after"] = figures(_compiled_sass(args.after / before.name))
        except Exception as exc:  # one kernel's failure is reported, the rest still run
            row["error"] = f"{type(exc).__name__}: {exc}"
        print(json.dumps(row), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
