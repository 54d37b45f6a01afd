// RUN: ks-translate --import-cuda %s --no-locations | FileCheck %s
// RUN: ks-translate --import-cuda %s -o %t.mlir
// RUN: ks-opt %t.mlir --kernelskill-lower="ptx=%t.ptx" -o /dev/null
// RUN: %if ptxas %{ %ptxas --gpu-name=sm_90 %t.ptx -o %t.cubin %}
// RUN: ks-translate --export-cuda %t.mlir -o %t.out.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_90 -c %t.out.cu -o %t.o %}
// Row softmax, one thread per row: max, sum of exponentials, normalize.
// CHECK-LABEL: gpu.func @softmax_rows
// CHECK: arith.maxnumf
// CHECK: math.exp
// CHECK: arith.divf
__global__ void softmax_rows(const float *x, float *y, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  const float *row = x + r * cols;
  float m = -INFINITY;
  for (int c = 0; c < cols; ++c) m = fmaxf(m, row[c]);
  float s = 0.f;
  for (int c = 0; c < cols; ++c) s += expf(row[c] - m);
  for (int c = 0; c < cols; ++c) y[r * cols + c] = expf(row[c] - m) / s;
}
