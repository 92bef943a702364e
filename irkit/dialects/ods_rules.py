"""What Triton's ODS declares and irkit's IRDL definitions leave open: the type an operand must have
when the assembly format does not write it, and the width of integer attributes.

MLIR's parser resolves an operand the format writes no type for with the type the ODS implies
(`TypesMatchWith`, `AllTypesMatch`, a buildable type such as `I64`) and rejects a use whose
definition has another type ("use of value '%x' expects different type than prior uses"); the
op's verifier rejects the same mismatch in generic form.  irkit checks both in the verifier, from
one table per op (keyed by the op's name as the current dialect spells it).

Rule of an operand: "result" (the op's single result type), "=name" (the type of operand `name`),
"i1"/"i32"/"i64" (every value of the operand has that type), "i1-like=name" (i1, or a tensor of i1
of the shape and layout of operand `name`), "pointee=name" (what a load through operand `name` yields),
"token" (an async token), "tensor" (any ranked tensor), "memdesc" (a shared-memory descriptor),
"ptr-to-element-of-result" (tt.make_tensor_ptr's base: a pointer to the block's element type).
"""

from __future__ import annotations

from xdsl.dialects.builtin import DenseArrayBase, IntegerAttr, IntegerType, TensorType
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.utils.exceptions import VerifyException

from irkit.dialects.arith import UndefOp, llvm_compatible
from irkit.dialects.encodings import SwizzledSharedEncodingAttr
from irkit.dialects.op_rules import TensorLayoutsMatchContext, _pointee
from irkit.dialects.types import AsyncTokenType, MemDescType, PointerType

_ARITH_BINARY = ("addf addi andi ceildivsi ceildivui divf divsi divui floordivsi maximumf maxnumf maxsi maxui minimumf "
                 "minnumf minsi minui mulf muli ori remf remsi remui shli shrsi shrui subf subi xori").split()
_MATH_UNARY = ("absf absi atan ceil cos ctlz ctpop cttz erf exp exp2 expm1 floor log log1p log2 round roundeven rsqrt "
               "sin sqrt tan tanh trunc").split()

OPERAND_RULES: dict[str, dict[str, str]] = {
    **{f"arith.{n}": {"lhs": "result", "rhs": "result"} for n in _ARITH_BINARY},
    **{f"math.{n}": {"operand": "result"} for n in _MATH_UNARY},
    "arith.negf": {"operand": "result"},
    "math.atan2": {"lhs": "result", "rhs": "result"},
    "math.copysign": {"lhs": "result", "rhs": "result"},
    "math.powf": {"lhs": "result", "rhs": "result"},
    "math.ipowi": {"lhs": "result", "rhs": "result"},
    "math.fma": {"a": "result", "b": "result", "c": "result"},
    "arith.cmpi": {"rhs": "=lhs"},
    "arith.cmpf": {"rhs": "=lhs"},
    "tt.addptr": {"ptr": "result"},
    "tt.advance": {"ptr": "result", "offsets": "i32"},
    "tt.make_tensor_ptr": {"base": "ptr-to-element-of-result", "shape": "i64", "strides": "i64", "offsets": "i32"},
    "tt.make_tensor_descriptor": {"shape": "i32", "strides": "i64"},
    "tt.descriptor_load": {"indices": "i32"},
    "tt.descriptor_store": {"indices": "i32"},
    "tt.descriptor_reduce": {"indices": "i32"},
    "tt.experimental_descriptor_load": {"indices": "i32"},
    "tt.experimental_descriptor_store": {"indices": "i32"},
    "tt.approx_divf": {"y": "=x"},
    "tt.precise_divf": {"y": "=x"},
    "tt.mulhiui": {"y": "=x"},
    "tt.clampf": {"x": "result", "min": "result", "max": "result"},
    "tt.cat": {"rhs": "=lhs"},
    "tt.join": {"rhs": "=lhs"},
    "tt.dot": {"c": "result"},
    "ttng.dot_async": {"c": "result"},
    "ttng.warp_group_dot": {"c": "result", "useC": "i1"},
    "tt.histogram": {"mask": "i1-like=src"},
    "tt.atomic_store": {"mask": "i1-like=ptr", "value": "pointee=ptr"},
    "ttg.async_copy_global_to_local": {"mask": "i1-like=src", "other": "pointee=src"},
    "ttg.async_commit_group": {"inputTokens": "token"},
    "ttg.async_wait": {"asyncToken": "token"},
    "ttg.memdesc_subview": {"offsets": "i32"},
    "ttg.convert_layout": {"src": "tensor"},
    "ttg.local_load": {"src": "memdesc"},
    "ttg.local_store": {"dst": "memdesc"},
    "ttg.local_dealloc": {"src": "memdesc"},
    "ttg.memdesc_trans": {"src": "memdesc"},
    "ttng.tensormap_create": {"desc_ptr": "ptr-i8", "box_dim": "i32", "global_dim": "i32", "global_stride": "i64",
                              "element_stride": "i32"},
    "tt.experimental_tensormap_create": {"desc_ptr": "ptr-i8", "box_dim": "i32", "global_dim": "i32",
                                         "global_stride": "i64", "element_stride": "i32"},
    "ttg.memdesc_index": {"index": "i32"},
    "ttg.predicate_stage": {"ub": "=iv", "step": "=iv"},
    "ttng.async_tma_copy_global_to_local": {"coord": "i32", "pred": "i1"},
    "ttng.async_tma_copy_local_to_global": {"coord": "i32"},
    "ttng.async_tma_reduce": {"coord": "i32"},
    "ttng.arrive_barrier": {"pred": "i1"},
    "ttng.barrier_expect": {"pred": "i1"},
    "ttng.wait_barrier": {"phase": "i32", "pred": "i1"},
    "ttng.tc_gen5_commit": {"pred": "i1"},
    "amdg.cond_barrier": {"pred": "i1"},
}

# ODS attribute kinds of Triton's ops by attribute name: I32Attr, BoolAttr, DenseI32ArrayAttr
_I32_ATTRS = {"axis", "start", "end", "num", "maxNumImpreciseAcc", "alignment", "interleave_layout", "swizzle_mode",
              "fill_mode", "elem_type", "nbytes", "nbytes_alignment", "pendings"}
# I32EnumAttr cases written as integers (tt.dot's, ttng.warp_group_dot's inputPrecision: tf32 .. bf16x6)
_ENUM_RANGES = {"inputPrecision": range(0, 5)}
# ConfinedAttr<I32Attr, [IntNonNegative, IntMaxValue<N>]>: ttng.tensormap_create's CUtensorMap enums
_I32_MAX = {"elem_type": 15, "interleave_layout": 2, "swizzle_mode": 3, "fill_mode": 1}
# BoolAttr arguments of Triton's ops (3.3 to main)
_BOOL_ATTRS = {"isVolatile", "reverse", "isAsync", "pure", "bCluster", "isStore", "forceNoAlias", "abs", "NaN",
               "speculative", "lhs_k_pack", "rhs_k_pack", "relaxed", "publishClock", "multicast", "hex", "fastMath",
               "aSigned", "bSigned", "acquireStreamClock", "isBufferLoadsAEnabled", "isBufferLoadsBEnabled"}
_I32_ARRAYS = {"order"}
_TRITON_DIALECTS = ("tt.", "ttg.", "ttng.", "amdg.", "ttig.")
# The ops whose tensors' layouts Triton checks against num-warps/threads/num-ctas (VerifyTensorLayoutsTrait, on
# TT_Op, TTG_Op and TTNG_Op; tt's through irkit's trait): real 3.3.1, 3.8.0 and 3.9.0 read an arith.constant,
# math.exp, scf.if or amdg.extract_slice whose layout spans 8 warps in a 4-warp module, and reject tt.make_range's.
# TTIG_Op carries VerifyMemDescLayoutsTrait only (Intel's main, 2026; its tests load a DPAS operand of 4 warps in
# an 8-warp module).
_LAYOUT_CHECKED_ELSEWHERE = ("ttg.", "ttng.")

_I1 = IntegerType(1)
_I32 = IntegerType(32)
_I64 = IntegerType(64)


def _values(op: Operation, name: str) -> list[SSAValue]:
    v = getattr(op, name, None)
    if v is None:
        return []
    if isinstance(v, SSAValue):
        return [v]
    return list(v)


def _expected(op: Operation, rule: str) -> Attribute | str | None:
    if rule == "result":
        return op.results[0].type if len(op.results) == 1 else None
    if rule.startswith("="):
        others = _values(op, rule[1:])
        return others[0].type if others else None
    if rule.startswith("pointee="):
        others = _values(op, rule[len("pointee="):])
        return _pointee(others[0].type) if others else None
    if rule.startswith("i1-like="):
        others = _values(op, rule[len("i1-like="):])
        if not others:
            return None
        t = others[0].type
        if isinstance(t, TensorType):
            return TensorType(_I1, t.get_shape(), t.encoding)
        return _I1
    if rule == "ptr-to-element-of-result":  # tt.make_tensor_ptr: base is !tt.ptr<T> of a !tt.ptr<tensor<..xT>>
        t = op.results[0].type if len(op.results) == 1 else None
        block = t.pointee if isinstance(t, PointerType) else None
        return PointerType(block.element_type, t.address_space.data) if isinstance(block, TensorType) else None
    if rule == "ptr-i8":
        return PointerType(IntegerType(8))
    return {"i1": _I1, "i32": _I32, "i64": _I64}.get(rule, rule)


def ods_error(op: Operation) -> str | None:
    """What Triton's ODS rejects in `op` and irkit's IRDL does not check, as one message; None if nothing."""
    from irkit.frontend.printer import mlir_text

    name = op.name
    rules = OPERAND_RULES.get(name)
    if rules:
        for operand, rule in rules.items():
            expected = _expected(op, rule)
            if expected is None:
                continue
            for i, v in enumerate(_values(op, operand)):
                if expected == "memdesc":
                    if not isinstance(v.type, MemDescType):
                        return f"operand '{operand}' must be a memory descriptor, got '{mlir_text(v.type)}'"
                    continue
                if expected == "tensor":
                    if not isinstance(v.type, TensorType):
                        return f"operand '{operand}' must be a ranked tensor, got '{mlir_text(v.type)}'"
                    continue
                if expected == "token":
                    if not isinstance(v.type, AsyncTokenType):
                        return f"operand '{operand}' must be an async token, got '{mlir_text(v.type)}'"
                    continue
                if v.type != expected:
                    which = f"operand '{operand}'" + (f" #{i}" if len(_values(op, operand)) > 1 else "")
                    return (f"{which} has type '{mlir_text(v.type)}' where its form implies '{mlir_text(expected)}' "
                            "(a use whose type differs from its definition's)")
    if name.startswith(_LAYOUT_CHECKED_ELSEWHERE):
        # the layouts of the op's results and operands, as VerifyTensorLayoutsTrait (tt ops: irkit's trait)
        try:
            TensorLayoutsMatchContext().verify(op)
        except VerifyException as e:
            return str(e)
    if isinstance(op, UndefOp) and not llvm_compatible(op.res.type):
        return f"result #0 must be LLVM dialect-compatible type, but got '{mlir_text(op.res.type)}'"
    if name == "tt.call":
        problem = _callee_problem(op)
        if problem is not None:
            return problem
    if name in _BARRIER_OPS and op.operands:
        problem = _barrier_layout_problem(op.operands[0].type)
        if problem is not None:
            return problem
    if name.startswith(_TRITON_DIALECTS):
        for key, value in (*op.properties.items(), *op.attributes.items()):
            problem = _attribute_problem(key, value)
            if problem is not None:
                return f"attribute '{key}' failed to satisfy constraint: {problem}"
    return None


def _callee_problem(op: Operation) -> str | None:
    """tt.call's SymbolUserOpInterface: the callee names a function of the enclosing module."""
    from xdsl.dialects.builtin import ModuleOp, StringAttr, SymbolRefAttr

    callee = op.properties.get("callee") or op.attributes.get("callee")
    if not isinstance(callee, SymbolRefAttr):
        return "requires a 'callee' symbol reference attribute"
    module = op.parent_op()
    while module is not None and not isinstance(module, ModuleOp):
        module = module.parent_op()
    if module is None:
        return None
    target = callee.root_reference.data
    found = not callee.nested_references.data and any(
        isinstance(f.properties.get("sym_name"), StringAttr) and f.properties["sym_name"].data == target
        for block in module.body.blocks for f in block.ops)
    return None if found else f"'{callee.string_value()}' does not reference a valid function"


_BARRIER_OPS = {"ttng.init_barrier", "ttng.inval_barrier", "ttng.wait_barrier", "ttng.arrive_barrier",
                "ttng.barrier_expect"}


def _barrier_layout_problem(t: Attribute) -> str | None:
    """An mbarrier is a plain array of i64 in shared memory: its layout swizzles nothing."""
    enc = getattr(t, "encoding", None)
    if isinstance(enc, SwizzledSharedEncodingAttr) and (enc.vec, enc.per_phase, enc.max_phase) != (1, 1, 1):
        return "barrier must have a contiguous shared-memory layout without subviews"
    return None


def _attribute_problem(key: str, value: Attribute) -> str | None:
    if key in _I32_ATTRS and not (isinstance(value, IntegerAttr) and value.type == _I32):
        return "32-bit signless integer attribute"
    most = _I32_MAX.get(key)
    if most is not None and isinstance(value, IntegerAttr) and not 0 <= value.value.data <= most:
        return f"32-bit signless integer attribute whose value is non-negative whose maximum value is {most}"
    cases = _ENUM_RANGES.get(key)
    if cases is not None and isinstance(value, IntegerAttr) and (value.type != _I32 or value.value.data not in cases):
        return f"allowed 32-bit signless integer cases: {', '.join(map(str, cases))}"
    if key in _BOOL_ATTRS and isinstance(value, IntegerAttr) and value.type != _I1:
        return "bool attribute"
    if key in _I32_ARRAYS and isinstance(value, DenseArrayBase) and value.elt_type != _I32:
        return "i32 dense array attribute"
    return None

