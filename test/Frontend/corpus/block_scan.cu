// RUN: ks-translate --import-cuda %s --no-locations | FileCheck %s
// RUN: ks-translate --import-cuda %s -o %t.mlir
// RUN: ks-opt %t.mlir --kernelskill-lower="ptx=%t.ptx" -o /dev/null
// RUN: %if ptxas %{ %ptxas --gpu-name=sm_90 %t.ptx -o %t.cubin %}
// RUN: ks-translate --export-cuda %t.mlir -o %t.out.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_90 -c %t.out.cu -o %t.o %}
// Inclusive block scan (Hillis-Steele), double-buffered in shared memory.
// CHECK-LABEL: gpu.func @block_scan
// CHECK: gpu.barrier
// CHECK: scf.while
__global__ void block_scan(const int *in, int *out, int n) {
  __shared__ int buf[2][512];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  int cur = 0;
  buf[0][t] = i < n ? in[i] : 0;
  __syncthreads();
  for (int off = 1; off < blockDim.x; off *= 2) {
    int v = buf[cur][t];
    if (t >= off) v += buf[cur][t - off];
    buf[1 - cur][t] = v;
    cur = 1 - cur;
    __syncthreads();
  }
  if (i < n) out[i] = buf[cur][t];
}
