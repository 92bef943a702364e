module attributes {gpu.container_module} {
  func.func @main(%arg0: index, %arg1: i32, %arg2: !llvm.ptr) -> i32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %0 = gpu.wait async
    %1 = scf.for %arg3 = %c0 to %arg0 step %c1 iter_args(%arg4 = %0) -> (!gpu.async.token) {
      %4 = gpu.launch_func async [%arg4] @k::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)  dynamic_shared_memory_size %arg1 args(%arg1 : i32, %arg3 : index)
      scf.yield %4 : !gpu.async.token
    }
    gpu.wait [%1]
    gpu.launch_func <%arg2 : !llvm.ptr> @k::@k clusters in (%c1, %c1, %c1) blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)  args(%arg1 : i32, %c0 : index) {foo}
    %2 = gpu.launch_func async @k::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)  args(%arg1 : i32, %c0 : index)
    %3 = gpu.wait async [%2, %0]
    gpu.wait 
    return %arg1 : i32
  }
  gpu.module @k [#nvvm.target<O = 3, chip = "sm_90">] {
    gpu.func @k(%arg0: i32, %arg1: index) kernel attributes {known_block_size = array<i32: 1, 1, 1>} {
      gpu.return
    }
  }
}
