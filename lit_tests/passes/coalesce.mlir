// RUN: irkit-opt %s --split-input-file --coalesce=version=3.1 --verify-diagnostics | FileCheck %s
// RUN: %if !reference %{ irkit-opt %s --split-input-file --coalesce='skip-unchanged=true version=3.1' --verify-diagnostics | FileCheck %s --check-prefix=SKIP %}
// RUN: irkit-opt %s --split-input-file --coalesce --verify-diagnostics | FileCheck %s --check-prefix=V39

// tritongpu-coalesce (Triton 3.1, and 3.9 at the end: V39, the default for a ttg.* module).  Every
// expected layout below is the one the real Triton 3.1.0 (3.9.0) pass picks for the same input.

// 1-D vector add: 16-byte aligned f32 pointers, contiguous offsets -> 4 elements (128 bits) per thread.
// CHECK: #[[$V4:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tt.func public @vector_add
// CHECK: %[[XP:.*]] = ttg.convert_layout %xp : tensor<1024x!tt.ptr<f32>, #blocked> -> tensor<1024x!tt.ptr<f32>, #[[$V4]]>
// CHECK-NEXT: %[[M:.*]] = ttg.convert_layout %mask : tensor<1024xi1, #blocked> -> tensor<1024xi1, #[[$V4]]>
// CHECK-NEXT: %[[L:.*]] = tt.load %[[XP]], %[[M]] : tensor<1024x!tt.ptr<f32>, #[[$V4]]>
// CHECK-NEXT: %v = ttg.convert_layout %[[L]] : tensor<1024xf32, #[[$V4]]> -> tensor<1024xf32, #blocked>
// CHECK: %[[OP:.*]] = ttg.convert_layout %op : {{.*}} -> tensor<1024x!tt.ptr<f32>, #[[$V4]]>
// CHECK-NEXT: %[[VAL:.*]] = ttg.convert_layout %v : tensor<1024xf32, #blocked> -> tensor<1024xf32, #[[$V4]]>
// CHECK-NEXT: %[[M2:.*]] = ttg.convert_layout %mask : {{.*}} -> tensor<1024xi1, #[[$V4]]>
// CHECK-NEXT: tt.store %[[OP]], %[[VAL]], %[[M2]] : tensor<1024x!tt.ptr<f32>, #[[$V4]]>

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @vector_add(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %out: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
    %c1024 = arith.constant 1024 : i32
    %pid = tt.get_program_id x : i32
    %start = arith.muli %pid, %c1024 : i32
    %range = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #blocked>
    %base = tt.splat %start : i32 -> tensor<1024xi32, #blocked>
    %offs = arith.addi %base, %range : tensor<1024xi32, #blocked>
    %ns = tt.splat %n : i32 -> tensor<1024xi32, #blocked>
    %mask = arith.cmpi slt, %offs, %ns : tensor<1024xi32, #blocked>
    %xs = tt.splat %x : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #blocked>
    %xp = tt.addptr %xs, %offs : tensor<1024x!tt.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
    %v = tt.load %xp, %mask : tensor<1024x!tt.ptr<f32>, #blocked>
    %os = tt.splat %out : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #blocked>
    %op = tt.addptr %os, %offs : tensor<1024x!tt.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
    tt.store %op, %v, %mask : tensor<1024x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

// Column-major tile: the pointers are contiguous along dim 0, so order = [0, 1] and the
// vector runs down the column (8 x f16 = 128 bits).
// CHECK: #[[$COL:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
// CHECK-LABEL: tt.func public @transposed
// CHECK: %[[P:.*]] = ttg.convert_layout %ptrs : {{.*}} -> tensor<64x32x!tt.ptr<f16>, #[[$COL]]>
// CHECK-NEXT: %[[L:.*]] = tt.load %[[P]] : tensor<64x32x!tt.ptr<f16>, #[[$COL]]>
// CHECK-NEXT: %v = ttg.convert_layout %[[L]] : tensor<64x32xf16, #[[$COL]]> -> tensor<64x32xf16, #blocked>

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @transposed(%p: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %ld: i32 {tt.divisibility = 16 : i32}) {
    %rows = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %cols = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %r2 = tt.expand_dims %rows {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<64x1xi32, #blocked>
    %c2 = tt.expand_dims %cols {axis = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x32xi32, #blocked>
    %lds = tt.splat %ld : i32 -> tensor<1x32xi32, #blocked>
    %cs = arith.muli %c2, %lds : tensor<1x32xi32, #blocked>
    %rb = tt.broadcast %r2 : tensor<64x1xi32, #blocked> -> tensor<64x32xi32, #blocked>
    %cb = tt.broadcast %cs : tensor<1x32xi32, #blocked> -> tensor<64x32xi32, #blocked>
    %offs = arith.addi %rb, %cb : tensor<64x32xi32, #blocked>
    %ps = tt.splat %p : !tt.ptr<f16> -> tensor<64x32x!tt.ptr<f16>, #blocked>
    %ptrs = tt.addptr %ps, %offs : tensor<64x32x!tt.ptr<f16>, #blocked>, tensor<64x32xi32, #blocked>
    %v = tt.load %ptrs : tensor<64x32x!tt.ptr<f16>, #blocked>
    tt.return
  }
}

// -----

// Loads and the store share their offsets (multi-root slice): the unaligned i8 load takes the
// aligned one's 16 elements per thread, but the f32 store keeps at most 128 bits (4 elements).
// CHECK: #[[$I8:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [16], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK: #[[$F32:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tt.func public @shared_offsets
// CHECK: tt.load %{{.*}} : tensor<2048x!tt.ptr<i8>, #[[$I8]]>
// CHECK: tt.load %{{.*}} : tensor<2048x!tt.ptr<i8>, #[[$I8]]>
// CHECK: tt.store %{{.*}}, %{{.*}} : tensor<2048x!tt.ptr<f32>, #[[$F32]]>

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @shared_offsets(%a: !tt.ptr<i8> {tt.divisibility = 16 : i32}, %b: !tt.ptr<i8>, %out: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
    %offs = tt.make_range {end = 2048 : i32, start = 0 : i32} : tensor<2048xi32, #blocked>
    %as = tt.splat %a : !tt.ptr<i8> -> tensor<2048x!tt.ptr<i8>, #blocked>
    %ap = tt.addptr %as, %offs : tensor<2048x!tt.ptr<i8>, #blocked>, tensor<2048xi32, #blocked>
    %va = tt.load %ap : tensor<2048x!tt.ptr<i8>, #blocked>
    %bs = tt.splat %b : !tt.ptr<i8> -> tensor<2048x!tt.ptr<i8>, #blocked>
    %bp = tt.addptr %bs, %offs : tensor<2048x!tt.ptr<i8>, #blocked>, tensor<2048xi32, #blocked>
    %vb = tt.load %bp : tensor<2048x!tt.ptr<i8>, #blocked>
    %sum = arith.addi %va, %vb : tensor<2048xi8, #blocked>
    %f = arith.sitofp %sum : tensor<2048xi8, #blocked> to tensor<2048xf32, #blocked>
    %os = tt.splat %out : !tt.ptr<f32> -> tensor<2048x!tt.ptr<f32>, #blocked>
    %op = tt.addptr %os, %offs : tensor<2048x!tt.ptr<f32>, #blocked>, tensor<2048xi32, #blocked>
    tt.store %op, %f : tensor<2048x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

// A pointer carried by scf.for and advanced by a multiple of 16 elements stays aligned: the
// load inside the loop gets 8 x f16.  (Its pointer is a block argument: no slice sharing.)
// CHECK: #[[$V8:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tt.func public @loop
// CHECK: scf.for
// CHECK-NEXT: %[[P:.*]] = ttg.convert_layout %ptr : {{.*}} -> tensor<1024x!tt.ptr<f16>, #[[$V8]]>
// CHECK-NEXT: %[[L:.*]] = tt.load %[[P]] : tensor<1024x!tt.ptr<f16>, #[[$V8]]>
// CHECK-NEXT: %v = ttg.convert_layout %[[L]] : tensor<1024xf16, #[[$V8]]> -> tensor<1024xf16, #blocked>
// CHECK: scf.yield %a, %next

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func public @loop(%p: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %step: i32 {tt.divisibility = 16 : i32}, %n: i32) -> tensor<1024xf16, #blocked> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<1024xf16, #blocked>
    %r = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #blocked>
    %ps = tt.splat %p : !tt.ptr<f16> -> tensor<1024x!tt.ptr<f16>, #blocked>
    %p0 = tt.addptr %ps, %r : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
    %inc = tt.splat %step : i32 -> tensor<1024xi32, #blocked>
    %res:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero, %ptr = %p0) -> (tensor<1024xf16, #blocked>, tensor<1024x!tt.ptr<f16>, #blocked>) : i32 {
      %v = tt.load %ptr : tensor<1024x!tt.ptr<f16>, #blocked>
      %a = arith.addf %acc, %v : tensor<1024xf16, #blocked>
      %next = tt.addptr %ptr, %inc : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
      scf.yield %a, %next : tensor<1024xf16, #blocked>, tensor<1024x!tt.ptr<f16>, #blocked>
    }
    tt.return %res#0 : tensor<1024xf16, #blocked>
  }
}

// -----

// Atomics are coalesced like stores; the result is converted back for its users.
// Triton 3.1 spelling, 64 threads per warp (AMD).
// CHECK: #[[$A4:blocked[0-9]*]] = #triton_gpu.blocked<{sizePerThread = [4], threadsPerWarp = [64], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tt.func public @atomic
// CHECK: %[[P:.*]] = triton_gpu.convert_layout %ptrs : {{.*}} -> tensor<1024x!tt.ptr<f32>, #[[$A4]]>
// CHECK-NEXT: %[[V:.*]] = triton_gpu.convert_layout %v : {{.*}} -> tensor<1024xf32, #[[$A4]]>
// CHECK-NEXT: %[[M:.*]] = triton_gpu.convert_layout %true : {{.*}} -> tensor<1024xi1, #[[$A4]]>
// CHECK-NEXT: %[[R:.*]] = tt.atomic_rmw fadd, acq_rel, gpu, %[[P]], %[[V]], %[[M]] : {{.*}} -> tensor<1024xf32, #[[$A4]]>
// CHECK-NEXT: %old = triton_gpu.convert_layout %[[R]] : tensor<1024xf32, #[[$A4]]> -> tensor<1024xf32, #blocked>
// CHECK-NEXT: tt.return %old

#blocked = #triton_gpu.blocked<{sizePerThread = [1], threadsPerWarp = [64], warpsPerCTA = [4], order = [0]}>
module attributes {"triton_gpu.num-warps" = 4 : i32, "triton_gpu.threads-per-warp" = 64 : i32} {
  tt.func public @atomic(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %v: tensor<1024xf32, #blocked>) -> tensor<1024xf32, #blocked> {
    %r = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #blocked>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #blocked>
    %ptrs = tt.addptr %ps, %r : tensor<1024x!tt.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
    %true = arith.constant dense<true> : tensor<1024xi1, #blocked>
    %old = tt.atomic_rmw fadd, acq_rel, gpu, %ptrs, %v, %true : (tensor<1024x!tt.ptr<f32>, #blocked>, tensor<1024xf32, #blocked>, tensor<1024xi1, #blocked>) -> tensor<1024xf32, #blocked>
    tt.return %old : tensor<1024xf32, #blocked>
  }
}

// -----

// Already coalesced: Triton 3.1 still re-creates the load between identity conversions
// (canonicalize removes them); with skip-unchanged the load is left as it is.
// CHECK-LABEL: tt.func public @already
// CHECK: %[[P:.*]] = ttg.convert_layout %ptrs : tensor<1024x!tt.ptr<f32>, #blocked> -> tensor<1024x!tt.ptr<f32>, #blocked>
// CHECK-NEXT: %v = tt.load %[[P]] : tensor<1024x!tt.ptr<f32>, #blocked>
// CHECK-NEXT: tt.return %v
// SKIP-LABEL: tt.func public @already
// SKIP-NOT: convert_layout
// SKIP: %v = tt.load %ptrs : tensor<1024x!tt.ptr<f32>, #blocked>
// SKIP-NEXT: tt.return %v

#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func public @already(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}) -> tensor<1024xf32, #blocked> {
    %r = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #blocked>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #blocked>
    %ptrs = tt.addptr %ps, %r : tensor<1024x!tt.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
    %v = tt.load %ptrs : tensor<1024x!tt.ptr<f32>, #blocked>
    tt.return %v : tensor<1024xf32, #blocked>
  }
}

// -----

// Block pointers and scalar pointers are not coalesced.
// REFERENCE-SKIP(triton>=3.9): Triton 3.9 has no tt.make_tensor_ptr (block pointers became descriptors)
// CHECK-LABEL: tt.func public @untouched
// CHECK-NOT: convert_layout
// CHECK: %t = tt.load %bp : !tt.ptr<tensor<64x64xf16, #blocked>>
// CHECK-NEXT: %x = tt.load %s : !tt.ptr<f32>
// CHECK-NEXT: tt.store %s, %x : !tt.ptr<f32>
// CHECK-NEXT: tt.return %t

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func public @untouched(%p: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %s: !tt.ptr<f32>, %n: i64) -> tensor<64x64xf16, #blocked> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i64
    %bp = tt.make_tensor_ptr %p, [%n, %n], [%n, %c1], [%c0, %c0] {order = array<i32: 1, 0>} : <tensor<64x64xf16, #blocked>>
    %t = tt.load %bp : !tt.ptr<tensor<64x64xf16, #blocked>>
    %x = tt.load %s : !tt.ptr<f32>
    tt.store %s, %x : !tt.ptr<f32>
    tt.return %t : tensor<64x64xf16, #blocked>
  }
}

// -----

// Fewer elements than threads: one element per thread, whatever the alignment allows.
// CHECK-LABEL: tt.func public @small
// CHECK: %[[P:.*]] = ttg.convert_layout %ptrs : tensor<64x!tt.ptr<f16>, #blocked> -> tensor<64x!tt.ptr<f16>, #blocked>
// CHECK-NEXT: %v = tt.load %[[P]] : tensor<64x!tt.ptr<f16>, #blocked>

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func public @small(%p: !tt.ptr<f16> {tt.divisibility = 16 : i32}) -> tensor<64xf16, #blocked> {
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #blocked>
    %ps = tt.splat %p : !tt.ptr<f16> -> tensor<64x!tt.ptr<f16>, #blocked>
    %ptrs = tt.addptr %ps, %r : tensor<64x!tt.ptr<f16>, #blocked>, tensor<64xi32, #blocked>
    %v = tt.load %ptrs : tensor<64x!tt.ptr<f16>, #blocked>
    tt.return %v : tensor<64xf16, #blocked>
  }
}

// -----

// A gather: nothing is known about the loaded offsets, yet the gathered load gets the index load's
// 4 elements per thread: the index load is in its multi-root slice, with the same shape and order.
// CHECK: #[[$G4:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tt.func public @gather
// CHECK: tt.load %{{.*}} : tensor<512x!tt.ptr<i32>, #[[$G4]]>
// CHECK: tt.load %{{.*}} : tensor<512x!tt.ptr<f32>, #[[$G4]]>

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func public @gather(%idx: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %src: !tt.ptr<f32> {tt.divisibility = 16 : i32}) -> tensor<512xf32, #blocked> {
    %r = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #blocked>
    %is = tt.splat %idx : !tt.ptr<i32> -> tensor<512x!tt.ptr<i32>, #blocked>
    %ip = tt.addptr %is, %r : tensor<512x!tt.ptr<i32>, #blocked>, tensor<512xi32, #blocked>
    %i = tt.load %ip : tensor<512x!tt.ptr<i32>, #blocked>
    %ss = tt.splat %src : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #blocked>
    %sp = tt.addptr %ss, %i : tensor<512x!tt.ptr<f32>, #blocked>, tensor<512xi32, #blocked>
    %v = tt.load %sp : tensor<512x!tt.ptr<f32>, #blocked>
    tt.return %v : tensor<512xf32, #blocked>
  }
}

// -----

// A tensor-of-pointers argument without hints: contiguity ties at 1, and the stable sort keeps
// order = [0, 1] (the layout turns "column-major").
// CHECK: #[[$T:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
// CHECK-LABEL: tt.func public @no_contiguity
// CHECK: tt.load %{{.*}} : tensor<32x32x!tt.ptr<f32>, #[[$T]]>

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func public @no_contiguity(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %q: tensor<32x32x!tt.ptr<f32>, #blocked>) -> tensor<32x32xf32, #blocked> {
    %v = tt.load %q : tensor<32x32x!tt.ptr<f32>, #blocked>
    tt.return %v : tensor<32x32xf32, #blocked>
  }
}

// -----

// tt.multiple_of / tt.max_contiguous leave tt.divisibility / tt.contiguity on the op; they replace
// what remsi by an unknown value would give (contiguity 1), so the load gets 8 x f16.
// CHECK: #[[$H8:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tt.func public @hints
// CHECK: tt.load %{{.*}} : tensor<1024x!tt.ptr<f16>, #[[$H8]]>

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func public @hints(%p: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %n: i32) -> tensor<1024xf16, #blocked> {
    %r = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #blocked>
    %ns = tt.splat %n : i32 -> tensor<1024xi32, #blocked>
    %m = arith.remsi %r, %ns {tt.contiguity = dense<1024> : tensor<1xi32>, tt.divisibility = dense<1024> : tensor<1xi32>} : tensor<1024xi32, #blocked>
    %ps = tt.splat %p : !tt.ptr<f16> -> tensor<1024x!tt.ptr<f16>, #blocked>
    %ptrs = tt.addptr %ps, %m : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
    %v = tt.load %ptrs : tensor<1024x!tt.ptr<f16>, #blocked>
    tt.return %v : tensor<1024xf16, #blocked>
  }
}

// -----

// ttg.async_copy_global_to_local: pointer, mask and other are converted; the shared-memory
// destination and the token are not (Triton 3.1 spelling, memdesc without a memory space).
// CHECK: #[[$AC:blocked[0-9]*]] = #triton_gpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: tt.func public @async
// CHECK: %[[P:.*]] = triton_gpu.convert_layout %ptrs : {{.*}} -> tensor<32x64x!tt.ptr<f16>, #[[$AC]]>
// CHECK-NEXT: %[[M:.*]] = triton_gpu.convert_layout %m : {{.*}} -> tensor<32x64xi1, #[[$AC]]>
// CHECK-NEXT: %[[O:.*]] = triton_gpu.convert_layout %o : {{.*}} -> tensor<32x64xf16, #[[$AC]]>
// CHECK-NEXT: %t = triton_gpu.async_copy_global_to_local %[[P]], %buf mask %[[M]] other %[[O]] : tensor<32x64x!tt.ptr<f16>, #[[$AC]]> -> <32x64xf16, #shared, mutable>
// CHECK-NEXT: tt.return

#blocked = #triton_gpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #triton_gpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], hasLeadingOffset = false}>
module attributes {"triton_gpu.num-warps" = 4 : i32, "triton_gpu.threads-per-warp" = 32 : i32} {
  tt.func public @async(%p: !tt.ptr<f16> {tt.divisibility = 16 : i32}) {
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #triton_gpu.slice<{dim = 0, parent = #blocked}>>
    %e = tt.expand_dims %r {axis = 0 : i32} : tensor<64xi32, #triton_gpu.slice<{dim = 0, parent = #blocked}>> -> tensor<1x64xi32, #blocked>
    %b = tt.broadcast %e : tensor<1x64xi32, #blocked> -> tensor<32x64xi32, #blocked>
    %ps = tt.splat %p : !tt.ptr<f16> -> tensor<32x64x!tt.ptr<f16>, #blocked>
    %ptrs = tt.addptr %ps, %b : tensor<32x64x!tt.ptr<f16>, #blocked>, tensor<32x64xi32, #blocked>
    %m = arith.constant dense<true> : tensor<32x64xi1, #blocked>
    %o = arith.constant dense<0.000000e+00> : tensor<32x64xf16, #blocked>
    %buf = triton_gpu.local_alloc  : () -> !tt.memdesc<32x64xf16, #shared, mutable>
    %t = triton_gpu.async_copy_global_to_local %ptrs, %buf mask %m other %o : tensor<32x64x!tt.ptr<f16>, #blocked> -> <32x64xf16, #shared, mutable>
    tt.return
  }
}

// -----

// Four CTAs split the columns: the CTA layout is kept, and the cap uses the 16x32 elements of one
// CTA (512 / 128 threads = 4) instead of the 8 x f16 the alignment allows.
// CHECK: #[[$MC:blocked[0-9]*]] = #triton_gpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0], CTAsPerCGA = [1, 4], CTASplitNum = [1, 4], CTAOrder = [1, 0]}>
// CHECK-LABEL: tt.func public @multi_cta
// CHECK: tt.load %{{.*}} : tensor<16x128x!tt.ptr<f16>, #[[$MC]]>

#b = #triton_gpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0], CTAsPerCGA = [1, 4], CTASplitNum = [1, 4], CTAOrder = [1, 0]}>
module attributes {"triton_gpu.num-ctas" = 4 : i32, "triton_gpu.num-warps" = 4 : i32, triton_gpu.target = "cuda:90", "triton_gpu.threads-per-warp" = 32 : i32} {
  tt.func public @multi_cta(%p: !tt.ptr<f16> {tt.divisibility = 16 : i32}) {
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #triton_gpu.slice<{dim = 0, parent = #b}>>
    %e = tt.expand_dims %r {axis = 0 : i32} : tensor<128xi32, #triton_gpu.slice<{dim = 0, parent = #b}>> -> tensor<1x128xi32, #b>
    %bb = tt.broadcast %e : tensor<1x128xi32, #b> -> tensor<16x128xi32, #b>
    %ps = tt.splat %p : !tt.ptr<f16> -> tensor<16x128x!tt.ptr<f16>, #b>
    %a = tt.addptr %ps, %bb : tensor<16x128x!tt.ptr<f16>, #b>, tensor<16x128xi32, #b>
    %v = tt.load %a : tensor<16x128x!tt.ptr<f16>, #b>
    tt.return
  }
}

// -----

// Triton 3.9: a 2-D pointer with no known contiguity (a splat) breaks the tie row-major: order [1, 0]
// (3.1: [0, 1]).  (Each V39 alias check sits between the labels of two functions, so that it matches the
// aliases printed before its own module.)
// V39-LABEL: tt.func public @multi_cta
// V39: #[[$ROW:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
// V39-LABEL: tt.func public @broadcast_pointer
// V39: tt.load %{{.*}} : tensor<32x32x!tt.ptr<f32>, #[[$ROW]]>
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @broadcast_pointer(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}) -> tensor<32x32xf32, #blocked> {
    %ptrs = tt.splat %p : !tt.ptr<f32> -> tensor<32x32x!tt.ptr<f32>, #blocked>
    %v = tt.load %ptrs : tensor<32x32x!tt.ptr<f32>, #blocked>
    tt.return %v : tensor<32x32xf32, #blocked>
  }
}

// -----

// Triton 3.9 on sm80: atomics write no wider than their lowering (#10059): f32 fadd one element per
// thread, f16 fadd two, integer atomics one (3.1 and sm90 f32: four, 128 bits).
// V39: #[[$ONE:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// V39: #[[$TWO:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// V39-LABEL: tt.func public @atomics_sm80
// V39: tt.atomic_rmw fadd, relaxed, gpu, %{{.*}}, %{{.*}} : (tensor<1024x!tt.ptr<f32>, #[[$ONE]]>
// V39: tt.atomic_rmw fadd, relaxed, gpu, %{{.*}}, %{{.*}} : (tensor<1024x!tt.ptr<f16>, #[[$TWO]]>
// V39: tt.atomic_rmw add, relaxed, gpu, %{{.*}}, %{{.*}} : (tensor<1024x!tt.ptr<i32>, #[[$ONE]]>
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @atomics_sm80(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %h: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %i: !tt.ptr<i32> {tt.divisibility = 16 : i32}) {
    %offs = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #blocked>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #blocked>
    %pa = tt.addptr %ps, %offs : tensor<1024x!tt.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
    %one = arith.constant dense<1.000000e+00> : tensor<1024xf32, #blocked>
    %r = tt.atomic_rmw fadd, relaxed, gpu, %pa, %one : (tensor<1024x!tt.ptr<f32>, #blocked>, tensor<1024xf32, #blocked>) -> tensor<1024xf32, #blocked>
    %hs = tt.splat %h : !tt.ptr<f16> -> tensor<1024x!tt.ptr<f16>, #blocked>
    %ha = tt.addptr %hs, %offs : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
    %hone = arith.constant dense<1.000000e+00> : tensor<1024xf16, #blocked>
    %hr = tt.atomic_rmw fadd, relaxed, gpu, %ha, %hone : (tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xf16, #blocked>) -> tensor<1024xf16, #blocked>
    %is = tt.splat %i : !tt.ptr<i32> -> tensor<1024x!tt.ptr<i32>, #blocked>
    %ia = tt.addptr %is, %offs : tensor<1024x!tt.ptr<i32>, #blocked>, tensor<1024xi32, #blocked>
    %ione = arith.constant dense<1> : tensor<1024xi32, #blocked>
    %ir = tt.atomic_rmw add, relaxed, gpu, %ia, %ione : (tensor<1024x!tt.ptr<i32>, #blocked>, tensor<1024xi32, #blocked>) -> tensor<1024xi32, #blocked>
    tt.return
  }
}

// -----

// REFERENCE-SKIP(triton<3.4): tt.make_tensor_descriptor is new in Triton 3.4
// Triton 3.9: tensor-descriptor loads and stores get a row-major layout with one 128-bit vector per
// thread along the last dim (#8208): 128x64 f16 on 4 warps: 8 elements.
// V39: #[[$DESC:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// V39-LABEL: tt.func public @descriptor_copy
// V39: %[[L:.*]] = tt.descriptor_load %desc[%i, %i] : !tt.tensordesc<128x64xf16> -> tensor<128x64xf16, #[[$DESC]]>
// V39-NEXT: %tile = ttg.convert_layout %[[L]]
// V39-NEXT: %[[S:.*]] = ttg.convert_layout %tile : {{.*}} -> tensor<128x64xf16, #[[$DESC]]>
// V39-NEXT: tt.descriptor_store %desc[%i, %i], %[[S]] : !tt.tensordesc<128x64xf16>, tensor<128x64xf16, #[[$DESC]]>
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @descriptor_copy(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %m: i32, %k: i32, %i: i32) {
    %c1 = arith.constant 1 : i64
    %s = arith.extsi %k : i32 to i64
    %desc = tt.make_tensor_descriptor %a, [%m, %k], [%s, %c1] : <f16>, <128x64xf16>
    %tile = tt.descriptor_load %desc[%i, %i] : !tt.tensordesc<128x64xf16> -> tensor<128x64xf16, #blocked>
    tt.descriptor_store %desc[%i, %i], %tile : !tt.tensordesc<128x64xf16>, tensor<128x64xf16, #blocked>
    tt.return
  }
}

// -----

// Without the number of warps there is no layout to build for an access.
// REFERENCE-SKIP(triton<3.4): Triton 3.1's pass takes a module without ttg.num-warps (as 4 warps); 3.9's stops
// expected-error @+1 {{coalesce needs the module attribute ttg.num-warps}}
module {
  tt.func public @no_warps(%p: tensor<64x!tt.ptr<f32>, #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>>) {
    %v = tt.load %p : tensor<64x!tt.ptr<f32>, #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>>
    tt.return
  }
}

// -----

// Nothing to coalesce: the module needs no number of warps (as Triton 3.3's pass, which reads it only for
// an access); it comes back unchanged.
// REFERENCE-SKIP(triton>=3.4): a difference: Triton 3.9's pass stops ('tt.load' op is not contained within a context that specifies the number of warps)
// CHECK-LABEL: tt.func public @no_warps_no_access
// CHECK-NEXT: %[[V:.*]] = tt.load %p : !tt.ptr<f32>
// CHECK-NEXT: tt.store %p, %[[V]] : !tt.ptr<f32>
// V39-LABEL: tt.func public @no_warps_no_access
module {
  tt.func public @no_warps_no_access(%p: !tt.ptr<f32>) {
    %v = tt.load %p : !tt.ptr<f32>
    tt.store %p, %v : !tt.ptr<f32>
    tt.return
  }
}
