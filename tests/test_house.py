"""The house's floors (docs/architecture.md): imports between irkit's modules form no circle, and the
passes sit below the tools that run them."""

import ast
from pathlib import Path

import networkx as nx

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = {"irkit": ROOT / "irkit", "irkit.passes": ROOT / "passes"}


def _modules() -> dict[str, Path]:
    found = {}
    for package, folder in PACKAGES.items():
        for path in folder.rglob("*.py"):
            parts = list(path.relative_to(folder).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join([package, *parts])] = path
    return found


def _imported(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The irkit modules `name` imports, anywhere in the file (inside functions too)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{anchor}.{base}" if base else anchor
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base for a in node.names]
        else:
            continue
        for target in targets:
            while target and target not in modules:
                target = target.rpartition(".")[0]
            if target and target != name:
                out.add(target)
    return out


def _graph() -> nx.DiGraph:
    modules = _modules()
    graph = nx.DiGraph()
    for name, path in modules.items():
        graph.add_node(name)
        graph.add_edges_from((name, target) for target in _imported(name, path, modules))
    return graph


def test_the_graph_sees_the_imports_it_should():
    """The check below cannot pass for want of edges: known imports are in the graph."""
    graph = _graph()
    assert graph.has_edge("irkit.passes.coalesce", "irkit.layout.algebra")
    assert graph.has_edge("irkit.cli.opt", "irkit.passes")
    assert graph.has_edge("irkit.layout.algebra", "irkit.layout.linear")


def test_no_import_circle():
    """No module reaches itself through imports (a package's `__init__` importing its own modules
    counts only where one of them imports the package back)."""
    circles = [sorted(c) for c in nx.strongly_connected_components(_graph()) if len(c) > 1]
    assert not circles


def test_passes_import_nothing_from_the_tools():
    """In MLIR the tool links the passes, never the reverse: nothing in passes/ reaches irkit.cli or
    irkit.check, directly or through another module."""
    graph = _graph()
    passes = [n for n in graph if n.startswith("irkit.passes")]
    reached = {t for p in passes for t in nx.descendants(graph, p)}
    assert not sorted(t for t in reached if t.startswith(("irkit.cli", "irkit.check")))
