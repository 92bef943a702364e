"""Tests for irkit.frontend.dumplog on real Triton dump logs (tests/data/corpus/dumps: three MLIR_ENABLE_DUMP
logs, 3.1 and 3.9 header styles, and the TRITON_KERNEL_DUMP / TRITON_CACHE_DIR folders of four compilations).
"""

from __future__ import annotations

import gzip
import json
import shutil
from pathlib import Path

import pytest
from frontend_corpus import CORPUS

from irkit.frontend.dumplog import (
    DumpSection,
    DumpSelectError,
    is_dump_log,
    read_text,
    resolve_cache_input,
    section_summary,
    select_section,
    split_sections,
)

DUMPS = CORPUS / "dumps"
KDC = DUMPS / "kernel_dump_and_cache"


def _dump_dirs() -> list[Path]:
    return sorted(p.parent for p in DUMPS.glob("*/*/*/sections.json"))


DUMP_DIRS = _dump_dirs()
DUMP_IDS = [str(p.relative_to(DUMPS)) for p in DUMP_DIRS]

_split_cache: dict[Path, list[DumpSection]] = {}


def _sections(path: Path) -> list[DumpSection]:
    if path not in _split_cache:
        _split_cache[path] = split_sections(read_text(path))
    return _split_cache[path]


def _reference(d: Path) -> list[dict]:
    return json.loads((d / "sections.json").read_text())["sections"]


def _trimmed(d: Path) -> Path:
    """mlir_dump.ttgir.txt, gzipped where large (both forms are read the same way)."""
    (path,) = [p for p in (d / "mlir_dump.ttgir.txt", d / "mlir_dump.ttgir.txt.gz") if p.is_file()]
    return path


def _logs(d: Path) -> list[Path]:
    return [d / "mlir_dump.full.txt.gz", _trimmed(d)]


def _find_dump(version: str, kernel_prefix: str) -> Path:
    for d in DUMP_DIRS:
        if d.parts[-3] == version and d.name.startswith(kernel_prefix):
            return d
    raise AssertionError(f"tests/data/corpus has no {version} {kernel_prefix} dump")


@pytest.fixture(params=DUMP_DIRS, ids=DUMP_IDS)
def dump_dir(request) -> Path:
    return request.param


# ------------------------------------------------------------- matches corpus


def test_corpus_has_dumps():
    assert DUMP_DIRS, "no dumps/<ver>/<target>/<id>/sections.json in the corpus"


def test_full_log_matches_sections_json(dump_dir: Path):
    ref = _reference(dump_dir)
    secs = _sections(dump_dir / "mlir_dump.full.txt.gz")
    assert len(secs) == len(ref)
    for s, r in zip(secs, ref):
        assert s.index == r["index"]
        assert s.kind == {"Before": "before", "After": "after", "InternalAfter": "after"}[r["kind"]]
        assert s.pass_class == r["pass"]
        assert s.pass_arg == r["argument"]
        assert s.options == (r["options"] or "")
        assert s.anchor_op == (r["anchor_op"] or "")
        assert (None if s.anchor_sym is None else "@" + s.anchor_sym) == r["symbol"]
        assert s.header_line == r["first_line"]
        assert s.body_first_line > s.header_line
        assert s.is_internal == (r["kind"] == "InternalAfter")
        assert s.header_text == r["header"]
    assert section_summary(secs) == [(r["index"], r["pass"], r["argument"]) for r in ref]


def test_trimmed_log_is_prefix_of_full(dump_dir: Path):
    """mlir_dump.ttgir.txt is the same log cut before the LLVM lowering."""
    full = _sections(dump_dir / "mlir_dump.full.txt.gz")
    cut = _sections(_trimmed(dump_dir))
    assert 0 < len(cut) < len(full)
    assert cut == full[: len(cut)]  # metadata and text
    ref = _reference(dump_dir)
    assert [s.pass_class for s in cut] == [r["pass"] for r in ref[: len(cut)]]


def test_gz_and_plain_give_identical_sections(dump_dir: Path, tmp_path: Path):
    gz = dump_dir / "mlir_dump.full.txt.gz"
    plain = tmp_path / "mlir_dump.full.txt"
    plain.write_bytes(gzip.decompress(gz.read_bytes()))
    a, b = _sections(gz), split_sections(read_text(plain))
    assert a == b
    assert [s.text for s in a] == [s.text for s in b]


# ------------------------------------------------------------- section bodies


def test_section_text_is_clean_mlir(dump_dir: Path):
    for log in _logs(dump_dir):
        text = read_text(log)
        lines = text.split("\n")
        secs = _sections(log)
        for s in secs:
            t = s.text
            assert t.startswith(("#", "module")), (log.name, s.index, t[:80])
            assert "module" in t
            assert "IR Dump" not in t
            assert "// -----//" not in t
            assert "; ModuleID" not in t and "\ndefine " not in t and "target datalayout" not in t
            assert "UserWarning" not in t
            assert t.endswith("\n") and not t.endswith("\n\n")
            # The module is closed and only alias lines follow it.
            body_lines = t.rstrip("\n").split("\n")
            last_close = max(i for i, ln in enumerate(body_lines) if ln.startswith("}"))
            assert all(ln == "" or ln.startswith("#") for ln in body_lines[last_close + 1:])
            # body_first_line points at the first line of the text in the log.
            assert lines[s.body_first_line - 1] == body_lines[0]
            assert lines[s.header_line - 1] == s.header_text


def test_func_anchored_sections_print_module_scope():
    d = _find_dump("3.1.0", "matmul_addmm_bp")
    secs = _sections(d / "mlir_dump.full.txt.gz")
    func_secs = [s for s in secs if s.anchor_op == "tt.func"]
    assert func_secs
    for s in func_secs:
        assert s.anchor_sym is not None and not s.anchor_sym.startswith("@")
        assert "\nmodule" in s.text or s.text.startswith("module")
        # the header prints the bare name; the IR quotes names like "zeros_(...)"
        assert f"@{s.anchor_sym}(" in s.text or f'@"{s.anchor_sym}"(' in s.text


def test_noise_before_first_header_is_ignored():
    d = _find_dump("3.9.0", "matmul_addmm")
    text = read_text(d / "mlir_dump.full.txt.gz")
    assert not text.startswith("// -----//")  # 3.9 prints a UserWarning first
    secs = _sections(d / "mlir_dump.full.txt.gz")
    assert secs[0].pass_class == "InlinerPass"
    assert secs[0].options.startswith("default-pipeline=canonicalize")


# -------------------------------------------------------------------- select


def test_select_coalesce_and_after(dump_dir: Path):
    secs = _sections(dump_dir / "mlir_dump.full.txt.gz")
    assert any(s.pass_class == "TritonGPUCoalesce" for s in secs), "every shipped log runs coalesce"
    s = select_section(secs, "TritonGPUCoalesce")
    assert s.pass_class == "TritonGPUCoalesce" and s.pass_arg == "tritongpu-coalesce"
    assert select_section(secs, "tritongpu-coalesce") is s
    assert select_section(secs, "TritonGPUCoalesce#0") is s
    assert select_section(secs, str(s.index)) is s
    nxt = select_section(secs, "TritonGPUCoalesce", after=True)
    assert nxt.index == s.index + 1
    assert nxt is secs[s.index + 1]
    assert nxt.kind == "before"
    assert "ttg" in nxt.text or "triton_gpu" in nxt.text


def test_select_repeated_pass(dump_dir: Path):
    secs = _sections(dump_dir / "mlir_dump.full.txt.gz")
    rlc = [s for s in secs if s.pass_class == "TritonGPURemoveLayoutConversions"]
    assert len(rlc) >= 2, "every shipped log runs RemoveLayoutConversions more than once"
    for k, s in enumerate(rlc):
        assert select_section(secs, f"TritonGPURemoveLayoutConversions#{k}") is s
        assert select_section(secs, f"tritongpu-remove-layout-conversions#{k}") is s
        # suffix fallback
        assert select_section(secs, f"RemoveLayoutConversions#{k}") is s
    assert select_section(secs, "TritonGPURemoveLayoutConversions#-1") is rlc[-1]
    with pytest.raises(DumpSelectError, match=rf"occurs {len(rlc)} time"):
        select_section(secs, f"TritonGPURemoveLayoutConversions#{len(rlc)}")


def test_select_after_skips_pipeliner_internal_dumps():
    d = _find_dump("3.9.0", "matmul_addmm")
    secs = _sections(d / "mlir_dump.full.txt.gz")
    pipe = select_section(secs, "TritonGPUPipeline")
    internal = [s for s in secs if s.is_internal]
    assert [s.pass_arg for s in internal] == ["LowerLoops", "ExpandLoops"]
    assert all(s.kind == "after" and s.pass_class == "SoftwarePipeliner" for s in internal)
    assert secs[pipe.index + 1] is internal[0]
    after = select_section(secs, "TritonGPUPipeline", after=True)
    assert after.kind == "before" and after.index == pipe.index + 3
    assert select_section(secs, "SoftwarePipeliner#1") is internal[1]
    assert select_section(secs, "ExpandLoops") is internal[1]
    # 3.9 class names end in "Pass": the bare name works too.
    assert select_section(secs, "Canonicalizer").pass_class == "CanonicalizerPass"


def test_select_errors(dump_dir: Path):
    secs = _sections(dump_dir / "mlir_dump.full.txt.gz")
    n = len(secs)
    assert select_section(secs, "-1") is secs[-1]
    for bad in (str(n), str(-n - 1), "100000"):
        with pytest.raises(DumpSelectError, match="out of range"):
            select_section(secs, bad)
    with pytest.raises(DumpSelectError) as ei:
        select_section(secs, "NoSuchPass")
    msg = str(ei.value)
    assert "NoSuchPass" in msg
    # every available pass is listed, with its count
    for cls in {s.pass_class for s in secs}:
        assert cls in msg
    canon = [s for s in secs if s.pass_arg == "canonicalize"]
    assert f"{canon[0].pass_class} (canonicalize) x{len(canon)}" in msg
    # the IR after the last pass is not in the log
    with pytest.raises(DumpSelectError, match="last"):
        select_section(secs, str(n - 1), after=True)
    with pytest.raises(DumpSelectError):
        select_section(secs, f"{secs[-1].pass_class}#-1", after=True)
    with pytest.raises(DumpSelectError):
        select_section([], "0")
    assert issubclass(DumpSelectError, ValueError)


# ------------------------------------------------------------------- sniffing


def test_is_dump_log(dump_dir: Path):
    for log in _logs(dump_dir):
        assert is_dump_log(read_text(log)[:65536])
    ttgir = next(CORPUS.glob("ir/*/*/*.ttgir"), None)
    if ttgir is not None:
        assert not is_dump_log(ttgir.read_text())
    assert not is_dump_log("module {\n}\n")
    assert not is_dump_log("x" * 70000 + "\n// -----// IR Dump Before CSE (cse) ('builtin.module' operation) //----- //\n")


# ------------------------------------------------------- synthetic robustness

LLVM_TAIL = """\
; ModuleID = 'LLVMDialectModule'
source_filename = "LLVMDialectModule"
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"

define ptx_kernel void @k(ptr addrspace(1) %0) local_unnamed_addr !dbg !5 {
  ret void
}

attributes #0 = { "nvvm.reqntid"="128" }
"""

WARNING = """\
/opt/venv/lib/python3.11/site-packages/triton/knobs.py:504: UserWarning: something
  warn_once(SOMETHING)
"""


def test_noise_between_and_after_sections_is_cut():
    d = DUMP_DIRS[0]
    real = _sections(d / "mlir_dump.full.txt.gz")[:3]
    parts = [WARNING]
    for i, s in enumerate(real):
        parts.append(s.header_text + "\n")
        if i == 1:
            parts.append(WARNING)  # noise between header and body
        parts.append(s.text + "\n\n")
        if i == 0:
            parts.append(WARNING + "\n")  # noise after the alias lines
    parts.append(LLVM_TAIL)
    noisy = "".join(parts)
    secs = split_sections(noisy)
    assert [s.text for s in secs] == [s.text for s in real]
    assert [(s.pass_class, s.pass_arg, s.anchor_sym) for s in secs] == [
        (s.pass_class, s.pass_arg, s.anchor_sym) for s in real
    ]
    assert "; ModuleID" not in secs[-1].text
    # CRLF logs split the same way
    assert [s.text for s in split_sections(noisy.replace("\n", "\r\n"))] == [s.text for s in real]


def test_header_forms():
    body = 'module {\n  tt.func @f() {\n    tt.return\n  }\n}\n#loc = loc("x.py":1:0)\n'
    log = (
        "// -----// IR Dump Before TritonGPUCoalesce (tritongpu-coalesce) ('builtin.module' operation) //----- //\n"
        + body
        + "\n\n// -----// IR Dump Before CanonicalizerPass: canonicalize{max-iterations=10 top-down=true} "
        "('tt.func' operation: @zeros_(c256, c256)) //----- //\n"
        + body
        + "\n// -----// SoftwarePipeliner internal IR Dump After: LowerLoops\n"
        + body
        + "// -----// IR Dump After CSE (cse) ('builtin.module' operation) //----- //\n"
        + body
    )
    secs = split_sections(log)
    assert [(s.kind, s.pass_class, s.pass_arg, s.options, s.anchor_op, s.anchor_sym) for s in secs] == [
        ("before", "TritonGPUCoalesce", "tritongpu-coalesce", "", "builtin.module", None),
        ("before", "CanonicalizerPass", "canonicalize", "max-iterations=10 top-down=true", "tt.func", "zeros_(c256, c256)"),
        ("after", "SoftwarePipeliner", "LowerLoops", "", "", None),
        ("after", "CSE", "cse", "", "builtin.module", None),
    ]
    assert all(s.text == body for s in secs)
    assert [s.header_line for s in secs] == [1, 10, 18, 25]
    assert [s.body_first_line for s in secs] == [2, 11, 19, 26]
    assert split_sections("module {\n}\n") == []


# ---------------------------------------------------------------------- I/O


def test_read_text_gz_and_plain(tmp_path: Path):
    content = "// -----// x\r\nmodule {\r\n}\r\n"
    (tmp_path / "a.txt").write_bytes(content.encode())
    (tmp_path / "a.txt.gz").write_bytes(gzip.compress(content.encode()))
    (tmp_path / "b.log").write_bytes(gzip.compress(content.encode()))  # gzip without suffix
    expected = content.replace("\r\n", "\n")
    for name in ("a.txt", "a.txt.gz", "b.log"):
        assert read_text(tmp_path / name) == expected
        assert read_text(str(tmp_path / name)) == expected


# ---------------------------------------------------------------- cache dirs


def _kdc_variants() -> list[Path]:
    if not KDC.is_dir():
        return []
    return sorted(p.parent for p in KDC.glob("*/*/*/listing.json"))


def test_resolve_cache_dirs():
    variants = _kdc_variants()
    assert variants, "tests/data/corpus has no kernel_dump_and_cache folders"
    checked = 0
    for v in variants:
        for sub in ("TRITON_CACHE_DIR", "TRITON_DUMP_DIR"):
            top = v / sub
            hashes = [h for h in top.iterdir() if h.is_dir()] if top.is_dir() else []
            for h in hashes:
                ttgirs = list(h.glob("*.ttgir"))
                if len(ttgirs) != 1:
                    continue
                # the <hash>/ entry itself (depth 1)
                assert resolve_cache_input(h) == ttgirs[0]
                assert resolve_cache_input(str(h)) == ttgirs[0]
                # the cache / dump root (depth 2)
                if len(hashes) == 1:
                    assert resolve_cache_input(top) == ttgirs[0]
                # a file is returned unchanged
                assert resolve_cache_input(ttgirs[0]) == ttgirs[0]
                assert "tt.func" in ttgirs[0].read_text()
                checked += 1
        # the variant folder holds the .ttgir files 3 levels down: not searched
        with pytest.raises(DumpSelectError, match="no .ttgir"):
            resolve_cache_input(v)
    assert checked > 0
    other = KDC / "index.json"
    assert resolve_cache_input(other) == other


def test_resolve_ambiguous_dir(tmp_path: Path):
    entries = [
        h
        for v in _kdc_variants()
        for h in (v / "TRITON_CACHE_DIR").glob("*")
        if h.is_dir() and any(h.glob("*.ttgir"))
    ]
    assert len(entries) >= 2, "tests/data/corpus has fewer than two cache entries"
    for h in entries[:2]:
        shutil.copytree(h, tmp_path / h.name)
    with pytest.raises(DumpSelectError) as ei:
        resolve_cache_input(tmp_path)
    msg = str(ei.value)
    assert "2 .ttgir files" in msg
    for h in entries[:2]:
        assert h.name in msg
    # depth 1 also counts, and several files in one entry are ambiguous too
    one = tmp_path / entries[0].name
    shutil.copy(next(one.glob("*.ttgir")), one / "copy.ttgir")
    with pytest.raises(DumpSelectError, match="copy.ttgir"):
        resolve_cache_input(one)


def test_resolve_empty_dir(tmp_path: Path):
    with pytest.raises(DumpSelectError, match="no .ttgir"):
        resolve_cache_input(tmp_path)
    deep = tmp_path / "a" / "b" / "c"
    deep.mkdir(parents=True)
    (deep / "k.ttgir").write_text("module {\n}\n")
    with pytest.raises(DumpSelectError, match="no .ttgir"):
        resolve_cache_input(tmp_path)
    assert resolve_cache_input(tmp_path / "a" / "b") == deep / "k.ttgir"
