"""Locations, aliases, value names and the two dialect spellings, on hand-written modules.

What the printer must reproduce and xDSL's own printer does not: `#locN`
aliases defined after the module (as MLIR prints them) and used as
`loc(#locN)`; attribute and location aliases named, numbered and placed as
triton-opt does, whatever the input called them (the input's names on request);
SSA names as written (`%acc`, `%rm_0`, `%x:3` with `%x#1` uses);
`triton_gpu.*`/`!tt.memdesc` (3.1) and `ttg.*`/`!ttg.memdesc` (3.2+) each
printed back as they came.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from xdsl.dialects.builtin import (
    CallSiteLoc,
    FileLineColLoc,
    FusedLoc,
    IntAttr,
    NameLoc,
    NoneAttr,
    StringAttr,
    TensorType,
    UnknownLoc,
)
from xdsl.rewriter import InsertPoint, Rewriter

from irkit.dialects.encodings import BlockedEncodingAttr
from irkit.dialects.ttg import ConvertLayoutOp
from irkit.dialects.types import MemDescType
from irkit.frontend.lexer import ParseError
from irkit.frontend.parser import Parser
from irkit.frontend.printer import print_module
from irkit.frontend.spelling import Spelling
from irkit.names import set_exact_name
from irkit.verifier import verify_module

LOCATIONS = """\
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#loc = loc("/src/k.py":10:0)
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func public @k(%x_ptr: !tt.ptr<f32> loc("x_ptr"(#loc)), %n: i32 loc(unknown)) attributes {noinline = false} {
    %c1_i32 = arith.constant 1 : i32 loc(#loc2)
    %acc = arith.addi %n, %c1_i32 : i32 loc(#loc3)
    %rm_0 = arith.muli %acc, %acc : i32 loc(#loc4)
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked> loc(#loc5)
    %x:3 = scf.for %i = %n to %acc step %c1_i32 iter_args(%a = %n, %b = %acc, %c = %rm_0) -> (i32, i32, i32)  : i32 {
      %s = arith.addi %a, %b : i32 loc(#loc6)
      scf.yield %s, %c, %a : i32, i32, i32 loc(#loc7)
    } loc(#loc8)
    %y = arith.addi %x#1, %x#2 : i32 loc(#loc9)
    tt.return loc(#loc10)
  } loc(#loc)
} loc(#loc)
#loc1 = loc("/src/k.py":11:4)
#loc2 = loc("/src/k.py":12:8)
#loc3 = loc(callsite(#loc1 at #loc2))
#loc4 = loc("acc"(#loc1))
#loc5 = loc(fused[#loc1, #loc2])
#loc6 = loc(fused<"meta">[#loc1, #loc2])
#loc7 = loc(unknown)
#loc8 = loc("loop"(#loc3))
#loc9 = loc("/src/k.py":13:2)
#loc10 = loc("/src/k.py":14:2)
"""


def parse(text: str):
    return Parser(text, "test.mlir").parse()


def func_ops(pm) -> dict[str, object]:
    """Top-level ops of the first function by the name of their first result (or op name)."""
    func = pm.module.body.block.first_op
    out = {}
    for op in func.regions[0].blocks[0].ops:
        key = op.results[0].name_hint if op.results else op.name
        out[key] = op
    return out


def flc(line: int, col: int) -> FileLineColLoc:
    return FileLineColLoc(StringAttr("/src/k.py"), IntAttr(line), IntAttr(col))


@pytest.fixture(scope="module")
def located():
    return parse(LOCATIONS)


def test_location_kinds_on_ops(located):
    ops = func_ops(located)
    assert ops["c1_i32"].location == flc(12, 8)
    assert ops["acc"].location == CallSiteLoc(flc(11, 4), flc(12, 8))
    assert ops["rm_0"].location == NameLoc(StringAttr("acc"), flc(11, 4))
    fused = ops["r"].location
    assert isinstance(fused, FusedLoc) and list(fused.locations.data) == [flc(11, 4), flc(12, 8)]
    assert isinstance(fused.metadata, NoneAttr)
    loop = ops["x"]
    assert loop.location == NameLoc(StringAttr("loop"), CallSiteLoc(flc(11, 4), flc(12, 8)))
    body = list(loop.regions[0].blocks[0].ops)
    meta = body[0].location
    assert isinstance(meta, FusedLoc) and meta.metadata == StringAttr("meta")
    assert isinstance(body[1].location, UnknownLoc)
    assert ops["tt.return"].location == flc(14, 2)
    assert located.module.body.block.first_op.location == flc(10, 0)
    assert located.module.location == flc(10, 0)


def test_location_of_block_arguments(located):
    args = located.module.body.block.first_op.regions[0].blocks[0].args
    assert args[0].location == NameLoc(StringAttr("x_ptr"), flc(10, 0))
    assert isinstance(args[1].location, UnknownLoc)


# LOCATIONS as triton-opt prints it: every location gets a `#locN`, numbered in the order MLIR's alias dry run
# meets them (an op's location before the op) with the locations that hold other aliases (callsite, named,
# fused) after all plain ones; those of block arguments stand before the module.  The alias lines are what
# Triton 3.9's own printer gives for LOCATIONS (test_real_printer_numbers_locations_alike).
LOCATIONS_AS_PRINTED = """\
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#loc = loc("/src/k.py":10:0)
#loc1 = loc(unknown)
#loc6 = loc("x_ptr"(#loc))
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func public @k(%x_ptr: !tt.ptr<f32> loc("x_ptr"(#loc)), %n: i32 loc(unknown)) attributes {noinline = false} {
    %c1_i32 = arith.constant 1 : i32 loc(#loc2)
    %acc = arith.addi %n, %c1_i32 : i32 loc(#loc7)
    %rm_0 = arith.muli %acc, %acc : i32 loc(#loc8)
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked> loc(#loc9)
    %x:3 = scf.for %i = %n to %acc step %c1_i32 iter_args(%a = %n, %b = %acc, %c = %rm_0) -> (i32, i32, i32)  : i32 {
      %s = arith.addi %a, %b : i32 loc(#loc10)
      scf.yield %s, %c, %a : i32, i32, i32 loc(#loc1)
    } loc(#loc11)
    %y = arith.addi %x#1, %x#2 : i32 loc(#loc4)
    tt.return loc(#loc5)
  } loc(#loc)
} loc(#loc)
#loc2 = loc("/src/k.py":12:8)
#loc3 = loc("/src/k.py":11:4)
#loc4 = loc("/src/k.py":13:2)
#loc5 = loc("/src/k.py":14:2)
#loc7 = loc(callsite(#loc3 at #loc2))
#loc8 = loc("acc"(#loc3))
#loc9 = loc(fused[#loc3, #loc2])
#loc10 = loc(fused<"meta">[#loc3, #loc2])
#loc11 = loc("loop"(#loc7))
"""


def test_debuginfo_numbers_locations_as_triton_opt(located):
    assert print_module(located, debuginfo=True) == LOCATIONS_AS_PRINTED
    # what irkit prints, it prints again unchanged; the input's own numbering is kept on request
    assert print_module(parse(LOCATIONS_AS_PRINTED), debuginfo=True) == LOCATIONS_AS_PRINTED
    assert print_module(located, debuginfo=True, input_aliases=True) == LOCATIONS


def test_location_aliases_after_the_module_and_used_by_name(located):
    out = print_module(located, debuginfo=True)
    end = out.index("} loc(#loc)\n#loc2 =")
    assert "loc(#loc7)" in out[:end]
    after = out[end:]
    for n in (2, 3, 4, 5, 7, 8, 9, 10, 11):
        assert f"\n#loc{n} = loc(" in after
    # the locations of block arguments, and what they hold, stand before the module
    before = out[: out.index("module")]
    assert '#loc = loc("/src/k.py":10:0)' in before and "#loc1 = loc(unknown)" in before
    assert '#loc6 = loc("x_ptr"(#loc))' in before


def test_real_printer_numbers_locations_alike(tmp_path):
    """Triton 3.9's own printer gives the alias lines of LOCATIONS_AS_PRINTED (when it can be run)."""
    from test_real_parser import env_pythons

    python = env_pythons().get("3.9.0")
    if python is None:
        pytest.skip("no Triton 3.9.0 in IRKIT_TRITON_PYTHONS")
    src = tmp_path / "locations.mlir"
    src.write_text(LOCATIONS)
    checker = Path(__file__).parent / "real_triton_check.py"
    real = subprocess.run([python, str(checker), "--print", str(src)], capture_output=True, text=True, check=True)
    real = real.stdout
    aliases = [line for line in real.splitlines() if line.startswith("#")]
    assert aliases == [line for line in LOCATIONS_AS_PRINTED.splitlines() if line.startswith("#")]


def test_without_debuginfo_no_location_is_printed(located):
    out = print_module(located)
    assert "loc(" not in out and "#loc" not in out
    assert print_module(parse(out)) == out


def test_inline_locations_get_aliases_too():
    text = LOCATIONS.replace("loc(#loc9)", 'loc("/src/k.py":13:2)').replace('#loc9 = loc("/src/k.py":13:2)\n', "")
    pm = parse(text)
    assert func_ops(pm)["y"].location == flc(13, 2)
    assert print_module(pm, debuginfo=True) == LOCATIONS_AS_PRINTED  # as triton-opt prints any location
    assert print_module(pm, debuginfo=True, input_aliases=True) == text


def test_location_alias_used_before_definition_is_resolved_and_undefined_is_an_error():
    with pytest.raises(ParseError, match="undefined symbol alias id 'loc99'"):
        parse(LOCATIONS.replace("loc(#loc10)", "loc(#loc99)"))


def test_location_alias_must_be_a_location():
    with pytest.raises(ParseError, match="not a location alias"):
        parse(LOCATIONS.replace("loc(#loc10)", "loc(#blocked)"))


# -- attribute aliases ---------------------------------------------------------------------------------

CUSTOM_NAMES = """\
#my_layout = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#other7 = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @k(%a: tensor<64x64xf32, #my_layout>) {
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #other7>
    %e = tt.expand_dims %r {axis = 0 : i32} : tensor<128xi32, #other7> -> tensor<1x128xi32, #ttg.slice<{dim = 0, parent = #my_layout}>>
    tt.return
  }
}
"""


def test_attribute_aliases_are_renamed_as_triton_opt_names_them():
    pm = parse(CUSTOM_NAMES)
    out = print_module(pm)
    renamed = CUSTOM_NAMES.replace("#my_layout", "#blocked").replace("#other7", "#blocked1")
    assert out == renamed
    layout = pm.module.body.block.first_op.regions[0].blocks[0].args[0].type.encoding
    assert isinstance(layout, BlockedEncodingAttr) and layout.order == (1, 0)
    assert pm.attr_aliases[layout] == "my_layout"
    assert print_module(pm, input_aliases=True) == CUSTOM_NAMES


INLINE_KINDS = """\
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#dot0 = #ttg.dot_op<{opIdx = 0, parent = #blocked}>
#sl = #ttg.slice<{dim = 0, parent = #blocked}>
!ptr = !tt.ptr<f32>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @k(%a: tensor<64x64xf32, #dot0>, %b: tensor<64xi32, #sl>, %p: !ptr) {
    tt.return
  }
}
"""


def test_aliases_only_the_input_defined_are_dropped():
    out = print_module(parse(INLINE_KINDS))
    assert re.findall(r"^[#!]\w+ =", out, re.MULTILINE) == ["#blocked ="]
    assert "tensor<64x64xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>" in out
    assert "tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>" in out
    assert "%p: !tt.ptr<f32>" in out


TWO_BLOCKED = """\
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#blocked2 = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], CTAsPerCGA = [1, 1], CTASplitNum = [1, 1], CTAOrder = [1, 0], instrShape = [16, 8]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @k(%m: tensor<32x32xf32, #mma>) {
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>
    %s = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked2>
    tt.return
  }
}
"""


def _convert_after(op, new_type):
    conv = ConvertLayoutOp.create(operands=[op.results[0]], result_types=[new_type])
    conv.location = op.location
    Rewriter.insert_op(conv, InsertPoint.after(op))
    return conv


def test_new_layouts_get_fresh_triton_style_names():
    pm = parse(TWO_BLOCKED)
    ops = func_ops(pm)
    blocked = ops["r"].results[0].type.encoding
    fresh = BlockedEncodingAttr.from_values(sizePerThread=(1,), threadsPerWarp=(32,), warpsPerCTA=(4,), order=(0,))
    fresh2 = blocked.replace(sizePerThread=(8,))  # warps must stay 4: the verifier checks every op's layouts
    conv = _convert_after(ops["r"], TensorType(ops["r"].results[0].type.element_type, [128], fresh))
    conv2 = _convert_after(conv, TensorType(ops["r"].results[0].type.element_type, [128], fresh2))
    mma = pm.module.body.block.first_op.regions[0].blocks[0].args[0].type.encoding
    fresh_mma = mma.replace(warpsPerCTA=(4, 1))
    arg = pm.module.body.block.first_op.regions[0].blocks[0].args[0]
    conv3 = ConvertLayoutOp(arg, TensorType(arg.type.element_type, [32, 32], fresh_mma))  # %m, 32x32, to #mma1
    conv3.location = conv2.location
    Rewriter.insert_op(conv3, InsertPoint.after(conv2))
    assert verify_module(pm.module) == []
    out = print_module(pm)
    aliases = dict(re.findall(r"^#(\w+) = (.*)$", out, re.MULTILINE))
    # numbered in the order the text first uses them, the new layouts among the old ones, as triton-opt does
    assert list(aliases) == ["blocked", "blocked1", "blocked2", "blocked3", "mma", "mma1"]
    assert [aliases[n] for n in ("blocked", "blocked1", "blocked2", "blocked3")] == [
        "#ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>",
        "#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>",
        "#ttg.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>",
        "#ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>",
    ]
    assert "warpsPerCTA = [4, 1]" in aliases["mma1"]
    assert "-> tensor<32x32xf32, #mma1>" in out
    # with the input's names kept, the new layouts take the first free numbers
    kept = dict(re.findall(r"^#(\w+) = (.*)$", print_module(pm, input_aliases=True), re.MULTILINE))
    assert "sizePerThread = [2]" in kept["blocked2"] and "sizePerThread = [1]" in kept["blocked1"]
    # and the output reads back to the same layouts
    back = parse(out)
    assert print_module(back) == out
    assert {op.results[0].type.encoding for op in back.module.walk() if op.name == "ttg.convert_layout"} == {
        fresh, fresh2, fresh_mma
    }


# -- SSA names ---------------------------------------------------------------------------------------------


def test_value_names_survive(located):
    ops = func_ops(located)
    assert ops["acc"].results[0].name_hint == "acc"
    assert ops["rm_0"].results[0].name_hint == "rm_0"  # xDSL's own setter would drop the `_0`
    loop = ops["x"]
    assert len(loop.results) == 3 and all(r.name_hint == "x" for r in loop.results)
    y = ops["y"]
    assert y.operands[0] is loop.results[1] and y.operands[1] is loop.results[2]
    out = print_module(located)
    assert "%x:3 = scf.for %i = %n to %acc step %c1_i32 iter_args(%a = %n, %b = %acc, %c = %rm_0)" in out
    assert "%y = arith.addi %x#1, %x#2 : i32" in out


def test_names_set_by_a_pass_are_printed_and_deduplicated(located):
    pm = parse(LOCATIONS)
    ops = func_ops(pm)
    set_exact_name(ops["y"].results[0], "acc")  # clashes with %acc: printed as a fresh name
    out = print_module(pm)
    assert re.search(r"%acc_\d+ = arith.addi %x#1, %x#2 : i32", out)
    assert print_module(parse(out)) == out


def test_result_index_out_of_range_is_an_error():
    with pytest.raises(ParseError, match="result number 3 out of range"):
        parse(LOCATIONS.replace("%x#2 :", "%x#3 :"))


# -- spellings -------------------------------------------------------------------------------------------------

LEGACY = """\
#blocked = #triton_gpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #triton_gpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], hasLeadingOffset = false}>
module attributes {"triton_gpu.num-warps" = 4 : i32} {
  tt.func @k(%x: tensor<64x64xf16, #blocked>) {
    %a = triton_gpu.local_alloc %x : (tensor<64x64xf16, #blocked>) -> !tt.memdesc<64x64xf16, #shared>
    %b = triton_gpu.local_load %a : !tt.memdesc<64x64xf16, #shared> -> tensor<64x64xf16, #blocked>
    tt.return
  }
}
"""
CURRENT = """\
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @k(%x: tensor<64x64xf16, #blocked>) {
    %a = ttg.local_alloc %x : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
    %b = ttg.local_load %a : !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<64x64xf16, #blocked>
    tt.return
  }
}
"""


@pytest.mark.parametrize("text, spelling", [(LEGACY, Spelling.LEGACY), (CURRENT, Spelling.CURRENT)], ids=["3.1", "3.2+"])
def test_each_spelling_prints_back_as_it_came(text, spelling):
    pm = parse(text)
    assert pm.spelling is spelling
    names = [op.name for op in pm.module.walk()]
    assert "ttg.local_alloc" in names and "ttg.local_load" in names  # one internal spelling
    memdesc = func_ops(pm)["a"].results[0].type
    assert isinstance(memdesc, MemDescType) and [d.data for d in memdesc.shape.data] == [64, 64]
    out = print_module(pm)
    assert out == text
    assert print_module(pm, generic=True).count("memdesc") == text.count("memdesc")
    if spelling is Spelling.LEGACY:
        assert "ttg." not in out and "!ttg.memdesc" not in out
    else:
        assert "triton_gpu" not in out and "!tt.memdesc" not in out


def test_memdesc_spellings_are_the_same_type():
    legacy = func_ops(parse(LEGACY))["a"].results[0].type
    current = func_ops(parse(CURRENT.replace(", #smem>", ">").replace("#smem = #ttg.shared_memory\n", "")))
    current = current["a"].results[0].type
    assert isinstance(legacy, MemDescType) and isinstance(current, MemDescType)
    assert legacy.shape == current.shape and legacy.element_type == current.element_type
    assert isinstance(legacy.memory_space, NoneAttr) and isinstance(current.memory_space, NoneAttr)


def test_generic_form_keeps_the_spelling():
    for text in (LEGACY, CURRENT):
        pm = parse(text)
        generic = print_module(pm, generic=True)
        assert print_module(parse(generic)) == text
