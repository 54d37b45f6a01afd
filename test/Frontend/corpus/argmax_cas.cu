// RUN: ks-translate --import-cuda %s --no-locations | FileCheck %s
// RUN: ks-translate --import-cuda %s -o %t.mlir
// RUN: ks-opt %t.mlir --kernelskill-lower="ptx=%t.ptx" -o /dev/null
// RUN: %if ptxas %{ %ptxas --gpu-name=sm_90 %t.ptx -o %t.cubin %}
// RUN: ks-translate --export-cuda %t.mlir -o %t.out.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_90 -c %t.out.cu -o %t.o %}
// Global argmax of non-negative ints via atomicMax and an atomicCAS loop.
// CHECK-LABEL: gpu.func @argmax
// CHECK: memref.atomic_rmw maxs
// CHECK: memref.generic_atomic_rmw
__global__ void argmax(const int *x, int *best, int *where, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int v = x[i];
  atomicMax(best, v);
  int old = atomicCAS(where, -1, i);
  (void)old;
}
