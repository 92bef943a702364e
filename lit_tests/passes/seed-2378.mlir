// intel-xpu-backend-for-triton issue #2378 on Inputs/seed-2378.ttgir (Intel DPAS, 32 warps x 16 lanes,
// 256x256 f32 add-matrix epilogue with block pointers, triton_intel_gpu.support_sg_2d_block).

// (a) Before #2400: RewriteTensorPointer turns the #dpas block-pointer load of D into a tensor-of-pointers
//     load, Coalesce gives it #blocked: pointer and mask are converted #dpas -> #blocked and the loaded value
//     back, as quoted in the issue.  irkit's model puts that over PVC's 131,072 B of shared memory.
// RUN: irkit-opt %S/Inputs/seed-2378.ttgir --rewrite-tensor-pointer='mode=intel-pre-2400' --coalesce | FileCheck %s --check-prefix=PRE
// PRE: #blocked = #triton_gpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 16], warpsPerCTA = [8, 4], order = [1, 0]}>
// PRE-LABEL: tt.func public @matmul_kernel_with_block_pointers
// PRE: scf.for
// PRE: %[[P:.*]] = triton_gpu.convert_layout %{{.*}} : tensor<256x256x!tt.ptr<f32>, #mma> -> tensor<256x256x!tt.ptr<f32>, #blocked>
// PRE: %[[M:.*]] = triton_gpu.convert_layout %{{.*}} : tensor<256x256xi1, #mma> -> tensor<256x256xi1, #blocked>
// PRE: %[[D:.*]] = tt.load %[[P]], %[[M]] : tensor<256x256x!tt.ptr<f32>, #blocked>
// PRE: %[[DD:.*]] = triton_gpu.convert_layout %[[D]] : tensor<256x256xf32, #blocked> -> tensor<256x256xf32, #mma>
// PRE: arith.addf %{{.*}}, %[[DD]] : tensor<256x256xf32, #mma>
// PRE: tt.store %{{.*}}, %{{.*}} {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<256x256xf32, #mma>>

// (b) With #2400 the #dpas block pointer of D is kept: Coalesce ignores block pointers, no conversion.
// RUN: irkit-opt %S/Inputs/seed-2378.ttgir --rewrite-tensor-pointer='mode=intel-2400' --coalesce | FileCheck %s --check-prefix=FIX
// FIX-LABEL: tt.func public @matmul_kernel_with_block_pointers
// FIX-NOT: triton_gpu.convert_layout
// FIX: %[[DP:.*]] = tt.make_tensor_ptr %arg3, {{.*}} : <tensor<256x256xf32, #mma>>
// FIX: %[[D:.*]] = tt.load %[[DP]] {boundaryCheck = array<i32: 0, 1>, triton_intel_gpu.block_io = "row_major"} : !tt.ptr<tensor<256x256xf32, #mma>>
// FIX: arith.addf %{{.*}}, %[[D]] : tensor<256x256xf32, #mma>
// FIX-NOT: triton_gpu.convert_layout

// (c) Before #2400 again, then propagate-mma: the load of D, its pointer and mask go back to #dpas and the
//     three conversions disappear.
// RUN: irkit-opt %S/Inputs/seed-2378.ttgir --rewrite-tensor-pointer='mode=intel-pre-2400' --coalesce --propagate-mma --mlir-print-remarks 2>&1 | FileCheck %s --check-prefix=PROP
// PROP: remark: propagate-mma: moved to #dpas: 3 conversion(s) removed, 0 added, 0 retargeted
// PROP-LABEL: tt.func public @matmul_kernel_with_block_pointers
// PROP-NOT: triton_gpu.convert_layout
// PROP: %[[D:.*]] = tt.load %{{.*}}, %{{.*}} : tensor<256x256x!tt.ptr<f32>, #mma>
// PROP: arith.addf %{{.*}}, %[[D]] : tensor<256x256xf32, #mma>
// PROP-NOT: triton_gpu.convert_layout
// PROP-NOT: #blocked

// (d) irkit-report on (a): the #blocked -> #dpas conversion of the loaded D alone needs the issue's
//     266,240 B; with the pointer and mask conversions Triton would refuse the kernel on PVC.
// RUN: irkit-report %S/Inputs/seed-2378.ttgir -p 'rewrite-tensor-pointer{mode=intel-pre-2400},coalesce' | FileCheck %s --check-prefix=REPORT
// REPORT: convert_layout 0 3 +3
// REPORT: verdict on PVC (131,072) fits OUT no longer fits
// REPORT: #blocked #mma 256x256xf32 266,240
// REPORT: verdict after: out of resource: shared memory, Required: 532480, Hardware limit: 131072
