"""Which kernels a sweep runs over: files, Triton cache / kernel-dump folders and dump logs, walked.

Discovery only decides *what* to read; the kernel text is read by the worker that analyses it, so
discovering 30,000 kernels costs a directory walk, not 30,000 file reads.  The one exception is an
``MLIR_ENABLE_DUMP`` log: it is split here, because one log can hold several kernels and each
becomes its own task (the last TritonGPU section of each kernel, what ``irkit-report`` reads too).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from irkit.cli.entry import CliError
from irkit.frontend import dumplog
from irkit.sweep.schema import printable

# Files that are IR by their name; everything else found by walking is read only when it may be
# a dump log (by its suffix), so a cache folder's .ptx/.llir/.json/.cubin are never opened.
IR_SUFFIXES = (".ttir", ".ttgir")
LOG_SUFFIXES = (".txt", ".log", ".gz", ".err", ".stderr", ".out")

_FUNC_NAME_RE = re.compile(r'tt\.func\s+(?:public\s+|private\s+|nested\s+)?@("(?:[^"\\]|\\.)*"|[\w$.-]+)')


@dataclass(frozen=True)
class KernelTask:
    """One kernel to analyse: a file, or one section of a dump log (``section`` is its index)."""

    path: str
    section: str = ""

    @property
    def key(self) -> str:
        """What identifies the kernel in a results file (and what ``--resume`` skips by)."""
        key = f"{self.path}#{self.section}" if self.section else self.path
        return printable(key)  # as the results file writes it (a non-UTF-8 name escaped)


def kernel_name(text: str) -> str | None:
    """The first ``tt.func``'s symbol name, unquoted."""
    m = _FUNC_NAME_RE.search(text)
    if m is None:
        return None
    name = m.group(1)
    return name[1:-1] if name.startswith('"') else name


def _looks_like_log(path: Path) -> bool:
    """True when the file's first 64 KB hold an IR dump header (gzip read through)."""
    try:
        if path.suffix == ".gz":
            import gzip

            with gzip.open(path, "rt", encoding="utf-8", errors="replace") as f:
                head = f.read(1 << 16)
        else:
            with open(path, encoding="utf-8", errors="replace") as f:
                head = f.read(1 << 16)
    except (OSError, EOFError):
        return False
    return dumplog.is_dump_log(head)


def log_tasks(path: Path) -> list[KernelTask]:
    """One task per kernel of a dump log: its last TritonGPU section (before the lowering to LLVM).

    A log cut before TritonGPU gives the kernel's last section instead.  Kernels are told apart by
    the first ``tt.func`` name in each section (a program that compiles several kernels logs them
    one after the other).
    """
    try:
        sections = dumplog.split_sections(dumplog.read_text(path))
    except (OSError, EOFError):
        return [KernelTask(str(path))]  # the worker reports why it cannot be read
    last_ttgir: dict[str, int] = {}
    last_any: dict[str, int] = {}
    for s in sections:
        text = s.text
        if not text or "llvm.func" in text:
            continue
        name = kernel_name(text) or ""
        last_any[name] = s.index
        if dumplog.holds_tritongpu_ir(s):
            last_ttgir[name] = s.index
    chosen = {**last_any, **last_ttgir}
    if not chosen:
        return [KernelTask(str(path))]
    return [KernelTask(str(path), str(i)) for i in sorted(chosen.values())]


def _walk(root: Path) -> list[Path]:
    """Every file under ``root`` in a stable order, hidden files and folders left out."""
    out = []
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        out.extend(Path(dirpath) / f for f in sorted(filenames) if not f.startswith("."))
    return out


def _ttgir_beside(path: Path) -> str:
    """The TTGIR of the same kernel beside a TTIR file: ``k.ttir``, ``k.source.ttir`` -> ``k.ttgir``."""
    stem = path.name.removesuffix(".ttir").removesuffix(".source")
    return str(path.with_name(stem + ".ttgir"))


def discover(inputs: list[str], all_stages: bool = False) -> list[KernelTask]:
    """The kernels under ``inputs`` (files and folders, walked recursively), each once, in input order.

    A file named on the command line is a kernel whatever its suffix, unless it is a dump log; a file
    found by walking is a kernel when it ends in ``.ttir``/``.ttgir``, a dump log when it ends in a
    log suffix and has a dump header, and is skipped otherwise.  One row per kernel: a TTIR file with
    the TTGIR of the same kernel beside it (a cache entry, a kernel dump) is left out, unless
    ``all_stages``.
    """
    tasks: list[KernelTask] = []
    seen: set[str] = set()

    def add(new: list[KernelTask]) -> None:
        for t in new:
            if t.key not in seen:
                seen.add(t.key)
                tasks.append(t)

    for arg in inputs:
        p = Path(arg)
        if p.is_dir():
            files = _walk(p)
            present = {str(f) for f in files}
            for f in files:
                name = f.name
                if name.endswith(IR_SUFFIXES):
                    if not all_stages and _ttgir_beside(f) in present:
                        continue  # the kernel's row comes from its TTGIR
                    add([KernelTask(str(f))])
                elif name.endswith(LOG_SUFFIXES) and _looks_like_log(f):
                    add(log_tasks(f))
        elif p.is_file():
            add(log_tasks(p) if _looks_like_log(p) else [KernelTask(str(p))])
        else:
            raise CliError(f"could not open input '{arg}': No such file or directory")
    return tasks
