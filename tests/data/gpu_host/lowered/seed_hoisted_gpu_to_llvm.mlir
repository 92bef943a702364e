module attributes {gpu.container_module} {
  llvm.func @main() {
    %0 = llvm.mlir.constant(0 : index) : i64
    %1 = llvm.mlir.constant(1 : index) : i64
    %2 = llvm.mlir.constant(1000 : index) : i64
    %3 = llvm.call @mgpuStreamCreate() : () -> !llvm.ptr
    llvm.br ^bb1(%0 : i64)
  ^bb1(%4: i64):  // 2 preds: ^bb0, ^bb2
    %5 = llvm.icmp "slt" %4, %2 : i64
    llvm.cond_br %5, ^bb2, ^bb3
  ^bb2:  // pred: ^bb1
    gpu.launch_func <%3 : !llvm.ptr> @test_func::@test_func blocks in (%1, %1, %1) threads in (%1, %1, %1) : i64 
    %6 = llvm.add %4, %1 : i64
    llvm.br ^bb1(%6 : i64)
  ^bb3:  // pred: ^bb1
    llvm.call @mgpuStreamSynchronize(%3) : (!llvm.ptr) -> ()
    llvm.call @mgpuStreamDestroy(%3) : (!llvm.ptr) -> ()
    llvm.return
  }
  gpu.module @test_func [#nvvm.target<O = 3, chip = "sm_90">] {
    llvm.func @test_func() attributes {gpu.kernel, nvvm.kernel} {
      llvm.return
    }
  }
  llvm.func @mgpuStreamCreate() -> !llvm.ptr
  llvm.func @mgpuStreamSynchronize(!llvm.ptr)
  llvm.func @mgpuStreamDestroy(!llvm.ptr)
}
