// RUN: irkit-opt %s --split-input-file --test-print-alignment -o %t 2>&1 | FileCheck %s
// RUN: irkit-opt %s --split-input-file --test-print-alignment=remarks=true --verify-diagnostics -o %t
// RUN: irkit-opt %s --split-input-file --test-print-alignment --verify-diagnostics -o %t

// test-print-alignment: Triton's TestAxisInfo report, one line per op result: the op, then its AxisInfo
// (Triton 3.1 rules).  With remarks=true each line is a remark at the op, as Triton's tests check it from
// 2025 on with -verify-diagnostics (the expected-remark lines below).

// A row of 64 f32 pointers from a 16-byte aligned base: program_id * 64 + arange(0, 64).
// CHECK-LABEL: @row_pointers
// CHECK-NEXT: %c64 = arith.constant 64 : i32 => contiguity = [1], divisibility = [64], constancy = [1], constant_value = 64
// CHECK-NEXT: tt.get_program_id x : i32 => contiguity = [1], divisibility = [1], constancy = [1], constant_value = <none>
// CHECK-NEXT: arith.muli %pid, %c64 : i32 => contiguity = [1], divisibility = [64], constancy = [1], constant_value = <none>
// make_range from 0: the start's divisor as an unsigned 32-bit number, 2^30
// CHECK-NEXT: tt.make_range {{.*}} => contiguity = [64], divisibility = [1073741824], constancy = [1], constant_value = <none>
// CHECK-NEXT: tt.splat %start {{.*}} => contiguity = [1], divisibility = [64], constancy = [64], constant_value = <none>
// CHECK-NEXT: arith.addi %splat, %range {{.*}} => contiguity = [64], divisibility = [64], constancy = [1], constant_value = <none>
// CHECK-NEXT: tt.splat %base {{.*}} => contiguity = [1], divisibility = [16], constancy = [64], constant_value = <none>
// pointer divisibility is in bytes: gcd(16, 64 * 4)
// CHECK-NEXT: tt.addptr %ptrs, %offs {{.*}} => contiguity = [64], divisibility = [16], constancy = [1], constant_value = <none>
// CHECK-NEXT: arith.constant dense<2> {{.*}} => contiguity = [1], divisibility = [2], constancy = [64], constant_value = 2
// a contiguous run divided by 2 comes in pairs of equal values
// CHECK-NEXT: arith.divsi %range, %cst2 {{.*}} => contiguity = [1], divisibility = [1], constancy = [2], constant_value = <none>
#blocked = #triton_gpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"triton_gpu.num-ctas" = 1 : i32, "triton_gpu.num-warps" = 4 : i32} {
  tt.func @row_pointers(%base: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
    // expected-remark @below {{contiguity = [1], divisibility = [64], constancy = [1], constant_value = 64}}
    %c64 = arith.constant 64 : i32
    // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1], constant_value = <none>}}
    %pid = tt.get_program_id x : i32
    // expected-remark @below {{contiguity = [1], divisibility = [64], constancy = [1], constant_value = <none>}}
    %start = arith.muli %pid, %c64 : i32
    // expected-remark @below {{contiguity = [64], divisibility = [1073741824], constancy = [1], constant_value = <none>}}
    %range = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #blocked>
    // expected-remark @below {{contiguity = [1], divisibility = [64], constancy = [64], constant_value = <none>}}
    %splat = tt.splat %start : i32 -> tensor<64xi32, #blocked>
    // expected-remark @below {{contiguity = [64], divisibility = [64], constancy = [1], constant_value = <none>}}
    %offs = arith.addi %splat, %range : tensor<64xi32, #blocked>
    // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [64], constant_value = <none>}}
    %ptrs = tt.splat %base : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>, #blocked>
    // expected-remark @below {{contiguity = [64], divisibility = [16], constancy = [1], constant_value = <none>}}
    %addrs = tt.addptr %ptrs, %offs : tensor<64x!tt.ptr<f32>, #blocked>, tensor<64xi32, #blocked>
    // expected-remark @below {{contiguity = [1], divisibility = [2], constancy = [64], constant_value = 2}}
    %cst2 = arith.constant dense<2> : tensor<64xi32, #blocked>
    // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [2], constant_value = <none>}}
    %half = arith.divsi %range, %cst2 : tensor<64xi32, #blocked>
    tt.return
  }
}

// -----

// A loop-carried offset: the result of scf.if and scf.for print their whole op (regions included) before
// the AxisInfo, as MLIR's Value::print does.  The loop adds 32 to a 32-aligned start: the iter_arg stays
// 32-divisible; the if joins a 32-aligned value with the constant 64: gcd 32.
// CHECK-LABEL: @loop_carried
// CHECK: scf.if
// CHECK: } => contiguity = [1], divisibility = [32], constancy = [1], constant_value = <none>
// CHECK: scf.for
// CHECK: } => contiguity = [1], divisibility = [32], constancy = [1], constant_value = <none>
tt.func @loop_carried(%n: i32, %flag: i1) -> i32 {
  // expected-remark @below {{constant_value = 0}}
  %c0 = arith.constant 0 : i32
  // expected-remark @below {{constant_value = 1}}
  %c1 = arith.constant 1 : i32
  // expected-remark @below {{divisibility = [32], constancy = [1], constant_value = 32}}
  %c32 = arith.constant 32 : i32
  // expected-remark @below {{divisibility = [64], constancy = [1], constant_value = 64}}
  %c64 = arith.constant 64 : i32
  // expected-remark @below {{contiguity = [1], divisibility = [32], constancy = [1], constant_value = <none>}}
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c32) -> (i32) : i32 {
    // expected-remark @below {{contiguity = [1], divisibility = [32], constancy = [1], constant_value = <none>}}
    %next = arith.addi %acc, %c32 : i32
    // expected-remark @below {{contiguity = [1], divisibility = [32], constancy = [1], constant_value = <none>}}
    %pick = scf.if %flag -> (i32) {
      scf.yield %next : i32
    } else {
      // expected-remark @below {{contiguity = [1], divisibility = [32], constancy = [1], constant_value = <none>}}
      %more = arith.addi %next, %c32 : i32
      scf.yield %c64 : i32
    }
    scf.yield %pick : i32
  }
  tt.return %r : i32
}

// -----

// A module in the ttg.* spelling gets upstream main's rules (axis_info_main): a pointer bitcast to another
// element width ends the runs, a run subtracted from a constant is no run, constants are sign-extended.
// CHECK-LABEL: @main_rules
tt.func @main_rules(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
  // expected-remark @below {{contiguity = [64], divisibility = [1073741824], constancy = [1], constant_value = <none>}}
  %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [64], constant_value = <none>}}
  %base = tt.splat %p : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  // expected-remark @below {{contiguity = [64], divisibility = [16], constancy = [1], constant_value = <none>}}
  %ptrs = tt.addptr %base, %r : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
  // CHECK: tt.bitcast {{.*}} => contiguity = [1], divisibility = [4], constancy = [1], constant_value = <none>
  // expected-remark @below {{contiguity = [1], divisibility = [4], constancy = [1], constant_value = <none>}}
  %halves = tt.bitcast %ptrs : tensor<64x!tt.ptr<f32>> -> tensor<64x!tt.ptr<f16>>
  // CHECK: arith.constant dense<-8> {{.*}} => contiguity = [1], divisibility = [8], constancy = [64], constant_value = -8
  // expected-remark @below {{contiguity = [1], divisibility = [8], constancy = [64], constant_value = -8}}
  %neg8 = arith.constant dense<-8> : tensor<64xi32>
  // CHECK: arith.subi %neg8, %r {{.*}} => contiguity = [1], divisibility = [1], constancy = [1], constant_value = <none>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1], constant_value = <none>}}
  %down = arith.subi %neg8, %r : tensor<64xi32>
  tt.return
}
