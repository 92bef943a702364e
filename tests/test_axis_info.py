"""irkit.analysis.axis_info on hand-written TTGIR.

The expected numbers follow the Triton 3.1 rules (docs/triton-passes.md §4.2), worked out by hand next to
each assertion; the corner cases the 3.1.0 binary decides (subi, induction variable, make_range start 0,
index_cast) were measured by running its coalesce pass on IR like this.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from irkit.analysis.axis_info import MAX_DIVISOR, AxisInfo, AxisInfoAnalysis
from irkit.frontend.parser import Parser

DATA = Path(__file__).resolve().parent / "data" / "coalesce"

HEADER = """
#b1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b2 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#row = #ttg.slice<{dim = 1, parent = #b2}>
#col = #ttg.slice<{dim = 0, parent = #b2}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
"""


def analyse(body: str, version: str | None = None):
    parsed = Parser(HEADER + body + "\n}\n", "axis.mlir").parse()
    analysis = AxisInfoAnalysis(parsed.module, version)
    values = {}
    for op in parsed.module.walk():
        for i, r in enumerate(op.results):
            values[f"%{r.name_hint}"] = r
            values[f"%{r.name_hint}#{i}"] = r
        for region in op.regions:
            for block in region.blocks:
                for a in block.args:
                    values[f"%{a.name_hint}"] = a

    def info(name: str) -> AxisInfo:
        return analysis[values[name]]

    return info


def ai(contiguity, divisibility, constancy, constant=None) -> AxisInfo:
    return AxisInfo(tuple(contiguity), tuple(divisibility), tuple(constancy), constant)


def test_make_range_splat_addi_and_addptr():
    info = analyse("""
  tt.func @k(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
    %c1024 = arith.constant 1024 : i32
    %pid = tt.get_program_id x : i32
    %base = arith.muli %pid, %c1024 : i32
    %r = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #b1>
    %r64 = tt.make_range {end = 96 : i32, start = 64 : i32} : tensor<32xi32, #b1>
    %s = tt.splat %base : i32 -> tensor<1024xi32, #b1>
    %off = arith.addi %s, %r : tensor<1024xi32, #b1>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #b1>
    %ptr = tt.addptr %ps, %off : tensor<1024x!tt.ptr<f32>, #b1>, tensor<1024xi32, #b1>
    %ns = tt.splat %n : i32 -> tensor<1024xi32, #b1>
    %pn = tt.addptr %ps, %ns : tensor<1024x!tt.ptr<f32>, #b1>, tensor<1024xi32, #b1>
    tt.return
  }""")
    assert info("%c1024") == ai([1], [1024], [1], 1024)
    assert info("%pid") == ai([1], [1], [1])  # no rule: nothing known
    # the non-contiguous side counts with its divisibility: 1 * 1024
    assert info("%base") == ai([1], [1024], [1])
    # start 0 is an unsigned 32-bit number in Triton: highestPowOf2Divisor<uint32_t>(0) = 2^30
    assert info("%r") == ai([1024], [1 << 30], [1])
    assert info("%r64") == ai([32], [64], [1])
    assert info("%s") == ai([1], [1024], [1024])
    # contiguity max(gcd(1024, 1024), gcd(1, 1)); divisibility gcd(1024, 2^30); constancy gcd(1024, 1)
    assert info("%off") == ai([1024], [1024], [1])
    assert info("%ps") == ai([1], [16], [1024])
    # offsets count f32 elements: divisibility gcd(16, 1024 * 4) bytes
    assert info("%ptr") == ai([1024], [16], [1])
    # an unaligned splat offset: gcd(16, 1 * 4), and all 1024 pointers equal
    assert info("%pn") == ai([1], [4], [1024])


def test_constants():
    info = analyse("""
  tt.func @k() {
    %a = arith.constant 48 : i32
    %z = arith.constant 0 : i64
    %m1 = arith.constant -1 : i32
    %m16 = arith.constant -16 : i64
    %t = arith.constant true
    %d = arith.constant dense<24> : tensor<32x64xi32, #b2>
    %f = arith.constant dense<1.000000e+00> : tensor<32x64xf32, #b2>
    tt.return
  }""")
    assert info("%a") == ai([1], [16], [1], 48)
    assert info("%z") == ai([1], [MAX_DIVISOR], [1], 0)
    # constants are read zero-extended: -1 : i32 is 2^32 - 1, -16 : i64 stays -16
    assert info("%m1") == ai([1], [1], [1], (1 << 32) - 1)
    assert info("%m16") == ai([1], [16], [1], -16)
    assert info("%t") == ai([1], [1], [1], 1)
    # a splat: constant over the whole shape
    assert info("%d") == ai([1, 1], [8, 8], [32, 64], 24)
    assert info("%f") == ai([1, 1], [1, 1], [1, 1])


def test_muli_expand_dims_broadcast_2d_pointer_grid():
    info = analyse("""
  tt.func @k(%p: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %stride: i32 {tt.divisibility = 16 : i32}) {
    %rr = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #row>
    %rc = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #col>
    %r2 = tt.expand_dims %rr {axis = 1 : i32} : tensor<32xi32, #row> -> tensor<32x1xi32, #b2>
    %st = tt.splat %stride : i32 -> tensor<32x1xi32, #b2>
    %rs = arith.muli %r2, %st : tensor<32x1xi32, #b2>
    %rb = tt.broadcast %rs : tensor<32x1xi32, #b2> -> tensor<32x64xi32, #b2>
    %c2 = tt.expand_dims %rc {axis = 0 : i32} : tensor<64xi32, #col> -> tensor<1x64xi32, #b2>
    %cb = tt.broadcast %c2 : tensor<1x64xi32, #b2> -> tensor<32x64xi32, #b2>
    %off = arith.addi %rb, %cb : tensor<32x64xi32, #b2>
    %ps = tt.splat %p : !tt.ptr<f16> -> tensor<32x64x!tt.ptr<f16>, #b2>
    %ptr = tt.addptr %ps, %off : tensor<32x64x!tt.ptr<f16>, #b2>, tensor<32x64xi32, #b2>
    %c1 = arith.constant dense<1> : tensor<32x1xi32, #b2>
    %same = arith.muli %r2, %c1 : tensor<32x1xi32, #b2>
    tt.return
  }""")
    # the new dim gets (1, gcd over dims of (contiguous ? 1 : div), 1)
    assert info("%r2") == ai([32, 1], [1 << 30, 1], [1, 1])
    assert info("%st") == ai([1, 1], [16, 16], [32, 1])
    # a contiguous factor counts as divisible by 1 (unless the other side is the constant 1)
    assert info("%rs") == ai([1, 1], [16, 16], [1, 1])
    # broadcast: a size-1 dim becomes constant over the new extent
    assert info("%rb") == ai([1, 1], [16, 16], [1, 64])
    assert info("%c2") == ai([1, 64], [1, 1 << 30], [1, 1])
    assert info("%cb") == ai([1, 64], [1, 1 << 30], [32, 1])
    # contiguity along dim 1: gcd(constancy 64 of the row part, contiguity 64 of the column part);
    # divisibility along dim 0 is 1: the new dim of a contiguous range counts as divisible by 1
    assert info("%off") == ai([1, 64], [1, 16], [1, 1])
    # in bytes: gcd(16, 1 * 2) and gcd(16, 16 * 2)
    assert info("%ptr") == ai([1, 64], [2, 16], [1, 1])
    assert info("%same") == ai([32, 1], [1 << 30, 1], [1, 1])


def test_load_keeps_constancy_of_pointer_and_mask():
    info = analyse("""
  tt.func @k(%p: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %n: i32) {
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #b1>
    %c4 = arith.constant dense<4> : tensor<128xi32, #b1>
    %q = arith.divsi %r, %c4 : tensor<128xi32, #b1>
    %ps = tt.splat %p : !tt.ptr<i32> -> tensor<128x!tt.ptr<i32>, #b1>
    %ptr = tt.addptr %ps, %q : tensor<128x!tt.ptr<i32>, #b1>, tensor<128xi32, #b1>
    %c64 = arith.constant dense<64> : tensor<128xi32, #b1>
    %m = arith.cmpi slt, %r, %c64 : tensor<128xi32, #b1>
    %v = tt.load %ptr, %m : tensor<128x!tt.ptr<i32>, #b1>
    %w = tt.load %ptr : tensor<128x!tt.ptr<i32>, #b1>
    %x = tt.load %p : !tt.ptr<i32>
    tt.return
  }""")
    # a whole contiguous run divided by a constant: runs of gcd(128, 2^30, 4) = 4 equal quotients
    assert info("%q") == ai([1], [1], [4])
    assert info("%ptr") == ai([1], [4], [4])
    # r < 64 flips at most once per run of gcd(128, gcd(2^30, 64)) = 64
    assert info("%m") == ai([1], [1], [64])
    assert info("%v") == ai([1], [1], [4])
    assert info("%w") == ai([1], [1], [4])
    assert info("%x") == ai([1], [1], [1])


def test_rem_sub_shift_max_select():
    info = analyse("""
  tt.func @k(%n: i32 {tt.divisibility = 16 : i32}, %b: i1) {
    %r = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32, #b1>
    %c32 = arith.constant dense<32> : tensor<256xi32, #b1>
    %c1 = arith.constant dense<1> : tensor<256xi32, #b1>
    %c2 = arith.constant dense<2> : tensor<256xi32, #b1>
    %rem = arith.remsi %r, %c32 : tensor<256xi32, #b1>
    %rem1 = arith.remsi %r, %c1 : tensor<256xi32, #b1>
    %neg = arith.subi %c32, %r : tensor<256xi32, #b1>
    %shl = arith.shli %r, %c2 : tensor<256xi32, #b1>
    %shr = arith.shrsi %c32, %c2 : tensor<256xi32, #b1>
    %ns = tt.splat %n : i32 -> tensor<256xi32, #b1>
    %mx = arith.maxsi %r, %ns : tensor<256xi32, #b1>
    %sel = arith.select %b, %r, %rem : tensor<256xi32, #b1>
    %and = arith.andi %r, %c32 : tensor<256xi32, #b1>
    %ic = arith.index_cast %r : tensor<256xi32, #b1> to tensor<256xindex, #b1>
    tt.return
  }""")
    # contiguous runs restart every 32: contiguity gcd(256, gcd(2^30, 32))
    assert info("%rem") == ai([32], [32], [1])
    assert info("%rem1") == ai([1], [MAX_DIVISOR], [256], 0)
    # Triton 3.1 gives subi addi's contiguity rule (a decreasing run counts as contiguous)
    assert info("%neg") == ai([256], [32], [1])
    # shifting a contiguous run: divisibility 1 * 2^2
    assert info("%shl") == ai([1], [4], [1])
    # both constant: folded (constancy max of the two, divisibility of the value 8)
    assert info("%shr") == ai([1], [8], [256], 8)
    assert info("%mx") == ai([1], [16], [1])
    # an i1 condition picks a whole side: per-dim minimum
    assert info("%sel") == ai([32], [32], [1])
    assert info("%and") == ai([1], [1], [1])
    assert info("%ic") == info("%r")


def test_op_hints_override_the_rule():
    info = analyse("""
  tt.func @k(%x: i32) {
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #b1>
    %xs = tt.splat %x : i32 -> tensor<64xi32, #b1>
    %o = arith.addi %xs, %r {tt.divisibility = dense<16> : tensor<1xi32>, tt.contiguity = dense<64> : tensor<1xi32>} : tensor<64xi32, #b1>
    %pid = tt.get_program_id x {tt.divisibility = dense<8> : tensor<1xi32>} : i32
    tt.return
  }""")
    assert info("%o") == ai([64], [16], [1])
    # an op without a rule still takes its hints
    assert info("%pid") == ai([1], [8], [1])


def test_function_argument_attributes():
    info = analyse("""
  tt.func @k(%a: i32 {tt.divisibility = 16 : i32}, %t: tensor<32x64x!tt.ptr<f16>, #b2> {tt.divisibility = dense<[2, 16]> : tensor<2xi32>, tt.contiguity = dense<[1, 64]> : tensor<2xi32>}, %u: tensor<32x64xi32, #b2> {tt.constancy = 4 : i32}, %plain: i64) {
    %x = arith.addi %a, %a : i32
    %y = tt.addptr %t, %u : tensor<32x64x!tt.ptr<f16>, #b2>, tensor<32x64xi32, #b2>
    %z = arith.addi %plain, %plain : i64
    tt.return
  }""")
    assert info("%a") == ai([1], [16], [1])
    assert info("%t") == ai([1, 64], [2, 16], [1, 1])
    # an integer attribute applies to every dimension
    assert info("%u") == ai([1, 1], [1, 1], [4, 4])
    assert info("%plain") == ai([1], [1], [1])
    # runs of 64 pointers plus runs of 4 equal offsets: contiguity gcd(64, 4)
    assert info("%y") == ai([1, 4], [2, 2], [1, 1])


def test_loop_carried_pointers_reach_a_fixed_point():
    info = analyse("""
  tt.func @k(%p: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %s16: i32 {tt.divisibility = 16 : i32}, %s: i32) {
    %c0 = arith.constant 0 : i32
    %c8 = arith.constant 8 : i32
    %c64 = arith.constant 64 : i32
    %r = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #b1>
    %ps = tt.splat %p : !tt.ptr<f16> -> tensor<1024x!tt.ptr<f16>, #b1>
    %a0 = tt.addptr %ps, %r : tensor<1024x!tt.ptr<f16>, #b1>, tensor<1024xi32, #b1>
    %inc16 = tt.splat %s16 : i32 -> tensor<1024xi32, #b1>
    %inc = tt.splat %s : i32 -> tensor<1024xi32, #b1>
    %res:3 = scf.for %i = %c8 to %c64 step %c8 iter_args(%a = %a0, %b = %a0, %k = %c0) -> (tensor<1024x!tt.ptr<f16>, #b1>, tensor<1024x!tt.ptr<f16>, #b1>, i32) : i32 {
      %va = tt.load %a : tensor<1024x!tt.ptr<f16>, #b1>
      %an = tt.addptr %a, %inc16 : tensor<1024x!tt.ptr<f16>, #b1>, tensor<1024xi32, #b1>
      %bn = tt.addptr %b, %inc : tensor<1024x!tt.ptr<f16>, #b1>, tensor<1024xi32, #b1>
      %kn = arith.addi %k, %c64 : i32
      scf.yield %an, %bn, %kn : tensor<1024x!tt.ptr<f16>, #b1>, tensor<1024x!tt.ptr<f16>, #b1>, i32
    }
    tt.return
  }""")
    assert info("%a0") == ai([1024], [16], [1])
    # the induction variable: divisibility gcd(lower bound 8, step 8), nothing else
    assert info("%i") == ai([1], [8], [1])
    # a step of 16 f16 elements keeps 16-byte alignment; a step of unknown size leaves 2 bytes
    assert info("%a") == ai([1024], [16], [1])
    assert info("%b") == ai([1024], [2], [1])
    assert info("%an") == ai([1024], [16], [1])
    # the loop results join the initial values and every value yielded
    assert info("%res#0") == ai([1024], [16], [1])
    assert info("%res#1") == ai([1024], [2], [1])
    # 0, 64, 128, ...: divisible by 64, no longer a known constant
    assert info("%k") == ai([1], [64], [1])
    assert info("%va") == ai([1], [1], [1])


def test_if_and_while_join_their_branches():
    info = analyse("""
  tt.func @k(%c: i1, %x: i32 {tt.divisibility = 32 : i32}, %y: i32 {tt.divisibility = 8 : i32}) {
    %r = scf.if %c -> (i32) {
      scf.yield %x : i32
    } else {
      scf.yield %y : i32
    }
    %t = arith.constant true
    %only = scf.if %t -> (i32) {
      scf.yield %x : i32
    } else {
      scf.yield %y : i32
    }
    %w = scf.while (%v = %x) : (i32) -> i32 {
      scf.condition(%c) %v : i32
    } do {
    ^bb0(%v2: i32):
      %n = arith.addi %v2, %y : i32
      scf.yield %n : i32
    }
    tt.return
  }""")
    assert info("%r") == ai([1], [8], [1])
    # a known condition: only the branch that runs counts
    assert info("%only") == ai([1], [32], [1])
    assert info("%v") == ai([1], [8], [1])
    assert info("%w") == ai([1], [8], [1])


def test_call_sites_refine_callee_arguments():
    parsed = Parser(
        HEADER
        + """
  tt.func @callee(%q: !tt.ptr<f16>, %o: i32) attributes {noinline = true} {
    tt.return
  }
  tt.func public @caller(%p: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %p8: !tt.ptr<f16> {tt.divisibility = 8 : i32}) {
    %c64 = arith.constant 64 : i32
    %c32 = arith.constant 32 : i32
    tt.call @callee(%p, %c64) : (!tt.ptr<f16>, i32) -> ()
    tt.call @callee(%p8, %c32) : (!tt.ptr<f16>, i32) -> ()
    tt.return
  }
}
""",
        "calls.mlir",
    ).parse()
    analysis = AxisInfoAnalysis(parsed.module)
    callee = next(op for op in parsed.module.ops if op.properties["sym_name"].data == "callee")
    q, o = callee.body.block.args
    # gcd over the two call sites
    assert analysis[q] == ai([1], [8], [1])
    assert analysis[o] == ai([1], [32], [1])
    assert analysis.callee_arg_hints[callee][1] == {"tt.contiguity": 1, "tt.divisibility": 32, "tt.constancy": 1}
    # the analysis does not touch the IR
    assert "tt.divisibility" not in str(callee.properties.get("arg_attrs"))


def test_real_matmul_pointers():
    """The A/B pointers of a real matmul kernel (corpus TTGIR in tests/data), through its loop."""
    path = DATA / "corpus__matmul__fp16__BM128_BN128_BK32_G8__w4_s4__gfx90a.in.ttgir"
    parsed = Parser(path.read_text(), path.name).parse()
    analysis = AxisInfoAnalysis(parsed.module)
    loads = [op for op in parsed.module.walk() if op.name == "tt.load"]
    assert len(loads) == 2
    a_ptr, b_ptr = (analysis[op.operands[0]] for op in loads)
    # A: 128x32 tile of a row-major fp16 matrix, contiguous along K; B: 32x128, contiguous along N but
    # its column offsets are taken `% N` with N only known to be a multiple of 16
    assert a_ptr.contiguity == (1, 32) and a_ptr.divisibility[1] == 16
    assert b_ptr.contiguity == (1, 16) and b_ptr.divisibility[1] == 16


def test_rank_of_unanalysed_values_is_pessimistic():
    info = analyse("""
  tt.func @k(%x: tensor<16xf32, #b1>) {
    %y = math.exp %x : tensor<16xf32, #b1>
    tt.return
  }""")
    assert info("%y") == ai([1], [1], [1])


@pytest.mark.parametrize("n", [0, 1, 6, 48, -16])
def test_highest_pow2_divisor(n):
    from irkit.analysis.axis_info import highest_pow2_divisor

    d = highest_pow2_divisor(n)
    if n == 0:
        assert d == MAX_DIVISOR
    else:
        assert n % d == 0 and (n // d) % 2 != 0


ADD_SELF = """
  tt.func @k(%p: !tt.ptr<f16> {tt.divisibility = 16 : i32}) {
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #b1>
    %r1 = tt.make_range {end = 65 : i32, start = 1 : i32} : tensor<64xi32, #b1>
    %c4 = arith.constant dense<4> : tensor<64xi32, #b1>
    %rr = arith.addi %r, %r : tensor<64xi32, #b1>
    %odd = arith.addi %r, %r1 : tensor<64xi32, #b1>
    %same = arith.subi %r, %r : tensor<64xi32, #b1>
    %c2 = arith.constant dense<2> : tensor<64xi32, #b1>
    %half = arith.divsi %r, %c2 : tensor<64xi32, #b1>
    %q = arith.muli %half, %c4 : tensor<64xi32, #b1>
    %mixed = arith.addi %q, %r : tensor<64xi32, #b1>
    %ps = tt.splat %p : !tt.ptr<f16> -> tensor<64x!tt.ptr<f16>, #b1>
    %ptr = tt.addptr %ps, %r : tensor<64x!tt.ptr<f16>, #b1>, tensor<64xi32, #b1>
    tt.return
  }"""


@pytest.mark.parametrize("version", [None, "3.1", "3.3.1", "3.4", "3.5.1", "3.6.0"])
def test_add_of_two_runs_before_37(version):
    """Up to 3.6 (3.5.1 and 3.6.0 measured with their coalesce): divisibility is the gcd of the operands'."""
    info = analyse(ADD_SELF, version)
    assert info("%rr") == ai([1], [1 << 30], [1])
    assert info("%odd") == ai([1], [1], [1])
    assert info("%mixed") == ai([2], [4], [1])


@pytest.mark.parametrize("version", ["3.8.0", "3.9"])
def test_add_of_two_runs_from_37(version):
    """Triton #9297 (3.7 on; 3.8.0 and 3.9.0 measured): r + r = 2t is only known to be even; a run added
    to a partly constant operand is divisible by no more than the result's runs."""
    info = analyse(ADD_SELF, version)
    assert info("%rr") == ai([1], [2], [1])
    assert info("%odd") == ai([1], [1], [1])
    assert info("%same") == ai([1], [1 << 30], [1])  # (a + t) - (a + t): the gcd, as before
    # q = [0, 0, 4, 4, 8, 8, ...] (constancy 2, divisibility 4) + r: runs of 2, so gcd(4, 2^30, 2)
    assert info("%q") == ai([1], [4], [2])
    assert info("%mixed") == ai([2], [2], [1])
    # addptr with a contiguous pointer base side (splat: contiguity 1): byte divisibility of p and 2 * 2^30
    assert info("%ptr") == ai([64], [16], [1])
