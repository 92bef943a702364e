// The #2378 seed kernel as the real Intel XPU compiler (triton-xpu 3.3.0b1, PVC) prints it: block-pointer
// GEMM + add-matrix at 256x256x32, 32 warps.  That compiler reports 263,168 B of shared memory (over PVC's
// 131,072 B) from one conversion of the loaded D into #dpas; it builds irkit's output unedited
// (tests/test_propagate_mma_intel.py): 32,768 B without dot-operands, 0 B with them.

// RUN: irkit-opt %S/../../tests/data/intel/addmm_bp_bf16_256x256x32_w32_s2.ttgir --propagate-mma=dot-operands=false --mlir-print-remarks -o /dev/null 2>&1 | filecheck %s --check-prefix=ACC
// ACC: remark: propagate-mma: moved to #dpas: 1 conversion(s) removed, 0 added, 0 retargeted
// ACC-SAME: shared memory 263,168 -> 32,768 B predicted; remove:
// ACC-SAME: brings shared memory under the limit

// RUN: irkit-opt %S/../../tests/data/intel/addmm_bp_bf16_256x256x32_w32_s2.ttgir --propagate-mma=dot-operands=false | filecheck %s --check-prefix=NODOT
// NODOT: #mma = #triton_intel_gpu.dpas<
// NODOT: ttg.local_alloc
// NODOT: ttg.local_load
// NODOT-NOT: ttg.convert_layout
// NODOT: tt.make_tensor_ptr {{.*}} : <tensor<256x256xf32, #mma>>
// NODOT: tt.load {{.*}} : !tt.ptr<tensor<256x256xf32, #mma>>
// NODOT: arith.addf {{.*}} : tensor<256x256xf32, #mma>

// Default on a #dpas module: the A/B block loads feed tt.dot in #dot_op directly; nothing is left in shared memory.
// RUN: irkit-opt %S/../../tests/data/intel/addmm_bp_bf16_256x256x32_w32_s2.ttgir --propagate-mma | filecheck %s --check-prefix=DOT
// DOT-NOT: ttg.local_alloc
// DOT-NOT: ttg.local_load
// DOT-NOT: ttg.convert_layout
// DOT: tt.make_tensor_ptr {{.*}} : <tensor<256x32xbf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>>
// DOT: tt.make_tensor_ptr {{.*}} : <tensor<32x256xbf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>>
// DOT: scf.for
// DOT: tt.load {{.*}} : !tt.ptr<tensor<256x32xbf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>>
// DOT: tt.load {{.*}} : !tt.ptr<tensor<32x256xbf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>>
// DOT: tt.dot
// DOT: tt.load {{.*}} : !tt.ptr<tensor<256x256xf32, #mma>>
