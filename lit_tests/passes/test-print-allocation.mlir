// RUN: irkit-opt %s --split-input-file --test-print-allocation -o %t 2>&1 | FileCheck %s
// RUN: irkit-opt %s --split-input-file --test-print-allocation=version=3.3 -o %t 2>&1 | FileCheck %s --check-prefix=V33
// The version a harness states for a whole tree of tests (tools/upstream_runlines.py), as --triton-version:
// RUN: env IRKIT_TRITON_VERSION=3.3.1 irkit-opt %s --split-input-file --test-print-allocation -o %t 2>&1 | FileCheck %s --check-prefix=V33
// RUN: irkit-opt %S/Inputs/test-print-allocation-remarks.mlir --allow-unregistered-dialect --test-print-allocation --verify-diagnostics -o /dev/null
// RUN: irkit-opt %S/Inputs/test-print-allocation-remarks.mlir --allow-unregistered-dialect --test-print-allocation=get-scratch-size-function=ValidConstant -o /dev/null 2>&1 | FileCheck %s --check-prefix=C128
// RUN: irkit-opt %S/Inputs/test-print-allocation-remarks.mlir --allow-unregistered-dialect --test-print-allocation -o /dev/null 2>&1 | FileCheck %s --check-prefix=TEXT
// RUN: irkit-opt %S/Inputs/test-print-allocation-partitions.mlir --test-print-allocation=partition-size=65536 -o /dev/null 2>&1 | FileCheck %S/Inputs/test-print-allocation-partitions.mlir --check-prefix=PART
// RUN: irkit-opt %S/Inputs/test-print-allocation-partitions.mlir --test-print-allocation -o /dev/null 2>&1 | FileCheck %S/Inputs/test-print-allocation-partitions.mlir --check-prefix=ONE
// RUN: irkit-opt %S/Inputs/test-print-allocation-intel.mlir --split-input-file --test-print-allocation -o /dev/null 2>&1 | FileCheck %S/Inputs/test-print-allocation-intel.mlir --check-prefix=INTEL

// test-print-allocation: Triton's TestAllocation report (offsets, sizes, totals) from irkit's allocation
// model, under the rules of the module's Triton version.  Every offset and total below is what the real
// allocate-shared-memory pass of that version assigns to the same module (tools/refgen/real_shared.py
// --offsets); the sizes follow from the offsets and totals.

// Triton 3.1 (triton_gpu.* spelling).
// A transposing blocked -> blocked convert: a 32 x 32 rep tile padded by one element, 32 x 33 f16.
// CHECK-LABEL: transpose
// CHECK-NEXT: scratch offset = 0, size = 2112
// CHECK-NEXT: size = 2112
// A Hopper accumulator read back as the A operand of the next dot needs no shared memory, yet 3.1.0 still
// reserves the product of an empty shape: one element.
// CHECK-LABEL: accumulator_as_operand
// CHECK-NEXT: scratch offset = 0, size = 2
// CHECK-NEXT: size = 2
// Explicit buffers aligned to 1024 above 256 bytes (8 below), packed in program order; the loop's two
// scratch buffers share one offset (each lives only at its op), after the buffers live across the loop;
// %d reuses the first buffer once %a is dead.
// CHECK-LABEL: buffers
// CHECK-NEXT: offset = 0, size = 8192
// CHECK-NEXT: offset = 8192, size = 1024
// CHECK-NEXT: offset = 9216, size = 32
// CHECK-NEXT: scratch offset = 9344, size = 2112
// CHECK-NEXT: scratch offset = 9344, size = 2560
// CHECK-NEXT: offset = 0, size = 2048
// CHECK-NEXT: size = 11904
// A call reserves the callee's whole allocation (a virtual buffer) beside the caller's live buffer.
// CHECK-LABEL: caller
// CHECK-NEXT: offset = 0, size = 512
// CHECK-NEXT: virtual offset = 512, size = 2112
// CHECK-NEXT: size = 2624

#blocked = #triton_gpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #triton_gpu.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #triton_gpu.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], CTAsPerCGA = [1, 1], CTASplitNum = [1, 1], CTAOrder = [1, 0], instrShape = [16, 64, 16]}>
#shared = #triton_gpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], hasLeadingOffset = false}>
module attributes {"triton_gpu.num-ctas" = 1 : i32, "triton_gpu.num-warps" = 4 : i32, triton_gpu.target = "cuda:90", "triton_gpu.threads-per-warp" = 32 : i32} {
  tt.func @transpose(%x: tensor<64x64xf16, #blocked>) -> tensor<64x64xf16, #blocked1> {
    %0 = triton_gpu.convert_layout %x : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #blocked1>
    tt.return %0 : tensor<64x64xf16, #blocked1>
  }
  tt.func @accumulator_as_operand(%acc: tensor<128x64xf16, #mma>) -> tensor<128x64xf16, #triton_gpu.dot_op<{opIdx = 0, parent = #mma}>> {
    %0 = triton_gpu.convert_layout %acc : tensor<128x64xf16, #mma> -> tensor<128x64xf16, #triton_gpu.dot_op<{opIdx = 0, parent = #mma}>>
    tt.return %0 : tensor<128x64xf16, #triton_gpu.dot_op<{opIdx = 0, parent = #mma}>>
  }
  tt.func @buffers(%x: tensor<64x64xf16, #blocked>, %lb: i32, %ub: i32, %step: i32) {
    %a = triton_gpu.local_alloc %x : (tensor<64x64xf16, #blocked>) -> !tt.memdesc<64x64xf16, #shared>
    %b = triton_gpu.local_alloc : () -> !tt.memdesc<2x16x16xf16, #shared, mutable>
    %c = triton_gpu.local_alloc : () -> !tt.memdesc<4x4xf16, #shared, mutable>
    %r = scf.for %i = %lb to %ub step %step iter_args(%v = %x) -> (tensor<64x64xf16, #blocked>) : i32 {
      %l = triton_gpu.local_load %a : !tt.memdesc<64x64xf16, #shared> -> tensor<64x64xf16, #blocked>
      %t = triton_gpu.convert_layout %l : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #blocked1>
      %u = triton_gpu.convert_layout %t : tensor<64x64xf16, #blocked1> -> tensor<64x64xf16, #blocked>
      scf.yield %u : tensor<64x64xf16, #blocked>
    }
    triton_gpu.local_dealloc %b : !tt.memdesc<2x16x16xf16, #shared, mutable>
    %d = triton_gpu.local_alloc : () -> !tt.memdesc<32x32xf16, #shared, mutable>
    %e = triton_gpu.local_load %c : !tt.memdesc<4x4xf16, #shared, mutable> -> tensor<4x4xf16, #blocked>
    %f = triton_gpu.local_load %d : !tt.memdesc<32x32xf16, #shared, mutable> -> tensor<32x32xf16, #blocked>
    tt.return
  }
  tt.func @caller(%x: tensor<64x64xf16, #blocked>) {
    %a = triton_gpu.local_alloc : () -> !tt.memdesc<16x16xf16, #shared, mutable>
    %0 = tt.call @transpose(%x) : (tensor<64x64xf16, #blocked>) -> tensor<64x64xf16, #blocked1>
    %l = triton_gpu.local_load %a : !tt.memdesc<16x16xf16, #shared, mutable> -> tensor<16x16xf16, #blocked>
    tt.return
  }
}

// -----

// Triton 3.9 (ttg.* spelling): buffers sorted by size, largest first, explicit alignment 16, and the 3.9
// swizzled convert scratch (64x64 f16: 8192 bytes).  Under 3.3 rules (version=3.3, as the real 3.3.1 pass)
// the padded formula gives the converts 2112 and 2560 bytes.
// CHECK-LABEL: sorted_by_size
// CHECK-NEXT: offset = 16384, size = 32
// CHECK-NEXT: offset = 0, size = 8192
// CHECK-NEXT: scratch offset = 8192, size = 8192
// CHECK-NEXT: scratch offset = 8192, size = 8192
// CHECK-NEXT: size = 16416
// V33-LABEL: sorted_by_size
// V33-NEXT: offset = 10752, size = 32
// V33-NEXT: offset = 0, size = 8192
// V33-NEXT: scratch offset = 8192, size = 2112
// V33-NEXT: scratch offset = 8192, size = 2560
// V33-NEXT: size = 10784

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @sorted_by_size(%x: tensor<64x64xf16, #blocked>, %lb: i32, %ub: i32, %step: i32) {
    %c = ttg.local_alloc : () -> !ttg.memdesc<4x4xf16, #shared, #smem, mutable>
    %a = ttg.local_alloc %x : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
    %r = scf.for %i = %lb to %ub step %step iter_args(%v = %x) -> (tensor<64x64xf16, #blocked>) : i32 {
      %l = ttg.local_load %a : !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<64x64xf16, #blocked>
      %t = ttg.convert_layout %l : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #blocked1>
      %u = ttg.convert_layout %t : tensor<64x64xf16, #blocked1> -> tensor<64x64xf16, #blocked>
      scf.yield %u : tensor<64x64xf16, #blocked>
    }
    %e = ttg.local_load %c : !ttg.memdesc<4x4xf16, #shared, #smem, mutable> -> tensor<4x4xf16, #blocked>
    tt.return
  }
}

// -----

// Two top-level modules in one input (no split): each function is reported with its own module's rules.
// CHECK-LABEL: first_module
// CHECK-NEXT: offset = 0, size = 256
// CHECK-NEXT: size = 256
// CHECK-LABEL: second_module
// CHECK-NEXT: offset = 0, size = 512
// CHECK-NEXT: size = 512
#shared = #triton_gpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0], hasLeadingOffset = false}>
module attributes {"triton_gpu.num-ctas" = 1 : i32, "triton_gpu.num-warps" = 4 : i32} {
  tt.func @first_module() {
    %a = triton_gpu.local_alloc : () -> !tt.memdesc<8x16xf16, #shared, mutable>
    tt.return
  }
}
module attributes {"triton_gpu.num-ctas" = 1 : i32, "triton_gpu.num-warps" = 8 : i32} {
  tt.func @second_module() {
    %a = triton_gpu.local_alloc : () -> !tt.memdesc<16x16xf16, #shared, mutable>
    tt.return
  }
}

// Under --verify-diagnostics the pass reports as remarks (checked in Inputs/test-print-allocation-remarks.mlir);
// without it the pass prints its text report.
// TEXT: two_partitions
// TEXT-NEXT: offset = 0, size = 16

// get-scratch-size-function=ValidConstant: every op but the function owns 128 bytes of scratch (the
// warp_specialize 8-aligned), as Triton's test scratch-size function.
// The 128-byte buffers of the terminators in the default region and the two partition regions
// (warp_yield, warp_return, warp_return) interfere: the regions run at the same time (Triton's AsyncRegions).
// C128-LABEL: two_partitions
// C128-NEXT: scratch offset = 0, size = 128
// C128-NEXT: offset = 512, size = 16
// C128-NEXT: scratch offset = 0, size = 128
// C128-NEXT: scratch offset = 256, size = 128
// C128-NEXT: scratch offset = 384, size = 128
// C128-NEXT: scratch offset = 128, size = 128
// C128: scratch offset = 528, size = 6
// C128-NEXT: size = 534
// C128-LABEL: yielded_buffer

// -----

// nvmma_shared buffers start on their swizzle pattern: 1024 bytes in 3.3, 128 * (swizzle / 16) from 3.4
// (128 unswizzled); an fp4Padded one holds two bytes per i8.  The real 3.3.1 and 3.9.0 passes assign these
// offsets (tools/refgen/real_shared.py --offsets).
// CHECK-LABEL: nvmma_alignment
// CHECK-NEXT: offset = 2048, size = 640
// CHECK-NEXT: offset = 3840, size = 128
// CHECK-NEXT: offset = 3584, size = 256
// CHECK-NEXT: offset = 3072, size = 512
// CHECK-NEXT: offset = 0, size = 1024
// CHECK-NEXT: offset = 1024, size = 1024
// CHECK-NEXT: size = 3968
// V33-LABEL: nvmma_alignment
// V33-NEXT: offset = 2048, size = 640
// V33-NEXT: offset = 5120, size = 128
// V33-NEXT: offset = 4096, size = 256
// V33-NEXT: offset = 3072, size = 512
// V33-NEXT: offset = 0, size = 1024
// V33-NEXT: offset = 1024, size = 1024
// V33-NEXT: size = 5248

#S = #ttg.swizzled_shared<{vec = 2, perPhase = 2, maxPhase = 4, order = [0]}>
#N0 = #ttg.nvmma_shared<{swizzlingByteWidth = 0, transposed = false, elementBitWidth = 8}>
#N32 = #ttg.nvmma_shared<{swizzlingByteWidth = 32, transposed = false, elementBitWidth = 8}>
#N64 = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 8}>
#N128 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 8}>
#F4 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 8, fp4Padded = true}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @nvmma_alignment() {
    %a = ttg.local_alloc : () -> !ttg.memdesc<5x64xf16, #S, #smem, mutable>
    %b = ttg.local_alloc : () -> !ttg.memdesc<8x16xi8, #N0, #smem, mutable>
    %c = ttg.local_alloc : () -> !ttg.memdesc<8x32xi8, #N32, #smem, mutable>
    %d = ttg.local_alloc : () -> !ttg.memdesc<8x64xi8, #N64, #smem, mutable>
    %e = ttg.local_alloc : () -> !ttg.memdesc<8x128xi8, #N128, #smem, mutable>
    %f = ttg.local_alloc : () -> !ttg.memdesc<8x64xi8, #F4, #smem, mutable>
    ttg.local_dealloc %a : !ttg.memdesc<5x64xf16, #S, #smem, mutable>
    ttg.local_dealloc %b : !ttg.memdesc<8x16xi8, #N0, #smem, mutable>
    ttg.local_dealloc %c : !ttg.memdesc<8x32xi8, #N32, #smem, mutable>
    ttg.local_dealloc %d : !ttg.memdesc<8x64xi8, #N64, #smem, mutable>
    ttg.local_dealloc %e : !ttg.memdesc<8x128xi8, #N128, #smem, mutable>
    ttg.local_dealloc %f : !ttg.memdesc<8x64xi8, #F4, #smem, mutable>
    tt.return
  }
}

// -----

// A shared_linear layout with a zero basis leaves holes: from 3.9 the buffer is the 2^4 offsets its bases
// span (64 bytes of i32), not its 4x2 shape (32 bytes, as 3.8.0 and the 3.3 rules count it); real 3.9.0:
// 128 bytes in all.
// CHECK-LABEL: holey_shared_linear
// CHECK-NEXT: offset = 0, size = 64
// CHECK-NEXT: offset = 64, size = 64
// CHECK-NEXT: size = 128
// V33-LABEL: holey_shared_linear
// V33-NEXT: size = 32
// V33: size = 96

#H = #ttg.shared_linear<{offset = [[0, 1], [0, 0], [1, 0], [2, 0]], block = []}, alignment = 16>
#S = #ttg.swizzled_shared<{vec = 2, perPhase = 2, maxPhase = 4, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  tt.func public @holey_shared_linear() {
    %a = ttg.local_alloc : () -> !ttg.memdesc<4x2xi32, #H, #smem, mutable>
    %b = ttg.local_alloc : () -> !ttg.memdesc<4x4xi32, #S, #smem, mutable>
    ttg.local_dealloc %a : !ttg.memdesc<4x2xi32, #H, #smem, mutable>
    ttg.local_dealloc %b : !ttg.memdesc<4x4xi32, #S, #smem, mutable>
    tt.return
  }
}
