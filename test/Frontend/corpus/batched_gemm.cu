// RUN: ks-translate --import-cuda %s --no-locations | FileCheck %s
// RUN: ks-translate --import-cuda %s -o %t.mlir
// RUN: ks-opt %t.mlir --kernelskill-lower="ptx=%t.ptx" -o /dev/null
// RUN: %if ptxas %{ %ptxas --gpu-name=sm_90 %t.ptx -o %t.cubin %}
// RUN: ks-translate --export-cuda %t.mlir -o %t.out.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_90 -c %t.out.cu -o %t.o %}
// Batched naive GEMM over blockIdx.z, with size_t batch offsets.
// CHECK-LABEL: gpu.func @batched_gemm
// CHECK: gpu.block_id  z
// CHECK: arith.extsi {{.*}} : i32 to i64
__global__ void batched_gemm(const float *A, const float *B, float *C, int M, int N, int K) {
  size_t batch = blockIdx.z;
  int row = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= M || col >= N) return;
  const float *a = A + batch * M * K;
  const float *b = B + batch * K * N;
  float acc = 0;
  for (int p = 0; p < K; ++p) acc += a[row * K + p] * b[p * N + col];
  C[batch * M * N + row * N + col] = acc;
}
