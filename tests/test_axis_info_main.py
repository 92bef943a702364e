"""irkit.analysis.axis_info_main: upstream Triton main's AxisInfo rules (63068fcc), on hand-written IR.

Each expectation is worked out by hand from the rule it names; the same IR under the 3.9 table shows
what changed (the 3.7-3.8 table).  One fact is measured on the real compilers (live below): a pointer
bitcast to another element width ends the runs in the real 3.9.0 coalesce (a 4-wide load becomes 1-wide)
and not in 3.8.0's, so 3.9.0 gets main's rules.
"""

from __future__ import annotations

import pytest

from irkit.analysis.axis_info import MAX_DIVISOR, AxisInfo, AxisInfoAnalysis
from irkit.analysis.axis_info_main import RULES_MAIN, axis_rules, normalize
from irkit.analysis.triton_versions import is_main
from irkit.frontend.parser import Parser


def analyse(body: str, rules=RULES_MAIN):
    parsed = Parser("module {\n" + body + "\n}\n", "axis.mlir").parse()
    analysis = AxisInfoAnalysis(parsed.module, rules)
    values = {}
    for op in parsed.module.walk():
        for r in op.results:
            values[f"%{r.name_hint}"] = r
        for region in op.regions:
            for block in region.blocks:
                for a in block.args:
                    values[f"%{a.name_hint}"] = a
    return lambda name: analysis.get(values[name])


def ai(contiguity, divisibility, constancy, constant=None) -> AxisInfo:
    return AxisInfo(tuple(contiguity), tuple(divisibility), tuple(constancy), constant)


def test_which_versions_get_mains_rules():
    assert is_main("main") and is_main("3.10") and is_main("4.0.1")
    assert not is_main("3.9.0") and not is_main("3.1") and not is_main("nightly")
    assert axis_rules("main") is RULES_MAIN
    # 3.9.0 is a release of August 2026's main (its coalesce has #11314, see below); 3.8.0 is not
    assert axis_rules("3.9.0") is RULES_MAIN and axis_rules("3.9") is RULES_MAIN
    assert axis_rules("3.8.0") == "3.8.0" and axis_rules(None) is None


POINTER_BITCAST = """
  tt.func @k(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
    %base = tt.splat %p : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>
    %ptrs = tt.addptr %base, %r : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
    %same = tt.bitcast %ptrs : tensor<128x!tt.ptr<f32>> -> tensor<128x!tt.ptr<i32>>
    %half = tt.bitcast %ptrs : tensor<128x!tt.ptr<f32>> -> tensor<128x!tt.ptr<f16>>
    %ints = tt.bitcast %r : tensor<128xi32> -> tensor<128xf32>
    tt.return
  }"""


def test_pointer_bitcast_to_another_width_ends_the_runs():
    info = analyse(POINTER_BITCAST)
    assert info("%ptrs") == ai([128], [16], [1])
    assert info("%same") == ai([128], [16], [1])  # same width: unchanged
    # each f32 becomes the base of two f16: runs of one, aligned to the old element (gcd(16, 4 bytes))
    assert info("%half") == ai([1], [4], [1])
    assert info("%ints") == ai([128], [1 << 30], [1])  # not a pointer: unchanged
    # the 3.7-3.8 table copies every bitcast
    assert analyse(POINTER_BITCAST, "3.8")("%half") == ai([128], [16], [1])


SUB_AND_CONSTANTS = """
  tt.func @k(%a: i32 {tt.divisibility = 16 : i32}) {
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
    %one = arith.constant dense<1> : tensor<128xi32>
    %run_minus_one = arith.subi %r, %one : tensor<128xi32>
    %one_minus_run = arith.subi %one, %r : tensor<128xi32>
    %neg8 = arith.constant -8 : i32
    %neg = arith.constant dense<-8> : tensor<128xi32>
    %c16 = arith.constant dense<16> : tensor<128xi32>
    %sum = arith.addi %neg, %c16 : tensor<128xi32>
    %c4 = arith.constant 4 : i32
    %quarter = arith.divsi %a, %c4 : i32
    %c6 = arith.constant 6 : i32
    %sixth = arith.divsi %a, %c6 : i32
    %zeros = arith.constant dense<0> : tensor<128xi32>
    %product = arith.muli %zeros, %r : tensor<128xi32>
    tt.return
  }"""


def test_sub_constants_division_and_zero_product():
    info = analyse(SUB_AND_CONSTANTS)
    assert info("%run_minus_one") == ai([128], [1], [1])
    assert info("%one_minus_run") == ai([1], [1], [1])  # decreasing: no run (3.1 kept 128)
    assert info("%neg8") == ai([1], [8], [1], -8)  # sign-extended (#9613)
    assert info("%neg") == ai([1], [8], [128], -8)
    assert info("%sum") == ai([1], [8], [128], 8)  # a constant result is constant over the shape
    assert info("%quarter") == ai([1], [4], [1])  # 16 / 4 (#6657)
    assert info("%sixth") == ai([1], [1], [1])
    assert info("%product") == ai([1], [MAX_DIVISOR], [128], 0)
    old = analyse(SUB_AND_CONSTANTS, "3.8")
    assert old("%one_minus_run").contiguity == (128,)
    assert old("%neg8").constant == (1 << 32) - 8  # zero-extended
    assert old("%quarter") == ai([1], [1], [1])


def test_select_max_and_global_divisibility():
    info = analyse("""
  tt.func @k(%cond: tensor<8xi1>, %x: tensor<2x4xi32> {tt.contiguity = dense<[1, 4]> : tensor<2xi32>, tt.divisibility = dense<[16, 4]> : tensor<2xi32>}) {
    %lo = tt.make_range {end = 16 : i32, start = 8 : i32} : tensor<8xi32>
    %hi = tt.make_range {end = 24 : i32, start = 16 : i32} : tensor<8xi32>
    %sel = arith.select %cond, %lo, %hi : tensor<8xi1>, tensor<8xi32>
    %mx = arith.maxsi %lo, %hi : tensor<8xi32>
    %c5 = arith.constant dense<5> : tensor<8xi32>
    %c7 = arith.constant dense<7> : tensor<8xi32>
    %top = arith.maxsi %c5, %c7 : tensor<8xi32>
    %t = tt.trans %x {order = array<i32: 1, 0>} : tensor<2x4xi32> -> tensor<4x2xi32>
    tt.return
  }""")
    # an unknown condition breaks every run, so the divisibility of a run's start is lost too (#10359)
    assert info("%sel") == ai([1], [1], [1])
    assert info("%mx") == ai([8], [8], [1])  # equal contiguities: gcd(8, 16)
    assert info("%top") == ai([1], [1], [8], 7)
    # dim 0 (unit contiguity, divisible by 16) makes every element divisible by 16 (#10575)
    assert info("%x") == ai([1, 4], [16, 16], [1, 1])
    assert info("%t") == ai([4, 1], [16, 16], [1, 1])


def test_normalize_raises_to_the_unit_contiguity_divisibility():
    assert normalize(ai([1, 2], [8, 2], [1, 1])) == ai([1, 2], [8, 8], [1, 1])
    assert normalize(ai([2, 2], [8, 2], [1, 1])) == ai([2, 2], [8, 2], [1, 1])


def test_dead_code_and_warp_specialize_partitions():
    info = analyse("""
  tt.func @k(%p: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %n: i32 {tt.divisibility = 16 : i32}) {
    %false = arith.constant false
    %c5 = arith.constant 5 : i32
    scf.if %false {
      %dead = arith.addi %c5, %c5 : i32
    }
    ttg.warp_specialize(%p, %n)
    default {
      ttg.warp_yield
    }
    partition0(%q: !tt.ptr<f16>, %m: i32) num_warps(1) {
      %ptr = tt.addptr %q, %m : !tt.ptr<f16>, i32
      ttg.warp_return
    } : (!tt.ptr<f16>, i32) -> ()
    tt.return
  }""")
    assert info("%dead") == ai([1], [1], [1])  # never reached: pessimistic, not absent
    assert info("%q") == ai([1], [16], [1])  # a partition sees its captures
    assert info("%ptr") == ai([1], [16], [1])


@pytest.mark.parametrize("version", ["3.8", None])
def test_older_tables_leave_dead_code_and_partitions_alone(version):
    info = analyse("""
  tt.func @k(%p: !tt.ptr<f16> {tt.divisibility = 16 : i32}) {
    %false = arith.constant false
    scf.if %false {
      %dead = arith.constant 1 : i32
    }
    tt.return
  }""", version)
    assert info("%dead") is None


BITCAST_LOAD = """#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @bitcast_load(%arg0: !tt.ptr<i8> {tt.divisibility = 16 : i32}) {
    %r = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #blocked>
    %p = tt.splat %arg0 : !tt.ptr<i8> -> tensor<512x!tt.ptr<i8>, #blocked>
    %q = tt.addptr %p, %r : tensor<512x!tt.ptr<i8>, #blocked>, tensor<512xi32, #blocked>
    %b = tt.bitcast %q : tensor<512x!tt.ptr<i8>, #blocked> -> tensor<512x!tt.ptr<i32>, #blocked>
    %v = tt.load %b : tensor<512x!tt.ptr<i32>, #blocked>
    tt.return
  }
}
"""


@pytest.mark.parametrize("version, per_thread", [("3.8.0", 4), ("3.9.0", 1)])
def test_coalesce_of_a_pointer_bitcast_follows_the_release(version, per_thread):
    """i8 pointers 16-byte aligned, read as i32: 3.8.0 keeps the run (4 i32 per thread), 3.9.0 ends it."""
    from test_coalesce_versions import irkit_accesses

    [(op, layout)] = irkit_accesses(BITCAST_LOAD, version)
    assert op == "tt.load" and tuple(layout["sizePerThread"]) == (per_thread,)


@pytest.mark.parametrize("version", ["3.8.0", "3.9.0"])
def test_coalesce_of_a_pointer_bitcast_equals_the_real_pass(version):
    import json
    import subprocess

    from test_coalesce39 import layout_params
    from test_coalesce_versions import REAL, REFGEN, irkit_accesses, triton_pythons

    python = triton_pythons().get(version)
    if python is None:
        pytest.skip(f"no Triton {version} (set IRKIT_TRITON_PYTHONS)")
    proc = subprocess.run([python, "-c", REAL.format(refgen=str(REFGEN))],
                          input=json.dumps({"bitcast": ["cuda:90", BITCAST_LOAD]}),
                          capture_output=True, text=True, timeout=600, check=True)
    [(_, theirs)] = json.loads(proc.stdout.strip().splitlines()[-1])["bitcast"]
    [(_, mine)] = irkit_accesses(BITCAST_LOAD, version)
    assert mine == layout_params(theirs)
