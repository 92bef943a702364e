"""Read Triton ``MLIR_ENABLE_DUMP`` logs and Triton cache / kernel-dump folders.

Pure text handling: this module imports nothing from xDSL, so it stays cheap to
import and can be used before any dialect is registered.

``MLIR_ENABLE_DUMP=1`` makes Triton print the whole module to stderr before every
pass.  Each section starts with a header line, in one of these forms::

    // -----// IR Dump Before TritonGPUCoalesce (tritongpu-coalesce) ('builtin.module' operation) //----- //
    // -----// IR Dump Before Canonicalizer (canonicalize) ('tt.func' operation: @kernel) //----- //
    // -----// IR Dump Before CanonicalizerPass: canonicalize{max-iterations=10 ...} ('builtin.module' operation) //----- //
    // -----// SoftwarePipeliner internal IR Dump After: LowerLoops

The first two are Triton 3.1/3.3 (``<PassClass> (<pass-arg>)``), the third is
Triton 3.9 (``<PassClass>: <pass-arg>{<options>}``), the last one is the
pipeliner's own intermediate dump (3.3 and later).  Triton prints only "Before"
dumps, so the IR *after* pass ``k`` is section ``k + 1``.  Even when the anchor is
a ``tt.func`` / ``llvm.func`` the body is printed at module scope (Triton turns
on module-scope printing), so every section body is a complete module:
leading attribute / location aliases, ``module ... { ... }``, then the trailing
``#locN = loc(...)`` alias lines.

The log is raw stderr, so other text can sit around the sections: Python
warnings before the first header (Triton 3.9 prints a ``UserWarning`` there),
and, with other dump knobs on, LLVM IR (``; ModuleID = ...``), PTX, etc. after the
last MLIR section.  :func:`split_sections` keeps only the MLIR text of each
section: from the first line that starts with ``#`` or ``module`` after the
header to the module's closing ``}`` plus the alias lines that directly follow
it.  Anything else in between is dropped.

Sections store offsets into the log text, and :attr:`DumpSection.text` slices
on demand, so splitting a 60 MB log costs only the header scan.
"""

from __future__ import annotations

import codecs
import gzip
import os
import re
import zlib
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from os import PathLike
from pathlib import Path
from typing import Union

__all__ = [
    "DumpSection",
    "DumpSelectError",
    "read_text",
    "split_sections",
    "is_dump_log",
    "select_section",
    "resolve_cache_input",
    "section_summary",
]

StrPath = Union[str, "PathLike[str]"]

# Every header line starts with this marker (both MLIR's and the pipeliner's).
_MARKER = "// -----// "

# "IR Dump Before <spec> ('<anchor>' operation[: @sym]) //----- //"
_PASS_HEADER_RE = re.compile(
    r"IR Dump (?P<kind>Before|After) (?P<spec>.*?)"
    r"(?: \('(?P<anchor>[^']*)' operation(?:: @(?P<sym>.*))?\))?"
    r"\s*(?://-----\s*//)?\s*$"
)
# Triton 3.9: "<PassClass>: <arg>{<options>}" (options optional).
_SPEC_COLON_RE = re.compile(r"^(?P<cls>[^:\s]\S*?): (?P<arg>[^\s{]+)(?:\{(?P<opts>.*)\})?$")
# Triton 3.1/3.3 and upstream MLIR: "<PassClass> (<arg>)".
_SPEC_PAREN_RE = re.compile(r"^(?P<cls>.+?) \((?P<arg>[^()]*)\)$")
# "SoftwarePipeliner internal IR Dump After: LowerLoops"
_INTERNAL_HEADER_RE = re.compile(
    r"^(?P<cls>\S+) internal IR Dump (?P<kind>Before|After): (?P<step>.*?)\s*$"
)

# First line of a section body: an alias definition or the module itself.
_BODY_START_RE = re.compile(r'^(?:#|module\b|"builtin\.module")', re.M)
# The module op line (aliases may precede it).
_MODULE_LINE_RE = re.compile(r'^(?:module\b|"builtin\.module")', re.M)
# Lines allowed after the module's closing brace: alias definitions and blanks.
_ALIAS_TAIL_RE = re.compile(r"(?:[ \t]*\n|#[\w$.-]+ = [^\n]*(?:\n|\Z))*")
# A dump header anywhere in a text (for is_dump_log).
_ANY_HEADER_RE = re.compile(r"^// -----// (?:IR Dump (?:Before|After) |\S+ internal IR Dump )", re.M)

_SNIFF_CHARS = 64 * 1024


class DumpSelectError(ValueError):
    """A section spec or an input folder did not resolve to exactly one thing.

    The message is meant for users: it lists what is available.
    """


@dataclass(frozen=True)
class DumpSection:
    """One IR snapshot of an ``MLIR_ENABLE_DUMP`` log.

    Attributes:
        index: 0-based position among all sections of the log (internal
            pipeliner dumps included).
        kind: ``"before"`` (IR entering the pass; all normal Triton sections)
            or ``"after"`` (``IR Dump After`` and the pipeliner's internal
            ``IR Dump After: <Step>`` sections).
        pass_class: pass class name, e.g. ``"TritonGPUCoalesce"`` or
            ``"CanonicalizerPass"``; ``"SoftwarePipeliner"`` for internal dumps.
        pass_arg: pass argument, e.g. ``"tritongpu-coalesce"``; the step name
            (``"LowerLoops"``) for internal dumps; ``""`` when the header has none.
        options: text inside ``{...}`` after the argument (Triton 3.9), verbatim;
            ``""`` when there are none.
        anchor_op: op the pass ran on, e.g. ``"builtin.module"`` or
            ``"tt.func"``; ``""`` for internal dumps.
        anchor_sym: symbol name of the anchor op *without* the leading ``@``
            and unquoted, as the header prints it (``"matmul_kernel"``; the IR
            itself may quote it, ``@"zeros_(c256, c256)"``), or ``None`` when
            the header names none.
        header_line: 1-based line number of the header in the log.
        body_first_line: 1-based line number of the first line of :attr:`text`.
    """

    index: int
    kind: str
    pass_class: str
    pass_arg: str
    options: str
    anchor_op: str
    anchor_sym: str | None
    header_line: int
    body_first_line: int
    _source: str = field(default="", repr=False, compare=False)
    _start: int = field(default=0, repr=False, compare=False)
    _end: int = field(default=0, repr=False, compare=False)
    _hstart: int = field(default=0, repr=False, compare=False)

    @property
    def text(self) -> str:
        """The section's MLIR text (aliases, module, trailing ``#loc`` lines).

        Sliced from the log on each access; ends with a newline unless empty.
        """
        return self._source[self._start:self._end]

    @property
    def is_internal(self) -> bool:
        """True for a pass-internal dump (``SoftwarePipeliner internal IR Dump After: ...``)."""
        return " internal IR Dump " in self.header_text

    @property
    def header_text(self) -> str:
        """The header line as it appears in the log (without the newline)."""
        end = self._source.find("\n", self._hstart)
        return self._source[self._hstart:] if end < 0 else self._source[self._hstart:end]

    @property
    def label(self) -> str:
        """A one-line human description, e.g. ``Before TritonGPUCoalesce (tritongpu-coalesce) on builtin.module``."""
        if self.is_internal:
            return f"{self.pass_class} internal {self.kind.capitalize()}: {self.pass_arg}"
        arg = f" ({self.pass_arg})" if self.pass_arg else ""
        on = ""
        if self.anchor_op:
            on = f" on {self.anchor_op}" + (f" @{self.anchor_sym}" if self.anchor_sym is not None else "")
        return f"{self.kind.capitalize()} {self.pass_class}{arg}{on}"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, DumpSection):
            return NotImplemented
        return self._key() == other._key() and self.text == other.text

    def __hash__(self) -> int:
        return hash(self._key())

    def _key(self) -> tuple:
        return (
            self.index,
            self.kind,
            self.pass_class,
            self.pass_arg,
            self.options,
            self.anchor_op,
            self.anchor_sym,
            self.header_line,
            self.body_first_line,
        )


# --------------------------------------------------------------------------- I/O


class InputTooLarge(OSError):
    """The input holds more text than irkit reads (see :func:`read_text`)."""


# What one input may hold once decompressed (a dump log holds many modules; one module is capped
# apart, parser.MAX_MODULE_CHARS): 128 MiB of text and the sections cut from it stay well under
# 1 GB, and a compressed log is read in pieces up to this cap so that a gzip bomb fails early at a
# bounded peak memory.  IRKIT_MAX_INPUT_MB raises or lowers it.
MAX_INPUT_CHARS = int(float(os.environ.get("IRKIT_MAX_INPUT_MB", "128")) * (1 << 20))
_READ_CHUNK = 1 << 20


def read_text(path: StrPath, limit: int | None = None) -> str:
    """Read a whole text file, gunzipping it when it is gzip-compressed.

    Compression is detected from the ``.gz`` suffix or the gzip magic bytes and
    the file is decompressed as a stream, a megabyte at a time, so nothing past
    ``limit`` characters (default :data:`MAX_INPUT_CHARS`) is ever held: more
    raises :class:`InputTooLarge`.  A corrupt gzip stream raises ``OSError``
    with a one-line reason.  The bytes are decoded as UTF-8 (undecodable bytes
    become U+FFFD) and ``\\r\\n`` / ``\\r`` line ends are normalised to ``\\n``.
    """
    limit = MAX_INPUT_CHARS if limit is None else limit
    p = Path(path)
    with open(p, "rb") as raw:
        magic = raw.read(2)
        raw.seek(0)
        if p.suffix == ".gz" or magic == b"\x1f\x8b":
            try:
                text = _read_stream(gzip.GzipFile(fileobj=raw), p, limit, "after decompression")
            except (zlib.error, gzip.BadGzipFile, EOFError) as e:
                raise OSError(f"corrupt gzip data ({type(e).__name__}: {e})") from None
        else:
            text = _read_stream(raw, p, limit, "")
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text


def _read_stream(stream, path: Path, limit: int, how: str) -> str:
    decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
    parts: list[str] = []
    held = 0
    while True:
        data = stream.read(_READ_CHUNK)
        if not data:
            break
        part = decoder.decode(data)
        held += len(part)
        if held > limit:
            raise InputTooLarge(
                f"more than {limit >> 20} MiB of text{' ' + how if how else ''}; irkit reads at most that much "
                f"of one input (set IRKIT_MAX_INPUT_MB to change it; for a dump log, extract the section first)")
        parts.append(part)
    parts.append(decoder.decode(b"", final=True))
    return "".join(parts)


def is_dump_log(text_head: str) -> bool:
    """True if an IR Dump header line occurs in the first 64 KB of ``text_head``."""
    return _ANY_HEADER_RE.search(text_head[:_SNIFF_CHARS]) is not None


# ----------------------------------------------------------------------- split


def _parse_header(line: str) -> tuple[str, str, str, str, str, str | None] | None:
    """Parse one header line (without the leading marker).

    Returns ``(kind, pass_class, pass_arg, options, anchor_op, anchor_sym)``
    or ``None`` if the line is not an IR dump header.
    """
    m = _INTERNAL_HEADER_RE.match(line)
    if m:
        return (m["kind"].lower(), m["cls"], m["step"], "", "", None)
    m = _PASS_HEADER_RE.match(line)
    if not m:
        return None
    spec = m["spec"].strip()
    if spec.endswith(" Failed"):  # MLIR: "IR Dump After <Pass> Failed (...)"
        spec = spec[: -len(" Failed")]
    cls, arg, opts = spec, "", ""
    sm = _SPEC_COLON_RE.match(spec)
    if sm:
        cls, arg, opts = sm["cls"], sm["arg"], sm["opts"] or ""
    else:
        sm = _SPEC_PAREN_RE.match(spec)
        if sm:
            cls, arg = sm["cls"], sm["arg"]
    return (m["kind"].lower(), cls, arg, opts, m["anchor"] or "", m["sym"])


def _body_span(src: str, lo: int, hi: int) -> tuple[int, int]:
    """The MLIR text inside ``src[lo:hi]`` (the region between two headers).

    Starts at the first line beginning with ``#`` or ``module``; ends after the
    module's closing ``}`` line and the alias / blank lines right after it,
    with trailing blank lines removed.  Returns ``(start, end)``; ``start ==
    end`` when the region holds no MLIR.
    """
    m = _BODY_START_RE.search(src, lo, hi)
    if m is None:
        return lo, lo
    start = m.start()
    mod = _MODULE_LINE_RE.search(src, start, hi)
    if mod is None:
        # Only alias lines (truncated log): keep the alias block.
        end = _ALIAS_TAIL_RE.match(src, start, hi).end()
    else:
        # Nested ops are indented, so the first "}" in column 0 after the
        # module line closes the module.
        close = src.find("\n}", mod.start(), hi)
        if close < 0:  # truncated module: keep what there is
            end = hi
        else:
            eol = src.find("\n", close + 1, hi)
            end = hi if eol < 0 else eol + 1
            end = _ALIAS_TAIL_RE.match(src, end, hi).end()
    # Drop trailing blank lines, keep one final newline.
    while end > start and src[end - 1] in " \t\n":
        end -= 1
    if end > start and end < len(src) and src[end] == "\n":
        end += 1
    return start, end


def _header_offsets(src: str) -> list[int]:
    """Offsets of all lines that start with the dump marker."""
    out: list[int] = []
    pos = src.find(_MARKER)
    while pos >= 0:
        if pos == 0 or src[pos - 1] == "\n":
            out.append(pos)
        pos = src.find(_MARKER, pos + len(_MARKER))
    return out


def split_sections(text: str) -> list[DumpSection]:
    """Split an ``MLIR_ENABLE_DUMP`` log into its IR sections, in log order.

    Text before the first header (e.g. Python warnings) and non-MLIR text
    around section bodies (e.g. LLVM IR after the last section) is ignored.
    Lines starting with ``// -----// `` that are not IR dump headers are
    treated as section boundaries but produce no section.
    Returns an empty list when ``text`` contains no header.
    """
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    offsets = _header_offsets(text)
    n = len(text)
    sections: list[DumpSection] = []
    line = 1  # 1-based line number at offset `counted`
    counted = 0

    def line_at(off: int) -> int:
        nonlocal line, counted
        line += text.count("\n", counted, off)
        counted = off
        return line

    for i, hpos in enumerate(offsets):
        eol = text.find("\n", hpos)
        hend = n if eol < 0 else eol
        parsed = _parse_header(text[hpos + len(_MARKER):hend])
        if parsed is None:
            continue
        kind, cls, arg, opts, anchor, sym = parsed
        body_lo = n if eol < 0 else eol + 1
        body_hi = offsets[i + 1] if i + 1 < len(offsets) else n
        start, end = _body_span(text, body_lo, body_hi)
        header_line = line_at(hpos)
        body_line = line_at(start) if end > start else header_line + 1
        sections.append(
            DumpSection(
                index=len(sections),
                kind=kind,
                pass_class=cls,
                pass_arg=arg,
                options=opts,
                anchor_op=anchor,
                anchor_sym=sym,
                header_line=header_line,
                body_first_line=body_line,
                _source=text,
                _start=start,
                _end=end,
                _hstart=hpos,
            )
        )
    return sections


# ---------------------------------------------------------------------- select


def section_summary(sections: Sequence[DumpSection]) -> list[tuple[int, str, str]]:
    """``(index, pass_class, pass_arg)`` for every section, for listings."""
    return [(s.index, s.pass_class, s.pass_arg) for s in sections]


def _available(sections: Sequence[DumpSection]) -> str:
    """Pass names with occurrence counts, in order of first appearance."""
    counts: Counter[tuple[str, str]] = Counter()
    order: list[tuple[str, str]] = []
    for s in sections:
        key = (s.pass_class, s.pass_arg)
        if key not in counts:
            order.append(key)
        counts[key] += 1
    parts = []
    for cls, arg in order:
        name = f"{cls} ({arg})" if arg else cls
        parts.append(f"{name} x{counts[(cls, arg)]}")
    return ", ".join(parts)


def _strip_pass(name: str) -> str:
    return name[:-4] if name.endswith("Pass") and len(name) > 4 else name


def _match_name(sections: Sequence[DumpSection], name: str) -> list[DumpSection]:
    """Sections whose pass is ``name`` (case-sensitive).

    Tried in order, the first tier with a hit wins:
    1. ``name`` equals ``pass_class`` or ``pass_arg``;
    2. ``name`` equals ``pass_class`` without a trailing ``Pass``
       (``Canonicalizer`` finds 3.9's ``CanonicalizerPass``);
    3. ``pass_class`` (with or without ``Pass``) ends with ``name``
       (``RemoveLayoutConversions`` finds ``TritonGPURemoveLayoutConversions``),
       only if exactly one pass class matches.
    """
    hits = [s for s in sections if name == s.pass_class or name == s.pass_arg]
    if hits:
        return hits
    hits = [s for s in sections if name == _strip_pass(s.pass_class)]
    if hits:
        return hits
    hits = [
        s
        for s in sections
        if s.pass_class.endswith(name) or _strip_pass(s.pass_class).endswith(name)
    ]
    classes = sorted({s.pass_class for s in hits})
    if len(classes) > 1:
        raise DumpSelectError(
            f"pass name {name!r} is ambiguous: it matches {', '.join(classes)}; "
            f"use the full pass class or argument"
        )
    return hits


def select_section(
    sections: Sequence[DumpSection], spec: str, after: bool = False
) -> DumpSection:
    """Pick one section by index or pass name.

    Args:
        sections: the result of :func:`split_sections`.
        spec: either an integer ``N`` (0-based section index; negative counts
            from the end) or ``PassName[#k]``: the ``k``-th (0-based, default 0;
            negative counts from the last) section whose ``pass_class`` or
            ``pass_arg`` is ``PassName`` (case-sensitive; see
            :func:`_match_name` for the fallbacks when nothing matches exactly).
        after: return the IR *after* the chosen pass ran instead, i.e. the
            first ``"before"`` section that follows it (normally ``index + 1``;
            pass-internal dumps in between are skipped).

    Raises:
        DumpSelectError: bad index, unknown name (the message lists the
            available passes with their counts), ``#k`` out of range, or
            ``after=True`` on the last pass of the log.
    """
    if not sections:
        raise DumpSelectError("the log contains no IR dump sections")
    spec_s = str(spec).strip()
    n = len(sections)
    if re.fullmatch(r"[+-]?\d+", spec_s):
        idx = int(spec_s)
        if not -n <= idx < n:
            raise DumpSelectError(
                f"section index {idx} out of range: the log has {n} sections (0..{n - 1})"
            )
        chosen = sections[idx]
    else:
        m = re.fullmatch(r"(?P<name>.+?)(?:#(?P<k>[+-]?\d+))?", spec_s)
        if not m or not m["name"].strip():
            raise DumpSelectError(
                f"bad section spec {spec!r}: expected N or PassName[#k]; "
                f"available: {_available(sections)}"
            )
        name, k = m["name"].strip(), int(m["k"] or 0)
        hits = _match_name(sections, name)
        if not hits:
            raise DumpSelectError(
                f"no pass named {name!r} in the log; available: {_available(sections)}"
            )
        if not -len(hits) <= k < len(hits):
            idxs = ", ".join(str(s.index) for s in hits)
            raise DumpSelectError(
                f"pass {name!r} occurs {len(hits)} time(s) (sections {idxs}); "
                f"#{k} is out of range (use #0..#{len(hits) - 1})"
            )
        chosen = hits[k]
    if not after:
        return chosen
    pos = next(i for i, s in enumerate(sections) if s is chosen)
    for s in sections[pos + 1:]:
        if s.kind == "before":
            return s
    raise DumpSelectError(
        f"section {chosen.index} ({chosen.label}) is the last pass in the log: "
        f"the IR after it was not dumped"
    )


def holds_tritongpu_ir(section: DumpSection) -> bool:
    """TritonGPU IR (either spelling), not yet lowered to the LLVM dialect."""
    text = section.text
    return "llvm.func" not in text and ("ttg." in text or "triton_gpu." in text)


def default_section(sections: Sequence[DumpSection]) -> DumpSection:
    """The section irkit-opt and irkit-report read when no --dump-section is given: the last one
    holding TritonGPU IR, i.e. the kernel's final TTGIR (the sections after it are LLVM IR)."""
    for section in reversed(sections):
        if holds_tritongpu_ir(section):
            return section
    raise DumpSelectError(
        f"no section of the log holds TritonGPU IR; pick one with --dump-section=N|PASS "
        f"(available: {_available(sections)})"
    )


# ----------------------------------------------------------------------- cache


def resolve_cache_input(path: StrPath) -> Path:
    """Turn a Triton cache / kernel-dump folder into its ``.ttgir`` file.

    A directory (a cache entry ``<hash>/`` holding ``<kernel>.ttgir``, or a
    ``TRITON_CACHE_DIR`` / ``TRITON_DUMP_DIR`` holding ``<hash>/`` folders) is
    searched for ``*.ttgir`` files at most two levels deep.  Exactly one must
    be found.  Anything that is not a directory is returned unchanged (as a
    :class:`~pathlib.Path`).

    Raises:
        DumpSelectError: no ``.ttgir`` within two levels, or several (the
            message lists them).
    """
    p = Path(path)
    if not p.is_dir():
        return p
    found = sorted(
        f
        for pattern in ("*.ttgir", "*/*.ttgir")
        for f in p.glob(pattern)
        if f.is_file()
    )
    if len(found) == 1:
        return found[0]
    if not found:
        raise DumpSelectError(
            f"no .ttgir file in {p} or its subfolders (searched 2 levels deep); "
            f"pass a Triton cache entry (<hash>/), TRITON_CACHE_DIR, TRITON_DUMP_DIR or a .ttgir file"
        )
    listing = "\n  ".join(str(f.relative_to(p)) for f in found)
    raise DumpSelectError(
        f"{len(found)} .ttgir files under {p}; pass one of them (or its folder):\n  {listing}"
    )
