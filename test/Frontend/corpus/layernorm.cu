// RUN: ks-translate --import-cuda %s --no-locations | FileCheck %s
// RUN: ks-translate --import-cuda %s -o %t.mlir
// RUN: ks-opt %t.mlir --kernelskill-lower="ptx=%t.ptx" -o /dev/null
// RUN: %if ptxas %{ %ptxas --gpu-name=sm_90 %t.ptx -o %t.cubin %}
// RUN: ks-translate --export-cuda %t.mlir -o %t.out.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_90 -c %t.out.cu -o %t.o %}
// LayerNorm, one thread per row: mean, variance, normalize, scale and shift.
// CHECK-LABEL: gpu.func @layernorm
// CHECK: arith.divf
// CHECK: math.rsqrt
__global__ void layernorm(const float *x, const float *gamma, const float *beta, float *y,
                          int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  float mean = 0.f, var = 0.f;
  for (int c = 0; c < cols; ++c) mean += x[r * cols + c];
  mean /= cols;
  for (int c = 0; c < cols; ++c) { float d = x[r * cols + c] - mean; var += d * d; }
  float inv = rsqrtf(var / cols + 1e-5f);
  for (int c = 0; c < cols; ++c)
    y[r * cols + c] = (x[r * cols + c] - mean) * inv * gamma[c] + beta[c];
}
