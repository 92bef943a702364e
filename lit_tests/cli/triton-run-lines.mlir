// A Triton-style RUN line runs unchanged but for the tool's name: single-dash flags, the C++ pass
// name, the flag before or after the input, and MLIR's textual pipeline (issue 8).
// RUN: irkit-opt %s -split-input-file -tritongpu-coalesce | FileCheck %s
// RUN: irkit-opt -tritongpu-coalesce %s -split-input-file | FileCheck %s
// RUN: irkit-opt %s -split-input-file --pass-pipeline='builtin.module(tritongpu-coalesce)' | FileCheck %s
// RUN: irkit-opt %s -split-input-file --pass-pipeline='builtin.module(tt.func(coalesce))' | FileCheck %s
// RUN: irkit-opt %s --split-input-file --coalesce --mlir-disable-threading | FileCheck %s

// A masked copy: the pointers are 16-byte aligned and contiguous, so 4 f32 per thread.
// CHECK: [[WIDE:#.*]] = #triton_gpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tt.func @masked_copy
// CHECK: arith.cmpi slt,
// CHECK: tt.load %{{.*}}, %{{.*}} : tensor<512x!tt.ptr<f32>, [[WIDE]]>
// CHECK: tt.store %{{.*}}, %{{.*}}, %{{.*}} : tensor<512x!tt.ptr<f32>, [[WIDE]]>
#blocked = #triton_gpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"triton_gpu.num-warps" = 4 : i32, "triton_gpu.num-ctas" = 1 : i32, "triton_gpu.threads-per-warp" = 32 : i32} {
  tt.func @masked_copy(%src: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %dst: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
    %offs = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #blocked>
    %limit = tt.splat %n : i32 -> tensor<512xi32, #blocked>
    // MLIR reads an enum case quoted too (Triton's tests write it so); it prints back bare
    %mask = arith.cmpi "slt", %offs, %limit : tensor<512xi32, #blocked>
    %sp = tt.splat %src : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #blocked>
    %sptr = tt.addptr %sp, %offs : tensor<512x!tt.ptr<f32>, #blocked>, tensor<512xi32, #blocked>
    %v = tt.load %sptr, %mask : tensor<512x!tt.ptr<f32>, #blocked>
    %dp = tt.splat %dst : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #blocked>
    %dptr = tt.addptr %dp, %offs : tensor<512x!tt.ptr<f32>, #blocked>, tensor<512xi32, #blocked>
    tt.store %dptr, %v, %mask : tensor<512x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

// Without the divisibility hint the pointers are only known to be 4-byte aligned: one f32 per thread,
// and the layout coalesce picks is the one the module already has.
// CHECK-LABEL: tt.func @unaligned
// CHECK: tt.load %{{.*}} : tensor<128x!tt.ptr<f32>, #blocked>
#blocked = #triton_gpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"triton_gpu.num-warps" = 4 : i32, "triton_gpu.num-ctas" = 1 : i32, "triton_gpu.threads-per-warp" = 32 : i32} {
  tt.func @unaligned(%src: !tt.ptr<f32>) {
    %offs = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>
    %sp = tt.splat %src : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #blocked>
    %sptr = tt.addptr %sp, %offs : tensor<128x!tt.ptr<f32>, #blocked>, tensor<128xi32, #blocked>
    %v = tt.load %sptr : tensor<128x!tt.ptr<f32>, #blocked>
    tt.return
  }
}
