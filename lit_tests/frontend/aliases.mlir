// RUN: irkit-opt %s --split-input-file | filecheck %s
// RUN: irkit-opt %s --split-input-file --mlir-print-debuginfo | filecheck %s --check-prefix=LOC

// Aliases are triton-opt's, whatever the input called them: Triton's dialects alias blocked, mma (every MMA
// layout), shared (every shared layout), linear and smem; dot_op and slice print inline, and so does
// anything else the input had an alias for (types included).  Each name is numbered in the order the text
// first uses it.

// CHECK: #blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-NEXT: #blocked1 = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-NEXT: #mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
// CHECK-NEXT: #shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
// CHECK-NEXT: #smem = #ttg.shared_memory
// CHECK-NEXT: module
// CHECK-LABEL: tt.func @names(
// CHECK-SAME: %a: tensor<64x64xf32, #blocked>,
// CHECK-SAME: %d: tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>,
// CHECK-SAME: %s: tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>,
// CHECK-SAME: %p: !tt.ptr<f32>,
// CHECK-SAME: %m: !ttg.memdesc<64x64xf16, #shared, #smem>)
// CHECK: tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked1>
#AL = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#B0 = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#C = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#A_DOT = #ttg.dot_op<{opIdx = 0, parent = #C, kWidth = 2}>
#SL = #ttg.slice<{dim = 0, parent = #AL}>
#SH = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#sm = #ttg.shared_memory
!fptr = !tt.ptr<f32>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @names(%a: tensor<64x64xf32, #AL>, %d: tensor<64x64xf16, #A_DOT>, %s: tensor<64xi32, #SL>, %p: !fptr, %m: !ttg.memdesc<64x64xf16, #SH, #sm>) {
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #B0>
    tt.return
  }
}

// -----

// Triton 3.1 (triton_gpu.*): the same names; an alias nothing prints is not defined.
// CHECK-NOT: #blocked1
// CHECK: #blocked = #triton_gpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-NEXT: #mma = #triton_gpu.amd_mfma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [32, 32], isTransposed = true}>
// CHECK-NEXT: #mma1 = #triton_gpu.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
// CHECK-NEXT: module
// CHECK-LABEL: tt.func @legacy(%x: tensor<128xf32, #blocked>, %y: tensor<32x32xf32, #mma>, %z: tensor<32x32xf32, #mma1>)
#unused = #triton_gpu.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#blocked7 = #triton_gpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#mma = #triton_gpu.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
#mfma = #triton_gpu.amd_mfma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [32, 32], isTransposed = true}>
module attributes {"triton_gpu.num-ctas" = 1 : i32, "triton_gpu.num-warps" = 4 : i32, "triton_gpu.threads-per-warp" = 32 : i32} {
  tt.func @legacy(%x: tensor<128xf32, #blocked7>, %y: tensor<32x32xf32, #mfma>, %z: tensor<32x32xf32, #mma>) {
    tt.return
  }
}

// -----

// Locations: every one gets a `#locN`, numbered in the order they are met (an op's location before what
// the op holds), those holding another alias (callsite, name, fused) after the plain ones.  The
// locations of block arguments are written out where they are used and defined before the module.
// (What Triton 3.9's own printer gives for this module, names of values aside.)
// LOC: // -----
// LOC: // -----
// LOC-NEXT: #loc1 = loc("k.py":2:0)
// LOC-NEXT: module {
// LOC-NEXT: tt.func @locs(%arg: i32 loc("k.py":2:0)) {
// LOC-NEXT: %0 = arith.addi %arg, %arg : i32 loc(#loc3)
// LOC-NEXT: tt.return loc(#loc2)
// LOC-NEXT: } loc(#loc)
// LOC-NEXT: } loc(#loc)
// LOC-NEXT: #loc = loc("k.py":1:0)
// LOC-NEXT: #loc2 = loc("k.py":4:0)
// LOC-NEXT: #loc3 = loc(callsite(#loc1 at #loc2))
module {
  tt.func @locs(%arg: i32 loc(#a)) {
    %0 = arith.addi %arg, %arg : i32 loc(#c)
    tt.return loc(#b)
  } loc(#m)
} loc(#m)
#m = loc("k.py":1:0)
#a = loc("k.py":2:0)
#b = loc("k.py":4:0)
#c = loc(callsite(#a at #b))
