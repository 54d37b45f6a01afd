// A library header: kernels and the host wrappers that launch them.
#pragma once
#include <cuda_runtime.h>

namespace vecops {

__global__ void scaleKernel(float *x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= a;
}

template <int BLOCK> __global__ void sumBlocks(const float *x, float *partial, int n) {
  __shared__ float s[BLOCK];
  int i = blockIdx.x * BLOCK + threadIdx.x;
  s[threadIdx.x] = i < n ? x[i] : 0.0f;
  __syncthreads();
  for (int k = BLOCK / 2; k > 0; k /= 2) {
    if (threadIdx.x < k)
      s[threadIdx.x] += s[threadIdx.x + k];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    partial[blockIdx.x] = s[0];
}

inline int blocksFor(int n, int block) { return (n + block - 1) / block; }

/// Returns the launch's error code, as library wrappers do.
inline cudaError_t scale(float *x, float a, int n, cudaStream_t stream = 0) {
  scaleKernel<<<(n + 255) / 256, 256, 0, stream>>>(x, a, n);
  return cudaGetLastError();
}

template <int BLOCK> void sum(const float *x, float *partial, int n) {
  sumBlocks<BLOCK><<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(x, partial, n);
}

} // namespace vecops
