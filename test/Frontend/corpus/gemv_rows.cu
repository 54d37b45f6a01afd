// RUN: ks-translate --import-cuda %s --no-locations | FileCheck %s
// RUN: ks-translate --import-cuda %s -o %t.mlir
// RUN: ks-opt %t.mlir --kernelskill-lower="ptx=%t.ptx" -o /dev/null
// RUN: %if ptxas %{ %ptxas --gpu-name=sm_90 %t.ptx -o %t.cubin %}
// RUN: ks-translate --export-cuda %t.mlir -o %t.out.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_90 -c %t.out.cu -o %t.o %}
// y = A x, one thread per row (strided reads of A across the warp).
// CHECK-LABEL: gpu.func @gemv_rows
// CHECK: scf.while
// CHECK: arith.mulf
__global__ void gemv_rows(const float *A, const float *x, float *y, int m, int n) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= m) return;
  float acc = 0.f;
  for (int j = 0; j < n; ++j)
    acc += A[row * n + j] * x[j];
  y[row] = acc;
}
