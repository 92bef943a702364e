// RUN: irkit-opt %s | irkit-opt | FileCheck %s

// Intel ops (ttig.*, intel-xpu-backend-for-triton 2025 TritonIntelGPUOps.td): prefetch, descriptor_prefetch,
// alloc (its TT_Ptr result unqualified), sub_group_transpose through a local buffer, broadcast across layouts.

// CHECK: #blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK: #blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: tt.func @intel(%p: tensor<16x16x!tt.ptr<f16>, #blocked>, %m: tensor<16x16xi1, #blocked>, %x: tensor<16x16xf16, #blocked>, %d: !tt.tensordesc<16x16xf16>, %i: i32, %b: tensor<1x16xf16, #blocked>) -> tensor<16x16xf16, #blocked> {
// CHECK: ttig.prefetch %p, %m {cache = 1 : i32, evict = 1 : i32, isVolatile = false} : tensor<16x16x!tt.ptr<f16>, #blocked>
// CHECK: ttig.descriptor_prefetch %d[%i, %i] cacheModifier = cg evictionPolicy = evict_last : !tt.tensordesc<16x16xf16>
// CHECK: %buf = ttig.alloc : <f16, 3>
// CHECK: %t = ttig.sub_group_transpose %buf, %x : tensor<16x16xf16, #blocked>
// CHECK: %e = ttig.broadcast %b : tensor<1x16xf16, #blocked> -> tensor<16x16xf16, #blocked1>
// CHECK: tt.return %t : tensor<16x16xf16, #blocked>
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32} {
  tt.func @intel(%p: tensor<16x16x!tt.ptr<f16>, #blocked>, %m: tensor<16x16xi1, #blocked>, %x: tensor<16x16xf16, #blocked>, %d: !tt.tensordesc<16x16xf16>, %i: i32, %b: tensor<1x16xf16, #blocked>) -> tensor<16x16xf16, #blocked> {
    ttig.prefetch %p, %m {cache = 1 : i32, evict = 1 : i32, isVolatile = false} : tensor<16x16x!tt.ptr<f16>, #blocked>
    ttig.descriptor_prefetch %d[%i, %i] cacheModifier = cg evictionPolicy = evict_last : !tt.tensordesc<16x16xf16>
    %buf = ttig.alloc : <f16, 3>
    %t = ttig.sub_group_transpose %buf, %x : tensor<16x16xf16, #blocked>
    %e = ttig.broadcast %b : tensor<1x16xf16, #blocked> -> tensor<16x16xf16, #blocked1>
    tt.return %t : tensor<16x16xf16, #blocked>
  }
}
