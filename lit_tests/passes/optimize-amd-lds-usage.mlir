// RUN: irkit-opt %s --split-input-file -p 'optimize-amd-lds-usage{version=3.6.0}' | FileCheck %s --check-prefix=V36
// RUN: irkit-opt %s --split-input-file -p 'optimize-amd-lds-usage{version=3.3.1}' | FileCheck %s --check-prefix=V33
// RUN: irkit-opt %s --split-input-file -p 'optimize-amd-lds-usage{version=3.6.0 lds-limit=300000}' | FileCheck %s --check-prefix=ROOMY
// UNSUPPORTED: reference

// optimize-amd-lds-usage (Triton 3.3-3.6 on AMD).  Each expected output is the one the real pass of Triton 3.6.0
// (V36) and 3.3.1 (V33) gives for the same input (tools/refgen: add_optimize_lds_usage(pm, "gfx942", 0)).

// The add-matrix epilogue at 256x256 f32: its convert needs 262,144 B, four times gfx942's LDS.  3.6 finds no
// candidate whose swizzled scratch fits, so it goes through the narrow blocked fallback (8 x 8 lanes, the source's
// linear order: its 256 rows sit in registers) with the padded scratch, marked on both converts: 17,408 B.
// V36: #[[$TMP:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 8], warpsPerCTA = [1, 4], order = [0, 1]}>
// V36-LABEL: tt.func public @epilogue
// V36: %[[T:.*]] = ttg.convert_layout %d {amdg.use_padded_scratch_shmem} : tensor<256x256xf32, #blocked> -> tensor<256x256xf32, #[[$TMP]]>
// V36-NEXT: %dm = ttg.convert_layout %[[T]] {amdg.use_padded_scratch_shmem} : tensor<256x256xf32, #[[$TMP]]> -> tensor<256x256xf32, #mma>
// V36-NEXT: tt.return %dm
// 3.3 prices every candidate padded and takes the fallback in the layout's own order [1, 0], unmarked.
// V33: #[[$TMP33:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 8], warpsPerCTA = [1, 4], order = [1, 0]}>
// V33-LABEL: tt.func public @epilogue
// V33: %[[T:.*]] = ttg.convert_layout %d : tensor<256x256xf32, #blocked> -> tensor<256x256xf32, #[[$TMP33]]>
// V33-NEXT: %dm = ttg.convert_layout %[[T]] : tensor<256x256xf32, #[[$TMP33]]> -> tensor<256x256xf32, #mma>
// With room for the whole convert the module is left alone.
// ROOMY-LABEL: tt.func public @epilogue
// ROOMY-NEXT: %dm = ttg.convert_layout %d : tensor<256x256xf32, #blocked> -> tensor<256x256xf32, #mma>
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 64], warpsPerCTA = [1, 4], order = [1, 0]}>
#mma = #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  tt.func public @epilogue(%d: tensor<256x256xf32, #blocked>) -> tensor<256x256xf32, #mma> {
    %dm = ttg.convert_layout %d : tensor<256x256xf32, #blocked> -> tensor<256x256xf32, #mma>
    tt.return %dm : tensor<256x256xf32, #mma>
  }
}

// -----

// A bf16 convert over 8 warps with a 4 KiB buffer live: 69,632 B.  The padded scratch of the convert itself
// (16,640 B) fits, so 3.6 only marks it (20,736 B in all); in 3.3, whose convert scratch is already the padded
// one, the module fits and is left as it is.
// V36-LABEL: tt.func public @marked
// V36: %c = ttg.convert_layout %x {amdg.use_padded_scratch_shmem} : tensor<256x256xbf16, #blocked> -> tensor<256x256xbf16, #mma>
// V33-LABEL: tt.func public @marked
// V33: %c = ttg.convert_layout %x : tensor<256x256xbf16, #blocked> -> tensor<256x256xbf16, #mma>
#blocked = #ttg.blocked<{sizePerThread = [2, 8], threadsPerWarp = [16, 4], warpsPerCTA = [2, 4], order = [1, 0]}>
#mma = #ttg.amd_mfma<{version = 3, warpsPerCTA = [1, 8], instrShape = [16, 16, 16], isTransposed = false}>
#sh = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  tt.func public @marked(%x: tensor<256x256xbf16, #blocked>) -> tensor<256x256xbf16, #mma> {
    %h = ttg.local_alloc : () -> !ttg.memdesc<32x64xf16, #sh, #smem, mutable>
    %c = ttg.convert_layout %x : tensor<256x256xbf16, #blocked> -> tensor<256x256xbf16, #mma>
    ttg.local_dealloc %h : !ttg.memdesc<32x64xf16, #sh, #smem, mutable>
    tt.return %c : tensor<256x256xbf16, #mma>
  }
}
