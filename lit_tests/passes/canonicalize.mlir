// RUN: irkit-opt %s --split-input-file --canonicalize | FileCheck %s

// canonicalize: the canonicalization patterns of Triton's tt/ttg ops, integer folds and dead code.

// A chain of converts is one convert; a convert back to the source type is nothing; a convert of a splat
// is a splat in the new layout.
// CHECK-LABEL: tt.func @converts
// CHECK-SAME: (%[[X:.*]]: tensor<64xf32, #[[B0:.*]]>, %[[S:.*]]: f32)
// CHECK-NEXT: %[[C:.*]] = ttg.convert_layout %[[X]] : tensor<64xf32, #[[B0]]> -> tensor<64xf32, #[[B2:.*]]>
// CHECK-NEXT: %[[SP:.*]] = tt.splat %[[S]] : f32 -> tensor<64xf32, #[[B2]]>
// CHECK-NEXT: tt.return %[[X]], %[[C]], %[[SP]]
#b0 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b1 = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b2 = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.num-ctas" = 1 : i32} {
  tt.func @converts(%x: tensor<64xf32, #b0>, %s: f32) -> (tensor<64xf32, #b0>, tensor<64xf32, #b2>, tensor<64xf32, #b2>) {
    %a = ttg.convert_layout %x : tensor<64xf32, #b0> -> tensor<64xf32, #b1>
    %back = ttg.convert_layout %a : tensor<64xf32, #b1> -> tensor<64xf32, #b0>
    %c = ttg.convert_layout %a : tensor<64xf32, #b1> -> tensor<64xf32, #b2>
    %sp = tt.splat %s : f32 -> tensor<64xf32, #b0>
    %spc = ttg.convert_layout %sp : tensor<64xf32, #b0> -> tensor<64xf32, #b2>
    tt.return %back, %c, %spc : tensor<64xf32, #b0>, tensor<64xf32, #b2>, tensor<64xf32, #b2>
  }
}

// -----

// Constants: a one-element range, a splat of a constant, a broadcast of a splat constant; integer
// arithmetic on splat constants folds; x + 0 is x; an unused non-volatile load goes, a volatile one stays.
// CHECK-LABEL: tt.func @constants
// CHECK-DAG: %[[R:.*]] = arith.constant dense<3> : tensor<1xi32>
// CHECK-DAG: %[[B:.*]] = arith.constant dense<7> : tensor<8x4xi32>
// CHECK-DAG: %[[M:.*]] = arith.constant dense<12> : tensor<8x4xi32>
// CHECK-NOT: tt.load %p :
// CHECK: tt.load %p {isVolatile = true}
// CHECK: tt.return %[[R]], %[[B]], %[[M]], %x
tt.func @constants(%p: tensor<8x4x!tt.ptr<f32>>, %x: tensor<8x4xi32>) -> (tensor<1xi32>, tensor<8x4xi32>, tensor<8x4xi32>, tensor<8x4xi32>) {
  %r = tt.make_range {end = 4 : i32, start = 3 : i32} : tensor<1xi32>
  %c7 = arith.constant 7 : i32
  %s = tt.splat %c7 : i32 -> tensor<8x1xi32>
  %b = tt.broadcast %s : tensor<8x1xi32> -> tensor<8x4xi32>
  %c5 = arith.constant dense<5> : tensor<8x4xi32>
  %m = arith.addi %b, %c5 : tensor<8x4xi32>
  %zero = arith.constant dense<0> : tensor<8x4xi32>
  %same = arith.addi %x, %zero : tensor<8x4xi32>
  %dead = tt.load %p : tensor<8x4x!tt.ptr<f32>>
  %kept = tt.load %p {isVolatile = true} : tensor<8x4x!tt.ptr<f32>>
  tt.return %r, %b, %m, %same : tensor<1xi32>, tensor<8x4xi32>, tensor<8x4xi32>, tensor<8x4xi32>
}

// -----

// A zero advance is the pointer; expand_dims of a broadcast becomes broadcast of expand_dims; int_to_ptr of
// ptr_to_int plus 16 bytes is an addptr of 4 f32 elements.
// CHECK-LABEL: tt.func @pointers
// CHECK-NEXT: %[[E:.*]] = tt.expand_dims %v {axis = 1 : i32} : tensor<1xf32> -> tensor<1x1xf32>
// CHECK-NEXT: %[[B:.*]] = tt.broadcast %[[E]] : tensor<1x1xf32> -> tensor<16x1xf32>
// CHECK-NEXT: %[[F:.*]] = arith.constant dense<4> : tensor<16xi64>
// CHECK-NEXT: %[[A:.*]] = tt.addptr %q, %[[F]] : tensor<16x!tt.ptr<f32>>, tensor<16xi64>
// CHECK-NEXT: tt.return %bp, %[[B]], %[[A]]
tt.func @pointers(%bp: !tt.ptr<tensor<16x16xf16>>, %v: tensor<1xf32>, %q: tensor<16x!tt.ptr<f32>>) -> (!tt.ptr<tensor<16x16xf16>>, tensor<16x1xf32>, tensor<16x!tt.ptr<f32>>) {
  %c0 = arith.constant 0 : i32
  %adv = tt.advance %bp, [%c0, %c0] : <tensor<16x16xf16>>
  %bc = tt.broadcast %v : tensor<1xf32> -> tensor<16xf32>
  %ex = tt.expand_dims %bc {axis = 1 : i32} : tensor<16xf32> -> tensor<16x1xf32>
  %i = tt.ptr_to_int %q : tensor<16x!tt.ptr<f32>> -> tensor<16xi64>
  %c16 = arith.constant dense<16> : tensor<16xi64>
  %j = arith.addi %i, %c16 : tensor<16xi64>
  %k = tt.int_to_ptr %j : tensor<16xi64> -> tensor<16x!tt.ptr<f32>>
  tt.return %adv, %ex, %k : !tt.ptr<tensor<16x16xf16>>, tensor<16x1xf32>, tensor<16x!tt.ptr<f32>>
}

// -----

// local_alloc and local_store read through a convert; a convert of a local_load is a local_load in the
// new layout at the load's place (before the barrier).
// CHECK-LABEL: tt.func @shared
// CHECK-NEXT: %[[A:.*]] = ttg.local_alloc %x : (tensor<32xf32, #[[B0:.*]]>)
// CHECK-NEXT: ttg.local_store %x, %[[A]] : tensor<32xf32, #[[B0]]>
// CHECK-NEXT: %[[L:.*]] = ttg.local_load %[[A]] : {{.*}} -> tensor<32xf32, #[[B1:.*]]>
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: tt.return %[[L]]
#b0 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
#b1 = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [16], warpsPerCTA = [1], order = [0]}>
#sh = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 1 : i32, "ttg.num-ctas" = 1 : i32} {
  tt.func @shared(%x: tensor<32xf32, #b0>) -> tensor<32xf32, #b1> {
    %c = ttg.convert_layout %x : tensor<32xf32, #b0> -> tensor<32xf32, #b1>
    %a = ttg.local_alloc %c : (tensor<32xf32, #b1>) -> !ttg.memdesc<32xf32, #sh, #smem, mutable>
    ttg.local_store %c, %a : tensor<32xf32, #b1> -> !ttg.memdesc<32xf32, #sh, #smem, mutable>
    %l = ttg.local_load %a : !ttg.memdesc<32xf32, #sh, #smem, mutable> -> tensor<32xf32, #b0>
    gpu.barrier
    %r = ttg.convert_layout %l : tensor<32xf32, #b0> -> tensor<32xf32, #b1>
    tt.return %r : tensor<32xf32, #b1>
  }
}

// -----

// MLIR's own: a loop-carried value that is yielded unchanged, that yields its initial value, or that nobody
// reads leaves the loop; one carried exactly like an earlier one is merged into it (Triton 3.2 on; the
// `ttg.*` spelling means the newest); constant compares and selects fold.
// CHECK-LABEL: tt.func @loop
// CHECK: %[[L:.*]]:2 = scf.for %iv = %c0 to %n step %c1 iter_args(%sum = %c0, %twice = %c1) -> (i32, i32)
// CHECK: scf.yield %next, %doubled : i32, i32
// CHECK: tt.return %[[L]]#0, %x, %x, %[[L]]#1
module attributes {"ttg.num-warps" = 4 : i32, "ttg.num-ctas" = 1 : i32} {
  tt.func @loop(%n: i32, %x: i32, %p: !tt.ptr<i32>, %b: i1) -> (i32, i32, i32, i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c2 = arith.constant 2 : i32
    %r:6 = scf.for %iv = %c0 to %n step %c1 iter_args(%same = %x, %init = %x, %sum = %c0, %sum2 = %c0, %unused = %x, %twice = %c1) -> (i32, i32, i32, i32, i32, i32)  : i32 {
      %next = arith.addi %sum, %iv : i32
      %doubled = arith.muli %twice, %c2 : i32
      tt.store %p, %twice : !tt.ptr<i32>
      scf.yield %same, %x, %next, %next, %doubled, %doubled : i32, i32, i32, i32, i32, i32
    }
    %never = arith.cmpi sge, %c1, %c2 : i32
    %pick = arith.select %never, %r#2, %r#3 : i32
    %always = arith.cmpi ule, %n, %n : i32
    %first = arith.select %always, %r#0, %x : i32
    %either = arith.select %b, %r#1, %r#1 : i32
    tt.return %pick, %first, %either, %r#5 : i32, i32, i32, i32
  }
}

// -----

// MLIR's arith canonicalizations: a constant goes to the right of a commutative op; two scalar constants
// across an add/sub (or mul) chain merge; splat-constant chains stay (as the real pass leaves them).
// CHECK-LABEL: tt.func @chains
// CHECK: %[[A:.*]] = arith.addi %x, %[[C6:.*]] : i32
// CHECK: %[[B:.*]] = arith.subi %[[C6B:.*]], %x : i32
// CHECK: %t1 = arith.addi %t, %three : tensor<8xi32>
// CHECK-NEXT: %t2 = arith.subi %five, %t1 : tensor<8xi32>
// CHECK: tt.return %[[A]], %[[B]], %t2
module attributes {"ttg.num-warps" = 4 : i32, "ttg.num-ctas" = 1 : i32} {
  tt.func @chains(%x: i32, %t: tensor<8xi32>) -> (i32, i32, tensor<8xi32>) {
    %c1 = arith.constant 1 : i32
    %c7 = arith.constant 7 : i32
    %three = arith.constant dense<3> : tensor<8xi32>
    %five = arith.constant dense<5> : tensor<8xi32>
    %s = arith.addi %c7, %x : i32
    %a = arith.subi %s, %c1 : i32
    %d = arith.subi %c7, %x : i32
    %b = arith.subi %d, %c1 : i32
    %t1 = arith.addi %t, %three : tensor<8xi32>
    %t2 = arith.subi %five, %t1 : tensor<8xi32>
    tt.return %a, %b, %t2 : i32, i32, tensor<8xi32>
  }
}
