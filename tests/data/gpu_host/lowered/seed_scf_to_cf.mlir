module attributes {gpu.container_module} {
  func.func @main() {
    %c2_i32 = arith.constant 2 : i32
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c1000 = arith.constant 1000 : index
    cf.br ^bb1(%c0 : index)
  ^bb1(%0: index):  // 2 preds: ^bb0, ^bb2
    %1 = arith.cmpi slt, %0, %c1000 : index
    cf.cond_br %1, ^bb2, ^bb3
  ^bb2:  // pred: ^bb1
    gpu.launch_func  @test_func::@test_func blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)  
    %2 = arith.addi %0, %c1 : index
    cf.br ^bb1(%2 : index)
  ^bb3:  // pred: ^bb1
    return
  }
  gpu.module @test_func {
    gpu.func @test_func() kernel {
      gpu.return
    }
  }
}
