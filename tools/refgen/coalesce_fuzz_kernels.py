"""Random small TTGIR kernels (Triton 3.1 spelling) that exercise the AxisInfo rules behind Coalesce.

`kernel(family, seed)` is deterministic (random.Random(seed)) and needs neither Triton nor irkit, so the
reference script (coalesce_fuzz.py, in the Triton 3.1 venv) and irkit's tests build the same text.

Families (all on a 32x64 tile of a 4-warp module, one function per kernel):

* `expr`: one load whose offsets are a random expression tree over rows, columns, constants, arguments
  and program ids (add/sub/mul/div/rem/shifts/max/min/and/or/xor/select/cmpi/ext/trunc/hints);
* `unary`: a row-major (or transposed) offset grid whose contiguous part goes through one or two
  alignment-sensitive ops, the pointer then used directly, carried through scf.for (advanced or
  rebuilt from the induction variable), chosen by scf.if, or carried through scf.while;
* `shared`: two to four loads / stores / atomic_rmw of different element types sharing offsets
  (multi-root slices, the 128-bit cap of writes).
"""

from __future__ import annotations

import random

R, C = 32, 64
T = f"tensor<{R}x{C}xi32, #b>"
B = f"tensor<{R}x{C}xi1, #b>"
HEADER = """#b = #triton_gpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#s1 = #triton_gpu.slice<{dim = 1, parent = #b}>
#s0 = #triton_gpu.slice<{dim = 0, parent = #b}>
module attributes {"triton_gpu.num-ctas" = 1 : i32, "triton_gpu.num-warps" = 4 : i32, triton_gpu.target = "cuda:80", "triton_gpu.threads-per-warp" = 32 : i32} {
"""
FAMILIES = ("expr", "unary", "shared")
_PTR_DIV = ("{tt.divisibility = 16 : i32}", "{tt.divisibility = 4 : i32}", "")


class _Builder:
    def __init__(self, rng: random.Random):
        self.rng = rng
        self.lines: list[str] = []
        self.n = 0

    def fresh(self) -> str:
        self.n += 1
        return f"%v{self.n}"

    def emit(self, line: str) -> None:
        self.lines.append("    " + line)

    def op(self, text: str) -> str:
        v = self.fresh()
        self.emit(f"{v} = {text}")
        return v

    def const(self, values) -> str:
        return self.op(f"arith.constant dense<{self.rng.choice(values)}> : {T}")

    def binary(self, name: str, a: str, b: str, attrs: str = "") -> str:
        return self.op(f"arith.{name} {a}, {b}{attrs} : {T}")

    # -- leaves --------------------------------------------------------------------------------

    def rows(self, start: int = 0) -> str:
        a = self.op(f"tt.make_range {{end = {start + R} : i32, start = {start} : i32}} : tensor<{R}xi32, #s1>")
        b = self.op(f"tt.expand_dims {a} {{axis = 1 : i32}} : tensor<{R}xi32, #s1> -> tensor<{R}x1xi32, #b>")
        return self.op(f"tt.broadcast {b} : tensor<{R}x1xi32, #b> -> {T}")

    def cols(self) -> str:
        a = self.op(f"tt.make_range {{end = {C} : i32, start = 0 : i32}} : tensor<{C}xi32, #s0>")
        b = self.op(f"tt.expand_dims {a} {{axis = 0 : i32}} : tensor<{C}xi32, #s0> -> tensor<1x{C}xi32, #b>")
        return self.op(f"tt.broadcast {b} : tensor<1x{C}xi32, #b> -> {T}")

    def leaf(self) -> str:
        r = self.rng
        kind = r.choice(["row", "col", "cst", "arg", "argd", "pid", "rowoff", "col"])
        if kind == "row":
            return self.rows()
        if kind == "rowoff":
            return self.rows(r.choice([0, 16, 32]))
        if kind == "col":
            return self.cols()
        if kind == "cst":
            return self.const([0, 1, 2, 3, 4, 8, 16, 24, 64, 128, -1, -16, 7])
        if kind in ("arg", "argd"):
            return self.op(f"tt.splat {'%n' if kind == 'arg' else '%m'} : i32 -> {T}")
        pid = self.op("tt.get_program_id x : i32")
        k = self.op(f"arith.constant {r.choice([1, 8, 64, 128])} : i32")
        return self.op(f"tt.splat {self.op(f'arith.muli {pid}, {k} : i32')} : i32 -> {T}")

    # -- family expr ---------------------------------------------------------------------------

    def expr(self, depth: int) -> str:
        r = self.rng
        if depth == 0 or r.random() < 0.25:
            return self.leaf()
        kind = r.choice(
            ["addi", "addi", "subi", "muli", "muli", "divsi", "remsi", "shli", "shrsi", "shrui", "maxsi",
             "minsi", "andi", "ori", "xori", "select", "select_i1", "hint", "ext"]
        )
        if kind in ("shli", "shrsi", "shrui"):
            return self.binary(kind, self.expr(depth - 1), self.const([0, 1, 2, 4]))
        if kind in ("divsi", "remsi") and r.random() < 0.7:
            return self.binary(kind, self.expr(depth - 1), self.const([1, 2, 4, 8, 16, 3, 32]))
        if kind == "select":
            a, b, c0 = self.expr(depth - 1), self.expr(depth - 1), self.expr(depth - 1)
            pred = r.choice(["slt", "sle", "sgt", "sge", "eq", "ne"])
            m = self.op(f"arith.cmpi {pred}, {c0}, {self.leaf()} : {T}")
            return self.op(f"arith.select {m}, {a}, {b} : {B}, {T}")
        if kind == "select_i1":
            a, b = self.expr(depth - 1), self.expr(depth - 1)
            cond = self.op("arith.cmpi slt, %n, %m : i32")
            return self.op(f"arith.select {cond}, {a}, {b} : {T}")
        if kind == "hint":
            name = r.choice(["tt.divisibility", "tt.contiguity"])
            hint = f" {{{name} = dense<[{r.choice([1, 16, 32])}, {r.choice([1, 8, 16, 64])}]> : tensor<2xi32>}}"
            return self.binary("addi", self.expr(depth - 1), self.leaf(), hint)
        if kind == "ext":
            wide = self.op(f"arith.extsi {self.expr(depth - 1)} : {T} to tensor<{R}x{C}xi64, #b>")
            return self.op(f"arith.trunci {wide} : tensor<{R}x{C}xi64, #b> to {T}")
        return self.binary(kind, self.expr(depth - 1), self.expr(depth - 1))

    # -- family unary --------------------------------------------------------------------------

    def unary(self, x: str) -> str:
        r = self.rng
        kind = r.choice(
            ["id"] * 3 + ["rem"] * 3 + ["div", "shl", "shr", "max", "min", "and", "or", "xor"]
            + ["select", "select", "select_i1", "select_i1", "mulc", "addc", "addc", "subc", "csub"]
            + ["hint", "hint", "divmul", "divmul", "cast", "remvar", "cmpsel", "cmpsel"]
        )
        if kind == "id":
            return x
        if kind == "rem":
            return self.binary("remsi", x, self.const([1, 2, 4, 8, 16, 32, 3, 128]))
        if kind == "remvar":
            return self.binary("remsi", x, self.leaf())
        if kind == "div":
            return self.binary("divsi", x, self.const([1, 2, 4, 8, 16, 3]))
        if kind == "divmul":
            c = self.const([2, 4, 8, 16])
            return self.binary("addi", self.binary("muli", self.binary("divsi", x, c), c), self.const([0, 1, 16]))
        if kind == "shl":
            return self.binary("shli", x, self.const([0, 1, 2, 3]))
        if kind == "shr":
            return self.binary(r.choice(["shrsi", "shrui"]), x, self.const([0, 1, 2]))
        if kind in ("max", "min"):
            other = self.const([0, 16, 5]) if r.random() < 0.5 else self.leaf()
            return self.binary(kind + "si", x, other)
        if kind in ("and", "or", "xor"):
            return self.binary(kind + "i", x, self.const([0, 1, 15, -1, 64]))
        if kind == "mulc":
            return self.binary("muli", x, self.const([1, 2, 4, 16, 3]))
        if kind == "addc":
            return self.binary("addi", x, self.const([0, 1, 4, 8, 16, 64]) if r.random() < 0.5 else self.leaf())
        if kind == "subc":
            return self.binary("subi", x, self.const([0, 1, 4, 16]) if r.random() < 0.5 else self.leaf())
        if kind == "csub":
            return self.binary("subi", self.const([0, 64, 128]) if r.random() < 0.5 else self.leaf(), x)
        if kind == "hint":
            name = r.choice(["tt.divisibility", "tt.contiguity", "tt.constancy"])
            hint = f" {{{name} = dense<[{r.choice([1, 16, 32])}, {r.choice([1, 8, 16, 64])}]> : tensor<2xi32>}}"
            return self.binary("addi", x, self.const([0, 8]), hint)
        if kind == "cast":
            if r.random() < 0.5:
                wide = self.op(f"arith.extsi {x} : {T} to tensor<{R}x{C}xi64, #b>")
                return self.op(f"arith.trunci {wide} : tensor<{R}x{C}xi64, #b> to {T}")
            idx = self.op(f"arith.index_cast {x} : {T} to tensor<{R}x{C}xindex, #b>")
            back = r.choice(["index_cast", "index_castui"])
            return self.op(f"arith.{back} {idx} : tensor<{R}x{C}xindex, #b> to {T}")
        other = self.unary(r.choice([x, self.leaf()]))
        if kind == "select_i1":
            cond = self.op("arith.cmpi slt, %n, %m : i32")
            return self.op(f"arith.select {cond}, {x}, {other} : {T}")
        pred = r.choice(["slt", "sle", "sgt", "sge", "eq", "ne", "ult", "ugt"])
        bound = self.const([16, 32, 8, 0]) if r.random() < 0.5 else self.leaf()
        lhs, rhs = (x, bound) if r.random() < 0.5 else (bound, x)
        m = self.op(f"arith.cmpi {pred}, {lhs}, {rhs} : {T}")
        return self.op(f"arith.select {m}, {x}, {other} : {B}, {T}")

    def grid(self, unary_cols: tuple[int, ...], unary_rows: float) -> str:
        """rows * scale + f(cols), or transposed (cols * scale + f(rows))."""
        r = self.rng
        col = self.cols()
        for _ in range(r.choice(unary_cols)):
            col = self.unary(col)
        row = self.rows()
        if r.random() < unary_rows:
            row = self.unary(row)
        if r.random() < 0.6:
            scale = self.const([1, 64, 16, 3, 128, 64, 128])
        else:
            scale = self.op(f"tt.splat {r.choice(['%n', '%m', '%m'])} : i32 -> {T}")
        if r.random() < 0.3:
            strided = self.binary("muli", col, scale)
            contiguous = self.unary(row) if r.random() < 0.5 else row
        else:
            strided, contiguous = self.binary("muli", row, scale), col
        return self.binary("addi", strided, contiguous)


def _function(b: _Builder, name: str, args: str) -> str:
    return (
        HEADER
        + f"  tt.func public @{name}({args}, %n: i32, %m: i32 {{tt.divisibility = 16 : i32}}) {{\n"
        + "\n".join(b.lines)
        + "\n    tt.return\n  }\n}\n"
    )


def _expr_kernel(seed: int) -> str:
    rng = random.Random(seed)
    b = _Builder(rng)
    off = b.expr(rng.choice([1, 2, 3, 4]))
    if rng.random() < 0.5:
        off = b.binary("addi", off, b.cols())
    ety = rng.choice(["i8", "f16", "f32", "f64"])
    P = f"tensor<{R}x{C}x!tt.ptr<{ety}>, #b>"
    ps = b.op(f"tt.splat %p : !tt.ptr<{ety}> -> {P}")
    ptr = b.op(f"tt.addptr {ps}, {off} : {P}, {T}")
    b.op(f"tt.load {ptr} : {P}")
    return _function(b, f"expr{seed}", f"%p: !tt.ptr<{ety}> {rng.choice(_PTR_DIV)}")


def _unary_kernel(seed: int) -> str:
    rng = random.Random(seed)
    b = _Builder(rng)
    off = b.grid((0, 1, 1, 2), 0.3)
    ety = rng.choice(["i8", "f16", "f32", "f64"])
    P = f"tensor<{R}x{C}x!tt.ptr<{ety}>, #b>"
    ps = b.op(f"tt.splat %p : !tt.ptr<{ety}> -> {P}")
    ptr = b.op(f"tt.addptr {ps}, {off} : {P}, {T}")
    flow = rng.choice(["none", "none", "for", "for_iv", "if", "while"])
    if flow == "none":
        b.op(f"tt.load {ptr} : {P}")
    elif flow in ("for", "for_iv"):
        step = b.const([0, 1, 8, 16, 64, 3])
        if rng.random() < 0.3:
            step = b.op(f"tt.splat {rng.choice(['%n', '%m'])} : i32 -> {T}")
        b.emit(f"%lb = arith.constant {rng.choice([0, 1, 8])} : i32")
        b.emit(f"%st = arith.constant {rng.choice([1, 2, 16])} : i32")
        b.emit("%ub = arith.constant 100 : i32")
        res = b.fresh()
        b.emit(f"{res} = scf.for %i = %lb to %ub step %st iter_args(%it = {ptr}) -> ({P}) : i32 {{")
        if flow == "for":
            b.emit(f"  %ld = tt.load %it : {P}")
            b.emit(f"  %nx = tt.addptr %it, {step} : {P}, {T}")
        else:
            b.emit(f"  %is = tt.splat %i : i32 -> {T}")
            b.emit(f"  %o2 = arith.addi {off}, %is : {T}")
            b.emit(f"  %nx = tt.addptr {ps}, %o2 : {P}, {T}")
            b.emit(f"  %ld = tt.load %nx : {P}")
        b.emit(f"  scf.yield %nx : {P}")
        b.emit("}")
        if rng.random() < 0.5:
            b.op(f"tt.load {res} : {P}")
    elif flow == "if":
        other = b.op(f"tt.addptr {ps}, {b.unary(b.cols())} : {P}, {T}")
        cond = b.op("arith.cmpi slt, %n, %m : i32")
        res = b.fresh()
        b.emit(f"{res} = scf.if {cond} -> ({P}) {{")
        b.emit(f"  scf.yield {ptr} : {P}")
        b.emit("} else {")
        b.emit(f"  scf.yield {other} : {P}")
        b.emit("}")
        b.op(f"tt.load {res} : {P}")
    else:
        step = b.const([1, 8, 16, 64])
        res = b.fresh()
        b.emit(f"{res} = scf.while (%w = {ptr}) : ({P}) -> ({P}) {{")
        b.emit("  %cw = arith.cmpi slt, %n, %m : i32")
        b.emit(f"  scf.condition(%cw) %w : {P}")
        b.emit("} do {")
        b.emit(f"^bb0(%w2: {P}):")
        b.emit(f"  %ld = tt.load %w2 : {P}")
        b.emit(f"  %nx = tt.addptr %w2, {step} : {P}, {T}")
        b.emit(f"  scf.yield %nx : {P}")
        b.emit("}")
        b.op(f"tt.load {res} : {P}")
    return _function(b, f"unary{seed}", f"%p: !tt.ptr<{ety}> {rng.choice(_PTR_DIV)}")


def _shared_kernel(seed: int) -> str:
    rng = random.Random(seed)
    b = _Builder(rng)
    offsets = [b.grid((0, 1), 0.0) for _ in range(rng.choice([1, 2]))]
    args = []
    for i in range(rng.choice([2, 3, 4])):
        ety = rng.choice(["i8", "f16", "f32", "f64"])
        args.append(f"%p{i}: !tt.ptr<{ety}> {rng.choice(_PTR_DIV)}")
        P = f"tensor<{R}x{C}x!tt.ptr<{ety}>, #b>"
        V = f"tensor<{R}x{C}x{ety}, #b>"
        ps = b.op(f"tt.splat %p{i} : !tt.ptr<{ety}> -> {P}")
        ptr = b.op(f"tt.addptr {ps}, {rng.choice(offsets)} : {P}, {T}")
        kind = rng.choice(["load", "load", "store", "rmw"])
        zero = "0" if ety.startswith("i") else "0.000000e+00"
        if kind == "load" or (kind == "rmw" and ety == "i8"):
            b.op(f"tt.load {ptr} : {P}")
        elif kind == "store":
            value = b.op(f"arith.constant dense<{zero}> : {V}")
            b.emit(f"tt.store {ptr}, {value} : {P}")
        else:
            value = b.op(f"arith.constant dense<{zero}> : {V}")
            mask = b.op(f"arith.constant dense<true> : {B}")
            rmw = "add" if ety.startswith("i") else "fadd"
            b.op(f"tt.atomic_rmw {rmw}, acq_rel, gpu, {ptr}, {value}, {mask} : ({P}, {V}, {B}) -> {V}")
    return _function(b, f"shared{seed}", ", ".join(args))


def kernel(family: str, seed: int) -> str:
    """The TTGIR text of one kernel."""
    return {"expr": _expr_kernel, "unary": _unary_kernel, "shared": _shared_kernel}[family](seed)
