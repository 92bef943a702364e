// The cost model's decisions on real Triton 3.6 TTGIR for an H100 (cuda:90, #nvidia_mma v3), compiled on
// the CPU by tools/h100_static_metrics.py.  Measured on an H100 (docs/propagate-mma-results.md): removing
// the store's conversion is 1.13-1.17x at 256x128 w8 (rounds of 64 registers per thread, barrier-bound),
// 0.985-0.997x at 128x256 w8 (one round of 128 registers).
// The CUDA lines name profit=model: the default, profit=auto, would let an installed Triton overrule the
// model (propagate-mma-compiled.mlir), and this file checks the model alone, wherever it runs.

// One round of 128 registers per thread: kept, the v2 stores cost what it saves.
// RUN: irkit-opt %S/Inputs/h100-gemm-128x256x64-w8s3.ttgir --propagate-mma=profit=model --mlir-print-remarks 2>&1 | FileCheck %s --check-prefix=KEEP
// KEEP: remark: propagate-mma: conversion kept: narrows 64 store(s)/thread to v2 (was 32 x v4; 8 vs 4 lines/instr); drops 1 conversion(s) (1 shared-memory round(s) of 128 regs/thread, 8 warps, alone on its SM)
// KEEP-SAME: saves 131,072 B scratch (model: -{{[0-9,]+}} cycles/CTA)
// KEEP: ttg.convert_layout %{{.*}} : tensor<128x256xf32, #mma> -> tensor<128x256xf32, #blocked2>
// KEEP: tt.store %{{.*}} : tensor<128x256x!tt.ptr<f32>, #blocked2>

// profit=always removes it anyway.
// RUN: irkit-opt %S/Inputs/h100-gemm-128x256x64-w8s3.ttgir --propagate-mma=profit=always | FileCheck %s --check-prefix=ALWAYS
// ALWAYS-NOT: ttg.convert_layout
// ALWAYS: tt.store %{{.*}} : tensor<128x256x!tt.ptr<f32>, #mma>

// Two rounds of 64 registers per thread with 8 warps (barrier-bound): removed, with the model's numbers.
// RUN: irkit-opt %S/Inputs/h100-gemm-256x128x64-w8s3.ttgir --propagate-mma=profit=model --mlir-print-remarks 2>&1 | FileCheck %s --check-prefix=REMOVE
// REMOVE: remark: propagate-mma: moved to #nvidia_mma: 1 conversion(s) removed, 0 added
// REMOVE-SAME: shared memory stays 147,456 B predicted; remove: narrows 64 store(s)/thread to v2
// REMOVE-SAME: drops 1 conversion(s) (2 shared-memory round(s) of 64 regs/thread, 8 warps, alone on its SM)
// REMOVE-SAME: saves 65,536 B scratch (model: +{{[0-9,]+}} cycles/CTA)
// RUN: irkit-opt %S/Inputs/h100-gemm-256x128x64-w8s3.ttgir --propagate-mma=profit=model | FileCheck %s --check-prefix=REMOVED
// REMOVED-NOT: ttg.convert_layout
// REMOVED: tt.store %{{.*}} : tensor<256x128x!tt.ptr<f32>, #mma>

// Per conversion, the add-matrix kernel's D load (4 rounds, the CTA alone on its SM) moves into #mma and its
// C store (1 round) would keep the wide blocked store; the two together are still a gain, so the store goes
// with the load (measured on the H100: load alone 0.964x, spills 30 -> 14; both 0.951x, spills 30 -> 2).
// RUN: irkit-opt %S/Inputs/h100-addmm-64x256x64-w4s4.ttgir --propagate-mma=profit=model --mlir-print-remarks 2>&1 | FileCheck %s --check-prefix=JOINTR
// JOINTR: remark: propagate-mma: moved to #nvidia_mma: {{.*}}remove: narrows 64 load(s)/thread to v2{{.*}}(4 shared-memory round(s) of 32 regs/thread, 4 warps, alone on its SM)
// JOINTR-SAME: (model: +842 cycles/CTA)
// JOINTR: remark: propagate-mma: moved to #nvidia_mma: {{.*}}remove with the rest: narrows 64 store(s)/thread to v2{{.*}}(1 shared-memory round(s) of 128 regs/thread, 4 warps, alone on its SM)
// JOINTR-SAME: (model: -538 cycles/CTA); taken with this function's other rewrites (+304 cycles/CTA together)
// RUN: irkit-opt %S/Inputs/h100-addmm-64x256x64-w4s4.ttgir --propagate-mma=profit=model | FileCheck %s --check-prefix=JOINT
// JOINT-NOT: ttg.convert_layout
// JOINT: tt.load %{{.*}} : tensor<64x256x!tt.ptr<f32>, #mma>
// JOINT: arith.addf %{{.*}} : tensor<64x256xf32, #mma>
// JOINT: tt.store %{{.*}} : tensor<64x256x!tt.ptr<f32>, #mma>
// A dry run says the same without rewriting.
// RUN: irkit-opt %S/Inputs/h100-addmm-64x256x64-w4s4.ttgir --propagate-mma='profit=model dry-run=true' --mlir-print-remarks 2>&1 | FileCheck %s --check-prefix=JOINTDRY
// JOINTDRY: remark: propagate-mma: would move to #nvidia_mma
// JOINTDRY: remark: propagate-mma: would move with the rest: {{.*}}(+304 cycles/CTA together)
// With loads-only the store is never retyped: the D load alone.
// RUN: irkit-opt %S/Inputs/h100-addmm-64x256x64-w4s4.ttgir --propagate-mma='profit=model loads-only=true' | FileCheck %s --check-prefix=SPLIT
// SPLIT: tt.load %{{.*}} : tensor<64x256x!tt.ptr<f32>, #mma>
// SPLIT: arith.addf %{{.*}} : tensor<64x256xf32, #mma>
// SPLIT: ttg.convert_layout %{{.*}} : tensor<64x256xf32, #mma> -> tensor<64x256xf32, #blocked
// SPLIT: tt.store %{{.*}} : tensor<64x256x!tt.ptr<f32>, #blocked

// The default, profit=auto, is the model where no Triton can compile the module, and the remark says so.
// RUN: env IRKIT_TRITON_PYTHON=%t.no-python irkit-opt %S/Inputs/h100-gemm-128x256x64-w8s3.ttgir --propagate-mma --mlir-print-remarks 2>&1 | FileCheck %s --check-prefix=AUTO
// AUTO: remark: propagate-mma: conversion kept: narrows 64 store(s)/thread to v2
// AUTO-SAME: (model: -1,075 cycles/CTA); profit=auto: no Triton here to compile with, the model decides
// AUTO: ttg.convert_layout %{{.*}} : tensor<128x256xf32, #mma> -> tensor<128x256xf32, #blocked

// A rewrite that brings shared memory under the device limit is always taken (Triton 3.1, MI300X:
// 66,560 B > 65,536 B before), whatever the accesses cost.
// RUN: irkit-opt %S/../../examples/addmm_gfx942_256x256.ttgir --propagate-mma --mlir-print-remarks 2>&1 | FileCheck %s --check-prefix=UNLOCK
// UNLOCK: remark: propagate-mma: moved to #amd_mfma: 2 conversion(s) removed
// UNLOCK-SAME: shared memory 66,560 -> 32,768 B predicted; remove:
// UNLOCK-SAME: saves 66,560 B scratch; brings shared memory under the limit

// 16-bit D and C (Triton leaves 16-bit conversions, after truncf / before extf): cheap; the mma layout would
// give b32 accesses (measured on the H100: 12-23% slower).  Kept, even with 8 warps and small rounds.
// RUN: irkit-opt %S/Inputs/h100-addmm-f16-128x128x64-w8s4.ttgir --propagate-mma=profit=model --mlir-print-remarks 2>&1 | FileCheck %s --check-prefix=HALF
// HALF: remark: propagate-mma: conversion kept: narrows 32 load(s)/thread to b32 (was 8 x v4; 8 vs 4 lines/instr
// HALF-SAME: (1 shared-memory round(s) of 32 regs/thread, 8 warps, alone on its SM)
// HALF: remark: propagate-mma: conversion kept: narrows 32 store(s)/thread to b32 (was 8 x v4
// HALF: ttg.convert_layout %{{.*}} : tensor<128x128xf16, #{{.*}}> -> tensor<128x128xf16, #mma>

// The release (`version`, or irkit-opt's --triton-version): a real Triton 3.6.0 add-matrix GEMM for gfx942, 256x256,
// 8 warps, 262,144 B of LDS as written.  Triton 3.5/3.6 fit it first (optimize-amd-lds-usage: 33,792 B), so there the
// rewrite unlocks nothing and the model keeps the conversion; 3.7 dropped that pass, and the rewrite is what fits it.
// RUN: irkit-opt %S/Inputs/gfx942-addmm-256x256-w8-triton360.ttgir --propagate-mma=profit=model --triton-version 3.6.0 --mlir-print-remarks 2>&1 | FileCheck %s --check-prefix=FITTED
// FITTED: remark: propagate-mma: conversion kept: {{.*}}(model: -10,752 cycles/CTA)
// FITTED: ttg.convert_layout %{{.*}} : tensor<256x256xf32, #blocked{{[0-9]*}}> -> tensor<256x256xf32, #mma>
// RUN: irkit-opt %S/Inputs/gfx942-addmm-256x256-w8-triton360.ttgir -p 'propagate-mma{profit=model version=3.7.0}' --mlir-print-remarks 2>&1 >/dev/null | FileCheck %s --check-prefix=UNFITTED
// UNFITTED: remark: propagate-mma: moved to #amd_mfma: {{.*}}shared memory 262,144 -> 16,384 B predicted; {{.*}}brings shared memory under the limit
// RUN: irkit-opt %S/Inputs/gfx942-addmm-256x256-w8-triton360.ttgir -p 'propagate-mma{profit=model version=3.7.0}' | FileCheck %s --check-prefix=UNFITTED-IR
// UNFITTED-IR-NOT: ttg.convert_layout
// UNFITTED-IR: tt.store
