// RUN: ks-translate --import-cuda %s --no-locations | FileCheck %s
// RUN: ks-translate --import-cuda %s -o %t.mlir
// RUN: ks-opt %t.mlir --kernelskill-lower="ptx=%t.ptx" -o /dev/null
// RUN: %if ptxas %{ %ptxas --gpu-name=sm_90 %t.ptx -o %t.cubin %}
// RUN: ks-translate --export-cuda %t.mlir -o %t.out.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_90 -c %t.out.cu -o %t.o %}
// y = A^T x, one thread per column (coalesced reads of A).
// CHECK-LABEL: gpu.func @gemv_cols
// CHECK: scf.while
__global__ void gemv_cols(const float *A, const float *x, float *y, int m, int n) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (col < n) {
    float acc = 0.f;
    for (int i = 0; i < m; ++i)
      acc += A[i * n + col] * x[i];
    y[col] = acc;
  }
}
