"""rewrite-tensor-pointer against the real Triton pass, and its pure decision rules.

The reference pairs in tests/data/rtp/ are real `triton-rewrite-tensor-pointer` runs (Triton 3.1.0 and
3.3.1, the pass alone: no canonicalize, no cse) on the corpus block-pointer kernels.  irkit's
`mode=upstream` must produce the same dataflow graph: one node per op (name, result types and
properties) and per block argument, one edge per SSA use (labelled with the result and operand index),
plus an edge from each op to the ops and block arguments of its regions.  Nothing is pruned: the
reference is the pass alone, so no dead ops are expected on either side (checked, not assumed).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import networkx as nx
import pytest
from irkit.passes import all_passes
from xdsl.dialects.builtin import IntegerAttr, IntegerType

from irkit.analysis import block_pointers
from irkit.frontend.parser import Parser
from irkit.frontend.printer import print_module

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "rtp"
PAIRS = json.loads((DATA / "index.json").read_text())["pairs"]


def parse(text: str, name: str):
    return Parser(text, name).parse()


def run_upstream(parsed) -> None:
    from xdsl.context import Context

    pass_cls = all_passes()["rewrite-tensor-pointer"]
    pass_cls(mode="upstream").apply(Context(allow_unregistered=True), parsed.module)


# -- the dataflow graph -------------------------------------------------------------------------------------


def _label(op) -> tuple:
    props = tuple(sorted((k, str(v)) for k, v in op.properties.items() if k != "operandSegmentSizes"))
    return (op.name, tuple(str(r.type) for r in op.results), props)


def dataflow_graph(module) -> nx.DiGraph:
    """One node per op and per block argument; edges: value -> user (attr: (result#, operand#) pairs),
    op -> each op and block argument directly inside its regions (attr: "nest")."""
    g = nx.DiGraph()
    ids: dict[object, int] = {}

    def node(key, label) -> int:
        if key not in ids:
            ids[key] = len(ids)
            g.add_node(ids[key], label=label)
        return ids[key]

    def producer(value) -> tuple[int, int]:
        owner = value.owner
        if hasattr(owner, "results") and value in owner.results:
            return node(owner, _label(owner)), value.index
        return node(value, ("blockarg", str(value.type), value.index)), 0

    for op in module.walk():
        me = node(op, _label(op))
        for region in op.regions:
            for block in region.blocks:
                for arg in block.args:
                    g.add_edge(me, node(arg, ("blockarg", str(arg.type), arg.index)), uses=("nest",))
                for inner in block.ops:
                    g.add_edge(me, node(inner, _label(inner)), uses=("nest",))
        for operand_index, value in enumerate(op.operands):
            src, result_index = producer(value)
            uses = g.edges[src, me]["uses"] if g.has_edge(src, me) else ()
            g.add_edge(src, me, uses=tuple(sorted(uses + ((result_index, operand_index),))))
    return g


def same_graph(ours, theirs) -> tuple[bool, str]:
    a, b = dataflow_graph(ours), dataflow_graph(theirs)
    la = Counter(d["label"][:2] for _, d in a.nodes(data=True))
    lb = Counter(d["label"][:2] for _, d in b.nodes(data=True))
    if la != lb:
        return False, f"(op, result types) multisets differ: irkit-only {la - lb}, triton-only {lb - la}"
    def edge_kinds(g):
        return Counter((g.nodes[u]["label"], g.nodes[v]["label"], d["uses"]) for u, v, d in g.edges(data=True))

    ea, eb = edge_kinds(a), edge_kinds(b)
    if ea != eb:  # a cheap necessary condition, and a readable message
        return False, f"use edges differ: irkit-only {list(ea - eb)[:3]}, triton-only {list(eb - ea)[:3]}"
    matcher = nx.algorithms.isomorphism.DiGraphMatcher(
        a, b,
        node_match=lambda x, y: x["label"] == y["label"],
        edge_match=lambda x, y: x["uses"] == y["uses"],
    )
    return matcher.is_isomorphic(), "use-def graphs are not isomorphic"


def dead_pure_ops(module) -> list[str]:
    from xdsl.traits import Pure

    return [op.name for op in module.walk()
            if op.results and all(not r.uses for r in op.results) and op.has_trait(Pure)]


# -- against the committed real-Triton pairs ------------------------------------------------------------------


@pytest.mark.parametrize("pair", PAIRS, ids=[f"{p['version']}-{p['id']}" for p in PAIRS])
def test_upstream_matches_real_triton(pair):
    src = (DATA / pair["in"]).read_text()
    ref = parse((DATA / pair["out"]).read_text(), Path(pair["out"]).name)
    ours = parse(src, Path(pair["in"]).name)
    run_upstream(ours)
    assert not dead_pure_ops(ref.module), "the reference has dead ops: the comparison would need pruning"
    assert not dead_pure_ops(ours.module)
    ok, why = same_graph(ours.module, ref.module)
    assert ok, f"{pair['id']}: {why}"
    # and the printed result parses back to the same graph
    again = parse(print_module(ours), "again.ttir")
    assert same_graph(again.module, ref.module)[0]


def test_graph_comparison_sees_a_swapped_operand_and_a_changed_predicate():
    """The comparison above is strict enough to catch a one-operand slip in the rewrite."""
    pair = PAIRS[0]
    ref = parse((DATA / pair["out"]).read_text(), "ref.ttir")
    for mutate in ("swap", "predicate"):
        ours = parse((DATA / pair["in"]).read_text(), "in.ttir")
        run_upstream(ours)
        assert same_graph(ours.module, ref.module)[0]
        cmp = next(op for op in ours.module.walk() if op.name == "arith.cmpi")
        if mutate == "swap":
            cmp.operands = (cmp.operands[1], cmp.operands[0])
        else:
            cmp.properties["predicate"] = IntegerAttr(3, IntegerType(64))  # sle instead of sge
        assert not same_graph(ours.module, ref.module)[0], mutate


# -- against the real pass, run now (when a real Triton can be found) ---------------------------------------

# Everything the corpus pairs lack: scf.if, padding zero (integer) and nan, a 3-D pointer with
# boundaryCheck out of order, cache/evict/volatile, a load without boundaryCheck, nested loops.
FEATURES_TTIR = """\
module {
  tt.func public @features(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %b: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %c: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %m: i64, %n: i64, %k: i64, %flag: i1, %lim: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c16 = arith.constant 16 : i32
    %c1_i64 = arith.constant 1 : i64
    %pa = tt.make_tensor_ptr %a, [%m, %n], [%n, %c1_i64], [%c0, %c16] {order = array<i32: 1, 0>} : <tensor<32x16xf16>>
    %pif = scf.if %flag -> (!tt.ptr<tensor<32x16xf16>>) {
      %adv = tt.advance %pa, [%c16, %c0] : <tensor<32x16xf16>>
      scf.yield %adv : !tt.ptr<tensor<32x16xf16>>
    } else {
      scf.yield %pa : !tt.ptr<tensor<32x16xf16>>
    }
    %x = tt.load %pif {boundaryCheck = array<i32: 1, 0>, padding = 2 : i32} : !tt.ptr<tensor<32x16xf16>>
    %p3 = tt.make_tensor_ptr %b, [%m, %n, %k], [%k, %c1_i64, %n], [%c0, %c0, %c1] {order = array<i32: 1, 2, 0>} : <tensor<2x8x4xi32>>
    %y = tt.load %p3 {boundaryCheck = array<i32: 2, 0>, padding = 1 : i32, cache = 2 : i32, evict = 3 : i32, isVolatile = true} : !tt.ptr<tensor<2x8x4xi32>>
    %pc = tt.make_tensor_ptr %c, [%m, %n], [%n, %c1_i64], [%c0, %c0] {order = array<i32: 1, 0>} : <tensor<32x16xf32>>
    %r:2 = scf.for %i = %c0 to %lim step %c1 iter_args(%p = %pc, %q = %pa) -> (!tt.ptr<tensor<32x16xf32>>, !tt.ptr<tensor<32x16xf16>>) : i32 {
      %v = tt.load %q : !tt.ptr<tensor<32x16xf16>>
      %w = arith.extf %v : tensor<32x16xf16> to tensor<32x16xf32>
      %inner = scf.for %j = %c0 to %lim step %c1 iter_args(%s = %p) -> (!tt.ptr<tensor<32x16xf32>>) : i32 {
        tt.store %s, %w {boundaryCheck = array<i32: 1>} : !tt.ptr<tensor<32x16xf32>>
        %s2 = tt.advance %s, [%c0, %c16] : <tensor<32x16xf32>>
        scf.yield %s2 : !tt.ptr<tensor<32x16xf32>>
      }
      %q2 = tt.advance %q, [%c1, %c0] : <tensor<32x16xf16>>
      scf.yield %inner, %q2 : !tt.ptr<tensor<32x16xf32>>, !tt.ptr<tensor<32x16xf16>>
    }
    %z = tt.load %r#0 {boundaryCheck = array<i32: 0>} : !tt.ptr<tensor<32x16xf32>>
    %xe = arith.extf %x : tensor<32x16xf16> to tensor<32x16xf32>
    %sum = arith.addf %xe, %z : tensor<32x16xf32>
    tt.store %r#0, %sum : !tt.ptr<tensor<32x16xf32>>
    tt.return
  }
}
"""

_TRITON_VENVS = {"3.1": ".venv-triton31", "3.3": ".venv-triton33"}

# Runs in a Triton environment: the real triton-rewrite-tensor-pointer alone on stdin (tools/refgen helpers).
_REAL_PASS = """\
import sys
sys.path.insert(0, sys.argv[1])
import refgen_common
refgen_common.triton()
from triton._C.libtriton import passes
ctx = refgen_common.context(sys.argv[2])
mod = refgen_common.parse_text(sys.stdin.read(), ctx, sys.argv[3])
refgen_common.run_passes(mod, ctx, passes.ttir.add_rewrite_tensor_pointer)
sys.stdout.write(refgen_common.text(mod))
"""


def _triton_python(version: str) -> str | None:
    """A Python that imports the real Triton `version`: this one if it can, else the refgen venv."""
    try:
        from importlib.metadata import version as installed

        if installed("triton").startswith(version + "."):
            return sys.executable
    except Exception:
        pass
    venv = Path(os.environ.get("REFGEN_VENV_ROOT", "/work")) / _TRITON_VENVS[version] / "bin" / "python"
    return str(venv) if venv.exists() else None


def real_rewrite(text: str, name: str, target: str, version: str) -> str:
    python = _triton_python(version)
    if python is None:
        pytest.skip(f"no Triton {version} here (pip install triton=={version}.x, or a refgen venv)")
    proc = subprocess.run([python, "-c", _REAL_PASS, str(ROOT / "tools" / "refgen"), target, name],
                          input=text, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-4000:]
    return proc.stdout


def _live_cases():
    for version in ("3.1", "3.3"):
        pair = next(p for p in PAIRS if p["version"].startswith(version + "."))
        yield pytest.param(version, pair["target"], (DATA / pair["in"]).read_text(), id=f"{version}-{pair['id']}")
        yield pytest.param(version, "cuda:80", FEATURES_TTIR, id=f"{version}-features")


@pytest.mark.parametrize("version,target,text", list(_live_cases()))
def test_upstream_matches_real_triton_live(version, target, text):
    reference = parse(real_rewrite(text, "input.ttir", target, version), "real.ttir")
    ours = parse(text, "input.ttir")
    run_upstream(ours)
    assert not dead_pure_ops(reference.module)
    ok, why = same_graph(ours.module, reference.module)
    assert ok, why


# -- Intel modes --------------------------------------------------------------------------------------------

LIT_FILE = ROOT / "lit_tests" / "passes" / "rewrite-tensor-pointer.mlir"


def _lit_case(func: str) -> str:
    from irkit.frontend.parser import split_input_file

    return next(t for t, _ in split_input_file(LIT_FILE.read_text()) if f"@{func}(" in t)


def run_mode(text: str, mode: str):
    from xdsl.context import Context

    parsed = parse(text, "case.mlir")
    all_passes()["rewrite-tensor-pointer"](mode=mode).apply(Context(allow_unregistered=True), parsed.module)
    return parsed


def _loads(module):
    return [op for op in module.walk() if op.name == "tt.load"]


@pytest.mark.parametrize("mode,epilogue_kept", [
    ("upstream", False), ("intel-pre-2400", False), ("intel-2400", True), ("intel-2420", True)])
def test_issue_2378_epilogue_load(mode, epilogue_kept):
    """intel-pre-2400 rewrites the #dpas epilogue load of the #2378 kernel into a tensor-of-pointers load
    whose every tensor is #dpas or a #slice of #dpas; intel-2400 (the fix) keeps the block pointer."""
    from irkit.dialects.encodings import DpasEncodingAttr, SliceEncodingAttr

    parsed = run_mode(_lit_case("seed_epilogue"), mode)
    epilogue = next(op for op in _loads(parsed.module) if op.results[0].type.get_shape() == (256, 256))
    ptr_type = epilogue.operands[0].type
    assert block_pointers.is_block_pointer(ptr_type) == epilogue_kept
    if epilogue_kept:
        return
    assert isinstance(ptr_type.encoding, DpasEncodingAttr) and len(epilogue.operands) == 2  # ptr, mask
    # every op feeding the load is in #dpas, or in a #slice of #dpas for the 1-D ranges
    feeding, todo = set(), [epilogue]
    while todo:
        op = todo.pop()
        for value in op.operands:
            owner = value.owner
            if hasattr(owner, "results") and owner not in feeding and owner.name != "tt.func":
                if owner.name == "arith.constant" or not hasattr(value.type, "encoding"):
                    continue
                feeding.add(owner)
                todo.append(owner)
    encodings = {str(op.results[0].type.encoding) for op in feeding}
    assert len(feeding) >= 30
    for op in feeding:
        enc = op.results[0].type.encoding
        if isinstance(enc, SliceEncodingAttr):
            assert isinstance(enc.parent, DpasEncodingAttr), op
        else:
            assert isinstance(enc, DpasEncodingAttr), op
    assert len(encodings) == 3  # #dpas and its two slices
    # the dot_op pointers of the loop are kept by every Intel mode
    kept = [op for op in parsed.module.walk() if op.name == "tt.make_tensor_ptr"]
    assert (len(kept) > 0) == (mode != "upstream")


def test_intel_2400_stale_use_is_a_clear_error():
    """A #dpas pointer advanced in a loop and loaded after it: I-2400 marks the loop's copy for rewriting
    but keeps the load's (per-value marking); Triton would erase a used op.  irkit reports it."""
    from irkit.diagnostics import PassFailure

    text = _lit_case("block_io_loop").replace(
        "    %plain =", "    %after = tt.load %r#1 {boundaryCheck = array<i32: 0, 1>} : "
        "!tt.ptr<tensor<64x64xf32, #dpas>>\n    %plain =")
    with pytest.raises(PassFailure) as err:
        run_mode(text, "intel-2400")
    assert err.value.op.name == "tt.load" and "#2420" in err.value.message
    for mode in ("upstream", "intel-pre-2400", "intel-2420"):
        run_mode(text, mode)  # the other rules are consistent here


def test_while_is_a_clear_cli_error(tmp_path):
    src = tmp_path / "while.mlir"
    src.write_text(_lit_case("carried_by_while"))
    exe = shutil.which("irkit-opt", path=str(Path(sys.executable).parent)) or "irkit-opt"
    proc = subprocess.run([exe, str(src), "--rewrite-tensor-pointer=mode=intel-2420"], capture_output=True, text=True)
    assert proc.returncode == 1
    assert f"{src}:" in proc.stderr and "error: block pointer carried through 'scf.while'" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_unknown_mode_is_rejected(tmp_path):
    """The mode is a Literal: the pipeline rejects another value, naming the ones it takes."""
    src = tmp_path / "k.mlir"
    src.write_text(_lit_case("carried_by_while"))
    exe = shutil.which("irkit-opt", path=str(Path(sys.executable).parent)) or "irkit-opt"
    proc = subprocess.run([exe, str(src), "--rewrite-tensor-pointer=mode=intel-2401"], capture_output=True, text=True)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    assert ("option 'mode' of pass 'rewrite-tensor-pointer' expects one of upstream, intel-pre-2400, intel-2400, "
            "intel-2420, got 'intel-2401'") in proc.stderr


# -- the pure rules -----------------------------------------------------------------------------------------


def test_fast_dim_and_2d_block_io_rule():
    assert block_pointers.fast_dim((False, True)) == 1 and block_pointers.fast_dim((True, True)) == 0 and block_pointers.fast_dim((False, False)) is None
    row_major, col_major = (False, True), (True, False)
    assert block_pointers.allows_2d_block_io(16, row_major, (True, False))  # pitch = strides[0]
    assert not block_pointers.allows_2d_block_io(16, row_major, (False, True))
    assert block_pointers.allows_2d_block_io(16, col_major, (False, True))  # pitch = strides[1]
    assert not block_pointers.allows_2d_block_io(8, col_major, (True, True))  # column-major fp8
    assert block_pointers.allows_2d_block_io(8, row_major, (True, True))
    assert not block_pointers.allows_2d_block_io(16, (True, False, False), (True, True, True))  # fast dim not in the last two
    assert block_pointers.allows_2d_block_io(16, (False, False, True), (False, True, False))
    assert not block_pointers.allows_2d_block_io(16, (True,), (True,))  # rank 1
    assert not block_pointers.allows_2d_block_io(16, (False, False), (True, True))  # no unit stride


def test_should_remove_rules():
    ok = block_pointers.PointerFacts(layout=block_pointers.DPAS, elem_bits=32, unit_strides=(False, True), pitch_divisible=(True, False))
    dot = block_pointers.PointerFacts(block_pointers.DOT_DPAS, 16, (False, True), (True, False))
    bad = block_pointers.PointerFacts(block_pointers.DOT_DPAS, 16, (False, True), (False, False))
    blocked = block_pointers.PointerFacts(None, 16, (False, True), (True, False))
    # I-pre / I-2400: #dpas kept only with the flag (store, or load-or-store); dot_op always if IO allows
    assert block_pointers.should_remove_i2400(ok, True, flag=False) and not block_pointers.should_remove_i2400(ok, True, flag=True)
    assert not block_pointers.should_remove_i2400(dot, True, flag=False)
    assert block_pointers.should_remove_i2400(bad, True, flag=True)
    assert block_pointers.should_remove_i2400(blocked, True, flag=True)
    assert block_pointers.should_remove_i2400(dot, False, flag=True)  # no 2D block support
    # I-2420: a block_io load keeps anything; a store keeps #dpas only
    assert not block_pointers.should_remove_i2420(None, True, used_by_store=False, used_by_block_load=True)
    assert not block_pointers.should_remove_i2420(block_pointers.DPAS, True, used_by_store=True, used_by_block_load=False)
    assert block_pointers.should_remove_i2420(block_pointers.DOT_DPAS, True, used_by_store=True, used_by_block_load=False)
    assert block_pointers.should_remove_i2420(block_pointers.DPAS, False, used_by_store=True, used_by_block_load=True)


def test_divisibility_and_constants_read_off_the_ir():
    text = """
tt.func @f(%a: i64 {tt.divisibility = 16 : i32}, %b: i64, %c: i32 {tt.divisibility = 8 : i32}) {
  %c24 = arith.constant 24 : i64
  %c1 = arith.constant 1 : i32
  %w = arith.extsi %c : i32 to i64
  %one = arith.extsi %c1 : i32 to i64
  %s = arith.addi %a, %c24 : i64
  tt.return
}
"""
    func = next(op for op in parse(text, "f.mlir").module.walk() if op.name == "tt.func")
    a, b, c = func.regions[0].blocks.first.args
    values = {op.results[0].name_hint: op.results[0] for op in func.walk() if op.results}
    assert block_pointers.is_divisible(a, 8) and block_pointers.is_divisible(a, 16) and not block_pointers.is_divisible(a, 32)
    assert not block_pointers.is_divisible(b, 1)  # unknown
    assert block_pointers.is_divisible(values["c24"], 8) and not block_pointers.is_divisible(values["c24"], 16)
    assert block_pointers.is_divisible(values["w"], 8) and not block_pointers.is_divisible(values["w"], 16)  # through extsi
    assert not block_pointers.is_divisible(values["s"], 8)  # I-2400 does not look through addi
    assert block_pointers.is_constant(values["one"], 1) and block_pointers.folded_int(values["c24"]) == 24
    assert block_pointers.folded_int(values["s"]) is None


def test_intel_pre_2400_reproduces_the_issue_2378_listing():
    """Intel issue #2378 (seed 002) quotes what the pre-#2400 pass made of the epilogue load; irkit's
    intel-pre-2400 must print the same ops with the same types, in order (SSA names and locations aside)."""
    import re

    quoted = (DATA / "issue_2378_into.txt").read_text().split("\n")
    after = [line for line in quoted if not line.startswith("//")][2:]  # past "into:" and its blank line
    listing = after[: next(i for i, line in enumerate(after) if "%48 = tt.load" in line) + 1]

    def normalized(lines):
        out = []
        for line in lines:
            line = re.sub(r"\s+loc\([^)]*\)\s*$", "", line.strip())
            line = re.sub(r"%[\w#]+", "%_", line.replace("#mma", "#dpas"))
            if line:
                out.append(line)
        return out

    expected = normalized(listing)
    printed = print_module(run_mode(_lit_case("seed_epilogue"), "intel-pre-2400")).split("\n")
    loop_end = next(i for i, line in enumerate(printed) if line == "    }")
    load = next(i for i, line in enumerate(printed) if "%lc = tt.load" in line)
    ours = normalized(printed[loop_end + 1: load + 1])
    assert len(expected) == 37  # %14 ... %48 and two constants
    assert ours == expected


def test_values_the_pass_keeps_keep_their_exact_names():
    """The loop's induction variable, its accumulator and the values computed from them keep `_N` names
    (xDSL's name_hint setter and its rewriter would print `%iv`, `%sum`, `%acc`)."""
    parsed = parse((DATA / "names_in_a_loop.mlir").read_text(), "names_in_a_loop.mlir")
    run_upstream(parsed)
    text = print_module(parsed)
    assert "scf.for %iv_1 = %c0 to %c8 step %c4 iter_args(%sum_7 = %zero, " in text
    assert "%x_3 = tt.load " in text and "%acc_2 = arith.addf %sum_7, %x_3" in text
    assert "tt.make_tensor_ptr" not in text and "tt.advance" not in text
