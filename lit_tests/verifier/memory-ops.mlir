// RUN: irkit-opt %s --split-input-file --verify-diagnostics
// Triton's TypesMatchWith rules of tt.load/tt.store/tt.atomic_rmw/tt.atomic_cas (TritonOps.td):
// the mask is i1 of the pointer's shape, value/other/result match the pointee type.

#b = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @load_mask_i32(%p: tensor<128x!tt.ptr<f32>, #b>, %m: tensor<128xi32, #b>) {
    // expected-error@+1 {{'tt.load' op operand #1 must be 1-bit signless integer or ranked tensor of 1-bit signless integer values}}
    %0 = tt.load %p, %m : tensor<128x!tt.ptr<f32>, #b>
    tt.return
  }
}

// -----

#b = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @load_mask_scalar(%p: tensor<128x!tt.ptr<f32>, #b>, %m: i1) {
    // expected-error@+1 {{'tt.load' op failed to verify that mask type matches ptr type}}
    %0 = tt.load %p, %m : tensor<128x!tt.ptr<f32>, #b>
    tt.return
  }
}

// -----

#b = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @load_other(%p: tensor<128x!tt.ptr<f32>, #b>, %m: tensor<128xi1, #b>, %o: tensor<128xi32, #b>) {
    // expected-error@+1 {{'tt.load' op failed to verify that other matches ptr type}}
    %0 = "tt.load"(%p, %m, %o) <{operandSegmentSizes = array<i32: 1, 1, 1>, cache = 1 : i32, evict = 1 : i32, isVolatile = false}> : (tensor<128x!tt.ptr<f32>, #b>, tensor<128xi1, #b>, tensor<128xi32, #b>) -> tensor<128xf32, #b>
    tt.return
  }
}

// -----

#b = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @store_mask_shape(%p: tensor<128x!tt.ptr<f32>, #b>, %v: tensor<128xf32, #b>, %m: tensor<64xi1, #b>) {
    // expected-error@+1 {{'tt.store' op failed to verify that mask type matches ptr type}}
    tt.store %p, %v, %m : tensor<128x!tt.ptr<f32>, #b>
    tt.return
  }
}

// -----

#b = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @store_value(%p: tensor<128x!tt.ptr<f32>, #b>, %v: tensor<128xi32, #b>) {
    // expected-error@+1 {{'tt.store' op failed to verify that value type matches ptr type}}
    tt.store %p, %v : tensor<128x!tt.ptr<f32>, #b>
    tt.return
  }
}

// -----

#b = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @rmw_mask(%p: tensor<128x!tt.ptr<f32>, #b>, %v: tensor<128xf32, #b>, %m: tensor<128xi32, #b>) {
    // expected-error@+1 {{'tt.atomic_rmw' op operand #2 must be 1-bit signless integer or ranked tensor of 1-bit signless integer values}}
    %0 = tt.atomic_rmw fadd, acq_rel, gpu, %p, %v, %m : (tensor<128x!tt.ptr<f32>, #b>, tensor<128xf32, #b>, tensor<128xi32, #b>) -> tensor<128xf32, #b>
    tt.return
  }
}

// -----

#b = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @rmw_mask_shape(%p: tensor<128x!tt.ptr<f32>, #b>, %v: tensor<128xf32, #b>, %m: tensor<64xi1, #b>) {
    // expected-error@+1 {{'tt.atomic_rmw' op failed to verify that mask type matches value type}}
    %0 = tt.atomic_rmw fadd, acq_rel, gpu, %p, %v, %m : (tensor<128x!tt.ptr<f32>, #b>, tensor<128xf32, #b>, tensor<64xi1, #b>) -> tensor<128xf32, #b>
    tt.return
  }
}

// -----

#b = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @rmw_value(%p: tensor<128x!tt.ptr<f32>, #b>, %v: tensor<128xi32, #b>) {
    // expected-error@+1 {{'tt.atomic_rmw' op failed to verify that ptr type matches value type}}
    %0 = tt.atomic_rmw add, acq_rel, gpu, %p, %v : (tensor<128x!tt.ptr<f32>, #b>, tensor<128xi32, #b>) -> tensor<128xi32, #b>
    tt.return
  }
}

// -----

#b = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @cas_cmp(%p: tensor<128x!tt.ptr<f32>, #b>, %c: tensor<128xi32, #b>, %v: tensor<128xf32, #b>) {
    // expected-error@+1 {{'tt.atomic_cas' op failed to verify that ptr type matches cmp type}}
    %0 = tt.atomic_cas acq_rel, gpu, %p, %c, %v : (tensor<128x!tt.ptr<f32>, #b>, tensor<128xi32, #b>, tensor<128xf32, #b>) -> tensor<128xf32, #b>
    tt.return
  }
}

// -----

#b = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // the well-formed forms still verify
  tt.func @fine(%p: tensor<128x!tt.ptr<f32>, #b>, %v: tensor<128xf32, #b>, %m: tensor<128xi1, #b>) {
    %0 = tt.load %p, %m, %v : tensor<128x!tt.ptr<f32>, #b>
    tt.store %p, %0, %m : tensor<128x!tt.ptr<f32>, #b>
    %1 = tt.atomic_rmw fadd, acq_rel, gpu, %p, %v, %m : (tensor<128x!tt.ptr<f32>, #b>, tensor<128xf32, #b>, tensor<128xi1, #b>) -> tensor<128xf32, #b>
    tt.return
  }
}
