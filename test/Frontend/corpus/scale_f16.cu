// RUN: ks-translate --import-cuda %s --no-locations | FileCheck %s
// RUN: ks-translate --import-cuda %s -o %t.mlir
// RUN: ks-opt %t.mlir --kernelskill-lower="ptx=%t.ptx" -o /dev/null
// RUN: %if ptxas %{ %ptxas --gpu-name=sm_90 %t.ptx -o %t.cubin %}
// RUN: ks-translate --export-cuda %t.mlir -o %t.out.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_90 -c %t.out.cu -o %t.o %}
// An f16 kernel: __half buffers, conversions, __hmul, half operators.
// CHECK-LABEL: gpu.func @scale_f16
// CHECK-SAME: memref<?xf16>
// CHECK: arith.extf {{.*}} : f16 to f32
// CHECK: arith.truncf {{.*}} : f32 to f16
// CHECK: arith.mulf {{.*}} : f16
#include <cuda_fp16.h>
__global__ void scale_f16(const __half *x, const __half *g, __half *y, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    __half s = __float2half(a * __half2float(x[i]));
    y[i] = __hmul(s, g[i]) + s;
  }
}
