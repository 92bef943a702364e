// RUN: irkit-opt %s | irkit-opt | FileCheck %s

// Triton 3.1 spellings: triton_gpu/triton_nvidia_gpu prefixes, ttng barrier and TMA ops with unqualified
// types ('<1xi64, #shared1, mutable>', '<i8>'), tt.assert with file/func/line, tt.reshape's allow_reorder as a BoolAttr.
// Accepted as written by the real Triton 3.1 parser; so is irkit's output (custom and generic).

// CHECK: #blocked = #triton_gpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK: #blocked1 = #triton_gpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK: #shared = #triton_gpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0], hasLeadingOffset = false}>
// CHECK: #shared1 = #triton_gpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], hasLeadingOffset = true}>
// CHECK-LABEL: tt.func @tma(%desc: !tt.ptr<i8>, %i: i32, %p: i1) {
// CHECK: %bar = triton_gpu.local_alloc : () -> !tt.memdesc<1xi64, #shared, mutable>
// CHECK: triton_nvidia_gpu.init_barrier %bar, 1 : <1xi64, #shared, mutable>
// CHECK: %buf = triton_gpu.local_alloc : () -> !tt.memdesc<64x64xf16, #shared1, mutable>
// CHECK: triton_nvidia_gpu.barrier_expect %bar, 8192, %p : <1xi64, #shared, mutable>
// CHECK: triton_nvidia_gpu.async_tma_copy_global_to_local %desc[%i, %i] %buf, %bar, %p : <i8>, <1xi64, #shared, mutable> -> <64x64xf16, #shared1, mutable>
// CHECK: triton_nvidia_gpu.wait_barrier %bar, %i : <1xi64, #shared, mutable>
// CHECK: triton_nvidia_gpu.async_tma_copy_local_to_global %desc[%i, %i] %buf : <i8>, <64x64xf16, #shared1, mutable>
// CHECK: triton_nvidia_gpu.async_tma_store_wait {pendings = 0 : i32}
// CHECK: triton_nvidia_gpu.inval_barrier %bar : <1xi64, #shared, mutable>
// CHECK-LABEL: tt.func @debug(%c: tensor<128xi1, #blocked>, %x: tensor<256xf32, #blocked>) -> tensor<16x16xf32, #blocked1> {
// CHECK: tt.assert %c, "x must be non-negative", "kernel.py", "f", 12 : tensor<128xi1, #blocked>
// CHECK: %0 = tt.reshape %x {allow_reorder = false} : tensor<256xf32, #blocked> -> tensor<16x16xf32, #blocked1>
// CHECK: tt.return %0 : tensor<16x16xf32, #blocked1>
#blocked = #triton_gpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#blocked1 = #triton_gpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #triton_gpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], hasLeadingOffset = true}>
#shared1 = #triton_gpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0], hasLeadingOffset = false}>
module attributes {"triton_gpu.num-ctas" = 1 : i32, "triton_gpu.num-warps" = 4 : i32, triton_gpu.target = "cuda:90", "triton_gpu.threads-per-warp" = 32 : i32} {
  tt.func @tma(%desc: !tt.ptr<i8>, %i: i32, %p: i1) {
    %bar = triton_gpu.local_alloc  : () -> !tt.memdesc<1xi64, #shared1, mutable>
    triton_nvidia_gpu.init_barrier %bar, 1 : <1xi64, #shared1, mutable>
    %buf = triton_gpu.local_alloc  : () -> !tt.memdesc<64x64xf16, #shared, mutable>
    triton_nvidia_gpu.barrier_expect %bar, 8192, %p : <1xi64, #shared1, mutable>
    triton_nvidia_gpu.async_tma_copy_global_to_local %desc[%i, %i] %buf, %bar, %p : <i8>, <1xi64, #shared1, mutable> -> <64x64xf16, #shared, mutable>
    triton_nvidia_gpu.wait_barrier %bar, %i : <1xi64, #shared1, mutable>
    triton_nvidia_gpu.async_tma_copy_local_to_global %desc[%i, %i] %buf : <i8>, <64x64xf16, #shared, mutable>
    triton_nvidia_gpu.async_tma_store_wait {pendings = 0 : i32}
    triton_nvidia_gpu.inval_barrier %bar : <1xi64, #shared1, mutable>
    tt.return
  }
  tt.func @debug(%c: tensor<128xi1, #blocked>, %x: tensor<256xf32, #blocked>) -> tensor<16x16xf32, #blocked1> {
    tt.assert %c, "x must be non-negative", "kernel.py", "f", 12 : tensor<128xi1, #blocked>
    %0 = tt.reshape %x {allow_reorder = false} : tensor<256xf32, #blocked> -> tensor<16x16xf32, #blocked1>
    tt.return %0 : tensor<16x16xf32, #blocked1>
  }
}
