"""The columns of a sweep's results: one home for their names, types and meaning.

Every format (Parquet, CSV, JSONL) has exactly these columns in this order, so a results file reads
the same in pandas, polars or duckdb whatever it was written as.  ``remarks`` is a list of strings
(a JSON list in CSV, which has no list type).
"""

from __future__ import annotations

# (name, type, meaning); type is one of str, int, bool, float, list
COLUMNS: tuple[tuple[str, str, str], ...] = (
    ("key", "str", "path, plus '#<section>' for a dump-log kernel: what --resume skips by"),
    ("path", "str", "the file the kernel was read from"),
    ("section", "str", "for a dump log: the index of the section read ('' for a file)"),
    ("content_hash", "str", "sha256 of the kernel's text, first 16 hex digits (the same kernel anywhere has the same hash)"),
    ("kernel", "str", "the first tt.func's name"),
    ("stage", "str", "ttgir or ttir"),
    ("triton_version", "str", "from the compiler's metadata; else the allocation rules irkit used (3.1, 3.3, 3.9)"),
    ("target", "str", "ttg.target of the module, else the metadata's target (cuda:80, hip:gfx942, xpu)"),
    ("num_warps", "int", "ttg.num-warps, else the metadata's"),
    ("pipeline", "str", "the pass pipeline run on every kernel"),
    ("status", "str", "ok, or error (then error_kind and error say why)"),
    ("error_kind", "str", "read, parse, multi-module, verify, pass, pass-crash, verify-after, analysis, timeout, worker-died, internal"),
    ("error", "str", "the first line of the error, as irkit-opt would print it"),
    ("converts_before", "int", "ttg.convert_layout ops before the pipeline"),
    ("converts_after", "int", "ttg.convert_layout ops after it"),
    ("converts_removed", "int", "before - after (negative: the pipeline added conversions)"),
    ("shared_before", "int", "predicted shared memory (bytes) before, irkit's allocation model"),
    ("shared_after", "int", "predicted shared memory after"),
    ("shared_saved", "int", "before - after"),
    ("shared_limit", "int", "the target's shared-memory limit (bytes)"),
    ("fits_before", "bool", "predicted shared memory within the limit, before"),
    ("fits_after", "bool", "the same after"),
    ("verdict_before", "str", "Triton's own wording: 'out of resource: shared memory, ...' or 'fits: ...'"),
    ("verdict_after", "str", "the same after"),
    ("unlocked", "bool", "out of resources before, fits after"),
    ("changed", "bool", "the module the pipeline printed differs from the input module printed unchanged"),
    ("recorded_shared", "int", "shared bytes the compiler itself recorded (cache JSON, ttg.shared)"),
    ("remarks", "list", "what the passes reported (remarks, warnings), 'line:col: message'"),
    ("compile_triton", "str", "--compile: the Triton version that compiled the kernel"),
    ("compile_shared_before", "int", "--compile: metadata.shared of the real compile, before"),
    ("compile_shared_after", "int", "--compile: the same after the pipeline"),
    ("compile_registers_before", "int", "--compile: registers per thread (ptxas; VGPRs on AMD), before"),
    ("compile_registers_after", "int", "--compile: the same after"),
    ("compile_spills_before", "int", "--compile: spill store bytes (ptxas; VGPR spills on AMD), before"),
    ("compile_spills_after", "int", "--compile: the same after"),
    ("compile_agrees", "bool", "--compile: the compiler's shared bytes equal irkit's prediction, before and after"),
    ("compile_error", "str", "--compile: why the kernel (or its rewrite) was not compiled"),
    ("reference", "str", "--against: the C++ pass (or command) the pipeline's result is compared with"),
    ("reference_same", "bool", "--against: the same ops, operands, attributes and types as the reference's result"),
    ("reference_difference", "str", "--against: layout, operands-or-attributes, op, extra-op, missing-op, *-error"),
    ("reference_first", "str", "--against: the first line where they part, prototype and reference"),
    ("reference_diff", "str", "--against: the unified diff file (prototype first)"),
    ("seconds", "float", "time spent on this kernel (the only column that differs between runs)"),
)

NAMES: tuple[str, ...] = tuple(c[0] for c in COLUMNS)
TYPES: dict[str, str] = {c[0]: c[1] for c in COLUMNS}

ERROR_KINDS = ("read", "parse", "multi-module", "verify", "pass", "pass-crash", "verify-after", "analysis", "timeout", "worker-died",
               "internal")


def empty_row() -> dict:
    return {name: ([] if kind == "list" else None) for name, kind, _ in COLUMNS}


def arrow_schema():
    import pyarrow as pa

    kinds = {"str": pa.string(), "int": pa.int64(), "bool": pa.bool_(), "float": pa.float64(), "list": pa.list_(pa.string())}
    return pa.schema([(name, kinds[kind]) for name, kind, _ in COLUMNS])


def normalise(row: dict) -> dict:
    """A row with exactly the schema's columns, each of its type (what any reader gives back)."""
    out = {}
    for name, kind, _ in COLUMNS:
        v = row.get(name)
        if kind == "list":
            v = [printable(str(x)) for x in v] if v else []
        elif v is None or v == "":  # CSV cannot tell a missing value from an empty text
            v = "" if name == "section" else None
        elif kind == "int":
            v = int(v)
        elif kind == "float":
            v = float(v)
        elif kind == "bool":
            v = v if isinstance(v, bool) else str(v).lower() in ("true", "1")
        else:
            v = printable(str(v))
        out[name] = v
    return out


def printable(text: str) -> str:
    """`text` as UTF-8 can hold it: a file name's undecodable bytes (Python keeps them as lone surrogates)
    written `\\xff`, so one odd name never stops a results file from being written."""
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        return text.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
