// RUN: ks-translate --import-cuda %s --no-locations | FileCheck %s
// RUN: ks-translate --import-cuda %s -o %t.mlir
// RUN: ks-opt %t.mlir --kernelskill-lower="ptx=%t.ptx" -o /dev/null
// RUN: %if ptxas %{ %ptxas --gpu-name=sm_90 %t.ptx -o %t.cubin %}
// RUN: ks-translate --export-cuda %t.mlir -o %t.out.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_90 -c %t.out.cu -o %t.o %}
// Row argmax, one thread per row, unsigned indices and a strict comparison.
// CHECK-LABEL: gpu.func @row_argmax
// CHECK: arith.cmpf ogt
// CHECK: arith.select
__global__ void row_argmax(const float *x, unsigned *idx, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  float best = x[r * cols];
  unsigned at = 0;
  for (int c = 1; c < cols; ++c) {
    float v = x[r * cols + c];
    bool better = v > best;
    best = better ? v : best;
    at = better ? (unsigned)c : at;
  }
  idx[r] = at;
}
