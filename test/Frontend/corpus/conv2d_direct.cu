// RUN: ks-translate --import-cuda %s --no-locations | FileCheck %s
// RUN: ks-translate --import-cuda %s -o %t.mlir
// RUN: ks-opt %t.mlir --kernelskill-lower="ptx=%t.ptx" -o /dev/null
// RUN: %if ptxas %{ %ptxas --gpu-name=sm_90 %t.ptx -o %t.cubin %}
// RUN: ks-translate --export-cuda %t.mlir -o %t.out.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_90 -c %t.out.cu -o %t.o %}
// Direct 2-D convolution (valid padding) with a small filter, nested loops.
// CHECK-LABEL: gpu.func @conv2d
// CHECK: scf.while
// CHECK: scf.while
// CHECK: arith.mulf
__global__ void conv2d(const float *in, const float *filt, float *out, int h, int w, int k) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  int oh = h - k + 1, ow = w - k + 1;
  if (x >= ow || y >= oh) return;
  float acc = 0.f;
  for (int i = 0; i < k; ++i)
    for (int j = 0; j < k; ++j)
      acc += in[(y + i) * w + (x + j)] * filt[i * k + j];
  out[y * ow + x] = acc;
}
