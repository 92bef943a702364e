// The RUN-line shapes of Triton's analysis tests: output to a file (-o %t) while the analysis
// prints to stderr, piped with 2>&1; --mlir-disable-threading accepted.
// RUN: irkit-opt %s -test-print-alignment -split-input-file -o %t 2>&1 | FileCheck %s
// RUN: irkit-opt %s -split-input-file --mlir-disable-threading -test-print-alignment -o /dev/null 2>&1 | FileCheck %s
// RUN: irkit-opt %s -split-input-file -test-print-alignment -o %t && FileCheck %s --check-prefix=IR < %t

// CHECK-LABEL: @offsets
// CHECK: contiguity = [128], divisibility = [1073741824], constancy = [1], constant_value = <none>
// CHECK-NEXT: contiguity = [1], divisibility = [16], constancy = [128], constant_value = <none>
// CHECK-NEXT: contiguity = [128], divisibility = [16], constancy = [1], constant_value = <none>
// IR-LABEL: tt.func @offsets
// IR: tt.addptr
tt.func @offsets(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
  %0 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  %1 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>
  %2 = tt.addptr %1, %0 : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
  tt.return
}

// -----

// a splat constant: constant over the whole tensor, divisible by its value
// CHECK-LABEL: @splat
// CHECK: contiguity = [1], divisibility = [4], constancy = [128], constant_value = 4
tt.func @splat() {
  %0 = arith.constant dense<4> : tensor<128xi32>
  tt.return
}
