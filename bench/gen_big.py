"""Large TTGIR modules made of real functions, for scaling measurements.

A real Triton TTGIR file is one module holding one kernel function, its layout
aliases before the module and its `#locN` aliases after it.  This script takes
several such files that share the same module header (same target, warps and
CTAs, so the kernels could live in one module), and writes one module holding
renamed copies of their functions, round-robin, until it has at least the
requested number of operations:

    #blocked = ...            aliases of source 0, then of source 1 (renamed #blocked_s1), ...
    module attributes {...} {
      tt.func public @matmul_addmm_bp_kernel_0(...) { ... }
      tt.func public @matmul_kernel_1(...) { ... }
      ...
    } loc(#loc)
    #loc1 = loc(...)          trailing location aliases of every source

Alias names of source i > 0 get the suffix `_s<i>` so sources never clash;
function symbols get the suffix `_<copy>`.  Nothing else changes: SSA names
are per function, and locations point into the same source lines.  The result
is what both irkit and Triton's own parser read, text for text.

    python bench/gen_big.py --ops 10000 -o big.ttgir [sources.ttgir ...]
"""

from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass
from pathlib import Path

_ALIAS_DEF = re.compile(r"^([#!][\w$.\-]+)[ \t]*=", re.M)
_ALIAS_USE = re.compile(r"[#!][\w$.\-]+")
_FUNC_SYM = re.compile(r"^  tt\.func (?:public |private |nested )?@([\w$.\-]+)", re.M)
# An operation line: results bound or not, a dialect op name (custom or generic form).
_OP_LINE = re.compile(r'^\s*(?:%[^=]*=\s*)?(?:"?[a-z_]+\.[\w.]+"?|module\b)', re.M)


@dataclass
class Source:
    path: Path
    head: str  # alias definitions before the module
    module_line: str  # `module attributes {...} {`
    body: str  # the functions
    close_line: str  # `} loc(#loc)`
    tail: str  # alias definitions after the module
    functions: list[str]
    ops: int  # operations in `body`


def split_source(path: Path) -> Source:
    text = path.read_text()
    lines = text.splitlines(keepends=True)
    start = next(i for i, line in enumerate(lines) if line.startswith("module"))
    close = max(i for i, line in enumerate(lines) if line.startswith("}"))
    body = "".join(lines[start + 1 : close])
    return Source(
        path=path,
        head="".join(lines[:start]),
        module_line=lines[start],
        body=body,
        close_line=lines[close],
        tail="".join(lines[close + 1 :]),
        functions=_FUNC_SYM.findall(body),
        ops=count_ops(body),
    )


def count_ops(text: str) -> int:
    """Operations in TTGIR text, one per line as Triton prints them (block
    labels, closing braces and alias lines are not operations)."""
    return len(_OP_LINE.findall(text))


def _rename_aliases(text: str, names: set[str], suffix: str) -> str:
    if not suffix:
        return text
    return _ALIAS_USE.sub(lambda m: m.group(0) + suffix if m.group(0) in names else m.group(0), text)


def _rename_functions(text: str, functions: list[str], suffix: str) -> str:
    for name in functions:
        text = re.sub(r"@" + re.escape(name) + r"(?![\w$.\-])", "@" + name + suffix, text)
    return text


def build(sources: list[Source], min_ops: int) -> tuple[str, int, int]:
    """The module text, its operation count and the number of function copies."""
    first = sources[0]
    usable = [s for s in sources if s.module_line == first.module_line and s.functions]
    renamed = []
    for i, s in enumerate(usable):
        suffix = f"_s{i}" if i else ""
        names = set(_ALIAS_DEF.findall(s.head + s.tail))
        renamed.append(
            (
                _rename_aliases(s.head, names, suffix),
                _rename_aliases(s.body, names, suffix),
                _rename_aliases(s.tail, names, suffix),
                s,
            )
        )
    head = "".join(r[0] for r in renamed)
    tail = "".join(r[2] for r in renamed)
    parts: list[str] = []
    ops = 1  # the module
    copies = 0
    while ops < min_ops:
        _, body, _, s = renamed[copies % len(renamed)]
        parts.append(_rename_functions(body, s.functions, f"_{copies}"))
        ops += s.ops
        copies += 1
    text = head + first.module_line + "".join(parts) + renamed[0][3].close_line + tail
    return text, ops, copies


def default_sources(corpus: Path) -> list[Path]:
    """Triton 3.1 cuda:80 TTGIR files with 8 warps: the add-matrix GEMM of the
    public dump log first, then the other kernels with the same module header."""
    folder = corpus / "ir" / "3.1.0" / "cuda_80"
    first = folder / "matmul_addmm_bp__bf16__BM256_BN256_BK32_G8__w8_s3.ttgir"
    if not first.is_file():
        return []
    header = split_source(first).module_line
    rest = [p for p in sorted(folder.glob("*.ttgir")) if p != first and split_source(p).module_line == header]
    return [first] + rest


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("sources", nargs="*", type=Path, help="TTGIR files (default: 3.1 cuda:80 w8 kernels of the corpus)")
    ap.add_argument("--ops", type=int, default=10000, help="minimum number of operations")
    ap.add_argument("--corpus", type=Path, default=Path(__file__).resolve().parents[1] / "tests" / "data" / "corpus")
    ap.add_argument("-o", "--output", type=Path, required=True)
    args = ap.parse_args(argv)
    paths = args.sources or default_sources(args.corpus)
    if not paths:
        print("gen_big: no sources (pass TTGIR files or --corpus)", file=sys.stderr)
        return 1
    text, ops, copies = build([split_source(p) for p in paths], args.ops)
    args.output.write_text(text)
    print(f"{args.output}: {ops} ops, {copies} functions, {len(text) / 1e6:.1f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
