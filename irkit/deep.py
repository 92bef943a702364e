"""Run front-end work on deeply nested IR: a thread with a large stack and a high
recursion limit.

The parser, verifier, printer and passes walk regions recursively, as MLIR does;
Python's default limit (1,000 frames, a few MB of C stack) stops them at about 250
nested regions.  Generated IR nests far deeper (10,000 levels must work), so the
work runs in a thread whose stack is reserved large (the memory is only touched as
far as the recursion really goes) with the recursion limit raised to match.  A
RecursionError past that limit still ends in a positioned diagnostic.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable
from typing import Any

STACK_BYTES = 1 << 30  # reserved, not committed: pages are touched only as deep as the recursion goes
RECURSION_LIMIT = 400_000  # frames; each nested region costs the parser about 10 of them

_lock = threading.Lock()


def run_deep(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """`fn(*args, **kwargs)` on a large stack; its result, or its exception re-raised here."""
    if getattr(_local, "inside", False):
        return fn(*args, **kwargs)
    box: dict[str, Any] = {}

    def target() -> None:
        _local.inside = True
        try:
            box["result"] = fn(*args, **kwargs)
        except BaseException as e:  # noqa: BLE001 - handed to the caller's thread as is
            box["error"] = e

    with _lock:  # stack_size and the recursion limit are process-wide settings
        old_stack = threading.stack_size()
        old_limit = sys.getrecursionlimit()
        try:
            threading.stack_size(STACK_BYTES)
        except (ValueError, RuntimeError):  # a platform that refuses: run as before
            return fn(*args, **kwargs)
        try:
            sys.setrecursionlimit(max(old_limit, RECURSION_LIMIT))
            worker = threading.Thread(target=target, name="irkit-deep", daemon=True)
            worker.start()
        finally:
            threading.stack_size(old_stack)
        try:
            worker.join()
        finally:
            sys.setrecursionlimit(old_limit)
    if "error" in box:
        raise box["error"]
    return box.get("result")


_local = threading.local()
