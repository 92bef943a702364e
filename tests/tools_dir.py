"""The tools in tools/ are scripts, not a package: a test imports one by name with the folder on sys.path only
while it loads (a tool imports its sibling tools the same way, by their bare names)."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from types import ModuleType

TOOLS = Path(__file__).resolve().parents[1] / "tools"


def import_tool(name: str) -> ModuleType:
    sys.path.insert(0, str(TOOLS))
    try:
        return importlib.import_module(name)
    finally:
        sys.path.remove(str(TOOLS))
