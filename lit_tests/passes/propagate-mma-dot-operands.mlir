// RUN: irkit-opt %s --split-input-file --propagate-mma | FileCheck %s
// RUN: irkit-opt %s --split-input-file --propagate-mma --mlir-print-remarks -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: irkit-opt %s --split-input-file --propagate-mma=dot-operands=false | FileCheck %s --check-prefix=OFF
// RUN: irkit-opt %s --split-input-file --propagate-mma=dot-operands=true | FileCheck %s --check-prefix=ON
// RUN: irkit-opt %s --split-input-file --propagate-mma=dot-operands=true --mlir-print-remarks -o /dev/null 2>&1 | FileCheck %s --check-prefix=ONREMARK

// REMARK: remark: propagate-mma: moved to #dot_op: 1 conversion(s) removed
// REMARK: remark: propagate-mma: moved to #dot_op: 1 conversion(s) removed
// REMARK: remark: propagate-mma: moved to #dot_op: 1 conversion(s) removed
// REMARK: remark: propagate-mma: conversion left alone: it converts to a dot operand (#dot_op), not to an accumulator layout (dot-operands=false)
// ONREMARK: remark: propagate-mma: dot-operands: the loads feeding this operand would produce #dot_op directly and bypass shared memory

// #dpas: the loop-carried block pointers of A and B take the dot operand layouts; no conversion is left.
// CHECK-LABEL: tt.func public @dpas_block_pointers
// CHECK: tt.make_tensor_ptr {{.*}} : <tensor<32x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>>
// CHECK: tt.make_tensor_ptr {{.*}} : <tensor<16x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>>
// CHECK: scf.for
// CHECK: tt.load {{.*}} : !tt.ptr<tensor<32x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>>
// CHECK: tt.load {{.*}} : !tt.ptr<tensor<16x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>>
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.dot
// CHECK: tt.advance {{.*}} : <tensor<32x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>>
// CHECK: tt.advance {{.*}} : <tensor<16x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>>
// OFF-LABEL: tt.func public @dpas_block_pointers
// OFF-COUNT-2: ttg.convert_layout
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #triton_intel_gpu.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [4, 1], repCluster = [1, 1], A = [8, 16], B = [16, 16], C = [8, 16]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @dpas_block_pointers(%a: !tt.ptr<f16>, %b: !tt.ptr<f16>, %n: i32) -> tensor<32x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1_i64 = arith.constant 1 : i64
    %c16 = arith.constant 16 : i32
    %c64_i64 = arith.constant 64 : i64
    %acc0 = arith.constant dense<0.000000e+00> : tensor<32x64xf32, #mma>
    %pa = tt.make_tensor_ptr %a, [%c64_i64, %c64_i64], [%c64_i64, %c1_i64], [%c0, %c0] {order = array<i32: 1, 0>} : <tensor<32x16xf16, #blocked>>
    %pb = tt.make_tensor_ptr %b, [%c64_i64, %c64_i64], [%c64_i64, %c1_i64], [%c0, %c0] {order = array<i32: 1, 0>} : <tensor<16x64xf16, #blocked>>
    %r:3 = scf.for %k = %c0 to %n step %c16 iter_args(%acc = %acc0, %qa = %pa, %qb = %pb) -> (tensor<32x64xf32, #mma>, !tt.ptr<tensor<32x16xf16, #blocked>>, !tt.ptr<tensor<16x64xf16, #blocked>>)  : i32 {
      %x = tt.load %qa {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<32x16xf16, #blocked>>
      %y = tt.load %qb {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<16x64xf16, #blocked>>
      %xa = ttg.convert_layout %x : tensor<32x16xf16, #blocked> -> tensor<32x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>
      %yb = ttg.convert_layout %y : tensor<16x64xf16, #blocked> -> tensor<16x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
      %d = tt.dot %xa, %yb, %acc, inputPrecision = tf32 : tensor<32x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>> * tensor<16x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<32x64xf32, #mma>
      %na = tt.advance %qa, [%c0, %c16] : <tensor<32x16xf16, #blocked>>
      %nb = tt.advance %qb, [%c16, %c0] : <tensor<16x64xf16, #blocked>>
      scf.yield %d, %na, %nb : tensor<32x64xf32, #mma>, !tt.ptr<tensor<32x16xf16, #blocked>>, !tt.ptr<tensor<16x64xf16, #blocked>>
    }
    tt.return %r#0 : tensor<32x64xf32, #mma>
  }
}

// -----

// #dpas, as Triton's pipeline leaves the operands: a local_alloc + local_load round trip through shared
// memory.  The load produces the dot operand directly; no local_alloc is left.
// CHECK-LABEL: tt.func public @dpas_shared_round_trip
// CHECK-NOT: ttg.local_alloc
// CHECK: %[[X:.*]] = tt.load {{.*}} : !tt.ptr<tensor<32x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>>
// CHECK-NOT: ttg.local_alloc
// CHECK-NOT: ttg.local_load
// CHECK: tt.dot %[[X]], %{{.*}}, %{{.*}}
// OFF-LABEL: tt.func public @dpas_shared_round_trip
// OFF: ttg.local_alloc
// OFF: ttg.local_load
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #triton_intel_gpu.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [4, 1], repCluster = [1, 1], A = [8, 16], B = [16, 16], C = [8, 16]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @dpas_shared_round_trip(%a: !tt.ptr<f16>, %yb: tensor<16x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>, %acc: tensor<32x64xf32, #mma>) -> tensor<32x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1_i64 = arith.constant 1 : i64
    %c64_i64 = arith.constant 64 : i64
    %pa = tt.make_tensor_ptr %a, [%c64_i64, %c64_i64], [%c64_i64, %c1_i64], [%c0, %c0] {order = array<i32: 1, 0>} : <tensor<32x16xf16, #blocked>>
    %x = tt.load %pa {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<32x16xf16, #blocked>>
    %s = ttg.local_alloc %x : (tensor<32x16xf16, #blocked>) -> !ttg.memdesc<32x16xf16, #shared, #smem>
    %xa = ttg.local_load %s : !ttg.memdesc<32x16xf16, #shared, #smem> -> tensor<32x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>
    %d = tt.dot %xa, %yb, %acc, inputPrecision = tf32 : tensor<32x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>> * tensor<16x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<32x64xf32, #mma>
    tt.return %d : tensor<32x64xf32, #mma>
  }
}

// -----

// NVIDIA (tensor of pointers): off by default, with a remark; when asked for, the loads produce the dot
// operand directly and the remark says that the operand bypasses shared memory.
// CHECK-LABEL: tt.func public @nvidia_tensor_of_pointers
// CHECK: ttg.convert_layout
// ON-LABEL: tt.func public @nvidia_tensor_of_pointers
// ON-NOT: ttg.convert_layout
// ON: tt.load %{{.*}} : tensor<64x32x!tt.ptr<f16>, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @nvidia_tensor_of_pointers(%base: !tt.ptr<f16>, %b: tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>, %acc: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma> {
    %p = tt.splat %base : !tt.ptr<f16> -> tensor<64x32x!tt.ptr<f16>, #blocked>
    %x = tt.load %p : tensor<64x32x!tt.ptr<f16>, #blocked>
    %xa = ttg.convert_layout %x : tensor<64x32xf16, #blocked> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
    %d = tt.dot %xa, %b, %acc : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<64x64xf32, #mma>
    tt.return %d : tensor<64x64xf32, #mma>
  }
}
