// RUN: irkit-opt %s | filecheck %s
// RUN: irkit-opt %s | irkit-opt | filecheck %s
// RUN: irkit-opt %s --canonicalize | filecheck %s

// NVIDIA's NVGPU dialect: nvg.ld_acquire (semantics, scope, a global pointer, an optional i1 mask) reads and
// writes memory, so canonicalize keeps it even when its result is unused.
module attributes {"ttg.num-warps" = 4 : i32, "ttg.num-ctas" = 1 : i32} {
  // CHECK-LABEL: llvm.func @acquire
  llvm.func @acquire(%p: !llvm.ptr<1>, %m: i1) {
    // CHECK-NEXT: %v = nvg.ld_acquire acquire, gpu, %p : (!llvm.ptr<1>) -> i32
    %v = nvg.ld_acquire acquire, gpu, %p : (!llvm.ptr<1>) -> i32
    // CHECK-NEXT: %w = nvg.ld_acquire relaxed, sys, %p, %m : (!llvm.ptr<1>) -> i64
    %w = nvg.ld_acquire relaxed, sys, %p, %m : (!llvm.ptr<1>) -> i64
    llvm.return
  }
}
