"""arith on tensors with layouts: each pitfall of xDSL 0.74's own arith (`xdsl/dialects/arith.py`).

xDSL 0.74 gives `arith.cmpi` on a tensor a scalar i1 result (and still
verifies), rejects `arith.select` with a tensor condition and every cast on
tensors, and reads `dense<0xFF800000>` (Triton's -inf) as 4.28e9.  irkit's
arith must get all of these right; each test checks the exact type or value.
"""

from __future__ import annotations

import math
import subprocess
import sys

import pytest
from xdsl.dialects.builtin import (
    BFloat16Type,
    Float16Type,
    Float32Type,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    TensorType,
)

from irkit.dialects.builtin_extras import DenseElementsAttr
from irkit.dialects.encodings import BlockedEncodingAttr
from irkit.frontend.parser import Parser
from irkit.frontend.printer import print_module
from irkit.verifier import verify_module

LAYOUTS = {
    "blocked": "#ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>",
    "blocked1": "#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>",
    "blocked2": "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>",
}


def module(body: str, args: str = "%a: tensor<128xi32, #blocked>, %b: tensor<128xf32, #blocked>, %x: i32, %y: f32") -> str:
    """A module as irkit (and MLIR) print it: only the layout aliases it uses are defined."""
    lines = "\n".join("    " + line for line in body.strip().splitlines())
    used = "".join(f"#{n} = {v}\n" for n, v in LAYOUTS.items() if f"#{n}>" in body + args)
    return (
        used
        + 'module attributes {"ttg.num-warps" = 4 : i32} {\n'
        + f"  tt.func @f({args}) {{\n{lines}\n    tt.return\n  }}\n}}\n"
    )


def parse(text: str):
    return Parser(text, "test.mlir").parse()


def ops(pm) -> list:
    func = pm.module.body.block.first_op
    return [op for op in func.regions[0].blocks[0].ops if op.name != "tt.return"]


def blocked_of(pm):
    layout = pm.module.body.block.first_op.regions[0].blocks[0].args[0].type.encoding
    assert isinstance(layout, BlockedEncodingAttr) and layout.size_per_thread == (4,)
    return layout


def assert_round_trip(text: str) -> None:
    pm = parse(text)
    assert verify_module(pm.module) == []
    # the layout aliases under the names the module gave them (triton-opt would renumber a lone #blocked2)
    assert print_module(pm, input_aliases=True) == text
    generic = print_module(pm, generic=True, input_aliases=True)
    back = parse(generic)
    assert verify_module(back.module) == []
    assert print_module(back, input_aliases=True) == text


def verify_messages(text: str) -> list[str]:
    return [message for _, message in verify_module(parse(text).module)]


# -- comparisons ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "line, operand",
    [
        ("%c = arith.cmpi slt, %a, %a : tensor<128xi32, #blocked>", 0),
        ("%c = arith.cmpf olt, %b, %b : tensor<128xf32, #blocked>", 1),
    ],
    ids=["cmpi", "cmpf"],
)
def test_compare_on_tensor_gives_i1_tensor_with_the_operand_layout(line, operand):
    text = module(line)
    pm = parse(text)
    (cmp,) = ops(pm)
    layout = blocked_of(pm)
    assert cmp.operands[0].type.encoding == layout
    assert cmp.results[0].type == TensorType(IntegerType(1), [128], layout)
    assert_round_trip(text)


def test_compare_on_scalars_gives_i1():
    pm = parse(module("%c = arith.cmpi sge, %x, %x : i32\n%d = arith.cmpf une, %y, %y : f32"))
    assert [op.results[0].type for op in ops(pm)] == [IntegerType(1), IntegerType(1)]


@pytest.mark.parametrize(
    "result_type",
    ["i1", "tensor<128xi1>", "tensor<128xi1, #blocked1>", "tensor<64xi1, #blocked>", "tensor<128xi8, #blocked>"],
)
@pytest.mark.parametrize("op, operand", [("arith.cmpi", "%a"), ("arith.cmpf", "%b")])
def test_compare_with_a_wrong_result_type_fails_verification(op, operand, result_type):
    operand_type = "tensor<128xi32, #blocked>" if operand == "%a" else "tensor<128xf32, #blocked>"
    line = f'%c = "{op}"({operand}, {operand}) <{{predicate = 2 : i64}}> : ({operand_type}, {operand_type}) -> {result_type}'
    messages = verify_messages(module(line))
    assert len(messages) == 1 and "result must be tensor<128xi1" in messages[0], messages


def test_compare_with_a_wrong_result_type_is_a_cli_error(tmp_path):
    line = '%c = "arith.cmpi"(%a, %a) <{predicate = 2 : i64}> : (tensor<128xi32, #blocked>, tensor<128xi32, #blocked>) -> i1'
    path = tmp_path / "bad.mlir"
    path.write_text(module(line))
    proc = subprocess.run([sys.executable, "-m", "irkit.cli.opt", str(path)], capture_output=True, text=True)
    assert proc.returncode == 1
    assert proc.stderr.startswith(f"{path}:4:10: error: 'arith.cmpi' op result must be")
    assert "Traceback" not in proc.stderr and proc.stdout == ""


# -- select ----------------------------------------------------------------------------------------------


def test_select_with_a_tensor_condition():
    text = module(
        "%c = arith.cmpf olt, %b, %b : tensor<128xf32, #blocked>\n"
        "%s = arith.select %c, %b, %b : tensor<128xi1, #blocked>, tensor<128xf32, #blocked>"
    )
    pm = parse(text)
    cmp, select = ops(pm)
    layout = blocked_of(pm)
    assert select.operands[0] is cmp.results[0]
    assert select.operands[0].type == TensorType(IntegerType(1), [128], layout)
    assert select.results[0].type == TensorType(Float32Type(), [128], layout)
    assert_round_trip(text)


def test_select_with_a_scalar_condition_on_tensors():
    text = module("%c = arith.cmpi eq, %x, %x : i32\n%s = arith.select %c, %b, %b : tensor<128xf32, #blocked>")
    pm = parse(text)
    select = ops(pm)[1]
    assert select.operands[0].type == IntegerType(1)
    assert select.results[0].type == TensorType(Float32Type(), [128], blocked_of(pm))
    assert_round_trip(text)


@pytest.mark.parametrize("cond_type", ["tensor<128xi1>", "tensor<128xi1, #blocked1>", "tensor<128xi8, #blocked>"])
def test_select_with_a_wrong_condition_fails_verification(cond_type):
    args = f"%c: {cond_type}, %b: tensor<128xf32, #blocked>"
    line = f"%s = arith.select %c, %b, %b : {cond_type}, tensor<128xf32, #blocked>"
    messages = verify_messages(module(line, args))
    assert len(messages) == 1 and "condition must be i1 or tensor<128xi1" in messages[0], messages


# -- casts -------------------------------------------------------------------------------------------------

CASTS = [
    ("extsi", "i32", "i64", ""),
    ("extui", "i32", "i64", ""),
    ("trunci", "i64", "i32", ""),
    ("sitofp", "i32", "f32", ""),
    ("uitofp", "i32", "f16", ""),
    ("fptosi", "f32", "i32", ""),
    ("fptoui", "f16", "i64", ""),
    ("index_cast", "i32", "index", ""),
    ("extf", "f16", "f32", ""),
    ("truncf", "f32", "bf16", ""),
    ("truncf", "f32", "f16", " to_nearest_even"),
    ("bitcast", "f32", "i32", ""),
]
ELEMENT = {"i32": IntegerType(32), "i64": IntegerType(64), "f32": Float32Type(), "f16": Float16Type(),
           "bf16": BFloat16Type(), "index": IndexType()}


@pytest.mark.parametrize("op, src, dst, extra", CASTS, ids=[f"{c[0]}-{c[1]}-{c[2]}{c[3].strip()}" for c in CASTS])
def test_cast_on_a_tensor_keeps_shape_and_layout(op, src, dst, extra):
    args = f"%v: tensor<64x128x{src}, #blocked2>"
    line = f"%r = arith.{op} %v{extra} : tensor<64x128x{src}, #blocked2> to tensor<64x128x{dst}, #blocked2>"
    text = module(line, args)
    pm = parse(text)
    (cast,) = ops(pm)
    layout = cast.operands[0].type.encoding
    assert isinstance(layout, BlockedEncodingAttr) and layout.order == (1, 0)
    assert cast.results[0].type == TensorType(ELEMENT[dst], [64, 128], layout)
    if extra:
        assert "roundingmode" in cast.properties
    assert_round_trip(text)


@pytest.mark.parametrize("op, src, dst, extra", CASTS[:3] + CASTS[8:10], ids=[c[0] for c in CASTS[:3] + CASTS[8:10]])
@pytest.mark.parametrize("wrong", ["layout", "shape", "scalar"])
def test_cast_that_changes_shape_or_layout_fails_verification(op, src, dst, extra, wrong):
    result = {"layout": f"tensor<128x{dst}, #blocked1>", "shape": f"tensor<64x{dst}, #blocked>", "scalar": dst}[wrong]
    args = f"%v: tensor<128x{src}, #blocked>"
    line = f"%r = arith.{op} %v : tensor<128x{src}, #blocked> to {result}"
    messages = verify_messages(module(line, args))
    assert len(messages) == 1 and "must keep shape and layout" in messages[0], messages


# -- constants: -inf, f16/bf16 hex, negative integers ----------------------------------------------------------


def test_minus_infinity_splat_is_minus_infinity_and_prints_back():
    text = module("%cst = arith.constant dense<0xFF800000> : tensor<128xf32, #blocked>")
    pm = parse(text)
    (const,) = ops(pm)
    value = const.properties["value"]
    assert isinstance(value, DenseElementsAttr)
    assert value.splat_value() == -math.inf
    assert const.results[0].type == TensorType(Float32Type(), [128], blocked_of(pm))
    assert "arith.constant dense<0xFF800000> : tensor<128xf32, #blocked>" in print_module(pm)
    assert_round_trip(text)


def test_scalar_minus_infinity():
    text = module("%cst = arith.constant 0xFF800000 : f32")
    (const,) = ops(parse(text))
    value = const.properties["value"]
    assert isinstance(value, FloatAttr) and value.value.data == -math.inf
    assert_round_trip(text)


def test_a_built_minus_infinity_splat_prints_as_hex():
    pm = parse(module("%cst = arith.constant dense<0.000000e+00> : tensor<128xf32, #blocked>"))
    (const,) = ops(pm)
    const.properties["value"] = DenseElementsAttr.splat(-math.inf, const.results[0].type)
    assert "arith.constant dense<0xFF800000> : tensor<128xf32, #blocked>" in print_module(pm)


@pytest.mark.parametrize(
    "body, element, expected, printed",
    [
        ("0xFC00", "f16", -math.inf, "0xFC00"),
        ("0x7C00", "f16", math.inf, "0x7C00"),
        ("0x3C00", "f16", 1.0, "1.000000e+00"),
        ("0xC000", "f16", -2.0, "-2.000000e+00"),
        ("0xFF80", "bf16", -math.inf, "0xFF80"),
        ("0x3F80", "bf16", 1.0, "1.000000e+00"),
        ("0xC040", "bf16", -3.0, "-3.000000e+00"),
    ],
)
def test_half_precision_hex(body, element, expected, printed):
    text = module(f"%cst = arith.constant dense<{body}> : tensor<128x{element}, #blocked>")
    pm = parse(text)
    (const,) = ops(pm)
    assert const.properties["value"].splat_value() == expected
    assert const.results[0].type.element_type == ELEMENT[element]
    # as MLIR prints it back: decimal when `%.6e` reads back exactly (Triton 3.9's printer agrees)
    assert f"dense<{printed}> : tensor<128x{element}, #blocked>" in print_module(pm)
    assert_round_trip(text.replace(body, printed))


def test_half_precision_nan():
    (const,) = ops(parse(module("%cst = arith.constant dense<0x7E00> : tensor<128xf16, #blocked>")))
    assert math.isnan(const.properties["value"].splat_value())


def test_negative_integer_constant():
    text = module("%c-1_i32 = arith.constant -1 : i32\n%r = arith.addi %x, %c-1_i32 : i32")
    pm = parse(text)
    const, add = ops(pm)
    assert const.properties["value"] == IntegerAttr(-1, IntegerType(32))
    assert const.results[0].type == IntegerType(32)
    assert add.operands[1] is const.results[0]
    out = print_module(pm)
    assert "%c-1_i32 = arith.constant -1 : i32" in out
    assert_round_trip(text)


def test_out_of_range_integer_constant_is_a_parse_error():
    from irkit.frontend.lexer import ParseError

    with pytest.raises(ParseError, match="out of range"):
        parse(module("%c = arith.constant 4294967296 : i32"))


# -- fastmath and overflow flags -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "line",
    [
        "%r = arith.addf %b, %b fastmath<fast> : tensor<128xf32, #blocked>",
        "%r = arith.mulf %y, %y fastmath<nnan,ninf> : f32",
        "%r = arith.cmpf olt, %y, %y fastmath<fast> : f32",
        "%r = arith.addi %x, %x overflow<nsw> : i32",
        "%r = arith.muli %a, %a overflow<nsw, nuw> : tensor<128xi32, #blocked>",
        "%r = arith.extf %y fastmath<contract> : f32 to f64",
        "%r = math.exp2 %b fastmath<afn> : tensor<128xf32, #blocked>",
    ],
)
def test_flags_round_trip(line):
    text = module(line)
    pm = parse(text)
    (op,) = ops(pm)
    flag = line.split(" fastmath")[1] if " fastmath" in line else line.split(" overflow")[1]
    assert flag.split(" :")[0] in print_module(pm, generic=True)  # the flag is kept, not dropped
    assert_round_trip(text)


def test_flags_absent_stay_absent():
    text = module("%r = arith.addf %b, %b : tensor<128xf32, #blocked>")
    (op,) = ops(parse(text))
    assert "fastmath" not in op.properties
    assert_round_trip(text)
