module attributes {gpu.container_module} {
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c1000 = arith.constant 1000 : index
    scf.for %arg0 = %c0 to %c1000 step %c1 {
      %0 = arith.index_cast %arg0 : index to i32
      gpu.launch_func  @kernels::@first blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)  args(%0 : i32)
      gpu.launch_func  @kernels::@second blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)  
    }
    return
  }
  gpu.module @kernels {
    gpu.func @first(%arg0: i32) kernel {
      gpu.return
    }
    gpu.func @second() kernel {
      gpu.return
    }
  }
}
