"""Diagnostics as MLIR prints them: `file:line:col: error: message`, the source
line, and a caret under the column.

Passes report remarks and warnings through `emit`, never by printing: the
driver decides where they go (stderr, `--verify-diagnostics`)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from xdsl.dialects.builtin import CallSiteLoc, FileLineColLoc, FusedLoc, NameLoc
from xdsl.ir import Attribute, Operation


@dataclass
class Diagnostic:
    severity: str  # error | warning | remark | note | output (a test pass's report, printed as is)
    message: str
    file: str | None = None
    line: int | None = None
    col: int | None = None
    source_line: str | None = None
    op: Operation | None = None

    def render(self) -> str:
        if self.severity == "output":
            return self.message
        where = ""
        if self.file is not None:
            where = self.file
            if self.line is not None:
                where += f":{self.line}:{self.col or 1}"
            where += ": "
        text = f"{where}{self.severity}: {self.message}"
        if self.source_line is not None and self.col is not None:
            text += "\n" + self.source_line + "\n" + " " * (self.col - 1) + "^"
        return text


class PassFailure(Exception):
    """Raised by a pass for input it cannot handle (e.g. a block pointer carried
    through scf.while); the driver reports it as an error at `op`, exit 1."""

    def __init__(self, op: Operation | None, message: str):
        super().__init__(message)
        self.op = op
        self.message = message


def failing_op(tb, known) -> Operation | None:
    """The op a failing pass was working on: the innermost frame of the traceback `tb`
    holding an Operation that `known(op)` accepts (`op` locals first)."""
    frames = []
    while tb is not None:
        frames.append(tb.tb_frame)
        tb = tb.tb_next
    for frame in reversed(frames):
        names = sorted(frame.f_locals, key=lambda n: n != "op")
        for name in names:
            value = frame.f_locals.get(name)
            if isinstance(value, Operation) and known(value):
                return value
    return None


@dataclass
class DiagnosticSink:
    """Collects what passes emit while they run."""

    diagnostics: list[Diagnostic] = field(default_factory=list)

    def emit(self, severity: str, op: Operation | None, message: str) -> None:
        self.diagnostics.append(Diagnostic(severity, message, op=op))


_SINK = DiagnosticSink()


def sink() -> DiagnosticSink:
    return _SINK


def emit_remark(op: Operation | None, message: str) -> None:
    _SINK.emit("remark", op, message)


def emit_warning(op: Operation | None, message: str) -> None:
    _SINK.emit("warning", op, message)


def emit_output(text: str) -> None:
    """A line of a test pass's report (Triton's -test-print-* passes write to stderr), printed as is."""
    _SINK.emit("output", None, text)


@contextmanager
def silenced() -> Iterator[None]:
    """Drop what passes emit inside the block (a pass trying a variant on a copy of the module)."""
    kept = len(_SINK.diagnostics)
    try:
        yield
    finally:
        del _SINK.diagnostics[kept:]


def take() -> list[Diagnostic]:
    out = list(_SINK.diagnostics)
    _SINK.diagnostics.clear()
    return out


def position(text: str, pos: int, line_offset: int = 0) -> tuple[int, int, str]:
    """(line, column, the line's text) of an offset, 1-based."""
    pos = max(0, min(pos, len(text)))
    start = text.rfind("\n", 0, pos) + 1
    end = text.find("\n", pos)
    if end < 0:
        end = len(text)
    line = text.count("\n", 0, pos) + 1 + line_offset
    return line, pos - start + 1, text[start:end]


def op_diagnostic(parsed, text: str, name: str, line_offset: int, severity: str, op: Operation | None,
                  message: str) -> Diagnostic:
    """A diagnostic at `op`'s place in the input `text` (or at its source location, for an op a pass made)."""
    pos = parsed.op_positions.get(op) if op is not None else None
    if pos is None:
        src = source_location(op.location) if op is not None else None
        if src is not None:
            return Diagnostic(severity, message, src[0], src[1], src[2], op=op)
        return Diagnostic(severity, message, name, op=op)
    line, col, source = position(text, pos, line_offset)
    return Diagnostic(severity, message, name, line, col, source, op=op)


def source_location(loc: Attribute) -> tuple[str, int, int] | None:
    """The first file:line:col inside an MLIR location (through names, callsites, fusions)."""
    if isinstance(loc, FileLineColLoc):
        return loc.filename.data, loc.line.data, loc.column.data
    if isinstance(loc, NameLoc):
        return source_location(loc.location)
    if isinstance(loc, CallSiteLoc):
        return source_location(loc.callee)
    if isinstance(loc, FusedLoc):
        for inner in loc.locations.data:
            found = source_location(inner)
            if found is not None:
                return found
    return None
