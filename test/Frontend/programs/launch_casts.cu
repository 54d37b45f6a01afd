// Launch-site casts of buffers to CUDA's vector types: the buffer
// parameter takes the type the kernel reads it as.
// RUN: ks-translate --import-cuda %s --no-pch --no-locations -o - | FileCheck %s
#include <cuda_runtime.h>

__global__ void scale4(const float4 *in, float4 *out, float a, int n4) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n4) {
    float4 v = in[i];
    out[i] = make_float4(a * v.x, a * v.y, a * v.z, a * v.w);
  }
}

int main() {
  const int n = 1 << 20;
  float *in, *out;
  cudaMalloc((void **)&in, n * sizeof(float));
  cudaMalloc((void **)&out, n * sizeof(float));
  scale4<<<n / 4 / 256, 256>>>((const float4 *)in, reinterpret_cast<float4 *>(out), 3.0f, n / 4);
  cudaDeviceSynchronize();
  return 0;
}

// CHECK-LABEL: func.func @main(
// CHECK-SAME: %[[IN:[^:]*]]: memref<?xvector<4xf32>> {ks.allocated, ks.name = "in", ks.scratch}, %[[OUT:[^:]*]]: memref<?xvector<4xf32>> {ks.allocated, ks.name = "out", ks.scratch})
// CHECK: gpu.launch_func @kernels::@scale4 {{.*}} args(%[[IN]] : memref<?xvector<4xf32>>, %[[OUT]] : memref<?xvector<4xf32>>
