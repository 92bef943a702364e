// Intel's fork (triton-xpu 3.3.0b1, `triton_intel_gpu.*`): its allocation tries sub-group shuffles and
// transposes before the common rules.  Each size below is the real triton-xpu 3.3.0b1 allocate pass's
// (tools/refgen/real_shared.py on this file's parts).

// Registers become lanes and lanes registers within each sub-group: a transpose, sized as rows of 16 + 1
// elements (16 x 64 i32: 64 rows of 17 x 4 B).
// INTEL-LABEL: sub_group_transpose_i32
// INTEL-NEXT: scratch offset = 0, size = 4352
// INTEL-NEXT: size = 4352
#src = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 16], warpsPerCTA = [1, 4], order = [1, 0]}>
#dst = #ttg.blocked<{sizePerThread = [1, 16], threadsPerWarp = [16, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {triton_intel_gpu.min_sg_size = 16 : i32, triton_intel_gpu.support_dpas, "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @sub_group_transpose_i32(%x: tensor<16x64xi32, #src>) -> tensor<16x64xi32, #dst> {
    %y = ttg.convert_layout %x : tensor<16x64xi32, #src> -> tensor<16x64xi32, #dst>
    tt.return %y : tensor<16x64xi32, #dst>
  }
}

// -----

// The same transpose of f16: 2 B a cell (the common 3.3 rules would pad a 16 x 72 tile: 2,304 B).
// INTEL-LABEL: sub_group_transpose_f16
// INTEL-NEXT: scratch offset = 0, size = 2176
// INTEL-NEXT: size = 2176
#src = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 16], warpsPerCTA = [1, 4], order = [1, 0]}>
#dst = #ttg.blocked<{sizePerThread = [1, 16], threadsPerWarp = [16, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {triton_intel_gpu.min_sg_size = 16 : i32, triton_intel_gpu.support_dpas, "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @sub_group_transpose_f16(%x: tensor<16x64xf16, #src>) -> tensor<16x64xf16, #dst> {
    %y = ttg.convert_layout %x : tensor<16x64xf16, #src> -> tensor<16x64xf16, #dst>
    tt.return %y : tensor<16x64xf16, #dst>
  }
}

// -----

// Each work-item gathers the whole row the sub-group holds: a sub-group shuffle, no shared memory (the
// common rules would take 64 B).
// INTEL-LABEL: sub_group_shuffle
// INTEL-NEXT: size = 0
#src = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 16], warpsPerCTA = [1, 1], order = [1, 0]}>
#dst = #ttg.blocked<{sizePerThread = [1, 16], threadsPerWarp = [16, 1], warpsPerCTA = [1, 1], order = [1, 0]}>
module attributes {triton_intel_gpu.min_sg_size = 16 : i32, triton_intel_gpu.support_dpas, "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @sub_group_shuffle(%x: tensor<1x16xf32, #src>) -> tensor<1x16xf32, #dst> {
    %y = ttg.convert_layout %x : tensor<1x16xf32, #src> -> tensor<1x16xf32, #dst>
    tt.return %y : tensor<1x16xf32, #dst>
  }
}

// -----

// A 3-D DPAS accumulator over 4 batches: triton-xpu 3.3.0b1 still takes the layouts' own tiles, so the
// rep tile is the whole 4 x 32 x 32 (the DPAS sub-group covers 32 rows with its repCluster), padded by 8.
// INTEL-LABEL: dpas_3d
// INTEL-NEXT: scratch offset = 0, size = 20480
// INTEL-NEXT: size = 20480
#blocked = #ttg.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [1, 1, 16], warpsPerCTA = [2, 1, 2], order = [2, 0, 1]}>
#mma = #triton_intel_gpu.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [4, 1, 1], repCluster = [1, 4, 2], A = [1, 32, 16], B = [1, 16, 32], C = [1, 32, 32]}>
module attributes {triton_intel_gpu.min_sg_size = 16 : i32, triton_intel_gpu.support_dpas, "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @dpas_3d(%x: tensor<4x32x32xf32, #mma>) -> tensor<4x32x32xf32, #blocked> {
    %y = ttg.convert_layout %x : tensor<4x32x32xf32, #mma> -> tensor<4x32x32xf32, #blocked>
    tt.return %y : tensor<4x32x32xf32, #blocked>
  }
}

// -----

// Operand B of a DPAS layout with repCluster [2, 2] to the accumulator: Intel's own sizePerThread of operand
// B applies the repCluster twice, so the rep tile is 32 x 64 columns (and 2 of padding), not 32 x 32.
// INTEL-LABEL: dpas_operand_b
// INTEL-NEXT: scratch offset = 0, size = 4224
// INTEL-NEXT: size = 4224
#mma = #triton_intel_gpu.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [4, 1], repCluster = [2, 2], A = [16, 16], B = [16, 32], C = [16, 32]}>
module attributes {triton_intel_gpu.min_sg_size = 16 : i32, triton_intel_gpu.support_dpas, "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @dpas_operand_b(%x: tensor<32x128xbf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>) -> tensor<32x128xbf16, #mma> {
    %y = ttg.convert_layout %x : tensor<32x128xbf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<32x128xbf16, #mma>
    tt.return %y : tensor<32x128xbf16, #mma>
  }
}
