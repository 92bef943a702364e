// RUN: irkit-opt %s --split-input-file | filecheck %s
// RUN: irkit-opt %s --split-input-file | irkit-opt --split-input-file | filecheck %s

// Syntax MLIR and Triton accept that irkit must read, and what it writes back: quoted enum keywords
// (MLIR's parseKeywordOrString, as Triton's own tests write `arith.cmpi "slt"`), printed bare.
// CHECK-LABEL: tt.func @quoted_predicates
// CHECK: arith.cmpi slt, %a, %b : i32
// CHECK: arith.cmpf olt, %x, %y : f32
// CHECK: arith.cmpi sge, %a, %b : i32
tt.func @quoted_predicates(%a: i32, %b: i32, %x: f32, %y: f32) {
  %0 = arith.cmpi "slt", %a, %b : i32
  %1 = arith.cmpf "olt", %x, %y : f32
  %2 = arith.cmpi sge, %a, %b : i32
  tt.return
}

// -----

// Triton 3.1's tt.reshape keeps its flags in the attribute dictionary (`allow_reorder` is a BoolAttr
// there); 3.1 rejects the 3.2+ keywords, so it prints back as it came.
// CHECK-LABEL: tt.func @reshape_31
// CHECK: tt.reshape %x {allow_reorder = true, efficient_layout} : tensor<32x32xf32, #blocked> -> tensor<1024xf32, #blocked1>
// CHECK: tt.reshape %x {allow_reorder = false} : tensor<32x32xf32, #blocked> -> tensor<1024xf32, #blocked1>
#blocked = #triton_gpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #triton_gpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"triton_gpu.num-ctas" = 1 : i32, "triton_gpu.num-warps" = 4 : i32, "triton_gpu.threads-per-warp" = 32 : i32} {
  tt.func @reshape_31(%x: tensor<32x32xf32, #blocked>) {
    %0 = tt.reshape %x {allow_reorder = true, efficient_layout} : tensor<32x32xf32, #blocked> -> tensor<1024xf32, #blocked1>
    %1 = tt.reshape %x {allow_reorder = false} : tensor<32x32xf32, #blocked> -> tensor<1024xf32, #blocked1>
    tt.return
  }
}

// -----

// ... and from 3.2 on they are keywords.
// CHECK-LABEL: tt.func @reshape_33
// CHECK: tt.reshape %x allow_reorder efficient_layout : tensor<32x32xf32, #blocked> -> tensor<1024xf32, #blocked1>
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @reshape_33(%x: tensor<32x32xf32, #blocked>) {
    %0 = tt.reshape %x allow_reorder efficient_layout : tensor<32x32xf32, #blocked> -> tensor<1024xf32, #blocked1>
    tt.return
  }
}

// -----

// scf.for: `unsigned` comparison kept; MLIR's blank before the induction variable's type.
// CHECK-LABEL: tt.func @loops
// CHECK: scf.for unsigned %i = %lo to %hi step %lo  : i32 {
// CHECK: scf.for %j = %lo to %hi step %lo  : i32 {
tt.func @loops(%lo: i32, %hi: i32) {
  scf.for unsigned %i = %lo to %hi step %lo : i32 {
  }
  scf.for %j = %lo to %hi step %lo : i32 {
  }
  tt.return
}
