"""How many times a kernel's main loop runs at a launch (irkit/analysis/trip_count.py): real Triton 3.6 TTGIR,
whose arguments carry their Python names, a Triton 3.1 module, whose do not, and small hand-written loops."""

from pathlib import Path

import pytest
from xdsl.dialects import scf

from irkit.analysis.trip_count import main_loop_trips, trip_count
from irkit.dialects.tt import FuncOp
from irkit.frontend.parser import parse_file, parse_text

DATA = Path(__file__).resolve().parent / "data"
# examples/gpu/gemm_lora_up.py, BLOCK_K = 16: its loop runs cdiv(K, 16) times, (K + 15) / 16 in the TTGIR
LORA = DATA.parent.parent / "lit_tests" / "passes" / "Inputs" / "h100-lora-up-masked-128x128x16-w4s2.ttgir"
# a persistent GEMM: the K loop inside the loop over tiles
PERSISTENT = DATA / "propagate_mma" / "gemm_persistent_residual_out_fp16_4096x4096x4096_256x128x64_w8_s3_cuda90_triton360.ttgir"


@pytest.mark.parametrize("k, trips", [(16, 1), (17, 2), (4096, 256), (0, 0), (1, 1)])
def test_the_main_loop_of_a_real_kernel_runs_cdiv_k_block_k_times(k, trips):
    module = parse_file(str(LORA)).module
    assert main_loop_trips(module, {"M": 3000, "N": 5000, "K": k}) == trips


def test_unknown_where_the_bound_needs_an_argument_not_given():
    module = parse_file(str(LORA)).module
    assert main_loop_trips(module, {}) is None
    assert main_loop_trips(module, {"M": 3000, "N": 5000}) is None
    assert main_loop_trips(module, {"k": 16}) is None  # names are Triton's, exactly


def test_the_loop_around_the_dot_is_the_innermost_one():
    module = parse_file(str(PERSISTENT)).module
    assert main_loop_trips(module, {"M": 4096, "N": 4096, "K": 4096}) == 4096 // 64


def test_arguments_printed_without_their_names_are_not_known():
    """Triton 3.1 prints `%arg3: i32`: nothing ties an argument to K."""
    path = DATA / "corpus" / "ir" / "3.1.0" / "cuda_80" / "matmul_addmm__fp16__BM256_BN256_BK32_G8__w8_s3.ttgir"
    module = parse_file(str(path)).module
    func = next(op for op in module.walk() if isinstance(op, FuncOp))
    assert [a.name_hint for a in func.regions[0].blocks[0].args][:2] == ["arg0", "arg1"]
    assert main_loop_trips(module, {"M": 4096, "N": 4096, "K": 4096}) is None


def _loop(bounds: str, body: str = "") -> str:
    return f"""
tt.func @f(%n: i32, %m: i32) {{
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c4 = arith.constant 4 : i32
  %c-7 = arith.constant -7 : i32
  {bounds}
  scf.for %i = %lb to %ub step %step : i32 {{
  }}
  tt.return
}}"""


@pytest.mark.parametrize("bounds, trips", [
    ("%lb = arith.addi %c0, %c0 : i32\n %ub = arith.muli %c4, %c4 : i32\n %step = arith.addi %c1, %c0 : i32", 16),
    ("%lb = arith.addi %c0, %c0 : i32\n %ub = arith.ceildivsi %c-7, %c4 : i32\n %step = arith.addi %c1, %c0 : i32", 0),
    # divsi rounds toward zero: -7 / 4 = -1, so -1 - (-7) = 6 over a step of 4 runs twice
    ("%lb = arith.addi %c-7, %c0 : i32\n %ub = arith.divsi %c-7, %c4 : i32\n %step = arith.addi %c4, %c0 : i32", 2),
    ("%lb = arith.addi %c0, %c0 : i32\n %ub = arith.addi %n, %c4 : i32\n %step = arith.addi %c1, %c0 : i32", None),
    # a division by zero folds to nothing
    ("%lb = arith.addi %c0, %c0 : i32\n %ub = arith.divsi %c4, %c0 : i32\n %step = arith.addi %c1, %c0 : i32", None),
    # a step that is not positive: not a count
    ("%lb = arith.addi %c0, %c0 : i32\n %ub = arith.addi %c4, %c0 : i32\n %step = arith.subi %c0, %c1 : i32", None),
])
def test_trip_counts_of_hand_written_loops(bounds, trips):
    module = parse_text(_loop(bounds), "loop.mlir").module
    loop = next(op for op in module.walk() if isinstance(op, scf.ForOp))
    assert trip_count(loop) == trips


def test_known_values_stand_for_arguments():
    module = parse_text(_loop("%lb = arith.addi %c0, %c0 : i32\n %ub = arith.addi %n, %m : i32\n"
                              " %step = arith.addi %c1, %c0 : i32"), "loop.mlir").module
    func = next(op for op in module.walk() if isinstance(op, FuncOp))
    n, m = func.regions[0].blocks[0].args
    loop = next(op for op in module.walk() if isinstance(op, scf.ForOp))
    assert trip_count(loop, {n: 10, m: 5}) == 15
    assert trip_count(loop, {n: 10}) is None
