// RUN: ks-translate --import-cuda %s --no-locations | FileCheck %s
// RUN: ks-translate --import-cuda %s -o %t.mlir
// RUN: ks-opt %t.mlir --kernelskill-lower="ptx=%t.ptx" -o /dev/null
// RUN: %if ptxas %{ %ptxas --gpu-name=sm_90 %t.ptx -o %t.cubin %}
// RUN: ks-translate --export-cuda %t.mlir -o %t.out.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_90 -c %t.out.cu -o %t.o %}
// A bf16 kernel: __nv_bfloat16 buffers, fp32 accumulation.
// CHECK-LABEL: gpu.func @axpy_bf16
// CHECK-SAME: memref<?xbf16>
// CHECK: arith.extf {{.*}} : bf16 to f32
// CHECK: arith.truncf {{.*}} : f32 to bf16
#include <cuda_bf16.h>
__global__ void axpy_bf16(const __nv_bfloat16 *x, __nv_bfloat16 *y, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = __float2bfloat16(a * __bfloat162float(x[i]) + __bfloat162float(y[i]));
}
