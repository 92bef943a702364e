"""How many CTAs of a kernel share one streaming multiprocessor, and whether a rewrite pays for what it does
to the compiled kernel: pure functions over what the real compiler reports (registers per thread, spills,
shared memory per CTA) and the module's warps, with NVIDIA's occupancy rules.

irkit cannot predict ptxas's register allocation from the IR; `propagate-mma{profit=compiled}` reads both
candidates' figures from the real compiler and decides here (`removal_pays`).
"""

from __future__ import annotations

from dataclasses import dataclass

SUB_PARTITIONS = 4  # an SM's warp schedulers; each has a quarter of the register file
REGISTER_UNIT = 256  # registers are given to a warp in blocks of 256 (8 per thread)


@dataclass(frozen=True)
class CompiledKernel:
    """What the real compiler made of a module."""

    registers: int  # per thread, as ptxas allocates them
    spill_bytes: int  # spill stores, bytes per thread
    shared: int  # metadata.shared: bytes per CTA


@dataclass(frozen=True)
class SmLimits:
    """One SM of a CUDA compute capability (CUDA C Programming Guide, table of technical specifications)."""

    registers: int  # 32-bit registers per SM
    max_warps: int
    max_ctas: int
    shared_bytes: int  # shared memory per SM
    reserved_per_cta: int = 1024  # shared memory the driver keeps for each resident CTA


SM_LIMITS: dict[int, SmLimits] = {
    80: SmLimits(65536, 64, 32, 167936),
    86: SmLimits(65536, 48, 16, 102400),
    89: SmLimits(65536, 48, 24, 102400),
    90: SmLimits(65536, 64, 32, 233472),
    100: SmLimits(65536, 64, 32, 233472),
}


def sm_limits(triple: str | None) -> SmLimits | None:
    """The SM of a module's target ("cuda:90"); None for other vendors and unknown capabilities."""
    if not triple or not triple.startswith("cuda:"):
        return None
    try:
        return SM_LIMITS.get(int(triple.split(":", 1)[1]))
    except ValueError:
        return None


@dataclass(frozen=True)
class Occupancy:
    ctas: int  # resident CTAs per SM
    warps: int  # resident warps per SM
    limited_by: str  # "registers" | "shared memory" | "warps" | "CTAs"

    def __str__(self) -> str:
        return f"{self.ctas} CTA(s)/SM ({self.warps} warps, by {self.limited_by})"


def ctas_per_sm(sm: SmLimits, registers: int, num_warps: int, shared_bytes: int) -> Occupancy:
    """Resident CTAs of a kernel using `registers` per thread, `num_warps` warps and `shared_bytes` of
    shared memory per CTA.  Each warp scheduler holds whole warps in its quarter of the register file."""
    per_warp = -(-max(1, registers) * 32 // REGISTER_UNIT) * REGISTER_UNIT
    warps_by_registers = (sm.registers // SUB_PARTITIONS // per_warp) * SUB_PARTITIONS
    limits = {
        "registers": warps_by_registers // num_warps,
        "shared memory": sm.shared_bytes // (shared_bytes + sm.reserved_per_cta),
        "warps": sm.max_warps // num_warps,
        "CTAs": sm.max_ctas,
    }
    by = min(limits, key=lambda k: limits[k])
    return Occupancy(limits[by], limits[by] * num_warps, by)


FEW_WARPS = 8  # resident warps per SM at or under which more CTAs pay (2 per scheduler)


def occupancy_pays(before: Occupancy, after: Occupancy, few_warps: int = FEW_WARPS) -> bool:
    """Does a rewrite that changes occupancy from `before` to `after` pay for itself, whatever else it does?

    Only where the SM was nearly empty.  Measured on the H100 (Triton 3.6, docs/propagate-mma-results.md):
    the plain GEMM 128x128x32 w4 s3 goes from 176 to 168 registers with its store conversion removed, 2 to
    3 CTAs (8 to 12 warps), and runs 4.6% faster, although the model calls the narrower stores a loss;
    the original capped at 168 registers runs 12% faster, so the CTA is what gains.  64x128x32 w4 s3 goes
    from 4 to 5 CTAs (16 to 20 warps) the same way and is 1.4% slower: with four warps per scheduler the
    latency is already hidden."""
    return after.ctas > before.ctas and before.warps <= few_warps


SPILL_DROP_BYTES = 512  # spill stores per thread a rewrite must save to pay for itself that way


def spills_pay(before: int, after: int, drop: int = SPILL_DROP_BYTES) -> bool:
    """Does a rewrite that changes ptxas's spill stores (bytes per thread) from `before` to `after` pay?

    Only a large drop.  Measured on the H100 (Triton 3.6, docs/propagate-mma-results.md), GEMM + add-matrix at
    3000x2900x1000, where every access is scalar: 256x128x64 w8 s3, 2,434 -> 1,302 B, 7% faster; 128x128x64 w4
    s4, 1,460 -> 720 B, 13% faster; but 128x256x64 w8 s3, 580 -> 260 B, 6% slower, and the four 256x256 tiles
    at 4096^3, 44-140 B less, within noise or 1.7% slower.

    Revisited after a held-out program (issue 22: fp16 GEMM + bias + residual at 4096^3), where three
    configurations left alone ran 1.0-1.6% faster with every conversion removed (spills 40, 56, 128 -> 0 B;
    registers 254 -> 238, 255 -> 222).  Neither a lower threshold nor "every spill gone and 16+ registers
    freed at the ceiling" separates them from this repository's own H100 runs: add-matrix 128x256x32 w8 s4
    at 4096^3 goes 255 -> 225 registers and 64 -> 0 B of spills and is 1.7-3.8% slower in five runs, while
    256x128x32 w8 s4 (255 -> 223, 24 -> 0 B) is 22% faster.  A 1-2% gain left alone costs less than a 2-4%
    loss taken ("never slower than 1%" comes first), so the threshold stays."""
    return before - after >= drop


def removal_pays(kept: CompiledKernel, removed: CompiledKernel, sm: SmLimits, num_warps: int) -> tuple[bool, str]:
    """Is the module with the conversions removed better than the one that keeps them, by what the compiler
    made of each: more CTAs where few were resident, or far fewer spills, and in neither way worse?  Returns the
    answer and the figures it rests on."""
    before = ctas_per_sm(sm, kept.registers, num_warps, kept.shared)
    after = ctas_per_sm(sm, removed.registers, num_warps, removed.shared)
    figures = (f"compiled with it {kept.registers} registers/thread, {before}; without it {removed.registers} "
               f"registers/thread, {after}; spills {kept.spill_bytes} -> {removed.spill_bytes} B")
    no_worse = after.ctas >= before.ctas and removed.spill_bytes <= kept.spill_bytes
    gains = occupancy_pays(before, after) or spills_pay(kept.spill_bytes, removed.spill_bytes)
    return no_worse and gains, figures
