// RUN: irkit-opt %s --split-input-file --hoist-launch-stream --verify-diagnostics | FileCheck %s
// RUN: irkit-opt %s --split-input-file --hoist-launch-stream=keep-sync=true | FileCheck %s --check-prefix=SYNC

// The seed's loop (seed 001): 1000 synchronous launches, one stream each after gpu-to-llvm.
// CHECK-LABEL: func.func @seed
// CHECK: %[[S:.*]] = gpu.wait async
// CHECK-NEXT: scf.for %arg0 = %c0 to %c1000 step %c1 {
// CHECK-NEXT: gpu.launch_func async [%[[S]]] @test_func::@test_func blocks in (%c1, %c1, %c1)
// CHECK-NOT: gpu.wait
// CHECK: }
// CHECK-NEXT: gpu.wait [%[[S]]]
// CHECK-NEXT: return

// keep-sync: the stream stays one, and each iteration still synchronizes it (through the stream pointer the
// token becomes in gpu-to-llvm; gpu.wait [%t] inside the loop would destroy the stream).
// SYNC: llvm.func @mgpuStreamSynchronize(!llvm.ptr)
// SYNC-LABEL: func.func @seed
// SYNC: %[[S:.*]] = gpu.wait async
// SYNC-NEXT: %[[P:.*]] = builtin.unrealized_conversion_cast %[[S]] : !gpu.async.token to !llvm.ptr
// SYNC-NEXT: scf.for
// SYNC-NEXT: gpu.launch_func async [%[[S]]]
// SYNC-NEXT: llvm.call @mgpuStreamSynchronize(%[[P]]) : (!llvm.ptr) -> ()
// SYNC-NEXT: }
// SYNC-NEXT: gpu.wait [%[[S]]]
module attributes {gpu.container_module} {
  func.func @seed() {
    %c2_i32 = arith.constant 2 : i32
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c1000 = arith.constant 1000 : index
    // expected-remark @+1 {{hoist-launch-stream: 1 launch(es) share one stream created before the loop}}
    scf.for %arg0 = %c0 to %c1000 step %c1 {
      gpu.launch_func  @test_func::@test_func blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)  
    }
    return
  }
  gpu.module @test_func {
    gpu.func @test_func() kernel {
      gpu.return
    }
  }
}

// -----

// Two kernels in one loop, with arguments and a symbolic trip count: both on the one stream.
// CHECK-LABEL: func.func @two_kernels
// CHECK: %[[S:.*]] = gpu.wait async
// CHECK-NEXT: scf.for %i = %c0 to %n step %c1 {
// CHECK-NEXT: %x = arith.index_cast %i : index to i32
// CHECK-NEXT: gpu.launch_func async [%[[S]]] @m::@a {{.*}} args(%x : i32)
// CHECK-NEXT: gpu.launch_func async [%[[S]]] @m::@b
// CHECK-NEXT: }
// CHECK-NEXT: gpu.wait [%[[S]]]
module attributes {gpu.container_module} {
  func.func @two_kernels(%n: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    // expected-remark @+1 {{2 launch(es) share one stream}}
    scf.for %i = %c0 to %n step %c1 {
      %x = arith.index_cast %i : index to i32
      gpu.launch_func  @m::@a blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)  args(%x : i32)
      gpu.launch_func  @m::@b blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)  
    }
    return
  }
  gpu.module @m {
    gpu.func @a(%arg0: i32) kernel {
      gpu.return
    }
    gpu.func @b() kernel {
      gpu.return
    }
  }
}

// -----

// A nested loop: one stream for the whole nest, created before the outer loop.
// CHECK-LABEL: func.func @nested
// CHECK: %[[S:.*]] = gpu.wait async
// CHECK-NEXT: scf.for %i
// CHECK-NEXT: scf.for %j
// CHECK-NEXT: gpu.launch_func async [%[[S]]] @m::@k
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: gpu.wait [%[[S]]]
module attributes {gpu.container_module} {
  func.func @nested(%n: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    // expected-remark @+1 {{1 launch(es) share one stream}}
    scf.for %i = %c0 to %n step %c1 {
      scf.for %j = %c0 to %n step %c1 {
        gpu.launch_func  @m::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)  
      }
    }
    return
  }
  gpu.module @m {
    gpu.func @k() kernel {
      gpu.return
    }
  }
}

// -----

// Loops it must refuse: a host call; an existing wait; a token carried in iter_args; an explicit async
// object; a launch already asynchronous.  Inside a refused outer loop, a clean inner loop still gets its stream.
// CHECK-LABEL: func.func @refused
// CHECK: scf.for %i = %c0 to %n step %c1 {
// CHECK-NEXT: gpu.launch_func  @m::@k
// CHECK-NEXT: call @host()
// CHECK: gpu.wait async
// CHECK-NEXT: scf.for %j
// CHECK-NEXT: gpu.launch_func async
// CHECK: gpu.launch_func <%s : !llvm.ptr> @m::@k
module attributes {gpu.container_module} {
  func.func private @host()
  func.func @refused(%n: index, %s: !llvm.ptr) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    // expected-remark @+1 {{loop left alone: it calls @host (a host call may read what a kernel wrote)}}
    scf.for %i = %c0 to %n step %c1 {
      gpu.launch_func  @m::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)  
      func.call @host() : () -> ()
    }
    // expected-remark @+1 {{loop left alone: it already waits on the GPU (gpu.wait)}}
    scf.for %i = %c0 to %n step %c1 {
      gpu.launch_func  @m::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)  
      gpu.wait 
      // expected-remark @+1 {{1 launch(es) share one stream}}
      scf.for %j = %c0 to %n step %c1 {
        gpu.launch_func  @m::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)  
      }
    }
    %t0 = gpu.wait async
    // expected-remark @+1 {{loop left alone: a loop carries an async token in iter_args}}
    %t = scf.for %i = %c0 to %n step %c1 iter_args(%tk = %t0) -> (!gpu.async.token) {
      %t1 = gpu.launch_func async [%tk] @m::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)  
      scf.yield %t1 : !gpu.async.token
    }
    gpu.wait [%t]
    // expected-remark @+1 {{loop left alone: a launch names an explicit async object}}
    scf.for %i = %c0 to %n step %c1 {
      gpu.launch_func <%s : !llvm.ptr> @m::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)  
    }
    return
  }
  gpu.module @m {
    gpu.func @k() kernel {
      gpu.return
    }
  }
}
