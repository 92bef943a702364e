// RUN: irkit-opt %s | irkit-opt | FileCheck %s

// ttg ops in Triton 3.9's syntax: ttg.barrier address-space bits, warp_id, shared-memory gather/scatter,
// inline asm, ttg.warp_specialize (captures, default region, partitions with their own warps).
// Accepted as written by the real Triton 3.9 parser; so is irkit's output (custom and generic).

// CHECK: #blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK: #blocked1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK: #shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
// CHECK: #smem = #ttg.shared_memory
// CHECK-LABEL: tt.func @barriers_and_warps() -> i32 {
// CHECK: ttg.barrier local
// CHECK: ttg.barrier all
// CHECK: ttg.barrier local|global_read
// CHECK: ttg.barrier none
// CHECK: %w = ttg.warp_id
// CHECK: tt.return %w : i32
// CHECK-LABEL: tt.func @shared_gather(%m: !ttg.memdesc<32x32xf32, #shared, #smem, mutable>, %i: tensor<32x32xi32, #blocked>, %v: tensor<32x32xf32, #blocked>) -> tensor<32x32xf32, #blocked> {
// CHECK: %0 = ttg.local_gather %m[%i] {axis = 1 : i32} : !ttg.memdesc<32x32xf32, #shared, #smem, mutable>, tensor<32x32xi32, #blocked> -> tensor<32x32xf32, #blocked>
// CHECK: ttg.local_scatter %m[%i], %0 {axis = 0 : i32} : !ttg.memdesc<32x32xf32, #shared, #smem, mutable>, tensor<32x32xi32, #blocked>, tensor<32x32xf32, #blocked>
// CHECK: %1 = ttg.local_atomic_scatter_rmw fadd, %m[%i], %v {axis = 1 : i32} : (!ttg.memdesc<32x32xf32, #shared, #smem, mutable>, tensor<32x32xf32, #blocked>, tensor<32x32xi32, #blocked>) -> tensor<32x32xf32, #blocked>
// CHECK: tt.return %1 : tensor<32x32xf32, #blocked>
// CHECK-LABEL: tt.func @asm(%x: tensor<128xi32, #blocked1>) -> tensor<128xi32, #blocked1> {
// CHECK: %0 = ttg.inline_asm "mov.b32 $0, $1;" {constraints = "=r,r", pure = true} %x : (tensor<128xi32, #blocked1>) -> tensor<128xi32, #blocked1>
// CHECK: tt.return %0 : tensor<128xi32, #blocked1>
// CHECK-LABEL: tt.func @warp_specialize(%p: !tt.ptr<i32>, %n: i32) -> i32 {
// CHECK: %r = ttg.warp_specialize(%p, %n) attributes {requestedRegisters = array<i32: 24, 48>}
// CHECK: default {
// CHECK: %c = arith.constant 7 : i32
// CHECK: ttg.warp_yield %c : i32
// CHECK: partition0(%arg2: !tt.ptr<i32>, %arg3: i32) num_warps(1) {
// CHECK: tt.store %arg2, %arg3 : !tt.ptr<i32>
// CHECK: ttg.warp_return
// CHECK: partition1(%arg2: !tt.ptr<i32>, %arg3: i32) num_warps(2) {
// CHECK: ttg.warp_return
// CHECK: } : (!tt.ptr<i32>, i32) -> i32
// CHECK: tt.return %r : i32
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @barriers_and_warps() -> i32 {
    ttg.barrier local
    ttg.barrier all
    ttg.barrier local|global_read
    ttg.barrier none
    %w = ttg.warp_id
    tt.return %w : i32
  }
  tt.func @shared_gather(%m: !ttg.memdesc<32x32xf32, #shared, #smem, mutable>, %i: tensor<32x32xi32, #blocked>, %v: tensor<32x32xf32, #blocked>) -> tensor<32x32xf32, #blocked> {
    %0 = ttg.local_gather %m[%i] {axis = 1 : i32} : !ttg.memdesc<32x32xf32, #shared, #smem, mutable>, tensor<32x32xi32, #blocked> -> tensor<32x32xf32, #blocked>
    ttg.local_scatter %m[%i], %0 {axis = 0 : i32} : !ttg.memdesc<32x32xf32, #shared, #smem, mutable>, tensor<32x32xi32, #blocked>, tensor<32x32xf32, #blocked>
    %1 = ttg.local_atomic_scatter_rmw fadd, %m[%i], %v {axis = 1 : i32} : (!ttg.memdesc<32x32xf32, #shared, #smem, mutable>, tensor<32x32xf32, #blocked>, tensor<32x32xi32, #blocked>) -> tensor<32x32xf32, #blocked>
    tt.return %1 : tensor<32x32xf32, #blocked>
  }
  tt.func @asm(%x: tensor<128xi32, #blocked1>) -> tensor<128xi32, #blocked1> {
    %0 = ttg.inline_asm "mov.b32 $0, $1;" {constraints = "=r,r", pure = true} %x : (tensor<128xi32, #blocked1>) -> tensor<128xi32, #blocked1>
    tt.return %0 : tensor<128xi32, #blocked1>
  }
  tt.func @warp_specialize(%p: !tt.ptr<i32>, %n: i32) -> i32 {
    %r = ttg.warp_specialize(%p, %n) attributes {requestedRegisters = array<i32: 24, 48>}
    default {
      %c = arith.constant 7 : i32
      ttg.warp_yield %c : i32
    }
    partition0(%arg2: !tt.ptr<i32>, %arg3: i32) num_warps(1) {
      tt.store %arg2, %arg3 : !tt.ptr<i32>
      ttg.warp_return
    }
    partition1(%arg2: !tt.ptr<i32>, %arg3: i32) num_warps(2) {
      ttg.warp_return
    } : (!tt.ptr<i32>, i32) -> i32
    tt.return %r : i32
  }
}
