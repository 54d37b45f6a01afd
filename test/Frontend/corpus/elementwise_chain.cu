// RUN: ks-translate --import-cuda %s --no-locations | FileCheck %s
// RUN: ks-translate --import-cuda %s -o %t.mlir
// RUN: ks-opt %t.mlir --kernelskill-lower="ptx=%t.ptx" -o /dev/null
// RUN: %if ptxas %{ %ptxas --gpu-name=sm_90 %t.ptx -o %t.cubin %}
// RUN: ks-translate --export-cuda %t.mlir -o %t.out.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_90 -c %t.out.cu -o %t.o %}
// A chain of elementwise math, casts, a ternary and compound assignment.
// CHECK-LABEL: gpu.func @gelu_like
// CHECK: math.tanh
// CHECK: arith.sitofp
// CHECK: arith.select
__device__ inline float clamp01(float v) { return v < 0.f ? 0.f : (v > 1.f ? 1.f : v); }
__global__ void gelu_like(const float *x, float *y, int n, int shift) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    float t = tanhf(0.7978845608f * (v + 0.044715f * v * v * v));
    float r = 0.5f * v * (1.f + t);
    r += (float)(i >> shift) * 1e-6f;
    r *= 2.f;
    y[i] = clamp01(r) + (v > 0.f ? sqrtf(v) : -v);
  }
}
