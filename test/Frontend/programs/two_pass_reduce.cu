// A two-pass reduction as sample programs write it: a CUDA_CHECK macro
// around every runtime call, block partial sums then one block for the
// final sum, the dynamic shared memory size computed on the host, a helper
// that picks the grid. The error-checking helper and main's I/O are
// skipped; both launches keep their order and their shared memory size.
// RUN: ks-translate --import-cuda %s --no-pch --no-locations -o - 2> %t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                            \
  do {                                                                              \
    cudaError_t err_ = (call);                                                      \
    if (err_ != cudaSuccess) {                                                      \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_)); \
      exit(1);                                                                      \
    }                                                                               \
  } while (0)

__global__ void partialSums(const float *x, float *partial, int n) {
  extern __shared__ float s[];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x] = i < n ? x[i] : 0.0f;
  __syncthreads();
  for (int k = blockDim.x / 2; k > 0; k >>= 1) {
    if (threadIdx.x < k)
      s[threadIdx.x] += s[threadIdx.x + k];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    partial[blockIdx.x] = s[0];
}

static void checkLast(const char *what) {
  cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess)
    printf("%s: %s\n", what, cudaGetErrorString(err));
}

int main() {
  const int n = 1 << 22;
  const int threads = 512;
  const int blocks = (n + threads - 1) / threads;
  float *x, *partial, *total;
  CUDA_CHECK(cudaMalloc(&x, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&partial, blocks * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&total, sizeof(float)));
  partialSums<<<blocks, threads, threads * sizeof(float)>>>(x, partial, n);
  checkLast("partialSums");
  partialSums<<<1, 1024, 1024 * sizeof(float)>>>(partial, total, blocks);
  checkLast("final");
  float result;
  CUDA_CHECK(cudaMemcpy(&result, total, sizeof(float), cudaMemcpyDeviceToHost));
  printf("%f\n", result);
  return 0;
}

// CHECK-LABEL: func.func @main(
// CHECK-SAME: %[[X:[^:]*]]: memref<?xf32> {ks.allocated, ks.name = "x", ks.scratch}, %[[P:[^:]*]]: memref<?xf32> {ks.allocated, ks.name = "partial", ks.scratch}, %[[T:[^:]*]]: memref<?xf32> {ks.allocated, ks.name = "total"})
// CHECK-DAG: %[[S1:.*]] = arith.constant 2048 : i32
// CHECK-DAG: %[[S2:.*]] = arith.constant 4096 : i32
// CHECK-DAG: %[[NB:.*]] = arith.constant 8192 : i32
// CHECK: gpu.launch_func @kernels::@partialSums {{.*}} dynamic_shared_memory_size %[[S1]] args(%[[X]] : memref<?xf32>, %[[P]] : memref<?xf32>
// CHECK-NEXT: gpu.launch_func @kernels::@partialSums {{.*}} dynamic_shared_memory_size %[[S2]] args(%[[P]] : memref<?xf32>, %[[T]] : memref<?xf32>, %[[NB]] : i32)
// CHECK-NEXT: return

// REMARK: remark: host function 'checkLast' launches no kernel: skipped
