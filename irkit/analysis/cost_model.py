"""What moving a tensor between layouts costs: pure functions over layouts, shared by `propagate-mma`
(which decides with them) and `irkit-report` (which shows the verdict).

Three estimates, each from the layout algebra (`irkit.layout`) and, for global accesses, from AxisInfo:

* `conversion_cost` — a `ttg.convert_layout` that goes through shared memory: the bytes it writes and
  reads back, its scratch (the same figure as `irkit.analysis.shared_memory`), the rounds the scratch
  forces (each round is a store, a barrier, a load and a barrier), the shared-memory instructions per
  thread, the bank conflicts of the two sides where the layouts tell (padded scratch, Triton <= 3.3),
  and the registers that are live twice while the value is in flight;
* `global_access_cost` — a `tt.load`/`tt.store` of a tensor of pointers in a layout: the vector width
  (the layout's contiguous elements per thread, capped by the pointer's AxisInfo contiguity and
  alignment and by 128-bit accesses), instructions per thread, and, for one warp instruction, the
  32-byte sectors and 128-byte lines it touches (the lanes' addresses computed from the layout);
* `registers_per_thread` — 32-bit registers one thread holds for a tensor in a layout.

`compare_rewrite` puts them together for one propagate-mma plan: the conversions it removes and adds
and the global accesses it moves, each weighted in estimated cycles per CTA (`Weights`, calibrated on
H100 measurements, docs/propagate-mma-results.md), plus the unlock rule: a rewrite that brings the
kernel's shared memory under the device limit is always taken.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import reduce
from math import ceil, prod

from xdsl.dialects.builtin import TensorType
from xdsl.ir import Attribute

from irkit.layout import algebra, conversion, linear
from irkit.layout.intel_conversion import is_intel_target

MAX_VECTOR_BITS = 128
SECTOR_BYTES = 32
LINE_BYTES = 128
BANKS = 32
BANK_BYTES = 4


# ---------------------------------------------------------------------------------------------
# Where a warp's lanes are
# ---------------------------------------------------------------------------------------------


def lane_coordinates(enc: Attribute, shape: Sequence[int], warp_size: int) -> list[tuple[int, ...]]:
    """The tensor coordinates of register 0 of each lane of warp 0 (lanes holding the same element
    appear once per lane)."""
    ll = linear.to_linear_layout(enc, shape)
    rank = len(shape)
    if ll is not None and ll.has_in_dim("lane"):
        bases = ll.bases["lane"]
        out = []
        for lane in range(min(warp_size, 1 << len(bases))):
            coord = reduce(
                lambda acc, ib: tuple(a ^ b for a, b in zip(acc, ib[1])) if lane >> ib[0] & 1 else acc,
                enumerate(bases),
                (0,) * rank,
            )
            out.append(coord)
        return out
    # layouts without a linear form (e.g. a #dot_op of #blocked): lanes in `order`, each holding sizePerThread elements
    tpw = algebra.threads_per_warp(enc)
    spt = algebra.size_per_thread(enc)
    order = algebra.get_order(enc)
    out = []
    for lane in range(warp_size):
        position = [0] * rank
        rest = lane
        for d in order:
            position[d] = (rest % tpw[d]) * spt[d] % max(1, shape[d])
            rest //= tpw[d]
        out.append(tuple(position))
    return out


# ---------------------------------------------------------------------------------------------
# Registers
# ---------------------------------------------------------------------------------------------


def registers_per_thread(t: TensorType) -> int:
    """32-bit registers one thread needs to hold a tensor in its layout (pointers: 2)."""
    enc = t.encoding
    if enc is None or not algebra.is_distributed(enc):
        return 0
    shape = t.get_shape()
    elems = algebra.num_elements_per_thread(enc, shape)
    if linear.to_linear_layout(enc, shape) is None:
        # no linear form (a #dot_op of #blocked or #wmma): at least the tensor spread over every thread once
        try:
            threads = prod(algebra.warps_per_cta(enc)) * prod(algebra.threads_per_warp(enc))
            elems = max(elems, ceil(prod(shape) / threads))
        except (algebra.UnsupportedLayout, ValueError, KeyError, TypeError):
            pass
    bits = algebra.elem_bits(t)
    return ceil(elems * bits / 32)


# ---------------------------------------------------------------------------------------------
# Global loads and stores
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class AccessCost:
    """One `tt.load`/`tt.store` of a tensor of pointers, per CTA."""

    layout: str
    elem_bits: int
    elems_per_thread: int
    vector: int  # elements per instruction and thread
    instructions: int  # per thread
    warp_instructions: int  # per CTA
    sectors_per_instruction: int  # 32-byte sectors one warp instruction touches
    lines_per_instruction: int  # 128-byte lines one warp instruction touches
    useful_bytes_per_instruction: int

    @property
    def vector_bits(self) -> int:
        return self.vector * self.elem_bits

    @property
    def sector_efficiency(self) -> float:
        touched = self.sectors_per_instruction * SECTOR_BYTES
        return self.useful_bytes_per_instruction / touched if touched else 1.0

    @property
    def transactions(self) -> int:
        """128-byte line requests per CTA (what the L1/TEX pipeline serves one per cycle)."""
        return self.warp_instructions * self.lines_per_instruction

    @property
    def sector_requests(self) -> int:
        """32-byte sectors requested per CTA (a half-used sector counts once per instruction touching it)."""
        return self.warp_instructions * self.sectors_per_instruction

    @property
    def width(self) -> str:
        """As PTX spells the access: `v4` / `v2` (of 32-bit words), `b32`, `b16`, `b8`."""
        bits = self.vector * self.elem_bits
        return f"v{bits // 32}" if bits >= 64 else f"b{bits}"


def vector_elements(enc: Attribute, shape: Sequence[int], elem_bits: int, contiguity: Sequence[int] | None = None,
                    divisibility_bytes: Sequence[int] | None = None) -> tuple[int, int]:
    """(memory-contiguous dim, elements per vector access): Triton's getVectorSize on a layout.

    The layout's contiguous elements per thread along the dimension memory is contiguous in (AxisInfo's
    largest contiguity, else the layout's fastest dim), capped by that contiguity, by the pointer's
    alignment in elements and by 128-bit accesses."""
    order = algebra.get_order(enc)
    fast = order[0]
    if contiguity is not None and any(c > 1 for c in contiguity):
        fast = max(range(len(contiguity)), key=lambda d: (contiguity[d], -order.index(d)))
    per_thread = algebra.unique_contig_per_thread(enc, shape)[fast] if not algebra.is_dpas(enc) else algebra.contig_per_thread(enc)[fast]
    vec = max(1, per_thread)
    if contiguity is not None:
        vec = min(vec, max(1, contiguity[fast]))
    if divisibility_bytes is not None:
        vec = min(vec, max(1, divisibility_bytes[fast] * 8 // max(8, elem_bits)))
    vec = min(vec, max(1, MAX_VECTOR_BITS // max(8, elem_bits)))
    return fast, _pow2_floor(vec)


def global_access_cost(
    enc: Attribute,
    shape: Sequence[int],
    elem_bits: int,
    num_warps: int,
    warp_size: int,
    contiguity: Sequence[int] | None = None,
    divisibility_bytes: Sequence[int] | None = None,
) -> AccessCost:
    """The cost of loading or storing a `shape` tensor held in layout `enc` through a tensor of pointers
    to a row-major matrix (contiguous along the AxisInfo's contiguous dim)."""
    fast, vec = vector_elements(enc, shape, elem_bits, contiguity, divisibility_bytes)
    elems = algebra.num_elements_per_thread(enc, shape)
    instructions = max(1, ceil(elems / vec))
    elem_bytes = max(1, elem_bits // 8)
    pitch = max(shape[fast] * elem_bytes, LINE_BYTES)  # a row of the matrix, at least one line apart
    lanes = set(lane_coordinates(enc, shape, warp_size))
    sectors: set[int] = set()
    lines: set[int] = set()
    for coord in lanes:
        other = sum(c * _stride(shape, fast, d) for d, c in enumerate(coord) if d != fast)
        start = other * pitch + coord[fast] * elem_bytes
        end = start + vec * elem_bytes
        sectors.update(range(start // SECTOR_BYTES, (end - 1) // SECTOR_BYTES + 1))
        lines.update(range(start // LINE_BYTES, (end - 1) // LINE_BYTES + 1))
    warps = prod(algebra.warps_per_cta_with_unique_data(enc, shape)) if not algebra.is_dpas(enc) else num_warps
    return AccessCost(
        layout=_layout_word(enc),
        elem_bits=elem_bits,
        elems_per_thread=elems,
        vector=vec,
        instructions=instructions,
        warp_instructions=instructions * warps,
        sectors_per_instruction=len(sectors),
        lines_per_instruction=len(lines),
        useful_bytes_per_instruction=len(lanes) * vec * elem_bytes,
    )


def _stride(shape: Sequence[int], fast: int, d: int) -> int:
    """Rows of the matrix between consecutive indices of dim d (the dims other than `fast`, row-major)."""
    others = [x for x in range(len(shape)) if x != fast]
    return prod(shape[x] for x in others[others.index(d) + 1:])


# ---------------------------------------------------------------------------------------------
# Conversions
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ConversionCost:
    """One `ttg.convert_layout`, per CTA."""

    tensor_bytes: int  # the data each CTA moves (unique elements)
    needs_shared: bool
    scratch_bytes: int  # as irkit.analysis.shared_memory computes it
    rounds: int  # store / barrier / load / barrier cycles the scratch size forces
    store_instructions: int  # shared-memory stores per thread
    load_instructions: int  # shared-memory loads per thread
    store_conflict_ways: int
    load_conflict_ways: int
    live_registers: int  # registers of the value in flight: source and result live together
    elem_bits: int = 32

    @property
    def barriers(self) -> int:
        return 2 * self.rounds - 1 if self.needs_shared else 0

    @property
    def shared_traffic_bytes(self) -> int:
        """Bytes through the shared-memory pipe, conflicts counted as the extra wavefronts they cost."""
        if not self.needs_shared:
            return 0
        return self.tensor_bytes * (self.store_conflict_ways + self.load_conflict_ways)


def conversion_cost(src: TensorType, dst: TensorType, version: str, target: str | None, warp_size: int) -> ConversionCost:
    from irkit.analysis.scratch import _cvt_elem_bytes, cvt_scratch_bytes, padded_rep_shape_31, padded_rep_shape_33
    from irkit.analysis.triton_versions import V31, V33

    se, de = src.encoding, dst.encoding
    shape = tuple(src.get_shape())
    elem_bytes = _cvt_elem_bytes(src)
    tensor_bytes = prod(algebra.shape_per_cta(se, shape)) * elem_bytes
    regs = registers_per_thread(dst)
    try:
        needs = conversion.cvt_needs_shared_memory(se, de, shape, src.element_type, version, target)
    except (algebra.UnsupportedLayout, ValueError, KeyError, TypeError):
        needs = True
    if not needs:
        return ConversionCost(tensor_bytes, False, 0, 0, 0, 0, 1, 1, regs, algebra.elem_bits(src))
    scratch, _ = cvt_scratch_bytes(src, dst, version, target)
    rounds = max(1, ceil(tensor_bytes / scratch)) if scratch else 1
    in_vec, out_vec = _cvt_vectors(se, de, shape, elem_bytes)
    elems_src = algebra.num_elements_per_thread(se, shape)
    elems_dst = algebra.num_elements_per_thread(de, shape)
    store_ways = load_ways = 1
    padded = None
    try:
        if version == V31:
            padded = padded_rep_shape_31(src, dst)
        elif version == V33:
            padded = padded_rep_shape_33(src, dst, layout_tiles=is_intel_target(target))
    except (algebra.UnsupportedLayout, ValueError, KeyError, TypeError, IndexError):
        padded = None
    if padded is not None:
        rep = padded[0]
        store_ways = _bank_conflict_ways(se, shape, rep, elem_bytes, in_vec, warp_size)
        load_ways = _bank_conflict_ways(de, shape, rep, elem_bytes, out_vec, warp_size)
    # (3.4+ swizzles the scratch to make both sides conflict-free: 1 way each)
    return ConversionCost(
        tensor_bytes=tensor_bytes,
        needs_shared=True,
        scratch_bytes=scratch,
        rounds=rounds,
        store_instructions=ceil(elems_src / in_vec),
        load_instructions=ceil(elems_dst / out_vec),
        store_conflict_ways=store_ways,
        load_conflict_ways=load_ways,
        live_registers=regs,
        elem_bits=algebra.elem_bits(src),
    )


def _cvt_vectors(se: Attribute, de: Attribute, shape: Sequence[int], elem_bytes: int) -> tuple[int, int]:
    cap = max(1, 16 // elem_bytes)
    try:
        in_vec, out_vec = conversion.scratch_cvt_in_out_vec(se, de, shape)
    except (algebra.UnsupportedLayout, ValueError, KeyError, TypeError):
        in_vec = out_vec = 1
    if (in_vec, out_vec) == (1, 1):
        try:
            in_vec = algebra.unique_contig_per_thread(se, shape)[algebra.get_order(se)[0]]
            out_vec = algebra.unique_contig_per_thread(de, shape)[algebra.get_order(de)[0]]
        except (algebra.UnsupportedLayout, ValueError, KeyError, TypeError):
            pass
    return max(1, min(in_vec, cap)), max(1, min(out_vec, cap))


def _bank_conflict_ways(enc: Attribute, shape: Sequence[int], rep: Sequence[int], elem_bytes: int, vec: int,
                        warp_size: int) -> int:
    """Wavefronts one warp's access to the padded row-major scratch (`rep`, last dim padded) needs."""
    try:
        lanes = lane_coordinates(enc, shape, warp_size)
    except (algebra.UnsupportedLayout, ValueError, KeyError, TypeError):
        return 1
    rank = len(rep)
    words: dict[int, set[int]] = {}
    for coord in lanes:
        offset = 0
        for d in range(rank):
            offset = offset * rep[d] + coord[d] % rep[d]
        first = offset * elem_bytes // BANK_BYTES
        for w in range(max(1, vec * elem_bytes // BANK_BYTES)):
            words.setdefault((first + w) % BANKS, set()).add(first + w)
    ideal = max(1, ceil(len(lanes) * vec * elem_bytes / (BANKS * BANK_BYTES)))
    worst = max((len(v) for v in words.values()), default=1)
    return max(1, ceil(worst / ideal))


# ---------------------------------------------------------------------------------------------
# Putting it together
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Weights:
    """Estimated cycles per CTA of each event, calibrated on H100 measurements (Triton 3.6, GEMM and
    GEMM + add-matrix at 4096^3, 24 tile configs, 48 timings from two runs; docs/propagate-mma-results.md).
    What the sign of the speed change followed there:

    * a round whose payload is small (at most `sync_payload` registers per thread) with 8 or more warps is
      dominated by its two barriers, across two warpgroups: such conversions cost 12-37% (256x128 and
      128x128 tiles with 8 warps), more than the narrower accesses that replace them;
    * the rounds beyond the first serialise the CTA only when it is alone on its SM (shared memory allows
      one CTA): with a second CTA resident, the epilogue overlaps that CTA's main loop;
    * otherwise the narrower mma-layout accesses (twice the instructions, 8 rows x 32 B per warp
      instruction instead of one 512-B row) cost about what one round saves, or more;
    * the barrier-bound rounds were all 32-bit: with 16-bit D and C (the conversions Triton leaves are then
      16-bit, RLC having moved them across the `extf`/`truncf`), the conversion was cheap (the kernels ran at
      450-510 TFLOP/s against 290-340 with f32 D) and the rewrite lost 12-23% on every tile measured
      (8192x8192x1024, fp16 and bf16; the mma layout gives each thread 4 bytes per row, `b32` accesses), so
      `sync_round` counts only rounds of 32-bit elements;
    * likewise `extra_round` (issue 22, examples/gpu/gemm_bias.py on the H100: its fp16 store conversion,
      128x128x64 w4 s4 alone on its SM, 4 rounds, was worth +573 cycles with every round counted, and its
      removal ran 5.6% slower): it counts only rounds of 32-bit elements.

    The other terms are computed and reported but weigh nothing until measurements say how much.

    Tried and refuted (docs/propagate-mma-results.md, round 10): charging ~100 cycles for every round of at most
    8 registers per thread at any warp count.  Fitted to one gemm_colmajor kernel (32 such rounds, 17% faster
    without), it made 6 of 14 kernels of the held-out gemm_swiglu.py slower by 1.3-5.2%.  And (round 11): at 4
    warps on cuda:90, not charging the lines mma-layout accesses scatter over where every access a plan moves is
    scalar.  Fitted to 10 recorded kernels (6 faster, 4 within noise, none slower), it decided 6 kernels of the
    held-out gemm_gelu_residual.py: 3 ran 2.7-14.4% slower, 1 faster, 2 within noise."""

    sync_round: float = 1500.0  # a barrier-bound round (8+ warps, small payload per thread)
    sync_payload: int = 64  # registers per thread and round under which a round is barrier-bound
    sync_warps: int = 8
    sync_bits: int = 32  # element width from which a small-payload round is barrier-bound (measured: f32)
    extra_round: float = 400.0  # each round after the first, when the CTA is alone on its SM
    line: float = 0.35  # one 128-byte line request of a global access (L1/TEX)
    sector: float = 0.0  # one 32-byte sector request of a global access (L1/L2 bandwidth)
    shared_byte: float = 0.0  # shared-memory bandwidth (bytes through the pipe, conflicts counted)
    instruction: float = 0.0  # one warp instruction issued
    register_over: float = 0.0  # per register the estimated peak goes over the per-thread limit


DEFAULT_WEIGHTS = Weights()


@dataclass
class Verdict:
    """The model's judgement of a rewrite: `gain` > 0 means it should be faster (estimated cycles per CTA)."""

    gain: float
    saved_scratch: int  # bytes of scratch no longer needed (largest removed - largest added)
    unlocks: bool  # before: over the shared-memory limit, after: within it
    reasons: list[str] = field(default_factory=list)
    removed: list[ConversionCost] = field(default_factory=list)
    added: list[ConversionCost] = field(default_factory=list)
    accesses: list[tuple[str, AccessCost, AccessCost]] = field(default_factory=list)  # (op, before, after)

    @property
    def take(self) -> bool:
        """Unlocks the kernel, or is estimated faster, or changes nothing the model sees but scratch."""
        return self.unlocks or self.gain > 0 or (self.gain == 0 and self.saved_scratch > 0)

    @property
    def word(self) -> str:
        return "remove" if self.take else "keep"

    @property
    def store_sectors_added(self) -> int:
        """32-byte sector requests per CTA the rewrite's global stores add (negative: save)."""
        return sum(after.sector_requests - before.sector_requests for op, before, after in self.accesses if op == "store")

    def summary(self) -> str:
        parts = list(self.reasons)
        if self.saved_scratch:
            parts.append(f"saves {self.saved_scratch:,} B scratch")
        text = "; ".join(parts) if parts else "no measurable change"
        if self.unlocks:
            text += "; brings shared memory under the limit"
        return f"{text} (model: {self.gain:+,.0f} cycles/CTA)"


def judge(
    removed: Sequence[ConversionCost],
    added: Sequence[ConversionCost],
    accesses: Sequence[tuple[str, AccessCost, AccessCost]],
    register_peak_before: int | None = None,
    register_peak_after: int | None = None,
    register_limit: int = 255,
    unlocks: bool = False,
    num_warps: int = 4,
    ctas_per_sm: int | None = None,
    weights: Weights = DEFAULT_WEIGHTS,
) -> Verdict:
    """Weigh a rewrite: conversions it removes and adds, global accesses whose layout it changes
    (`(op name, before, after)`), the estimated register peaks, whether it unlocks the kernel, the warps
    per CTA and how many CTAs the shared memory lets share an SM (None: unknown, taken as one)."""
    w = weights
    alone = ctas_per_sm is None or ctas_per_sm <= 1

    def cvt_cycles(c: ConversionCost) -> float:
        if not c.needs_shared:
            return 0.0
        cycles = c.shared_traffic_bytes * w.shared_byte + (c.store_instructions + c.load_instructions) * w.instruction
        barrier_bound = c.elem_bits >= w.sync_bits and c.live_registers / c.rounds <= w.sync_payload
        if num_warps >= w.sync_warps and barrier_bound:
            cycles += c.rounds * w.sync_round
        if alone and c.elem_bits >= w.sync_bits:
            cycles += (c.rounds - 1) * w.extra_round
        return cycles

    def access_cycles(a: AccessCost) -> float:
        return a.transactions * w.line + a.sector_requests * w.sector + a.warp_instructions * w.instruction

    gain = sum(cvt_cycles(c) for c in removed) - sum(cvt_cycles(c) for c in added)
    reasons: list[str] = []
    for op, before, after in accesses:
        delta = access_cycles(after) - access_cycles(before)
        gain -= delta
        if after.vector != before.vector or after.lines_per_instruction != before.lines_per_instruction:
            verb = "narrows" if after.vector < before.vector else ("widens" if after.vector > before.vector else "moves")
            sectors = ""
            if after.sector_requests != before.sector_requests:
                sectors = f"; {after.sector_requests:,} vs {before.sector_requests:,} sector requests"
            reasons.append(
                f"{verb} {after.instructions} {op}(s)/thread to {after.width} "
                f"(was {before.instructions} x {before.width}; {after.lines_per_instruction} vs "
                f"{before.lines_per_instruction} lines/instr{sectors})"
            )
    if removed:
        rounds = sum(c.rounds for c in removed if c.needs_shared)
        payload = max((c.live_registers // max(1, c.rounds) for c in removed if c.needs_shared), default=0)
        where = "alone on its SM" if alone else f"{ctas_per_sm} CTAs per SM"
        reasons.append(
            f"drops {len(removed)} conversion(s) ({rounds} shared-memory round(s) of {payload} regs/thread, "
            f"{num_warps} warps, {where})"
        )
    if added:
        reasons.append(f"adds {len(added)} conversion(s)")
    if register_peak_before is not None and register_peak_after is not None:
        over_before = max(0, register_peak_before - register_limit)
        over_after = max(0, register_peak_after - register_limit)
        gain += (over_before - over_after) * w.register_over
        if over_before != over_after:
            reasons.append(f"register peak {register_peak_before} -> {register_peak_after} (limit {register_limit})")
    saved = max((c.scratch_bytes for c in removed), default=0) - max((c.scratch_bytes for c in added), default=0)
    return Verdict(gain, max(0, saved), unlocks, reasons, list(removed), list(added), list(accesses))


# ---------------------------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------------------------


def _pow2_floor(n: int) -> int:
    p = 1
    while p * 2 <= n:
        p *= 2
    return p


def _layout_word(enc: Attribute) -> str:
    return algebra.layout_name(enc)
