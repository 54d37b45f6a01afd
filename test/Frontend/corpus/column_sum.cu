// RUN: ks-translate --import-cuda %s --no-locations | FileCheck %s
// RUN: ks-translate --import-cuda %s -o %t.mlir
// RUN: ks-opt %t.mlir --kernelskill-lower="ptx=%t.ptx" -o /dev/null
// RUN: %if ptxas %{ %ptxas --gpu-name=sm_90 %t.ptx -o %t.cubin %}
// RUN: ks-translate --export-cuda %t.mlir -o %t.out.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_90 -c %t.out.cu -o %t.o %}
// Column sums, one thread per column (coalesced across the warp).
// CHECK-LABEL: gpu.func @column_sum
// CHECK: scf.while
// CHECK: arith.addf
__global__ void column_sum(const float *x, float *sums, int rows, int cols) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= cols) return;
  float s = 0.f;
  for (int r = 0; r < rows; ++r) s += x[r * cols + c];
  sums[c] = s;
}
