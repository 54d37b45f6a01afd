// Toolkit-sample style (after the CUDA samples' matrixMul): a kernel template
// on the block size with 2-D shared tiles declared in the loop, a helper
// header of device functions and error-check macros, a host function that
// takes its sizes as dim3 by value and launches the instance the block size
// selects. The dim3 members it reads become named launcher parameters.
// RUN: ks-translate --import-cuda %s --no-pch --no-locations -o %t.mlir 2> %t.remarks
// RUN: FileCheck %s < %t.mlir
// RUN: FileCheck %s --check-prefix=REMARK --implicit-check-not=remark: < %t.remarks
#include <cstdio>
#include <cuda_runtime.h>
#include "include/sample_helpers.cuh"

template <int BLOCK_SIZE>
__global__ void MatrixMulCUDA(float *C, const float *A, const float *B, int wA, int wB) {
  int bx = blockIdx.x, by = blockIdx.y, tx = threadIdx.x, ty = threadIdx.y;
  int aBegin = wA * BLOCK_SIZE * by, aEnd = aBegin + wA - 1, aStep = BLOCK_SIZE;
  int bBegin = BLOCK_SIZE * bx, bStep = BLOCK_SIZE * wB;
  float Csub = 0;
  for (int a = aBegin, b = bBegin; a <= aEnd; a += aStep, b += bStep) {
    __shared__ float As[BLOCK_SIZE][BLOCK_SIZE];
    __shared__ float Bs[BLOCK_SIZE][BLOCK_SIZE];
    As[ty][tx] = A[a + wA * ty + tx];
    Bs[ty][tx] = B[b + wB * ty + tx];
    __syncthreads();
#pragma unroll
    for (int k = 0; k < BLOCK_SIZE; ++k)
      Csub = fma_accumulate(Csub, As[ty][k], Bs[k][tx]);
    __syncthreads();
  }
  int c = wB * BLOCK_SIZE * by + BLOCK_SIZE * bx;
  C[c + wB * ty + tx] = Csub;
}

int MatrixMultiply(int block_size, dim3 dimsA, dim3 dimsB, float *d_A, float *d_B, float *d_C) {
  dim3 threads(block_size, block_size);
  dim3 grid(dimsB.x / threads.x, dimsA.y / threads.y);
  if (block_size == 16)
    MatrixMulCUDA<16><<<grid, threads>>>(d_C, d_A, d_B, dimsA.x, dimsB.x);
  else
    MatrixMulCUDA<32><<<grid, threads>>>(d_C, d_A, d_B, dimsA.x, dimsB.x);
  checkCudaErrors(cudaDeviceSynchronize());
  return 0;
}

int main(int argc, char **argv) {
  int block_size = 32;
  dim3 dimsA(5 * 2 * block_size, 5 * 2 * block_size, 1);
  dim3 dimsB(5 * 4 * block_size, 5 * 2 * block_size, 1);
  float *d_A, *d_B, *d_C;
  checkCudaErrors(cudaMalloc(&d_A, dimsA.x * dimsA.y * sizeof(float)));
  checkCudaErrors(cudaMalloc(&d_B, dimsB.x * dimsB.y * sizeof(float)));
  checkCudaErrors(cudaMalloc(&d_C, dimsB.x * dimsA.y * sizeof(float)));
  return MatrixMultiply(block_size, dimsA, dimsB, d_A, d_B, d_C);
}

// CHECK-LABEL: gpu.func @MatrixMulCUDA_16
// CHECK-SAME: workgroup(%{{.*}} : memref<16x16xf32, #gpu.address_space<workgroup>> {ks.name = "As"}, %{{.*}} : memref<16x16xf32, #gpu.address_space<workgroup>> {ks.name = "Bs"})
// CHECK-LABEL: gpu.func @MatrixMulCUDA_32
// CHECK-SAME: memref<32x32xf32
// CHECK-LABEL: func.func @MatrixMultiply(
// CHECK-SAME: %[[BS:[^:]*]]: i32 {ks.name = "block_size"}
// CHECK-SAME: %[[BX:[^:]*]]: i32 {ks.host_value, ks.name = "dimsB_x"}, %[[AY:[^:]*]]: i32 {ks.host_value, ks.name = "dimsA_y"}, %[[AX:[^:]*]]: i32 {ks.host_value, ks.name = "dimsA_x"})
// CHECK: arith.divui %[[BX]]
// CHECK: arith.divui %[[AY]]
// CHECK: scf.if
// CHECK: gpu.launch_func  @kernels::@MatrixMulCUDA_16 {{.*}} args({{.*}}, %[[AX]] : i32, %[[BX]] : i32)
// CHECK: } else {
// CHECK: gpu.launch_func  @kernels::@MatrixMulCUDA_32 {{.*}} args({{.*}}, %[[AX]] : i32, %[[BX]] : i32)
// REMARK-DAG: sample_helpers.cuh:6:20: remark: host function 'check_result' launches no kernel: skipped
// REMARK-DAG: samples_matrixmul.cu:45:5: remark: host function 'main' launches no kernel: skipped
// REMARK-DAG: samples_matrixmul.cu:36:19: remark: 'dimsB.x' is computed by host code outside the launch slice of 'MatrixMultiply': the launcher takes it as parameter 'dimsB_x'
// REMARK-DAG: samples_matrixmul.cu:36:40: remark: 'dimsA.y' is computed by host code outside the launch slice of 'MatrixMultiply': the launcher takes it as parameter 'dimsA_y'
// REMARK-DAG: samples_matrixmul.cu:38:63: remark: 'dimsA.x' is computed by host code outside the launch slice of 'MatrixMultiply': the launcher takes it as parameter 'dimsA_x'
