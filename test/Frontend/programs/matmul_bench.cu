// A matrix-multiply benchmark: a tiled template kernel instantiated with a
// TILE macro, a 2-D grid, a warm-up launch and a timed loop of REPS
// launches, then a CPU spot check. The loop stays a loop.
// RUN: ks-translate --import-cuda %s --no-pch --no-locations -o - -- -DTILE=16 -DREPS=20 2>/dev/null | FileCheck %s
#include <cstdio>
#include <cuda_runtime.h>

#ifndef TILE
#define TILE 32
#endif
#ifndef REPS
#define REPS 10
#endif

template <int T> __global__ void matmul(const float *A, const float *B, float *C, int n) {
  __shared__ float As[T][T], Bs[T][T];
  int row = blockIdx.y * T + threadIdx.y, col = blockIdx.x * T + threadIdx.x;
  float acc = 0.0f;
  for (int k0 = 0; k0 < n; k0 += T) {
    As[threadIdx.y][threadIdx.x] = row < n && k0 + threadIdx.x < n ? A[row * n + k0 + threadIdx.x] : 0.0f;
    Bs[threadIdx.y][threadIdx.x] = col < n && k0 + threadIdx.y < n ? B[(k0 + threadIdx.y) * n + col] : 0.0f;
    __syncthreads();
    for (int k = 0; k < T; ++k)
      acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
    __syncthreads();
  }
  if (row < n && col < n)
    C[row * n + col] = acc;
}

float spotCheck(const float *A, const float *B, const float *C, int n, int r, int c) {
  float s = 0;
  for (int k = 0; k < n; ++k)
    s += A[r * n + k] * B[k * n + c];
  return s - C[r * n + c];
}

int main() {
  const int n = 1000;
  float *A, *B, *C;
  cudaMalloc(&A, n * n * sizeof(float));
  cudaMalloc(&B, n * n * sizeof(float));
  cudaMalloc(&C, n * n * sizeof(float));
  dim3 block(TILE, TILE);
  dim3 grid((n + TILE - 1) / TILE, (n + TILE - 1) / TILE);
  matmul<TILE><<<grid, block>>>(A, B, C, n); // warm-up
  cudaEvent_t t0, t1;
  cudaEventCreate(&t0);
  cudaEventCreate(&t1);
  cudaEventRecord(t0);
  for (int r = 0; r < REPS; ++r)
    matmul<TILE><<<grid, block>>>(A, B, C, n);
  cudaEventRecord(t1);
  cudaEventSynchronize(t1);
  float ms;
  cudaEventElapsedTime(&ms, t0, t1);
  printf("%.3f ms per launch\n", ms / REPS);
  return 0;
}

// CHECK: gpu.func @matmul_16(
// CHECK-LABEL: func.func @main(
// CHECK-SAME: %[[A:[^:]*]]: memref<?xf32> {ks.allocated, ks.name = "A", ks.scratch}, %[[B:[^:]*]]: memref<?xf32> {ks.allocated, ks.name = "B", ks.scratch}, %[[C:[^:]*]]: memref<?xf32> {ks.allocated, ks.name = "C", ks.scratch})
// CHECK-DAG: %[[G:.*]] = arith.constant 63 : index
// CHECK-DAG: %[[T:.*]] = arith.constant 16 : index
// CHECK-DAG: %[[REPS:.*]] = arith.constant 20 : i32
// CHECK: gpu.launch_func @kernels::@matmul_16 blocks in (%[[G]], %[[G]], %{{.*}}) threads in (%[[T]], %[[T]], %{{.*}}) args(%[[A]] : memref<?xf32>, %[[B]] : memref<?xf32>, %[[C]] : memref<?xf32>
// CHECK-NEXT: scf.for %{{.*}} = %{{.*}} to %[[REPS]]
// CHECK-NEXT: gpu.launch_func @kernels::@matmul_16 blocks in (%[[G]], %[[G]], %{{.*}}) threads in (%[[T]], %[[T]]
