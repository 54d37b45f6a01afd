// RUN: ks-translate --import-cuda %s --no-locations | FileCheck %s
// RUN: ks-translate --import-cuda %s -o %t.mlir
// RUN: ks-opt %t.mlir --kernelskill-lower="ptx=%t.ptx" -o /dev/null
// RUN: %if ptxas %{ %ptxas --gpu-name=sm_90 %t.ptx -o %t.cubin %}
// RUN: ks-translate --export-cuda %t.mlir -o %t.out.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_90 -c %t.out.cu -o %t.o %}
// RMSNorm, one thread per row, with rsqrtf and a pointer that walks the row.
// CHECK-LABEL: gpu.func @rmsnorm
// CHECK: math.rsqrt
__global__ void rmsnorm(const float *x, const float *w, float *y, int rows, int cols, float eps) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  const float *p = x + r * cols;
  float ss = 0.f;
  for (int c = 0; c < cols; ++c, ++p) ss += *p * *p;
  float inv = rsqrtf(ss / cols + eps);
  for (int c = 0; c < cols; ++c) y[r * cols + c] = x[r * cols + c] * inv * w[c];
}
