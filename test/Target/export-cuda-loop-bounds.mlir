// RUN: ks-translate --export-cuda %s | FileCheck %s
// A loop bound that is an expression keeps the parentheses C's precedence
// needs in `i < bound`: a conditional bound (the row-reduction schedule's
// for lanes past the last row) unparenthesized would read `(i < c) ? a : b`.
// CHECK-LABEL: void bounds(
// CHECK: for (long long i = 0LL; i < (c ? {{.*}} : 0LL); ++i) {
// An arithmetic bound binds tighter than `<`: no parentheses.
// CHECK: for (long long i1 = 0LL; i1 < {{.*}} - 2LL; ++i1) {
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @bounds(%y: memref<?xf32> {ks.name = "y"}, %n: i64 {ks.name = "n"},
                     %c: i1 {ks.name = "c"}) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %f = arith.constant 1.0 : f32
      %ni = arith.index_cast %n : i64 to index
      %m = arith.subi %ni, %c1 : index
      %ub = arith.select %c, %m, %c0 : index
      scf.for %i = %c0 to %ub step %c1 {
        memref.store %f, %y[%i] : memref<?xf32>
      }
      %c2 = arith.constant 2 : index
      %m2 = arith.subi %ni, %c2 : index
      scf.for %i = %c0 to %m2 step %c1 {
        memref.store %f, %y[%i] : memref<?xf32>
      }
      gpu.return
    }
  }
}
