// RUN: irkit-opt %s --split-input-file | filecheck %s
// RUN: irkit-opt %s --split-input-file | irkit-opt --split-input-file | filecheck %s

// What Triton main of August 2026 (and Intel's fork) prints that irkit could not read before: each case is read,
// verified and printed back as triton-opt prints it, and the printout reads again (second RUN line).

// Intel: 2D block loads from a surface and from a tensor of pointers (`{row_major}` is the BlockIOMode enum between
// braces, `pad_nan` a unit flag inside them; the from_ptr form has a blank before `{`), descriptor fields, gather
// and scatter.  A DPAS operand layout of fewer warps than the module's is not checked on ttig ops (TTIG_Op verifies
// memdesc layouts only).
#blocked = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [1, 16], warpsPerCTA = [8, 1], order = [1, 0]}>
#dpas = #ttig.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [2, 2], repCluster = [1, 1], A = [8, 16], B = [16, 16], C = [8, 16]}>
#dot0 = #ttg.dot_op<{opIdx = 0, parent = #dpas, kWidth = 1}>
module attributes {"ttg.num-warps" = 8 : i32, "ttg.threads-per-warp" = 16 : i32, "ttig.support_2d_block_io"} {
  // CHECK-LABEL: tt.func @intel_2d_block_loads
  tt.func @intel_2d_block_loads(%p: !tt.ptr<f16>, %w: i32, %h: i32, %pitch: i32, %x: i32, %y: i32, %ptrs: tensor<64x16x!tt.ptr<f16>, #blocked>, %m: tensor<64x16xi1, #blocked>, %o: tensor<64x16xf16, #blocked>) {
    // CHECK: %a = ttig.2d_block_load %p, %w, %h, %pitch[%x, %y] {row_major} : <f16> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>
    %a = ttig.2d_block_load %p, %w, %h, %pitch[%x, %y] {row_major} : !tt.ptr<f16> -> tensor<64x32xf16, #dot0>
    // CHECK: %b = ttig.2d_block_load %p, %w, %h, %pitch[%x, %y] {column_major, pad_nan} : <f16> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>
    %b = ttig.2d_block_load %p, %w, %h, %pitch[%x, %y] {column_major, pad_nan} : <f16> -> tensor<64x32xf16, #dot0>
    // CHECK: %c = ttig.2d_block_load_from_ptr %ptrs, %pitch {row_major} {base_height = 64 : i32, base_width = 32 : i32} : (tensor<64x16x!tt.ptr<f16>, #blocked>, i32) -> tensor<64x16xf16, #blocked>
    %c = ttig.2d_block_load_from_ptr %ptrs, %pitch {row_major} {base_height = 64 : i32, base_width = 32 : i32} : (tensor<64x16x!tt.ptr<f16>, #blocked>, i32) -> tensor<64x16xf16, #blocked>
    // CHECK: %d = ttig.2d_block_load_from_ptr %ptrs, %pitch, %m, %o {column_major} {base_height = 8 : i32, base_width = 64 : i32, ttig.block_io_stride = 64 : i64} : (tensor<64x16x!tt.ptr<f16>, #blocked>, i32, tensor<64x16xi1, #blocked>, tensor<64x16xf16, #blocked>) -> tensor<64x16xf16, #blocked>
    %d = ttig.2d_block_load_from_ptr %ptrs, %pitch, %m, %o {column_major} {base_height = 8 : i32, base_width = 64 : i32, ttig.block_io_stride = 64 : i64} : (tensor<64x16x!tt.ptr<f16>, #blocked>, i32, tensor<64x16xi1, #blocked>, tensor<64x16xf16, #blocked>) -> tensor<64x16xf16, #blocked>
    tt.return
  }
  // CHECK-LABEL: tt.func @intel_descriptors
  tt.func @intel_descriptors(%p: !tt.ptr<f16>, %n: i32, %s: i64, %rows: tensor<8xi32, #ttg.slice<{dim = 1, parent = #blocked}>>, %y: i32, %v: tensor<8x16xf16, #blocked>) {
    %desc = tt.make_tensor_descriptor %p, [%n, %n], [%s, %s] : <f16>, <8x16xf16>
    // CHECK: %shape0 = ttig.extract_desc %desc[0] : <8x16xf16> -> i64
    %shape0 = ttig.extract_desc %desc[0] : <8x16xf16> -> i64
    // CHECK: %base = ttig.extract_desc %desc[4] : <8x16xf16> -> !tt.ptr<f16>
    %base = ttig.extract_desc %desc[4] : !tt.tensordesc<8x16xf16> -> !tt.ptr<f16>
    // CHECK: %g = ttig.descriptor_gather %desc[%rows, %y] : (!tt.tensordesc<8x16xf16>, tensor<8xi32, #ttg.slice<{dim = 1, parent = #blocked}>>, i32) -> tensor<8x16xf16, #blocked>
    %g = ttig.descriptor_gather %desc[%rows, %y] : (!tt.tensordesc<8x16xf16>, tensor<8xi32, #ttg.slice<{dim = 1, parent = #blocked}>>, i32) -> tensor<8x16xf16, #blocked>
    // CHECK: ttig.descriptor_scatter %desc[%rows, %y], %v : !tt.tensordesc<8x16xf16>, tensor<8xi32, #ttg.slice<{dim = 1, parent = #blocked}>>, i32, tensor<8x16xf16, #blocked>
    ttig.descriptor_scatter %desc[%rows, %y], %v : !tt.tensordesc<8x16xf16>, tensor<8xi32, #ttg.slice<{dim = 1, parent = #blocked}>>, i32, tensor<8x16xf16, #blocked>
    tt.return
  }
}

// -----

// `#ttg.generic_linear` (swizzled warp bases), aliased `#generic_linear` as triton-opt names it.
// CHECK: #generic_linear = #ttg.generic_linear<{register = {{\[\[}}1, 0], [0, 1]], lane = {{\[\[}}2, 0], [4, 0], [8, 0], [0, 2], [0, 4]], warp = {{\[\[}}16, 8], [0, 8]], block = []}>
// CHECK: #generic_linear1 = #ttg.generic_linear<{register = {{\[\[}}1]], lane = {{\[\[}}2], [4], [8], [0], [0]], warp = {{\[\[}}16], [0]], block = []}>
#src = #ttg.generic_linear<{register = [[1, 0], [0, 1]], lane = [[2, 0], [4, 0], [8, 0], [0, 2], [0, 4]], warp = [[16, 8], [0, 8]], block = []}>
#dst = #ttg.generic_linear<{register = [[1]], lane = [[2], [4], [8], [0], [0]], warp = [[16], [0]], block = []}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @generic_linear(%arg: tensor<32x1xi32, #src>) {
    // CHECK: tt.reshape %arg : tensor<32x1xi32, #generic_linear> -> tensor<32xi32, #generic_linear1>
    %0 = tt.reshape %arg : tensor<32x1xi32, #src> -> tensor<32xi32, #dst>
    tt.return
  }
}

// -----

// `ttng.tmem_load` with a reduction: the `#ttng.redOp<...>` enum attribute.
#blocked = #ttg.blocked<{sizePerThread = [1, 128], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @tmem_load_reduce(%buf: !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>) {
    // CHECK: %result, %red = ttng.tmem_load %buf {NaN = true, abs = true, redOp = #ttng.redOp<max>} : !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable> -> tensor<128x128xf32, #blocked>, tensor<128xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %result, %red = ttng.tmem_load %buf {redOp = #ttng.redOp<max>, abs = true, NaN = true} : !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable> -> tensor<128x128xf32, #blocked>, tensor<128xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
    tt.return
  }
}

// -----

// `nvg` (NVGPU) ops in an LLVM function, as Triton's canonicalize test keeps them.
module attributes {"ttg.num-warps" = 4 : i32} {
  // CHECK-LABEL: llvm.func @nvg_ops
  llvm.func @nvg_ops(%p: !llvm.ptr<1>, %m: i1) {
    // CHECK: %0 = nvg.ld_acquire acquire, gpu, %p : (!llvm.ptr<1>) -> i32
    %0 = nvg.ld_acquire acquire, gpu, %p : (!llvm.ptr<1>) -> i32
    // CHECK: %1 = nvg.ld_acquire relaxed, sys, %p, %m : (!llvm.ptr<1>) -> i64
    %1 = nvg.ld_acquire relaxed, sys, %p, %m : (!llvm.ptr<1>) -> i64
    // CHECK: %2 = nvg.cluster_id
    %2 = nvg.cluster_id
    // CHECK: %3 = nvg.warp_group_barrier_id
    %3 = nvg.warp_group_barrier_id
    // CHECK: %4 = nvg.tensor_memory_base
    %4 = nvg.tensor_memory_base
    llvm.return
  }
}

// -----

// A `dense<...> : vector<...>` attribute; an alias (`#shared0`) named inside a type irkit keeps as text prints
// under the name the printer gives it (`#shared`), which it defines.
// CHECK: #shared = #ttg.nvmma_shared<{swizzlingByteWidth = 32, transposed = false, elementBitWidth = 16}>
#shared0 = #ttg.nvmma_shared<{swizzlingByteWidth = 32, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @aref_alias_and_vector_attr(%d: !ttg.memdesc<1x64x16xf16, #shared0, #smem>) {
    // CHECK: %c0_i32 = arith.constant {async_task_id = dense<0> : vector<1xi32>} 0 : i32
    %c0_i32 = arith.constant {async_task_id = dense<0> : vector<1xi32>} 0 : i32
    // CHECK: nvws.aref.create %d : !nvws.aref<[!ttg.memdesc<1x64x16xf16, #shared, #smem>]>
    %0 = nvws.aref.create %d : !nvws.aref<[!ttg.memdesc<1x64x16xf16, #shared0, #smem>]>
    tt.return
  }
}

// -----

// An amd_mfma with the 2024 key `isTranspose`, which main's parser skips: kept as written.
// CHECK: #mma = #ttg.amd_mfma<{warpsPerCTA=[1,1], instrShape=[32,32], isTranspose=false}>
#mfma = #ttg.amd_mfma<{warpsPerCTA=[1,1], instrShape=[32,32], isTranspose=false}>
module attributes {"ttg.num-warps" = 1 : i32, "ttg.threads-per-warp" = 64 : i32} {
  // CHECK: tt.func public @mfma_2024_key(%data: tensor<64x64xf16, #mma>)
  tt.func public @mfma_2024_key(%data: tensor<64x64xf16, #mfma>) {
    tt.return
  }
}

// -----

// An alias that only a verbatim type names is still defined, under the printer's name for it.
// CHECK: #shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
// CHECK: #smem = #ttg.shared_memory
// CHECK: tt.func @alias_only_in_verbatim_type(%a: !nvws.aref<[!ttg.memdesc<2x2xi64, #shared, #smem, mutable>]>)
#shared_clc = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem_clc = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @alias_only_in_verbatim_type(%a: !nvws.aref<[!ttg.memdesc<2x2xi64, #shared_clc, #smem_clc, mutable>]>) {
    tt.return
  }
}

// -----

// `llvm.mlir.global`, as Triton's shared-memory allocation declares it in modules bound for LLVM; its keywords
// (linkage, visibility, unnamed_addr, constant), a string global (no type written) and an initializer region.
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK: llvm.mlir.global external @global_smem() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
  llvm.mlir.global external @global_smem() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
  // CHECK: llvm.mlir.global internal constant @str("hello\00") {addr_space = 0 : i32}
  llvm.mlir.global internal constant @str("hello\00") {addr_space = 0 : i32}
  // CHECK: llvm.mlir.global private unnamed_addr constant @c(42 : i32) {addr_space = 0 : i32} : i32
  llvm.mlir.global private unnamed_addr constant @c(42 : i32) : i32
  // CHECK: llvm.mlir.global internal @init() {addr_space = 0 : i32} : i32 {
  // CHECK-NEXT: %0 = llvm.mlir.constant(7 : i32) : i32
  // CHECK-NEXT: llvm.return %0 : i32
  llvm.mlir.global internal @init() : i32 {
    %0 = llvm.mlir.constant(7 : i32) : i32
    llvm.return %0 : i32
  }
}
