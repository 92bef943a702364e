"""irkit.analysis.graph (dataflow graph, queries, exporters) and irkit.analysis.opcount (text scan)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import networkx as nx
import pytest

from irkit.analysis import graph
from irkit.analysis.opcount import count_ops
from irkit.analysis.shared_memory import analyze_shared_memory
from irkit.frontend.parser import Parser
from irkit.frontend.printer import print_module

DATA = Path(__file__).parent / "data" / "report"

# A pipelined loop, written by hand: block arguments (induction variable, iteration arguments),
# a local_alloc used inside the loop, a scf.if without results (elided yield) and a reduce.
LOOP = """\
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @loop(%ptr: !tt.ptr<f32>, %n: i32, %flag: i1) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #blocked>
    %buf = ttg.local_alloc : () -> !ttg.memdesc<64x64xf32, #shared, #smem, mutable>
    %ptrs = tt.splat %ptr : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>, #blocked>
    %acc = scf.for %i = %c0 to %n step %c1 iter_args(%a = %zero) -> (tensor<64x64xf32, #blocked>)  : i32 {
      %x = tt.load %ptrs : tensor<64x64x!tt.ptr<f32>, #blocked>
      ttg.local_store %x, %buf : tensor<64x64xf32, #blocked> -> !ttg.memdesc<64x64xf32, #shared, #smem, mutable>
      %y = ttg.local_load %buf : !ttg.memdesc<64x64xf32, #shared, #smem, mutable> -> tensor<64x64xf32, #blocked>
      %s = arith.addf %a, %y : tensor<64x64xf32, #blocked>
      scf.yield %s : tensor<64x64xf32, #blocked>
    }
    %t = ttg.convert_layout %acc : tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #blocked1>
    %u = ttg.convert_layout %t : tensor<64x64xf32, #blocked1> -> tensor<64x64xf32, #blocked>
    scf.if %flag {
      tt.store %ptrs, %u : tensor<64x64x!tt.ptr<f32>, #blocked>
    } else {
      tt.store %ptrs, %acc : tensor<64x64x!tt.ptr<f32>, #blocked>
    }
    tt.return
  }
}
"""


def _parse(text: str, name: str = "<test>"):
    return Parser(text, name).parse()


@pytest.fixture(scope="module")
def epilogue():
    path = DATA / "epilogue_before.ttgir"
    return _parse(path.read_text(), str(path))


@pytest.fixture(scope="module")
def loop():
    return _parse(LOOP, "loop.ttgir")


def test_one_node_per_op_one_edge_per_use(loop):
    G = graph.build_graph(loop)
    ops = list(loop.module.walk())
    assert G.number_of_nodes() == len(ops)
    assert Counter(d["op"] for _, d in G.nodes(data=True)) == Counter(op.name for op in ops)
    # every operand of every op is one edge (all values here are defined inside the module)
    assert G.number_of_edges() == sum(len(op.operands) for op in ops)
    node_of = {d["line"]: n for n, d in G.nodes(data=True)}
    for op in ops:
        n = node_of[loop.op_line(op)]
        assert G.in_degree(n) == len(op.operands)


def test_block_arguments_are_defined_by_the_region_owner(loop):
    G = graph.build_graph(loop)
    (for_node,) = [n for n, d in G.nodes(data=True) if d["op"] == "scf.for"]
    (add_node,) = [n for n, d in G.nodes(data=True) if d["op"] == "arith.addf"]
    edges = G.get_edge_data(for_node, add_node)
    assert [e["value"] for e in edges.values()] == ["%a"]
    assert all(e["block_arg"] for e in edges.values())
    assert G.nodes[add_node]["parent"] == for_node
    assert G.nodes[add_node]["region"] == f"{for_node}.r0"
    assert G.nodes[add_node]["depth"] == G.nodes[for_node]["depth"] + 1
    assert G.nodes[add_node]["function"] == "loop"
    # a value defined outside the loop and used inside is an edge across the region boundary
    (splat,) = [n for n, d in G.nodes(data=True) if d["op"] == "tt.splat"]
    (load,) = [n for n, d in G.nodes(data=True) if d["op"] == "tt.load"]
    assert G.has_edge(splat, load)


def test_node_attributes_use_the_files_spelling(epilogue):
    G = graph.build_graph(epilogue)
    (load,) = [n for n, d in G.nodes(data=True) if d["op"] == "tt.load" and d["values"] == ["%acc"]]
    d = G.nodes[load]
    assert d["results"] == ["tensor<256x256xf32, #mma>"]
    assert d["layouts"] == ["#mma"]
    assert d["line"] == 11
    assert d["loc"] == "/src/epilogue.py:11:20"
    assert G.graph["target"] == "hip:gfx942" and G.graph["limit"] == 65536 and G.graph["version"] == "3.1"
    assert G.graph["layout_defs"]["#mma"].startswith("#triton_gpu.amd_mfma<{versionMajor = 3")


def test_convert_records_carry_layouts_shape_and_model_bytes(epilogue):
    smem = analyze_shared_memory(epilogue.module)
    G = graph.build_graph(epilogue, smem=smem)
    cvts = graph.convert_ops(G)
    assert [(c.value, c.src_layout, c.dst_layout) for c in cvts] == [("%1", "#mma", "#blocked"), ("%4", "#blocked", "#mma")]
    assert all(c.shape == [256, 256] and c.element_type == "f32" and c.needs_shared for c in cvts)
    scratch = {b.op: b.bytes for b in smem.buffers if b.kind == "scratch"}
    assert sorted(c.bytes for c in cvts) == sorted(scratch.values())
    assert [c.line for c in cvts] == [12, 16]
    assert G.graph["shared_bytes"] == smem.total_bytes
    assert graph.shared_memory_users(G) == [c.node for c in cvts]


def test_round_trip_chain_and_layout_regions(epilogue):
    G = graph.build_graph(epilogue)
    cvts = graph.convert_ops(G)
    chains = graph.conversion_chains(G)
    assert len(chains) == 1
    assert chains[0].nodes == [c.node for c in cvts]
    assert chains[0].layouts == ["#mma", "#blocked", "#mma"]
    assert chains[0].round_trip
    blocked = [r for r in graph.layout_regions(G) if r.layout == "#blocked"]
    assert len(blocked) == 1
    region = blocked[0]
    ops = {G.nodes[n]["op"] for n in region.nodes}
    assert {"tt.load", "arith.addf", "tt.splat"} <= ops
    assert region.entries == [cvts[0].node] and region.exits == [cvts[1].node]


def test_direct_convert_chain(loop):
    G = graph.build_graph(loop)
    chains = graph.conversion_chains(G)
    assert [ch.layouts for ch in chains] == [["#blocked", "#blocked1", "#blocked"]]
    assert chains[0].round_trip


def test_building_never_changes_the_ir(epilogue):
    before = print_module(epilogue, debuginfo=True)
    G = graph.build_graph(epilogue)
    graph.to_dot(G)
    graph.to_graphml(G)
    graph.to_json(G)
    assert print_module(epilogue, debuginfo=True) == before


def test_dot_has_clusters_and_highlights(loop):
    G = graph.build_graph(loop)
    dot = graph.to_dot(G, title="loop")
    assert dot.startswith("digraph irkit {")
    # one cluster per region-holding op (the module itself is not drawn)
    holders = [n for n, d in G.nodes(data=True) if d["op"] in ("tt.func", "scf.for", "scf.if")]
    assert dot.count("subgraph ") == len(holders) == 3
    for n in holders:
        assert f'subgraph "cluster_{n}"' in dot
    for n, d in G.nodes(data=True):
        if d["op"] == "builtin.module":
            assert f'"{n}" [' not in dot
        else:
            assert f'"{n}" [' in dot
    assert dot.count(graph.CONVERT_FILL) == 2 + 1  # two converts + the legend
    assert graph.SHARED_FILL in dot  # the local_alloc


def test_dot_focus_keeps_converts_and_their_neighbours(epilogue):
    G = graph.build_graph(epilogue)
    keep = graph.focus_nodes(G, radius=1)
    for c in graph.convert_ops(G):
        assert c.node in keep
        assert set(G.predecessors(c.node)) <= keep and set(G.successors(c.node)) <= keep
    assert "op0" in keep  # ancestors kept for the clusters


def test_graphml_and_json_round_trip(loop):
    G = graph.build_graph(loop)
    H = nx.parse_graphml(graph.to_graphml(G), force_multigraph=True)
    assert H.number_of_nodes() == G.number_of_nodes()
    assert H.number_of_edges() == G.number_of_edges()
    cvt = next(n for n, d in G.nodes(data=True) if d["is_convert"])
    assert H.nodes[cvt]["src_layout"] == "#blocked"
    data = json.loads(json.dumps(graph.to_json(G)))
    assert len(data["nodes"]) == G.number_of_nodes() and len(data["edges"]) == G.number_of_edges()
    assert {e["source"] for e in data["edges"]} <= {n["id"] for n in data["nodes"]}


@pytest.mark.skipif(not graph.dot_available(), reason="Graphviz 'dot' is not installed")
def test_render_svg_and_png(epilogue):
    dot = graph.to_dot(graph.build_graph(epilogue))
    svg = graph.render(dot, "svg").decode()
    assert "<svg" in svg and "ttg.convert_layout" in svg
    assert graph.render(dot, "png")[:8] == b"\x89PNG\r\n\x1a\n"


def test_render_without_dot_is_a_clean_error(monkeypatch):
    monkeypatch.setattr(graph.shutil, "which", lambda name: None)
    assert not graph.dot_available()
    with pytest.raises(graph.RenderError, match="Graphviz"):
        graph.render("digraph {}", "svg")


# -- opcount ---------------------------------------------------------------------------------------


def test_opcount_matches_the_parser_including_elided_terminators(loop):
    counts = count_ops(LOOP)
    assert counts.by_name == Counter(op.name for op in loop.module.walk())
    # the scf.if without results prints neither of its two scf.yield
    assert counts.count("scf.yield") == 3
    assert counts.converts == 2 and counts.local_allocs == 1


def test_opcount_legacy_spelling_and_generic_ops():
    text = (
        'module {\n  %0 = "triton_gpu.convert_layout"(%arg) : (tensor<4xf32>) -> tensor<4xf32>\n'
        "  %1:2 = triton_gpu.local_alloc\n  scf.for %i = %a to %b step %c {\n    tt.foo\n  }\n}\n"
    )
    c = count_ops(text)
    assert c.converts == 1 and c.local_allocs == 1
    assert c.by_name["scf.yield"] == 1  # the loop without iter_args
    assert c.total == 6


def test_opcount_on_corpus_files(corpus):
    files = sorted((corpus / "ir").glob("3.1.0/cuda_80/*.ttgir"))[:6] + sorted((corpus / "ir").glob("3.9.0/*/*.ttir"))[:3]
    assert files
    for f in files:
        text = f.read_text()
        walked = Counter(op.name for op in _parse(text, str(f)).module.walk())
        assert count_ops(text).by_name == walked, f


def test_op_line_does_not_rescan_the_text_per_op():
    """irkit-report asks every op's line: a count of newlines from the file start per op
    made 100k ops take minutes.  The lines are still right, and no op costs a rescan."""
    from irkit.frontend.parser import Parser

    class CountingText(str):
        scans = 0

        def count(self, *args):
            CountingText.scans += 1
            return super().count(*args)

    body = "\n".join(f"    %c{i} = arith.constant {i} : i32" for i in range(300))
    text = f"module {{\n  tt.func @f() {{\n{body}\n    tt.return\n  }}\n}}\n"
    parsed = Parser(text, "t.mlir").parse()
    parsed.text = CountingText(text)
    lines = [parsed.op_line(op) for op in parsed.module.walk() if op.name == "arith.constant"]
    assert lines == list(range(3, 303))
    assert CountingText.scans == 0
