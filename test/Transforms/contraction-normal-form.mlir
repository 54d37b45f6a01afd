// RUN: ks-opt %s -split-input-file --ks-raise-contractions | FileCheck %s

// The polyhedral suites' GEMM once its accumulator is carried: the sum
// starts from beta * C and multiplies alpha in. The reduction becomes a
// bare matmul from a fill of zero; beta * C + alpha * sum is the epilogue
// (the init's generic fused into it), materialized into C.
// CHECK-LABEL: gpu.func @scaled_gemm
// CHECK: %[[TC:.*]] = bufferization.to_tensor %[[C:[a-z0-9_]+]] restrict
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[F:.*]] = linalg.fill ins(%[[ZERO]] : f32)
// CHECK: %[[S:.*]] = linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<?x?xf32>, tensor<?x?xf32>) outs(%[[F]] : tensor<?x?xf32>)
// CHECK: %[[E:.*]] = linalg.generic {{.*}} ins(%[[TC]], %[[S]] : tensor<?x?xf32>, tensor<?x?xf32>)
// CHECK-NEXT: ^bb0(%[[CIN:.*]]: f32, %[[SIN:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[BC:.*]] = arith.mulf %[[CIN]], %arg4 : f32
// CHECK-NEXT: %[[AS:.*]] = arith.mulf %arg3, %[[SIN]] : f32
// CHECK-NEXT: %[[R:.*]] = arith.addf %[[BC]], %[[AS]] : f32
// CHECK-NEXT: linalg.yield %[[R]]
// CHECK: bufferization.materialize_in_destination %[[E]] in restrict writable %[[C]]
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
        %5 = scf.for %k = %c0 to %2 step %c1 iter_args(%acc = %4) -> (f32) {
          %6 = memref.load %av[%i, %k] : memref<?x?xf32, strided<[?, 1]>>
          %7 = arith.mulf %alpha, %6 : f32
          %8 = memref.load %bv[%k, %j] : memref<?x?xf32, strided<[?, 1]>>
          %9 = arith.mulf %7, %8 : f32
          %10 = arith.addf %acc, %9 : f32
          scf.yield %10 : f32
        }
        memref.store %5, %cv[%i, %j] : memref<?x?xf32, strided<[?, 1]>>
      }
      gpu.return
    }
  }
}

// -----

// A factor on each side of the product (alpha * x[j] * A[i][j] * gamma)
// and an init that is a fill: the factors are multiplied once, outside,
// and the epilogue is init + (alpha * gamma) * sum, fused with the
// epilogue the kernel had (+ z[i]).
// CHECK-LABEL: gpu.func @two_factors_gemv
// CHECK: %[[SCALE:.*]] = arith.mulf %arg5, %arg6 : f32
// CHECK: %[[F:.*]] = linalg.fill ins(%{{.*}} : f32)
// CHECK: %[[S:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%{{.*}}, %{{.*}} : tensor<?xf32>, tensor<?x?xf32>) outs(%[[F]] : tensor<?xf32>)
// CHECK-NEXT: ^bb0(%[[X:.*]]: f32, %[[AIJ:.*]]: f32, %[[OUT:.*]]: f32):
// CHECK-NEXT: %[[P:.*]] = arith.mulf %[[X]], %[[AIJ]] : f32
// CHECK-NEXT: %[[NEXT:.*]] = arith.addf %[[OUT]], %[[P]] : f32
// CHECK-NEXT: linalg.yield %[[NEXT]]
// CHECK: %[[E:.*]] = linalg.generic {{.*}} ins(%[[S]], %{{.*}} : tensor<?xf32>, tensor<?xf32>)
// CHECK-NEXT: ^bb0(%[[SIN:.*]]: f32, %[[ZIN:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[M:.*]] = arith.mulf %[[SCALE]], %[[SIN]] : f32
// CHECK-NEXT: %[[A:.*]] = arith.addf %cst{{.*}}, %[[M]] : f32
// CHECK-NEXT: %[[R:.*]] = arith.addf %[[A]], %[[ZIN]] : f32
// CHECK-NEXT: linalg.yield %[[R]]
// CHECK-NOT: linalg.generic
// CHECK: bufferization.materialize_in_destination %[[E]]
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @two_factors_gemv(%A0: memref<?xf32>, %x0: memref<?xf32>, %y0: memref<?xf32>, %z0: memref<?xf32>, %n: index, %alpha: f32, %gamma: f32) kernel attributes {ks.raised} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %one = arith.constant 1.0 : f32
      %A = memref.reinterpret_cast %A0 to offset: [0], sizes: [%n, %n], strides: [%n, 1] : memref<?xf32> to memref<?x?xf32, strided<[?, 1]>>
      %x = memref.reinterpret_cast %x0 to offset: [0], sizes: [%n], strides: [1] : memref<?xf32> to memref<?xf32, strided<[1]>>
      %y = memref.reinterpret_cast %y0 to offset: [0], sizes: [%n], strides: [1] : memref<?xf32> to memref<?xf32, strided<[1]>>
      %z = memref.reinterpret_cast %z0 to offset: [0], sizes: [%n], strides: [1] : memref<?xf32> to memref<?xf32, strided<[1]>>
      scf.forall (%i) in (%n) {
        %s = scf.for %j = %c0 to %n step %c1 iter_args(%acc = %one) -> (f32) {
          %xv = memref.load %x[%j] : memref<?xf32, strided<[1]>>
          %ax = arith.mulf %alpha, %xv : f32
          %av = memref.load %A[%i, %j] : memref<?x?xf32, strided<[?, 1]>>
          %p = arith.mulf %ax, %av : f32
          %q = arith.mulf %p, %gamma : f32
          %r = arith.addf %acc, %q : f32
          scf.yield %r : f32
        }
        %zv = memref.load %z[%i] : memref<?xf32, strided<[1]>>
        %o = arith.addf %s, %zv : f32
        memref.store %o, %y[%i] : memref<?xf32, strided<[1]>>
      }
      gpu.return
    }
  }
}

// -----

// Already the normal form (a product of the two inputs from a fill of any
// value): left as it is, no epilogue added.
// CHECK-LABEL: gpu.func @from_one
// CHECK: %[[F:.*]] = linalg.fill ins(%cst : f32)
// CHECK: %[[S:.*]] = linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<?x?xf32>, tensor<?x?xf32>) outs(%[[F]] : tensor<?x?xf32>)
// CHECK-NOT: linalg.generic
// CHECK: bufferization.materialize_in_destination %[[S]]
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @from_one(%A0: memref<?xf32>, %B0: memref<?xf32>, %C0: memref<?xf32>, %M: index, %N: index, %K: index) kernel attributes {ks.raised} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %one = arith.constant 1.0 : f32
      %A = memref.reinterpret_cast %A0 to offset: [0], sizes: [%M, %K], strides: [%K, 1] : memref<?xf32> to memref<?x?xf32, strided<[?, 1]>>
      %B = memref.reinterpret_cast %B0 to offset: [0], sizes: [%K, %N], strides: [%N, 1] : memref<?xf32> to memref<?x?xf32, strided<[?, 1]>>
      %C = memref.reinterpret_cast %C0 to offset: [0], sizes: [%M, %N], strides: [%N, 1] : memref<?xf32> to memref<?x?xf32, strided<[?, 1]>>
      scf.forall (%i, %j) in (%M, %N) {
        %acc = scf.for %p = %c0 to %K step %c1 iter_args(%s = %one) -> (f32) {
          %a = memref.load %A[%i, %p] : memref<?x?xf32, strided<[?, 1]>>
          %b = memref.load %B[%p, %j] : memref<?x?xf32, strided<[?, 1]>>
          %m = arith.mulf %a, %b : f32
          %s2 = arith.addf %s, %m : f32
          scf.yield %s2 : f32
        }
        memref.store %acc, %C[%i, %j] : memref<?x?xf32, strided<[?, 1]>>
      }
      gpu.return
    }
  }
}

// -----

// Not a product of the two inputs (a + b): left as built, which the
// schedules refuse ("not a multiply-add").
// CHECK-LABEL: gpu.func @sum_of_inputs
// CHECK: linalg.generic
// CHECK: arith.addf %in, %in_{{.*}}
// CHECK-NOT: linalg.fill ins(%cst
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @sum_of_inputs(%A0: memref<?xf32>, %B0: memref<?xf32>, %C0: memref<?xf32>, %M: index, %N: index, %K: index, %alpha: f32) kernel attributes {ks.raised} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %zero = arith.constant 0.0 : f32
      %A = memref.reinterpret_cast %A0 to offset: [0], sizes: [%M, %K], strides: [%K, 1] : memref<?xf32> to memref<?x?xf32, strided<[?, 1]>>
      %B = memref.reinterpret_cast %B0 to offset: [0], sizes: [%K, %N], strides: [%N, 1] : memref<?xf32> to memref<?x?xf32, strided<[?, 1]>>
      %C = memref.reinterpret_cast %C0 to offset: [0], sizes: [%M, %N], strides: [%N, 1] : memref<?xf32> to memref<?x?xf32, strided<[?, 1]>>
      scf.forall (%i, %j) in (%M, %N) {
        %acc = scf.for %p = %c0 to %K step %c1 iter_args(%s = %zero) -> (f32) {
          %a = memref.load %A[%i, %p] : memref<?x?xf32, strided<[?, 1]>>
          %b = memref.load %B[%p, %j] : memref<?x?xf32, strided<[?, 1]>>
          %m = arith.addf %a, %b : f32
          %m2 = arith.mulf %m, %alpha : f32
          %s2 = arith.addf %s, %m2 : f32
          scf.yield %s2 : f32
        }
        memref.store %acc, %C[%i, %j] : memref<?x?xf32, strided<[?, 1]>>
      }
      gpu.return
    }
  }
}
