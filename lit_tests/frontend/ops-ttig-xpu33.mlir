// RUN: irkit-opt %s | irkit-opt | FileCheck %s
// RUN: irkit-opt %s --mlir-print-op-generic | irkit-opt | FileCheck %s

// Intel's XPU backend 3.3 writes core ops as ttg.* but its own as triton_intel_gpu.* (attributes too): both
// come back as written, since that compiler knows no `ttig`.  Its prefetch inherits the load's attributes,
// operandSegmentSizes included, as discardable attributes: printed as they came.

// CHECK: #blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK: #mma = #triton_intel_gpu.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [4, 1], repCluster = [1, 1], A = [8, 16], B = [16, 16], C = [8, 16]}>
// CHECK: module attributes {triton_intel_gpu.support_dpas, "ttg.num-ctas" = 1 : i32
// CHECK-LABEL: tt.func @xpu33
// CHECK: triton_intel_gpu.prefetch %{{.*}} {boundaryCheck = array<i32: 0, 1>, cache = 1 : i32, evict = 1 : i32, isVolatile = false, operandSegmentSizes = array<i32: 1, 0, 0>} : !tt.ptr<tensor<32x16xf16, #blocked>>
// CHECK: ttg.convert_layout %{{.*}} : tensor<32x16xf32, #blocked> -> tensor<32x16xf32, #mma>
// CHECK-NOT: ttig.
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #triton_intel_gpu.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [4, 1], repCluster = [1, 1], A = [8, 16], B = [16, 16], C = [8, 16]}>
module attributes {triton_intel_gpu.support_dpas, "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 16 : i32} {
  tt.func @xpu33(%p: !tt.ptr<tensor<32x16xf16, #blocked>>, %x: tensor<32x16xf32, #blocked>) -> tensor<32x16xf32, #mma> {
    triton_intel_gpu.prefetch %p {boundaryCheck = array<i32: 0, 1>, cache = 1 : i32, evict = 1 : i32, isVolatile = false, operandSegmentSizes = array<i32: 1, 0, 0>} : !tt.ptr<tensor<32x16xf16, #blocked>>
    %y = ttg.convert_layout %x : tensor<32x16xf32, #blocked> -> tensor<32x16xf32, #mma>
    tt.return %y : tensor<32x16xf32, #mma>
  }
}
