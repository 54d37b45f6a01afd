// RUN: ks-translate --export-cuda %s | FileCheck %s
// A loop bound that is an expression keeps the parentheses C's precedence
// needs in `i < bound`: a conditional bound (the row-reduction schedule's
// for lanes past the last row) unparenthesized would read `(i < c) ? a : b`.
// CHECK-LABEL: void bounds(
// CHECK: for (long long i = 0LL; i < (c ? {{.*}} : 0LL); ++i) {
// An arithmetic bound binds tighter than `<`: no parentheses.
// CHECK: for (long long i1 = 0LL; i1 < {{.*}} - 2LL; ++i1) {
// C reads a for loop's bound before every iteration, scf.for once: a bound
// loaded from memory the body writes is read into a local first.
// CHECK-LABEL: void bound_load(
// CHECK-NEXT: const long long [[N:v[0-9]+]] = y[0];
// CHECK-NEXT: for (long long i = 1LL; i < [[N]]; ++i) {
// CHECK-NEXT: y[0] = 0LL;
// A value a loop passes on keeps its precedence: negating an inline
// negative constant carried to the body is -(-2.0f), not --2.0f.
// CHECK-LABEL: void carried_negative(
// CHECK: y[{{.*}}] = -(-2.0f);
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
    gpu.func @bound_load(%y: memref<?xi64> {ks.name = "y"}) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %z = arith.constant 0 : i64
      %n = memref.load %y[%c0] : memref<?xi64>
      %ni = arith.index_cast %n : i64 to index
      scf.for %i = %c1 to %ni step %c1 {
        memref.store %z, %y[%c0] : memref<?xi64>
      }
      gpu.return
    }
    gpu.func @carried_negative(%y: memref<?xf32> {ks.name = "y"}) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %m = arith.constant -2.0 : f32
      %r:2 = scf.while (%i = %c0) : (index) -> (index, f32) {
        %v = memref.load %y[%i] : memref<?xf32>
        %cmp = arith.cmpf olt, %v, %m : f32
        scf.condition(%cmp) %i, %m : index, f32
      } do {
      ^bb0(%j: index, %f: f32):
        %neg = arith.negf %f : f32
        memref.store %neg, %y[%j] : memref<?xf32>
        %k = arith.addi %j, %c1 : index
        scf.yield %k : index
      }
      gpu.return
    }
  }
}
