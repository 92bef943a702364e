// RUN: irkit-opt %s --split-input-file --cse | FileCheck %s

// cse: identical side-effect-free ops are one; loads (memory effects) and ops in other regions that do
// not dominate stay apart.

// CHECK-LABEL: tt.func @same_ops
// CHECK-NEXT: %[[R:.*]] = tt.make_range {end = 64 : i32, start = 0 : i32}
// CHECK-NEXT: %[[S:.*]] = tt.splat %n
// CHECK-NEXT: %[[A:.*]] = arith.addi %[[R]], %[[S]]
// CHECK-NEXT: %[[P:.*]] = tt.addptr %p, %[[A]]
// CHECK-NEXT: %[[L1:.*]] = tt.load %[[P]]
// CHECK-NEXT: %[[L2:.*]] = tt.load %[[P]]
// CHECK-NEXT: tt.return %[[A]], %[[A]], %[[L1]], %[[L2]]
tt.func @same_ops(%p: tensor<64x!tt.ptr<f32>>, %n: i32) -> (tensor<64xi32>, tensor<64xi32>, tensor<64xf32>, tensor<64xf32>) {
  %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %r2 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %s = tt.splat %n : i32 -> tensor<64xi32>
  %s2 = tt.splat %n : i32 -> tensor<64xi32>
  %a = arith.addi %r, %s : tensor<64xi32>
  %a2 = arith.addi %r2, %s2 : tensor<64xi32>
  %ptr = tt.addptr %p, %a : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
  %ptr2 = tt.addptr %p, %a2 : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
  %l1 = tt.load %ptr : tensor<64x!tt.ptr<f32>>
  %l2 = tt.load %ptr2 : tensor<64x!tt.ptr<f32>>
  tt.return %a, %a2, %l1, %l2 : tensor<64xi32>, tensor<64xi32>, tensor<64xf32>, tensor<64xf32>
}

// -----

// An op inside a loop body is merged with the same op before the loop (which dominates it), not the other way.
// CHECK-LABEL: tt.func @loop
// CHECK: %[[C:.*]] = arith.constant 4 : i32
// CHECK: scf.for
// CHECK-NOT: arith.constant 4 : i32
// CHECK: arith.addi %{{.*}}, %[[C]] : i32
tt.func @loop(%lb: i32, %ub: i32, %st: i32) -> i32 {
  %c4 = arith.constant 4 : i32
  %r = scf.for %i = %lb to %ub step %st iter_args(%acc = %c4) -> (i32) : i32 {
    %c4_0 = arith.constant 4 : i32
    %n = arith.addi %acc, %c4_0 : i32
    scf.yield %n : i32
  }
  tt.return %r : i32
}
