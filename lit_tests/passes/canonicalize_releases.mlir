// RUN: irkit-opt %s --split-input-file --canonicalize | FileCheck %s
// RUN: irkit-opt %s --split-input-file --canonicalize --triton-version=3.3.1 | FileCheck %s --check-prefix=OLD

// canonicalize: the patterns Triton added after 3.3, applied when the input's Triton has them (the `ttg.*`
// spelling without --triton-version: the newest); Triton 3.3.1 leaves all of them alone.

// warp_specialize: a result nobody reads leaves the op and its warp_yield; a capture no partition reads,
// and the second capture of one value, leave the op and the partitions' arguments.
// CHECK-LABEL: tt.func @warp_specialize
// CHECK-NEXT: %[[WS:.*]]:2 = ttg.warp_specialize(%a, %p)
// CHECK-NEXT: default {
// CHECK-NEXT: ttg.warp_yield %a, %c : i32, i32
// CHECK-NEXT: }
// CHECK-NEXT: partition0(%[[X:.*]]: i32, %[[Q:.*]]: !tt.ptr<i32>) num_warps(4) {
// CHECK-NEXT: %[[S:.*]] = arith.addi %[[X]], %[[X]] : i32
// CHECK-NEXT: tt.store %[[Q]], %[[S]]
// CHECK: } : (i32, !tt.ptr<i32>) -> (i32, i32)
// CHECK-NEXT: tt.return %[[WS]]#0, %[[WS]]#1
// OLD-LABEL: tt.func @warp_specialize
// OLD-NEXT: ttg.warp_specialize(%a, %b, %p, %a)
// OLD: } : (i32, i32, !tt.ptr<i32>, i32) -> (i32, i32, i32)
module attributes {"ttg.num-warps" = 4 : i32, "ttg.num-ctas" = 1 : i32} {
  tt.func @warp_specialize(%a: i32, %b: i32, %c: i32, %p: !tt.ptr<i32>) -> (i32, i32) {
    %r:3 = ttg.warp_specialize(%a, %b, %p, %a)
    default {
      ttg.warp_yield %a, %b, %c : i32, i32, i32
    }
    partition0(%x: i32, %unused: i32, %q: !tt.ptr<i32>, %x2: i32) num_warps(4) {
      %s = arith.addi %x, %x2 : i32
      tt.store %q, %s : !tt.ptr<i32>
      ttg.warp_return
    } : (i32, i32, !tt.ptr<i32>, i32) -> (i32, i32, i32)
    tt.return %r#0, %r#2 : i32, i32
  }
}

// -----

// A subslice of a subslice is one subslice at the summed offsets.
// CHECK-LABEL: tt.func @subslices
// CHECK-NEXT: %[[BUF:.*]] = ttg.local_alloc
// CHECK-NEXT: %inner = ttg.memdesc_subslice %[[BUF]][8, 16]
// CHECK-NEXT: %outer = ttg.memdesc_subslice %[[BUF]][12, 20]
// CHECK-NEXT: ttg.local_store %v, %outer
// OLD-LABEL: tt.func @subslices
// OLD: %outer = ttg.memdesc_subslice %inner[4, 4]
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.num-ctas" = 1 : i32} {
  tt.func @subslices(%v: tensor<4x8xf16>) -> !ttg.memdesc<8x16xf16, #shared, #smem, mutable, 16x32> {
    %buf = ttg.local_alloc : () -> !ttg.memdesc<16x32xf16, #shared, #smem, mutable>
    %inner = ttg.memdesc_subslice %buf[8, 16] : !ttg.memdesc<16x32xf16, #shared, #smem, mutable> -> !ttg.memdesc<8x16xf16, #shared, #smem, mutable, 16x32>
    %outer = ttg.memdesc_subslice %inner[4, 4] : !ttg.memdesc<8x16xf16, #shared, #smem, mutable, 16x32> -> !ttg.memdesc<4x8xf16, #shared, #smem, mutable, 16x32>
    ttg.local_store %v, %outer : tensor<4x8xf16> -> !ttg.memdesc<4x8xf16, #shared, #smem, mutable, 16x32>
    tt.return %inner : !ttg.memdesc<8x16xf16, #shared, #smem, mutable, 16x32>
  }
}

// -----

// tmem_store of a convert stores the source when its layout fits the 32x32b message (lanes on rows, warps
// 0/1 on rows 32/64, registers on columns, bf16 pairs in the first registers); #cols keeps its convert.
// CHECK-LABEL: tt.func @tmem_stores
// CHECK-NEXT: %true = arith.constant true
// CHECK-NEXT: ttng.tmem_store %rows, %m, %true : tensor<128x64xbf16, #linear>
// CHECK-NEXT: %c = ttg.convert_layout %cols
// CHECK-NEXT: ttng.tmem_store %c, %m, %true
// OLD-LABEL: tt.func @tmem_stores
// OLD: %r = ttg.convert_layout %rows
#blocked = #ttg.blocked<{sizePerThread = [1, 32], threadsPerWarp = [32, 1], warpsPerCTA = [4, 2], order = [0, 1]}>
#cols = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [1, 32], warpsPerCTA = [8, 1], order = [1, 0]}>
#rows = #ttg.linear<{register = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16]], lane = [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]], warp = [[32, 0], [64, 0], [0, 32]], block = []}>
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @tmem_stores(%rows: tensor<128x64xbf16, #rows>, %cols: tensor<128x64xbf16, #cols>, %m: !ttg.memdesc<128x64xbf16, #tmem, #ttng.tensor_memory, mutable>) {
    %true = arith.constant true
    %r = ttg.convert_layout %rows : tensor<128x64xbf16, #rows> -> tensor<128x64xbf16, #blocked>
    ttng.tmem_store %r, %m, %true : tensor<128x64xbf16, #blocked> -> !ttg.memdesc<128x64xbf16, #tmem, #ttng.tensor_memory, mutable>
    %c = ttg.convert_layout %cols : tensor<128x64xbf16, #cols> -> tensor<128x64xbf16, #blocked>
    ttng.tmem_store %c, %m, %true : tensor<128x64xbf16, #blocked> -> !ttg.memdesc<128x64xbf16, #tmem, #ttng.tensor_memory, mutable>
    tt.return
  }
}

// -----

// AMD: a slice that is one concat operand (row-major: [32, 0] of a 2x2 grid of 32x32 pieces is the third)
// is that operand; a slice across operands stays; a concat of one tensor is the tensor.
// CHECK-LABEL: tt.func @slices
// CHECK-NEXT: %cat = amdg.concat %p0, %p1, %p2, %p3
// CHECK-NEXT: %across = amdg.extract_slice %cat [16, 0]
// CHECK-NEXT: tt.return %p2, %across, %cat
// OLD-LABEL: tt.func @slices
// OLD: %one = amdg.concat %cat
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [16, 4], warpsPerCTA = [1, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, "ttg.threads-per-warp" = 64 : i32} {
  tt.func @slices(%p0: tensor<32x32xf32, #blocked>, %p1: tensor<32x32xf32, #blocked>, %p2: tensor<32x32xf32, #blocked>, %p3: tensor<32x32xf32, #blocked>) -> (tensor<32x32xf32, #blocked>, tensor<32x32xf32, #blocked>, tensor<64x64xf32, #blocked>) {
    %cat = amdg.concat %p0, %p1, %p2, %p3 : tensor<32x32xf32, #blocked>, tensor<32x32xf32, #blocked>, tensor<32x32xf32, #blocked>, tensor<32x32xf32, #blocked> -> tensor<64x64xf32, #blocked>
    %third = amdg.extract_slice %cat [32, 0] : tensor<64x64xf32, #blocked> to tensor<32x32xf32, #blocked>
    %across = amdg.extract_slice %cat [16, 0] : tensor<64x64xf32, #blocked> to tensor<32x32xf32, #blocked>
    %one = amdg.concat %cat : tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #blocked>
    tt.return %third, %across, %one : tensor<32x32xf32, #blocked>, tensor<32x32xf32, #blocked>, tensor<64x64xf32, #blocked>
  }
}

// -----

// A barrier op whose fromCTA names the last CTA (num-ctas - 1) drops it: that is the default.
// CHECK-LABEL: tt.func @from_cta
// CHECK-NEXT: ttng.barrier_expect %bar, 16, %pred :
// CHECK-NEXT: ttng.arrive_barrier %bar, 1, %pred {fromCTA = 0 : i32} :
// OLD-LABEL: tt.func @from_cta
// OLD-NEXT: ttng.barrier_expect %bar, 16 {fromCTA = 1 : i32}, %pred :
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0], CGALayout = [[1]]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 2 : i32, "ttg.num-warps" = 4 : i32} {
  tt.func @from_cta(%bar: !ttg.memdesc<2xi64, #shared, #smem, mutable>, %pred: i1) {
    ttng.barrier_expect %bar, 16 {fromCTA = 1 : i32}, %pred : !ttg.memdesc<2xi64, #shared, #smem, mutable>
    ttng.arrive_barrier %bar, 1, %pred {fromCTA = 0 : i32} : !ttg.memdesc<2xi64, #shared, #smem, mutable>
    tt.return
  }
}

// -----

// The fp-sanitizer's embed/unembed move past views (convert_layout, trans, reshape, broadcast, expand_dims)
// onto the payload, and an embed of an unembed of the same type is its payload.
// CHECK-LABEL: tt.func @fpsan
// CHECK-NEXT: %[[C:.*]] = ttg.convert_layout %bits : tensor<32xi32, #{{.*}}> -> tensor<32xi32, #[[B1:.*]]>
// CHECK-NEXT: %moved = tti.experimental_fpsan_unembed %[[C]] : (tensor<32xi32, #[[B1]]>) -> tensor<32xf32, #[[B1]]>
// CHECK-NEXT: tt.return %moved, %bits
// OLD-LABEL: tt.func @fpsan
// OLD-NEXT: %f = tti.experimental_fpsan_unembed %bits
#b0 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
#b1 = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @fpsan(%bits: tensor<32xi32, #b0>) -> (tensor<32xf32, #b1>, tensor<32xi32, #b0>) {
    %f = tti.experimental_fpsan_unembed %bits : (tensor<32xi32, #b0>) -> tensor<32xf32, #b0>
    %moved = ttg.convert_layout %f : tensor<32xf32, #b0> -> tensor<32xf32, #b1>
    %back = tti.experimental_fpsan_embed %f : (tensor<32xf32, #b0>) -> tensor<32xi32, #b0>
    tt.return %moved, %back : tensor<32xf32, #b1>, tensor<32xi32, #b0>
  }
}
