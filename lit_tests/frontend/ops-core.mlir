// RUN: irkit-opt %s | irkit-opt | FileCheck %s

// Builtin-level printing that must match MLIR's exactly: float constants as printFloatValue writes them (%.6e
// when exact, else APFloat's shortest digits, else hex bits), result groups as written (%outLHS, %outRHS),
// no space before a format's leading '(' (scf.condition(%c)), scf.while without loop-carried values,
// tt.reshape's allow_reorder flag.  Accepted as written by the real Triton 3.9 parser; so is irkit's output.

// CHECK-LABEL: tt.func @floats() -> (f32, f32, f32, f64, f16, bf16) {
// CHECK: %a = arith.constant 1.44269502 : f32
// CHECK: %b = arith.constant 9.99999974E-6 : f32
// CHECK: %c = arith.constant 0x7F800000 : f32
// CHECK: %d = arith.constant 0.33333333333333331 : f64
// CHECK: %e = arith.constant 9.997550e-02 : f16
// CHECK: %f = arith.constant 1.000980e-01 : bf16
// CHECK: tt.return %a, %b, %c, %d, %e, %f : f32, f32, f32, f64, f16, bf16
// CHECK-LABEL: tt.func @results(%x: tensor<16x32x2xf32>) -> tensor<16x32xf32> {
// CHECK: %outLHS, %outRHS = tt.split %x : tensor<16x32x2xf32> -> tensor<16x32xf32>
// CHECK: %r = arith.addf %outLHS, %outRHS : tensor<16x32xf32>
// CHECK: %s = math.exp2 %r : tensor<16x32xf32>
// CHECK: %t = math.fma %s, %r, %outLHS : tensor<16x32xf32>
// CHECK: %u = tt.reshape %t allow_reorder : tensor<16x32xf32> -> tensor<512xf32>
// CHECK: %v = tt.reshape %u : tensor<512xf32> -> tensor<16x32xf32>
// CHECK: tt.return %v : tensor<16x32xf32>
// CHECK-LABEL: tt.func @loops(%p: !tt.ptr<i32>, %n: i32) -> i32 {
// CHECK: %c0 = arith.constant 0 : i32
// CHECK: %c1 = arith.constant 1 : i32
// CHECK: scf.while : () -> () {
// CHECK: %old = tt.atomic_cas acquire, gpu, %p, %c0, %c1 : (!tt.ptr<i32>, i32, i32) -> i32
// CHECK: %busy = arith.cmpi eq, %old, %c1 : i32
// CHECK: scf.condition(%busy)
// CHECK: scf.yield
// CHECK: %r:2 = scf.while (%i = %c0, %acc = %c0) : (i32, i32) -> (i32, i32) {
// CHECK: %lt = arith.cmpi slt, %i, %n : i32
// CHECK: scf.condition(%lt) %i, %acc : i32, i32
// CHECK: ^bb0(%i2: i32, %acc2: i32):
// CHECK: %odd = arith.remsi %i2, %c1 : i32
// CHECK: %z = arith.cmpi eq, %odd, %c0 : i32
// CHECK: %next = scf.if %z -> (i32) {
// CHECK: %s = arith.addi %acc2, %i2 : i32
// CHECK: scf.yield %s : i32
// CHECK: } else {
// CHECK: %s = arith.subi %acc2, %c1 : i32
// CHECK: scf.yield %s : i32
// CHECK: %i3 = arith.addi %i2, %c1 : i32
// CHECK: scf.yield %i3, %next : i32, i32
// CHECK: cf.br ^bb1(%r#1 : i32)
// CHECK: ^bb1(%v: i32):  // pred: ^bb0
// CHECK: tt.return %v : i32
module {
  tt.func @floats() -> (f32, f32, f32, f64, f16, bf16) {
    %a = arith.constant 1.44269502 : f32
    %b = arith.constant 9.99999974E-6 : f32
    %c = arith.constant 0x7F800000 : f32
    %d = arith.constant 0.33333333333333331 : f64
    %e = arith.constant 9.997550e-02 : f16
    %f = arith.constant 1.000980e-01 : bf16
    tt.return %a, %b, %c, %d, %e, %f : f32, f32, f32, f64, f16, bf16
  }
  tt.func @results(%x: tensor<16x32x2xf32>) -> tensor<16x32xf32> {
    %outLHS, %outRHS = tt.split %x : tensor<16x32x2xf32> -> tensor<16x32xf32>
    %r = arith.addf %outLHS, %outRHS : tensor<16x32xf32>
    %s = math.exp2 %r : tensor<16x32xf32>
    %t = math.fma %s, %r, %outLHS : tensor<16x32xf32>
    %u = tt.reshape %t allow_reorder : tensor<16x32xf32> -> tensor<512xf32>
    %v = tt.reshape %u : tensor<512xf32> -> tensor<16x32xf32>
    tt.return %v : tensor<16x32xf32>
  }
  tt.func @loops(%p: !tt.ptr<i32>, %n: i32) -> i32 {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    scf.while : () -> () {
      %old = tt.atomic_cas acquire, gpu, %p, %c0, %c1 : (!tt.ptr<i32>, i32, i32) -> i32
      %busy = arith.cmpi eq, %old, %c1 : i32
      scf.condition(%busy)
    } do {
      scf.yield
    }
    %r:2 = scf.while (%i = %c0, %acc = %c0) : (i32, i32) -> (i32, i32) {
      %lt = arith.cmpi slt, %i, %n : i32
      scf.condition(%lt) %i, %acc : i32, i32
    } do {
    ^bb0(%i2: i32, %acc2: i32):
      %odd = arith.remsi %i2, %c1 : i32
      %z = arith.cmpi eq, %odd, %c0 : i32
      %next = scf.if %z -> (i32) {
        %s = arith.addi %acc2, %i2 : i32
        scf.yield %s : i32
      } else {
        %s = arith.subi %acc2, %c1 : i32
        scf.yield %s : i32
      }
      %i3 = arith.addi %i2, %c1 : i32
      scf.yield %i3, %next : i32, i32
    }
    cf.br ^bb1(%r#1 : i32)
  ^bb1(%v: i32):
    tt.return %v : i32
  }
}
