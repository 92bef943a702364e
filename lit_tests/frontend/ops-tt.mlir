// RUN: irkit-opt %s | irkit-opt | FileCheck %s

// tt ops in Triton 3.9's syntax: enums with their 3.9 values (bf16x3, propagateNan all), tt.dot_scaled,
// tt.assert/tt.print strings, atomics with ordering, descriptors (make_tensor_descriptor prints its types stripped).
// The input is accepted by the real Triton 3.9 parser; so is irkit's output.

// CHECK: #blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK: #blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK: #shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
// CHECK-LABEL: tt.func @dots(%a: tensor<16x16xf32>, %b: tensor<16x16xf32>, %c: tensor<16x16xf32>, %x8: tensor<16x32xf8E4M3FN>, %s: tensor<16x1xi8>, %y8: tensor<32x16xf8E4M3FN>) {
// CHECK: %0 = tt.dot %a, %b, %c, inputPrecision = bf16x3 : tensor<16x16xf32> * tensor<16x16xf32> -> tensor<16x16xf32>
// CHECK: %1 = tt.dot %a, %b, %0, inputPrecision = tf32x3 : tensor<16x16xf32> * tensor<16x16xf32> -> tensor<16x16xf32>
// CHECK: %2 = tt.dot_scaled %x8 scale %s, %y8, %1 lhs = e4m3 rhs = e4m3 {fastMath = false} : tensor<16x32xf8E4M3FN>, tensor<16x1xi8> * tensor<32x16xf8E4M3FN> -> tensor<16x16xf32>
// CHECK-LABEL: tt.func @scalar_math(%x: f32, %y: f32, %p: !tt.ptr<i32>, %v: i32, %t: tensor<1xi32, #blocked>) {
// CHECK: %0 = tt.clampf %x, %y, %y, propagateNan = all : f32
// CHECK: %1 = tt.clampf %x, %y, %y, propagateNan = none : f32
// CHECK: %2 = tt.approx_divf %0, %1 : f32
// CHECK: %3 = tt.precise_divf %2, %x : f32
// CHECK: %4 = tt.unsplat %t : tensor<1xi32, #blocked>
// CHECK: %5 = tt.atomic_load acquire, gpu, %p : (!tt.ptr<i32>) -> i32
// CHECK: tt.atomic_store release, sys, %p, %4 : !tt.ptr<i32>
// CHECK: %6 = tt.atomic_poll acquire, gpu, %p, %v : !tt.ptr<i32>, i32 -> i1
// CHECK: llvm.intr.assume %6 : i1
// CHECK: tt.grid_dependency_wait
// CHECK: tt.grid_dependency_launch_dependents
// CHECK-LABEL: tt.func @debug(%c: tensor<128xi1, #blocked>, %v: tensor<128xi32, #blocked>, %i: i32) {
// CHECK: tt.assert %c, "x must be non-negative" : tensor<128xi1, #blocked>
// CHECK: tt.print " pid: " {hex = false, isSigned = array<i32: 1>} : %i : i32
// CHECK: tt.print " x: " {hex = true, isSigned = array<i32: 1, 1>} : %v, %v : tensor<128xi32, #blocked>, tensor<128xi32, #blocked>
// CHECK-LABEL: tt.func @descriptors(%base: !tt.ptr<f16>, %m: i32, %n: i32, %s: i64, %t: tensor<64x64xf16, #blocked1>) {
// CHECK: %d = tt.make_tensor_descriptor %base, [%m, %n], [%s, %s] : <f16>, <64x64xf16, #shared>
// CHECK: %0 = tt.descriptor_load %d[%m, %n] : !tt.tensordesc<64x64xf16, #shared> -> tensor<64x64xf16, #blocked1>
// CHECK: tt.descriptor_store %d[%m, %n], %0 : !tt.tensordesc<64x64xf16, #shared>, tensor<64x64xf16, #blocked1>
// CHECK: tt.descriptor_reduce add, %d[%m, %n], %t : !tt.tensordesc<64x64xf16, #shared>, tensor<64x64xf16, #blocked1>
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#blocked2 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @dots(%a: tensor<16x16xf32>, %b: tensor<16x16xf32>, %c: tensor<16x16xf32>, %x8: tensor<16x32xf8E4M3FN>, %s: tensor<16x1xi8>, %y8: tensor<32x16xf8E4M3FN>) {
    %0 = tt.dot %a, %b, %c, inputPrecision = bf16x3 : tensor<16x16xf32> * tensor<16x16xf32> -> tensor<16x16xf32>
    %1 = tt.dot %a, %b, %0, inputPrecision = tf32x3 : tensor<16x16xf32> * tensor<16x16xf32> -> tensor<16x16xf32>
    %2 = tt.dot_scaled %x8 scale %s, %y8, %1 lhs = e4m3 rhs = e4m3 {fastMath = false} : tensor<16x32xf8E4M3FN>, tensor<16x1xi8> * tensor<32x16xf8E4M3FN> -> tensor<16x16xf32>
    tt.return
  }
  tt.func @scalar_math(%x: f32, %y: f32, %p: !tt.ptr<i32>, %v: i32, %t: tensor<1xi32, #blocked>) {
    %0 = tt.clampf %x, %y, %y, propagateNan = all : f32
    %1 = tt.clampf %x, %y, %y, propagateNan = none : f32
    %2 = tt.approx_divf %0, %1 : f32
    %3 = tt.precise_divf %2, %x : f32
    %4 = tt.unsplat %t : tensor<1xi32, #blocked>
    %5 = tt.atomic_load acquire, gpu, %p : (!tt.ptr<i32>) -> i32
    tt.atomic_store release, sys, %p, %4 : !tt.ptr<i32>
    %6 = tt.atomic_poll acquire, gpu, %p, %v : !tt.ptr<i32>, i32 -> i1
    llvm.intr.assume %6 : i1
    tt.grid_dependency_wait
    tt.grid_dependency_launch_dependents
    tt.return
  }
  tt.func @debug(%c: tensor<128xi1, #blocked>, %v: tensor<128xi32, #blocked>, %i: i32) {
    tt.assert %c, "x must be non-negative" : tensor<128xi1, #blocked>
    tt.print " pid: " {hex = false, isSigned = array<i32: 1>} : %i : i32
    tt.print " x: " {hex = true, isSigned = array<i32: 1, 1>} : %v, %v : tensor<128xi32, #blocked>, tensor<128xi32, #blocked>
    tt.return
  }
  tt.func @descriptors(%base: !tt.ptr<f16>, %m: i32, %n: i32, %s: i64, %t: tensor<64x64xf16, #blocked2>) {
    %d = tt.make_tensor_descriptor %base, [%m, %n], [%s, %s] : !tt.ptr<f16>, !tt.tensordesc<64x64xf16, #shared>
    %0 = tt.descriptor_load %d[%m, %n] : !tt.tensordesc<64x64xf16, #shared> -> tensor<64x64xf16, #blocked2>
    tt.descriptor_store %d[%m, %n], %0 : !tt.tensordesc<64x64xf16, #shared>, tensor<64x64xf16, #blocked2>
    tt.descriptor_reduce add, %d[%m, %n], %t : !tt.tensordesc<64x64xf16, #shared>, tensor<64x64xf16, #blocked2>
    tt.return
  }
}
