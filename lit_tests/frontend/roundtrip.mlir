// RUN: irkit-opt %s --split-input-file --mlir-print-debuginfo | FileCheck %s
// RUN: irkit-opt %s --split-input-file | FileCheck %s --check-prefix=NODEBUG
// RUN: irkit-opt %s --split-input-file --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: irkit-opt %s --split-input-file --mlir-print-op-generic --mlir-print-debuginfo | irkit-opt --split-input-file --mlir-print-debuginfo | FileCheck %s

// Aliases keep their names, locations defined after the module come back as #locN.
// CHECK: #blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: tt.func public @add
// CHECK: %[[R:.*]] = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>> loc(#loc1)
// CHECK: %cst = arith.constant dense<0xFF800000> : tensor<64x64xf32, #blocked> loc(#loc1)
// CHECK: %m = arith.cmpf ogt, %x, %cst : tensor<64x64xf32, #blocked> loc(#loc2)
// CHECK: arith.select %m, %x, %cst : tensor<64x64xi1, #blocked>, tensor<64x64xf32, #blocked>
// CHECK: #loc1 = loc("k.py":3:7)
// CHECK: #loc2 = loc("m"(#loc1))
// NODEBUG-NOT: loc(
// GENERIC: "tt.make_range"() <{end = 64 : i32, start = 0 : i32}>
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func public @add(%x: tensor<64x64xf32, #blocked>) {
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>> loc(#loc1)
    %cst = arith.constant dense<0xFF800000> : tensor<64x64xf32, #blocked> loc(#loc1)
    %m = arith.cmpf ogt, %x, %cst : tensor<64x64xf32, #blocked> loc(#loc2)
    %s = arith.select %m, %x, %cst : tensor<64x64xi1, #blocked>, tensor<64x64xf32, #blocked>
    tt.return
  }
}
#loc1 = loc("k.py":3:7)
#loc2 = loc("m"(#loc1))

// -----

// The 3.1 spelling prints back as 3.1; multi-result groups keep `%x:2`.
// CHECK: #blocked = #triton_gpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
// CHECK: module {
// CHECK-LABEL: tt.func @legacy
// CHECK: %0:2 = scf.for %i = %c0_i32 to %c4_i32 step %c1_i32 iter_args(%p = %a, %q = %a) -> (tensor<16xf32, #blocked>, tensor<16xf32, #blocked>) : i32 {
// CHECK: triton_gpu.convert_layout
// CHECK: tt.return %0#1
tt.func @legacy(%a: tensor<16xf32, #triton_gpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>>) -> tensor<16xf32, #triton_gpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>> {
  %c0_i32 = arith.constant 0 : i32
  %c1_i32 = arith.constant 1 : i32
  %c4_i32 = arith.constant 4 : i32
  %0:2 = scf.for %i = %c0_i32 to %c4_i32 step %c1_i32 iter_args(%p = %a, %q = %a) -> (tensor<16xf32, #triton_gpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>>, tensor<16xf32, #triton_gpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>>) : i32 {
    %c = triton_gpu.convert_layout %p : tensor<16xf32, #triton_gpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>> -> tensor<16xf32, #triton_gpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>>
    scf.yield %c, %q : tensor<16xf32, #triton_gpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>>, tensor<16xf32, #triton_gpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>>
  }
  tt.return %0#1 : tensor<16xf32, #triton_gpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>>
}
