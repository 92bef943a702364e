// RUN: irkit-opt %s --split-input-file | filecheck %s

// Triton checks tensor layouts against the module's num-warps only on tt, ttg and ttng ops
// (VerifyTensorLayoutsTrait): real 3.3.1, 3.8.0 and 3.9.0 read each module below, where an arith, math, scf or
// amdg op has a layout of 8 warps in a 4-warp module (tests/test_today_syntax.py checks it with 3.9.0), and
// reject the same layout on tt.make_range (lit_tests/verifier/layouts.mlir).

#b8 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @arith_math_scf
  tt.func @arith_math_scf(%a: tensor<256xf32, #b8>, %p: i1) {
    // CHECK: arith.constant dense<0> : tensor<256xi32, #blocked>
    %c = arith.constant dense<0> : tensor<256xi32, #b8>
    // CHECK: math.exp %a : tensor<256xf32, #blocked>
    %e = math.exp %a : tensor<256xf32, #b8>
    // CHECK: scf.if %p -> (tensor<256xf32, #blocked>)
    %r = scf.if %p -> (tensor<256xf32, #b8>) {
      scf.yield %a : tensor<256xf32, #b8>
    } else {
      scf.yield %e : tensor<256xf32, #b8>
    }
    tt.return
  }
}

// -----

#b8 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 8], warpsPerCTA = [8, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 64 : i32} {
  // CHECK-LABEL: tt.func @amdg
  tt.func @amdg(%a: tensor<64x64xf16, #b8>) {
    // CHECK: amdg.extract_slice %a [0, 0] : tensor<64x64xf16, #blocked> to tensor<64x64xf16, #blocked>
    %c = amdg.extract_slice %a [0, 0] : tensor<64x64xf16, #b8> to tensor<64x64xf16, #b8>
    tt.return
  }
}
