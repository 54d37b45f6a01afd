// RUN: ks-translate --import-cuda %s --no-locations | FileCheck %s
// RUN: ks-translate --import-cuda %s -o %t.mlir
// RUN: ks-opt %t.mlir --kernelskill-lower="ptx=%t.ptx" -o /dev/null
// RUN: %if ptxas %{ %ptxas --gpu-name=sm_90 %t.ptx -o %t.cubin %}
// RUN: ks-translate --export-cuda %t.mlir -o %t.out.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_90 -c %t.out.cu -o %t.o %}
// CHECK-LABEL: gpu.func @reduce_sum
// CHECK-SAME: workgroup(%[[SH:.*]] : memref<256xf32, #gpu.address_space<workgroup>> {ks.name = "partial"})
// CHECK: memref.store {{.*}}, %[[SH]]
// CHECK: gpu.barrier
// CHECK: arith.shrui
// CHECK: memref.atomic_rmw addf

// Block-level sum reduction in shared memory, then one atomicAdd per block.
#define BLOCK 256
__global__ void reduce_sum(const float *in, float *out, int n) {
  __shared__ float partial[BLOCK];
  unsigned tid = threadIdx.x;
  float sum = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    sum += in[i];
  partial[tid] = sum;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s)
      partial[tid] += partial[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    atomicAdd(out, partial[0]);
}
