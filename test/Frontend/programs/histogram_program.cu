// A histogram program: bins cleared with cudaMemset, the grid sized from
// the device's SM count (a struct the runtime fills: host data, so the grid
// becomes a named parameter), shared-memory privatized bins in the kernel.
// RUN: ks-translate --import-cuda %s --no-pch --no-locations --verify-diagnostics -o - | FileCheck %s
#include <cstdio>
#include <cuda_runtime.h>

__global__ void histogram256(const unsigned char *data, unsigned *bins, int n) {
  __shared__ unsigned local[256];
  local[threadIdx.x] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    atomicAdd(&local[data[i]], 1u);
  __syncthreads();
  atomicAdd(&bins[threadIdx.x], local[threadIdx.x]);
}

int main() {
  const int n = 256 << 20;
  unsigned char *data;
  unsigned *bins;
  cudaMalloc(&data, n);
  cudaMalloc(&bins, 256 * sizeof(unsigned));
  cudaMemset(bins, 0, 256 * sizeof(unsigned));
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  int blocks = prop.multiProcessorCount * 8; // expected-remark {{'blocks' is computed by host code outside the launch slice of 'main': the launcher takes it as parameter 'blocks'}}
  histogram256<<<blocks, 256>>>(data, bins, n);
  unsigned h[256];
  cudaMemcpy(h, bins, sizeof(h), cudaMemcpyDeviceToHost);
  printf("%u\\n", h[0]);
  return 0;
}

// CHECK-LABEL: func.func @main(
// CHECK-SAME: %[[BLOCKS:[^:]*]]: i32 {ks.host_value, ks.name = "blocks"}
// CHECK-SAME: %[[DATA:[^:]*]]: memref<?xi8> {ks.allocated, ks.name = "data", ks.scratch}
// CHECK-SAME: %[[BINS:[^:]*]]: memref<?xi32> {ks.allocated, ks.name = "bins"}
// CHECK: %[[G:.*]] = arith.index_castui %[[BLOCKS]] : i32 to index
// CHECK: gpu.launch_func @kernels::@histogram256 blocks in (%[[G]], {{.*}} args(%[[DATA]] : memref<?xi8>, %[[BINS]] : memref<?xi32>
