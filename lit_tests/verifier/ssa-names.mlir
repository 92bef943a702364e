// RUN: not irkit-opt %s 2>&1 | FileCheck %s
// MLIR's suffix-id is all digits or starts with a letter or one of $._-: `%88x` is no SSA name
// (Triton: "expected '=' after SSA name").

module {
  tt.func @f() {
    // CHECK: ssa-names.mlir:[[# @LINE + 1]]:5: error: expected SSA value name
    %88x = arith.constant 1 : i32
    tt.return
  }
}
