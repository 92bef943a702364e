"""Mutated corpus files never make irkit-opt fail with a traceback.

More than a thousand mutants of real corpus files (fixed seed): truncations,
deleted/duplicated tokens, swapped types, garbage bytes, huge numbers,
unbalanced brackets, duplicated definitions, unknown ops in custom form, bad
attribute values, bad layouts, bad locations, swapped values and lines.  Each
goes through the same path as the command (`irkit.cli.opt.main`: read, parse,
verify, print), in-process for speed, and a few through the installed
command.  Every run must either succeed, and then print IR that parses back to
itself, or fail with exit status 1 and `file:line:col: error:` diagnostics
that point into the file.  An internal error or a traceback is a bug in the
front end.
"""

from __future__ import annotations

import io
import os
import random
import re
import shutil
import subprocess
import sys
from collections import Counter
from functools import cache
from pathlib import Path

import pytest
from frontend_corpus import CORPUS_IR_FILES, file_id, version_of

from irkit.cli import opt
from irkit.frontend.parser import Parser
from irkit.frontend.printer import print_module

SEED = 20261121
CHUNKS = 24
PER_CHUNK = 50  # 1,200 mutants in-process
PROCESS_MUTANTS = 20
MAX_BASE_SIZE = 20_000  # bytes: small files keep the test fast; the corpus has every op kind in them

DIAGNOSTIC = re.compile(r"^(?P<file>.+?):(?P<line>\d+):(?P<col>\d+): (?P<severity>error|warning|note|remark): ")


@cache
def base_files() -> list[Path]:
    """The smallest file of each (version, kernel, kind: source.ttir/ttir/ttgir) in the corpus."""
    best: dict[tuple[str, str, str], Path] = {}
    for p in CORPUS_IR_FILES:
        size = p.stat().st_size
        if size > MAX_BASE_SIZE:
            continue
        version = version_of(p)
        key = (version, p.name.split("__")[0], p.name.split(".", 1)[1])
        if key not in best or size < best[key].stat().st_size:
            best[key] = p
    return [best[k] for k in sorted(best)]


@cache
def base_text(path: Path) -> str:
    return path.read_text()


# -- mutation operators ----------------------------------------------------------------------------------------

TOKEN = re.compile(
    r'%[\w$.\-]+(?:#\d+)?|\^\w+|#[\w$.\-]+|![\w$.\-]+|@[\w$.\-]+|"(?:[^"\\\n]|\\.)*"'
    r"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|0x[0-9a-fA-F]+|[A-Za-z_][\w$.\-]*|->|::|[^\s\w]"
)
SCALAR_OR_TENSOR_TYPE = re.compile(
    r"\b(?:i1|i8|i16|i32|i64|f16|bf16|f32|f64|index)\b|tensor<[^<>]*(?:<[^<>]*(?:<[^<>]*>[^<>]*)*>[^<>]*)*>|!tt\.ptr<\w+>"
)
TYPES = ["i1", "i8", "i32", "i64", "f16", "bf16", "f32", "index", "!tt.ptr<f32>", "!tt.ptr<f16, 3>", "tensor<4xi32>",
         "tensor<128x64xf16, #blocked>", "none", "f8E5M2", "!ttg.async.token", "tensor<?xf32>", "i0",
         "i99999999999", "tensor<0xf32>", "vector<4xf32>", "!tt.memdesc<4xf32>", "(i32) -> i32", "!undefined"]
NUMBERS = ["99999999999999999999999999", "-99999999999999999999", "0x", "0xFFFFFFFFFFFFFFFFFFFF", "1e400", "-0",
           "00", "1.5", "-1", "4294967296", "2147483648", "0", "1e-400", "0x7FC00000", "9" * 400, "-1.0e+38"]
GARBAGE = ["\x00", "\x01\x02", "\ufffd", "é", "\\", '"', "'", "`", "{", "}", "(", ")", "[", "]", "<", ">", "#", "!",
           "%", "^", "@", ":", "=", ",", "->", "loc(", "{-#", "#-}", "// -----", "\n}\n", "dense<", "\t", "\r",
           "~", "$", "?", "\u2028", "\U0001f600", "//", "/*", "::"]
BAD_ATTRS = ['"x"', "[]", "[1, 2, 3, 4, 5]", "{}", "unit", "#blocked99", "#ttg.blocked<{}>", "-5 : i32", "true",
             "dense<1> : tensor<2xi32>", "@sym", "array<i32: 1>", "0 : i1", "[[1]]", "#loc", "1.0 : f32",
             "loc(unknown)", "dense<[1, 2]> : tensor<3xi32>", "dense<\"x\"> : tensor<2xf32>", "array<index: 1>",
             "#ttg.slice<{dim = 9}>", "1 : tensor<4xi32>", "0x7FC00000 : i32", "i32", "-1 : ui8"]
OPS = ["tt.bogus", "arith.frobnicate", "ttg.nope", "foo", "scf.yield", "tt.return", "builtin.module", "arith.constant",
       "tt.func", "tt.reduce", "ttg.convert_layout", "module", "tt.load", "triton_gpu.local_alloc", "cf.br", "scf.for",
       "amdg.xyz", "scf.if", "tt.call", "arith.select", "ttg.local_load", "ttng.warp_group_dot"]
LAYOUT_KEYS = ["sizePerThread", "threadsPerWarp", "warpsPerCTA", "order", "CTAsPerCGA", "CTASplitNum", "CTAOrder",
               "versionMajor", "versionMinor", "instrShape", "vec", "perPhase", "maxPhase", "dim", "opIdx", "kWidth",
               "parent", "isTransposed", "hasLeadingOffset"]
LAYOUT_VALUES = ["[0]", "[0, 0]", "[-1, 4]", "[1, 1, 1]", "[]", "[3, 3]", "0", "-1", "99", "[64, 64]", "true",
                 "#blocked", "[2147483648]", "[99999999999999999999]", "#undefined", "[[1]]", '"s"']
LOCATIONS = ["#loc99999", "", "unknown", '"f":x:1', '"f":1', "callsite(#loc)", "fused[", '"a"("b"', "#blocked",
             '"f":99999999999999999999:1', "fused<1>[]", "callsite(#loc at )", '"f":-1:2', "fused<\"m\">[#loc]",
             '"f":1:2 to 3:4', "#loc1 #loc2"]


def _replace(text: str, m: re.Match, new: str, group: int = 0) -> str:
    return text[: m.start(group)] + new + text[m.end(group):]


def truncate(rng, text):
    i = rng.randrange(len(text))
    return text[:i], f"truncate at {i}"


def delete_token(rng, text):
    m = rng.choice(list(TOKEN.finditer(text)))
    return _replace(text, m, ""), f"delete {m.group(0)!r} at {m.start()}"


def duplicate_token(rng, text):
    m = rng.choice(list(TOKEN.finditer(text)))
    return _replace(text, m, m.group(0) + " " + m.group(0)), f"duplicate {m.group(0)!r} at {m.start()}"


def swap_type(rng, text):
    m = rng.choice(list(SCALAR_OR_TENSOR_TYPE.finditer(text)))
    new = rng.choice(TYPES)
    return _replace(text, m, new), f"type {m.group(0)!r} -> {new!r} at {m.start()}"


def garbage(rng, text):
    i = rng.randrange(len(text) + 1)
    if rng.random() < 0.8:
        g = rng.choice(GARBAGE)
    else:
        g = "".join(chr(rng.randrange(1, 0x3000)) for _ in range(rng.randrange(1, 8)))
    return text[:i] + g + text[i:], f"insert {g!r} at {i}"


def huge_number(rng, text):
    ms = [m for m in TOKEN.finditer(text) if re.match(r"-?\d", m.group(0))]
    m = rng.choice(ms)
    new = rng.choice(NUMBERS)
    return _replace(text, m, new), f"number {m.group(0)!r} -> {new[:30]!r} at {m.start()}"


def bracket(rng, text):
    m = rng.choice(list(re.finditer(r"[\[\](){}<>]", text)))
    if rng.random() < 0.5:
        return _replace(text, m, ""), f"drop {m.group(0)!r} at {m.start()}"
    new = rng.choice("[](){}<>")
    return _replace(text, m, m.group(0) + new), f"add {new!r} after {m.group(0)!r} at {m.start()}"


def duplicate_definition(rng, text):
    lines = text.split("\n")
    candidates = [i for i, line in enumerate(lines) if re.match(r"\s*%[\w]+(?::\d+)? = ", line) or line.startswith(("#", "!"))]
    i = rng.choice(candidates)
    lines.insert(i + rng.choice([0, 1, 2]), lines[i])
    return "\n".join(lines), f"duplicate line {i + 1}"


def unknown_op(rng, text):
    ms = list(re.finditer(r"(?<== )[a-z_]+\.[a-z_.]+|^\s+([a-z_]+\.[a-z_.]+)", text, re.MULTILINE))
    m = rng.choice(ms)
    group = 1 if m.group(1) else 0
    new = rng.choice(OPS)
    return _replace(text, m, new, group), f"op {m.group(group)!r} -> {new!r} at {m.start(group)}"


def bad_attribute(rng, text):
    m = rng.choice(list(re.finditer(r"(\w+ = )([^,}>\n]+)", text)))
    new = rng.choice(BAD_ATTRS)
    return _replace(text, m, new, 2), f"attribute {m.group(1)!r} value {m.group(2)[:30]!r} -> {new!r} at {m.start()}"


def bad_layout(rng, text):
    ms = list(re.finditer(r"\b(" + "|".join(LAYOUT_KEYS) + r") = (\[[^\]]*\]|[\w#]+)", text))
    if not ms:
        return bad_attribute(rng, text)
    m = rng.choice(ms)
    if rng.random() < 0.2:
        return _replace(text, m, ""), f"layout: drop {m.group(1)} at {m.start()}"
    new = rng.choice(LAYOUT_VALUES)
    return _replace(text, m, new, 2), f"layout: {m.group(1)} = {new} at {m.start()}"


def bad_location(rng, text):
    ms = list(re.finditer(r"loc\(([^()]*(?:\([^()]*\))?[^()]*)\)", text))
    if not ms:
        return truncate(rng, text)
    m = rng.choice(ms)
    new = rng.choice(LOCATIONS)
    return _replace(text, m, new, 1), f"location {m.group(1)[:30]!r} -> {new!r} at {m.start()}"


def bad_enum(rng, text):
    ms = list(re.finditer(r"\b(?:arith\.cmp[if]) (\w+)|\b(?:cacheModifier|evictionPolicy|axis|inputPrecision) = (\w+)", text))
    if not ms:
        return unknown_op(rng, text)
    m = rng.choice(ms)
    group = 1 if m.group(1) else 2
    new = rng.choice(["bogus", "99", "-1", "SLT", "x"])
    return _replace(text, m, new, group), f"enum {m.group(group)!r} -> {new!r} at {m.start()}"


def result_group(rng, text):
    ms = list(re.finditer(r"(%\w+)(:\d+)? = ", text))
    m = rng.choice(ms)
    new = m.group(1) + rng.choice([":0", ":2", ":3", ":99", ", %extra", ":1"]) + " = "
    return _replace(text, m, new), f"results {m.group(0)!r} -> {new!r} at {m.start()}"


def swap_value(rng, text):
    ms = list(re.finditer(r"%[\w]+(?:#\d+)?", text))
    m = rng.choice(ms)
    other = rng.choice(ms).group(0) if rng.random() < 0.7 else f"%undefined_{rng.randrange(100)}"
    return _replace(text, m, other), f"value {m.group(0)} -> {other} at {m.start()}"


def delete_line(rng, text):
    lines = text.split("\n")
    i = rng.randrange(len(lines))
    del lines[i]
    return "\n".join(lines), f"delete line {i + 1}"


def swap_lines(rng, text):
    lines = text.split("\n")
    i = rng.randrange(len(lines))
    j = min(len(lines) - 1, i + rng.randrange(1, 6))
    lines[i], lines[j] = lines[j], lines[i]
    return "\n".join(lines), f"swap lines {i + 1} and {j + 1}"


MUTATORS = [truncate, delete_token, duplicate_token, swap_type, garbage, huge_number, bracket, duplicate_definition,
            unknown_op, bad_attribute, bad_layout, bad_location, bad_enum, result_group, swap_value, delete_line,
            swap_lines]


def _apply(fn, rng: random.Random, text: str) -> tuple[str, str]:
    if not text:
        return "}", "replace the empty text by '}'"
    try:
        return fn(rng, text)
    except IndexError:  # nothing of that kind left in the text (after a first mutation): cut it instead
        return truncate(rng, text)


def mutate(rng: random.Random, text: str) -> tuple[str, str]:
    fn = rng.choice(MUTATORS)
    out, what = _apply(fn, rng, text)
    if rng.random() < 0.15:  # now and then a second mutation on top
        fn2 = rng.choice(MUTATORS)
        out, what2 = _apply(fn2, rng, out)
        what += f"; {fn2.__name__}: {what2}"
    return out, f"{fn.__name__}: {what}"


def mutants(chunk: int, count: int) -> list[tuple[Path, str, str]]:
    rng = random.Random(SEED * 1000 + chunk)
    files = base_files()
    out = []
    for _ in range(count):
        base = rng.choice(files)
        text, what = mutate(rng, base_text(base))
        out.append((base, text, what))
    return out


# -- rule mutants: real kernels made to break one ported Triton verifier rule ------------------------------------


def rule_mutant(rng: random.Random, text: str) -> tuple[str, str, str] | None:
    """(mutated text, rule, expected message part) breaking one ported rule, or None when the kernel has no site."""
    kinds = ["mask", "convert", "warps", "ssa"]
    rng.shuffle(kinds)
    for kind in kinds:
        if kind == "mask":
            # a masked tt.load/tt.store/tt.atomic_rmw: the mask becomes another value of the function
            sites = list(re.finditer(r"(tt\.load|tt\.store) (%[\w.$-]+), (%[\w.$-]+)(, |, %| :)", text))
            sites = [m for m in sites if m.group(1) == "tt.load" or m.group(4) == ", "]
            if not sites:
                continue
            m = rng.choice(sites)
            mask_at = m.start(3) if m.group(1) == "tt.load" else None
            if m.group(1) == "tt.store":
                rest = re.match(r", (%[\w.$-]+)", text[m.end(3):])
                if rest is None:
                    continue
                mask_at = m.end(3) + 2
            old = re.match(r"%[\w.$-]+", text[mask_at:]).group(0)
            func_start = text.rfind("tt.func", 0, mask_at)
            defs = [d.group(1) for d in re.finditer(r"(%[\w.$-]+) = [^\n]*:[^\n]*tensor<[^\n]*x(?:i32|f32|f16|i64)[,>]",
                                                     text[func_start:mask_at])]
            defs = [d for d in defs if d != old and ":" not in d]
            if not defs:
                continue
            new = rng.choice(defs)
            expect = ("mask type matches", "must be 1-bit signless integer")
            return text[:mask_at] + new + text[mask_at + len(old):], f"mask of {m.group(1)}", expect
        if kind == "convert":
            sites = list(re.finditer(r"convert_layout %[\w.$-]+ : tensor<(\d+)x(\d+)x(\w+), (#\w+)> -> tensor<(\d+)x(\d+)x", text))
            sites += list(re.finditer(r"convert_layout %[\w.$-]+ : tensor<(\d+)x(\w+), (#\w+)> -> tensor<(\d+)x", text))
            sites = [m for m in sites if m.re.groups == 4 or m.group(5) != m.group(6)]
            if not sites:
                continue
            m = rng.choice(sites)
            if m.re.groups == 4:  # 1-D: double the result's length
                mutated = text[:m.start(4)] + str(2 * int(m.group(4))) + text[m.end(4):]
            else:
                mutated = text[:m.start(5)] + m.group(6) + "x" + m.group(5) + text[m.end(6):]
            return mutated, "convert_layout shape", ("requires the same shape",)
        if kind == "warps":
            m = re.search(r'"(ttg|triton_gpu)\.num-warps" = (\d+) : i32', text)
            if m is None or not re.search(r"= tt\.(splat|make_range|load|broadcast|expand_dims)", text):
                continue
            new = str(int(m.group(2)) * 2)
            return text[:m.start(2)] + new + text[m.end(2):], "num-warps vs layouts", ("warps per CTA",)
        if kind == "ssa":
            sites = list(re.finditer(r"^\s+(%\d+) = ", text, re.M))
            if not sites:
                continue
            m = rng.choice(sites)
            return text[:m.end(1)] + "x" + text[m.end(1):], "SSA name %Nx", ("SSA value name",)
    return None



# -- the checks -----------------------------------------------------------------------------------------------


def run_in_process(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    saved = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = out, err
    code: object = None
    try:
        opt.main(argv)
    except SystemExit as e:
        code = e.code
    except BaseException as e:  # IRKIT_TRACEBACK set, or a bug that escaped main()
        code = f"raised {type(e).__name__}: {e}"
    finally:
        sys.stdout, sys.stderr = saved
    return code, out.getvalue(), err.getvalue()


def problems_of(path: Path, text: str, code, out: str, err: str, debuginfo: bool) -> list[str]:
    """What is wrong with one run (empty: fine)."""
    if "Traceback" in err or "internal error" in err or "failed to verify:" in err or not isinstance(code, int):
        return [f"internal error (exit {code}): {err.strip()[:600]}"]
    if code == 0:
        try:
            again = print_module(Parser(out, "output").parse(), debuginfo=debuginfo)
        except Exception as e:  # noqa: BLE001 - any failure to read our own output is the bug
            return [f"output does not parse back: {type(e).__name__}: {getattr(e, 'message', e)}"]
        return [] if again == out else ["output is not a fixed point of print(parse(.))"]
    if code != 1:
        return [f"exit status {code}, expected 0 or 1: {err[:300]}"]
    if out:
        return ["a failed run printed output"]
    problems = []
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")  # as irkit-opt reads files
    err_lines = err.split("\n")  # not splitlines(): U+2028 and friends are no line breaks in MLIR
    headers = [(i, line) for i, line in enumerate(err_lines) if ": error: " in line or line.startswith("irkit-opt:")]
    if not headers:
        problems.append(f"exit 1 without an error diagnostic: {err[:300]!r}")
    for i, line in headers:
        m = DIAGNOSTIC.match(line)
        if m is None or m.group("file") != str(path):
            problems.append(f"not a '{path.name}:line:col: error:' diagnostic: {line[:300]!r}")
            continue
        n, col = int(m.group("line")), int(m.group("col"))
        if not 1 <= n <= len(lines) or col < 1:
            problems.append(f"position {n}:{col} is outside the file ({len(lines)} lines)")
        elif i + 1 < len(err_lines) and "\x00" not in lines[n - 1] and err_lines[i + 1] != lines[n - 1]:
            if not DIAGNOSTIC.match(err_lines[i + 1]):
                problems.append(f"the quoted source line is not line {n}: {err_lines[i + 1][:120]!r}")
    return problems


def write_mutant(directory: Path, name: str, text: str) -> Path:
    path = directory / name
    with open(path, "w", encoding="utf-8", errors="surrogatepass", newline="") as f:
        f.write(text)
    return path


@pytest.fixture(scope="module")
def bases(corpus):
    files = base_files()
    assert len(files) >= 10, "tests/data/corpus is incomplete"
    return files


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_mutants_in_process(chunk, bases, tmp_path, monkeypatch):
    monkeypatch.delenv("IRKIT_TRACEBACK", raising=False)
    failures = []
    for k, (base, text, what) in enumerate(mutants(chunk, PER_CHUNK)):
        path = write_mutant(tmp_path, f"m{chunk}_{k}.mlir", text)
        debuginfo = k % 2 == 1
        code, out, err = run_in_process([str(path), "--mlir-print-debuginfo"] if debuginfo else [str(path)])
        problems = problems_of(path, text, code, out, err, debuginfo)
        if problems:
            keep = write_mutant(tmp_path, f"failing_{chunk}_{k}.mlir", text)
            failures.append(f"{file_id(base)} | {what} | {keep}\n    " + "\n    ".join(problems))
        else:
            path.unlink()
    assert not failures, f"{len(failures)} of {PER_CHUNK} mutants:\n" + "\n".join(failures)


def test_mutants_as_processes(bases, tmp_path):
    exe = shutil.which("irkit-opt", path=os.path.dirname(sys.executable))
    cmd = [exe] if exe else [sys.executable, "-m", "irkit.cli.opt"]
    env = {k: v for k, v in os.environ.items() if k != "IRKIT_TRACEBACK"}
    failures = []
    for k, (base, text, what) in enumerate(mutants(CHUNKS, PROCESS_MUTANTS)):
        path = write_mutant(tmp_path, f"p{k}.mlir", text)
        proc = subprocess.run([*cmd, str(path)], capture_output=True, text=True, env=env)
        problems = problems_of(path, text, proc.returncode, proc.stdout, proc.stderr, False)
        if problems:
            failures.append(f"{file_id(base)} | {what} | {path}\n    " + "\n    ".join(problems))
    assert not failures, "\n".join(failures)


def test_the_mutants_are_varied(bases):
    """The generator really produces all kinds, both outcomes, and mostly errors
    (a mutant set that all parses would test nothing)."""
    kinds = set()
    outcomes = {0: 0, 1: 0}
    for chunk in range(0, CHUNKS, 6):
        for _, _text, what in mutants(chunk, PER_CHUNK):
            kinds.add(what.split(":")[0])
    assert kinds == {m.__name__ for m in MUTATORS}
    for _base, text, _ in mutants(0, PER_CHUNK):
        try:
            Parser(text, "m").parse()
            outcomes[0] += 1
        except Exception:  # noqa: BLE001 - only counting
            outcomes[1] += 1
    assert outcomes[1] > PER_CHUNK // 2 and outcomes[0] > 0, outcomes


def test_the_checker_catches_a_bad_diagnostic(tmp_path):
    """problems_of itself: it must flag a traceback, a wrong exit status, an unpositioned error."""
    path = tmp_path / "x.mlir"
    text = "module {\n}\n"
    assert problems_of(path, text, 1, "", "Traceback (most recent call last):\n", False)
    assert problems_of(path, text, 2, "", f"{path}:1:1: error: x\n", False)
    assert problems_of(path, text, 1, "", "error: no position\n", False)
    assert problems_of(path, text, 1, "", f"{path}:9:1: error: past the end\n", False)
    assert problems_of(path, text, 0, "module {", "", False)
    assert not problems_of(path, text, 1, "", f"{path}:2:1: error: fine\n}}\n^\n", False)
    assert not problems_of(path, text, 0, "module {\n}\n", "", False)


# -- output targets: the one writing rule (irkit.outputs) --------------------------------------------------------
# Never the real /dev/null: devices are made with mknod inside tmp_path, and checked to still be devices after.

KERNEL = Path(__file__).parent / "data" / "kernels" / "3.1.0" / "cuda_80" / "int_arith.ttgir"


def _irkit_opt_cmd() -> list[str]:
    exe = shutil.which("irkit-opt", path=os.path.dirname(sys.executable))
    return [exe] if exe else [sys.executable, "-m", "irkit.cli.opt"]


def _one_line_error(code, err: str) -> None:
    assert code == 1, err
    lines = [line for line in err.splitlines() if line]
    assert len(lines) == 1 and lines[0].startswith("irkit-opt: error: "), err
    assert "Traceback" not in err


def _char_device(tmp_path: Path) -> Path:
    """A character device like /dev/null's (1, 3), made in tmp_path."""
    import stat

    dev = tmp_path / "null"
    try:
        os.mknod(dev, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    except (PermissionError, OSError):
        pytest.skip("mknod needs root")
    return dev


def test_output_to_a_device_writes_through(tmp_path):
    import stat

    dev = _char_device(tmp_path)
    rdev = dev.stat().st_rdev
    code, _, err = run_in_process([str(KERNEL), "-o", str(dev)])
    assert code == 0, err
    assert stat.S_ISCHR(dev.lstat().st_mode) and dev.stat().st_rdev == rdev
    assert sorted(p.name for p in tmp_path.iterdir()) == ["null"]  # no temporary file left


def test_output_to_a_fifo_writes_through(tmp_path):
    import stat
    import threading

    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()), daemon=True)
    reader.start()
    code, _, err = run_in_process([str(KERNEL), "-o", str(fifo)])
    reader.join(timeout=60)
    assert code == 0, err
    assert stat.S_ISFIFO(fifo.lstat().st_mode)
    assert got and got[0].decode() == run_in_process([str(KERNEL)])[1]


def test_output_through_a_symlink_writes_its_target(tmp_path):
    target = tmp_path / "real.ttgir"
    target.write_text("old\n")
    target.chmod(0o640)
    link = tmp_path / "link.ttgir"
    link.symlink_to("real.ttgir")
    dangling = tmp_path / "dangling.ttgir"
    dangling.symlink_to("created.ttgir")
    for path in (link, dangling):
        code, _, err = run_in_process([str(KERNEL), "-o", str(path)])
        assert code == 0, err
        assert path.is_symlink()
    expected = run_in_process([str(KERNEL)])[1]
    assert target.read_text() == expected and (tmp_path / "created.ttgir").read_text() == expected
    assert target.stat().st_mode & 0o777 == 0o640  # the file keeps its mode
    assert sorted(p.name for p in tmp_path.iterdir()) == ["created.ttgir", "dangling.ttgir", "link.ttgir", "real.ttgir"]


def test_output_to_stdout_links(tmp_path):
    """-o /dev/stdout writes to the descriptor, even when stdout is a regular file."""
    redirected = tmp_path / "out.ttgir"
    with open(redirected, "w") as f:
        proc = subprocess.run([*_irkit_opt_cmd(), str(KERNEL), "-o", "/dev/stdout"], stdout=f, stderr=subprocess.PIPE, check=False,
                              text=True)
    assert proc.returncode == 0, proc.stderr
    assert redirected.read_text() == run_in_process([str(KERNEL)])[1]
    assert os.path.islink("/dev/stdout")


@pytest.mark.parametrize("kind", ["directory", "missing folder", "link loop", "unwritable"])
def test_bad_output_paths_are_one_line_errors(tmp_path, kind):
    if kind == "directory":
        target = tmp_path / "d"
        target.mkdir()
    elif kind == "missing folder":
        target = tmp_path / "nope" / "x.ttgir"
    elif kind == "link loop":
        target = tmp_path / "loop"
        target.symlink_to("loop")
    else:
        if os.geteuid() == 0:  # root writes anywhere on disk: use a place nobody can write
            target = Path("/proc/irkit-test-output")
        else:
            ro = tmp_path / "ro"
            ro.mkdir()
            (ro / "x.ttgir").write_text("keep\n")
            ro.chmod(0o555)
            target = ro / "x.ttgir"
    code, _, err = run_in_process([str(KERNEL), "-o", str(target)])
    _one_line_error(code, err)
    assert str(target.name) in err


def test_read_only_file_is_not_replaced(tmp_path):
    if os.geteuid() == 0:
        pytest.skip("root may write a read-only file")
    target = tmp_path / "ro.ttgir"
    target.write_text("keep\n")
    target.chmod(0o444)
    code, _, err = run_in_process([str(KERNEL), "-o", str(target)])
    _one_line_error(code, err)
    assert target.read_text() == "keep\n"


def test_input_link_loop_is_reported_as_such(tmp_path):
    loop = tmp_path / "loop.ttgir"
    loop.symlink_to("loop.ttgir")
    code, _, err = run_in_process([str(loop)])
    _one_line_error(code, err)
    assert "symbolic links" in err


_KILLED_WRITER = r"""
import os, sys, time
from irkit import outputs
if sys.argv[3] == "named":
    outputs._unnamed_temp = lambda directory, mode: None
real = outputs._write_all
def slow(fd, payload):
    real(fd, payload[: len(payload) // 2])
    print("writing", flush=True)
    time.sleep(60)
outputs._write_all = slow
outputs.write_output(sys.argv[1], "x" * int(sys.argv[2]))
"""


@pytest.mark.parametrize("how", [("SIGTERM", "unnamed"), ("SIGKILL", "unnamed"), ("SIGTERM", "named")])
def test_killed_mid_write_leaves_no_temporary_file(tmp_path, how):
    import signal

    sig, temp = how
    target = tmp_path / "out.ttgir"
    target.write_text("old\n")
    proc = subprocess.Popen([sys.executable, "-c", _KILLED_WRITER, str(target), str(8 << 20), temp],
                            stdout=subprocess.PIPE, text=True)
    assert proc.stdout.readline() == "writing\n"
    proc.send_signal(getattr(signal, sig))
    proc.wait(timeout=60)
    assert proc.returncode == -getattr(signal, sig)
    assert [p.name for p in tmp_path.iterdir()] == ["out.ttgir"]
    assert target.read_text() == "old\n"


def test_report_outputs_follow_the_same_rule(tmp_path):
    import stat

    from irkit.cli import report

    dev = _char_device(tmp_path)
    real = tmp_path / "graph.dot"
    real.write_text("")
    (tmp_path / "link.dot").symlink_to("graph.dot")
    saved = sys.stdout
    sys.stdout = io.StringIO()
    try:
        code = report.run([str(KERNEL), "-o", str(dev), "--dot", str(tmp_path / "link.dot"),
                           "--html", str(dev), "--graph-json", str(dev)])
    finally:
        sys.stdout = saved
    assert code == 0
    assert stat.S_ISCHR(dev.lstat().st_mode) and (tmp_path / "link.dot").is_symlink()
    assert real.read_text().startswith("digraph")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["graph.dot", "link.dot", "null"]


def test_split_input_file_with_a_failing_chunk_writes_nothing(tmp_path):
    good = KERNEL.read_text()
    bad = "module {\n  tt.func @f() {\n    %0 = arith.bogus\n  }\n}\n"
    path = tmp_path / "in.mlir"
    path.write_text(good + "// -----\n" + bad)
    before = path.read_bytes()
    code, out, err = run_in_process([str(path), "--split-input-file", "-o", str(path)])
    assert code == 1 and ": error: " in err
    assert path.read_bytes() == before and out == ""
    assert [p.name for p in tmp_path.iterdir()] == ["in.mlir"]


# -- compressed inputs: bombs, corrupt streams, empty sections ----------------------------------------------------


def _gzip_bomb(path: Path, gigabytes: float) -> int:
    """A gzip file that expands to `gigabytes` of dump-log-like lines, written in a blink:
    one compressed 1 MiB member, repeated (gzip allows concatenated members)."""
    import gzip

    header = "// -----// IR Dump Before TritonGPUCoalesce (tritongpu-coalesce) ('builtin.module' operation) //----- //\n"
    line = "    %0 = arith.constant 0 : i32 loc(#loc1)\n"
    block = (line * ((1 << 20) // len(line))).encode()
    member = gzip.compress(block, compresslevel=9)
    count = int(gigabytes * 1024)
    with open(path, "wb") as f:
        f.write(gzip.compress((header + "module {\n").encode()))
        for _ in range(count):
            f.write(member)
    return count * len(block)


def test_gzip_bomb_fails_early_with_bounded_memory(tmp_path):
    bomb = tmp_path / "log.txt.gz"
    expanded = _gzip_bomb(bomb, 2.0)
    assert expanded > 2e9 and bomb.stat().st_size < 20e6
    probe = ("import resource, sys\nfrom irkit.cli import opt\n"
             "try:\n    opt.main([sys.argv[1]])\nexcept SystemExit as e:\n    code = e.code\n"
             "print(code, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024, file=sys.stderr)\n")
    proc = subprocess.run([sys.executable, "-c", probe, str(bomb)], capture_output=True, text=True, check=False)
    *lines, last = proc.stderr.strip().splitlines()
    code, peak_mb = (int(x) for x in last.split())
    assert code == 1 and len(lines) == 1 and lines[0].startswith("irkit-opt: error: ") and "MiB" in lines[0], proc.stderr
    assert peak_mb < 1024, f"peak RSS {peak_mb} MB"


@pytest.mark.parametrize("damage", ["corrupt", "truncated", "not gzip"])
def test_broken_gzip_is_one_line_error(tmp_path, damage):
    import gzip

    data = gzip.compress(KERNEL.read_bytes())
    if damage == "corrupt":
        data = data[:20] + bytes(b ^ 0x5A for b in data[20:60]) + data[60:]
    elif damage == "truncated":
        data = data[: len(data) // 2]
    else:
        data = b"\x1f\x8b\x08\x00" + b"\x00" * 50
    path = tmp_path / "k.ttgir.gz"
    path.write_bytes(data)
    code, _, err = run_in_process([str(path)])
    _one_line_error(code, err)
    assert "gzip" in err


def test_dump_section_with_garbage_body_is_an_error(tmp_path):
    log = tmp_path / "log.txt"
    header = "// -----// IR Dump Before TritonGPUCoalesce (tritongpu-coalesce) ('builtin.module' operation) //----- //\n"
    log.write_text(header + "this is not IR\nnor is this\n" + header.replace("Coalesce", "Pipeline") + KERNEL.read_text())
    code, out, err = run_in_process([str(log), "--dump-section=0"])
    assert code == 1 and out == "" and f"{log}:1:1: error: section 0" in err and "holds no MLIR module" in err
    code, out, _ = run_in_process([str(log), "--dump-section=1"])
    assert code == 0 and "tt.func" in out


# -- a pass's own bug looks like one; everything else is one line and exit 1 --------------------------------------


def test_coalesce_on_zero_warps_is_a_verifier_error(tmp_path):
    path = tmp_path / "nw0.ttgir"
    path.write_text(KERNEL.read_text().replace('"triton_gpu.num-warps" = 4', '"triton_gpu.num-warps" = 0'))
    assert '"triton_gpu.num-warps" = 0' in path.read_text()
    code, out, err = run_in_process([str(path), "--coalesce"])
    assert code == 1 and out == "" and "internal error" not in err
    assert re.match(rf"{re.escape(str(path))}:\d+:\d+: error: 'builtin.module' op attribute 'triton_gpu.num-warps' "
                    "must be a positive integer", err), err


def test_a_pass_bug_is_an_internal_error_at_the_op(tmp_path, monkeypatch):
    import importlib

    coalesce = importlib.import_module("irkit.passes.coalesce")
    pass_cls = next(c for c in vars(coalesce).values() if isinstance(c, type) and getattr(c, "name", None) == "coalesce")

    def buggy_apply(self, ctx, module):
        for op in module.walk():
            if op.name == "tt.load":
                return 1 // 0
        return None

    monkeypatch.setattr(pass_cls, "apply", buggy_apply)
    monkeypatch.delenv("IRKIT_TRACEBACK", raising=False)
    load_line = next(i for i, line in enumerate(KERNEL.read_text().split("\n"), 1) if "tt.load" in line)
    code, out, err = run_in_process([str(KERNEL), "--coalesce"])
    assert code == 2 and out == ""
    assert err.startswith(f"irkit-opt: internal error in pass 'coalesce' at {KERNEL}:{load_line}:"), err
    assert "please report" in err and "ZeroDivisionError" in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1
    code, _, err = run_in_process([str(KERNEL), "--coalesce", "--debug"])
    assert code == 2 and "Traceback" in err and "buggy_apply" in err


def _report(argv: list[str]) -> tuple[int, str]:
    from irkit.cli import report

    out, err = io.StringIO(), io.StringIO()
    saved = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = out, err
    try:
        report.main(argv)
    except SystemExit as e:
        code = e.code
    finally:
        sys.stdout, sys.stderr = saved
    return code, err.getvalue()


@pytest.mark.parametrize("argv", [["--bogus"], ["--limit", "x"], ["--target", "ZZZ"], ["--triton-version", "9.9"],
                                  ["--limit", "-1"], ["--limit", "0"]])
def test_report_argument_errors_are_one_line(argv):
    code, err = _report([str(KERNEL), *argv])
    assert code == 1, err
    assert len(err.strip().splitlines()) == 1 and err.startswith("irkit-report: error: "), err


@pytest.mark.parametrize("content", [b"\xff\xfe[]", b'{"configs": 5}', b"[[1, 2]]", b'{"files": {"ttgir": 3}}\n',
                                     b'[{"triton_version": [3, 1]}]', b'[{"path": {"a": 1}}]'])
def test_bad_manifests_are_one_line(tmp_path, content):
    manifest = tmp_path / "m.json"
    manifest.write_bytes(content)
    code, err = _report(["--screen", "--manifest", str(manifest)])
    assert code == 1, err
    assert len(err.strip().splitlines()) == 1 and err.startswith("irkit-report: error: manifest "), err


# -- deep nesting ----------------------------------------------------------------------------------------------------


def nested_ifs(depth: int) -> str:
    """A valid function whose body nests `depth` scf.if regions (generated IR nests far deeper than kernels)."""
    return "\n".join(["module {", "  tt.func @deep(%c: i1) {", *(["    scf.if %c {"] * depth),
                      "    %x = arith.constant 0 : i32", *(["    }"] * depth), "    tt.return", "  }", "}", ""])


def test_deep_nesting_parses_verifies_and_prints(tmp_path):
    """3,000 levels here (10,000 in tools/fuzz_mutations.py, which takes longer); 250 failed before."""
    path = tmp_path / "deep.mlir"
    path.write_text(nested_ifs(3000))
    code, out, err = run_in_process([str(path)])
    assert code == 0, err[:500]
    assert out.count("scf.if %c {") == 3000 and "arith.constant 0 : i32" in out


def test_nesting_past_the_limit_points_at_the_place(tmp_path, monkeypatch):
    from irkit import deep

    monkeypatch.setattr(deep, "RECURSION_LIMIT", 3000)
    monkeypatch.setattr(sys, "getrecursionlimit", lambda: 1000)  # so run_deep does not keep a higher one
    path = tmp_path / "deeper.mlir"
    path.write_text(nested_ifs(2000))
    code, out, err = run_in_process([str(path)])
    assert code == 1 and out == ""
    m = DIAGNOSTIC.match(err)
    assert m and "input nests too deeply to parse" in err, err[:300]
    assert int(m.group("line")) > 100  # where the parser was, not 1:1


RULE_MUTANTS = 40  # tools/fuzz_mutations.py runs a thousand


def test_rule_mutants_never_succeed(bases, tmp_path, monkeypatch):
    """IR that Triton's verifier rejects (a mask that is not i1 of the pointer's shape, a transposed
    convert_layout, num-warps against the layouts, `%88x`) never passes: exit 1, positioned."""
    monkeypatch.delenv("IRKIT_TRACEBACK", raising=False)
    rng = random.Random(SEED)
    ttgir = [f for f in bases if f.suffix == ".ttgir"]
    rules, failures = Counter(), []
    for k in range(RULE_MUTANTS):
        made = rule_mutant(rng, base_text(rng.choice(ttgir)))
        if made is None:
            continue
        text, rule, expect = made
        path = write_mutant(tmp_path, f"r{k}.mlir", text)
        code, out, err = run_in_process([str(path)])
        problems = problems_of(path, text, code, out, err, False)
        if code == 0:
            problems.append("accepted IR that breaks " + rule)
        if problems:
            failures.append(f"{rule}: {path}: {problems}")
        elif any(e in err for e in expect):
            rules[rule] += 1
    assert not failures, "\n".join(failures)
    assert len(rules) >= 3, rules  # most rules were hit with their own message
