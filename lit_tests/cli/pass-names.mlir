// Triton's pass names are irkit's passes: the same IR whichever name the command line uses, the
// --help text names them, and the IR dumps name the pass as it was written.
// RUN: irkit-opt %s -triton-rewrite-tensor-pointer | FileCheck %s
// RUN: irkit-opt %s --rewrite-tensor-pointer | FileCheck %s
// RUN: irkit-opt %s -tritonintelgpu-rewrite-tensor-pointer=mode=upstream | FileCheck %s
// RUN: irkit-opt %s -p 'builtin.module(triton-rewrite-tensor-pointer{mode=upstream})' | FileCheck %s
// RUN: irkit-opt %s -triton-rewrite-tensor-pointer -mlir-print-ir-after=rewrite-tensor-pointer -o /dev/null 2>&1 | FileCheck %s --check-prefix=DUMP
// RUN: irkit-opt %s -triton-rewrite-tensor-pointer -mlir-timing -o /dev/null 2>&1 | FileCheck %s --check-prefix=TIME
// RUN: irkit-opt --help | FileCheck %s --check-prefix=HELP
// RUN: not irkit-opt %s --rewrite-tensor 2>&1 | FileCheck %s --check-prefix=ABBREV

// CHECK-LABEL: tt.func @block_load
// CHECK-NOT: tt.make_tensor_ptr
// CHECK-NOT: tt.advance
// CHECK: tt.load %{{.*}}, %{{.*}}, %{{.*}} : tensor<32x64x!tt.ptr<f16>>
// DUMP: // -----// IR Dump After RewriteTensorPointerPass (triton-rewrite-tensor-pointer) //----- //
// DUMP-NEXT: module {
// TIME: ... Execution time report ...
// TIME: 'builtin.module' Pipeline
// TIME-NEXT: RewriteTensorPointerPass (triton-rewrite-tensor-pointer)
// TIME: Total
// HELP: --coalesce {{.*}}(also as tritongpu-coalesce)
// HELP: --rewrite-tensor-pointer {{.*}}[mode=upstream] (also as triton-rewrite-tensor-pointer (mode=upstream), tritonintelgpu-rewrite-tensor-pointer (mode=intel-2420))
// ABBREV: irkit-opt: error: unrecognized arguments: --rewrite-tensor
tt.func @block_load(%base: !tt.ptr<f16>, %m: i64, %n: i64, %stride: i64) -> tensor<32x64xf16> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i64
  %bp = tt.make_tensor_ptr %base, [%m, %n], [%stride, %c1], [%c0, %c0] {order = array<i32: 1, 0>} : <tensor<32x64xf16>>
  %c32 = arith.constant 32 : i32
  %next = tt.advance %bp, [%c32, %c0] : <tensor<32x64xf16>>
  %v = tt.load %next {boundaryCheck = array<i32: 0, 1>, padding = 1 : i32} : !tt.ptr<tensor<32x64xf16>>
  tt.return %v : tensor<32x64xf16>
}
