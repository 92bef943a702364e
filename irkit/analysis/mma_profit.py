"""Is a propagate-mma plan worth applying?  The cost model (`irkit.analysis.cost_model`) applied to a
`MmaSlicePlan`: the conversions it removes and adds, the global loads and stores whose layout it changes
(with their pointers' AxisInfo), the registers held twice while a conversion is in flight, and whether
it brings the kernel under the device's shared-memory limit.

Read-only: nothing here mutates IR.  `passes/propagate_mma.py` decides with `judge_plan`, and
`irkit-report` shows `assess_module`'s verdict for each conversion.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cached_property

from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.ir import Operation

from irkit.analysis import amd_lds_usage, cost_model, mma_slice, occupancy
from irkit.analysis.axis_info import AxisInfoAnalysis
from irkit.analysis.shared_memory import (
    Buffer,
    SharedMemoryReport,
    analyze_shared_memory,
    compute_offsets,
    func_name,
    function_allocation,
    function_callees,
    module_int,
    module_target,
    resolve_target,
)
from irkit.analysis.triton_versions import V31, infer_version, names_a_release, normalize_version, release_of
from irkit.analysis.walk import enclosing
from irkit.dialects.tt import FuncOp, LoadOp, StoreOp
from irkit.dialects.ttg import ConvertLayoutOp
from irkit.dialects.types import PointerType
from irkit.layout import algebra
from irkit.walk import walk_ops


@dataclass
class ModuleFacts:
    """What the model needs to know about the module around a plan: computed once for the whole module, then
    kept current one function at a time (`refresh`), so that a pass judging plans in every function of a large
    module stays linear in its size."""

    module: ModuleOp
    version: str = ""  # the Triton version whose rules apply, or the release that made the module; "": inferred

    def __post_init__(self) -> None:
        # a release ("3.6.0") prices the allocation as that release compiles it (its own rules, and on AMD 3.3-3.6
        # the LDS fitting before it); the costs follow its rule set ("3.9")
        self.release = self.version if names_a_release(self.version) else None
        self.version = normalize_version(self.version) if self.version else infer_version(self.module)
        self.triple = module_target(self.module)
        target = resolve_target(self.triple)
        self.limit = target.limit if target else None
        self.num_warps = module_int(self.module, "num-warps") or 4
        self.warp_size = module_int(self.module, "threads-per-warp") or (target.warp_size if target else 32)

    @cached_property
    def axis_info(self) -> AxisInfoAnalysis:
        return AxisInfoAnalysis(self.module)

    @cached_property
    def shared(self) -> SharedMemoryReport:
        """The module's allocation as first analysed (`shared_total` and `shared_without` stay current)."""
        return analyze_shared_memory(self.module, version=self.release or self.version)

    @cached_property
    def _allocation(self) -> _Allocation:
        return _Allocation.of(self.shared, self.module, self.version != V31)

    @cached_property
    def _fitted_by_the_compile(self) -> bool:
        """Whether the release's compile fits this module over the LDS first (AMD, Triton 3.3-3.6): then the
        allocation is that of the module the fitting leaves, which no one function's refresh can give."""
        if self.release is None or amd_lds_usage.generation(release_of(self.release, self.module), self.triple) is None:
            return False
        target = resolve_target(self.triple)
        return target is not None and target.limit is not None and \
            analyze_shared_memory(self.module, version=self.release, as_compiled=False).total_bytes > target.limit

    @property
    def shared_total(self) -> int:
        return self._allocation.total()

    def refresh(self, func: Operation) -> None:
        """`func` was rewritten: recompute its facts only (the whole allocation when another function calls
        it, as its callers' allocations include it, or where the release's compile fits the module first)."""
        if "_allocation" in self.__dict__ and (
                self._fitted_by_the_compile
                or not self._allocation.refresh(func, self.module, self.release or self.version)):
            for cached in ("shared", "_allocation", "_fitted_by_the_compile"):
                self.__dict__.pop(cached, None)
        if "axis_info" in self.__dict__:
            self.axis_info.refresh(func)

    def shared_without(self, removed: list[Operation]) -> int:
        """The predicted total if the scratch of `removed` conversions were not allocated (only the functions
        holding them are re-allocated)."""
        return self._allocation.without(removed)


@dataclass
class _Allocation:
    """The shared-memory allocation per function, kept current one function at a time."""

    sizes: dict[str, int]  # with callees, as SharedMemoryReport.functions
    buffers: dict[str, list[Buffer]]
    own: dict[str, int]  # each function's own buffers only (what `without` compares)
    owner: dict[int, str]  # id(op) -> function, for the buffers of ops
    roots: set[str]  # functions nobody calls
    called: set[str]
    sort_by_size: bool

    @classmethod
    def of(cls, report: SharedMemoryReport, module: Operation, sort_by_size: bool) -> _Allocation:
        buffers: dict[str, list[Buffer]] = {name: [] for name in report.functions}
        for b in report.buffers:
            buffers.setdefault(b.function, []).append(b)
        called = {c for f in module.walk() if isinstance(f, FuncOp) for c in function_callees(f)}
        a = cls(dict(report.functions), buffers, {}, {}, set(report.functions) - called or set(report.functions),
                called, sort_by_size)
        for name, bs in buffers.items():
            a._own(name, bs)
        return a

    def _own(self, name: str, buffers: list[Buffer]) -> None:
        self.buffers[name] = buffers
        self.own[name] = compute_offsets([replace(b) for b in buffers], self.sort_by_size)
        self.owner.update((id(b.op), name) for b in buffers if b.op is not None)

    def total(self) -> int:
        return max((self.sizes.get(n, 0) for n in self.roots), default=0)

    def refresh(self, func: Operation, module: Operation, version: str) -> bool:
        """Re-allocate `func`; False when another function calls it (the caller must start over)."""
        name = func_name(func)
        if name in self.called:
            return False
        size, buffers = function_allocation(module, func, version, {c: self.sizes.get(c, 0) for c in function_callees(func)})
        self.sizes[name] = size
        self._own(name, buffers)
        return True

    def without(self, removed: list[Operation]) -> int:
        gone = {id(op) for op in removed}
        sizes = dict(self.own)
        for name in {self.owner[i] for i in gone if i in self.owner}:
            kept = [replace(b) for b in self.buffers[name] if b.op is None or id(b.op) not in gone]
            sizes[name] = compute_offsets(kept, self.sort_by_size)
        return max(sizes.values(), default=0)


def conversion_cost_of(op: Operation, facts: ModuleFacts) -> cost_model.ConversionCost:
    src, dst = mma_slice.seed_source(op).type, op.results[0].type
    if not isinstance(src, TensorType) or not isinstance(dst, TensorType):
        raise TypeError(f"{op.name}: a conversion of tensors expected, got {src} -> {dst}")
    return cost_model.conversion_cost(src, dst, facts.version, facts.triple, facts.warp_size)


@dataclass
class PlanJudgement:
    verdict: cost_model.Verdict
    shared_before: int
    shared_after: int  # predicted, without the removed conversions' scratch
    notes: list[str] = field(default_factory=list)


def _broadcast_operand(op: Operation) -> bool:
    """Converts an epilogue operand about to be broadcast over the tile: a row or column (a 2-D tensor with a
    dimension of 1), or the 1-D tensor it is expanded from (a `#slice` of the tile's layout)."""
    t = op.results[0].type
    if not isinstance(t, TensorType):
        return False
    shape = t.get_shape()
    return (len(shape) >= 2 and 1 in shape) or (len(shape) == 1 and algebra.is_slice(mma_slice.layout_of(t)))


def _weighed(op: Operation, facts: ModuleFacts) -> cost_model.ConversionCost:
    """A removed conversion as the model weighs it.  A broadcast operand's conversion moves one row or column
    of the tile and is worth nothing to remove: its modelled rounds count the row replicated over the mma
    layout's registers, while without it every thread loads those replicas from global memory.  On the H100
    (issue 22): removing gemm_bias's 1x128 bias-row conversion alone ran 1.1-1.4% slower (64x128x64 w4 s4),
    and at 8 warps its +1,500 modelled cycles pulled the store's conversion in with it (128x256x64 w8 s3,
    8.8% slower); on the held-out gemm_scale (round 8) the same for 1-D row and column scales, `tensor<256xf32>`
    to a `#slice` of the mma layout: 8 of 8 default rewrites 0.4-11% slower.  It still goes with the rest
    where the rest pays."""
    cost = conversion_cost_of(op, facts)
    if _broadcast_operand(op):
        return replace(cost, needs_shared=False, scratch_bytes=0)
    return cost


def judge_plan(plan: mma_slice.MmaSlicePlan, facts: ModuleFacts, weights: cost_model.Weights = cost_model.DEFAULT_WEIGHTS) -> PlanJudgement:
    removed = [_weighed(op, facts) for op in plan.removed]
    added = []
    for v, _ in plan.added:
        t = v.type
        if isinstance(t, TensorType) and t.encoding is not None:
            new = plan.layouts.get(v, plan.target)
            added.append(cost_model.conversion_cost(t, mma_slice.with_layout(t, new), facts.version, facts.triple, facts.warp_size))
    accesses = []
    for op, role in plan.roles.items():
        if not isinstance(op, (LoadOp, StoreOp)) or role not in (mma_slice.NODE, mma_slice.SINK):
            continue
        ptr = op.operands[0]
        if ptr not in plan.layouts or not isinstance(ptr.type, TensorType):
            continue  # block pointers: a 2D block access either way (Intel), or rewritten before codegen
        t = ptr.type
        pointee = t.element_type.pointee if isinstance(t.element_type, PointerType) else None
        bits = algebra.elem_bits(pointee) if pointee is not None else 32
        info = facts.axis_info.get(ptr)
        contiguity = info.contiguity if info is not None else None
        divisibility = info.divisibility if info is not None else None
        shape = t.get_shape()
        try:
            before = cost_model.global_access_cost(t.encoding, shape, bits, facts.num_warps, facts.warp_size, contiguity, divisibility)
            after = cost_model.global_access_cost(plan.layouts[ptr], shape, bits, facts.num_warps, facts.warp_size,
                                                  contiguity, divisibility)
        except (algebra.UnsupportedLayout, ValueError, KeyError, TypeError, IndexError):
            continue
        accesses.append(("load" if isinstance(op, LoadOp) else "store", before, after))
    peak_before, peak_after = _register_peaks(plan, removed)
    shared_before = facts.shared_total
    shared_after = facts.shared_without(plan.removed) if not plan.added else shared_before
    unlocks = facts.limit is not None and shared_before > facts.limit >= shared_after
    ctas = facts.limit // shared_before if facts.limit and shared_before else None
    verdict = cost_model.judge(removed, added, accesses, peak_before, peak_after, unlocks=unlocks, num_warps=facts.num_warps,
                      ctas_per_sm=ctas, weights=weights)
    return PlanJudgement(verdict, shared_before, shared_after)


@dataclass
class Decision:
    """What propagate-mma does with one conversion's plan: `plan` is what it applies (the plan itself, its
    loads-only variant, or None: the conversion is kept), `judgement` the model's view of it."""

    plan: mma_slice.MmaSlicePlan | None
    judgement: PlanJudgement
    loads_only_fallback: bool = False  # the plan was a loss, its loads-only variant a gain


def decide(plan: mma_slice.MmaSlicePlan, facts: ModuleFacts, always: bool = False) -> Decision:
    """The one decision procedure, for `propagate-mma` and for `irkit-report`'s verdicts: an accepted plan is
    applied when the model calls it a gain (or `always`); a plan the model calls a loss is replaced by its
    loads-only variant (the store keeps its layout) when that one is judged a gain; otherwise the conversion
    is kept (and may still go with its function's other rewrites: `completes_rewrite`)."""
    judgement = judge_plan(plan, facts)
    if always or judgement.verdict.take:
        return Decision(plan, judgement)
    if not plan.loads_only and plan.candidate is not None:
        partial = mma_slice.plan_mma_propagation(plan.seed, plan.candidate, loads_only=True)
        if partial.accepted:
            partial_judgement = judge_plan(partial, facts)
            if partial_judgement.verdict.take:
                return Decision(partial, partial_judgement, loads_only_fallback=True)
    return Decision(None, judgement)


def completes_rewrite(taken_gain: float, verdict: cost_model.Verdict) -> bool:
    """Is a conversion the model calls a loss alone worth removing along with the rewrites already taken
    in its function (their model gains summed in `taken_gain`)?  Yes when the whole is still a gain.

    Why: a partial rewrite leaves the value going through shared memory while the rest of the epilogue
    works in the mma layout, and ptxas then keeps more of it live.  Measured on the H100
    (docs/propagate-mma-results.md), add-matrix 64x256x64 w4 s4: the D load alone (the model's per-conversion
    choice) 0.964x with spills 30 -> 14; D load and C store 0.951x, spills 30 -> 2."""
    return taken_gain > 0 and taken_gain + verdict.gain > 0


MARGINAL_GAIN = 800  # cycles/CTA: a model gain under this needs the compiler's figures to confirm it (`marginal`)


def marginal(taken_gain: float) -> bool:
    """Are the rewrites the model took in a module (their gains summed in `taken_gain`) too small a gain to stand on
    the model alone, so that `profit=auto` keeps them only where the compiler's figures would take them too?

    Why: on CUDA, the model's takes under 800 cycles/CTA are the masked fp32-out 128x128 tiles at 8 warps (+246
    per conversion: the shared-memory round saved against twice the sectors of the scalar accesses) and two more,
    and their timings (docs/propagate-mma-results/notes.md, round 26) spread from 22% faster to 6.5% slower: a
    TF32 GEMM lost 6.3% and 6.4% on two of them, where the SASS, registers and spills all looked no worse.  Every
    take of the model at 962 cycles/CTA or more ran faster or within noise.  Its price (round 27): four of those gains
    left alone (4.7-22%), against the two TF32 losses and two of 1.3-1.9% avoided."""
    return taken_gain < MARGINAL_GAIN


def check_models_rewrite(kept: occupancy.CompiledKernel, removed: occupancy.CompiledKernel,
                         sm: occupancy.SmLimits | occupancy.CuLimits, num_warps: int,
                         model_gain: float, loop_trips: int | None = None,
                         store_sectors_added: int = 0,
                         grid: occupancy.LaunchGrid | None = None) -> tuple[str | None, str, str]:
    """Where the model removed every conversion it could, does its rewrite stand by what the compiler made of the
    module as it came (`kept`) and as the model left it (`removed`)?  Undone where it is worse in CTAs, spills or
    SASS cost (`occupancy.removal_is_worse`); on CUDA, where the model's gain is `marginal`, kept only where the
    compiler's figures take it by themselves (`occupancy.removal_pays`).  Returns the outcome (None: it stands and
    nothing is said; "kept": a marginal gain the compiler confirms; "undone"), the reason, and the figures.
    `loop_trips` and `grid`: the launch's main-loop trips and its CTAs on the device's SMs, where a tool knows them
    (both go to `occupancy.removal_pays`).  Where the trips make the kernel its epilogue (`occupancy.epilogue_bound`)
    the compiler's figures take nothing but a large fall of the epilogue's spills, so a marginal gain is undone
    short of that.
    Round 34's fp32 128x128x16 w8 s2 kernel (K = 16), a marginal +492 cycles/CTA, ran 11% slower with the model's
    rewrite.

    In such a launch a gain of any size needs the compiler's figures too, and they take nothing there but the
    epilogue's spills, so the rewrite is undone short of those.  Why this is so is not measured (no profile of these
    kernels); what is: every rewrite of the model's that stood in an epilogue-bound launch ran no faster
    (docs/propagate-mma-results/notes.md, session 19): round 36's patch embedding, fp32 256x128x64 w8 s3 at K = 768
    (+1,070 cycles/CTA, 12 trips), 3.5% slower; round 42's ResNet bottleneck, fp32 128x128x64 w8 s3 and 256x64x32 w8
    s4 at K = 256 (+1,925 each, 4 and 8 trips), 1.1% and 0.8% slower (within noise).  The one recorded gain in such a
    launch (round 42's 256x128x32 w8 s3, 4.2% faster) was undone before, as it compiles with more spills.

    Where the compiled figures' gain rests on the instructions outside loops and the rewrite's stores add more
    sector requests (`store_sectors_added` per CTA) than the spill traffic it saves pays for
    (`occupancy.stores_outweigh_spills`), it is undone whatever the model's gain: round 40's fp32 256x64x64 w8 s3
    (examples/gpu/gemm_token_scaled_residual.py), +6,237 cycles/CTA by the model, ran 7.5% and 11.5% slower, with 5x
    the L2 write requests and no spills either way (ncu, r40_ncu_token.json)."""
    worse, figures = occupancy.removal_is_worse(kept, removed, sm, num_warps)
    if worse:
        return "undone", "it compiles worse without it", figures
    if not isinstance(sm, occupancy.SmLimits):
        return None, "", figures
    stores = occupancy.stores_outweigh_spills(kept, removed, store_sectors_added, num_warps, loop_trips)
    if stores is not None:
        return "undone", f"what it gains in the compiled kernel {stores}", figures
    if marginal(model_gain):
        why = "is marginal"
    elif occupancy.epilogue_bound(kept, loop_trips):
        why = "does not stand alone where the launch is its epilogue"
    else:
        return None, "", figures
    confirmed, figures = occupancy.removal_pays(kept, removed, sm, num_warps, loop_trips, grid=grid)
    small = f"the model's gain ({model_gain:+,.0f} cycles/CTA) {why}, so the rewrite stands only where the " \
            f"compiler's figures take it too"
    return ("kept", f"{small}, and they do", figures) if confirmed else ("undone", f"{small}, and they do not", figures)


def _register_peaks(plan: mma_slice.MmaSlicePlan, removed: list[cost_model.ConversionCost]) -> tuple[int | None, int | None]:
    """Registers live at the worst conversion: the accumulator plus the value in both layouts; after the
    rewrite, the accumulator plus the value once."""
    acc = 0
    for op in plan.removed:
        for x in (op.operands[0], op.results[0]):
            if algebra.is_mma(mma_slice.layout_of(x.type)) and isinstance(x.type, TensorType):
                acc = max(acc, cost_model.registers_per_thread(x.type))
    if not removed:
        return None, None
    worst = max(removed, key=lambda c: c.live_registers)
    return acc + 2 * worst.live_registers, acc + worst.live_registers


# ---------------------------------------------------------------------------------------------
# For reports: the verdict on each conversion of a module
# ---------------------------------------------------------------------------------------------


@dataclass
class ConversionAssessment:
    op: Operation
    word: str  # "remove" | "keep" | "-" (not a propagate-mma candidate)
    text: str
    gain: float | None = None  # the model's estimate when judged (cycles per CTA)


def assess_module(module: ModuleOp, version: str | None = None) -> list[ConversionAssessment]:
    """The model's verdict on every candidate conversion, each judged alone on the unchanged module."""
    facts = ModuleFacts(module, version or "")
    out = []
    accumulators: dict[Operation | None, frozenset] = {}  # per function, as the pass computes them
    for op in walk_ops(module):
        if not isinstance(op, ConvertLayoutOp) and not mma_slice.is_dot_operand_round_trip(op):
            continue
        func = enclosing(op, FuncOp)
        if func not in accumulators:
            accumulators[func] = mma_slice.accumulator_layouts(func) if func is not None else frozenset()
        candidate, why_not = mma_slice.classify_conversion(op, dot_operands=None, accumulators=accumulators[func])
        if candidate is None and not isinstance(op, ConvertLayoutOp):
            continue  # a shared-memory round trip of a dot operand that is not a seed here
        if candidate is None:
            out.append(ConversionAssessment(op, "-", why_not or "not between an mma and a blocked layout"))
            continue
        plan = mma_slice.plan_mma_propagation(op, candidate)
        if not plan.accepted:
            out.append(ConversionAssessment(op, "keep", f"cannot be removed: {plan.reason}"))
            continue
        decision = decide(plan, facts)
        j = decision.judgement
        if decision.loads_only_fallback:
            out.append(ConversionAssessment(op, "remove", f"loads only (the store keeps its layout): {j.verdict.summary()}",
                                            j.verdict.gain))
            continue
        out.append(ConversionAssessment(op, "remove" if decision.plan else "keep", j.verdict.summary(), j.verdict.gain))
    _complete_rewrites(out)
    return out


def _complete_rewrites(assessments: list[ConversionAssessment]) -> None:
    """What propagate-mma does after its per-conversion pass: in each function, a conversion judged a loss
    alone goes with the others when the whole is a gain (`completes_rewrite`)."""
    by_function: dict[int, list[tuple[ConversionAssessment, float]]] = {}  # with each one's gain
    for a in assessments:
        if a.gain is not None:
            by_function.setdefault(id(enclosing(a.op, FuncOp)), []).append((a, a.gain))
    for group in by_function.values():
        taken: float = sum(gain for a, gain in group if a.word == "remove")
        for a, gain in group:
            if a.word == "keep" and completes_rewrite(taken, cost_model.Verdict(gain, 0, False)):
                taken += gain
                a.word = "remove"
                a.text += f"; taken with this function's other rewrites ({taken:+,.0f} cycles/CTA together)"

