// RUN: ks-translate --import-cuda %s --no-locations | FileCheck %s
// RUN: ks-translate --import-cuda %s -o %t.mlir
// RUN: ks-opt %t.mlir --kernelskill-lower="ptx=%t.ptx" -o /dev/null
// RUN: %if ptxas %{ %ptxas --gpu-name=sm_90 %t.ptx -o %t.cubin %}
// RUN: ks-translate --export-cuda %t.mlir -o %t.out.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_90 -c %t.out.cu -o %t.o %}
// Block max reduction in dynamically sized shared memory (extern __shared__),
// launched with the size as the third launch argument.
// CHECK-LABEL: gpu.func @block_max
// CHECK: gpu.dynamic_shared_memory
// CHECK: memref.view
// CHECK: gpu.barrier
// CHECK-LABEL: func.func @launch_block_max
// CHECK: gpu.launch_func  @kernels::@block_max {{.*}} dynamic_shared_memory_size
__global__ void block_max(const float *x, float *out, int n) {
  extern __shared__ float cache[];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  cache[t] = i < n ? x[i] : -INFINITY;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s /= 2) {
    if (t < s) cache[t] = fmaxf(cache[t], cache[t + s]);
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = cache[0];
}
void launch_block_max(const float *x, float *out, int n, int threads) {
  block_max<<<(n + threads - 1) / threads, threads, threads * sizeof(float)>>>(x, out, n);
}
