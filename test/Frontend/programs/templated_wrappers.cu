// Toolkit-sample style: a kernel template and a host wrapper template,
// instantiated for two element types by main; each instantiation of the
// wrapper is its own launcher, launching the matching kernel.
// RUN: ks-translate --import-cuda %s --no-pch --no-locations -o - 2>/dev/null | FileCheck %s
#include <cuda_runtime.h>

template <typename T, int BLOCK> __global__ void blockSum(const T *in, T *out, int n) {
  __shared__ T s[BLOCK];
  int i = blockIdx.x * BLOCK + threadIdx.x;
  s[threadIdx.x] = i < n ? in[i] : T(0);
  __syncthreads();
  for (int k = BLOCK / 2; k > 0; k /= 2) {
    if (threadIdx.x < k)
      s[threadIdx.x] += s[threadIdx.x + k];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    atomicAdd(out, s[0]);
}

template <typename T, int BLOCK = 256> void sum(const T *in, T *out, int n) {
  cudaMemset(out, 0, sizeof(T));
  blockSum<T, BLOCK><<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(in, out, n);
}

int main() {
  const int n = 100000;
  float *xf, *sf;
  int *xi, *si;
  cudaMalloc(&xf, n * sizeof(float));
  cudaMalloc(&sf, sizeof(float));
  cudaMalloc(&xi, n * sizeof(int));
  cudaMalloc(&si, sizeof(int));
  sum(xf, sf, n);
  sum<int, 128>(xi, si, n);
  return 0;
}

// CHECK-DAG: gpu.func @blockSum_float_256(%{{.*}}: memref<?xf32>
// CHECK-DAG: gpu.func @blockSum_int_128(%{{.*}}: memref<?xi32>
// CHECK-DAG: func.func @sum_float_256(
// CHECK-DAG: gpu.launch_func @kernels::@blockSum_float_256
// CHECK-DAG: func.func @sum_int_128(
// CHECK-DAG: gpu.launch_func @kernels::@blockSum_int_128
