module attributes {gpu.container_module} {
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c1000 = arith.constant 1000 : index
    %0 = gpu.wait async
    scf.for %arg0 = %c0 to %c1000 step %c1 {
      %1 = gpu.launch_func async [%0] @test_func::@test_func blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)  
    }
    gpu.wait [%0]
    return
  }
  gpu.module @test_func {
    gpu.func @test_func() kernel {
      gpu.return
    }
  }
}
