// RUN: irkit-opt %s | irkit-opt | FileCheck %s

// Triton 3.3 writes the AMD dialect as amdgpu.* beside ttg.*: printed back so, with 3.3's buffer op formats
// (cacheModifier keyword, only the result type) and rocdl.sched.barrier's integer mask.
// Accepted as written by the real Triton 3.3 parser; so is irkit's output (custom and generic).

// CHECK: #blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [64], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tt.func @buffer_ops(%p: !tt.ptr<f32>, %o: tensor<256xi32, #blocked>, %m: tensor<256xi1, #blocked>, %x: tensor<256xf32, #blocked>, %s: i32, %c: i1) {
// CHECK: %0 = amdgpu.buffer_load %p[%o], %m, %x cacheModifier = cg stride = %s : tensor<256xf32, #blocked>
// CHECK: amdgpu.buffer_store %0, %p[%o], %m : tensor<256xf32, #blocked>
// CHECK: %1 = amdgpu.buffer_atomic_rmw fadd, acq_rel, gpu, %x, %p[%o], %m : tensor<256xf32, #blocked>
// CHECK: amdgpu.cond_barrier %c
// CHECK: rocdl.sched.barrier 0
// CHECK: rocdl.s.setprio 1
// CHECK: %2 = rocdl.workitem.id.x : i32
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [64], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  tt.func @buffer_ops(%p: !tt.ptr<f32>, %o: tensor<256xi32, #blocked>, %m: tensor<256xi1, #blocked>, %x: tensor<256xf32, #blocked>, %s: i32, %c: i1) {
    %0 = amdgpu.buffer_load %p[%o], %m, %x cacheModifier = cg stride = %s : tensor<256xf32, #blocked>
    amdgpu.buffer_store %0, %p[%o], %m : tensor<256xf32, #blocked>
    %1 = amdgpu.buffer_atomic_rmw fadd, acq_rel, gpu, %x, %p[%o], %m : tensor<256xf32, #blocked>
    amdgpu.cond_barrier %c
    rocdl.sched.barrier 0
    rocdl.s.setprio 1
    %2 = rocdl.workitem.id.x : i32
    tt.return
  }
}
