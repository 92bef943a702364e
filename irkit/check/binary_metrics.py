"""What the real binaries say: pure parsers of PTX, ptxas `-v` logs, AMDGCN assembly and TTGIR text.

Counts are static (instructions in the code, not executed ones).  Each function takes text and returns
plain data, so they are tested on small real snippets and reused by static and run mode alike.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

# -- PTX ---------------------------------------------------------------------------------------------

# qualifiers that do not change what moves: cache and eviction hints, non-coherent path, prefetch sizes
_PTX_HINT = re.compile(r"\.(?:L1::[\w:]+|L2::[\w:]+|nc|ca|cg|cs|lu|cv|wb|wt|relaxed|acquire|release|weak|gpu|sys|cta)\b")
_PTX_GLOBAL = re.compile(r"^\s*(?:@!?%\w+\s+)?(ld|st)\.global((?:\.[\w:]+)*)", re.MULTILINE)
_PTX_OPCODE = re.compile(r"^\s*(?:@!?%\w+\s+)?([a-z][\w.:]*)", re.MULTILINE)


def _ptx_access_key(qualifiers: str) -> str:
    """'.L1::evict_last.v4.b32' -> 'v4.b32'; '.b32' -> 'b32'."""
    return _PTX_HINT.sub("", qualifiers).lstrip(".")


def _access_bits(key: str) -> int | None:
    m = re.fullmatch(r"(?:v(\d)\.)?[bufs](\d+)", key)
    if not m:
        return None
    return int(m.group(1) or 1) * int(m.group(2))


def ptx_global_accesses(ptx: str) -> dict[str, dict[str, int]]:
    """Global loads and stores by width: {"loads": {"v4.b32": 32}, "stores": {"v2.b32": 64}}."""
    out: dict[str, Counter] = {"loads": Counter(), "stores": Counter()}
    for m in _PTX_GLOBAL.finditer(ptx):
        out["loads" if m.group(1) == "ld" else "stores"][_ptx_access_key(m.group(2))] += 1
    return {k: dict(sorted(v.items(), key=lambda kv: (-(_access_bits(kv[0]) or 0), kv[0]))) for k, v in out.items()}


def ptx_shared_and_barriers(ptx: str) -> dict[str, int]:
    """Shared-memory instructions and barriers, by kind."""
    counts: Counter = Counter()
    for m in _PTX_OPCODE.finditer(ptx):
        op = m.group(1)
        if op.startswith(("ld.shared", "ld.volatile.shared")):
            counts["ld.shared"] += 1
        elif op.startswith(("st.shared", "st.volatile.shared")):
            counts["st.shared"] += 1
        elif op.startswith("ldmatrix"):
            counts["ldmatrix"] += 1
        elif op.startswith("stmatrix"):
            counts["stmatrix"] += 1
        elif op.startswith("cp.async.bulk"):
            counts["cp.async.bulk"] += 1
        elif op.startswith("cp.async.") and ".shared" in op:
            counts["cp.async"] += 1
        elif op.startswith(("atom.shared", "red.shared")):
            counts["atom.shared"] += 1
        elif op.startswith(("bar.sync", "barrier.sync", "bar.arrive", "barrier.arrive", "bar.red", "barrier.cta")):
            counts["bar"] += 1
        elif op.startswith("mbarrier."):
            counts["mbarrier"] += 1
    return dict(sorted(counts.items()))


def ptx_target(ptx: str) -> str | None:
    """The `.target sm_90a` of a PTX module (what ptxas must be given as --gpu-name)."""
    m = re.search(r"^\s*\.target\s+(sm_\w+)", ptx, re.MULTILINE)
    return m.group(1) if m else None


# -- ptxas -v --------------------------------------------------------------------------------------------

_PTXAS_FUNC = re.compile(r"Function properties for (\S+)")
_PTXAS_FRAME = re.compile(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads")
_PTXAS_USED = re.compile(r"Used (\d+) registers")


def ptxas_resources(log: str, function: str | None = None) -> dict[str, int] | None:
    """Registers and spills of one kernel from `ptxas -v` output (the first entry when `function` is None):
    {"registers", "stack_frame_bytes", "spill_store_bytes", "spill_load_bytes"}."""
    current = None
    found: dict[str, dict[str, int]] = {}
    order: list[str] = []
    for line in log.splitlines():
        m = _PTXAS_FUNC.search(line)
        if m:
            current = m.group(1)
            if current not in found:
                found[current] = {}
                order.append(current)
            continue
        if current is None:
            continue
        m = _PTXAS_FRAME.search(line)
        if m:
            found[current].update(stack_frame_bytes=int(m.group(1)), spill_store_bytes=int(m.group(2)),
                                  spill_load_bytes=int(m.group(3)))
        m = _PTXAS_USED.search(line)
        if m:
            found[current]["registers"] = int(m.group(1))
    if not order:
        return None
    return found.get(function) if function is not None else found[order[0]]


# -- AMDGCN ----------------------------------------------------------------------------------------------

_GCN_OPCODE = re.compile(r"^\s+([a-z][a-z0-9_]*)\b", re.MULTILINE)
_GCN_META_INT = re.compile(r"^\s*\.(vgpr_count|sgpr_count|agpr_count|vgpr_spill_count|sgpr_spill_count|"
                           r"group_segment_fixed_size|private_segment_fixed_size):\s*(\d+)", re.MULTILINE)


def amdgcn_memory_ops(asm: str) -> dict[str, dict[str, int]]:
    """Global/buffer loads and stores by width, LDS (ds_*) instructions and barriers of AMDGCN assembly."""
    out: dict[str, Counter] = {"loads": Counter(), "stores": Counter(), "shared": Counter(), "barriers": Counter()}
    for m in _GCN_OPCODE.finditer(asm):
        op = m.group(1)
        if op.startswith(("global_load", "buffer_load")):
            out["loads"][op] += 1
        elif op.startswith(("global_store", "buffer_store")):
            out["stores"][op] += 1
        elif op.startswith("ds_"):
            out["shared"][op] += 1
        elif op in ("s_barrier", "s_barrier_signal", "s_barrier_wait"):
            out["barriers"][op] += 1
    return {k: dict(sorted(v.items())) for k, v in out.items()}


_GCN_COMMENT_INT = re.compile(r"^\s*; (NumVgprs|NumAgprs|TotalNumVgprs|NumSGPRsForWavesPerEU|Occupancy):\s*(\d+)",
                              re.MULTILINE)
_GCN_ACCUM_OFFSET = re.compile(r"^\s*\.amdhsa_accum_offset\s+(\d+)", re.MULTILINE)
_COMMENT_KEYS = {"NumVgprs": "arch_vgprs", "NumAgprs": "agprs", "TotalNumVgprs": "total_vgprs",
                 "NumSGPRsForWavesPerEU": "occupancy_sgprs", "Occupancy": "occupancy"}


def amdgcn_resources(asm: str) -> dict[str, int]:
    """Registers, spills, LDS and scratch from the code object's metadata (`.vgpr_count: 128`, ...), and from
    the compiler's comments the VGPR/AGPR split, the SGPRs it counts for occupancy and its `; Occupancy`
    (waves per SIMD, LDS not counted: Triton's LDS is dynamic).

    The metadata has no `.agpr_count`: `.vgpr_count` is the unified total, `.amdhsa_accum_offset` (where the
    AGPRs start) + `; NumAgprs`.  `.group_segment_fixed_size` is 0 for Triton kernels: their LDS is
    `metadata.shared`."""
    found: dict[str, int] = {}
    for m in _GCN_META_INT.finditer(asm):
        found.setdefault(m.group(1), int(m.group(2)))
    for m in _GCN_COMMENT_INT.finditer(asm):
        found.setdefault(_COMMENT_KEYS[m.group(1)], int(m.group(2)))
    m = _GCN_ACCUM_OFFSET.search(asm)
    if m:
        found["accum_offset"] = int(m.group(1))
    if "agpr_count" not in found and "agprs" in found:
        found["agpr_count"] = found["agprs"]
    return found


# -- TTGIR -------------------------------------------------------------------------------------------------

_CONVERT = re.compile(r"\b(?:ttg|triton_gpu)\.convert_layout\b")


# -- SASS (nvdisasm -c) ------------------------------------------------------------------------------

_SASS_INSN = re.compile(r"/\*[0-9a-f]+\*/\s+(?:@!?U?P[T0-9]+\s+)?([A-Z][A-Z0-9_.]*)\s*(.*?)\s*;")
_SASS_LABEL = re.compile(r"^\s*\.(L_x_\d+):")
_SASS_BACK_BRANCH = re.compile(r"\bBRA\S*\s+(?:`\()?\.?(L_x_\d+)")
# opcodes whose operands are all read (no destination register first)
_SASS_NO_DEST = ("ST", "RED", "ATOM", "BAR", "BRA", "EXIT", "RET", "CALL", "WARPSYNC", "BSYNC", "BSSY", "NOP",
                 "MEMBAR", "FENCE", "ARRIVES", "SYNCS")
RELOAD_WINDOW = 32  # instructions: about the latency of a local-memory load that hits L1, at one per cycle


def _sass_operands(args: str) -> list[str]:
    """An instruction's operands, split at the commas outside `[...]` address brackets."""
    return [a.strip() for a in re.split(r",(?![^\[]*\])", args)]


def sass_loop_lines(lines: list[str]) -> set[int]:
    """Indices of the SASS lines inside an innermost loop: from a label to a later branch back to it, where no
    other such span lies within.

    Why innermost: the figures read from these lines are per tile.  A GEMM's innermost loop runs once per K
    step; in a persistent kernel the loop around it walks the tiles, and what sits there outside the K loop (the
    epilogue) runs once per tile, as a plain kernel's code outside its loop runs once per CTA.  Counting the loop
    over tiles as a loop weighed a persistent kernel's epilogue like its main loop (round 24,
    docs/propagate-mma-results/notes.md)."""
    labels = {m.group(1): i for i, line in enumerate(lines) if (m := _SASS_LABEL.match(line))}
    last_branch: dict[int, int] = {}  # a loop's label -> its last branch back (a loop may have several)
    for i, line in enumerate(lines):
        if (m := _SASS_BACK_BRANCH.search(line)) and m.group(1) in labels and labels[m.group(1)] < i:
            last_branch[labels[m.group(1)]] = i
    spans = list(last_branch.items())
    inside: set[int] = set()
    for first, last in spans:
        if not any(first <= start and end <= last and (start, end) != (first, last) for start, end in spans):
            inside.update(range(first, last + 1))
    return inside


def sass_loop_reload_exposure(sass: str, window: int = RELOAD_WINDOW) -> int:
    """How much of the spill-reload latency in a kernel's loops its own code does not cover: for each LDL
    inside a loop (a label up to a later branch back to it), `window` minus the number of instructions until
    its register is first read, when that is sooner (0 when it is not read in the loop).

    Why: a register-starved kernel's main loop reloads spilled values from local memory every iteration, and
    a reload whose value is needed a few instructions later stalls the warp (ncu's long-scoreboard stall).
    ptxas places them differently for each variant of a kernel, even when their count barely changes.

    A rule on it alone (f087d65: keep at +450, take at -450) was refuted by round 13's gemm_gated_residual.py,
    whose two masked 256x128x64 w8 s3 kernels rose +814 and +837 and ran 13-14% faster without their
    conversions: their loops also lost about 250 instructions.  It is one term of the SASS cost that
    propagate-mma's compiler check weighs (`sass_cost_figures`, `occupancy.sass_cost_change`)."""
    lines = sass.splitlines()
    inside = sass_loop_lines(lines)
    insns = [(i, m.group(1), m.group(2)) for i, line in enumerate(lines) if (m := _SASS_INSN.search(line))]
    exposure = 0
    for n, (line, opcode, operands) in enumerate(insns):
        dest = re.match(r"R(\d+)", operands)
        if not opcode.startswith("LDL") or line not in inside or dest is None:
            continue
        width = 4 if ".128" in opcode else 2 if ".64" in opcode else 1
        regs = [re.compile(rf"\bR{int(dest.group(1)) + k}(?![0-9])") for k in range(width)]
        for distance, (later, op, args) in enumerate(insns[n + 1:n + window], 1):
            if later not in inside:
                break
            parts = _sass_operands(args)
            reads = parts if op.startswith(_SASS_NO_DEST) else parts[1:]
            if any(r.search(a) for r in regs for a in reads):
                exposure += window - distance
                break
            if not op.startswith(_SASS_NO_DEST) and parts and any(r.fullmatch(parts[0]) for r in regs):
                break  # overwritten before it is read
    return exposure


# SASS opcode families told apart by the instruction counts below; every other opcode is the code's arithmetic,
# address and control work ("other")
SASS_FAMILIES = {
    "ldg": ("LDG",), "stg": ("STG",), "ldl": ("LDL",), "stl": ("STL",), "lds": ("LDS", "LDSM"), "sts": ("STS",),
    "ldgsts": ("LDGSTS",), "mma": ("HGMMA", "HMMA", "WGMMA"), "bar": ("BAR",), "sync": ("WARPSYNC", "SYNCS"),
}
_SASS_OPCODE = re.compile(r"/\*[0-9a-f]+\*/\s+(?:@!?U?P[T0-9]+\s+)?([A-Z][A-Z0-9_.]*)")


def sass_family(opcode: str) -> str:
    """The family of a SASS opcode (`SASS_FAMILIES`, by its name before the first '.'), else "other"."""
    head = opcode.split(".", 1)[0]
    return next((name for name, heads in SASS_FAMILIES.items() if head in heads), "other")


def sass_instruction_counts(sass: str) -> dict[str, int]:
    """Instructions of each family inside loops ("<family>_loop") and outside them ("<family>_out")."""
    lines = sass.splitlines()
    inside = sass_loop_lines(lines)
    counts: Counter[str] = Counter()
    for i, line in enumerate(lines):
        m = _SASS_OPCODE.search(line)
        if m:
            counts[f"{sass_family(m.group(1))}_{'loop' if i in inside else 'out'}"] += 1
    return dict(counts)


def sass_cost_figures(sass: str) -> dict[str, float]:
    """The figures of a kernel's SASS that propagate-mma's compiler check weighs (`occupancy.sass_cost_change`):
    the arithmetic and control instructions inside (innermost) loops ("other" there), every instruction outside them and the
    spill-reload latency the loops leave uncovered; its spill loads and stores (LDL, STL) inside loops and outside them
    (`occupancy.stores_outweigh_spills`); and one it only reports, the cycles of one loop iteration in a
    latency schedule (`sass_loop_cycles`)."""
    return sass_cost_figures_of(sass_instruction_counts(sass), sass_loop_reload_exposure(sass), sass_loop_cycles(sass))


def sass_cost_figures_of(counts: dict[str, int], reload_exposure: int,
                         loop_cycles: float | None = None) -> dict[str, float]:
    """`sass_cost_figures` from `sass_instruction_counts`' counts, the reload exposure and the loop schedule, as
    tools keep them."""
    out: dict[str, float] = {"loop_other": counts.get("other_loop", 0),
                             "outside_loops": sum(n for key, n in counts.items() if key.endswith("_out")),
                             "reload_exposure": reload_exposure,
                             "spill_ops_loop": counts.get("ldl_loop", 0) + counts.get("stl_loop", 0),
                             "spill_ops_outside": counts.get("ldl_out", 0) + counts.get("stl_out", 0)}
    if loop_cycles is not None:
        out["loop_cycles"] = loop_cycles
    return out


# -- a latency schedule of SASS: one warp issuing in order -------------------------------------------------

# cycles until a result can be read, by opcode (before the first '.').  Rough Hopper figures (microbenchmark
# papers on Hopper put an L2 hit near 260 cycles and a DRAM access near 480, an L1 hit near 35, shared memory
# near 30); a spill reload is taken as mostly an L1 hit.  Every other opcode: DEFAULT_LATENCY.
LATENCY = {"LDG": 500, "LDL": 100, "LDS": 30, "LDSM": 30, "LDC": 10, "ULDC": 10, "S2R": 25, "S2UR": 25,
           "MUFU": 15, "SHFL": 20, "HGMMA": 200, "I2F": 6, "F2F": 6, "F2I": 6, "F2FP": 6}
DEFAULT_LATENCY = 5
SHARED_STORE_SETTLE = 30  # cycles a barrier waits after the last shared-memory store
BARRIER = 20  # cycles a barrier itself takes
_SASS_REGISTER = re.compile(r"\b(U?R\d+|U?P\d+)\b")
_SASS_PREDICATE = re.compile(r"@!?(U?P\d+)")
_NOT_WRITTEN = ("RZ", "URZ", "PT", "UPT")
_VECTOR_LOADS = ("LDG", "LDL", "LDS", "LDSM", "LDC", "LD")
_STORES = ("STG", "STS", "STL", "ST")


@dataclass(frozen=True)
class SassInstruction:
    in_loop: bool
    opcode: str  # before the first '.'
    writes: tuple[str, ...]
    reads: tuple[str, ...]


def _vector_width(opcode: str) -> int:
    """Registers a vector access moves per thread."""
    return 4 if ".128" in opcode else 2 if ".64" in opcode else 1


def _register_run(first: str, count: int) -> list[str]:
    m = re.fullmatch(r"(U?R)(\d+)", first)
    if m is None:
        return [first]
    return [f"{m.group(1)}{int(m.group(2)) + k}" for k in range(count)]


def sass_instructions(sass: str) -> list[SassInstruction]:
    """The instructions of `nvdisasm` text, in order, each with the registers it writes and reads."""
    lines = sass.splitlines()
    inside = sass_loop_lines(lines)
    out = []
    for i, line in enumerate(lines):
        m = _SASS_INSN.search(line)
        if m is None:
            continue
        full, head = m.group(1), m.group(1).split(".", 1)[0]
        args = m.group(2).replace(".reuse", "")
        parts = _sass_operands(args) if args else []
        writes: list[str] = []
        if parts and not full.startswith(_SASS_NO_DEST):
            count = _vector_width(full) if head in _VECTOR_LOADS else 1
            if head == "HGMMA":  # 64xNx16 with fp32 accumulators: N/2 registers per thread
                shape = re.search(r"64x(\d+)x", full)
                count = int(shape.group(1)) // 2 if shape else 1
            writes = [r for r in _register_run(parts[0].split()[0], count) if r not in _NOT_WRITTEN]
            parts = parts[1:]
        reads = [r for a in parts for r in _SASS_REGISTER.findall(a)]
        if head in _STORES and parts:  # the stored data, a vector of registers
            reads += [r for first in _SASS_REGISTER.findall(parts[-1]) for r in _register_run(first, _vector_width(full))]
        reads += _SASS_PREDICATE.findall(line)
        out.append(SassInstruction(i in inside, head, tuple(writes), tuple(reads)))
    return out


def sass_schedule(code: list[SassInstruction]) -> int:
    """Cycles from the first issue until the last result is ready: each instruction issues one cycle after the
    one before it, or later when a register it reads (general, uniform or predicate) is not ready; what it
    writes is ready after its opcode's latency; a `BAR` waits for the last shared-memory store to land.  No
    other warps, issue ports or memory bandwidth."""
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


def sass_outside_loop_cycles(sass: str) -> int:
    """`sass_schedule` of the code outside loops, in order (prologue and epilogue)."""
    return sass_schedule([x for x in sass_instructions(sass) if not x.in_loop])


def sass_loop_cycles(sass: str, repeats: int = 3) -> float:
    """Cycles of one steady-state iteration of the kernel's loops, one warp issuing in order: their
    instructions scheduled `repeats` times back to back, less once, over `repeats - 1` (so a value carried from
    one iteration to the next is waited for); 0 without loops.

    Why: in a register-starved kernel the main loop reloads spills, and where ptxas puts a reload next to its use
    the warp waits (ncu's long-scoreboard stalls, round 13 of docs/propagate-mma-results/notes.md); instruction
    counts do not see that, a schedule does.  The compiler check reports it (`occupancy.compiled_figures`) and
    decides nothing on it: a rule that took a rewrite shortening it in 4-warp kernels at 250+ registers was chosen
    with each program left out (393 of 418 signs, against 378) and then refuted by a held-out program, whose
    aligned 128x128x64 w4 s3 kernel ran 6.1% slower (docs/propagate-mma-results/notes.md, rounds 21-22)."""
    body = [x for x in sass_instructions(sass) if x.in_loop]
    if not body:
        return 0.0
    return (sass_schedule(body * repeats) - sass_schedule(body)) / (repeats - 1)


def convert_layout_count(ttgir: str) -> int:
    return len(_CONVERT.findall(ttgir))


# -- one summary -------------------------------------------------------------------------------------------


def binary_summary(asm: dict[str, str], ptxas_log: str | None = None, kernel: str | None = None) -> dict:
    """Everything above for one compiled kernel, from its `asm` texts (ptx/amdgcn/ttgir) and ptxas log."""
    out: dict = {}
    if asm.get("ttgir"):
        out["convert_layout"] = convert_layout_count(asm["ttgir"])
    if asm.get("ptx"):
        g = ptx_global_accesses(asm["ptx"])
        out["global_loads"], out["global_stores"] = g["loads"], g["stores"]
        out["shared_and_barriers"] = ptx_shared_and_barriers(asm["ptx"])
    if ptxas_log:
        res = ptxas_resources(ptxas_log, kernel) or ptxas_resources(ptxas_log)
        if res:
            out["registers"] = res.get("registers")
            out["spill_store_bytes"] = res.get("spill_store_bytes")
            out["spill_load_bytes"] = res.get("spill_load_bytes")
            out["stack_frame_bytes"] = res.get("stack_frame_bytes")
    if asm.get("sass"):
        out.update(sass_cost_figures(asm["sass"]))
    if asm.get("amdgcn"):
        ops = amdgcn_memory_ops(asm["amdgcn"])
        out["global_loads"], out["global_stores"] = ops["loads"], ops["stores"]
        out["shared_and_barriers"] = {**ops["shared"], **ops["barriers"]}
        res = amdgcn_resources(asm["amdgcn"])
        if res:
            out["registers"] = res.get("vgpr_count")
            out["sgpr_count"] = res.get("sgpr_count")
            out["agpr_count"] = res.get("agpr_count")
            out["accum_offset"] = res.get("accum_offset")
            out["occupancy_sgprs"] = res.get("occupancy_sgprs")
            out["compiler_occupancy"] = res.get("occupancy")
            out["vgpr_spill_count"] = res.get("vgpr_spill_count")
            out["sgpr_spill_count"] = res.get("sgpr_spill_count")
            out["scratch_bytes"] = res.get("private_segment_fixed_size")
    return out


def width_summary(accesses: dict[str, int]) -> str:
    """{"v4.b32": 32, "b32": 4} -> 'v4.b32×32 b32×4' (widest first; × since AMD names end in x4)."""
    return " ".join(f"{k}×{v}" for k, v in accesses.items()) or "-"
