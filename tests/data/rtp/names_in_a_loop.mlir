module {
  tt.func @k(%base: !tt.ptr<f32>, %n: i64, %out: !tt.ptr<f32>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i64
    %c4 = arith.constant 4 : i32
    %c8 = arith.constant 8 : i32
    %zero = arith.constant dense<0.0> : tensor<8xf32>
    %p = tt.make_tensor_ptr %base, [%n], [%c1], [%c0] {order = array<i32: 0>} : <tensor<8xf32>>
    %r:2 = scf.for %iv_1 = %c0 to %c8 step %c4 iter_args(%sum_7 = %zero, %q = %p) -> (tensor<8xf32>, !tt.ptr<tensor<8xf32>>) : i32 {
      %x_3 = tt.load %q {boundaryCheck = array<i32: 0>} : !tt.ptr<tensor<8xf32>>
      %acc_2 = arith.addf %sum_7, %x_3 : tensor<8xf32>
      %q_5 = tt.advance %q, [%iv_1] : <tensor<8xf32>>
      scf.yield %acc_2, %q_5 : tensor<8xf32>, !tt.ptr<tensor<8xf32>>
    }
    %po = tt.make_tensor_ptr %out, [%n], [%c1], [%c0] {order = array<i32: 0>} : <tensor<8xf32>>
    tt.store %po, %r#0 : !tt.ptr<tensor<8xf32>>
    tt.return
  }
}
