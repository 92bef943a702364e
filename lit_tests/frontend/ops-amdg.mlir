// RUN: irkit-opt %s | irkit-opt | FileCheck %s

// AMD ops in Triton 3.9's syntax (amdg.*): buffer ops write the pointer type ('!tt.ptr<f32> -> tensor<...>') and
// carry the cache policy in the dictionary; buffer_load_to_local prints the memdesc unqualified; rocdl.sched.barrier
// takes sched_group_mask keywords.  Accepted as written by the real Triton 3.9 parser; so is irkit's output.

// CHECK: #blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [64], warpsPerCTA = [4], order = [0]}>
// CHECK: #blocked1 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK: #shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
// CHECK: #smem = #ttg.shared_memory
// CHECK-LABEL: tt.func @buffer_ops(%p: !tt.ptr<f32>, %o: tensor<256xi32, #blocked>, %m: tensor<256xi1, #blocked>, %x: tensor<256xf32, #blocked>, %s: i32) {
// CHECK: %0 = amdg.buffer_load %p[%o], %m, %x stride = %s {cachePolicy = #tt.cache_policy<cache_modifier = cg, eviction_policy = evict_last>, contiguity = 4 : i32} : !tt.ptr<f32> -> tensor<256xf32, #blocked>
// CHECK: amdg.buffer_store %0, %p[%o], %m : !tt.ptr<f32> -> tensor<256xf32, #blocked>
// CHECK: %1 = amdg.buffer_atomic_rmw fadd, acq_rel, gpu, %x, %p[%o], %m : !tt.ptr<f32> -> tensor<256xf32, #blocked>
// CHECK: %2 = amdg.buffer_atomic_cas acq_rel, gpu, %x, %1, %p[%o] stride = %s : !tt.ptr<f32> -> tensor<256xf32, #blocked>
// CHECK-LABEL: tt.func @to_shared(%p: !tt.ptr<f16>, %o: tensor<64x64xi32, #blocked1>, %m: tensor<64x64xi1, #blocked1>, %buf: !ttg.memdesc<64x64xf16, #shared, #smem, mutable>) {
// CHECK: %t = amdg.buffer_load_to_local %p[%o] mask = %m into %buf {contiguity = 2 : i32} : !tt.ptr<f16>[tensor<64x64xi32, #blocked1>]  -> <64x64xf16, #shared, #smem, mutable>
// CHECK: %c = ttg.async_commit_group tokens %t
// CHECK: %w = ttg.async_wait %c {num = 0 : i32}
// CHECK-LABEL: tt.func @sched(%c: i1, %x: tensor<64x64xf16, #blocked1>) -> tensor<64x64xf16, #blocked1> {
// CHECK: amdg.cond_barrier %c
// CHECK: rocdl.sched.barrier none
// CHECK: rocdl.sched.barrier valu|ds_read
// CHECK: rocdl.s.setprio 1
// CHECK: %0 = amdg.in_thread_transpose %x : tensor<64x64xf16, #blocked1> -> tensor<64x64xf16, #blocked1>
// CHECK: tt.return %0 : tensor<64x64xf16, #blocked1>
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [64], warpsPerCTA = [4], order = [0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  tt.func @buffer_ops(%p: !tt.ptr<f32>, %o: tensor<256xi32, #blocked>, %m: tensor<256xi1, #blocked>, %x: tensor<256xf32, #blocked>, %s: i32) {
    %0 = amdg.buffer_load %p[%o], %m, %x stride = %s {cachePolicy = #tt.cache_policy<cache_modifier = cg, eviction_policy = evict_last>, contiguity = 4 : i32} : !tt.ptr<f32> -> tensor<256xf32, #blocked>
    amdg.buffer_store %0, %p[%o], %m : !tt.ptr<f32> -> tensor<256xf32, #blocked>
    %1 = amdg.buffer_atomic_rmw fadd, acq_rel, gpu, %x, %p[%o], %m : !tt.ptr<f32> -> tensor<256xf32, #blocked>
    %2 = amdg.buffer_atomic_cas acq_rel, gpu, %x, %1, %p[%o] stride = %s : !tt.ptr<f32> -> tensor<256xf32, #blocked>
    tt.return
  }
  tt.func @to_shared(%p: !tt.ptr<f16>, %o: tensor<64x64xi32, #blocked1>, %m: tensor<64x64xi1, #blocked1>, %buf: !ttg.memdesc<64x64xf16, #shared, #smem, mutable>) {
    %t = amdg.buffer_load_to_local %p[%o] mask = %m into %buf {contiguity = 2 : i32} : !tt.ptr<f16>[tensor<64x64xi32, #blocked1>]  -> <64x64xf16, #shared, #smem, mutable>
    %c = ttg.async_commit_group tokens %t
    %w = ttg.async_wait %c {num = 0 : i32}
    tt.return
  }
  tt.func @sched(%c: i1, %x: tensor<64x64xf16, #blocked1>) -> tensor<64x64xf16, #blocked1> {
    amdg.cond_barrier %c
    rocdl.sched.barrier none
    rocdl.sched.barrier valu|ds_read
    rocdl.s.setprio 1
    %0 = amdg.in_thread_transpose %x : tensor<64x64xf16, #blocked1> -> tensor<64x64xf16, #blocked1>
    tt.return %0 : tensor<64x64xf16, #blocked1>
  }
}
