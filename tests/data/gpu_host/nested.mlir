module attributes {gpu.container_module} {
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c10 = arith.constant 10 : index
    %c100 = arith.constant 100 : index
    scf.for %arg0 = %c0 to %c10 step %c1 {
      scf.for %arg1 = %c0 to %c100 step %c1 {
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
