// RUN: ks-translate --import-cuda %s --no-locations | FileCheck %s
// RUN: ks-translate --import-cuda %s -o %t.mlir
// RUN: ks-opt %t.mlir --kernelskill-lower="ptx=%t.ptx" -o /dev/null
// RUN: %if ptxas %{ %ptxas --gpu-name=sm_90 %t.ptx -o %t.cubin %}
// RUN: ks-translate --export-cuda %t.mlir -o %t.out.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_90 -c %t.out.cu -o %t.o %}
// Lower-triangular matrix-vector product: the trip count depends on the row.
// CHECK-LABEL: gpu.func @tril_matvec
// CHECK: scf.while
__global__ void tril_matvec(const float *L, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float acc = 0.f;
  for (int j = 0; j <= i; ++j) acc += L[i * n + j] * x[j];
  y[i] = acc;
}
