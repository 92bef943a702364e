"""What `--help` and `--list-passes` say about each pass, without importing it.

Importing a pass imports xDSL, the dialects and the front end (about half a
second); the help text needs only each pass's name, the first line of its
docstring and its options.  Those are read from the pass modules' source with
`ast`, the same facts `irkit.passes.all_passes()` gets by importing:
a `@dataclass` class deriving from `ModulePass` with a `name = "..."`, its
docstring, and its fields with their defaults.  A module the scan cannot read
that way (a computed name, options inherited from another class, a default
that is not a literal) is imported instead, so the catalog is never wrong,
only slower.  tests/test_pass_catalog.py checks it against the real registry.
"""

from __future__ import annotations

import ast
import importlib.util
import inspect
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from irkit.cli.pass_options import option_name, render_value


@dataclass(frozen=True)
class PassInfo:
    name: str
    summary: str
    options: tuple[tuple[str, str], ...]  # (field, default as written in a pipeline, or <type>)
    # the C++ pass names this pass answers to, each with the options that name implies
    # (the pass class's `upstream_names` ClassVar)
    upstream_names: tuple[tuple[str, str], ...] = ()
    details: str = ""  # the docstring after its first line (what --help prints under the pass)

    @property
    def options_help(self) -> str:
        if not self.options:
            return ""
        return " [" + " ".join(f"{option_name(k)}={v}" for k, v in self.options) + "]"

    @property
    def aliases_help(self) -> str:
        """`also: tritongpu-coalesce, tritonintelgpu-rewrite-tensor-pointer (mode=intel-2420)`."""
        if not self.upstream_names:
            return ""
        names = [f"{n} ({o})" if o else n for n, o in self.upstream_names]
        return " (also as " + ", ".join(names) + ")"


class _Unreadable(Exception):
    pass


def _passes_dir() -> Path:
    spec = importlib.util.find_spec("irkit.passes")  # does not run the package's __init__
    assert spec is not None and spec.submodule_search_locations
    return Path(next(iter(spec.submodule_search_locations)))


def _is_pass_class(node: ast.ClassDef) -> bool:
    for base in node.bases:
        if (isinstance(base, ast.Name) and base.id == "ModulePass") or (
            isinstance(base, ast.Attribute) and base.attr == "ModulePass"
        ):
            return True
    return False


def _read_class(node: ast.ClassDef) -> PassInfo | None:
    name = None
    options: list[tuple[str, str]] = []
    upstream: tuple[tuple[str, str], ...] = ()
    for stmt in node.body:
        if (isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name)
                and stmt.target.id == "upstream_names"):
            try:
                upstream = _upstream_names(ast.literal_eval(stmt.value))
            except (ValueError, TypeError):
                raise _Unreadable from None
            continue
        if isinstance(stmt, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "name" for t in stmt.targets):
            if not (isinstance(stmt.value, ast.Constant) and isinstance(stmt.value.value, str)):
                raise _Unreadable
            name = stmt.value.value
        elif isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
            annotation = ast.unparse(stmt.annotation)
            if annotation.startswith(("ClassVar", "typing.ClassVar")):
                continue
            if stmt.value is None:
                options.append((stmt.target.id, f"<{annotation!r}>"))
                continue
            try:
                default = ast.literal_eval(stmt.value)
            except ValueError:
                raise _Unreadable from None  # field(default_factory=...) and the like
            options.append((stmt.target.id, render_value(default)))
    if name is None:
        return None
    doc = inspect.cleandoc(ast.get_docstring(node, clean=False) or "")
    return PassInfo(name, doc.splitlines()[0] if doc else "", tuple(options), upstream, doc_details(doc))


def doc_details(doc: str) -> str:
    """A pass docstring after its summary line."""
    return "\n".join(doc.splitlines()[1:]).strip()


def _upstream_names(value) -> tuple[tuple[str, str], ...]:
    """`upstream_names` is a dict {C++ pass name: options that name implies}."""
    if not isinstance(value, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in value.items()):
        raise TypeError("upstream_names must be a dict of str to str")
    return tuple(value.items())


def _scan_module(path: Path) -> list[PassInfo] | None:
    """The passes a module defines, or None when it must be imported to know."""
    tree = ast.parse(path.read_text(), str(path))
    found: list[PassInfo] = []
    for node in tree.body:
        if not isinstance(node, ast.ClassDef):
            continue
        if not _is_pass_class(node):
            if any(isinstance(b, ast.Name) and b.id.endswith("Pass") for b in node.bases):
                return None  # derives from another pass class: inherited options
            continue
        try:
            info = _read_class(node)
        except _Unreadable:
            return None
        if info is not None:
            found.append(info)
    return found


def _import_module(module: str) -> list[PassInfo]:
    from xdsl.passes import get_pass_option_infos

    from irkit.passes import all_passes, summary

    out = []
    for cls in all_passes().values():
        if cls.__module__ == module:
            infos = get_pass_option_infos(cls)
            options = tuple(
                (i.name, render_value(getattr(cls, i.name)) if hasattr(cls, i.name) else "<" + i.expected_type + ">")
                for i in infos
            )
            upstream = _upstream_names(getattr(cls, "upstream_names", {}))
            out.append(PassInfo(cls.name, summary(cls), options, upstream, doc_details(inspect.getdoc(cls) or "")))
    return out


@cache
def pass_catalog() -> dict[str, PassInfo]:
    """Every pass of irkit.passes by name, in the order all_passes() lists them."""
    found: dict[str, PassInfo] = {}
    for path in sorted(_passes_dir().glob("*.py"), key=lambda p: p.stem):
        if path.stem.startswith("_"):
            continue
        infos = _scan_module(path)
        if infos is None:
            infos = _import_module(f"irkit.passes.{path.stem}")
        for info in infos:
            found[info.name] = info
    return found


@cache
def pass_names() -> dict[str, tuple[str, str]]:
    """Every name a pass answers to (its own and its upstream ones) -> (the pass's name, implied options)."""
    names: dict[str, tuple[str, str]] = {}
    for info in pass_catalog().values():
        names[info.name] = (info.name, "")
        for alias, options in info.upstream_names:
            names.setdefault(alias, (info.name, options))
    return names
