// RUN: ks-opt %s -split-input-file | FileCheck %s
// RUN: ks-opt %s -split-input-file | ks-opt -split-input-file | FileCheck %s

// CHECK-LABEL: gpu.func @gemm
// CHECK-SAME: ks.workload = #ks.workload<scalars = {K = 4096 : i32, M = 4096 : i32, N = 4096 : i32}, buffers = {A = 16777216 : i64, B = 16777216 : i64, C = 16777216 : i64}>
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @gemm(%A: memref<?xf32>, %B: memref<?xf32>, %C: memref<?xf32>, %M: i32, %N: i32, %K: i32) kernel
        attributes {ks.workload = #ks.workload<scalars = {M = 4096 : i32, N = 4096 : i32, K = 4096 : i32},
                                               buffers = {A = 16777216, B = 16777216, C = 16777216}>} {
      gpu.return
    }
  }
}

// -----

// Float scalars and empty dictionaries are fine.
// CHECK-LABEL: func.func @saxpy
// CHECK-SAME: #ks.workload<scalars = {alpha = 2.500000e+00 : f32, n = 1000 : i32}, buffers = {}>
func.func @saxpy() attributes {ks.workload = #ks.workload<scalars = {n = 1000 : i32, alpha = 2.5 : f32}, buffers = {}>} {
  return
}
