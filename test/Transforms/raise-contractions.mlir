// RUN: ks-opt %s -split-input-file -verify-diagnostics --ks-raise-contractions="elementwise=true" | FileCheck %s

// C[i, j] = sum_p A[i, p] * B[p, j] from 0: linalg.matmul into a fill,
// materialized into the stored view; the source's contract flags are kept
// as ks.contract.
// CHECK-LABEL: gpu.func @matmul
// CHECK-NOT: scf.forall
// CHECK: %[[E:[a-z0-9_]+]] = tensor.empty(%{{.*}}, %{{.*}}) : tensor<?x?xf32>
// CHECK: %[[F:[a-z0-9_]+]] = linalg.fill ins(%{{.*}} : f32) outs(%[[E]] : tensor<?x?xf32>)
// CHECK: %[[TA:[a-z0-9_]+]] = bufferization.to_tensor %[[A:[a-z0-9_]+]] restrict
// CHECK: %[[TB:[a-z0-9_]+]] = bufferization.to_tensor %[[B:[a-z0-9_]+]] restrict
// CHECK: %[[R:[a-z0-9_]+]] = linalg.matmul {ks.contract} ins(%[[TA]], %[[TB]] : tensor<?x?xf32>, tensor<?x?xf32>) outs(%[[F]] : tensor<?x?xf32>)
// CHECK: bufferization.materialize_in_destination %[[R]] in restrict writable %[[C:[a-z0-9_]+]]
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @matmul(%A0: memref<?xf32>, %B0: memref<?xf32>, %C0: memref<?xf32>, %M: index, %N: index, %K: index) kernel attributes {ks.raised} {
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
          %m = arith.mulf %a, %b fastmath<contract> : f32
          %s2 = arith.addf %s, %m fastmath<contract> : f32
          scf.yield %s2 : f32
        }
        memref.store %acc, %C[%i, %j] : memref<?x?xf32, strided<[?, 1]>>
      }
      gpu.return
    }
  }
}

// -----

// B read transposed (B_v[j, p]): linalg.matmul with its indexing maps, not
// the default ones (upstream's specialization would drop them).
// CHECK-DAG: #[[MAPA:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG: #[[MAPB:.*]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-DAG: #[[MAPC:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: gpu.func @matmul_bt
// CHECK: linalg.matmul indexing_maps = [#[[MAPA]], #[[MAPB]], #[[MAPC]]]
// No contract flags in the source, no ks.contract:
// CHECK-NOT: ks.contract
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @matmul_bt(%A0: memref<?xf32>, %B0: memref<?xf32>, %C0: memref<?xf32>, %M: index, %N: index, %K: index) kernel attributes {ks.raised} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %zero = arith.constant 0.0 : f32
      %A = memref.reinterpret_cast %A0 to offset: [0], sizes: [%M, %K], strides: [%K, 1] : memref<?xf32> to memref<?x?xf32, strided<[?, 1]>>
      %B = memref.reinterpret_cast %B0 to offset: [0], sizes: [%N, %K], strides: [%K, 1] : memref<?xf32> to memref<?x?xf32, strided<[?, 1]>>
      %C = memref.reinterpret_cast %C0 to offset: [0], sizes: [%M, %N], strides: [%N, 1] : memref<?xf32> to memref<?x?xf32, strided<[?, 1]>>
      scf.forall (%i, %j) in (%M, %N) {
        %acc = scf.for %p = %c0 to %K step %c1 iter_args(%s = %zero) -> (f32) {
          %a = memref.load %A[%i, %p] : memref<?x?xf32, strided<[?, 1]>>
          %b = memref.load %B[%j, %p] : memref<?x?xf32, strided<[?, 1]>>
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

// alpha * acc + beta * C[i, j]: the epilogue is an elementwise generic that
// consumes the matmul's result and reads C; the product's operands are
// swapped so that the first input holds the m dimension (a column-major
// GEMM reads B[j, p] and A[p, i]).
// CHECK-LABEL: gpu.func @alpha_beta
// CHECK: %[[AV:[a-z0-9_]+]] = memref.reinterpret_cast %arg0
// CHECK: %[[BV:[a-z0-9_]+]] = memref.reinterpret_cast %arg1
// CHECK: %[[TA:[a-z0-9_]+]] = bufferization.to_tensor %[[AV]]
// CHECK: %[[TB:[a-z0-9_]+]] = bufferization.to_tensor %[[BV]]
// CHECK: %[[MM:[a-z0-9_]+]] = linalg.matmul ins(%[[TB]], %[[TA]] : tensor<?x?xf32>, tensor<?x?xf32>)
// CHECK: %[[TC:[a-z0-9_]+]] = bufferization.to_tensor %[[C:[a-z0-9_]+]] restrict
// CHECK: %[[EP:[a-z0-9_]+]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]} ins(%[[MM]], %[[TC]] : tensor<?x?xf32>, tensor<?x?xf32>)
// CHECK-NEXT: ^bb0(%[[ACC:.*]]: f32, %[[OLD:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[T0:.*]] = arith.mulf %arg6, %[[ACC]]
// CHECK-NEXT: %[[T1:.*]] = arith.mulf %arg7, %[[OLD]]
// CHECK-NEXT: %[[T2:.*]] = arith.addf %[[T0]], %[[T1]]
// CHECK-NEXT: linalg.yield %[[T2]]
// CHECK: bufferization.materialize_in_destination %[[EP]] in restrict writable %[[C]]
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @alpha_beta(%A0: memref<?xf32>, %B0: memref<?xf32>, %C0: memref<?xf32>, %M: index, %N: index, %K: index,
                         %alpha: f32, %beta: f32) kernel attributes {ks.raised} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %zero = arith.constant 0.0 : f32
      %A = memref.reinterpret_cast %A0 to offset: [0], sizes: [%K, %M], strides: [%M, 1] : memref<?xf32> to memref<?x?xf32, strided<[?, 1]>>
      %B = memref.reinterpret_cast %B0 to offset: [0], sizes: [%N, %K], strides: [%K, 1] : memref<?xf32> to memref<?x?xf32, strided<[?, 1]>>
      %C = memref.reinterpret_cast %C0 to offset: [0], sizes: [%N, %M], strides: [%M, 1] : memref<?xf32> to memref<?x?xf32, strided<[?, 1]>>
      scf.forall (%j, %i) in (%N, %M) {
        %acc = scf.for %p = %c0 to %K step %c1 iter_args(%s = %zero) -> (f32) {
          %a = memref.load %A[%p, %i] : memref<?x?xf32, strided<[?, 1]>>
          %b = memref.load %B[%j, %p] : memref<?x?xf32, strided<[?, 1]>>
          %m = arith.mulf %a, %b : f32
          %s2 = arith.addf %s, %m : f32
          scf.yield %s2 : f32
        }
        %old = memref.load %C[%j, %i] : memref<?x?xf32, strided<[?, 1]>>
        %t0 = arith.mulf %alpha, %acc : f32
        %t1 = arith.mulf %beta, %old : f32
        %t2 = arith.addf %t0, %t1 : f32
        memref.store %t2, %C[%j, %i] : memref<?x?xf32, strided<[?, 1]>>
      }
      gpu.return
    }
  }
}

// -----

// y[i] = sum_k A[i, k] x[k]: linalg.matvec; y[j] = sum_i A[i, j] x[i] (the
// other orientation) has no named op with these operands: a generic.
// CHECK-LABEL: gpu.func @gemv
// CHECK: linalg.matvec
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #{{.*}}, #{{.*}}], iterator_types = ["parallel", "reduction"]}
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @gemv(%A0: memref<?xf32>, %x0: memref<?xf32>, %y0: memref<?xf32>, %z0: memref<?xf32>, %M: index, %N: index) kernel attributes {ks.raised} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %zero = arith.constant 0.0 : f32
      %A = memref.reinterpret_cast %A0 to offset: [0], sizes: [%M, %N], strides: [%N, 1] : memref<?xf32> to memref<?x?xf32, strided<[?, 1]>>
      %xn = memref.reinterpret_cast %x0 to offset: [0], sizes: [%N], strides: [1] : memref<?xf32> to memref<?xf32, strided<[1]>>
      %xm = memref.reinterpret_cast %x0 to offset: [0], sizes: [%M], strides: [1] : memref<?xf32> to memref<?xf32, strided<[1]>>
      %y = memref.reinterpret_cast %y0 to offset: [0], sizes: [%M], strides: [1] : memref<?xf32> to memref<?xf32, strided<[1]>>
      %z = memref.reinterpret_cast %z0 to offset: [0], sizes: [%N], strides: [1] : memref<?xf32> to memref<?xf32, strided<[1]>>
      scf.forall (%i) in (%M) {
        %acc = scf.for %k = %c0 to %N step %c1 iter_args(%s = %zero) -> (f32) {
          %a = memref.load %A[%i, %k] : memref<?x?xf32, strided<[?, 1]>>
          %b = memref.load %xn[%k] : memref<?xf32, strided<[1]>>
          %m = arith.mulf %a, %b : f32
          %s2 = arith.addf %s, %m : f32
          scf.yield %s2 : f32
        }
        memref.store %acc, %y[%i] : memref<?xf32, strided<[1]>>
      }
      scf.forall (%j) in (%N) {
        %acc = scf.for %i = %c0 to %M step %c1 iter_args(%s = %zero) -> (f32) {
          %a = memref.load %A[%i, %j] : memref<?x?xf32, strided<[?, 1]>>
          %b = memref.load %xm[%i] : memref<?xf32, strided<[1]>>
          %m = arith.mulf %a, %b : f32
          %s2 = arith.addf %s, %m : f32
          scf.yield %s2 : f32
        }
        memref.store %acc, %z[%j] : memref<?xf32, strided<[1]>>
      }
      gpu.return
    }
  }
}

// -----

// Nested reduction loops (a convolution's r and s: a window times weights) are
// one generic with two reduction dimensions; a loop-free body is an elementwise
// generic.
// CHECK-LABEL: gpu.func @nest_and_elementwise
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "reduction", "reduction"]
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel"]
// CHECK-NEXT: ^bb0(%[[V:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: math.exp %[[V]]
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @nest_and_elementwise(%in0: memref<?xf32>, %w0: memref<?xf32>, %out0: memref<?xf32>, %N: index) kernel attributes {ks.raised} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c3 = arith.constant 3 : index
      %zero = arith.constant 0.0 : f32
      %in = memref.reinterpret_cast %in0 to offset: [0], sizes: [%N, 3, 3], strides: [1, 1, 1] : memref<?xf32> to memref<?x3x3xf32, strided<[1, 1, 1]>>
      %in1 = memref.reinterpret_cast %in0 to offset: [0], sizes: [%N], strides: [1] : memref<?xf32> to memref<?xf32, strided<[1]>>
      %w = memref.reinterpret_cast %w0 to offset: [0], sizes: [3, 3], strides: [3, 1] : memref<?xf32> to memref<3x3xf32, strided<[3, 1]>>
      %out = memref.reinterpret_cast %out0 to offset: [0], sizes: [%N], strides: [1] : memref<?xf32> to memref<?xf32, strided<[1]>>
      scf.forall (%x) in (%N) {
        %r0 = scf.for %r = %c0 to %c3 step %c1 iter_args(%s0 = %zero) -> (f32) {
          %r1 = scf.for %s = %c0 to %c3 step %c1 iter_args(%s1 = %s0) -> (f32) {
            %v = memref.load %in[%x, %r, %s] : memref<?x3x3xf32, strided<[1, 1, 1]>>
            %wv = memref.load %w[%r, %s] : memref<3x3xf32, strided<[3, 1]>>
            %p = arith.mulf %v, %wv : f32
            %n = arith.addf %s1, %p : f32
            scf.yield %n : f32
          }
          scf.yield %r1 : f32
        }
        memref.store %r0, %out[%x] : memref<?xf32, strided<[1]>>
      }
      scf.forall (%x) in (%N) {
        %v = memref.load %in1[%x] : memref<?xf32, strided<[1]>>
        %e = math.exp %v : f32
        memref.store %e, %out[%x] : memref<?xf32, strided<[1]>>
      }
      gpu.return
    }
  }
}

// -----

// Refusals: the foralls stay, with the reason.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @refusals(%A0: memref<?xf32>, %y0: memref<?xf32>, %N: index) kernel attributes {ks.raised} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %zero = arith.constant 0.0 : f32
      %A = memref.reinterpret_cast %A0 to offset: [0], sizes: [%N, %N], strides: [%N, 1] : memref<?xf32> to memref<?x?xf32, strided<[?, 1]>>
      %y = memref.reinterpret_cast %y0 to offset: [0], sizes: [%N], strides: [1] : memref<?xf32> to memref<?xf32, strided<[1]>>
      // A triangular update: the reduction's bound depends on the output.
      // expected-remark @below {{not raised to linalg: a reduction loop's bound depends on the output index (a triangular update): it stays SIMT}}
      scf.forall (%i) in (%N) {
        %i1 = arith.addi %i, %c1 : index
        %acc = scf.for %j = %c0 to %i1 step %c1 iter_args(%s = %zero) -> (f32) {
          %a = memref.load %A[%i, %j] : memref<?x?xf32, strided<[?, 1]>>
          %s2 = arith.addf %s, %a : f32
          scf.yield %s2 : f32
        }
        memref.store %acc, %y[%i] : memref<?xf32, strided<[1]>>
      }
      // A reduction of one input (a row sum) is not a contraction.
      // expected-remark @below {{not raised to linalg: a reduction of one input is not a contraction: it stays a forall (transform.ks.simt_row_reduction schedules it)}}
      scf.forall (%i) in (%N) {
        %acc = scf.for %j = %c0 to %N step %c1 iter_args(%s = %zero) -> (f32) {
          %a = memref.load %A[%i, %j] : memref<?x?xf32, strided<[?, 1]>>
          %s2 = arith.addf %s, %a : f32
          scf.yield %s2 : f32
        }
        memref.store %acc, %y[%i] : memref<?xf32, strided<[1]>>
      }
      // The reduction reads the buffer it writes.
      // expected-remark @below {{not raised to linalg: the reduction reads the buffer it writes}}
      scf.forall (%i) in (%N) {
        %acc = scf.for %j = %c0 to %N step %c1 iter_args(%s = %zero) -> (f32) {
          %a = memref.load %y[%j] : memref<?xf32, strided<[1]>>
          %b = memref.load %A[%i, %j] : memref<?x?xf32, strided<[?, 1]>>
          %ab = arith.mulf %a, %b : f32
          %s2 = arith.addf %s, %ab : f32
          scf.yield %s2 : f32
        }
        memref.store %acc, %y[%i] : memref<?xf32, strided<[1]>>
      }
      // Two outputs per iteration.
      // expected-remark @below {{not raised to linalg: the loop stores more than one value}}
      scf.forall (%i) in (%N) {
        memref.store %zero, %y[%i] : memref<?xf32, strided<[1]>>
        memref.store %zero, %A[%i, %i] : memref<?x?xf32, strided<[?, 1]>>
      }
      // A store that does not cover the iteration space once.
      // expected-remark @below {{not raised to linalg: the store's indices are not the loop's variables (each exactly once)}}
      scf.forall (%i, %j) in (%N, %N) {
        memref.store %zero, %A[%i, %i] : memref<?x?xf32, strided<[?, 1]>>
      }
      gpu.return
    }
  }
}
