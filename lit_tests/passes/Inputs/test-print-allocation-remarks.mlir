// Input of test-print-allocation.mlir's remark-mode RUN lines (irkit-opt --verify-diagnostics checks them).
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.num-ctas" = 1 : i32} {

// The function name and its size stand at the function, each buffer at its op; several @below lines
// in a row all point at the next line that is not an expectation.  Warp specialization: the captures
// (an i32, 4 B, and a pointer, 8 B, packed: 12 B, 8-aligned) are the op's scratch; the function keeps one
// byte per partition warp (2 + 4), 4-aligned, for its whole life.
// expected-remark @below {{two_partitions}}
// expected-remark @below {{size = 34}}
// expected-remark @below {{scratch offset = 28, size = 6}}
tt.func @two_partitions(%n: i32, %p: !tt.ptr<f32>) {
  // expected-remark @below {{offset = 0, size = 16}}
  %0 = ttg.local_alloc : () -> !ttg.memdesc<2xi64, #shared, #smem, mutable>
  // expected-remark @below {{scratch offset = 16, size = 12}}
  ttg.warp_specialize(%n, %p)
  default {
    ttg.warp_yield
  }
  partition0(%a: i32, %b: !tt.ptr<f32>) num_warps(2) {
    ttg.warp_return
  }
  partition1(%a: i32, %b: !tt.ptr<f32>) num_warps(4) {
    ttg.warp_return
  } : (i32, !tt.ptr<f32>) -> ()
  "use"(%0) : (!ttg.memdesc<2xi64, #shared, #smem, mutable>) -> ()
  tt.return
}

// The results of a warp_specialize alias what its default region yields: %0 stays live until the use
// of %1, so %2 cannot take its place.
// expected-remark @below {{yielded_buffer}}
// expected-remark @below {{size = 33}}
// expected-remark @below {{scratch offset = 32, size = 1}}
tt.func @yielded_buffer() {
  // expected-remark @below {{offset = 0, size = 16}}
  %0 = ttg.local_alloc : () -> !ttg.memdesc<2xi64, #shared, #smem, mutable>
  %1 = ttg.warp_specialize()
  default {
    ttg.warp_yield %0 : !ttg.memdesc<2xi64, #shared, #smem, mutable>
  }
  partition0() num_warps(1) {
    ttg.warp_return
  } : () -> !ttg.memdesc<2xi64, #shared, #smem, mutable>
  // expected-remark @below {{offset = 16, size = 16}}
  %2 = ttg.local_alloc : () -> !ttg.memdesc<2xi64, #shared, #smem, mutable>
  "use"(%1) : (!ttg.memdesc<2xi64, #shared, #smem, mutable>) -> ()
  tt.return
}

// Buffers in different regions of one warp_specialize run at the same time: they never share offsets,
// though each is dead before the next is allocated; within one region they may.
// expected-remark @below {{concurrent_regions}}
// expected-remark @below {{size = 33}}
// expected-remark @below {{scratch offset = 32, size = 1}}
tt.func @concurrent_regions() {
  ttg.warp_specialize()
  default {
    // expected-remark @below {{offset = 0, size = 16}}
    %a = ttg.local_alloc : () -> !ttg.memdesc<2xi64, #shared, #smem, mutable>
    ttg.warp_yield
  }
  partition0() num_warps(1) {
    // expected-remark @below {{offset = 16, size = 16}}
    %b = ttg.local_alloc : () -> !ttg.memdesc<2xi64, #shared, #smem, mutable>
    // expected-remark @below {{offset = 16, size = 16}}
    %c = ttg.local_alloc : () -> !ttg.memdesc<2xi64, #shared, #smem, mutable>
    ttg.warp_return
  } : () -> ()
  tt.return
}
}
