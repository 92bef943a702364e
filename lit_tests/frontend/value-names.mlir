// RUN: irkit-opt %s | filecheck %s --check-prefix=WRITTEN
// RUN: irkit-opt %s --mlir-print-triton-names | filecheck %s --check-prefix=TRITON
// RUN: irkit-opt %s --mlir-print-input-aliases | filecheck %s --check-prefix=INPUT

// Values keep the names the input wrote (the default: diffs against the input stay small; lit tests in
// this repository check these names).  --mlir-print-triton-names gives triton-opt's own names instead:
// entry-block arguments %argN (numbering carried into nested regions), arith.constant's %c0_i32, %cst,
// %true, tt.split's %outLHS/%outRHS, everything else numbered; a name in use gets MLIR's _N suffix.
// --mlir-print-input-aliases keeps the input's alias names.

// WRITTEN-LABEL: tt.func @names(%base: !tt.ptr<f32>, %n: i32)
// WRITTEN: %zero = arith.constant 0 : i32
// WRITTEN: %acc = scf.for %iv = %zero to %n step %one iter_args(%sum = %init) -> (tensor<64xf32, #blocked>)  : i32 {
// WRITTEN: %lo, %hi = tt.split %pair

// TRITON-LABEL: tt.func @names(%arg0: !tt.ptr<f32>, %arg1: i32)
// TRITON-NEXT: %c0_i32 = arith.constant 0 : i32
// TRITON-NEXT: %c1_i32 = arith.constant 1 : i32
// TRITON-NEXT: %cst = arith.constant dense<0.000000e+00> : tensor<64xf32, #blocked>
// TRITON-NEXT: %cst_0 = arith.constant dense<1.000000e+00> : tensor<64xf32, #blocked>
// TRITON-NEXT: %true = arith.constant true
// TRITON-NEXT: %0 = scf.for %arg2 = %c0_i32 to %arg1 step %c1_i32 iter_args(%arg3 = %cst) -> (tensor<64xf32, #blocked>)  : i32 {
// TRITON-NEXT: %c1_i32_1 = arith.constant 1 : i32
// TRITON-NEXT: %3 = arith.addf %arg3, %cst_0 : tensor<64xf32, #blocked>
// TRITON-NEXT: scf.yield %3 : tensor<64xf32, #blocked>
// TRITON-NEXT: }
// TRITON-NEXT: %1 = tt.join %0, %0 : tensor<64xf32, #blocked> -> tensor<64x2xf32, #blocked1>
// TRITON-NEXT: %outLHS, %outRHS = tt.split %1 : tensor<64x2xf32, #blocked1> -> tensor<64xf32, #blocked>
// TRITON-NEXT: %2 = arith.addf %outLHS, %outRHS : tensor<64xf32, #blocked>

// INPUT: #L = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// INPUT: #L2 = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
#L = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#L2 = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @names(%base: !tt.ptr<f32>, %n: i32) {
    %zero = arith.constant 0 : i32
    %one = arith.constant 1 : i32
    %init = arith.constant dense<0.0> : tensor<64xf32, #L>
    %ones = arith.constant dense<1.0> : tensor<64xf32, #L>
    %t = arith.constant true
    %acc = scf.for %iv = %zero to %n step %one iter_args(%sum = %init) -> (tensor<64xf32, #L>) : i32 {
      %c1 = arith.constant 1 : i32
      %s = arith.addf %sum, %ones : tensor<64xf32, #L>
      scf.yield %s : tensor<64xf32, #L>
    }
    %pair = tt.join %acc, %acc : tensor<64xf32, #L> -> tensor<64x2xf32, #L2>
    %lo, %hi = tt.split %pair : tensor<64x2xf32, #L2> -> tensor<64xf32, #L>
    %r = arith.addf %lo, %hi : tensor<64xf32, #L>
    tt.return
  }
}
