"""Results files: rows written as they come, read back for ``--resume``, sorted once the sweep ends.

JSONL and CSV need nothing beyond Python: each row is appended with one write and flushed, so a
killed sweep (even SIGKILL) leaves every finished row on disk.  Parquet cannot be appended to, so
rows go to a side journal ``<results>.journal.jsonl`` as they come (same guarantee), and the journal
is compacted into the Parquet file when the sweep ends; a resumed sweep reads both.

When a sweep completes, the file is rewritten sorted by ``key`` by the project's one output rule
(``irkit.outputs``: atomic replacement of a regular file, a symbolic link followed and kept), so an
interrupted-and-resumed sweep gives the same file as an uninterrupted one.

One writer per results file: a sweep holds an advisory lock (``flock``) on ``<results>.lock`` beside
the file for as long as it runs; a second sweep onto the same file refuses at once (exit 1) instead of
interleaving rows that the first one's final rewrite would then drop.  The lock file is removed when
the sweep ends.
"""

from __future__ import annotations

import csv
import io
import json
import os
from pathlib import Path

from irkit.cli.entry import CliError
from irkit.sweep.schema import NAMES, TYPES, arrow_schema, normalise

FORMATS = {".parquet": "parquet", ".csv": "csv", ".jsonl": "jsonl"}


def format_of(path: str) -> str:
    suffix = Path(path).suffix.lower()
    if suffix not in FORMATS:
        raise CliError(f"cannot tell the results format of '{path}': name it .parquet, .csv or .jsonl")
    fmt = FORMATS[suffix]
    if fmt == "parquet":
        try:
            import pyarrow  # noqa: F401
        except ImportError:
            raise CliError("writing .parquet needs pyarrow: pip install 'irkit[parquet]' (or write .csv/.jsonl)") from None
    return fmt


def _csv_line(row: dict) -> str:
    buf = io.StringIO()
    row = normalise(row)
    values = []
    for name in NAMES:
        v = row.get(name)
        if TYPES[name] == "list":
            v = json.dumps(v or [], ensure_ascii=False)
        elif v is None:
            v = ""
        values.append(v)
    csv.writer(buf, lineterminator="\n").writerow(values)
    return buf.getvalue()


def _csv_header() -> str:
    return ",".join(NAMES) + "\n"


def _jsonl_line(row: dict) -> str:
    return json.dumps(normalise(row), ensure_ascii=False) + "\n"


# -- reading ---------------------------------------------------------------------------------------------


def _read_jsonl(path: Path) -> list[dict]:
    rows = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if not line.endswith("\n"):
                break  # a row cut short by a kill: it was in flight, so it is run again
            try:
                rows.append(normalise(json.loads(line)))
            except ValueError:
                continue
    return rows


def _read_csv(path: Path) -> list[dict]:
    rows = []
    with open(path, encoding="utf-8", newline="") as f:
        text = f.read()
    if not text.endswith("\n"):
        text = text[: text.rfind("\n") + 1]
    reader = csv.DictReader(io.StringIO(text))
    if reader.fieldnames is not None and tuple(reader.fieldnames) != NAMES:
        raise CliError(f"'{path}' is not an irkit-sweep results file of this version (its columns differ)")
    for raw in reader:
        if None in raw or any(v is None for v in raw.values()):
            continue  # a short row
        raw["remarks"] = json.loads(raw["remarks"]) if raw.get("remarks") else []
        rows.append(normalise(raw))
    return rows


def _read_parquet(path: Path) -> list[dict]:
    import pyarrow.parquet as pq

    table = pq.read_table(path)
    if tuple(table.column_names) != NAMES:
        raise CliError(f"'{path}' is not an irkit-sweep results file of this version (its columns differ)")
    return [normalise(r) for r in table.to_pylist()]


def read_rows(path: str) -> list[dict]:
    """Every complete row of a results file (and, for Parquet, of its journal)."""
    p = Path(path)
    fmt = format_of(path)
    rows: list[dict] = []
    if p.exists():
        try:
            rows = {"jsonl": _read_jsonl, "csv": _read_csv, "parquet": _read_parquet}[fmt](p)
        except CliError:
            raise
        except Exception as e:  # noqa: BLE001 (pyarrow's and csv's errors alike: one line)
            raise CliError(f"cannot read results file '{path}': {e}") from None
    journal = journal_path(target_of(path))
    if fmt == "parquet" and journal.exists():
        rows.extend(_read_jsonl(journal))
    by_key = {r["key"]: r for r in rows}  # a row written twice (journal and file): the last one
    return list(by_key.values())


def journal_path(path: str) -> Path:
    p = Path(path)
    return p.with_name(p.name + ".journal.jsonl")


# -- writing ---------------------------------------------------------------------------------------------


def target_of(path: str) -> str:
    """Where the rows of `path` go: a symbolic link's target (the link stays, as irkit.outputs has it)."""
    return os.path.realpath(path) if os.path.islink(path) else path


def write_rows(path: str, rows: list[dict]) -> None:
    """The whole results file, by irkit.outputs' rule (Parquet: one file, journal removed)."""
    from irkit.outputs import OutputError, write_output

    fmt = format_of(path)
    if fmt == "parquet":
        import pyarrow as pa
        import pyarrow.parquet as pq

        buffer = io.BytesIO()
        pq.write_table(pa.Table.from_pylist([normalise(r) for r in rows], schema=arrow_schema()), buffer)
        payload = buffer.getvalue()
    elif fmt == "csv":
        payload = (_csv_header() + "".join(_csv_line(r) for r in rows)).encode("utf-8")
    else:
        payload = "".join(_jsonl_line(r) for r in rows).encode("utf-8")
    try:
        write_output(path, payload)
    except OutputError as e:
        raise CliError(str(e)) from None
    if fmt == "parquet":
        journal_path(target_of(path)).unlink(missing_ok=True)


class WriterLock:
    """The advisory lock that keeps a second sweep off a results file (see the module docstring)."""

    def __init__(self, path: str):
        self.lock_path = target_of(path) + ".lock"
        self.fd: int | None = None

    def acquire(self) -> None:
        import fcntl

        for _ in range(100):
            try:
                fd = os.open(self.lock_path, os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), 0o644)
            except OSError as e:  # a read-only folder, a full disk: the results could not be written either
                raise CliError(f"cannot write '{self.lock_path[:-5]}': {e.strerror or e}") from None
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                raise CliError(f"'{self.lock_path[:-5]}' is being written by another irkit-sweep (it holds "
                               f"'{self.lock_path}'); wait for it to end, or write another file") from None
            try:  # the lock may belong to a file its last holder has just removed: take the one on disk
                same = os.stat(self.lock_path).st_ino == os.fstat(fd).st_ino
            except FileNotFoundError:
                same = False
            if same:
                self.fd = fd
                return
            os.close(fd)
        raise CliError(f"cannot lock '{self.lock_path}'")

    def release(self) -> None:
        if self.fd is not None:
            try:
                os.unlink(self.lock_path)  # while still held: a waiter re-checks the inode (above)
            except OSError:
                pass
            os.close(self.fd)
            self.fd = None


class RowSink:
    """Appends rows as they come: to the results file (JSONL, CSV) or to Parquet's journal.

    ``start`` writes the rows already kept (a resumed sweep's), so the file on disk always holds
    every finished row; each later row is one write, flushed.
    """

    def __init__(self, path: str):
        self.path = path
        self.format = format_of(path)
        target = target_of(path)
        directory = Path(target).parent if str(Path(target).parent) else Path(".")
        if not directory.is_dir():
            raise CliError(f"cannot write '{path}': directory '{directory}' does not exist")
        if os.path.isdir(target):
            raise CliError(f"cannot write '{path}': it is a directory")
        self._file = None

    def start(self, kept: list[dict]) -> None:
        if self.format == "parquet":
            # the rows kept stay where they are (the Parquet file, the journal); new ones go to the journal
            journal = journal_path(target_of(self.path))
            if not kept:
                Path(target_of(self.path)).unlink(missing_ok=True)
                journal.unlink(missing_ok=True)
            self._file = open(journal, "a", encoding="utf-8")  # noqa: SIM115 (kept open for the sweep)
            return
        write_rows(self.path, kept)  # drops a row a kill cut short
        self._file = open(target_of(self.path), "a", encoding="utf-8", newline="")  # noqa: SIM115

    def add(self, row: dict) -> None:
        line = _csv_line(row) if self.format == "csv" else _jsonl_line(row)
        self._file.write(line)
        self._file.flush()

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None
