// RUN: irkit-opt %s --split-input-file --verify-diagnostics
// convert_layout keeps shape and element type; tt.dot operands carry #dot_op encodings; every tt op's
// result layout has as many warps (threads) as the function/module's num-warps (threads-per-warp):
// TritonGPU's tensor-layout verifier, "the module specifies" in 3.1, "the context requires" from 3.3 on.

#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @convert_shape(%x: tensor<32x128xf32, #blocked>) {
    // expected-error@+1 {{'ttg.convert_layout' op requires the same shape for all operands and results}}
    %0 = ttg.convert_layout %x : tensor<32x128xf32, #blocked> -> tensor<128x32xf32, #blocked1>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @convert_element(%x: tensor<32x128xf32, #blocked>) {
    // expected-error@+1 {{'ttg.convert_layout' op requires the same element type for all operands and results}}
    %0 = ttg.convert_layout %x : tensor<32x128xf32, #blocked> -> tensor<32x128xf16, #blocked>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @dot_operands(%a: tensor<32x32xf16, #blocked>, %c: tensor<32x32xf32, #blocked>) {
    // expected-error@+1 {{'tt.dot' op Dot's a/b's encoding should be of DotOperandEncodingAttr}}
    %0 = tt.dot %a, %a, %c : tensor<32x32xf16, #blocked> * tensor<32x32xf16, #blocked> -> tensor<32x32xf32, #blocked>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @warps() {
    // expected-error@+1 {{Layout has a total of 2 warps per CTA, but the context requires 4 warps per CTA}}
    %0 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @function_scope() attributes {"ttg.num-warps" = 8 : i32} {
    // expected-error@+1 {{Layout has a total of 4 warps per CTA, but the context requires 8 warps per CTA}}
    %0 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>
    tt.return
  }
}

// -----

#blocked = #triton_gpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [2, 1], order = [1, 0]}>
module attributes {"triton_gpu.num-ctas" = 1 : i32, "triton_gpu.num-warps" = 4 : i32, "triton_gpu.threads-per-warp" = 32 : i32} {
  tt.func @warps_31(%x: i32) {
    // expected-error@+1 {{Layout has a total of 2 warps per CTA, but the module specifies 4 warps per CTA}}
    %0 = tt.splat %x : i32 -> tensor<32x128xi32, #blocked>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [16], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @threads() {
    // expected-error@+1 {{Layout has a total of 16 threads per warp, but the context requires 32 threads per warp}}
    %0 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>
    tt.return
  }
}

// -----

// expected-error@+1 {{'builtin.module' op attribute 'ttg.num-warps' must be a positive integer}}
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 0 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @no_warps() {
    tt.return
  }
}
