"""Runtime calls per host-loop iteration for MLIR GPU host code, under MLIR 14 and MLIR 22 lowering rules
(seed 001), and what they cost from a per-call table.  Pure functions of the IR: a tool injects where ops
stand in the text (`locate`).

Lowering rules (MLIR's gpu-to-llvm, `LegalizeLaunchFuncOpPattern` and the gpu.wait patterns; counts
checked against mlir-runner with irkit's counting runtime, tests/test_gpu_host.py):

- synchronous `gpu.launch_func`: GetFunction, StreamCreate, LaunchKernel, StreamSynchronize, StreamDestroy
  (MLIR 14 also ModuleLoad and ModuleUnload: before llvm PR #135478 the module was loaded per launch);
- `gpu.launch_func async [%t]`: GetFunction, LaunchKernel (MLIR 14: + ModuleLoad, ModuleUnload); with no
  dependency, + StreamCreate;
- `gpu.wait async`: StreamCreate; `gpu.wait [%t...]`: StreamSynchronize and StreamDestroy per dependency;
- `llvm.call @mgpu*`: itself; inside an `llvm.func` (after gpu-to-llvm), a launch with an explicit async
  object launches on that stream: GetFunction, LaunchKernel.

Loops: `scf.for` (trip count from constant bounds, else symbolic) and, after `convert-scf-to-cf`, the
natural loops of `cf` back-edges (trip count unknown).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

import networkx as nx
from xdsl.dialects import cf, scf
from xdsl.dialects.builtin import SymbolRefAttr
from xdsl.ir import Block, Operation

from irkit.analysis.trip_count import trip_count
from irkit.dialects.gpu_host import LaunchFuncOp, LLVMCallOp, LLVMFuncOp, WaitOp
from irkit.dialects.llvm_host import BRANCH_OPS as LLVM_BRANCH_OPS
from irkit.dialects.types import GpuAsyncTokenType

MLIR_VERSIONS = ("14", "22")

# µs per call.  rocm, cuda: the seed's `ltrace -c` (usecs/call; ltrace inflates them: the ROCm rows sum to
# 7.80 s against 5.45 s wall), on the seed author's machine (gfx906 for ROCm).  cuda-h100: in-process timings
# on the lent H100 (docs/shared seed-notes §4, per call of the upstream form); ModuleLoad/Unload are not
# per-launch there (MLIR 22 loads once), so they keep the seed's CUDA figure.
COST_US: dict[str, dict[str, float]] = {
    "rocm": {"mgpuStreamCreate": 5010, "mgpuModuleLoad": 1477, "mgpuStreamDestroy": 896, "mgpuModuleUnload": 179,
             "mgpuStreamSynchronize": 85, "mgpuLaunchKernel": 84, "mgpuModuleGetFunction": 68},
    "cuda": {"mgpuModuleLoad": 519, "mgpuStreamDestroy": 108, "mgpuStreamCreate": 108, "mgpuLaunchKernel": 101,
             "mgpuModuleUnload": 101, "mgpuModuleGetFunction": 97, "mgpuStreamSynchronize": 95},
    "cuda-h100": {"mgpuLaunchKernel": 4.9, "mgpuStreamCreate": 3.9, "mgpuStreamDestroy": 5.1,
                  "mgpuStreamSynchronize": 6.3, "mgpuModuleGetFunction": 0.2, "mgpuModuleLoad": 519,
                  "mgpuModuleUnload": 101},
}
COST_SOURCES = {
    "rocm": "seed 001 ltrace -c, ROCm (usecs/call)",
    "cuda": "seed 001 ltrace -c, CUDA (usecs/call)",
    "cuda-h100": "H100, in-process, the team's seed notes §4, tabled in docs/gpu-host.md (Module* from the seed's CUDA row)",
}


def op_calls(op: Operation, mlir: str) -> Counter:
    """The runtime calls one execution of `op` makes under MLIR `mlir` ("14" or "22") lowering."""
    calls: Counter = Counter()
    if isinstance(op, LaunchFuncOp):
        if mlir == "14":
            calls.update(["mgpuModuleLoad", "mgpuModuleUnload"])
        calls.update(["mgpuModuleGetFunction", "mgpuLaunchKernel"])
        if not op.results and op.asyncObject is not None and after_gpu_to_llvm(op):
            pass  # gpu-to-llvm's own output: the object is the stream its llvm.calls made
        elif not op.results:
            calls.update(["mgpuStreamCreate", "mgpuStreamSynchronize", "mgpuStreamDestroy"])
        elif not op.asyncDependencies:
            calls.update(["mgpuStreamCreate"])
    elif isinstance(op, LLVMCallOp):
        callee_ref = op.properties["callee"]
        assert isinstance(callee_ref, SymbolRefAttr)
        callee = callee_ref.root_reference.data
        if callee.startswith("mgpu"):  # already lowered (or put there by hoist-launch-stream{keep-sync})
            calls[callee] += 1
    elif isinstance(op, WaitOp):
        if op.results:
            calls.update(["mgpuStreamCreate"])
        else:
            for _ in op.asyncDependencies:
                calls.update(["mgpuStreamSynchronize", "mgpuStreamDestroy"])
    return calls


def after_gpu_to_llvm(op: Operation) -> bool:
    """Inside an `llvm.func`: host code gpu-to-llvm already lowered (its launches keep the stream as their
    explicit async object, which mlir-translate uses)."""
    parent = op.parent_op()
    while parent is not None:
        if isinstance(parent, LLVMFuncOp):
            return True
        parent = parent.parent_op()
    return False


@dataclass
class LoopCost:
    kind: str  # "scf.for" or "cf"
    op: Operation
    where: str
    trip_count: int | None
    calls: dict[str, Counter] = field(default_factory=dict)  # mlir version -> calls per iteration
    symbolic: bool = False  # a nested loop with an unknown trip count: per-iteration figures are a lower bound
    launches: list[Operation] = field(default_factory=list)

    def per_iteration(self, mlir: str) -> int:
        return sum(self.calls[mlir].values())

    def cost_us(self, mlir: str, runtime: str) -> float:
        return sum(COST_US[runtime].get(k, 0.0) * n for k, n in self.calls[mlir].items())


def _body_calls(block_ops, mlir: str) -> tuple[Counter, bool]:
    calls: Counter = Counter()
    symbolic = False
    for op in block_ops:
        if isinstance(op, scf.ForOp):
            inner, sym = _body_calls(op.body.block.ops, mlir)
            trips = trip_count(op)
            symbolic |= sym or trips is None
            for k, n in inner.items():
                calls[k] += n * (trips if trips is not None else 1)
            continue
        calls.update(op_calls(op, mlir))
        for region in op.regions:
            for block in region.blocks:
                inner, sym = _body_calls(block.ops, mlir)
                calls.update(inner)
                symbolic |= sym
    return calls, symbolic


def scf_loops(root: Operation, locate: Callable[[Operation], str]) -> list[LoopCost]:
    rows = []
    for op in root.walk():
        if isinstance(op, scf.ForOp):
            row = LoopCost("scf.for", op, locate(op), trip_count(op),
                           launches=[o for o in op.body.walk() if isinstance(o, LaunchFuncOp)])
            for mlir in MLIR_VERSIONS:
                row.calls[mlir], row.symbolic = _body_calls(op.body.block.ops, mlir)
            rows.append(row)
    return rows


def cf_loops(root: Operation, locate: Callable[[Operation], str]) -> list[LoopCost]:
    """Natural loops of cf back-edges (a branch to a block that dominates it), one row per loop header."""
    rows = []
    for op in root.walk():
        for region in op.regions:
            blocks = list(region.blocks)
            if len(blocks) < 2:
                continue
            g = nx.DiGraph()
            g.add_nodes_from(range(len(blocks)))
            index = {b: i for i, b in enumerate(blocks)}
            for i, b in enumerate(blocks):
                term = b.last_op
                if isinstance(term, (cf.BranchOp, cf.ConditionalBranchOp, *LLVM_BRANCH_OPS)):
                    for s in term.successors:
                        g.add_edge(i, index[s])
            dom = nx.immediate_dominators(g, 0)
            for tail, head in g.edges:
                if tail not in dom or not _dominates(dom, head, tail):
                    continue
                body = {head} | (nx.ancestors(g.subgraph(n for n in g if n != head), tail) | {tail}
                                 if tail != head else set())
                ops: list[Operation] = [o for i in sorted(body) for o in _ops(blocks[i])]
                row = LoopCost("cf", blocks[head].first_op or blocks[head].last_op, locate(blocks[tail].last_op), None,
                               launches=[o for o in ops if isinstance(o, LaunchFuncOp)])
                for mlir in MLIR_VERSIONS:
                    row.calls[mlir], _ = _body_calls(ops, mlir)
                rows.append(row)
    return rows


def _dominates(dom: dict[int, int], a: int, b: int) -> bool:
    while True:
        if a == b:
            return True
        if dom.get(b, b) == b:
            return False
        b = dom[b]


def _ops(block: Block) -> list[Operation]:
    return list(block.ops)


@dataclass
class LaunchSite:
    op: LaunchFuncOp
    where: str
    kernel: str
    mode: str  # "sync", "async", "sync+object"
    calls: dict[str, Counter]


def launch_sites(root: Operation, locate: Callable[[Operation], str]) -> list[LaunchSite]:
    sites = []
    for op in root.walk():
        if isinstance(op, LaunchFuncOp):
            mode = "async" if op.results else ("sync+object" if op.asyncObject is not None else "sync")
            sites.append(LaunchSite(op, locate(op), str(op.kernel), mode,
                                    {m: op_calls(op, m) for m in MLIR_VERSIONS}))
    return sites


@dataclass(frozen=True)
class Hazard:
    where: str
    message: str


def lowering_hazards(root: Operation, locate: Callable[[Operation], str]) -> list[Hazard]:
    """The two MLIR 22.1 gpu-to-llvm miscompiles seen on seed 001 (seed-notes §1.3, forms B and D)."""
    out = []
    for op in root.walk():
        if isinstance(op, scf.ForOp) and any(isinstance(a.type, GpuAsyncTokenType) for a in op.iter_args):
            out.append(Hazard(locate(op), "an async token carried in iter_args: MLIR 22.1's gpu-to-llvm turns the "
                                          "gpu.wait on it into event calls on a stream (the stream leaks)"))
        if isinstance(op, LaunchFuncOp) and not op.results and op.asyncObject is not None \
                and not after_gpu_to_llvm(op):
            out.append(Hazard(locate(op), "an explicit async object on a synchronous gpu.launch_func: MLIR 22.1's "
                                          "gpu-to-llvm drops it and creates a stream per launch"))
    return out


def is_gpu_host_text(text: str) -> bool:
    """Whether a file is MLIR GPU host IR (a `gpu.container_module` that launches kernels), not Triton IR:
    the tools pick their mode by it."""
    return "gpu.container_module" in text and ("gpu.launch_func" in text or "\"gpu.launch_func\"" in text)
