"""Triton's module attributes (`num-warps`, `threads-per-warp`, `target`, `shared`, ...), read in either
spelling: `ttg.<key>` (Triton 3.2 on) or `triton_gpu.<key>` (3.1). Properties count as attributes
(a generic print may carry them there)."""

from __future__ import annotations

from xdsl.dialects.builtin import IntegerAttr, StringAttr
from xdsl.ir import Attribute, Operation

PREFIXES = ("ttg.", "triton_gpu.")


def module_attrs(module: Operation) -> dict[str, Attribute]:
    out = dict(getattr(module, "attributes", {}) or {})
    out.update(dict(getattr(module, "properties", {}) or {}))
    return out


def module_int(module: Operation, key: str) -> int | None:
    """`ttg.<key>` / `triton_gpu.<key>` as an int (`module_int(m, "num-warps")`), None when absent."""
    attrs = module_attrs(module)
    for prefix in PREFIXES:
        attr = attrs.get(prefix + key)
        if isinstance(attr, IntegerAttr):
            return attr.value.data
    return None


def module_target(module: Operation) -> str | None:
    """`ttg.target` / `triton_gpu.target` (`"cuda:80"`, `"hip:gfx942"`), None when absent."""
    attrs = module_attrs(module)
    for prefix in PREFIXES:
        attr = attrs.get(prefix + "target")
        if isinstance(attr, StringAttr) and attr.data:
            return attr.data
    return None
