"""How many CTAs of a kernel share one streaming multiprocessor: pure functions over what the real compiler
reports (registers per thread, shared memory per CTA) and the module's warps, as NVIDIA's occupancy
calculator computes it.

irkit cannot predict ptxas's register allocation from the IR; `propagate-mma{profit=compiled}` reads the
registers of both candidates from the real compiler and weighs them here (`occupancy_pays`).
"""

from __future__ import annotations

from dataclasses import dataclass

SUB_PARTITIONS = 4  # an SM's warp schedulers; each has a quarter of the register file
REGISTER_UNIT = 256  # registers are given to a warp in blocks of 256 (8 per thread)


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
