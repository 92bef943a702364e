// RUN: irkit-opt %s | irkit-opt | FileCheck %s

// Intel ops in the 2024 spelling (triton_intel_gpu.*): glue, extract (its index an I32Attr written bare),
// prefetch of a block pointer (operands directive), get_stride/get_shape/get_tensor_pointer on a TMA descriptor.

// CHECK-LABEL: tt.func @intel_2024(%a: tensor<8x16xf16>, %b: tensor<8x16xf16>, %ptr: !tt.ptr<tensor<32x16xf16>>, %desc: !tt.ptr<i8>) -> tensor<16x16xf16> {
// CHECK: %g = triton_intel_gpu.glue %a, %b : (tensor<8x16xf16>, tensor<8x16xf16>) -> tensor<16x16xf16>
// CHECK: %e = triton_intel_gpu.extract %g[1] : tensor<16x16xf16> -> tensor<8x16xf16>
// CHECK: triton_intel_gpu.prefetch %ptr {cache = 1 : i32, evict = 1 : i32, isVolatile = false} : !tt.ptr<tensor<32x16xf16>>
// CHECK: %s = triton_intel_gpu.get_stride %desc, 0 : !tt.ptr<i8> -> i64
// CHECK: %h = triton_intel_gpu.get_shape %desc, 1 : !tt.ptr<i8> -> i64
// CHECK: %t = triton_intel_gpu.get_tensor_pointer %desc : !tt.ptr<i8> -> !tt.ptr<tensor<32x16xf16>>
// CHECK: tt.return %g : tensor<16x16xf16>
module attributes {"triton_gpu.num-ctas" = 1 : i32, "triton_gpu.num-warps" = 8 : i32, "triton_gpu.threads-per-warp" = 16 : i32} {
  tt.func @intel_2024(%a: tensor<8x16xf16>, %b: tensor<8x16xf16>, %ptr: !tt.ptr<tensor<32x16xf16>>, %desc: !tt.ptr<i8>) -> tensor<16x16xf16> {
    %g = triton_intel_gpu.glue %a, %b : (tensor<8x16xf16>, tensor<8x16xf16>) -> tensor<16x16xf16>
    %e = triton_intel_gpu.extract %g[1] : tensor<16x16xf16> -> tensor<8x16xf16>
    triton_intel_gpu.prefetch %ptr {cache = 1 : i32, evict = 1 : i32, isVolatile = false} : !tt.ptr<tensor<32x16xf16>>
    %s = triton_intel_gpu.get_stride %desc, 0 : !tt.ptr<i8> -> i64
    %h = triton_intel_gpu.get_shape %desc, 1 : !tt.ptr<i8> -> i64
    %t = triton_intel_gpu.get_tensor_pointer %desc : !tt.ptr<i8> -> !tt.ptr<tensor<32x16xf16>>
    tt.return %g : tensor<16x16xf16>
  }
}
