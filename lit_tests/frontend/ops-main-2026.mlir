// RUN: irkit-opt %s --split-input-file | filecheck %s
// RUN: irkit-opt %s --split-input-file | irkit-opt --split-input-file | filecheck %s

// What Triton 3.8/3.9 and main (2026) print that older irkit could not read: each case is read, verified and
// printed back, and the printout reads again (second RUN line).

// AMD: LDS barriers, async copies to global memory, async_wait on instruction counts, buffer ops in the
// 3.4-3.8 format (cache modifier as a keyword, only the result type) beside 3.9's.
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared1 = #ttg.swizzled_shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 64 : i32} {
  // CHECK-LABEL: tt.func @amd_barriers_and_copies
  tt.func @amd_barriers_and_copies(%bar: !ttg.memdesc<1xi64, #shared, #smem, mutable>, %buf: !ttg.memdesc<32x64xf16, #shared1, #smem, mutable>, %dst: tensor<32x64x!tt.ptr<f16>, #blocked>, %phase: i32) {
    // CHECK: amdg.init_barrier %bar, 2 : !ttg.memdesc<1xi64, #shared, #smem, mutable>
    amdg.init_barrier %bar, 2 : !ttg.memdesc<1xi64, #shared, #smem, mutable>
    // CHECK: %{{.*}} = amdg.async_copy_local_to_global %buf, %dst cacheModifier = cg : !ttg.memdesc<32x64xf16, #shared1, #smem, mutable> -> tensor<32x64x!tt.ptr<f16>, #blocked>
    %t = amdg.async_copy_local_to_global %buf, %dst cacheModifier = cg : !ttg.memdesc<32x64xf16, #shared1, #smem, mutable> -> tensor<32x64x!tt.ptr<f16>, #blocked>
    // CHECK: amdg.async_wait %t {num_inst = 0 : i32}
    %w = amdg.async_wait %t {num_inst = 0 : i32}
    // CHECK: amdg.arrive_barrier %bar, 1 : !ttg.memdesc<1xi64, #shared, #smem, mutable> -> i32
    %n = amdg.arrive_barrier %bar, 1 : !ttg.memdesc<1xi64, #shared, #smem, mutable> -> i32
    // CHECK: amdg.wait_barrier %bar, %phase : !ttg.memdesc<1xi64, #shared, #smem, mutable>
    amdg.wait_barrier %bar, %phase : !ttg.memdesc<1xi64, #shared, #smem, mutable>
    tt.return
  }

  // CHECK-LABEL: tt.func @buffer_ops_38_format
  tt.func @buffer_ops_38_format(%p: !tt.ptr<f16>, %off: tensor<32x64xi32, #blocked>) -> tensor<32x64xf16, #blocked> {
    // CHECK: amdg.buffer_load %p[%off] cacheModifier = cg {contiguity = 4 : i32} : tensor<32x64xf16, #blocked>
    %x = amdg.buffer_load %p[%off] cacheModifier = cg {contiguity = 4 : i32} : tensor<32x64xf16, #blocked>
    tt.return %x : tensor<32x64xf16, #blocked>
  }
}

// -----

// scf: `iter_args() -> ()`, an `scf.if` whose then-region is written `{}`, `scf.execute_region ... no_inline`,
// `tensor <...>` with a blank, and the microscaling element types.
module {
  // CHECK-LABEL: tt.func @scf_forms
  tt.func @scf_forms(%lb: index, %ub: index, %c: i1, %s: tensor<4xf8E8M0FNU>) -> tensor <4xf8E8M0FNU> {
    // CHECK: scf.for %i = %lb to %ub step %lb {
    scf.for %i = %lb to %ub step %lb iter_args() -> () {
      // CHECK: scf.if %c {
      // CHECK-NEXT: } else {
      scf.if %c {
      } else {
        %z = arith.constant 0 : i32
      }
    }
    // CHECK: scf.execute_region -> tensor<4xf8E8M0FNU> no_inline {
    %r = scf.execute_region -> tensor<4xf8E8M0FNU> no_inline {
      scf.yield %s : tensor<4xf8E8M0FNU>
    }
    // CHECK: tt.return %{{.*}} : tensor<4xf8E8M0FNU>
    tt.return %r : tensor<4xf8E8M0FNU>
  }
}

// -----

// nvws: arefs with their stripped type spelling, tokens, and nvws.warp_group with its partitions.
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 32, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32} {
  // CHECK-LABEL: tt.func @arefs
  tt.func @arefs(%d: !ttg.memdesc<2x64x16xf16, #shared, #smem>, %i: i32) {
    // CHECK: %a = nvws.aref.create %d : !nvws.aref<[!ttg.memdesc<2x64x16xf16, #shared, #smem>]>
    %a = nvws.aref.create %d : !nvws.aref<[!ttg.memdesc<2x64x16xf16, #shared, #smem>]>
    // CHECK: nvws.aref.put.enter %a[%i, %i] : !nvws.aref<[!ttg.memdesc<2x64x16xf16, #shared, #smem>]> -> !ttg.memdesc<64x16xf16, #shared, #smem>, !ttg.async.token
    %b:2 = nvws.aref.put.enter %a[%i, %i] : <[!ttg.memdesc<2x64x16xf16, #shared, #smem>]> -> !ttg.memdesc<64x16xf16, #shared, #smem>, !ttg.async.token
    // CHECK: nvws.aref.put.exit %a[%i], %b#1 [#nvws.async_op<none>]
    nvws.aref.put.exit %a[%i], %b#1 [#nvws.async_op<none>] : <[!ttg.memdesc<2x64x16xf16, #shared, #smem>]>, !ttg.async.token
    // CHECK: nvws.warp_group
    // CHECK-NEXT: partition0 num_warps(4) {
    // CHECK-NEXT: nvws.warp_group.return
    nvws.warp_group
    partition0  num_warps(4) {
      nvws.warp_group.return
    }
    tt.return
  }
}

// -----

// Two alias definitions on one line, a memdesc whose alloc shape equals its shape (the same type as without
// it), a rank-0 tensor splatted, and an async_commit_group without tokens followed by a named op.
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32} {
  // CHECK-LABEL: tt.func @small_forms
  tt.func @small_forms(%m: !ttg.memdesc<128xf16, #shared, #smem, mutable>, %x: tensor<f32>) -> tensor<128xf32, #blocked> {
    // CHECK: ttg.local_load %m : !ttg.memdesc<128xf16, #shared, #smem, mutable> -> tensor<128xf16, #blocked>
    %l = ttg.local_load %m : !ttg.memdesc<128xf16, #shared, #smem, mutable, 128> -> tensor<128xf16, #blocked>
    // CHECK: %g = ttg.async_commit_group
    // CHECK-NEXT: %s = tt.splat %x : tensor<f32> -> tensor<128xf32, #blocked>
    %g = ttg.async_commit_group
    %s = tt.splat %x : tensor<f32> -> tensor<128xf32, #blocked>
    tt.return %s : tensor<128xf32, #blocked>
  }
}

// -----

// Triton 3.3's tc_gen5_mma: every operand's type in a function type, a barrier without a predicate.
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, unpacked = true>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32} {
  // CHECK-LABEL: tt.func @gen5_33
  tt.func @gen5_33(%a: !ttg.memdesc<128x128xf16, #shared, #smem>, %c: !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, %t: i1, %bar: !ttg.memdesc<1xi64, #shared, #smem>) {
    // CHECK: ttng.tc_gen5_mma %a, %a, %c, %t, %t, %bar : (!ttg.memdesc<128x128xf16, #shared, #smem>, !ttg.memdesc<128x128xf16, #shared, #smem>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, i1, i1, !ttg.memdesc<1xi64, #shared, #smem>) -> ()
    ttng.tc_gen5_mma %a, %a, %c, %t, %t, %bar : (!ttg.memdesc<128x128xf16, #shared, #smem>, !ttg.memdesc<128x128xf16, #shared, #smem>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, i1, i1, !ttg.memdesc<1xi64, #shared, #smem>) -> ()
    tt.return
  }
}
