"""What a tool provides to passes (a real compiler, a GPU timer): one slot per kind, set by the tool around the
pipelines it runs and read by the passes that ask.  Passes never find or start such things themselves
(`irkit.analysis.real_compiler`, `irkit.analysis.kernel_timer`)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Generic, TypeVar

T = TypeVar("T")


class ToolProvided(Generic[T]):
    def __init__(self) -> None:
        self._provided: list[T] = []

    def provide(self, thing: T | None) -> None:
        """What the tools call: passes asking get `thing` (None: nothing)."""
        self._provided[:] = [thing] if thing is not None else []

    def provided(self) -> T | None:
        return self._provided[0] if self._provided else None

    @contextmanager
    def providing(self, thing: T | None) -> Iterator[None]:
        """`thing` for the duration of a block (a tool around one module; tests; programs that run passes)."""
        before = list(self._provided)
        self.provide(thing)
        try:
            yield
        finally:
            self._provided[:] = before
