// RUN: ks-translate --import-cuda %s --no-locations | FileCheck %s
// RUN: ks-translate --import-cuda %s -o %t.mlir
// RUN: ks-opt %t.mlir --kernelskill-lower="ptx=%t.ptx" -o /dev/null 2>&1 | FileCheck %s --check-prefix=PATCH
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %if ptxas %{ %ptxas --gpu-name=sm_90 %t.ptx -o %t.cubin %}
// RUN: ks-translate --export-cuda %t.mlir -o %t.out.cu
// RUN: FileCheck %s --check-prefix=CUDA < %t.out.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_90 -c %t.out.cu -o %t.o %}
// Comparisons of halves, as operators and as cuda_fp16.h's functions
// (ordered, unordered, on both lanes of a pair), negation, |x| and the NaN
// test: arith.cmpf with the function's predicate, negf, math.absf.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

// CHECK-LABEL: gpu.func @half_select
// CHECK: arith.cmpf olt, {{.*}} : f16
// CHECK: arith.negf {{.*}} : f16
// CHECK: math.absf {{.*}} : f16
// CHECK: arith.cmpf ole, {{.*}} : f16
// CHECK: arith.cmpf one, {{.*}} : f16
// CHECK: arith.cmpf uge, {{.*}} : f16
// CHECK: arith.cmpf uno, %[[A:.*]], %[[A]] : f16
// CUDA-LABEL: void half_select(
// CUDA: y[i] = a < [[B:v[0-9]+]] ? -a : __habs([[B]]);
// CUDA: flags[i] = (int)(a <= [[B]]) + (int)(a < [[B]] || a > [[B]]) * 2 + (int)!(a < [[B]]) * 4 + (int)__hisnan(a) * 8;
__global__ void half_select(const __half *x, __half *y, int *flags, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    __half a = x[i], b = i + 1 < n ? x[i + 1] : a;
    y[i] = a < b ? -a : __habs(b);
    flags[i] = __hle(a, b) + 2 * __hne(a, b) + 4 * __hgeu(a, b) + 8 * __hisnan(a);
  }
}

// A pair comparison holds when it holds on both lanes.
// CHECK-LABEL: gpu.func @bf16_pair_select
// CHECK: %[[U0:.*]] = vector.extract %[[U:.*]][0] : bf16 from vector<2xbf16>
// CHECK: %[[V0:.*]] = vector.extract %[[V:.*]][0] : bf16 from vector<2xbf16>
// CHECK: %[[C0:.*]] = arith.cmpf oeq, %[[U0]], %[[V0]] : bf16
// CHECK: %[[C1:.*]] = arith.cmpf oeq, {{.*}} : bf16
// CHECK: arith.andi %[[C0]], %[[C1]] : i1
// CHECK: arith.negf {{.*}} : vector<2xbf16>
// CUDA-LABEL: void bf16_pair_select(
// CUDA: const __nv_bfloat16 [[U0:v[0-9]+]] = u.x;
// CUDA: both[i] = (int)(([[U0]] == {{v[0-9]+}}) & ({{v[0-9]+}} == {{v[0-9]+}}))
// CUDA: q[i] = {{v[0-9]+}} ? -u : -{{v[0-9]+}};
// PATCH: remark: ks-patch-ptx: replaced {{[1-9][0-9]*}} bf16 negation
// PTX-LABEL: .entry bf16_pair_select(
// PTX-NOT: neg.bf16
// Both lanes' sign bits.
// PTX: xor.b32 {{.*}}, 0x80008000;  // ks: was neg.bf16x2
__global__ void bf16_pair_select(const __nv_bfloat162 *p, __nv_bfloat162 *q, int *both, int n2) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n2) {
    __nv_bfloat162 u = p[i], v = i + 1 < n2 ? p[i + 1] : u;
    both[i] = __hbeq2(u, v) + 2 * __hblt2(u, v) + 4 * __hbgeu2(u, v);
    q[i] = __hblt2(u, v) ? __hneg2(u) : -v;
  }
}
