// RUN: irkit-opt %s --split-input-file | filecheck %s
// RUN: irkit-opt %s --split-input-file | irkit-opt --split-input-file | filecheck %s

// Ops of Triton 3.3-3.8 under the names and attributes those releases print (tests/test_today_syntax.py: the
// release of each chunk reads irkit's printout of it).

// Triton 3.3: the descriptor ops before their 3.4 names (tt.experimental_descriptor_gather/scatter) and
// tt.reinterpret_tensor_descriptor (ttng.* from 3.4 on).
module {
  // CHECK-LABEL: tt.func @descriptors_33
  tt.func @descriptors_33(%raw: !tt.ptr<i8>, %rows: tensor<32xi32>, %y: i32, %v: tensor<32x128xbf16>) {
    // CHECK: %d = tt.reinterpret_tensor_descriptor %raw : !tt.ptr<i8> to !tt.tensordesc<tensor<1x128xbf16>>
    %d = tt.reinterpret_tensor_descriptor %raw : !tt.ptr<i8> to !tt.tensordesc<tensor<1x128xbf16>>
    // CHECK: %g = tt.experimental_descriptor_gather %d[%rows, %y] : (!tt.tensordesc<tensor<1x128xbf16>>, tensor<32xi32>, i32) -> tensor<32x128xbf16>
    %g = tt.experimental_descriptor_gather %d[%rows, %y] : (!tt.tensordesc<tensor<1x128xbf16>>, tensor<32xi32>, i32) -> tensor<32x128xbf16>
    // CHECK: tt.experimental_descriptor_scatter %d[%rows, %y], %v : !tt.tensordesc<tensor<1x128xbf16>>, tensor<32xi32>, i32, tensor<32x128xbf16>
    tt.experimental_descriptor_scatter %d[%rows, %y], %v : !tt.tensordesc<tensor<1x128xbf16>>, tensor<32xi32>, i32, tensor<32x128xbf16>
    tt.return
  }
}

// -----

// Triton 3.5-3.8 (AMD): the op's name as those releases spell it, amdg.local_load_packed_tranposed.
#mma = #ttg.amd_mfma<{version = 4, warpsPerCTA = [4, 1], instrShape = [16, 16, 32], isTransposed = true}>
#dot1 = #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 16}>
#shared = #ttg.swizzled_shared<{vec = 16, perPhase = 1, maxPhase = 16, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 64 : i32, ttg.target = "hip:gfx950"} {
  // CHECK-LABEL: tt.func @packed_tranposed
  tt.func @packed_tranposed(%buf: !ttg.memdesc<64x64xi8, #shared, #smem, mutable>) {
    // CHECK: %x = amdg.local_load_packed_tranposed %buf : !ttg.memdesc<64x64xi8, #shared, #smem, mutable> -> tensor<32x128xi8, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 16}>>
    %x = amdg.local_load_packed_tranposed %buf : !ttg.memdesc<64x64xi8, #shared, #smem, mutable> -> tensor<32x128xi8, #dot1>
    tt.return
  }
}

// -----

// Triton 3.6: ttg.local_barrier (3.9 has ttg.barrier with address spaces).
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @local_barrier_36
  tt.func @local_barrier_36() {
    // CHECK: ttg.local_barrier
    ttg.local_barrier
    tt.return
  }
}

// -----

// Triton 3.5-3.8: ttng.tmem_subslice with its column as `N` (3.9: `offset`).
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @tmem_subslice_38
  tt.func @tmem_subslice_38(%t: !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>) {
    // CHECK: %s = ttng.tmem_subslice %t {N = 64 : i32} : !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable> -> !ttg.memdesc<128x64xf32, #tmem, #ttng.tensor_memory, mutable, 128x128>
    %s = ttng.tmem_subslice %t {N = 64 : i32} : !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable> -> !ttg.memdesc<128x64xf32, #tmem, #ttng.tensor_memory, mutable, 128x128>
    tt.return
  }
}

// -----

// gpu.subgroup_id, as Intel's kernels and Triton's liveness test use it.
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @subgroup_id
  tt.func @subgroup_id() -> index {
    // CHECK: %0 = gpu.subgroup_id : index
    %0 = gpu.subgroup_id : index
    tt.return %0 : index
  }
}

// -----

// Triton 3.3: ttng.tmem_copy with its optional barrier between commas and a function type (3.4 on: two operands,
// `qualified(type(operands))`); the module prints back in 3.3's form.
#blocked = #ttg.blocked<{sizePerThread = [1, 16], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
#tmem_scales = #ttng.tensor_memory_scales_encoding<>
module attributes {"ttg.num-warps" = 4 : i32} {
  // CHECK-LABEL: tt.func @tmem_copy_33
  tt.func @tmem_copy_33(%arg0: tensor<1x2048xf8E4M3FN, #blocked>, %bar: !ttg.memdesc<1xi64, #shared, #smem, mutable>) {
    %0 = ttg.local_alloc %arg0 : (tensor<1x2048xf8E4M3FN, #blocked>) -> !ttg.memdesc<1x2048xf8E4M3FN, #shared, #smem>
    %1 = ttng.tmem_alloc : () -> !ttg.memdesc<128x16xf8E4M3FN, #tmem_scales, #ttng.tensor_memory, mutable>
    // CHECK: ttng.tmem_copy %0, %1,  : (!ttg.memdesc<1x2048xf8E4M3FN, #shared, #smem>, !ttg.memdesc<128x16xf8E4M3FN, #tmem_scales, #ttng.tensor_memory, mutable>) -> ()
    ttng.tmem_copy %0, %1,  : (!ttg.memdesc<1x2048xf8E4M3FN, #shared, #smem>, !ttg.memdesc<128x16xf8E4M3FN, #tmem_scales, #ttng.tensor_memory, mutable>) -> ()
    // CHECK: ttng.tmem_copy %0, %1, %bar : (!ttg.memdesc<1x2048xf8E4M3FN, #shared, #smem>, !ttg.memdesc<128x16xf8E4M3FN, #tmem_scales, #ttng.tensor_memory, mutable>, !ttg.memdesc<1xi64, #shared, #smem, mutable>) -> ()
    ttng.tmem_copy %0, %1, %bar : (!ttg.memdesc<1x2048xf8E4M3FN, #shared, #smem>, !ttg.memdesc<128x16xf8E4M3FN, #tmem_scales, #ttng.tensor_memory, mutable>, !ttg.memdesc<1xi64, #shared, #smem, mutable>) -> ()
    tt.return
  }
}
