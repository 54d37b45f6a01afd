// RUN: ks-translate --import-cuda %s --no-locations | FileCheck %s
// RUN: ks-translate --import-cuda %s -o %t.mlir
// RUN: ks-opt %t.mlir --kernelskill-lower="ptx=%t.ptx" -o /dev/null
// RUN: %if ptxas %{ %ptxas --gpu-name=sm_90 %t.ptx -o %t.cubin %}
// RUN: ks-translate --export-cuda %t.mlir -o %t.out.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_90 -c %t.out.cu -o %t.o %}
// CHECK-LABEL: gpu.func @naive_gemm
// CHECK-SAME: memref<?xf32> {ks.const, ks.name = "A"}
// CHECK: gpu.block_id  y
// CHECK: scf.if
// CHECK: scf.while
// CHECK: memref.load %arg0
// CHECK: memref.load %arg1
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK: memref.store {{.*}}, %arg2
// CHECK-LABEL: func.func @launch_naive_gemm
// CHECK: arith.addi %arg4, %c15_i32
// CHECK: arith.divui
// CHECK: gpu.launch_func  @kernels::@naive_gemm blocks in (%{{.*}}, %{{.*}}, %c1) threads in (%c16, %c16, %c1)

// Naive fp32 GEMM: one thread per output element.
__global__ void naive_gemm(const float *A, const float *B, float *C, int M, int N, int K) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < M && col < N) {
    float acc = 0.0f;
    for (int p = 0; p < K; ++p)
      acc += A[row * K + p] * B[p * N + col];
    C[row * N + col] = acc;
  }
}

void launch_naive_gemm(const float *A, const float *B, float *C, int M, int N, int K) {
  dim3 block(16, 16);
  dim3 grid((N + block.x - 1) / block.x, (M + block.y - 1) / block.y);
  naive_gemm<<<grid, block>>>(A, B, C, M, N, K);
}
