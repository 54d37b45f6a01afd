// RUN: ks-opt %s -split-input-file --ks-promote-accumulators | FileCheck %s

// PolyBench GEMM's body: c[i][j] *= beta, then c[i][j] += alpha*a*b over k.
// The element is carried: the scaled value is the loop's init (the store of
// it forwarded to the loop's load and dropped), written back once.
// CHECK-LABEL: gpu.func @scaled_gemm
// CHECK: scf.forall (%[[I:.*]], %[[J:.*]]) in
// CHECK: %[[C:.*]] = memref.load %[[CV:.*]][%[[I]], %[[J]]]
// CHECK: %[[S:.*]] = arith.mulf %[[C]], %arg4
// CHECK-NOT: memref.store
// CHECK: %[[R:.*]] = scf.for %{{.*}} = %c0 to %{{.*}} step %c1 iter_args(%[[ACC:.*]] = %[[S]]) -> (f32) {
// CHECK-NOT: memref.store
// CHECK: %[[SUM:.*]] = arith.addf %[[ACC]], %{{.*}} : f32
// CHECK: scf.yield %[[SUM]] : f32
// CHECK: }
// CHECK: memref.store %[[R]], %[[CV]][%[[I]], %[[J]]]
// CHECK-NEXT: }
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @scaled_gemm(%ni: i32, %nj: i32, %nk: i32, %alpha: f32, %beta: f32, %c: memref<?xf32>, %a: memref<?xf32>, %b: memref<?xf32>) kernel attributes {ks.raised} {
      %c1 = arith.constant 1 : index
      %c0 = arith.constant 0 : index
      %0 = arith.index_cast %ni : i32 to index
      %1 = arith.index_cast %nj : i32 to index
      %2 = arith.index_cast %nk : i32 to index
      %cv = memref.reinterpret_cast %c to offset: [0], sizes: [%0, %1], strides: [%1, 1] : memref<?xf32> to memref<?x?xf32, strided<[?, 1]>>
      %av = memref.reinterpret_cast %a to offset: [0], sizes: [%0, %2], strides: [%2, 1] : memref<?xf32> to memref<?x?xf32, strided<[?, 1]>>
      %bv = memref.reinterpret_cast %b to offset: [0], sizes: [%2, %1], strides: [%1, 1] : memref<?xf32> to memref<?x?xf32, strided<[?, 1]>>
      scf.forall (%i, %j) in (%0, %1) {
        %3 = memref.load %cv[%i, %j] : memref<?x?xf32, strided<[?, 1]>>
        %4 = arith.mulf %3, %beta : f32
        memref.store %4, %cv[%i, %j] : memref<?x?xf32, strided<[?, 1]>>
        scf.for %k = %c0 to %2 step %c1 {
          %5 = memref.load %cv[%i, %j] : memref<?x?xf32, strided<[?, 1]>>
          %6 = memref.load %av[%i, %k] : memref<?x?xf32, strided<[?, 1]>>
          %7 = arith.mulf %alpha, %6 : f32
          %8 = memref.load %bv[%k, %j] : memref<?x?xf32, strided<[?, 1]>>
          %9 = arith.mulf %7, %8 : f32
          %10 = arith.addf %5, %9 : f32
          memref.store %10, %cv[%i, %j] : memref<?x?xf32, strided<[?, 1]>>
        }
      }
      gpu.return
    }
  }
}

// -----

// Two accumulators in one point (BiCG: s[t] and q[t], each zeroed first),
// and a loop nest: the inner loop carries the element, then the outer one.
// CHECK-LABEL: gpu.func @two_sums_and_a_nest
// CHECK: scf.forall (%[[T:.*]]) in
// CHECK: %[[S:.*]] = scf.for {{.*}} iter_args(%{{.*}} = %cst) -> (f32)
// CHECK: memref.store %[[S]], %arg1[%[[T]]]
// CHECK: %[[Q:.*]] = scf.for {{.*}} iter_args(%[[OUTER:.*]] = %cst) -> (f32)
// CHECK: %[[INNER:.*]] = scf.for {{.*}} iter_args(%{{.*}} = %[[OUTER]]) -> (f32)
// CHECK: scf.yield %[[INNER]]
// CHECK: memref.store %[[Q]], %arg2[%[[T]]]
// CHECK-NOT: memref.store
// CHECK: gpu.return
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @two_sums_and_a_nest(%a: memref<?xf32>, %s: memref<?xf32>, %q: memref<?xf32>, %n: index) kernel attributes {ks.raised} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %zero = arith.constant 0.0 : f32
      scf.forall (%t) in (%n) {
        memref.store %zero, %s[%t] : memref<?xf32>
        scf.for %i = %c0 to %n step %c1 {
          %x = memref.load %s[%t] : memref<?xf32>
          %v = memref.load %a[%i] : memref<?xf32>
          %y = arith.addf %x, %v : f32
          memref.store %y, %s[%t] : memref<?xf32>
        }
        memref.store %zero, %q[%t] : memref<?xf32>
        scf.for %i = %c0 to %n step %c1 {
          scf.for %j = %c0 to %n step %c1 {
            %x = memref.load %q[%t] : memref<?xf32>
            %v = memref.load %a[%j] : memref<?xf32>
            %y = arith.addf %x, %v : f32
            memref.store %y, %q[%t] : memref<?xf32>
          }
        }
      }
      gpu.return
    }
  }
}

// -----

// MVT's style: the element is never stored outside the loop, and the loop
// runs over 0 to N inside a forall over 0 to N (so at least once): written
// back unconditionally. The second loop's bound is another value: it may
// run zero times, so its write-back is guarded by lb < ub.
// CHECK-LABEL: gpu.func @inout_vectors
// CHECK: %[[X1:.*]] = scf.for
// CHECK-NEXT: memref.load
// CHECK: memref.store %[[X1]], %arg0
// CHECK: %[[X2:.*]] = scf.for %{{.*}} = %c0 to %arg4
// CHECK: %[[RUNS:.*]] = arith.cmpi slt, %c0, %arg4 : index
// CHECK: scf.if %[[RUNS]] {
// CHECK-NEXT: memref.store %[[X2]], %arg1
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @inout_vectors(%x1: memref<?xf32>, %x2: memref<?xf32>, %y: memref<?xf32>, %n: index, %m: index) kernel attributes {ks.raised} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      scf.forall (%t) in (%n) {
        scf.for %j = %c0 to %n step %c1 {
          %x = memref.load %x1[%t] : memref<?xf32>
          %v = memref.load %y[%j] : memref<?xf32>
          %w = arith.addf %x, %v : f32
          memref.store %w, %x1[%t] : memref<?xf32>
        }
        scf.for %j = %c0 to %m step %c1 {
          %x = memref.load %x2[%t] : memref<?xf32>
          %v = memref.load %y[%j] : memref<?xf32>
          %w = arith.addf %x, %v : f32
          memref.store %w, %x2[%t] : memref<?xf32>
        }
      }
      gpu.return
    }
  }
}

// -----

// Left as written: the loop also reads the accumulated buffer at another
// index (it may be the same element); the store comes before the load (the
// element is not accumulated); the kernel is not raised; the index changes
// with the loop.
// CHECK-LABEL: gpu.func @refused
// CHECK: scf.for
// CHECK-NOT: iter_args
// CHECK: memref.store
// CHECK: scf.for
// CHECK-NOT: iter_args
// CHECK: memref.store
// CHECK: scf.for
// CHECK-NOT: iter_args
// CHECK: memref.store
// CHECK-LABEL: gpu.func @not_raised
// CHECK-NOT: iter_args
// CHECK: gpu.return
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @refused(%x: memref<?xf32>, %n: index) kernel attributes {ks.raised} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %one = arith.constant 1.0 : f32
      scf.forall (%t) in (%n) {
        scf.for %j = %c0 to %n step %c1 {
          %a = memref.load %x[%t] : memref<?xf32>
          %b = memref.load %x[%j] : memref<?xf32>
          %w = arith.addf %a, %b : f32
          memref.store %w, %x[%t] : memref<?xf32>
        }
        scf.for %j = %c0 to %n step %c1 {
          memref.store %one, %x[%t] : memref<?xf32>
          %a = memref.load %x[%t] : memref<?xf32>
          %w = arith.addf %a, %one : f32
          memref.store %w, %x[%t] : memref<?xf32>
        }
        scf.for %j = %c0 to %n step %c1 {
          %a = memref.load %x[%j] : memref<?xf32>
          %w = arith.addf %a, %one : f32
          memref.store %w, %x[%j] : memref<?xf32>
        }
      }
      gpu.return
    }
    gpu.func @not_raised(%x: memref<?xf32>, %y: memref<?xf32>, %n: index) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %t = gpu.thread_id x
      scf.for %j = %c0 to %n step %c1 {
        %a = memref.load %x[%t] : memref<?xf32>
        %b = memref.load %y[%j] : memref<?xf32>
        %w = arith.addf %a, %b : f32
        memref.store %w, %x[%t] : memref<?xf32>
      }
      gpu.return
    }
  }
}
