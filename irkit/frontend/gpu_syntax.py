"""The hand-written C++ syntax of MLIR's GPU host ops, as mlir-opt-22 prints it (GPUDialect.cpp).

`gpu.launch_func` and `gpu.wait` print `custom<AsyncDependencies>` (`async`, `[%deps]`), then the
launch's `<%object : type>`, `clusters in`, `blocks in`, `threads in`, `custom<LaunchDimType>`
(` : i64` when the sizes are not index), `dynamic_shared_memory_size`, `args(%v : t, ...)`; the
blanks where an optional part is absent are MLIR's (`gpu.launch_func  @k::@k ... (%c1, %c1, %c1)  `).
"""

from __future__ import annotations

from xdsl.dialects.builtin import ArrayAttr, IndexType, IntegerAttr, IntegerType, StringAttr, SymbolRefAttr

from irkit.dialects.encodings import OpaqueAttr
from irkit.dialects.types import GpuAsyncTokenType
from irkit.frontend.lexer import ParseError, symbol

# the ops func.func's body names without their dialect (`return`, `call`): its default dialect is `func`
FUNC_DEFAULT_DIALECT_NAMES = {"return": "func.return", "call": "func.call"}
# MLIR 14 printed its builtin function as a bare `func @name` (read as func.func, printed in the 22 spelling)
LEGACY_OP_NAMES = {"func": "func.func"}
FUNC_DEFAULT_DIALECT_OPS = frozenset(FUNC_DEFAULT_DIALECT_NAMES.values())


def _use(p):
    pos = p.cur.skip()
    name, index = p.cur.value_use()
    return name, index, pos


def _lookup(p, use, t):
    return p.lookup(use[0], use[1], use[2], t)


def _parse_async_dependencies(p):
    """custom<AsyncDependencies>: (returns a token, dependency uses)."""
    is_async = bool(p.cur.try_lit("async"))
    deps = []
    if p.cur.try_lit("["):
        if not p.cur.try_lit("]"):
            while True:
                deps.append(_lookup(p, _use(p), GpuAsyncTokenType()))
                if p.cur.try_lit("]"):
                    break
                p.cur.expect(",", "or ']' in the async dependencies")
    return is_async, deps


def _async_dependencies_text(pr, op, deps) -> str:
    text = "async" if op.results else ""
    if deps:
        text += (" " if text else "") + "[" + pr.values(deps) + "]"
    return text


def segment_sizes(*sizes: int):
    from xdsl.dialects.builtin import DenseArrayBase, IntegerType

    return DenseArrayBase.from_list(IntegerType(32), list(sizes))


# -- gpu.wait --------------------------------------------------------------------------------------------


def _parse_wait(p, cls, legacy, nres):
    is_async, deps = _parse_async_dependencies(p)
    attrs = p.optional_attr_dict()
    return cls.create(operands=deps, result_types=[GpuAsyncTokenType()] if is_async else [], attributes=attrs)


def _print_wait(pr, op):
    pr.w(" " + _async_dependencies_text(pr, op, list(op.operands)))
    if op.attributes:
        pr.w(" " + pr.attr_dict_text(dict(op.attributes)))


# -- gpu.launch_func --------------------------------------------------------------------------------------


def _triple(p, what: str):
    p.cur.expect(what)
    p.cur.expect("in")
    p.cur.expect("(")
    uses = [_use(p)]
    for _ in range(2):
        p.cur.expect(",")
        uses.append(_use(p))
    p.cur.expect(")")
    return uses


def _parse_launch_func(p, cls, legacy, nres):
    cur = p.cur
    is_async, deps = _parse_async_dependencies(p)
    obj = []
    if cur.try_lit("<"):
        use = _use(p)
        cur.expect(":")
        obj = [_lookup(p, use, p.attrs.parse_type())]
        cur.expect(">", "to end the async object")
    kpos = cur.skip()
    kernel = p.attrs.try_attribute() if cur.peek() == "@" else None
    if not isinstance(kernel, SymbolRefAttr):
        raise ParseError(kpos, "expected kernel symbol '@module::@kernel'")
    clusters = _triple(p, "clusters") if cur.text.startswith("clusters", cur.skip()) else []
    grid = _triple(p, "blocks")
    block = _triple(p, "threads")
    dim_type = IndexType()
    if cur.try_lit(":"):
        dim_type = p.attrs.parse_type()
    dyn = []
    if cur.try_lit("dynamic_shared_memory_size"):
        from xdsl.dialects.builtin import IntegerType

        dyn = [_lookup(p, _use(p), IntegerType(32))]
    args = []
    if cur.try_lit("args"):
        cur.expect("(")
        while True:
            use = _use(p)
            cur.expect(":")
            args.append(_lookup(p, use, p.attrs.parse_type()))
            if cur.try_lit(")"):
                break
            cur.expect(",", "or ')' in the kernel arguments")
    attrs = p.optional_attr_dict()
    sizes = [_lookup(p, u, dim_type) for u in grid + block]
    cluster_vals = [_lookup(p, u, dim_type) for u in clusters]
    props = {
        "kernel": kernel,
        "operandSegmentSizes": segment_sizes(len(deps), 1, 1, 1, 1, 1, 1, *([1 if cluster_vals else 0] * 3), len(dyn), len(args),
                                         len(obj)),
    }
    return cls.create(operands=[*deps, *sizes, *cluster_vals, *dyn, *args, *obj],
                      result_types=[GpuAsyncTokenType()] if is_async else [], properties=props, attributes=attrs)


def _print_launch_func(pr, op):
    deps = _async_dependencies_text(pr, op, list(op.asyncDependencies))
    if deps or op.asyncObject is None:
        pr.w(" " + deps)  # MLIR's blank for the empty directive, unless `<` follows
    if op.asyncObject is not None:
        pr.w(f" <{pr.value(op.asyncObject)} : {pr.type(op.asyncObject.type)}>")
    pr.w(" " + pr.attribute(op.kernel))
    if op.clusterSizeX is not None:
        pr.w(f" clusters in ({pr.values([op.clusterSizeX, op.clusterSizeY, op.clusterSizeZ])})")
    pr.w(f" blocks in ({pr.values([op.gridSizeX, op.gridSizeY, op.gridSizeZ])})")
    pr.w(f" threads in ({pr.values([op.blockSizeX, op.blockSizeY, op.blockSizeZ])})")
    dim_type = op.gridSizeX.type
    pr.w(" " + ("" if isinstance(dim_type, IndexType) else ": " + pr.type(dim_type)))
    if op.dynamicSharedMemorySize is not None:
        pr.w(" dynamic_shared_memory_size " + pr.value(op.dynamicSharedMemorySize))
    pr.w(" ")
    if op.kernelOperands:
        pr.w("args(" + ", ".join(f"{pr.value(v)} : {pr.type(v.type)}" for v in op.kernelOperands) + ")")
    if op.attributes:
        pr.w(" " + pr.attr_dict_text(dict(op.attributes)))


# -- gpu.module ------------------------------------------------------------------------------------------


def _parse_gpu_module(p, cls, legacy, nres):
    cur = p.cur
    spos = cur.skip()
    name = cur.try_symbol()
    if name is None:
        raise ParseError(spos, "expected module name '@...'")
    props = {"sym_name": StringAttr(name)}
    if cur.peek() == "<":
        cur.expect("<")
        props["offloadingHandler"] = p.attrs.parse_attribute()
        cur.expect(">")
    if cur.peek() == "[":
        props["targets"] = p.attrs.parse_attribute()
    attrs = {}
    if cur.try_lit("attributes"):
        attrs = p.attrs.parse_attr_entries("{", "}")
    region = p.parse_region(isolated=True)
    return cls.create(regions=[region], properties=props, attributes=attrs)


def _print_gpu_module(pr, op):
    pr.w(" " + symbol(op.properties["sym_name"].data))
    handler = op.properties.get("offloadingHandler")
    if handler is not None:
        pr.w(" <" + pr.attribute(handler) + ">")
    targets = op.properties.get("targets")
    if targets is not None:
        pr.w(" " + pr.attribute(targets))
    if op.attributes:
        pr.w(" attributes " + pr.attr_dict_text(dict(op.attributes)))
    pr.w(" ")
    pr.print_region(op.regions[0], entry_args=False, isolated=True)


# -- gpu.binary ------------------------------------------------------------------------------------------

# what MLIR's parser puts in a binary written without `<handler>` (and its printer leaves out); mlir-opt-22
# crashes on a generic gpu.binary without it
DEFAULT_OFFLOADING_HANDLER = OpaqueAttr(StringAttr("gpu.select_object"), StringAttr(""))


def _parse_binary(p, cls, legacy, nres):
    cur = p.cur
    spos = cur.skip()
    name = cur.try_symbol()
    if name is None:
        raise ParseError(spos, "expected binary name '@...'")
    props = {"sym_name": StringAttr(name), "offloadingHandler": DEFAULT_OFFLOADING_HANDLER}
    if cur.try_lit("<"):
        props["offloadingHandler"] = p.attrs.parse_attribute()
        cur.expect(">")
    attrs = p.optional_attr_dict()
    opos = cur.skip()
    objects = p.attrs.parse_attribute()
    if not isinstance(objects, ArrayAttr):
        raise ParseError(opos, "expected the binary's objects '[#gpu.object<...>, ...]'")
    props["objects"] = objects
    return cls.create(properties=props, attributes=attrs)


def _print_binary(pr, op):
    pr.w(" " + symbol(op.properties["sym_name"].data) + " ")
    handler = op.properties.get("offloadingHandler")
    if handler is not None and handler != DEFAULT_OFFLOADING_HANDLER:
        pr.w("<" + pr.attribute(handler) + ">")
    if op.attributes:
        pr.w(" " + pr.attr_dict_text(dict(op.attributes)))
    pr.w(" " + pr.attribute(op.properties["objects"]))


# -- gpu.func --------------------------------------------------------------------------------------------

def _gpu_func_parser(parse_func):
    def parse(p, cls, legacy, nres):
        op = parse_func(p, cls, legacy, nres)
        # GPUFuncOp keeps its name and attribution count as discardable attributes (its generic form)
        op.attributes["sym_name"] = op.properties.pop("sym_name")
        op.attributes.setdefault("workgroup_attributions", IntegerAttr(0, IntegerType(64)))
        return op

    return parse


def _gpu_func_printer(print_func):
    def print_(pr, op):
        count = op.attributes.get("workgroup_attributions")
        if count is not None and count.value.data == 0:
            del op.attributes["workgroup_attributions"]  # MLIR prints no `workgroup()` for none
            try:
                print_func(pr, op)
            finally:
                op.attributes["workgroup_attributions"] = count
        else:
            print_func(pr, op)

    return print_


def _register() -> None:
    from irkit.frontend.custom_syntax import _parse_func, _print_func, syntax

    syntax("gpu.wait")((_parse_wait, _print_wait))
    syntax("gpu.launch_func")((_parse_launch_func, _print_launch_func))
    syntax("gpu.module")((_parse_gpu_module, _print_gpu_module))
    syntax("gpu.binary")((_parse_binary, _print_binary))
    # gpu.func reads and prints as func.func, with `kernel` (the `gpu.kernel` unit attribute) after the signature
    syntax("gpu.func")((_gpu_func_parser(_parse_func), _gpu_func_printer(_print_func)))


_register()
