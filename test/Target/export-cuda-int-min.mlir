// RUN: ks-translate --export-cuda %s | FileCheck %s
// C has no negative literals: -9223372036854775808LL negates a literal too
// large for long long (an unsigned one, so comparisons with it turn
// unsigned), -2147483648 one too large for int (a long).
// CHECK-LABEL: void int_min(
// CHECK: y[0] = (-9223372036854775807LL - 1);
// CHECK: z[0] = (-2147483647 - 1);
// CHECK: z[1] = -2147483647;
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @int_min(%y: memref<?xi64> {ks.name = "y"}, %z: memref<?xi32> {ks.name = "z"}) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %min64 = arith.constant -9223372036854775808 : i64
      %min32 = arith.constant -2147483648 : i32
      %near = arith.constant -2147483647 : i32
      memref.store %min64, %y[%c0] : memref<?xi64>
      memref.store %min32, %z[%c0] : memref<?xi32>
      memref.store %near, %z[%c1] : memref<?xi32>
      gpu.return
    }
  }
}
