module attributes {gpu.container_module} {
  func.func @main() {
    %c2_i32 = arith.constant 2 : i32
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c1000 = arith.constant 1000 : index
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
