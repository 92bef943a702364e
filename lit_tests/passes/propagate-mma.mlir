// RUN: irkit-opt %s --split-input-file --propagate-mma=profit=always --verify-diagnostics | FileCheck %s
// RUN: irkit-opt %s --split-input-file --propagate-mma="profit=always dry-run=true" --mlir-print-remarks 2>&1 | FileCheck %s --check-prefix=DRY
// RUN: irkit-opt %s --split-input-file --propagate-mma="profit=always loads-only=true" --mlir-print-remarks 2>&1 | FileCheck %s --check-prefix=LOADS
// RUN: irkit-opt %s --split-input-file -p 'propagate-mma{profit=always min-bytes=65536}' --mlir-print-remarks 2>&1 | FileCheck %s --check-prefix=MINB
// RUN: irkit-opt %s --split-input-file --propagate-mma="profit=always targets=dpas,amd_mfma" --mlir-print-remarks 2>&1 | FileCheck %s --check-prefix=TGT
// RUN: irkit-opt %S/../../examples/addmm_gfx942_256x256.ttgir --propagate-mma | FileCheck %s --check-prefix=EXAMPLE

// The shipped example (examples/README.md): Triton 3.1's gfx942 GEMM + add-matrix at 256x256, both epilogue
// conversions removed, the load of D and the store of C in #mma.
// EXAMPLE-LABEL: tt.func public @addmm_kernel
// EXAMPLE-NOT: triton_gpu.convert_layout
// EXAMPLE: %[[D:.*]] = tt.load %{{.*}}, %{{.*}}, %{{.*}} : tensor<256x256x!tt.ptr<f32>, #mma>
// EXAMPLE: %[[C:.*]] = arith.addf %{{.*}}, %[[D]] : tensor<256x256xf32, #mma>
// EXAMPLE: tt.store %{{.*}}, %[[C]], %{{.*}} : tensor<256x256x!tt.ptr<f32>, #mma>
// EXAMPLE-NOT: triton_gpu.convert_layout

// The remarks of the option runs come first (stderr), then the IR of every case.
// DRY: remark: propagate-mma: would move to #nvidia_mma: 1 conversion(s) removed, 0 added
// DRY: remark: propagate-mma: would move to #nvidia_mma: 1 conversion(s) removed, 0 added
// LOADS: remark: propagate-mma: moved to #nvidia_mma: 1 conversion(s) removed, 0 added
// LOADS: remark: propagate-mma: conversion left alone: no conversion would disappear (%sb: tt.store keeps its layout (loads-only))
// LOADS: remark: propagate-mma: conversion left alone: removing it needs 1 conversion(s) elsewhere (16384 B) for 1 removed (16384 B): %sum: tt.store keeps its layout (loads-only)
// LOADS: remark: propagate-mma: moved to #amd_mfma: 2 conversion(s) removed
// MINB: remark: propagate-mma: conversion left alone: 16384 B < min-bytes=65536
// MINB: remark: propagate-mma: conversion left alone: 16384 B < min-bytes=65536
// TGT: remark: propagate-mma: conversion left alone: mma_v2 is not in targets=dpas,amd_mfma

// A tensor-of-pointers load converted to the accumulator layout for an add, then back for the store
// (the epilogue of Triton 3.3/3.9 on cuda:80): the load, its pointer and mask arithmetic (rebuilt with
// #slice of #mma) and the store move to #mma, and both conversions go.

// CHECK-LABEL: tt.func public @load_into_mma
// CHECK-NOT: ttg.convert_layout
// CHECK: %rows = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #mma}>>
// CHECK: %r = tt.expand_dims %rows {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #mma}>> -> tensor<64x1xi32, #mma>
// CHECK: %[[MASK:.*]] = tt.broadcast %{{.*}} : tensor<64x1xi1, #mma> -> tensor<64x64xi1, #mma>
// CHECK: %x = tt.load %[[PTR:.*]], %[[MASK]], %{{.*}} : tensor<64x64x!tt.ptr<f32>, #mma>
// CHECK: %sum = arith.addf %acc, %x : tensor<64x64xf32, #mma>
// CHECK: tt.store %{{.*}}, %sum, %[[MASK]] : tensor<64x64x!tt.ptr<f32>, #mma>
// CHECK-NOT: ttg.convert_layout
// DRY-LABEL: tt.func public @load_into_mma
// DRY-COUNT-2: ttg.convert_layout
// LOADS-LABEL: tt.func public @load_into_mma
// LOADS: tt.load %{{.*}} : tensor<64x64x!tt.ptr<f32>, #mma>
// LOADS: %sb = ttg.convert_layout %sum : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #blocked>
// LOADS: tt.store %{{.*}}, %sb, %{{.*}} : tensor<64x64x!tt.ptr<f32>, #blocked>
// MINB-LABEL: tt.func public @load_into_mma
// MINB-COUNT-2: ttg.convert_layout
// TGT-LABEL: tt.func public @load_into_mma
// TGT-COUNT-2: ttg.convert_layout
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @load_into_mma(%acc: tensor<64x64xf32, #mma>, %d: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %c: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %stride: i32) {
    %rows = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %cols = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %r = tt.expand_dims %rows {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<64x1xi32, #blocked>
    %s = tt.splat %stride : i32 -> tensor<64x1xi32, #blocked>
    %ro = arith.muli %r, %s : tensor<64x1xi32, #blocked>
    %c0 = tt.expand_dims %cols {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x64xi32, #blocked>
    %rb = tt.broadcast %ro : tensor<64x1xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %cb = tt.broadcast %c0 : tensor<1x64xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %off = arith.addi %rb, %cb : tensor<64x64xi32, #blocked>
    %dp = tt.splat %d : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>, #blocked>
    %dptr = tt.addptr %dp, %off : tensor<64x64x!tt.ptr<f32>, #blocked>, tensor<64x64xi32, #blocked>
    %m1 = arith.cmpi slt, %r, %s : tensor<64x1xi32, #blocked>
    %mask = tt.broadcast %m1 : tensor<64x1xi1, #blocked> -> tensor<64x64xi1, #blocked>
    %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #blocked>
    %x = tt.load %dptr, %mask, %zero : tensor<64x64x!tt.ptr<f32>, #blocked>
    // expected-remark@+1 {{propagate-mma: moved to #nvidia_mma: 1 conversion(s) removed, 0 added, 0 retargeted}}
    %xm = ttg.convert_layout %x : tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #mma>
    %sum = arith.addf %acc, %xm : tensor<64x64xf32, #mma>
    // expected-remark@+1 {{propagate-mma: moved to #nvidia_mma: 1 conversion(s) removed, 0 added, 0 retargeted}}
    %sb = ttg.convert_layout %sum : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #blocked>
    %cp = tt.splat %c : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>, #blocked>
    %cptr = tt.addptr %cp, %off : tensor<64x64x!tt.ptr<f32>, #blocked>, tensor<64x64xi32, #blocked>
    tt.store %cptr, %sb, %mask : tensor<64x64x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

// The accumulator converted to #blocked and added to a blocked load before a blocked store (the
// epilogue of Triton 3.1 on cuda:80): forward from the conversion, the add, the load and the store
// move to #mma.

// CHECK-LABEL: tt.func public @mma_to_blocked_store
// CHECK-NOT: ttg.convert_layout
// CHECK: %x = tt.load %{{.*}}, %{{.*}} : tensor<64x64x!tt.ptr<f32>, #mma>
// CHECK: %sum = arith.addf %acc, %x : tensor<64x64xf32, #mma>
// CHECK: tt.store %{{.*}}, %sum : tensor<64x64x!tt.ptr<f32>, #mma>
// LOADS-LABEL: tt.func public @mma_to_blocked_store
// LOADS: ttg.convert_layout %acc : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #blocked>
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @mma_to_blocked_store(%acc: tensor<64x64xf32, #mma>, %d: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %c: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
    // expected-remark@+1 {{propagate-mma: moved to #nvidia_mma: 1 conversion(s) removed, 0 added, 0 retargeted}}
    %ab = ttg.convert_layout %acc : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #blocked>
    %cols = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %c0 = tt.expand_dims %cols {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x64xi32, #blocked>
    %cb = tt.broadcast %c0 : tensor<1x64xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %ns = tt.splat %n : i32 -> tensor<64x64xi32, #blocked>
    %mask = arith.cmpi slt, %cb, %ns : tensor<64x64xi32, #blocked>
    %dp = tt.splat %d : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>, #blocked>
    %dptr = tt.addptr %dp, %cb : tensor<64x64x!tt.ptr<f32>, #blocked>, tensor<64x64xi32, #blocked>
    %x = tt.load %dptr, %mask : tensor<64x64x!tt.ptr<f32>, #blocked>
    %sum = arith.addf %ab, %x : tensor<64x64xf32, #blocked>
    %cp = tt.splat %c : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>, #blocked>
    %cptr = tt.addptr %cp, %cb : tensor<64x64x!tt.ptr<f32>, #blocked>, tensor<64x64xi32, #blocked>
    tt.store %cptr, %sum : tensor<64x64x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

// Triton 3.1 on gfx942 (#mma -> #blocked2 for the add, back to #mma for the store): both conversions
// go, and the rebuilt row index reuses the #slice<#mma> arithmetic the kernel already has.

// CHECK-LABEL: tt.func public @mfma_round_trip
// CHECK-NOT: triton_gpu.convert_layout
// CHECK: %rows_m = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32, #triton_gpu.slice<{dim = 1, parent = #mma}>>
// CHECK: %r_m = tt.expand_dims %rows_m {axis = 1 : i32}
// CHECK-NOT: tt.make_range
// CHECK: %[[OFF:.*]] = arith.muli %r_m, %{{.*}} : tensor<256x1xi32, #mma>
// CHECK: %x = tt.load %{{.*}} : tensor<256x256x!tt.ptr<f32>, #mma>
// CHECK: %sum = arith.addf %acc, %x : tensor<256x256xf32, #mma>
// CHECK: tt.store %{{.*}}, %sum : tensor<256x256x!tt.ptr<f32>, #mma>
// TGT-LABEL: tt.func public @mfma_round_trip
// TGT-NOT: triton_gpu.convert_layout
// TGT: tt.return
#blocked2 = #triton_gpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 64], warpsPerCTA = [8, 1], order = [1, 0]}>
#mma = #triton_gpu.amd_mfma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [2, 4], instrShape = [32, 32], isTransposed = false}>
module attributes {"triton_gpu.num-ctas" = 1 : i32, "triton_gpu.num-warps" = 8 : i32, triton_gpu.target = "hip:gfx942", "triton_gpu.threads-per-warp" = 64 : i32} {
  tt.func public @mfma_round_trip(%acc: tensor<256x256xf32, #mma>, %d: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %c: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %ld: i32 {tt.divisibility = 16 : i32}) {
    %rows_m = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32, #triton_gpu.slice<{dim = 1, parent = #mma}>>
    %rows_b = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32, #triton_gpu.slice<{dim = 1, parent = #blocked2}>>
    %r_m = tt.expand_dims %rows_m {axis = 1 : i32} : tensor<256xi32, #triton_gpu.slice<{dim = 1, parent = #mma}>> -> tensor<256x1xi32, #mma>
    %r_b = tt.expand_dims %rows_b {axis = 1 : i32} : tensor<256xi32, #triton_gpu.slice<{dim = 1, parent = #blocked2}>> -> tensor<256x1xi32, #blocked2>
    // expected-remark@+1 {{propagate-mma: moved to #amd_mfma: 2 conversion(s) removed, 0 added, 0 retargeted}}
    %ab = triton_gpu.convert_layout %acc : tensor<256x256xf32, #mma> -> tensor<256x256xf32, #blocked2>
    %lds = tt.splat %ld : i32 -> tensor<256x1xi32, #blocked2>
    %off = arith.muli %r_b, %lds : tensor<256x1xi32, #blocked2>
    %dp = tt.splat %d : !tt.ptr<f32> -> tensor<256x1x!tt.ptr<f32>, #blocked2>
    %dcol = tt.addptr %dp, %off : tensor<256x1x!tt.ptr<f32>, #blocked2>, tensor<256x1xi32, #blocked2>
    %dptr = tt.broadcast %dcol : tensor<256x1x!tt.ptr<f32>, #blocked2> -> tensor<256x256x!tt.ptr<f32>, #blocked2>
    %x = tt.load %dptr : tensor<256x256x!tt.ptr<f32>, #blocked2>
    %sum = arith.addf %ab, %x : tensor<256x256xf32, #blocked2>
    %back = triton_gpu.convert_layout %sum : tensor<256x256xf32, #blocked2> -> tensor<256x256xf32, #mma>
    %ldm = tt.splat %ld : i32 -> tensor<256x1xi32, #mma>
    %offm = arith.muli %r_m, %ldm : tensor<256x1xi32, #mma>
    %cp = tt.splat %c : !tt.ptr<f32> -> tensor<256x1x!tt.ptr<f32>, #mma>
    %ccol = tt.addptr %cp, %offm : tensor<256x1x!tt.ptr<f32>, #mma>, tensor<256x1xi32, #mma>
    %cptr = tt.broadcast %ccol : tensor<256x1x!tt.ptr<f32>, #mma> -> tensor<256x256x!tt.ptr<f32>, #mma>
    tt.store %cptr, %back : tensor<256x256x!tt.ptr<f32>, #mma>
    tt.return
  }
}

// -----

// The epilogue of intel-xpu-backend-for-triton issue #2378 as quoted there (after RewriteTensorPointer
// and Coalesce): pointer and mask converted #dpas -> #blocked for the load, the loaded value converted
// back.  All three conversions go; the load reads #dpas pointers.

// CHECK-LABEL: tt.func public @issue_2378_epilogue
// CHECK-NOT: triton_gpu.convert_layout
// CHECK: %[[MASK:.*]] = arith.andi %{{.*}}, %{{.*}} : tensor<256x256xi1, #mma>
// CHECK: %[[X:.*]] = tt.load %{{.*}}, %[[MASK]] : tensor<256x256x!tt.ptr<f32>, #mma>
// CHECK: %[[SUM:.*]] = arith.addf %acc, %[[X]] : tensor<256x256xf32, #mma>
// CHECK: tt.store %{{.*}}, %[[SUM]] {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<256x256xf32, #mma>>
// TGT-LABEL: tt.func public @issue_2378_epilogue
// TGT-NOT: triton_gpu.convert_layout
// TGT: tt.return
#blocked = #triton_gpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 16], warpsPerCTA = [8, 4], order = [1, 0]}>
#dpas = #triton_intel_gpu.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [8, 4], repCluster = [4, 2], A = [32, 16], B = [16, 32], C = [32, 32]}>
module attributes {"triton_gpu.num-ctas" = 1 : i32, "triton_gpu.num-warps" = 32 : i32, triton_gpu.target = "xpu", "triton_gpu.threads-per-warp" = 16 : i32, "triton_intel_gpu.support_sg_2d_block"} {
  tt.func public @issue_2378_epilogue(%acc: tensor<256x256xf32, #dpas>, %arg2: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg3: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %9: i32, %11: i32) {
    %c1_i64 = arith.constant 1 : i64
    %c4096_i64 = arith.constant 4096 : i64
    %16 = arith.extsi %9 : i32 to i64
    %17 = arith.extsi %11 : i32 to i64
    %18 = tt.splat %arg3 : !tt.ptr<f32> -> tensor<256x256x!tt.ptr<f32>, #dpas>
    %19 = tt.splat %16 : i64 -> tensor<256xi64, #triton_gpu.slice<{dim = 1, parent = #dpas}>>
    %20 = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32, #triton_gpu.slice<{dim = 1, parent = #dpas}>>
    %21 = arith.extsi %20 : tensor<256xi32, #triton_gpu.slice<{dim = 1, parent = #dpas}>> to tensor<256xi64, #triton_gpu.slice<{dim = 1, parent = #dpas}>>
    %22 = arith.addi %19, %21 : tensor<256xi64, #triton_gpu.slice<{dim = 1, parent = #dpas}>>
    %23 = tt.expand_dims %22 {axis = 1 : i32} : tensor<256xi64, #triton_gpu.slice<{dim = 1, parent = #dpas}>> -> tensor<256x1xi64, #dpas>
    %24 = tt.splat %c4096_i64 : i64 -> tensor<256x1xi64, #dpas>
    %25 = arith.muli %23, %24 : tensor<256x1xi64, #dpas>
    %26 = tt.broadcast %25 : tensor<256x1xi64, #dpas> -> tensor<256x256xi64, #dpas>
    %27 = tt.addptr %18, %26 : tensor<256x256x!tt.ptr<f32>, #dpas>, tensor<256x256xi64, #dpas>
    %28 = tt.splat %17 : i64 -> tensor<256xi64, #triton_gpu.slice<{dim = 0, parent = #dpas}>>
    %29 = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32, #triton_gpu.slice<{dim = 0, parent = #dpas}>>
    %30 = arith.extsi %29 : tensor<256xi32, #triton_gpu.slice<{dim = 0, parent = #dpas}>> to tensor<256xi64, #triton_gpu.slice<{dim = 0, parent = #dpas}>>
    %31 = arith.addi %28, %30 : tensor<256xi64, #triton_gpu.slice<{dim = 0, parent = #dpas}>>
    %32 = tt.expand_dims %31 {axis = 0 : i32} : tensor<256xi64, #triton_gpu.slice<{dim = 0, parent = #dpas}>> -> tensor<1x256xi64, #dpas>
    %33 = tt.splat %c1_i64 : i64 -> tensor<1x256xi64, #dpas>
    %34 = arith.muli %32, %33 : tensor<1x256xi64, #dpas>
    %35 = tt.broadcast %34 : tensor<1x256xi64, #dpas> -> tensor<256x256xi64, #dpas>
    %36 = tt.addptr %27, %35 : tensor<256x256x!tt.ptr<f32>, #dpas>, tensor<256x256xi64, #dpas>
    %c0_i64 = arith.constant 0 : i64
    %37 = tt.splat %c0_i64 : i64 -> tensor<256x1xi64, #dpas>
    %38 = arith.cmpi sge, %23, %37 : tensor<256x1xi64, #dpas>
    %39 = tt.splat %c4096_i64 : i64 -> tensor<256x1xi64, #dpas>
    %40 = arith.cmpi slt, %23, %39 : tensor<256x1xi64, #dpas>
    %41 = arith.andi %38, %40 : tensor<256x1xi1, #dpas>
    %42 = tt.broadcast %41 : tensor<256x1xi1, #dpas> -> tensor<256x256xi1, #dpas>
    %c0_i64_1 = arith.constant 0 : i64
    %43 = tt.splat %c0_i64_1 : i64 -> tensor<1x256xi64, #dpas>
    %44 = arith.cmpi sge, %32, %43 : tensor<1x256xi64, #dpas>
    %45 = tt.splat %c4096_i64 : i64 -> tensor<1x256xi64, #dpas>
    %46 = arith.cmpi slt, %32, %45 : tensor<1x256xi64, #dpas>
    %47 = arith.andi %44, %46 : tensor<1x256xi1, #dpas>
    %48 = tt.broadcast %47 : tensor<1x256xi1, #dpas> -> tensor<256x256xi1, #dpas>
    %49 = arith.andi %42, %48 : tensor<256x256xi1, #dpas>
    // expected-remark@+1 {{propagate-mma: moved to #dpas: 3 conversion(s) removed, 0 added, 0 retargeted}}
    %50 = triton_gpu.convert_layout %36 : tensor<256x256x!tt.ptr<f32>, #dpas> -> tensor<256x256x!tt.ptr<f32>, #blocked>
    %51 = triton_gpu.convert_layout %49 : tensor<256x256xi1, #dpas> -> tensor<256x256xi1, #blocked>
    %52 = tt.load %50, %51 : tensor<256x256x!tt.ptr<f32>, #blocked>
    %53 = triton_gpu.convert_layout %52 : tensor<256x256xf32, #blocked> -> tensor<256x256xf32, #dpas>
    %54 = arith.addf %acc, %53 : tensor<256x256xf32, #dpas>
    %55 = tt.make_tensor_ptr %arg2, [%c4096_i64, %c4096_i64], [%c4096_i64, %c1_i64], [%9, %11] {order = array<i32: 1, 0>} : <tensor<256x256xf32, #dpas>>
    tt.store %55, %54 {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<256x256xf32, #dpas>>
    tt.return
  }
}

// -----

// A block-pointer load carried through a loop: make_tensor_ptr, the iter-arg, tt.advance and the
// loop's result type move to #dpas together (Intel RLC's backward rematerialisation into block loads).

// CHECK-LABEL: tt.func public @block_pointer_loop
// CHECK-NOT: triton_gpu.convert_layout
// CHECK: %p0 = tt.make_tensor_ptr %base, {{.*}} : <tensor<256x256xf32, #mma>>
// CHECK: scf.for {{.*}} iter_args(%acc = %init, %p = %p0) -> (tensor<256x256xf32, #mma>, !tt.ptr<tensor<256x256xf32, #mma>>)
// CHECK: %x = tt.load %p {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<256x256xf32, #mma>>
// CHECK: %a = arith.addf %acc, %x : tensor<256x256xf32, #mma>
// CHECK: %pn = tt.advance %p, [%c256_i32, %c0_i32] : <tensor<256x256xf32, #mma>>
// CHECK: scf.yield %a, %pn : tensor<256x256xf32, #mma>, !tt.ptr<tensor<256x256xf32, #mma>>
#blocked = #triton_gpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 16], warpsPerCTA = [8, 4], order = [1, 0]}>
#dpas = #triton_intel_gpu.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [8, 4], repCluster = [4, 2], A = [32, 16], B = [16, 32], C = [32, 32]}>
module attributes {"triton_gpu.num-ctas" = 1 : i32, "triton_gpu.num-warps" = 32 : i32, triton_gpu.target = "xpu", "triton_gpu.threads-per-warp" = 16 : i32, "triton_intel_gpu.support_sg_2d_block"} {
  tt.func public @block_pointer_loop(%base: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %out: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %c4_i32 = arith.constant 4 : i32
    %c256_i32 = arith.constant 256 : i32
    %c1_i64 = arith.constant 1 : i64
    %c4096_i64 = arith.constant 4096 : i64
    %init = arith.constant dense<0.000000e+00> : tensor<256x256xf32, #dpas>
    %p0 = tt.make_tensor_ptr %base, [%c4096_i64, %c4096_i64], [%c4096_i64, %c1_i64], [%c0_i32, %c0_i32] {order = array<i32: 1, 0>} : <tensor<256x256xf32, #blocked>>
    %res:2 = scf.for %i = %c0_i32 to %c4_i32 step %c1_i32 iter_args(%acc = %init, %p = %p0) -> (tensor<256x256xf32, #dpas>, !tt.ptr<tensor<256x256xf32, #blocked>>)  : i32 {
      %x = tt.load %p {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<256x256xf32, #blocked>>
      // expected-remark@+1 {{propagate-mma: moved to #dpas: 1 conversion(s) removed, 0 added, 0 retargeted}}
      %xd = triton_gpu.convert_layout %x : tensor<256x256xf32, #blocked> -> tensor<256x256xf32, #dpas>
      %a = arith.addf %acc, %xd : tensor<256x256xf32, #dpas>
      %pn = tt.advance %p, [%c256_i32, %c0_i32] : <tensor<256x256xf32, #blocked>>
      scf.yield %a, %pn : tensor<256x256xf32, #dpas>, !tt.ptr<tensor<256x256xf32, #blocked>>
    }
    %po = tt.make_tensor_ptr %out, [%c4096_i64, %c4096_i64], [%c4096_i64, %c1_i64], [%c0_i32, %c0_i32] {order = array<i32: 1, 0>} : <tensor<256x256xf32, #dpas>>
    tt.store %po, %res#0 {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<256x256xf32, #dpas>>
    tt.return
  }
}

// -----

// A value computed in a loop from loads (a blocked running sum) and converted after it: the loop-carried
// value, the loads inside and the loop's result move to #mma.

// CHECK-LABEL: tt.func public @loop_carried_sum
// CHECK-NOT: ttg.convert_layout
// CHECK: %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
// CHECK: %res = scf.for {{.*}} iter_args(%s = %zero) -> (tensor<64x64xf32, #mma>)
// CHECK: %x = tt.load %{{.*}} : tensor<64x64x!tt.ptr<f32>, #mma>
// CHECK: %n = arith.addf %s, %x : tensor<64x64xf32, #mma>
// CHECK: scf.yield %n : tensor<64x64xf32, #mma>
// CHECK: %sum = arith.addf %acc, %res : tensor<64x64xf32, #mma>
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @loop_carried_sum(%acc: tensor<64x64xf32, #mma>, %d: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %c: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %c4_i32 = arith.constant 4 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #blocked>
    %dp = tt.splat %d : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>, #blocked>
    %res = scf.for %i = %c0_i32 to %c4_i32 step %c1_i32 iter_args(%s = %zero) -> (tensor<64x64xf32, #blocked>)  : i32 {
      %x = tt.load %dp : tensor<64x64x!tt.ptr<f32>, #blocked>
      %n = arith.addf %s, %x : tensor<64x64xf32, #blocked>
      scf.yield %n : tensor<64x64xf32, #blocked>
    }
    // expected-remark@+1 {{propagate-mma: moved to #nvidia_mma: 1 conversion(s) removed, 0 added, 0 retargeted}}
    %rm = ttg.convert_layout %res : tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #mma>
    %sum = arith.addf %acc, %rm : tensor<64x64xf32, #mma>
    %cp = tt.splat %c : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>, #mma>
    tt.store %cp, %sum : tensor<64x64x!tt.ptr<f32>, #mma>
    tt.return
  }
}

// -----

// scf.if: the value is a load on one branch and a constant on the other; both branches and the if's
// result move to #mma.

// CHECK-LABEL: tt.func public @if_load_or_zero
// CHECK-NOT: ttg.convert_layout
// CHECK: %v = scf.if %flag -> (tensor<64x64xf32, #mma>)
// CHECK: %x = tt.load %{{.*}} : tensor<64x64x!tt.ptr<f32>, #mma>
// CHECK: scf.yield %x : tensor<64x64xf32, #mma>
// CHECK: } else {
// CHECK: scf.yield %{{.*}} : tensor<64x64xf32, #mma>
// CHECK: %sum = arith.addf %acc, %v : tensor<64x64xf32, #mma>
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @if_load_or_zero(%acc: tensor<64x64xf32, #mma>, %d: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %c: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %flag: i1) {
    %v = scf.if %flag -> (tensor<64x64xf32, #blocked>) {
      %dp = tt.splat %d : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>, #blocked>
      %x = tt.load %dp : tensor<64x64x!tt.ptr<f32>, #blocked>
      scf.yield %x : tensor<64x64xf32, #blocked>
    } else {
      %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #blocked>
      scf.yield %zero : tensor<64x64xf32, #blocked>
    }
    // expected-remark@+1 {{propagate-mma: moved to #nvidia_mma: 1 conversion(s) removed, 0 added, 0 retargeted}}
    %vm = ttg.convert_layout %v : tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #mma>
    %sum = arith.addf %acc, %vm : tensor<64x64xf32, #mma>
    %cp = tt.splat %c : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>, #mma>
    tt.store %cp, %sum : tensor<64x64x!tt.ptr<f32>, #mma>
    tt.return
  }
}

// -----

// The row offsets also address a second, unrelated blocked store: they are rebuilt in #mma for the
// load, and the #blocked originals stay for that store (a value with users outside the slice keeps its
// layout when it is cheap to recompute).

// CHECK-LABEL: tt.func public @shared_offsets
// CHECK-NOT: ttg.convert_layout
// CHECK-DAG: tt.addptr %{{.*}}, %{{.*}} : tensor<64x64x!tt.ptr<f32>, #mma>, tensor<64x64xi32, #mma>
// CHECK-DAG: %off{{.*}} = arith.addi %{{.*}}, %{{.*}} : tensor<64x64xi32, #blocked>
// CHECK: tt.store %{{.*}}, %y : tensor<64x64x!tt.ptr<f32>, #blocked>
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @shared_offsets(%acc: tensor<64x64xf32, #mma>, %y: tensor<64x64xf32, #blocked>, %d: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %e: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %c: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
    %rows = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %r = tt.expand_dims %rows {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<64x1xi32, #blocked>
    %rb = tt.broadcast %r : tensor<64x1xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %k = arith.constant dense<64> : tensor<64x64xi32, #blocked>
    %off = arith.addi %rb, %k : tensor<64x64xi32, #blocked>
    %dp = tt.splat %d : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>, #blocked>
    %dptr = tt.addptr %dp, %off : tensor<64x64x!tt.ptr<f32>, #blocked>, tensor<64x64xi32, #blocked>
    %x = tt.load %dptr : tensor<64x64x!tt.ptr<f32>, #blocked>
    // expected-remark@+1 {{propagate-mma: moved to #nvidia_mma: 1 conversion(s) removed, 0 added, 0 retargeted; 1 value(s) retyped in place, 7 rebuilt}}
    %xm = ttg.convert_layout %x : tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #mma>
    %sum = arith.addf %acc, %xm : tensor<64x64xf32, #mma>
    %cp = tt.splat %c : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>, #mma>
    tt.store %cp, %sum : tensor<64x64x!tt.ptr<f32>, #mma>
    %ep = tt.splat %e : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>, #blocked>
    %eptr = tt.addptr %ep, %off : tensor<64x64x!tt.ptr<f32>, #blocked>, tensor<64x64xi32, #blocked>
    tt.store %eptr, %y : tensor<64x64x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

// Unchanged: the loaded tile is also written to shared memory in #blocked.  Moving the load to #mma
// would need a conversion back for the local_alloc: one conversion for one, so it is left alone.

// CHECK-LABEL: tt.func public @other_user_needs_old_layout
// CHECK: %x = tt.load %dp : tensor<64x64x!tt.ptr<f32>, #blocked>
// CHECK: ttg.local_alloc %x : (tensor<64x64xf32, #blocked>)
// CHECK: ttg.convert_layout %x : tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #mma>
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @other_user_needs_old_layout(%acc: tensor<64x64xf32, #mma>, %d: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %c: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
    %dp = tt.splat %d : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>, #blocked>
    %x = tt.load %dp : tensor<64x64x!tt.ptr<f32>, #blocked>
    %buf = ttg.local_alloc %x : (tensor<64x64xf32, #blocked>) -> !ttg.memdesc<64x64xf32, #shared, #smem>
    // expected-remark@+1 {{propagate-mma: conversion left alone: removing it needs 1 conversion(s) elsewhere (16384 B) for 1 removed (16384 B): %x: ttg.local_alloc needs #blocked}}
    %xm = ttg.convert_layout %x : tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #mma>
    %sum = arith.addf %acc, %xm : tensor<64x64xf32, #mma>
    %cp = tt.splat %c : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>, #mma>
    tt.store %cp, %sum : tensor<64x64x!tt.ptr<f32>, #mma>
    tt.return
  }
}

// -----

// Unchanged: a conversion to a dot operand is not an accumulator conversion.

// CHECK-LABEL: tt.func public @dot_operand
// CHECK: ttg.convert_layout %a : tensor<64x32xf16, #blocked> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
// CHECK: tt.dot
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @dot_operand(%a: tensor<64x32xf16, #blocked>, %b: tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>, %acc: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma> {
    // expected-remark@+1 {{propagate-mma: conversion left alone: it converts to a dot operand (#dot_op), not to an accumulator layout}}
    %a0 = ttg.convert_layout %a : tensor<64x32xf16, #blocked> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
    %r = tt.dot %a0, %b, %acc : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<64x64xf32, #mma>
    tt.return %r : tensor<64x64xf32, #mma>
  }
}

// -----

// Counting: the loaded tile is also written to shared memory in #blocked2.  Moving the epilogue to #mma
// removes the two 256x256 conversions and needs one back for the local_alloc: accepted (2 > 1, and
// fewer bytes), the local_alloc reads a conversion of the #mma load.

// CHECK-LABEL: tt.func public @two_for_one
// CHECK: %x = tt.load %{{.*}} : tensor<256x256x!tt.ptr<f32>, #mma>
// CHECK: %[[BACK:.*]] = triton_gpu.convert_layout %x : tensor<256x256xf32, #mma> -> tensor<256x256xf32, #blocked>
// CHECK: triton_gpu.local_alloc %[[BACK]] : (tensor<256x256xf32, #blocked>)
// CHECK: %sum = arith.addf %acc, %x : tensor<256x256xf32, #mma>
// CHECK: tt.store %{{.*}}, %sum : tensor<256x256x!tt.ptr<f32>, #mma>
// CHECK-NOT: triton_gpu.convert_layout
#blocked2 = #triton_gpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 64], warpsPerCTA = [8, 1], order = [1, 0]}>
#mma = #triton_gpu.amd_mfma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [2, 4], instrShape = [32, 32], isTransposed = false}>
#shared = #triton_gpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0], hasLeadingOffset = false}>
module attributes {"triton_gpu.num-ctas" = 1 : i32, "triton_gpu.num-warps" = 8 : i32, triton_gpu.target = "hip:gfx942", "triton_gpu.threads-per-warp" = 64 : i32} {
  tt.func public @two_for_one(%acc: tensor<256x256xf32, #mma>, %d: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %c: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
    // expected-remark@+1 {{propagate-mma: moved to #amd_mfma: 2 conversion(s) removed, 1 added, 0 retargeted}}
    %ab = triton_gpu.convert_layout %acc : tensor<256x256xf32, #mma> -> tensor<256x256xf32, #blocked2>
    %dp = tt.splat %d : !tt.ptr<f32> -> tensor<256x256x!tt.ptr<f32>, #blocked2>
    %x = tt.load %dp : tensor<256x256x!tt.ptr<f32>, #blocked2>
    %buf = triton_gpu.local_alloc %x : (tensor<256x256xf32, #blocked2>) -> !tt.memdesc<256x256xf32, #shared>
    %sum = arith.addf %ab, %x : tensor<256x256xf32, #blocked2>
    %back = triton_gpu.convert_layout %sum : tensor<256x256xf32, #blocked2> -> tensor<256x256xf32, #mma>
    %cp = tt.splat %c : !tt.ptr<f32> -> tensor<256x256x!tt.ptr<f32>, #mma>
    tt.store %cp, %back : tensor<256x256x!tt.ptr<f32>, #mma>
    tt.return
  }
}

// -----

// Counting, the other way: a #blocked function argument is added to the converted accumulator.  Its
// producer cannot be rebuilt, so it is converted into #mma once, for the two conversions that go.

// CHECK-LABEL: tt.func public @argument_converted_in
// CHECK: %[[IN:.*]] = ttg.convert_layout %bias : tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #mma>
// CHECK: %xb = arith.addf %acc, %[[IN]] : tensor<64x64xf32, #mma>
// CHECK: tt.store %{{.*}}, %xb : tensor<64x64x!tt.ptr<f32>, #mma>
// CHECK-NOT: ttg.convert_layout
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @argument_converted_in(%acc: tensor<64x64xf32, #mma>, %bias: tensor<64x64xf32, #blocked>, %c: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
    // expected-remark@+1 {{propagate-mma: moved to #nvidia_mma: 2 conversion(s) removed, 1 added, 0 retargeted}}
    %ab = ttg.convert_layout %acc : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #blocked>
    %xb = arith.addf %ab, %bias : tensor<64x64xf32, #blocked>
    %back = ttg.convert_layout %xb : tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #mma>
    %cp = tt.splat %c : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>, #mma>
    tt.store %cp, %back : tensor<64x64x!tt.ptr<f32>, #mma>
    tt.return
  }
}
