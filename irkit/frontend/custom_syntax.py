"""Ops whose syntax is hand-written C++ in MLIR/Triton (no assemblyFormat).

Each op has its parse and print function next to each other here, so the two
directions stay in step.  Parsers take (parser, op class, legacy spelling,
number of results bound) and return the op; printers take (printer, op) and
write everything after the op name.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from xdsl.dialects import scf
from xdsl.dialects.builtin import (
    ArrayAttr,
    DictionaryAttr,
    FunctionType,
    IndexType,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    StringAttr,
    SymbolRefAttr,
    UnitAttr,
)
from xdsl.ir import Attribute, Block, Region, TypeAttribute

from irkit.dialects.types import AsyncTokenType
from irkit.frontend.lexer import ParseError, symbol
from irkit.frontend.spelling import Spelling
from irkit.frontend.ssa_names import ValueNames

PARSERS: dict[str, Callable] = {}
PRINTERS: dict[str, Callable] = {}


def syntax(name: str):
    def register(pair: tuple[Callable, Callable]) -> tuple[Callable, Callable]:
        PARSERS[name], PRINTERS[name] = pair
        return pair

    return register


# -- builtin.module ----------------------------------------------------------------------------


def _parse_module(p, cls, legacy, nres):
    cur = p.cur
    props = {}
    sym = cur.try_symbol()
    if sym is not None:
        props["sym_name"] = StringAttr(sym)
    attrs = {}
    if cur.try_lit("attributes"):
        attrs = p.attrs.parse_attr_entries("{", "}")
    region = p.parse_region(isolated=True)
    if not region.blocks:
        region.add_block(Block())
    return ModuleOp.create(regions=[region], attributes=attrs, properties=props)


def _print_module(pr, op):
    sym = op.properties.get("sym_name")
    if sym is not None:
        pr.w(" " + symbol(sym.data))
    if op.attributes:
        pr.w(" attributes " + pr.attr_dict_text(dict(op.attributes)))
    pr.w(" ")
    pr.print_region(op.body, entry_args=False, isolated=True)


syntax("builtin.module")((_parse_module, _print_module))

# -- tt.func -------------------------------------------------------------------------------------

_FUNC_INHERENT = {"sym_name", "function_type", "sym_visibility", "arg_attrs", "res_attrs"}


def _parse_func(p, cls, legacy, nres):
    cur = p.cur
    props: dict[str, Attribute] = {}
    vis = None
    for v in ("public", "private", "nested"):
        if cur.try_lit(v):
            vis = v
            break
    if vis is not None:
        props["sym_visibility"] = StringAttr(vis)
    spos = cur.skip()
    name = cur.try_symbol()
    if name is None:
        raise ParseError(spos, "expected function name '@...'")
    props["sym_name"] = StringAttr(name)
    cur.expect("(", "to start the argument list")
    args: list[tuple[str, Attribute, Attribute | None, int]] = []
    arg_attrs: list[DictionaryAttr] = []
    if not cur.try_lit(")"):
        while True:
            apos = cur.skip()
            d = cur.try_value_def()
            if d is None:
                # a declaration lists bare types
                t = p.attrs.parse_type()
                args.append(("", t, None, apos))
            else:
                cur.expect(":")
                t = p.attrs.parse_type()
                args.append((d[0], t, None, apos))
            a = p.attrs.parse_attr_entries("{", "}") if cur.peek() == "{" else {}
            arg_attrs.append(DictionaryAttr(a))
            loc = p.attrs.try_location()
            if loc is not None:
                args[-1] = (args[-1][0], args[-1][1], loc, apos)
            if cur.try_lit(")"):
                break
            cur.expect(",", "or ')' in the argument list")
    results: list[Attribute] = []
    res_attrs: list[DictionaryAttr] = []
    if cur.try_lit("->"):
        if cur.try_lit("("):
            if not cur.try_lit(")"):
                while True:
                    results.append(p.attrs.parse_type())
                    res_attrs.append(DictionaryAttr(p.attrs.parse_attr_entries("{", "}") if cur.peek() == "{" else {}))
                    if cur.try_lit(")"):
                        break
                    cur.expect(",")
        else:
            results.append(p.attrs.parse_type())
            res_attrs.append(DictionaryAttr({}))
    props["function_type"] = FunctionType.from_lists([t for _, t, _, _ in args], results)
    if any(d.data for d in arg_attrs):
        props["arg_attrs"] = ArrayAttr(arg_attrs)
    if any(d.data for d in res_attrs):
        props["res_attrs"] = ArrayAttr(res_attrs)
    kernel = getattr(cls, "KERNEL_KEYWORD", None)
    kernel_attr = kernel is not None and cur.try_lit("kernel")
    attrs = {}
    if cur.try_lit("attributes"):
        attrs = p.attrs.parse_attr_entries("{", "}")
    if kernel_attr:
        from xdsl.dialects.builtin import UnitAttr

        attrs[kernel] = UnitAttr()
    for k in list(attrs):
        if k in _FUNC_INHERENT:
            props[k] = attrs.pop(k)
    if cur.peek() == "{":
        if any(n == "" for n, _, _, _ in args):
            raise cur.error("a function with a body needs named arguments")
        region = p.parse_region(entry_args=args, isolated=True)
    else:
        region = Region()
    return cls.create(regions=[region], properties=props, attributes=attrs)


def _print_func(pr, op):
    vis = op.properties.get("sym_visibility")
    if vis is not None:
        pr.w(" " + vis.data)
    pr.w(" " + symbol((op.properties.get("sym_name") or op.attributes["sym_name"]).data))
    ftype: FunctionType = op.properties["function_type"]
    arg_attrs = op.properties.get("arg_attrs")
    body = op.regions[0]
    names = ValueNames(pr.o.mlir_value_names)
    if body.blocks:
        names.number(body)
    pr.scopes.append(names)
    parts = []
    for i, t in enumerate(ftype.inputs.data):
        if body.blocks:
            arg = body.blocks.first.args[i]
            s = f"{pr.value(arg)}: {pr.type(t)}"
        else:
            s = pr.type(t)
        if arg_attrs is not None and arg_attrs.data[i].data:
            s += " " + pr.attr_dict_text(dict(arg_attrs.data[i].data))
        if body.blocks and pr.o.debuginfo:
            s += " " + pr.inline_location(body.blocks.first.args[i].location)
        parts.append(s)
    pr.w("(" + ", ".join(parts) + ")")
    outs = list(ftype.outputs.data)
    if outs:
        res_attrs = op.properties.get("res_attrs")
        rs = []
        for i, t in enumerate(outs):
            s = pr.type(t)
            if res_attrs is not None and res_attrs.data[i].data:
                s += " " + pr.attr_dict_text(dict(res_attrs.data[i].data))
            rs.append(s)
        bare = len(rs) == 1 and res_attrs is None and not isinstance(outs[0], FunctionType)
        pr.w(" -> " + (rs[0] if bare else "(" + ", ".join(rs) + ")"))
    extra = {k: v for k, v in op.properties.items() if k not in _FUNC_INHERENT}
    extra.update((k, v) for k, v in op.attributes.items() if k not in _FUNC_INHERENT)
    kernel = getattr(type(op), "KERNEL_KEYWORD", None)
    if kernel is not None and extra.pop(kernel, None) is not None:
        pr.w(" kernel")  # gpu.func: `kernel` stands for the gpu.kernel unit attribute
    if extra:
        pr.w(" attributes " + pr.attr_dict_text(extra))
    if body.blocks:
        pr.w(" ")
        # the names were numbered above; print the body in that scope
        pr.print_region(body, entry_args=False)
    pr.scopes.pop()


syntax("tt.func")((_parse_func, _print_func))


# -- tt.call -----------------------------------------------------------------------------------------


def _parse_call(p, cls, legacy, nres):
    cur = p.cur
    spos = cur.skip()
    callee = cur.try_symbol()
    if callee is None:
        raise ParseError(spos, "expected callee '@...'")
    cur.expect("(")
    uses = p._use_list()
    cur.expect(")")
    attrs = p.optional_attr_dict()
    cur.expect(":")
    tpos = cur.skip()
    ft = p.attrs.parse_type("function type")
    if not isinstance(ft, FunctionType) or len(ft.inputs.data) != len(uses):
        raise ParseError(tpos, "expected a function type matching the call's arguments")
    operands = [p.lookup(n, i, pos, t) for (n, i, pos), t in zip(uses, ft.inputs.data)]
    props = {"callee": SymbolRefAttr(callee)}
    return cls.create(operands=operands, result_types=list(ft.outputs.data), properties=props, attributes=attrs)


def _print_call(pr, op):
    pr.w(" " + pr.attribute(op.properties["callee"]) + "(" + pr.values(op.operands) + ")")
    if op.attributes:
        pr.w(" " + pr.attr_dict_text(dict(op.attributes)))
    ins = ", ".join(pr.type(v.type) for v in op.operands)
    pr.w(f" : ({ins}) -> " + pr.result_types([r.type for r in op.results]))


syntax("tt.call")((_parse_call, _print_call))


# -- scf.for -------------------------------------------------------------------------------------------


def _ensure_terminator(region: Region) -> None:
    """MLIR elides a `scf.yield` without operands; put it back (in a block of its own when the region
    was written `{}`, as MLIR's ensureTerminator does)."""
    if not region.blocks:
        region.add_block(Block())
    for block in region.blocks:
        last = block.last_op
        if last is None or last.name not in ("scf.yield", "scf.condition"):
            block.add_op(scf.YieldOp.create())


def _parse_for(p, cls, legacy, nres):
    cur = p.cur
    unsigned = cur.try_lit("unsigned")
    ivpos = cur.skip()
    iv = cur.try_value_def()
    if iv is None or ":" in cur.text[ivpos : cur.pos]:
        raise ParseError(ivpos, "expected induction variable '%name ='")
    cur.expect("=")
    lb_pos = cur.skip()
    lb_use = (cur.value_use(), cur.pos)
    cur.expect("to")
    ub_pos = cur.skip()
    ub_use = (cur.value_use(), cur.pos)
    cur.expect("step")
    st_pos = cur.skip()
    st_use = (cur.value_use(), cur.pos)
    inits: list[tuple[str, tuple[str, int], int]] = []
    types: list[Attribute] = []
    if cur.try_lit("iter_args"):
        cur.expect("(")
        # `iter_args() -> ()` (Triton's tests write it): no values, and the loop prints without them
        while not cur.try_lit(")"):
            apos = cur.skip()
            d = cur.try_value_def()
            if d is None:
                raise cur.error("expected iter_args name")
            if ":" in cur.text[apos : cur.pos]:  # `%x:3` binds results, never a region argument
                raise ParseError(apos, "expected '=' after a region argument name (no ':N' result count here)")
            cur.expect("=")
            upos = cur.skip()
            u = cur.value_use()
            inits.append((d[0], u, upos if apos else upos))
            if cur.try_lit(")"):
                break
            cur.expect(",")
        cur.expect("->")
        types = p.attrs.parse_result_types()
        if len(types) != len(inits):
            raise cur.error(f"iter_args has {len(inits)} values but {len(types)} types")
    iv_type: Attribute = IndexType()
    if cur.try_lit(":"):
        iv_type = p.attrs.parse_type()
    lb = p.lookup(lb_use[0][0], lb_use[0][1], lb_pos, iv_type)
    ub = p.lookup(ub_use[0][0], ub_use[0][1], ub_pos, iv_type)
    step = p.lookup(st_use[0][0], st_use[0][1], st_pos, iv_type)
    init_vals = [p.lookup(u[0], u[1], pos, t) for (_, u, pos), t in zip(inits, types)]
    entry = [(iv[0], iv_type, None, ivpos)] + [(n, t, None, pos) for (n, _, pos), t in zip(inits, types)]
    body = p.parse_region(entry_args=entry)
    _ensure_terminator(body)
    attrs = p.optional_attr_dict()
    props = {}
    if unsigned:
        attrs["unsignedCmp"] = UnitAttr()
    return cls.create(operands=[lb, ub, step, *init_vals], result_types=types, regions=[body], attributes=attrs, properties=props)


def _print_for(pr, op):
    body = op.body.block
    if "unsignedCmp" in op.attributes:
        pr.w(" unsigned")
    pr.w(f" {pr.value(body.args[0])} = {pr.value(op.lb)} to {pr.value(op.ub)} step {pr.value(op.step)}")
    if op.iter_args:
        pairs = ", ".join(f"{pr.value(a)} = {pr.value(v)}" for a, v in zip(body.args[1:], op.iter_args))
        pr.w(f" iter_args({pairs}) -> (" + ", ".join(pr.type(v.type) for v in op.iter_args) + ")")
    pr.w(" ")
    if not isinstance(op.lb.type, IndexType):
        pr.w(" : " + pr.type(op.lb.type) + " ")  # MLIR's spacing: `step %c  : i32 {`
    pr.print_region(op.body, entry_args=False, terminators=bool(op.iter_args))
    attrs = {k: v for k, v in op.attributes.items() if k != "unsignedCmp"}
    if attrs:
        pr.w(" " + pr.attr_dict_text(attrs))


syntax("scf.for")((_parse_for, _print_for))


# -- scf.if ----------------------------------------------------------------------------------------------


def _parse_if(p, cls, legacy, nres):
    cur = p.cur
    cond = p.operand(IntegerType(1))
    types: list[Attribute] = []
    if cur.try_lit("->"):
        types = p.attrs.parse_result_types()
    then = p.parse_region()
    els = Region()
    has_else = cur.try_lit("else")
    if has_else:
        els = p.parse_region()
    if not types:
        _ensure_terminator(then)
        if has_else:
            _ensure_terminator(els)
    attrs = p.optional_attr_dict()
    return cls.create(operands=[cond], result_types=types, regions=[then, els], attributes=attrs)


def _print_if(pr, op):
    pr.w(" " + pr.value(op.cond))
    if op.results:
        pr.w(" -> (" + ", ".join(pr.type(r.type) for r in op.results) + ")")
    pr.w(" ")
    has_results = bool(op.results)
    pr.print_region(op.true_region, terminators=has_results)
    els = op.false_region
    if els.blocks and (has_results or len(list(els.blocks.first.ops)) > 1 or els.blocks.first.last_op is None
                       or els.blocks.first.last_op.operands):
        pr.w(" else ")
        pr.print_region(els, terminators=has_results)
    if op.attributes:
        pr.w(" " + pr.attr_dict_text(dict(op.attributes)))


syntax("scf.if")((_parse_if, _print_if))


# -- scf.while -------------------------------------------------------------------------------------------------


def _parse_while(p, cls, legacy, nres):
    cur = p.cur
    inits = []
    # MLIR leaves out the initialization list when there are no loop-carried values: `scf.while : () -> ()`
    if cur.try_lit("(") and not cur.try_lit(")"):
        while True:
            apos = cur.skip()
            d = cur.try_value_def()
            if d is None or ":" in cur.text[apos : cur.pos]:
                raise ParseError(apos, "expected argument name '%name ='")
            cur.expect("=")
            upos = cur.skip()
            u = cur.value_use()
            inits.append((d[0], u, upos, apos))
            if cur.try_lit(")"):
                break
            cur.expect(",")
    cur.expect(":")
    ft = p.attrs.parse_type("function type")
    if not isinstance(ft, FunctionType) or len(ft.inputs.data) != len(inits):
        raise cur.error("expected a function type matching the while's arguments")
    vals = [p.lookup(u[0], u[1], upos, t) for (_, u, upos, _), t in zip(inits, ft.inputs.data)]
    before = p.parse_region(entry_args=[(n, t, None, apos) for (n, _, _, apos), t in zip(inits, ft.inputs.data)])
    cur.expect("do")
    after = p.parse_region()
    attrs = {}
    if cur.try_lit("attributes"):
        attrs = p.attrs.parse_attr_entries("{", "}")
    return cls.create(operands=vals, result_types=list(ft.outputs.data), regions=[before, after], attributes=attrs)


def _print_while(pr, op):
    before = op.before_region.blocks.first
    pairs = ", ".join(f"{pr.value(a)} = {pr.value(v)}" for a, v in zip(before.args, op.arguments))
    ins = ", ".join(pr.type(v.type) for v in op.arguments)
    pr.w((f" ({pairs})" if op.arguments else "") + f" : ({ins}) -> " + pr.result_types([r.type for r in op.results]) + " ")
    pr.print_region(op.before_region, entry_args=False)
    pr.w(" do ")
    pr.print_region(op.after_region, entry_args=True)
    if op.attributes:
        pr.w(" attributes " + pr.attr_dict_text(dict(op.attributes)))


syntax("scf.while")((_parse_while, _print_while))


def _parse_execute_region(p, cls, legacy, nres):
    types = p.attrs.parse_result_types() if p.cur.try_lit("->") else []
    # MLIR 21+: `no_inline` keeps the region from being inlined by canonicalization (Triton's warp pipeline)
    no_inline = p.cur.try_lit("no_inline")
    region = p.parse_region()
    attrs = p.optional_attr_dict()
    if no_inline:
        attrs["no_inline"] = UnitAttr()
    return cls.create(result_types=types, regions=[region], attributes=attrs)


def _print_execute_region(pr, op):
    if op.results:
        pr.w(" -> " + pr.result_types([r.type for r in op.results]))
    if "no_inline" in op.attributes:
        pr.w(" no_inline")
    pr.w(" ")
    pr.print_region(op.region)
    attrs = {k: v for k, v in op.attributes.items() if k != "no_inline"}
    if attrs:
        pr.w(" " + pr.attr_dict_text(attrs))


syntax("scf.execute_region")((_parse_execute_region, _print_execute_region))


# -- cf ------------------------------------------------------------------------------------------------------------


def _successor_with_args(p):
    cur = p.cur
    pos = cur.skip()
    label = cur.try_block_id()
    if label is None:
        raise cur.error("expected block reference")
    block = p.block_ref(label, pos)
    args = []
    if cur.try_lit("("):
        uses = p._use_list()
        cur.expect(":")
        ts = [p.attrs.parse_type()]
        while cur.try_lit(","):
            ts.append(p.attrs.parse_type())
        cur.expect(")")
        if len(ts) != len(uses):
            raise cur.error("branch operands and types differ in number")
        args = [p.lookup(n, i, upos, t) for (n, i, upos), t in zip(uses, ts)]
    return block, args


def _print_successor(pr, block: Block, args) -> str:
    s = pr.block_name(block)
    if args:
        s += "(" + pr.values(args) + " : " + ", ".join(pr.type(a.type) for a in args) + ")"
    return s


def _parse_br(p, cls, legacy, nres):
    block, args = _successor_with_args(p)
    attrs = p.optional_attr_dict()
    return cls.create(operands=args, successors=[block], attributes=attrs)


def _print_br(pr, op):
    pr.w(" " + _print_successor(pr, op.successor, op.arguments))


def _parse_cond_br(p, cls, legacy, nres):
    from xdsl.dialects.builtin import DenseArrayBase

    cond = p.operand(IntegerType(1))
    p.cur.expect(",")
    then_b, then_args = _successor_with_args(p)
    p.cur.expect(",")
    else_b, else_args = _successor_with_args(p)
    attrs = p.optional_attr_dict()
    props = {"operandSegmentSizes": DenseArrayBase.from_list(IntegerType(32), [1, len(then_args), len(else_args)])}
    return cls.create(operands=[cond, *then_args, *else_args], successors=[then_b, else_b], properties=props, attributes=attrs)


def _print_cond_br(pr, op):
    pr.w(f" {pr.value(op.cond)}, {_print_successor(pr, op.then_block, op.then_arguments)}, "
         f"{_print_successor(pr, op.else_block, op.else_arguments)}")


syntax("cf.br")((_parse_br, _print_br))
syntax("cf.cond_br")((_parse_cond_br, _print_cond_br))
syntax("llvm.br")((_parse_br, _print_br))  # gpu-to-llvm's loops: the same syntax as cf's
syntax("llvm.cond_br")((_parse_cond_br, _print_cond_br))


# -- arith.constant / arith.select ---------------------------------------------------------------------------------


def _parse_constant(p, cls, legacy, nres):
    attrs = p.optional_attr_dict()
    pos = p.cur.skip()
    value = p.attrs.parse_attribute("constant value")
    t = getattr(value, "type", None)  # `true`/`false` are i1 IntegerAttrs, so typed too
    if not isinstance(t, TypeAttribute):
        raise ParseError(pos, "arith.constant needs a typed value, e.g. '0 : i32'")
    return cls.create(result_types=[t], properties={"value": value}, attributes=attrs)


def _print_constant(pr, op):
    if op.attributes:
        pr.w(" " + pr.attr_dict_text(dict(op.attributes)))
    pr.w(" " + pr.attribute(op.properties["value"]))


syntax("arith.constant")((_parse_constant, _print_constant))


def _parse_select(p, cls, legacy, nres):
    cur = p.cur
    cpos = cur.skip()
    c = cur.value_use()
    cur.expect(",")
    apos = cur.skip()
    a = cur.value_use()
    cur.expect(",")
    bpos = cur.skip()
    b = cur.value_use()
    attrs = p.optional_attr_dict()
    cur.expect(":")
    t1 = p.attrs.parse_type()
    cond_t: Attribute = IntegerType(1)
    result_t = t1
    if cur.try_lit(","):
        cond_t, result_t = t1, p.attrs.parse_type()
    ops = [p.lookup(c[0], c[1], cpos, cond_t), p.lookup(a[0], a[1], apos, result_t), p.lookup(b[0], b[1], bpos, result_t)]
    return cls.create(operands=ops, result_types=[result_t], attributes=attrs)


def _print_select(pr, op):
    pr.w(f" {pr.values(op.operands)}")
    if op.attributes:
        pr.w(" " + pr.attr_dict_text(dict(op.attributes)))
    ct = op.condition.type
    if ct == IntegerType(1):
        pr.w(" : " + pr.type(op.result.type))
    else:
        pr.w(f" : {pr.type(ct)}, {pr.type(op.result.type)}")


syntax("arith.select")((_parse_select, _print_select))

__all__ = ["PARSERS", "PRINTERS"]


# -- ttg.async_commit_group: `tokens` keyword since Triton 3.4 ------------------------------------------


_DEFINES_NEXT = re.compile(r"(:\d+\s*)?=")


def _parse_commit_group(p, cls, legacy, nres):
    from irkit.dialects.types import AsyncTokenType

    keyword = p.cur.try_lit("tokens")
    start = p.cur.pos
    uses = p._use_list()
    if uses and not keyword and _DEFINES_NEXT.match(p.cur.text, p.cur.skip()):
        # `%1 = ttg.async_commit_group` then `%2 = ...`: the names belong to the next op's results
        p.cur.pos = start
        uses = []
    if uses:  # only a commit group with tokens shows which syntax the file has
        p.variants[cls.name] = "tokens" if keyword else "plain"
    vals = [p.lookup(n, i, pos) for n, i, pos in uses]
    attrs = p.optional_attr_dict()
    return cls.create(operands=vals, result_types=[AsyncTokenType()], attributes=attrs)


def _print_commit_group(pr, op):
    if op.operands:
        variant = pr.o.variants.get(op.name)
        keyword = variant == "tokens" or (variant is None and pr.o.spelling is Spelling.CURRENT)
        pr.w((" tokens " if keyword else " ") + pr.values(op.operands))
    if op.attributes:
        pr.w(" " + pr.attr_dict_text(dict(op.attributes)))


syntax("ttg.async_commit_group")((_parse_commit_group, _print_commit_group))


# -- Blackwell tensor-memory ops: custom<Token>, custom<BarriersAndPreds> (Triton 3.9) ---------------------------
# custom<Token>($dep, type($token)): `[%dep]` (or `[]`) right after the memdesc when the op returns an async token,
# nothing when it does not.  custom<BarriersAndPreds>: `, %bar[%pred]` per barrier.


def _split_inherent(cls, attrs: dict[str, Attribute]) -> tuple[dict[str, Attribute], dict[str, Attribute]]:
    declared = cls.get_irdl_definition().properties
    props = {k: v for k, v in attrs.items() if k in declared}
    return props, {k: v for k, v in attrs.items() if k not in declared}


def _use(p):
    pos = p.cur.skip()
    name, index = p.cur.value_use()
    return name, index, pos


def _resolve(p, use, t=None):
    return p.lookup(use[0], use[1], use[2], t)


def _parse_token(p):
    """(has token result, dep use or None)."""
    if not p.cur.try_lit("["):
        return False, None
    dep = None if p.cur.peek() == "]" else _use(p)
    p.cur.expect("]")
    return True, dep


def _print_token(pr, op, dep) -> None:
    if op.results and any(isinstance(r.type, AsyncTokenType) for r in op.results):
        pr.w("[" + (pr.value(dep) if dep is not None else "") + "]")


def _parse_barriers(p):
    bars = []
    while True:
        save = p.cur.pos
        if not p.cur.try_lit(","):
            break
        if p.cur.peek() != "%":
            p.cur.pos = save
            break
        bar = _use(p)
        pred = None  # Triton 3.3: a barrier without a predicate
        if p.cur.try_lit("["):
            pred = _use(p)
            p.cur.expect("]")
        bars.append((bar, pred))
    return bars


def _print_barriers(pr, op) -> None:
    preds = list(op.barrier_preds)
    for i, bar in enumerate(op.barriers):
        pr.w(f", {pr.value(bar)}" + (f"[{pr.value(preds[i])}]" if i < len(preds) else ""))


def _type_list(p) -> list[Attribute]:
    types = [p.attrs.parse_type()]
    while p.cur.try_lit(","):
        types.append(p.attrs.parse_type())
    return types


def _segments(*sizes: int):
    from xdsl.dialects.builtin import DenseArrayBase

    return DenseArrayBase.from_list(IntegerType(32), list(sizes))


def _parse_tmem_load(p, cls, legacy, nres):
    src = _use(p)
    has_token, dep = _parse_token(p)
    props, attrs = _split_inherent(cls, p.optional_attr_dict())
    p.cur.expect(":")
    src_t = p.attrs.parse_type()
    p.cur.expect("->")
    res_t = p.attrs.parse_type()
    red_t = [p.attrs.parse_type()] if p.cur.try_lit(",") else []
    operands = [_resolve(p, src, src_t)] + ([_resolve(p, dep, AsyncTokenType())] if dep else [])
    results = [res_t] + ([AsyncTokenType()] if has_token else []) + red_t
    props["resultSegmentSizes"] = _segments(1, int(has_token), len(red_t))
    return cls.create(operands=operands, result_types=results, properties=props, attributes=attrs)


def _print_tmem_load(pr, op):
    pr.w(" " + pr.value(op.src))
    _print_token(pr, op, op.dep)
    _print_inherent_dict(pr, op, {"resultSegmentSizes"})
    pr.w(f" : {pr.type(op.src.type)} -> {pr.type(op.result.type)}")
    if op.red is not None:
        pr.w(", " + pr.type(op.red.type))


def _parse_tmem_store(p, cls, legacy, nres):
    src = _use(p)
    p.cur.expect(",")
    dst = _use(p)
    has_token, dep = _parse_token(p)
    p.cur.expect(",")
    pred = _use(p)
    props, attrs = _split_inherent(cls, p.optional_attr_dict())
    p.cur.expect(":")
    src_t = p.attrs.parse_type()
    p.cur.expect("->")
    dst_t = p.attrs.parse_type()
    operands = [_resolve(p, dst, dst_t)] + ([_resolve(p, dep, AsyncTokenType())] if dep else [])
    operands += [_resolve(p, src, src_t), _resolve(p, pred, IntegerType(1))]
    return cls.create(operands=operands, result_types=[AsyncTokenType()] if has_token else [],
                      properties=props, attributes=attrs)


def _print_tmem_store(pr, op):
    pr.w(f" {pr.value(op.src)}, {pr.value(op.dst)}")
    _print_token(pr, op, op.dep)
    pr.w(", " + pr.value(op.pred))
    _print_inherent_dict(pr, op, set())
    pr.w(f" : {pr.type(op.src.type)} -> {pr.type(op.dst.type)}")


def _parse_gen5_mma(p, cls, legacy, nres):
    scaled = cls.name.endswith("_scaled")
    a = _use(p)
    p.cur.expect(",")
    b = _use(p)
    p.cur.expect(",")
    d = _use(p)
    has_token, dep = _parse_token(p)
    p.cur.expect(",")
    scales = []
    if scaled:
        scales = [_use(p)]
        p.cur.expect(",")
        scales.append(_use(p))
        p.cur.expect(",")
    use_d = _use(p)
    p.cur.expect(",")
    pred = _use(p)
    props: dict[str, Attribute] = {}
    if scaled:
        from irkit.dialects.tt import SCALE_DOT_ELEM

        p.cur.expect("lhs")
        p.cur.expect("=")
        props["a_type"] = SCALE_DOT_ELEM.parse(p)
        p.cur.expect("rhs")
        p.cur.expect("=")
        props["b_type"] = SCALE_DOT_ELEM.parse(p)
    bars = _parse_barriers(p)
    more, attrs = _split_inherent(cls, p.optional_attr_dict())
    props.update(more)
    p.cur.expect(":")
    tpos = p.cur.skip()
    types = _type_list(p)
    fixed = 5 if scaled else 3
    if len(types) == 1 and isinstance(types[0], FunctionType):
        # Triton 3.3: `%a, %b, %d, %useD, %pred(, %barrier)? : (every operand's type) -> ()`
        inputs = list(types[0].inputs.data)
        if len(inputs) != fixed + 2 + len(bars):
            raise ParseError(tpos, f"expected {fixed + 2 + len(bars)} operand types, found {len(inputs)}")
        types = inputs[:fixed] + inputs[fixed + 2:]
        p.variants[cls.name] = "functional"
    if len(types) != fixed + len(bars):
        raise p.cur.error(f"expected {fixed + len(bars)} types, found {len(types)}")
    ops = [_resolve(p, a, types[0]), _resolve(p, b, types[1]), _resolve(p, d, types[2])]
    if dep is not None:
        ops.append(_resolve(p, dep, AsyncTokenType()))
    ops += [_resolve(p, s, t) for s, t in zip(scales, types[3:5])]
    ops += [_resolve(p, use_d, IntegerType(1)), _resolve(p, pred, IntegerType(1))]
    ops += [_resolve(p, bar, t) for (bar, _), t in zip(bars, types[fixed:])]
    bar_preds = [bp for _, bp in bars if bp is not None]
    ops += [_resolve(p, bp, IntegerType(1)) for bp in bar_preds]
    head = [1, 1, 1, int(dep is not None)] + ([1, 1] if scaled else [])
    props["operandSegmentSizes"] = _segments(*head, 1, 1, len(bars), len(bar_preds))
    return cls.create(operands=ops, result_types=[AsyncTokenType()] if has_token else [],
                      properties=props, attributes=attrs)


def _print_gen5_mma(pr, op):
    scaled = op.name.endswith("_scaled")
    pr.w(f" {pr.value(op.a)}, {pr.value(op.b)}, {pr.value(op.d)}")
    _print_token(pr, op, op.acc_dep)
    if scaled:
        pr.w(f", {pr.value(op.a_scale)}, {pr.value(op.b_scale)}")
    pr.w(f", {pr.value(op.useD)}, {pr.value(op.pred)}")
    if scaled:
        from irkit.dialects.tt import SCALE_DOT_ELEM

        pr.w(f" lhs = {SCALE_DOT_ELEM.print(pr, op.properties['a_type'])}"
             f" rhs = {SCALE_DOT_ELEM.print(pr, op.properties['b_type'])}")
    _print_barriers(pr, op)
    _print_inherent_dict(pr, op, {"operandSegmentSizes", "a_type", "b_type"})
    types = [op.a.type, op.b.type, op.d.type]
    if scaled:
        types += [op.a_scale.type, op.b_scale.type]
    if pr.o.variants.get(op.name) == "functional":
        types += [op.useD.type, op.pred.type, *(b.type for b in op.barriers)]
        pr.w(" : (" + ", ".join(pr.type(t) for t in types) + ") -> ()")
        return
    types += [b.type for b in op.barriers]
    pr.w(" : " + ", ".join(pr.type(t) for t in types))


def _print_inherent_dict(pr, op, skip: set[str]) -> None:
    merged = {k: v for k, v in op.properties.items() if k not in skip}
    merged.update(op.attributes)
    if merged:
        pr.w(" " + pr.attr_dict_text(merged))


syntax("ttng.tmem_load")((_parse_tmem_load, _print_tmem_load))
syntax("ttng.tmem_store")((_parse_tmem_store, _print_tmem_store))
syntax("ttng.tc_gen5_mma")((_parse_gen5_mma, _print_gen5_mma))
syntax("ttng.tc_gen5_mma_scaled")((_parse_gen5_mma, _print_gen5_mma))


# -- ttg.barrier <addrspace bits> (Triton 3.9) -------------------------------------------------------------------

# TTG_AddrSpace, an I32BitEnumAttr: `all` (the group) prints before single bits, `none` is 0
_ADDR_SPACE_BITS = (("local", 1), ("global_read", 2), ("global_write", 4), ("tensor_read", 8), ("tensor_write", 16))
_ADDR_SPACE_ALL = 0b11111


def _parse_barrier(p, cls, legacy, nres):
    from xdsl.dialects.builtin import IntegerAttr

    value = 0
    names = dict(_ADDR_SPACE_BITS, all=_ADDR_SPACE_ALL, none=0)
    while True:
        pos = p.cur.skip()
        word = p.cur.try_keyword()
        if word not in names:
            raise ParseError(pos, f"expected an address space ({', '.join(names)}), found {word or p.cur._describe_next()}")
        value |= names[word]
        if not p.cur.try_lit("|"):
            break
    props, attrs = _split_inherent(cls, p.optional_attr_dict())
    props["addrSpace"] = IntegerAttr(value, IntegerType(32))
    return cls.create(properties=props, attributes=attrs)


def _print_barrier(pr, op):
    space = op.properties.get("addrSpace")
    value = space.value.data if space is not None else 0
    words = []
    if value & _ADDR_SPACE_ALL == _ADDR_SPACE_ALL:
        words.append("all")
        value &= ~_ADDR_SPACE_ALL
    words += [w for w, bit in _ADDR_SPACE_BITS if value & bit]
    pr.w(" " + ("|".join(words) if words else "none"))
    _print_inherent_dict(pr, op, {"addrSpace"})


syntax("ttg.barrier")((_parse_barrier, _print_barrier))


# -- ttg.warp_specialize (Triton 3.4+) --------------------------------------------------------------------------
#   ttg.warp_specialize(%captures) attributes {...}
#   default { ... }
#   partition0(%arg: T loc(...), ...) num_warps(4) { ... }
#   ... : (capture types) -> (result types)
# The captures are operands of the ttg.warp_specialize.partitions op inside `partitionOpHolder`.


def _parse_warp_specialize(p, cls, legacy, nres):
    from xdsl.dialects.builtin import DenseArrayBase

    from irkit.dialects.ttg import WarpSpecializePartitionsOp

    cur = p.cur
    cur.expect("(")
    uses = p._use_list()
    cur.expect(")")
    attrs = p.attrs.parse_attr_entries("{", "}") if cur.try_lit("attributes") else {}
    cur.expect("default")
    default = p.parse_region()
    partitions: list[Region] = []
    num_warps: list[int] = []
    while True:
        pos = cur.skip()
        word = cur.try_keyword()
        if word is None:
            break
        if word != f"partition{len(partitions)}":
            raise ParseError(pos, f"expected 'partition{len(partitions)}', found '{word}'")
        args = p.typed_args("partition argument")
        cur.expect("num_warps")
        cur.expect("(")
        num_warps.append(cur.integer())
        cur.expect(")")
        partitions.append(p.parse_region(entry_args=args, isolated=True))
    cur.expect(":")
    tpos = cur.skip()
    ft = p.attrs.parse_type("function type")
    if not isinstance(ft, FunctionType) or len(ft.inputs.data) != len(uses):
        raise ParseError(tpos, "expected a function type matching the captures")
    captures = [p.lookup(n, i, upos, t) for (n, i, upos), t in zip(uses, ft.inputs.data)]
    holder = Region(Block())
    holder.block.add_op(WarpSpecializePartitionsOp.create(operands=captures, regions=partitions))
    props, attrs = _split_inherent(cls, attrs)
    props["partitionNumWarps"] = DenseArrayBase.from_list(IntegerType(32), num_warps)
    return cls.create(result_types=list(ft.outputs.data), regions=[default, holder], properties=props,
                      attributes=attrs)


def _print_warp_specialize(pr, op):
    holder = op.regions[1].blocks.first.last_op if op.regions[1].blocks else None
    captures = list(holder.operands) if holder is not None else []
    partitions = list(holder.regions) if holder is not None else []
    pr.w("(" + pr.values(captures) + ")")
    extra = {k: v for k, v in op.properties.items() if k != "partitionNumWarps"}
    extra.update(op.attributes)
    if extra:
        pr.w(" attributes " + pr.attr_dict_text(extra))
    pr.newline()
    pr.w("default ")
    pr.print_region(op.regions[0])
    num_warps = op.properties["partitionNumWarps"].get_values()
    for i, region in enumerate(partitions):
        pr.newline()
        args = region.blocks.first.args if region.blocks else ()
        parts = []
        for a in args:
            s = f"{pr.value(a)}: {pr.type(a.type)}"
            if pr.o.debuginfo:
                s += " " + pr.inline_location(a.location)
            parts.append(s)
        pr.w(f"partition{i}(" + ", ".join(parts) + f") num_warps({num_warps[i]}) ")
        pr.print_region(region, entry_args=False)
    ins = ", ".join(pr.type(v.type) for v in captures)
    pr.w(f" : ({ins}) -> " + pr.result_types([r.type for r in op.results]))


syntax("ttg.warp_specialize")((_parse_warp_specialize, _print_warp_specialize))


# -- nvws.warp_group: `nvws.warp_group attributes {...}` then `partitionN num_warps(K) { ... }` per region


def _parse_warp_group(p, cls, legacy, nres):
    from xdsl.dialects.builtin import DenseArrayBase

    cur = p.cur
    attrs = p.attrs.parse_attr_entries("{", "}") if cur.try_lit("attributes") else {}
    regions: list[Region] = []
    num_warps: list[int] = []
    while cur.try_lit(f"partition{len(regions)}"):
        cur.expect("num_warps")
        cur.expect("(")
        num_warps.append(cur.integer())
        cur.expect(")")
        regions.append(p.parse_region())
    props, attrs = _split_inherent(cls, attrs)
    props["numWarps"] = DenseArrayBase.from_list(IntegerType(32), num_warps)
    return cls.create(regions=regions, properties=props, attributes=attrs)


def _print_warp_group(pr, op):
    extra = {k: v for k, v in op.properties.items() if k != "numWarps"}
    extra.update(op.attributes)
    if extra:
        pr.w(" attributes " + pr.attr_dict_text(extra))
    for i, (region, warps) in enumerate(zip(op.regions, op.properties["numWarps"].get_values())):
        pr.newline()
        pr.w(f"partition{i} num_warps({warps}) ")
        pr.print_region(region, entry_args=False)


syntax("nvws.warp_group")((_parse_warp_group, _print_warp_group))


# -- llvm.intr.assume: `%c : i1`; the operand bundles (none in Triton's IR) are op_bundle_sizes = array<i32> ---


def _parse_assume(p, cls, legacy, nres):
    from xdsl.dialects.builtin import DenseArrayBase

    cond = _use(p)
    props, attrs = _split_inherent(cls, p.optional_attr_dict())
    p.cur.expect(":")
    t = p.attrs.parse_type()
    if not attrs and not props:  # the format of Triton 3.9's MLIR: `$cond : type($cond) attr-dict`
        props, attrs = _split_inherent(cls, p.optional_attr_dict())
        if props or attrs:
            p.variants[cls.name] = "attributes after the type"
    props.setdefault("op_bundle_sizes", DenseArrayBase.from_list(IntegerType(32), []))
    return cls.create(operands=[_resolve(p, cond, t)], properties=props, attributes=attrs)


def _print_assume(pr, op):
    pr.w(" " + pr.value(op.cond))
    if pr.o.variants.get(op.name) == "attributes after the type":
        pr.w(" : " + pr.type(op.cond.type))
        _print_inherent_dict(pr, op, {"op_bundle_sizes", "op_bundle_tags"})
        return
    _print_inherent_dict(pr, op, {"op_bundle_sizes", "op_bundle_tags"})
    pr.w(" : " + pr.type(op.cond.type))


syntax("llvm.intr.assume")((_parse_assume, _print_assume))

# -- llvm.mlir.global: `<linkage> [visibility] [thread_local] [unnamed_addr] [constant] @name(<value>?) {attrs}
# : type [initializer region]` (MLIR's GlobalOp::print); enum keywords, by their stored integer values

_LINKAGES = ("private", "internal", "available_externally", "linkonce", "weak", "common", "appending",
             "extern_weak", "linkonce_odr", "weak_odr", "external")
_VISIBILITIES = ("", "hidden", "protected")
_UNNAMED_ADDRS = ("", "local_unnamed_addr", "unnamed_addr")
_GLOBAL_KEYWORDS = {"sym_name", "global_type", "linkage", "unnamed_addr", "visibility_", "constant", "thread_local_",
                    "value", "comdat"}


def _parse_llvm_global(p, cls, legacy, nres):
    from irkit.dialects.encodings import OpaqueAttr
    from irkit.dialects.types import OpaqueType

    cur = p.cur
    i64 = IntegerType(64)
    linkage = "external"
    props: dict[str, Attribute] = {}
    save = cur.pos
    word = cur.try_keyword()
    if word in _LINKAGES:
        linkage, save = word, cur.pos
        word = cur.try_keyword()
    props["linkage"] = OpaqueAttr(StringAttr("llvm.linkage"), StringAttr(f"<{linkage}>"))
    for key, words in (("visibility_", _VISIBILITIES), ("unnamed_addr", _UNNAMED_ADDRS)):
        if key == "unnamed_addr" and word == "thread_local":
            props["thread_local_"] = UnitAttr()
            save, word = cur.pos, cur.try_keyword()
        props[key] = IntegerAttr(words.index(word) if word and word in words[1:] else 0, i64)
        if word and word in words[1:]:
            save, word = cur.pos, cur.try_keyword()
    if word == "constant":
        props["constant"] = UnitAttr()
    else:
        cur.pos = save
    pos = cur.skip()
    sym = cur.try_symbol()
    if sym is None:
        raise cur.error(f"expected '@' symbol name of llvm.mlir.global, found {cur._describe_next()}", pos)
    props["sym_name"] = StringAttr(sym)
    cur.expect("(")
    if not cur.try_lit(")"):
        props["value"] = p.attrs.parse_attribute()
        cur.expect(")")
    if cur.try_lit("comdat"):
        cur.expect("(")
        props["comdat"] = p.attrs.parse_attribute()
        cur.expect(")")
    inherent, attrs = _split_inherent(cls, p.optional_attr_dict())
    props.update(inherent)
    props.setdefault("addr_space", IntegerAttr(0, IntegerType(32)))  # MLIR fills the default in
    value = props.get("value")
    if cur.try_lit(":"):
        props["global_type"] = p.attrs.parse_type()
    elif isinstance(value, StringAttr):  # a string global: an array of its bytes
        size = len(value.data.encode("latin-1", errors="replace"))
        props["global_type"] = OpaqueType(StringAttr("llvm.array"), StringAttr(f"<{size} x i8>"))
    else:
        raise cur.error("expected ':' and the type of llvm.mlir.global")
    region = p.parse_region() if cur.peek() == "{" else Region()
    return cls.create(regions=[region], properties=props, attributes=attrs)


def _print_llvm_global(pr, op):
    props = op.properties
    pr.w(" " + props["linkage"].body.data.strip("<>") + " ")
    for key, words in (("visibility_", _VISIBILITIES), ("unnamed_addr", _UNNAMED_ADDRS)):
        if key == "unnamed_addr" and "thread_local_" in props:
            pr.w("thread_local ")
        index = props[key].value.data if key in props else 0
        if 0 < index < len(words):
            pr.w(words[index] + " ")
    if "constant" in props:
        pr.w("constant ")
    value = props.get("value")
    pr.w(symbol(props["sym_name"].data) + "(" + ("" if value is None else pr.attribute(value)) + ")")
    if "comdat" in props:
        pr.w(" comdat(" + pr.attribute(props["comdat"]) + ")")
    _print_inherent_dict(pr, op, _GLOBAL_KEYWORDS)
    if isinstance(value, StringAttr):
        return
    pr.w(" : " + pr.type(props["global_type"]))
    if op.initializer.blocks:
        pr.w(" ")
        pr.print_region(op.initializer, entry_args=False)


syntax("llvm.mlir.global")((_parse_llvm_global, _print_llvm_global))

# MLIR's GPU host ops (gpu.module, gpu.launch_func, ...) have their syntax in irkit.frontend.gpu_syntax
syntax("func.func")((_parse_func, _print_func))
syntax("func.call")((_parse_call, _print_call))
syntax("llvm.func")((_parse_func, _print_func))
syntax("llvm.call")((_parse_call, _print_call))
