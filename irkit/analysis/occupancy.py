"""How many CTAs of a kernel share one streaming multiprocessor (NVIDIA) or how many waves share one SIMD
(AMD CDNA), and whether a rewrite pays for what it does to the compiled kernel: pure functions over what the
real compiler reports (registers per thread or lane, spills, shared memory / LDS per CTA) and the module's
warps.  The rules' sources are named on `SmLimits` and `CuLimits`; docs/amd.md walks the CDNA ones.

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

    registers: int  # per thread, as ptxas allocates them (AMD: the unified VGPR+AGPR total per lane)
    spill_bytes: int  # spill stores, bytes per thread (AMD: 4 bytes per spilled VGPR)
    shared: int  # metadata.shared: bytes per CTA
    sgprs: int = 0  # AMD: scalar registers per wave, as the compiler counts them for occupancy
    reload_exposure: int | None = None  # CUDA: spill-reload latency its loops leave uncovered (binary_metrics)
    loop_other: int | None = None  # CUDA: SASS instructions in loops other than memory, tensor-core and barrier ones
    outside_loops: int | None = None  # CUDA: SASS instructions outside loops
    # CUDA: one loop iteration in a latency schedule of the SASS (binary_metrics.sass_loop_cycles); reported in the
    # remarks, deciding nothing: a rule on it was refuted by round 22's held-out program
    loop_cycles: float | None = None
    spill_ops_loop: int | None = None  # CUDA: spill loads and stores (LDL, STL) in loops, per thread
    spill_ops_outside: int | None = None  # CUDA: spill loads and stores outside loops, per thread


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
BUSY_SHARED_BYTES = 96 * 1024  # shared memory the resident CTAs hold, above which a CTA more did not pay


@dataclass(frozen=True)
class LaunchGrid:
    """A launch's CTAs and the SMs of the device it runs on: facts of the launch, not of the IR, which only a tool
    that sees the launch knows (irkit-check gives them to the pass as `launch-ctas` and `device-sms`)."""

    ctas: int
    sms: int

    def waves(self, resident: int) -> int:
        """The rounds the launch takes with `resident` CTAs at a time on each SM."""
        return -(-self.ctas // (self.sms * max(1, resident)))


def occupancy_pays(before: Occupancy, after: Occupancy, shared_per_cta: int, few_warps: int = FEW_WARPS,
                   busy_shared: int = BUSY_SHARED_BYTES) -> bool:
    """Does a rewrite that changes occupancy from `before` to `after` pay for itself, whatever else it does?
    `shared_per_cta`: the shared memory each CTA held before.

    Only where the SM was nearly empty: few warps, and little of its shared memory in the CTAs' pipelines.
    Measured on the H100 (Triton 3.6, docs/propagate-mma-results.md): the plain GEMM 128x128x32 w4 s3 goes from
    176 to 168 registers with its store conversion removed, 2 to 3 CTAs (8 to 12 warps), and runs 4.6% faster,
    although the model calls the narrower stores a loss; the original capped at 168 registers runs 12% faster, so
    the CTA is what gains.  64x128x32 w4 s3 goes from 4 to 5 CTAs (16 to 20 warps) the same way and is 1.4%
    slower: with four warps per scheduler the latency is already hidden.  The same tile at 4 stages (64 KB per
    CTA, 128 KB on the SM) lost 8.6% and 16.6% in two held-out programs (rounds 28 and 30).  Capping the
    original's registers to the same 3 CTAs, with nothing else changed, gained none of three programs anything at 4
    stages (0.998-1.097) and all three 8-15% at 3 stages (48 KB per CTA, 96 KB on the SM; H200,
    docs/propagate-mma-results/notes.md, round 30).  Every other CTA this criterion took, 14 kernels, came to an SM
    whose CTAs held 96 KB or less, and ran faster (0.69-0.98).  Why the 4-stage CTA gains nothing is not known."""
    return (after.ctas > before.ctas and before.warps <= few_warps
            and before.ctas * shared_per_cta <= busy_shared)


CTAS_PAY = (f"more CTAs on an SM that held {FEW_WARPS} or fewer warps and {BUSY_SHARED_BYTES // 1024} KB or less of "
            "shared memory")


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
    loss taken ("never slower than 1%" comes first), so the threshold stays.

    Its one measured loss (round 11, the held-out gemm_gelu_residual.py at 2900x3310x1400): fp32 out, 256x128x64
    w8 s3, 3,584 -> 1,494 B, 3.1% and 3.6% slower in two runs.  Over every H100 kernel this rule took, 7 ran
    6.6-17% faster, 1 within noise and that one slower; no figure ptxas reports tells it apart (the largest
    spills before, 255 registers both, the same accesses).  Its SASS does: its loops' spill reloads move next
    to their uses, and the SASS cost rule that comes first (`sass_cost_decides`, round 14) keeps it.  On an H200
    (round 12, the held-out gemm_batched_rowscale.py, decisions registered before the run) this rule took three
    more, all faster: 10.5-22%; in round 13 two more (gemm_gated_residual.py, masked 256x128x64 w8 s3) ran
    13-14% faster with profit=always."""
    return before - after >= drop


ASSUMED_TRIPS = 10  # main-loop trips the SASS figures assume where the launch's are not known
OUTSIDE_LOOP_WEIGHT = 1 / ASSUMED_TRIPS  # an instruction outside loops (the epilogue, once) against one in the loop
SASS_TAKE = 150  # SASS cost a rewrite must save to be taken on it alone
SASS_VETO = 300  # SASS cost a rewrite must add to be kept whatever its spills or occupancy


def epilogue_bound(kernel: CompiledKernel, loop_trips: int | None) -> bool:
    """Does a launch that runs the main loop `loop_trips` times (None: not known, so no) execute at least as many
    instructions outside loops as in its loops' iterations, by `kernel`'s SASS figures (loop instructions x trips,
    against instructions outside loops; no SASS, no answer)?  Then the kernel is its epilogue."""
    if loop_trips is None or kernel.loop_other is None or kernel.outside_loops is None:
        return False
    return kernel.outside_loops >= loop_trips * kernel.loop_other


OUTSIDE_DRIVEN = SASS_TAKE / 5  # a SASS-cost fall whose loop terms fall by less than this rests on the epilogue
SPILL_OPS_PER_STORE_SECTOR = 0.35  # executed spill loads/stores saved that pay for one store sector request added


def spill_ops_executed(kernel: CompiledKernel, loop_trips: int | None) -> int | None:
    """Spill loads and stores one warp executes: those in loops `loop_trips` times (not known: `ASSUMED_TRIPS`),
    the others once.  None without SASS."""
    if kernel.spill_ops_loop is None or kernel.spill_ops_outside is None:
        return None
    return kernel.spill_ops_loop * (loop_trips or ASSUMED_TRIPS) + kernel.spill_ops_outside


def sass_loop_change(kept: CompiledKernel, removed: CompiledKernel) -> int | None:
    """The loop terms of `sass_cost_change`: loop instructions and uncovered spill reloads, removed - kept."""
    figures = (kept.loop_other, kept.reload_exposure, removed.loop_other, removed.reload_exposure)
    if any(f is None for f in figures):
        return None
    return int(removed.loop_other or 0) - int(kept.loop_other or 0) + \
        int(removed.reload_exposure or 0) - int(kept.reload_exposure or 0)


def stores_outweigh_spills(kept: CompiledKernel, removed: CompiledKernel, store_sectors_added: int,
                           num_warps: int, loop_trips: int | None) -> str | None:
    """Where what a rewrite gains in the compiled kernel rests on the instructions outside loops (its loop terms
    fall by less than `OUTSIDE_DRIVEN`), do its stores, which add `store_sectors_added` sector requests per CTA,
    cost more than the spill traffic it saves?  Returns why ("rests on ..."), or None (they do not, or the figures
    are missing).

    Each partial sector a store in the accumulator's layout touches is its own L2 write request (L1 does not
    hold global stores), while the extra sectors of its loads are L1 hits of lines the warp reads again.  Seen
    under ncu on the H200 (session 18, examples/gpu/gemm_latent_up.py, fp16 out at K = 1024): removing both conversions
    took L2 write requests from 0.73M to 3.14M in 128x256x32 w8 s3, 12.9% slower, and from 1.12M to 3.16M in
    256x128x64 w8 s3, 10.1% faster, whose executed spill loads fell from 824k to 51k (128x256x32: 125k to 44k).
    The ratio was chosen on the 83 kernels of the 31 programs' latest runs whose SASS cost fell by 150 or more:
    of those resting on the epilogue, every one slower than 1% (8: the longer-K probe's 6, TF32 128x256x32's 2)
    saved at most 0.32 spill operations per store sector added, and all but two of the gains (0.900, 0.935)
    at least 0.38."""
    loop = sass_loop_change(kept, removed)
    spills_kept, spills_removed = spill_ops_executed(kept, loop_trips), spill_ops_executed(removed, loop_trips)
    if loop is None or spills_kept is None or spills_removed is None or store_sectors_added <= 0:
        return None
    if loop <= -OUTSIDE_DRIVEN:
        return None
    per_warp = store_sectors_added / max(1, num_warps)
    saved = spills_kept - spills_removed
    if saved >= SPILL_OPS_PER_STORE_SECTOR * per_warp:
        return None
    return (f"rests on the instructions outside loops (loop terms {loop:+d}), and its stores add {per_warp:,.0f} "
            f"sector requests per warp against {saved:,} executed spill loads and stores saved (fewer than "
            f"{SPILL_OPS_PER_STORE_SECTOR} per sector)")


def sass_cost_change(kept: CompiledKernel, removed: CompiledKernel) -> float | None:
    """How much a rewrite changes a CUDA kernel's static SASS cost: the arithmetic and control instructions in its
    loops, plus the spill-reload latency they leave uncovered, plus a tenth of the instructions outside loops
    (`binary_metrics.sass_cost_figures`).  None where either compile has no SASS (AMD, or no disassembler).

    Why these: in the register-starved kernels where the model's IR figures fail (masked sizes, 255 registers,
    spills in the main loop), removing an epilogue conversion changes ptxas's code for the main loop, and ncu
    shows the time going there (round 13: fewer instructions, more long-scoreboard stalls on spill reloads).
    The weights and thresholds were chosen on the 298 kernels timed on an H100 and an H200 (rounds 6-13), and
    checked by leaving each program out in turn (tools/profit_rule_cv.py, docs/propagate-mma-results.md,
    round 14): of the ten programs, nine held out drew the same rule and none of their kernels went slower.  On
    five programs written after it (rounds 14-18, on an H200, decisions registered before the runs) its 14
    takes all ran faster (3.5-34.6%) and its two vetoes each left a gain alone (5.4%, 2.7%)."""
    loop = sass_loop_change(kept, removed)
    if loop is None or kept.outside_loops is None or removed.outside_loops is None:
        return None
    return loop + OUTSIDE_LOOP_WEIGHT * (int(removed.outside_loops) - int(kept.outside_loops))


def sass_cost_decides(change: float | None, take: float = SASS_TAKE, veto: float = SASS_VETO) -> bool | None:
    """True (take the rewrite) where the SASS cost falls by `take` or more, False where it rises by `veto` or
    more, None (spills and occupancy decide) in between or without SASS."""
    if change is None:
        return None
    if change <= -take:
        return True
    if change >= veto:
        return False
    return None


def compiled_figures(kept: CompiledKernel, removed: CompiledKernel, sm: SmLimits | CuLimits, num_warps: int) -> str:
    """What the compiler made of a module with its conversions (`kept`) and without (`removed`), as the
    remarks of propagate-mma's compiler check show it: registers, occupancy, spills and (CUDA, where SASS was
    read) the SASS cost with its terms."""
    if isinstance(sm, CuLimits):
        before_waves = waves_per_simd(sm, kept.registers, num_warps, kept.shared, kept.sgprs)
        after_waves = waves_per_simd(sm, removed.registers, num_warps, removed.shared, removed.sgprs)
        return (f"compiled with it {kept.registers} VGPRs, {before_waves}; without it {removed.registers} VGPRs, "
                f"{after_waves}; spilled VGPRs {kept.spill_bytes // 4} -> {removed.spill_bytes // 4}")
    before = ctas_per_sm(sm, kept.registers, num_warps, kept.shared)
    after = ctas_per_sm(sm, removed.registers, num_warps, removed.shared)
    figures = (f"compiled with it {kept.registers} registers/thread, {before}; without it {removed.registers} "
               f"registers/thread, {after}; spills {kept.spill_bytes} -> {removed.spill_bytes} B")
    change = sass_cost_change(kept, removed)
    if change is not None:
        figures += (f"; SASS cost {change:+.0f} (loop instructions {kept.loop_other} -> {removed.loop_other}, "
                    f"uncovered spill reloads in loops {kept.reload_exposure} -> {removed.reload_exposure}, "
                    f"instructions outside loops {kept.outside_loops} -> {removed.outside_loops})")
    if kept.loop_cycles is not None and removed.loop_cycles is not None:
        figures += f"; loop schedule {kept.loop_cycles:,.0f} -> {removed.loop_cycles:,.0f} cycles/iteration"
    return figures


def removal_pays(kept: CompiledKernel, removed: CompiledKernel, sm: SmLimits | CuLimits,
                 num_warps: int, loop_trips: int | None = None, store_sectors_added: int = 0,
                 grid: LaunchGrid | None = None) -> tuple[bool, str]:
    """Is the module with the conversions removed better than the one that keeps them, by what the compiler
    made of each?  On CUDA, where both compiles' SASS is read and its cost moves far (`sass_cost_decides`), that
    decides, a take still needing no fewer CTAs and no more spills; otherwise more CTAs where few were resident,
    or far fewer spills, and in neither way worse.  On AMD (`sm` a `CuLimits`): a wave more per SIMD or fewer
    spilled VGPRs.  Returns the answer, and the figures it rests on (`compiled_figures`) with the criterion that
    decided.

    On CUDA, where the launch runs the main loop `loop_trips` times (None: not known) and so executes at least as
    many instructions outside loops as in them (`epilogue_bound`), nothing is taken on these figures but the
    epilogue's own spills (`_epilogue_spills_pay`): they weigh the main loop, and the kernel is its epilogue, whose
    global accesses the IR model weighs and they do not.
    Found on held-out programs (docs/propagate-mma-results/notes.md, H200), where the SASS cost's takes fell
    outside loops alone: round 34's rank-16 LoRA up-projection (K = 16, one trip): of 6, 4 ran 7-50% slower, 1
    within noise, 1 6% faster; round 35's latent up-projection at K = 512 (16 trips): of 4, 3 ran 5-16% slower.
    There the instructions outside loops were 60-98% of those executed; in every other kernel of the 29
    programs' latest runs whose SASS cost fell by 150 or more (113, 5 of them slower than 1% with every conversion
    removed) at most 40%.  First chosen as "fewer than 10 trips" (the SASS cost's weights assume ten), which round
    35 refuted at 16.  Past the line the SASS cost takes again, and round 36 found round 35's losers still slower
    at 32 and 64 trips, by less (up to 9.5% and 4.6%).  "Nothing" then left alone the largest gains of rounds
    37-44 (up to 32.6% faster), each a launch whose epilogue spilled 600-1,900 B per thread and spilled little
    without its conversions; the spill rule takes those again (session 20).  A seventh kernel of round 34, which the
    IR model rewrote itself at a marginal +492 cycles/CTA, ran 11% slower rewritten; these figures, taking nothing,
    undo it as before (`mma_profit.check_models_rewrite`).

    A fall of the SASS cost that rests on the instructions outside loops takes nothing either where the
    rewrite's stores, which add `store_sectors_added` sector requests per CTA (the IR model's figure), cost more
    than the spill traffic it saves (`stores_outweigh_spills`): round 36's longer-K losers.

    More CTAs on an SM take nothing where the launch is known (`grid`) and runs in as many waves with them as
    without (`LaunchGrid.waves`): the CTAs then share the SMs for no fewer rounds.  Round 43's held-out attention
    output projection (docs/propagate-mma-results/notes.md, H200), one compiled 64x128x32 w4 s4 kernel going from 2
    to 3 CTAs per SM at four sizes: at 512 and 400 CTAs (2 waves either way on 132 SMs) 11.0% and 4.3% slower; at
    594 and 591 CTAs (3 waves -> 2) 7.4% faster and within noise.  Over every take by more CTAs in the H200 runs
    whose grid is recorded (16): where the waves fell, 10 faster, 1 within noise, 2 slower (the 4-stage tiles the
    shared-memory bound keeps since round 30); where they did not, 2 slower (these) and 1 within noise."""
    if isinstance(sm, CuLimits):
        return _amd_removal_pays(kept, removed, sm, num_warps)
    figures = compiled_figures(kept, removed, sm, num_warps)
    before = ctas_per_sm(sm, kept.registers, num_warps, kept.shared)
    after = ctas_per_sm(sm, removed.registers, num_warps, removed.shared)
    no_worse = after.ctas >= before.ctas and removed.spill_bytes <= kept.spill_bytes
    change = sass_cost_change(kept, removed)
    if epilogue_bound(kept, loop_trips):
        return _epilogue_spills_pay(kept, removed, num_warps, loop_trips or 0, store_sectors_added,
                                    after.ctas < before.ctas, change, figures)
    by_sass = sass_cost_decides(change)
    worse = _but_worse(after.ctas < before.ctas, "fewer CTAs", removed.spill_bytes > kept.spill_bytes)
    if by_sass is not None:
        why = (f"the SASS cost falls by {SASS_TAKE} or more{worse}" if by_sass
               else f"the SASS cost rises by {SASS_VETO} or more")
        stores = stores_outweigh_spills(kept, removed, store_sectors_added, num_warps, loop_trips) if by_sass else None
        if stores is not None:
            return False, f"{figures}; {why}, but that fall {stores}, so they take nothing"
        return no_worse and by_sass, f"{figures}; {why}"
    more_ctas = occupancy_pays(before, after, kept.shared)
    same_waves = more_ctas and grid is not None and grid.waves(after.ctas) >= grid.waves(before.ctas)
    more_ctas = more_ctas and not same_waves
    fewer_spills = spills_pay(kept.spill_bytes, removed.spill_bytes)
    why = "occupancy and spills decide: " if change is None else \
        f"the SASS cost moves less than -{SASS_TAKE}/+{SASS_VETO}, so occupancy and spills decide: "
    if same_waves and not fewer_spills and grid is not None:
        waves = grid.waves(before.ctas)
        return False, (f"{figures}; {why}{CTAS_PAY}, but the launch's {grid.ctas:,} CTAs run in {waves} wave"
                       f"{'s' if waves != 1 else ''} on {grid.sms} SMs either way, and spills fall by less than "
                       f"{SPILL_DROP_BYTES} B")
    if more_ctas or fewer_spills:
        why += (CTAS_PAY if more_ctas else f"spills fall by {SPILL_DROP_BYTES} B or more") + worse
    else:
        why += f"neither {CTAS_PAY} nor spills {SPILL_DROP_BYTES} B fewer"
        # the same test without the shared-memory bound (resident CTAs never hold more than the SM has): say so
        # where the bound alone refused a CTA more
        if occupancy_pays(before, after, kept.shared, busy_shared=sm.shared_bytes):
            why += f" (a CTA more, but its CTAs held {before.ctas * kept.shared // 1024} KB of shared memory)"
    return no_worse and (more_ctas or fewer_spills), f"{figures}; {why}"


def _epilogue_spills_pay(kept: CompiledKernel, removed: CompiledKernel, num_warps: int, trips: int,
                         store_sectors_added: int, fewer_ctas: bool, change: float | None,
                         figures: str) -> tuple[bool, str]:
    """`removal_pays` in a launch that is its epilogue: the compiler's figures weigh the main loop and take
    nothing there, but one: the epilogue's own spill traffic, which they count exactly.  Where spills fall by
    `SPILL_DROP_BYTES` or more (so no more spills), the rewrite is taken, if it leaves no fewer CTAs on an SM
    (`fewer_ctas`), its SASS cost (`change`) does not rise by the veto, and its stores do not cost more than the
    spill traffic it saves (`stores_outweigh_spills`).

    Chosen after session 19 (H200, docs/propagate-mma-results/notes.md) on the 92 kernels of the latest runs whose
    remarks say the launch is its epilogue, and round 35's 24 LoRA kernels (K = 16) replayed with their one trip: it
    takes 20 that "nothing" left alone, 17 of them faster (1.8-32.6%) and 3 within noise (0.995; 1.012 and 1.013,
    whose intervals reach below 1.01); none slower.  Round 34's LoRA loser whose spills fell by 576 B (14.5% slower)
    stays kept by its stores.  Checked on two held-out programs registered before their runs (rounds 46 and 48): all
    10 of its takes ran 17-34% faster.  Run again (round 47), the LoRA kernel at the line (K = 16, one trip; spills
    520 B fewer, 0.36 spill operations saved per store sector) ran 2.7% slower: it sits by both lines at once, and
    no figure of it is far from one."""
    runs = "once" if trips == 1 else f"{trips} times"
    epilogue = (f"{figures}; the main loop runs {runs} at this launch: {trips * (kept.loop_other or 0):,} loop "
                f"instructions against {kept.outside_loops:,} outside loops, so the kernel is its epilogue, which "
                "these figures do not weigh")
    if not spills_pay(kept.spill_bytes, removed.spill_bytes):
        return False, f"{epilogue}, and they take nothing but the epilogue's spills, which fall by less than " \
                      f"{SPILL_DROP_BYTES} B"
    vetoed = sass_cost_decides(change) is False
    stores = stores_outweigh_spills(kept, removed, store_sectors_added, num_warps, trips)
    if fewer_ctas or vetoed or stores is not None:
        but = "fewer CTAs" if fewer_ctas else f"a SASS cost risen by {SASS_VETO} or more" if vetoed \
            else f"a fall that {stores}"
        return False, f"{epilogue}; its spills fall by {SPILL_DROP_BYTES} B or more, but with {but}"
    return True, f"{epilogue}, but its spills, the epilogue's own traffic, fall by {SPILL_DROP_BYTES} B or more"


def _but_worse(fewer: bool, fewer_words: str, more_spills: bool) -> str:
    """The clause that says why a gain does not count: what the rewrite makes worse."""
    worse = [words for words, holds in ((fewer_words, fewer), ("more spills", more_spills)) if holds]
    return f", but with {' and '.join(worse)}" if worse else ""


def removal_is_worse(kept: CompiledKernel, removed: CompiledKernel, sm: SmLimits | CuLimits,
                     num_warps: int) -> tuple[bool, str]:
    """Is the module the IR model rewrote worse than the one it came from, by what the compiler made of each:
    fewer CTAs per SM (AMD: waves per SIMD), more spills, or (CUDA) a SASS cost risen by the veto or more?  The
    same "worse in neither" that `removal_pays` asks of the compiler's own takes, asked of the model's.

    Why: on held-out programs (round 17, docs/propagate-mma-results.md) the IR model alone removed the conversions
    of gemm_at_clamp's fp32 masked 128x128x64 w8 s3 kernel, and it ran 10.9% slower; ptxas spilled 48 -> 136 B
    per thread and its main loop's spill code grew from 8 to 32 instructions.  Over the 394 timings recorded
    (rounds 6-17) this changes no other decision.  Returns the answer, and the figures it rests on
    (`compiled_figures`) with what is worse."""
    figures = compiled_figures(kept, removed, sm, num_warps)
    more_spills = removed.spill_bytes > kept.spill_bytes
    if isinstance(sm, CuLimits):
        before = waves_per_simd(sm, kept.registers, num_warps, kept.shared, kept.sgprs)
        after = waves_per_simd(sm, removed.registers, num_warps, removed.shared, removed.sgprs)
        fewer = after.waves < before.waves
        unit = "waves per SIMD"
        dearer = False
    else:
        fewer = ctas_per_sm(sm, removed.registers, num_warps, removed.shared).ctas < \
            ctas_per_sm(sm, kept.registers, num_warps, kept.shared).ctas
        unit = "CTAs per SM"
        dearer = sass_cost_decides(sass_cost_change(kept, removed)) is False
    worse = [why for why, holds in ((f"fewer {unit}", fewer), ("more spills", more_spills),
                                    (f"the SASS cost rises by {SASS_VETO} or more", dearer)) if holds]
    return bool(worse), f"{figures}; {', '.join(worse) if worse else f'no fewer {unit}, no more spills'}"


# -- AMD CDNA ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CuLimits:
    """One CDNA compute unit.  Registers, waves and workgroups: LLVM's
    `llvm/lib/Target/AMDGPU/Utils/AMDGPUBaseInfo.cpp` for subtargets with `FeatureGFX90AInsts` (gfx90a, gfx942,
    gfx950): `getVGPRAllocGranule` 8, `getAddressableNumVGPRs`/`getTotalNumVGPRs` 512 (VGPRs and AGPRs share
    one file), `getMaxWavesPerEU` 8, `getEUsPerCU` 4, `getMaxWorkGroupsPerCU` (16 barriers per CU; 32 waves
    for workgroups of one wave), `getOccupancyWithNumSGPRs` (GFX9's SGPR table).  LDS per CU: 64 KiB
    (gfx90a, gfx942: MI250X, MI300X), 160 KiB on gfx950 (MI355X): ROCm's "Accelerator and GPU hardware
    specifications" table, and LLVM's AMDGPU codegen tests, where gfx950 rejects "local memory (163844) exceeds
    limit (163840)" and gfx940-942 stop at 64 KiB.
    The compiler's `; Occupancy` comment uses all of these but LDS: Triton's LDS is dynamic, the compiler
    does not see it."""

    arch: str
    lds_bytes: int  # LDS per CU
    vgprs: int = 512  # unified VGPR+AGPR file per lane of one SIMD
    vgpr_granule: int = 8
    max_waves: int = 8  # per SIMD
    simds: int = 4  # per CU
    max_workgroups: int = 16  # per CU when a workgroup has more than one wave (its barrier)
    wave_size: int = 64


CU_LIMITS: dict[str, CuLimits] = {
    "gfx90a": CuLimits("gfx90a", 65536),
    "gfx942": CuLimits("gfx942", 65536),
    "gfx950": CuLimits("gfx950", 163840),
}

# GFX9 `getOccupancyWithNumSGPRs`: waves per SIMD for at most this many SGPRs (above the last: 7)
_SGPR_WAVES = ((80, 10), (88, 9), (100, 8))


def cu_limits(triple: str | None) -> CuLimits | None:
    """The CU of a module's target ("hip:gfx942" or "gfx942"); None for other vendors and unknown archs."""
    if not triple:
        return None
    arch = triple.split(":", 1)[1] if triple.startswith("hip:") else triple
    return CU_LIMITS.get(arch.split(":", 1)[0])  # "gfx942:sramecc+:xnack-" names the same CU


def limits_of(triple: str | None) -> SmLimits | CuLimits | None:
    """The occupancy rules of a module's target, NVIDIA's or AMD's; None where irkit has none."""
    return sm_limits(triple) or cu_limits(triple)


def _align_up(n: int, to: int) -> int:
    return -(-n // to) * to


def waves_by_vgprs(cu: CuLimits, vgprs: int) -> int:
    """Waves one SIMD holds of a kernel using `vgprs` (VGPRs + AGPRs, `; TotalNumVgprs`) per lane."""
    return min(max(cu.vgprs // _align_up(max(1, vgprs), cu.vgpr_granule), 1), cu.max_waves)


def waves_by_sgprs(cu: CuLimits, sgprs: int) -> int:
    """Waves one SIMD holds of a kernel using `sgprs` (`; NumSGPRsForWavesPerEU`) per wave."""
    for most, waves in _SGPR_WAVES:
        if sgprs <= most:
            return min(waves, cu.max_waves)
    return min(7, cu.max_waves)


def vgpr_budget(cu: CuLimits, waves: int) -> int:
    """The most VGPRs per lane that still lets `waves` waves share a SIMD (512, 256, 168, 128, 96, 80, 72, 64)."""
    return cu.vgprs // waves // cu.vgpr_granule * cu.vgpr_granule


@dataclass(frozen=True)
class Waves:
    """A CDNA kernel's occupancy: waves per SIMD, what limits them, and what to save for one more (None where
    that resource cannot give it)."""

    waves: int  # per SIMD, as the compiler's `; Occupancy` counts them (plus LDS)
    workgroups: int  # whole workgroups per CU that these waves make
    limited_by: str  # "vgpr" | "sgpr" | "lds" | "workgroups" | "waves_per_eu" | "max_waves"
    vgprs: int
    next_vgprs: int | None = None  # VGPRs per lane at or under which a SIMD holds one wave more
    next_lds: int | None = None  # LDS bytes per workgroup at or under which the LDS holds one workgroup more

    def __str__(self) -> str:
        if self.limited_by == "vgpr":
            why = f"vgpr {self.vgprs}" + (f"; next ≤{self.next_vgprs}" if self.next_vgprs is not None else "")
        elif self.limited_by == "lds":
            why = "lds" + (f"; next ≤{self.next_lds:,} B" if self.next_lds is not None else "")
        else:
            why = self.limited_by
        return f"{self.waves} waves/SIMD ({why})"


def _workgroups_from_waves(cu: CuLimits, waves: int, num_warps: int) -> int:
    """Whole workgroups of `num_warps` waves a CU holds when each of its SIMDs holds `waves`."""
    return waves * cu.simds // num_warps


def waves_per_simd(cu: CuLimits, vgprs: int, num_warps: int, lds_bytes: int = 0, sgprs: int = 0,
                   waves_per_eu: int = 0) -> Waves:
    """Waves per SIMD of a kernel using `vgprs` (VGPR+AGPR total, `.vgpr_count`) and `sgprs`
    (`; NumSGPRsForWavesPerEU`) per wave, `num_warps` waves per workgroup and `lds_bytes` (metadata.shared) of
    LDS per workgroup.  Registers limit waves per SIMD one by one; LDS and the workgroup cap count whole
    workgroups per CU, whose waves spread over its SIMDs (LLVM's `getOccupancyWithWorkGroupSizes`).  Without
    an LDS limit this is the compiler's `; Occupancy` (tests/test_amd_occupancy.py).  `waves_per_eu`: Triton's
    knob, `"amdgpu-waves-per-eu"="N, N"`; the compiler budgets registers for N waves and caps its `; Occupancy`
    at N (limiter "waves_per_eu"), although a SIMD could hold more where the registers allow.  A request under
    ceil(num_warps / 4) is ignored (LLVM's `getWavesPerEU`: measured, waves_per_eu=1 with 8 warps)."""
    num_warps = max(1, num_warps)
    most_groups = cu.max_waves * cu.simds // num_warps
    if num_warps > 1:
        most_groups = min(cu.max_workgroups, most_groups)
    groups_by_lds = cu.lds_bytes // lds_bytes if lds_bytes > 0 else most_groups
    limits = {
        "vgpr": waves_by_vgprs(cu, vgprs),
        "sgpr": waves_by_sgprs(cu, sgprs),
        "lds": min(cu.max_waves, groups_by_lds * num_warps // cu.simds) if groups_by_lds else 0,
        "workgroups": min(cu.max_waves, max(1, most_groups * num_warps // cu.simds)),
    }
    if waves_per_eu >= -(-num_warps // cu.simds):  # LLVM drops a request below what one workgroup puts on a SIMD
        limits["waves_per_eu"] = min(waves_per_eu, cu.max_waves)
    by = min(limits, key=lambda k: limits[k])
    waves = limits[by]
    if waves == cu.max_waves:
        by = "max_waves"  # the SIMD is full: nothing the kernel uses limits it
    more = by in limits and waves + 1 <= min(v for k, v in limits.items() if k != by)
    next_vgprs = vgpr_budget(cu, waves + 1) if by == "vgpr" and more else None
    next_lds = None
    if by == "lds" and groups_by_lds + 1 <= most_groups:
        next_lds = cu.lds_bytes // (groups_by_lds + 1)
    return Waves(waves, min(_workgroups_from_waves(cu, waves, num_warps), groups_by_lds), by, vgprs,
                 next_vgprs, next_lds)


def _amd_removal_pays(kept: CompiledKernel, removed: CompiledKernel, cu: CuLimits, num_warps: int) -> tuple[bool, str]:
    """AMD: take the rewrite when it gains a wave per SIMD or spills fewer VGPRs, and is worse in neither."""
    before = waves_per_simd(cu, kept.registers, num_warps, kept.shared, kept.sgprs)
    after = waves_per_simd(cu, removed.registers, num_warps, removed.shared, removed.sgprs)
    figures = compiled_figures(kept, removed, cu, num_warps)
    no_worse = after.waves >= before.waves and removed.spill_bytes <= kept.spill_bytes
    more_waves, fewer_spills = after.waves > before.waves, removed.spill_bytes < kept.spill_bytes
    if more_waves or fewer_spills:
        why = ("a wave more per SIMD" if more_waves else "fewer spilled VGPRs") + \
            _but_worse(after.waves < before.waves, "fewer waves", removed.spill_bytes > kept.spill_bytes)
    else:
        why = "neither a wave more per SIMD nor fewer spilled VGPRs"
    return no_worse and (more_waves or fewer_spills), f"{figures}; {why}"
