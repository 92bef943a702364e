"""Back-propagate the accumulator layout into the loads (and stores) of an epilogue, so that the
conversions between the mma layout and a blocked layout disappear.

For each `ttg.convert_layout` between an accumulator layout (`#nvidia_mma` v2/v3, `#amd_mfma`,
`#amd_wmma`, `#dpas`) and a blocked/linear layout, `irkit.analysis.mma_slice.plan_mma_propagation`
computes the slice of values that must change layout (elementwise ops, broadcasts, the
splat/make_range/expand_dims index arithmetic rebuilt with `#slice` of the mma layout, scf.for/scf.if,
tensor-of-pointer and block-pointer loads, stores), and this pass applies the plan when it removes
more conversions than it adds and, with `profit=model`, when the cost model
(`irkit.analysis.mma_profit`) estimates it faster or it brings shared memory under the device limit.  The
default, `profit=auto`, then lets the real compiler's registers and spills overrule the model on CUDA and AMD
CDNA where a Triton is at hand (`irkit.analysis.occupancy`), and is the model alone elsewhere.  With
`dot-operands` the conversions into tt.dot's `#dot_op` operands (and their local_alloc/local_load round
trips) are seeds too.  Only layouts change: every value keeps its shape and element type.

It mirrors the backward rematerialisation of Triton's `tritongpu-remove-layout-conversions`, minus the
rule that makes a large load an anchor (docs/passes/propagate-mma.md).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

from xdsl.context import Context
from xdsl.dialects import scf
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Attribute, Block, BlockArgument, Operation, OpResult, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from irkit.analysis import kernel_timer, mma_slice, occupancy, real_compiler
from irkit.analysis.cost_model import Verdict
from irkit.analysis.kernel_timer import KernelTimer, MeasuredRatio
from irkit.analysis.mma_profit import (
    ModuleFacts,
    PlanJudgement,
    check_models_rewrite,
    completes_rewrite,
    decide,
    judge_plan,
)
from irkit.analysis.real_compiler import CompileUnavailable, RealCompiler
from irkit.analysis.triton_versions import normalize_version
from irkit.diagnostics import PassFailure, emit_remark, silenced
from irkit.dialects.arith import ConstantOp
from irkit.dialects.builtin_extras import DenseElementsAttr
from irkit.dialects.families import FUNCTION_OPS
from irkit.dialects.module_attrs import module_int, module_target
from irkit.dialects.tt import FuncOp
from irkit.dialects.ttg import ConvertLayoutOp
from irkit.layout import algebra
from irkit.names import clone_keeping_names, exact_name, replace_uses, set_exact_name


@dataclass(frozen=True)
class PropagateMmaPass(ModulePass):
    """Remove mma<->blocked conversions (where the cost model says it pays) by retyping epilogue loads and stores in the mma layout

    Options: `profit` (`model`: apply a plan only when the cost model says it is faster or it brings shared
    memory under the device limit; `always`: every plan that removes more conversions than it adds; `compiled`:
    as `model`, then the real Triton compiles the result and the one `always` gives, and the second is taken
    when its SASS costs far less (CUDA, where the SASS is at hand), or, short of a verdict there, when its
    registers let more CTAs share an SM where few did, or it spills far less; `measured`: the model's module
    and `always`'s are timed against the module as it came at the launch being checked, on the GPU the tool
    provides (irkit-check's run mode), and the faster of those measured faster is taken, else none; `auto`, the
    default: `measured` where the tool provides a GPU timer, else `compiled` for CUDA modules where a Triton
    that reads them is at hand ($IRKIT_TRITON_PYTHON or this Python), `model` otherwise, and the remarks say
    which decided), `loads-only` (never retype a tt.store: only
    loads and what feeds them), `min-bytes` (only conversions of tensors of at least this many bytes), `dry-run`
    (only emit remarks saying what would change), `targets` (mma kinds: all, nvidia_mma, mma_v2, mma_v3,
    amd_mfma, amd_wmma, dpas), `dot-operands` (also move `#blocked -> #dot_op` conversions into the loads
    feeding tt.dot; default: on for `#dpas` modules), `main-loop-trips` (how many times the launch runs the main
    loop, where it is known: irkit-check gives it from the launch's arguments; where the loop then executes fewer
    instructions than the code outside it, the compiler's figures overrule the model only where the epilogue's
    spills fall by 512 B or more), `launch-ctas` and
    `device-sms` (the launch's CTAs and the SMs of its device, where known: irkit-check gives both; more CTAs on an
    SM then take a rewrite only where the launch runs in fewer waves), `version` (the Triton release that made
    the module: its allocation rules, and on AMD 3.3-3.6 the LDS fitting its compile runs first, so a module that
    compile fits is not "brought under the limit"; irkit-opt fills it from --triton-version or the cache JSON,
    irkit-check from the Triton at hand).  Print the remarks with `--mlir-print-remarks`.
    """

    name = "propagate-mma"

    profit: Literal["auto", "model", "always", "compiled", "measured"] = "auto"
    loads_only: bool = False
    min_bytes: int = 0
    dry_run: bool = False
    targets: tuple[str, ...] = ("all",)
    dot_operands: bool | None = None
    main_loop_trips: int | None = None
    launch_ctas: int | None = None
    device_sms: int | None = None
    version: str = ""

    @property
    def launch_grid(self) -> occupancy.LaunchGrid | None:
        """The launch's CTAs on its device's SMs, where a tool gave both."""
        if self.launch_ctas is None or self.device_sms is None:
            return None
        return occupancy.LaunchGrid(self.launch_ctas, self.device_sms)

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        try:
            kinds = mma_slice.parse_kinds(self.targets)
            if self.version:
                normalize_version(self.version)
        except ValueError as e:
            raise PassFailure(op, f"propagate-mma: {e}") from None
        timer = self._timer(op)
        original: ModuleOp | None
        if timer is not None:  # the GPU settles it: the compiler's figures would only be overruled
            original, alone = clone_keeping_names(op), None
        else:
            original, alone = self._original_for_the_compiler(op)
        facts = [ModuleFacts(op, self.version)]  # refreshed per rewritten function: shared memory and AxisInfo change
        kept: dict[Operation, PlanJudgement] = {}
        model_gain = 0.0  # the model's gain of every rewrite it took, summed over the module's functions
        model_store_sectors = 0  # the sector requests per CTA those rewrites' stores add
        for func in [f for f in op.walk() if isinstance(f, FuncOp)]:
            kept_here, gain_here, store_sectors_here = self._run_on_function(func, kinds, facts)
            if original is None:
                _report_kept(kept_here, alone)
            kept.update(kept_here)
            model_gain += gain_here
            model_store_sectors += store_sectors_here
        if timer is not None and original is not None:
            self._measure(ctx, op, original, kept, timer)
        elif original is not None:
            if kept:
                note = self._ask_the_compiler(ctx, op, original, kept)
                if note is not None:
                    _report_kept(kept, note)
            else:
                self._check_the_models_rewrite(ctx, op, original, model_gain, model_store_sectors)

    def _run_on_function(self, func: Operation, kinds: frozenset[str],
                         facts: list[ModuleFacts]) -> tuple[dict[Operation, PlanJudgement], float, int]:
        """Apply the plans the model takes; returns the conversions it keeps, with its judgement of each, and the
        model's gain of the rewrites it took and the sector requests per CTA their stores add."""
        settled: set[Operation] = set()  # conversions already reported or covered by a plan
        kept: dict[Operation, PlanJudgement] = {}  # judged a loss alone
        taken_gain = 0.0  # the model's gain of the plans applied to this function
        taken_store_sectors = 0  # the sector requests per CTA their stores add
        acc = mma_slice.accumulator_layouts(func)  # tmem_load never changes layout: once per function
        # not candidates (yet): said at the end, for those still there (a rewrite may retarget one into a
        # candidate, e.g. a bias row converted to a #slice of the store layout, then of the accumulator's)
        not_candidates: dict[Operation, str] = {}
        copies: list[tuple[SSAValue, str | None, SSAValue]] = []  # rebuilt values, named once their originals go
        progress = True
        while progress:
            progress = False
            for cvt in [o for o in func.walk() if isinstance(o, ConvertLayoutOp) or mma_slice.is_dot_operand_round_trip(o)]:
                if cvt in settled:
                    continue
                plan = self._plan(cvt, kinds, acc, not_candidates)
                settled.add(cvt)
                if plan is None:
                    continue
                if not plan.accepted:
                    emit_remark(cvt, f"propagate-mma: conversion left alone: {plan.reason}")
                    continue
                plan, judgement = self._choose(plan, facts[0])
                if plan is None:
                    kept[cvt] = judgement
                    continue
                taken_gain += judgement.verdict.gain
                taken_store_sectors += judgement.verdict.store_sectors_added
                what = _outcome(plan, judgement)
                if self.dry_run:
                    emit_remark(cvt, f"propagate-mma: would move to {mma_slice.layout_name(plan.target)}: {what}")
                    settled.update(plan.removed)
                    continue
                emit_remark(cvt, f"propagate-mma: moved to {mma_slice.layout_name(plan.target)}: {what}")
                settled.update(apply_plan(plan, func, copies))  # the conversions it adds were counted: not seeds
                facts[0].refresh(func)
                progress = True
                break  # the IR changed: look at the remaining conversions again
        for cvt, why_not in not_candidates.items():
            if cvt.parent is not None:
                emit_remark(cvt, f"propagate-mma: conversion left alone: {why_not}")
        still_kept = {}
        for cvt, judgement in kept.items():
            verdict = self._complete(cvt, judgement, facts, func, taken_gain, acc, copies)
            if verdict is None:
                still_kept[cvt] = judgement
            else:
                taken_gain += verdict.gain
                taken_store_sectors += verdict.store_sectors_added
        name_copies(copies)
        return still_kept, taken_gain, taken_store_sectors

    def _timer(self, module: ModuleOp) -> KernelTimer | None:
        """The GPU timer the tool provides, where the decision is to be measured: `measured` needs one, `auto`
        takes one where it is provided (irkit-check's run mode), the other options never time."""
        if self.profit not in ("auto", "measured"):
            return None
        timer = kernel_timer.provided()
        if timer is None and self.profit == "measured":
            raise PassFailure(module, "propagate-mma: profit=measured needs a GPU to time on: irkit-check provides "
                                      "one in run mode (irkit-check -p 'propagate-mma{profit=measured}' -- python3 "
                                      "program.py)")
        return timer

    def _candidates(self, ctx: Context, module: ModuleOp, original: ModuleOp) -> tuple[ModuleOp, ModuleOp]:
        """What the compiler or the GPU weighs: the model's module (`module` itself, or in a dry run the model's
        choice applied to a copy of `original`) and the one with every conversion removed (`profit=always`)."""
        with silenced():
            everything = clone_keeping_names(original)
            replace(self, profit="always", dry_run=False).apply(ctx, everything)
            chosen = module
            if self.dry_run:
                chosen = clone_keeping_names(original)
                replace(self, profit="model", dry_run=False).apply(ctx, chosen)
        return chosen, everything

    def _measure(self, ctx: Context, module: ModuleOp, original: ModuleOp,
                 kept: dict[Operation, PlanJudgement], timer: KernelTimer) -> None:
        """`profit=measured` (and `auto` where the tool provides a timer): time the model's module and the one
        with every conversion removed (`profit=always`) against the module as it came, at the launch being
        checked, and take the faster of those shown faster (the whole 95% interval below 1); where neither is,
        the module stays as it came (a rewrite of the model's is undone).  A candidate that cannot be timed
        leaves the model's decision on it.  Remarks give the figures."""
        label = f"profit={self.profit}"
        chosen, everything = self._candidates(ctx, module, original)
        candidates: list[tuple[str, ModuleOp]] = []
        if not chosen.is_structurally_equivalent(original):
            candidates.append(("the model's rewrite", chosen))
        if not everything.is_structurally_equivalent(original) and not everything.is_structurally_equivalent(chosen):
            candidates.append(("every conversion removed", everything))
        if not candidates:
            _report_kept(kept, f"{label}: no rewrite to time")
            return
        timings = [(what, candidate, timer.time(original, candidate)) for what, candidate in candidates]
        figures = "; ".join(f"{what}: {t.summary() if isinstance(t, MeasuredRatio) else t}" for what, _, t in timings)
        note = f"{label}: measured on the GPU: {figures}"
        faster = [(candidate, t) for _, candidate, t in timings if isinstance(t, MeasuredRatio) and t.shown_faster]
        pick = min(faster, key=lambda ct: ct[1].ratio)[0] if faster else None
        models = next((t for _, candidate, t in timings if candidate is chosen), None)
        would = "would be " if self.dry_run else ""
        if models is not None:  # the model rewrote: its rewrite stands, goes, or gives way to `everything`
            removed = _removed_conversions(original, chosen)
            if not isinstance(models, MeasuredRatio):
                for cvt in removed:
                    emit_remark(cvt, f"propagate-mma: rewrite {would}kept: not timed ({note}), the model decides")
            elif pick is chosen:
                for cvt in removed:
                    emit_remark(cvt, f"propagate-mma: rewrite {would}kept: measured faster ({note})")
            elif pick is None:
                for cvt in removed:
                    emit_remark(cvt, f"propagate-mma: rewrite {would}undone, the conversion kept: not measured "
                                     f"faster ({note})")
                if not self.dry_run:
                    module.body.detach_block(module.body.block)
                    original.body.move_blocks(module.body)
            else:  # `everything`, a rewrite of its own, measured faster still
                for cvt in removed:
                    emit_remark(cvt, f"propagate-mma: rewrite {would}replaced by the one removing every conversion: "
                                     f"measured faster ({note})")
        if pick is everything:
            verb = "would move" if self.dry_run else "moved"
            for cvt, judgement in kept.items():
                emit_remark(cvt, f"propagate-mma: {verb} with every other conversion ({note}); "
                                 f"alone: {judgement.verdict.summary()}")
            if not self.dry_run:
                module.body.detach_block(module.body.block)
                everything.body.move_blocks(module.body)
            return
        if all(not isinstance(t, MeasuredRatio) for _, _, t in timings):
            note += ", the model decides"
        elif pick is None:
            note += ": none faster"
        _report_kept(kept, note)

    def _original_for_the_compiler(self, module: ModuleOp) -> tuple[ModuleOp | None, str | None]:
        """A copy of the module as it came, for the compiler to compare with (None where none is asked), and
        for `auto` without a compiler, the note that the model decides alone.  `compiled` always asks; `auto`
        where occupancy figures exist (CUDA: for AMD and Intel modules it is exactly `model`), and only after
        a cheap look for the compiler the tool provides, so that without one it costs nothing over `model`."""
        if self.profit == "compiled":
            return clone_keeping_names(module), None
        if self.profit != "auto" or occupancy.limits_of(module_target(module)) is None:
            return None, None
        try:
            _compiler().look()
        except CompileUnavailable as e:
            return None, self._without_compiler(module, e)
        return clone_keeping_names(module), None

    def _ask_the_compiler(self, ctx: Context, module: ModuleOp, original: ModuleOp,
                          kept: dict[Operation, PlanJudgement]) -> str | None:
        """`profit=compiled` (and `auto`): compile the model's module and the one with every conversion
        removed (`profit=always`) with the real compiler the tool provides, and take the second when its SASS
        costs far less, or, short of a verdict there, when it lets more CTAs share an SM where few did, or
        spills far less, and is worse in neither (`occupancy.removal_pays`).  Returns the note for the kept
        conversions' remarks, or None when they were removed (and reported) here.  Without a compiler that can
        compile the module, `compiled` fails and `auto` leaves the model's decision."""
        label = f"profit={self.profit}"
        sm = occupancy.limits_of(module_target(module))  # an SM (CUDA) or a CDNA CU (hip:gfx90a/942/950)
        if sm is None:
            return f"{label}: no occupancy figures for target {module_target(module)}, the model decides"
        chosen, everything = self._candidates(ctx, module, original)
        if everything.is_structurally_equivalent(chosen):
            return f"{label}: removing every conversion gives the same module"
        try:
            stats = _compiler().compile([chosen, everything])
        except CompileUnavailable as e:
            return self._without_compiler(module, e)
        failed = [s for s in stats if isinstance(s, str)]
        if failed:
            return f"{label}: the real compiler failed ({failed[0]}), the model decides"
        compiled_chosen, compiled_everything = [s for s in stats if not isinstance(s, str)]
        # the stores each kept conversion's plan retypes: the same stores the module without any conversion has
        store_sectors = sum(judgement.verdict.store_sectors_added for judgement in kept.values())
        take, figures = occupancy.removal_pays(compiled_chosen, compiled_everything, sm,
                                               module_int(module, "num-warps") or 4, self.main_loop_trips,
                                               store_sectors, self.launch_grid)
        if not take:
            return f"{label}: {figures}"
        for cvt, judgement in kept.items():
            verb = "would move" if self.dry_run else "moved"
            emit_remark(cvt, f"propagate-mma: {verb} with every other conversion ({label}: {figures}); "
                             f"alone: {judgement.verdict.summary()}")
        if not self.dry_run:
            module.body.detach_block(module.body.block)
            everything.body.move_blocks(module.body)
        return None

    def _check_the_models_rewrite(self, ctx: Context, module: ModuleOp, original: ModuleOp,
                                  model_gain: float, store_sectors: int) -> None:
        """`profit=compiled` (and `auto`) where the model removed every conversion it could: compile the module as
        it came and as the model left it, and undo the rewrite where the second is worse in CTAs, spills or SASS
        cost, or, on CUDA, where its stores (`store_sectors`: the sector requests per CTA they add) cost more than
        the spill traffic it saves, or where the model's gain (`model_gain`, cycles/CTA) is marginal, or the launch
        is its epilogue (`main_loop_trips`), and the compiler's figures would not take the rewrite by themselves
        (`mma_profit.check_models_rewrite` decides),
        saying so on each conversion put back.  Without a compiler, or where it fails, the model's rewrite stands (it was reported as
        made)."""
        label = f"profit={self.profit}"
        sm = occupancy.limits_of(module_target(module))
        if sm is None:
            return
        chosen = module
        if self.dry_run:  # the model's choice, applied to a copy
            with silenced():
                chosen = clone_keeping_names(original)
                replace(self, profit="model", dry_run=False).apply(ctx, chosen)
        if chosen.is_structurally_equivalent(original):
            return
        try:
            stats = _compiler().compile([original, chosen])
        except CompileUnavailable as e:
            self._without_compiler(module, e)
            return
        if any(isinstance(s, str) for s in stats):
            return
        compiled_original, compiled_chosen = [s for s in stats if not isinstance(s, str)]
        outcome, reason, figures = check_models_rewrite(compiled_original, compiled_chosen, sm,
                                                        module_int(module, "num-warps") or 4, model_gain,
                                                        self.main_loop_trips, store_sectors, self.launch_grid)
        if outcome is None:
            return
        removed = _removed_conversions(original, chosen)
        if outcome == "kept":
            kept = "would be kept" if self.dry_run else "kept"
            for cvt in removed:
                emit_remark(cvt, f"propagate-mma: rewrite {kept}: {reason} ({label}: {figures})")
            return
        verb = "would be undone" if self.dry_run else "undone"
        for cvt in removed:
            emit_remark(cvt, f"propagate-mma: rewrite {verb}, the conversion kept: {reason} ({label}: {figures})")
        if not self.dry_run:
            module.body.detach_block(module.body.block)
            original.body.move_blocks(module.body)

    def _without_compiler(self, module: ModuleOp, unavailable: CompileUnavailable) -> str:
        """`auto` falls back to the model and says why; `compiled` was asked for by name: an error."""
        if self.profit == "auto":
            return f"profit=auto: {unavailable.reason}, the model decides"
        raise PassFailure(module, f"propagate-mma: profit=compiled needs the real Triton: {unavailable}")

    def _complete(self, cvt: Operation, judgement: PlanJudgement, facts: list[ModuleFacts], func: Operation,
                  taken_gain: float, acc: frozenset[Attribute], copies: list) -> Verdict | None:
        """Take a conversion the model judged a loss alone when, with the rewrites already taken in the
        function, the whole is still a gain (`mma_profit.completes_rewrite`); the model's verdict on it, or None when
        kept.
        Re-planned on the rewritten IR (a dry run keeps the first plan: nothing was rewritten)."""
        if cvt.parent is None:
            return None
        plan = None  # a dry run keeps the first judgement: nothing was rewritten
        if not self.dry_run:
            candidate, _ = mma_slice.classify_conversion(cvt, self.dot_operands, acc)
            plan = mma_slice.plan_mma_propagation(cvt, candidate, loads_only=self.loads_only) if candidate else None
            if plan is None or not plan.accepted:
                return None
            judgement = judge_plan(plan, facts[0])
        gain = judgement.verdict.gain
        if not completes_rewrite(taken_gain, judgement.verdict):
            return None
        together = f"taken with this function's other rewrites ({taken_gain + gain:+,.0f} cycles/CTA together)"
        if plan is None:
            emit_remark(cvt, f"propagate-mma: would move with the rest: {judgement.verdict.summary()}; {together}")
            return judgement.verdict
        what = _outcome(plan, judgement, word="remove with the rest")
        emit_remark(cvt, f"propagate-mma: moved to {mma_slice.layout_name(plan.target)}: {what}; {together}")
        apply_plan(plan, func, copies)
        facts[0].refresh(func)
        return judgement.verdict

    def _choose(self, plan: mma_slice.MmaSlicePlan, facts: ModuleFacts) -> tuple[mma_slice.MmaSlicePlan | None, PlanJudgement]:
        """The plan to apply (None: keep the conversion) and the model's judgement of it
        (`mma_profit.decide`, the procedure irkit-report shows)."""
        decision = decide(plan, facts, always=self.profit == "always")
        return decision.plan, decision.judgement

    def _plan(self, cvt: Operation, kinds: frozenset[str], acc: frozenset[Attribute],
              not_candidates: dict[Operation, str]) -> mma_slice.MmaSlicePlan | None:
        candidate, why_not = mma_slice.classify_conversion(cvt, self.dot_operands, acc)
        if candidate is None:
            if why_not:
                not_candidates[cvt] = why_not
            return None
        if candidate.kind not in kinds:
            wanted = ",".join(self.targets)
            emit_remark(cvt, f"propagate-mma: conversion left alone: {candidate.kind} is not in targets={wanted}")
            return None
        target = candidate.target
        if candidate.dot_operand and algebra.is_dot_operand(target) and not algebra.is_dpas(target.parent):
            emit_remark(
                cvt,
                "propagate-mma: dot-operands: the loads feeding this operand would produce "
                f"{mma_slice.layout_name(candidate.target)} directly and bypass shared memory (no swizzled staging)",
            )
        size = mma_slice.tensor_bytes(cvt.results[0].type)
        if size < self.min_bytes:
            emit_remark(cvt, f"propagate-mma: conversion left alone: {size} B < min-bytes={self.min_bytes}")
            return None
        return mma_slice.plan_mma_propagation(cvt, candidate, loads_only=self.loads_only)


def _removed_conversions(original: ModuleOp, rewritten: ModuleOp) -> list[Operation]:
    """The conversions of `original` that `rewritten` no longer has, matched by their result's name (the pass
    keeps every value's name)."""
    left = {exact_name(o.results[0]) for o in rewritten.walk() if isinstance(o, ConvertLayoutOp)}
    return [cvt for cvt in original.walk() if isinstance(cvt, ConvertLayoutOp)
            and (exact_name(cvt.results[0]) is None or exact_name(cvt.results[0]) not in left)]


def _compiler() -> RealCompiler:
    """The real compiler the tool provides (`irkit.analysis.real_compiler`); raises CompileUnavailable when
    it provides none."""
    compiler = real_compiler.provided()
    if compiler is None:
        raise CompileUnavailable("no real compiler: irkit-opt, irkit-check and irkit-sweep provide Triton's",
                                 "no real compiler provided to the pass")
    return compiler


def _report_kept(kept: dict[Operation, PlanJudgement], note: str | None = None) -> None:
    for cvt, judgement in kept.items():
        emit_remark(cvt, f"propagate-mma: conversion kept: {judgement.verdict.summary()}" + (f"; {note}" if note else ""))


def _outcome(plan: mma_slice.MmaSlicePlan, judgement: PlanJudgement, word: str | None = None) -> str:
    """What the rewrite does, with the scratch it saves as irkit-report counts it (not tensor bytes)."""
    v = judgement.verdict
    word = word or v.word
    shared = (
        f"shared memory {judgement.shared_before:,} -> {judgement.shared_after:,} B predicted"
        if judgement.shared_after != judgement.shared_before
        else f"shared memory stays {judgement.shared_before:,} B predicted"
    )
    return f"{plan.summary()}; {shared}; {word}: {v.summary()}"


# -------------------------------------------------------------------------------------------------
# Applying a plan
# -------------------------------------------------------------------------------------------------


def apply_plan(plan: mma_slice.MmaSlicePlan, func: Operation, copies: list | None = None) -> list[Operation]:
    """Rewrite `func` as `plan` says (ops visited in program order, so operands are ready first);
    returns the conversions the rewrite created.  `copies` gets (old value, its name, its rebuilt copy) for
    `name_copies`."""
    rewriter = _PlanRewriter(plan)
    rewriter.run(list(func.walk()))
    if copies is not None:
        copies.extend(rewriter.copies)
    return rewriter.created


def name_copies(copies: list[tuple[SSAValue, str | None, SSAValue]]) -> None:
    """A rebuilt copy takes its original's name once the original is gone (a later plan may erase it).  Where
    both stay, the input's value keeps its name and the copy is numbered: naming both alike would rename the
    input's value when printed."""
    origin: dict[SSAValue, tuple[SSAValue, str]] = {}  # a copy (or a retyped copy) -> the named value it stands for
    for old, name, new in copies:
        first = origin.get(old) or ((old, name) if name else None)
        if first is not None:
            origin[new] = first
    for new, (named, named_as) in origin.items():
        alive = isinstance(new, BlockArgument) or (
            isinstance(new.owner, Operation) and new.owner.parent is not None and new in new.owner.results)
        if alive and named.owner.parent is None:
            set_exact_name(new, named_as)

class _PlanRewriter:
    def __init__(self, plan: mma_slice.MmaSlicePlan):
        self.plan = plan
        self.new: dict[SSAValue, SSAValue] = {}  # old value -> its value in the new layout
        self.created: list[Operation] = []  # conversions the plan counted as added or retargeted
        self.copies: list[tuple[SSAValue, str | None, SSAValue]] = []  # (old value, its name, its rebuilt copy)

    def get(self, v: SSAValue) -> SSAValue:
        return self.new.get(v, v)

    def run(self, order: list[Operation]) -> None:
        p = self.plan
        for v in p.conversions_in:
            self.new[v] = self._convert_after(v, mma_slice.with_layout(v.type, p.layouts[v]))
        for op in order:
            role = p.roles.get(op)
            if role is None:
                continue
            if role == mma_slice.NODE:
                self._node(op)
            elif role in (mma_slice.SINK, mma_slice.YIELD):
                self._remap_operands(op)
            elif role == mma_slice.REGION:
                self._region(op)
            elif role == mma_slice.CONVERSION:
                self._conversion(op)
            elif role == mma_slice.ROUND_TRIP and op is p.seed:
                replace_uses(op.results[0], self.get(p.seed_source))
        # old copies nobody uses any more (rebuilt values, vanished conversions), users first
        for op in reversed(order):
            dead = all(not r.uses for r in op.results)
            if p.roles.get(op) in (mma_slice.NODE, mma_slice.CONVERSION, mma_slice.ROUND_TRIP) and op.parent is not None and dead:
                Rewriter.erase_op(op)

    # -- per role --------------------------------------------------------------------------------------

    def _remap_operands(self, op: Operation) -> None:
        for i, v in enumerate(op.operands):
            nv = self.get(v)
            if nv is not v:
                op.operands[i] = nv

    def _node(self, op: Operation) -> None:
        p = self.plan
        results = [r for r in op.results if r in p.layouts]
        if results and all(r in p.remat for r in results):
            self._rebuild(op)
            return
        self._remap_operands(op)
        for r in results:
            self._retype(r, insert_after=op)

    def _rebuild(self, op: Operation) -> None:
        """A copy of `op` in the new layout, before it; the old op stays while others use it."""
        p = self.plan
        operands = [self.get(v) for v in op.operands]
        result_types = [mma_slice.with_layout(r.type, p.layouts[r]) if r in p.layouts else r.type for r in op.results]
        properties = dict(op.properties)
        if isinstance(op, ConstantOp) and isinstance(value := properties["value"], DenseElementsAttr):
            properties["value"] = DenseElementsAttr(value.body, result_types[0])
        existing = _find_equivalent(op, operands, result_types, properties)
        if existing is None:
            existing = type(op).create(
                operands=operands,
                result_types=result_types,
                properties=properties,
                attributes=dict(op.attributes),
            )
            existing.location = op.location
            Rewriter.insert_op(existing, InsertPoint.before(op))
            self.copies.extend((old, exact_name(old), new) for old, new in zip(op.results, existing.results))
        for old, new in zip(op.results, existing.results):
            if old in p.layouts:
                self.new[old] = new

    def _region(self, op: Operation) -> None:
        self._remap_operands(op)
        for i in sorted(self.plan.region_indices.get(op, ())):
            if isinstance(op, scf.ForOp):
                self._retype(op.body.block.args[i + 1], insert_after=None)
            self._retype(op.results[i], insert_after=op)

    def _conversion(self, op: Operation) -> None:
        p = self.plan
        src, res = op.operands[0], op.results[0]
        new_src = self.get(src)
        if res in p.layouts:
            wanted = mma_slice.with_layout(res.type, p.layouts[res])
            if new_src.type == wanted:
                self.new[res] = new_src
            else:
                cvt = ConvertLayoutOp(new_src, wanted)
                cvt.location = op.location
                Rewriter.insert_op(cvt, InsertPoint.before(op))
                if op not in p.retargeted:
                    self.created.append(cvt)  # a retargeted one may be a seed again (a bias row into a #slice)
                self.new[res] = cvt.results[0]
            return  # the old conversion stays while users outside the slice need it
        if new_src.type == res.type:
            replace_uses(res, new_src)  # converting back to where it came from: gone
        elif new_src is not src:
            op.operands[0] = new_src

    # -- helpers -----------------------------------------------------------------------------------------

    def _retype(self, v: SSAValue, insert_after: Operation | None) -> None:
        """Change the type of `v` in place; users outside the slice get one conversion back."""
        p = self.plan
        if v not in p.layouts:
            return
        old_type = v.type
        name = exact_name(v)
        nv = Rewriter.replace_value_with_new_type(v, mma_slice.with_layout(old_type, p.layouts[v]))
        if name:
            set_exact_name(nv, name)
        else:
            self.copies.append((v, None, nv))  # an unnamed copy retyped: it may still inherit a name
        self.new[v] = nv
        outside = {user for user, _ in p.conversions_out.get(v, ())}
        if not outside:
            return
        back = ConvertLayoutOp(nv, old_type)
        self.created.append(back)
        if isinstance(nv, BlockArgument):
            block: Block = nv.block
            back.location = parent.location if (parent := block.parent_op()) else back.location
            Rewriter.insert_op(back, InsertPoint.at_start(block))
        elif insert_after is not None:  # None only for a block argument (`_region`)
            back.location = insert_after.location
            Rewriter.insert_op(back, InsertPoint.after(insert_after))
        nv.replace_uses_with_if(back.results[0], lambda use: use.operation in outside)

    def _convert_after(self, v: SSAValue, new_type: Attribute) -> SSAValue:
        cvt = ConvertLayoutOp(v, new_type)
        self.created.append(cvt)
        if isinstance(v, BlockArgument):
            cvt.location = parent.location if (parent := v.block.parent_op()) else cvt.location
            Rewriter.insert_op(cvt, InsertPoint.at_start(v.block))
        elif isinstance(v, OpResult):
            cvt.location = v.owner.location
            Rewriter.insert_op(cvt, InsertPoint.after(v.owner))
        return cvt.results[0]


def _find_equivalent(
    op: Operation, operands: list[SSAValue], result_types: list[Attribute], properties: dict
) -> Operation | None:
    """An op computing the same pure value that already dominates `op` (a light CSE, so rebuilding
    index arithmetic reuses what the kernel already computes in the mma layout)."""
    if operands:
        candidates = [u.operation for u in operands[0].uses]
    else:
        candidates = []
        x: Operation | None = op
        while x is not None and (block := x.parent_block()) is not None:
            if isinstance(x, (*FUNCTION_OPS, ModuleOp)):
                # isolated from above: nothing outside can be reused inside, and collecting the
                # module's functions per op made the pass quadratic in the number of functions
                break
            candidates.extend(block.ops)
            x = x.parent_op()
    for c in candidates:
        if (
            c is not op
            and type(c) is type(op)
            and list(c.operands) == operands
            and [r.type for r in c.results] == result_types
            and dict(c.properties) == properties
            and dict(c.attributes) == dict(op.attributes)
            and not c.regions
            and _dominates(c, op)
        ):
            return c
    return None


def _dominates(a: Operation, b: Operation) -> bool:
    """`a` comes before `b` in a block that contains `b` (directly or through its parents)."""
    block = a.parent_block()
    if block is None:
        return False  # a detached op dominates nothing
    x: Operation | None = b
    while x is not None:
        if x.parent_block() is block:
            return block.get_operation_index(a) < block.get_operation_index(x)
        x = x.parent_op()
    return False
