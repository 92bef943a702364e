// A file with two top-level modules (as Triton's test/Analysis/test-allocation.mlir has): every pass
// runs on each module, with that module's own attributes, and the output keeps both, inside the
// unnamed module MLIR wraps them in.
// RUN: irkit-opt %s --mlir-disable-threading -test-print-allocation 2>&1 | FileCheck %s --check-prefix=ALLOC
// RUN: irkit-opt %s -tritongpu-coalesce | FileCheck %s --check-prefix=COAL
// RUN: irkit-opt %s | irkit-opt -tritongpu-coalesce | FileCheck %s --check-prefix=COAL
// RUN: irkit-report %s | FileCheck %s --check-prefix=REPORT

// coalesce: 512 f32 over 4 warps gives 4 per thread, over 8 warps 2
// COAL: #[[L4:blocked[0-9]*]] = #triton_gpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// COAL: #[[L8:blocked[0-9]*]] = #triton_gpu.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]}>
// COAL: module {
#blocked = #triton_gpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#shared = #triton_gpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#blocked8 = #triton_gpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]}>

// 32x16 f16 = 1024 bytes of shared memory
// ALLOC-LABEL: four_warps
// ALLOC: offset = 0, size = 1024
// ALLOC: size = 1024
// COAL-LABEL: module attributes {"triton_gpu.num-ctas" = 1 : i32, "triton_gpu.num-warps" = 4 : i32}
// COAL: tt.load %{{.*}} : tensor<512x!tt.ptr<f32>, #[[L4]]>
module attributes {"triton_gpu.num-warps" = 4 : i32, "triton_gpu.num-ctas" = 1 : i32} {
  tt.func @four_warps(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
    %cst = arith.constant dense<0.000000e+00> : tensor<32x16xf16, #blocked>
    %buf = triton_gpu.local_alloc %cst : (tensor<32x16xf16, #blocked>) -> !tt.memdesc<32x16xf16, #shared, #triton_gpu.shared_memory>
    %offs = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #blocked>
    %sp = tt.splat %p : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #blocked>
    %ptr = tt.addptr %sp, %offs : tensor<512x!tt.ptr<f32>, #blocked>, tensor<512xi32, #blocked>
    %v = tt.load %ptr : tensor<512x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// 64x16 f16 = 2048 bytes; eight warps cover 512 elements with 2 each
// ALLOC-LABEL: eight_warps
// ALLOC: offset = 0, size = 2048
// ALLOC: size = 2048
// COAL-LABEL: module attributes {"triton_gpu.num-ctas" = 1 : i32, "triton_gpu.num-warps" = 8 : i32}
// COAL: tt.load %{{.*}} : tensor<512x!tt.ptr<f32>, #[[L8]]>
module attributes {"triton_gpu.num-warps" = 8 : i32, "triton_gpu.num-ctas" = 1 : i32} {
  tt.func @eight_warps(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
    %cst = arith.constant dense<0.000000e+00> : tensor<64x16xf16, #blocked8>
    %buf = triton_gpu.local_alloc %cst : (tensor<64x16xf16, #blocked8>) -> !tt.memdesc<64x16xf16, #shared, #triton_gpu.shared_memory>
    %offs = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #blocked8>
    %sp = tt.splat %p : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #blocked8>
    %ptr = tt.addptr %sp, %offs : tensor<512x!tt.ptr<f32>, #blocked8>, tensor<512xi32, #blocked8>
    %v = tt.load %ptr : tensor<512x!tt.ptr<f32>, #blocked8>
    tt.return
  }
}

// each module is reported on its own: its functions, its warps, its bytes
// REPORT: 2 modules, each reported on its own
// REPORT: module 1 of 2
// REPORT: 1 function(s) @four_warps; {{.*}}; 4 warps;
// REPORT: shared memory (predicted): 1,024 bytes
// REPORT: module 2 of 2
// REPORT: 1 function(s) @eight_warps; {{.*}}; 8 warps;
// REPORT: shared memory (predicted): 2,048 bytes
