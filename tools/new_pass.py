#!/usr/bin/env python3
"""Start a new pass: `python tools/new_pass.py NAME` writes the three files every pass has.

    passes/<name_with_underscores>.py   the pass: a ModulePass driving a RewritePattern
    lit_tests/passes/<name>.mlir        its lit test (RUN lines, CHECK-LABEL per case, a negative case)
    docs/passes/<name>.md               its page: what it mirrors, options, how it differs

The new pass works as written, so it is listed (`irkit-opt --list-passes`), its lit test passes and it is
documented from the first minute: it folds `ttg.convert_layout` ops that convert nothing (result type ==
operand type), the fold canonicalize applies to them in Triton (`ConvertLayoutOp::fold`). Replace the
pattern with yours, then the lit cases and the page (docs/contributing.md walks through it).
Existing files are never overwritten.
"""

from __future__ import annotations

import argparse
import re
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NAME = re.compile(r"[a-z][a-z0-9]*(-[a-z0-9]+)*")

PASS = '''"""{summary}

{mirrors_doc}
docs/passes/{name}.md says what it does and how it differs.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, PatternRewriteWalker, RewritePattern, op_type_rewrite_pattern

from irkit.diagnostics import emit_remark
from irkit.dialects.ttg import ConvertLayoutOp
from irkit.names import replace_keeping_names


@dataclass
class FoldIdentityConvert(RewritePattern):
    """A `ttg.convert_layout` whose result type is its operand's converts nothing: its users take the
    operand instead, and the op goes."""

    remarks: bool

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ConvertLayoutOp, rewriter: PatternRewriter) -> None:
        if op.result.type != op.src.type:
            return
        if self.remarks:
            emit_remark(op, "{name}: conversion to the same layout removed")
        replace_keeping_names(rewriter, op, [], [op.src])


@dataclass(frozen=True)
class {camel}Pass(ModulePass):
    """{summary}

    remarks: report each change as a remark (`--mlir-print-remarks`, or checked by `--verify-diagnostics`).
    """

    name = "{name}"
    # once ported, the C++ pass's name (and the options it implies): irkit-ref runs it, irkit-sweep --against
    # compares the two over every kernel (docs/porting.md).  Needs `from typing import ClassVar`.
    # upstream_names: ClassVar[dict[str, str]] = {{"tritongpu-{name}": ""}}

    remarks: bool = False

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(FoldIdentityConvert(self.remarks)).rewrite_module(op)
'''

LIT = '''// RUN: irkit-opt %s --split-input-file --{name} | FileCheck %s
// RUN: irkit-opt %s --split-input-file --{name}=remarks=true --verify-diagnostics | FileCheck %s

// {name}: one case per function, `// -----` between cases, a CHECK-LABEL on each.

// A conversion to the layout the value already has is removed; its user reads the operand.
// CHECK-LABEL: tt.func @same_layout
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.store %ptrs, %x : tensor<128x!tt.ptr<f32>, #blocked>

#blocked = #ttg.blocked<{{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}}>
module attributes {{"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32}} {{
  tt.func @same_layout(%ptrs: tensor<128x!tt.ptr<f32>, #blocked>, %x: tensor<128xf32, #blocked>) {{
    // expected-remark@+1 {{{{{name}: conversion to the same layout removed}}}}
    %y = ttg.convert_layout %x : tensor<128xf32, #blocked> -> tensor<128xf32, #blocked>
    tt.store %ptrs, %y : tensor<128x!tt.ptr<f32>, #blocked>
    tt.return
  }}
}}

// -----

// A conversion that changes the layout is kept (the negative case).
// CHECK-LABEL: tt.func @other_layout
// CHECK: %y = ttg.convert_layout %x : tensor<128xf32, #blocked> -> tensor<128xf32, #blocked1>

#blocked = #ttg.blocked<{{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}}>
#blocked1 = #ttg.blocked<{{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}}>
module attributes {{"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32}} {{
  tt.func @other_layout(%x: tensor<128xf32, #blocked>, %ptrs: tensor<128x!tt.ptr<f32>, #blocked1>) {{
    %y = ttg.convert_layout %x : tensor<128xf32, #blocked> -> tensor<128xf32, #blocked1>
    tt.store %ptrs, %y : tensor<128x!tt.ptr<f32>, #blocked1>
    tt.return
  }}
}}
'''

DOC = '''# `{name}`

{summary}
Code: `passes/{module}.py`. Tests: `lit_tests/passes/{name}.mlir`.

```
irkit-opt kernel.ttgir --{name}
irkit-opt kernel.ttgir --{name}=remarks=true --mlir-print-remarks
irkit-opt kernel.ttgir -p '{name}{{remarks=true}}'
```

## What it mirrors

{mirrors}.

## Options

| option | default | what |
|---|---|---|
| `remarks` | `false` | report each change as a remark |

## How irkit differs

Nothing known yet: say here what the C++ pass does that this one does not, and why.
'''

SKELETON_SUMMARY = "Remove `ttg.convert_layout` ops that convert a tensor to the layout it already has."
SKELETON_MIRRORS = (
    "the fold of `ttg.convert_layout` (`ConvertLayoutOp::fold` in `lib/Dialect/TritonGPU/IR/Ops.cpp`, "
    "applied by `canonicalize`): a conversion whose result type equals its operand type is its operand"
)


def camel(name: str) -> str:
    return "".join(part.capitalize() for part in name.split("-"))


def files_for(name: str, root: Path = ROOT) -> dict[Path, str]:
    """The three files of pass `name` and their text."""
    module = name.replace("-", "_")
    fields = {"name": name, "module": module, "camel": camel(name), "summary": SKELETON_SUMMARY,
              "mirrors": SKELETON_MIRRORS, "mirrors_doc": textwrap.fill(f"Mirrors {SKELETON_MIRRORS}.", 110)}
    return {
        root / "passes" / f"{module}.py": PASS.format(**fields),
        root / "lit_tests" / "passes" / f"{name}.mlir": LIT.format(**fields),
        root / "docs" / "passes" / f"{name}.md": DOC.format(**fields),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Write a new pass, its lit test and its doc page.")
    ap.add_argument("name", help="the pass name, as on the command line: lowercase words joined by dashes")
    args = ap.parse_args(argv)
    if not NAME.fullmatch(args.name):
        ap.error(f"'{args.name}' is not a pass name: lowercase words joined by dashes, e.g. remove-dead-converts")
    files = files_for(args.name)
    existing = [p for p in files if p.exists()]
    if existing:
        ap.error(f"{existing[0].relative_to(ROOT)} exists; pick another name")
    for path, text in files.items():
        path.write_text(text)
        print(f"wrote {path.relative_to(ROOT)}")
    print(f"next: irkit-opt --list-passes | grep {args.name}; lit -v lit_tests/passes/{args.name}.mlir")
    return 0


if __name__ == "__main__":
    sys.exit(main())
