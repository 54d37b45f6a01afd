// RUN: ks-translate --import-cuda %s --no-locations | FileCheck %s
// RUN: ks-translate --import-cuda %s -o %t.mlir
// RUN: ks-opt %t.mlir --kernelskill-lower="ptx=%t.ptx" -o /dev/null
// RUN: %if ptxas %{ %ptxas --gpu-name=sm_90 %t.ptx -o %t.cubin %}
// RUN: ks-translate --export-cuda %t.mlir -o %t.out.cu
// RUN: FileCheck %s --check-prefix=CUDA < %t.out.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_90 -c %t.out.cu -o %t.o %}
// Paired halves, two values per 32-bit word as vectorized half kernels
// keep them: __half2 and __nv_bfloat162 are vector<2xf16> and
// vector<2xbf16>, their arithmetic vector arithmetic.
// CHECK-LABEL: gpu.func @axpy_half2
// CHECK-SAME: memref<?xvector<2xf16>>
// CHECK: vector.broadcast {{.*}} : f16 to vector<2xf16>
// CHECK: math.fma {{.*}} : vector<2xf16>
// CHECK-LABEL: gpu.func @mix_bf16x2
// CHECK: vector.from_elements {{.*}} : vector<2xbf16>
// CHECK: arith.extf {{.*}} : vector<2xbf16> to vector<2xf32>
// CUDA: __half2 *y
// CUDA: __hfma2(make_half2(
// CUDA: __hmax(
// CUDA: __bfloat1622float2(
#include <cuda_bf16.h>
#include <cuda_fp16.h>

// y = a * x + y on pairs, and each pair's larger value.
__global__ void axpy_half2(const __half2 *x, __half2 *y, __half *maxes, float a, int n2) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n2) {
    __half2 v = __hfma2(__float2half2_rn(a), x[i], y[i]);
    y[i] = v;
    maxes[i] = __hmax(__low2half(v), __high2half(v));
  }
}

// Swap each pair, add a pair built from two floats, and widen to float.
__global__ void mix_bf16x2(const __nv_bfloat162 *x, __nv_bfloat162 *y, float *sums, float b, int n2) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n2) {
    __nv_bfloat162 v = x[i];
    __nv_bfloat162 w = __hadd2(make_bfloat162(v.y, v.x), __floats2bfloat162_rn(b, -b));
    y[i] = w;
    float2 f = __bfloat1622float2(w);
    sums[i] = f.x + f.y + __low2float(v);
  }
}
