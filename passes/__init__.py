"""irkit's passes, one module per pass, found by scanning this package.

A pass module defines one `xdsl.passes.ModulePass` dataclass with a `name`
(its command-line flag) and a docstring whose first line is its summary;
nothing else needs registering.  This folder is installed as `irkit.passes`.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import sys
from functools import cache

from xdsl.passes import ModulePass


@cache
def all_passes() -> dict[str, type[ModulePass]]:
    """Every pass in this package, by name."""
    found: dict[str, type[ModulePass]] = {}
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda i: i.name):
        if info.name.startswith("_"):
            continue
        try:
            module = importlib.import_module(f"{__name__}.{info.name}")
        except Exception as e:  # one broken pass file must not take the others down
            sys.stderr.write(f"irkit: warning: pass module '{info.name}' failed to import: {type(e).__name__}: {e}\n")
            continue
        for _, obj in inspect.getmembers(module, inspect.isclass):
            if issubclass(obj, ModulePass) and obj.__module__ == module.__name__ and hasattr(obj, "name"):
                found[obj.name] = obj
    return found


def summary(cls: type[ModulePass]) -> str:
    doc = inspect.getdoc(cls) or ""
    return doc.splitlines()[0] if doc else ""
