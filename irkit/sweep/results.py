"""Results files: rows written as they come, read back for ``--resume``, sorted once the sweep ends.

JSONL and CSV need nothing beyond Python: each row is appended with one write and flushed, so a
killed sweep (even SIGKILL) leaves every finished row on disk.  Parquet cannot be appended to, so
rows go to a side journal ``<results>.journal.jsonl`` as they come (same guarantee), and the journal
is compacted into the Parquet file when the sweep ends; a resumed sweep reads both.

When a sweep completes, the file is rewritten sorted by ``key`` (atomically: a temporary file
renamed over it), so an interrupted-and-resumed sweep gives the same file as an uninterrupted one.
"""

from __future__ import annotations

import csv
import io
import json
import os
import tempfile
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
    journal = journal_path(path)
    if fmt == "parquet" and journal.exists():
        rows.extend(_read_jsonl(journal))
    by_key = {r["key"]: r for r in rows}  # a row written twice (journal and file): the last one
    return list(by_key.values())


def journal_path(path: str) -> Path:
    p = Path(path)
    return p.with_name(p.name + ".journal.jsonl")


# -- writing ---------------------------------------------------------------------------------------------


def _replace_atomically(target: Path, write) -> None:
    directory = target.parent if str(target.parent) else Path(".")
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", dir=directory)
    os.close(fd)
    try:
        write(Path(tmp))
        os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, target)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_rows(path: str, rows: list[dict]) -> None:
    """The whole results file, atomically (Parquet: one file, journal removed)."""
    fmt = format_of(path)
    target = Path(path)

    def write(tmp: Path) -> None:
        if fmt == "parquet":
            import pyarrow as pa
            import pyarrow.parquet as pq

            table = pa.Table.from_pylist([normalise(r) for r in rows], schema=arrow_schema())
            pq.write_table(table, tmp)
            return
        with open(tmp, "w", encoding="utf-8", newline="") as f:
            if fmt == "csv":
                f.write(_csv_header())
                f.writelines(_csv_line(r) for r in rows)
            else:
                f.writelines(_jsonl_line(r) for r in rows)

    _replace_atomically(target, write)
    if fmt == "parquet":
        journal_path(path).unlink(missing_ok=True)


class RowSink:
    """Appends rows as they come: to the results file (JSONL, CSV) or to Parquet's journal.

    ``start`` writes the rows already kept (a resumed sweep's), so the file on disk always holds
    every finished row; each later row is one write, flushed.
    """

    def __init__(self, path: str):
        self.path = path
        self.format = format_of(path)
        directory = Path(path).parent if str(Path(path).parent) else Path(".")
        if not directory.is_dir():
            raise CliError(f"cannot write '{path}': directory '{directory}' does not exist")
        self._file = None

    def start(self, kept: list[dict]) -> None:
        if self.format == "parquet":
            # the rows kept stay where they are (the Parquet file, the journal); new ones go to the journal
            journal = journal_path(self.path)
            if not kept:
                Path(self.path).unlink(missing_ok=True)
                journal.unlink(missing_ok=True)
            self._file = open(journal, "a", encoding="utf-8")  # noqa: SIM115 (kept open for the sweep)
            return
        write_rows(self.path, kept)  # drops a row a kill cut short
        self._file = open(self.path, "a", encoding="utf-8", newline="")  # noqa: SIM115

    def add(self, row: dict) -> None:
        line = _csv_line(row) if self.format == "csv" else _jsonl_line(row)
        self._file.write(line)
        self._file.flush()

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None
