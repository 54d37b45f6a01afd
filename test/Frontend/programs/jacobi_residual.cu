// Benchmark-suite style: Jacobi iterations that alternate their buffers by
// launching twice per iteration (no pointer swap), a residual reduction with
// shared memory and atomics every CHECK_EVERY iterations inside the loop,
// the size and iteration count from -D macros (here -DPOINTS=1000 -DITERS=40).
// RUN: ks-translate --import-cuda %s --no-pch --no-locations --verify-diagnostics -o - -- -DPOINTS=1000 -DITERS=40 | FileCheck %s
#include <cmath>
#include <cstdio>
#include <cuda_runtime.h>
#ifndef POINTS
#define POINTS 1024
#endif
#ifndef ITERS
#define ITERS 100
#endif
#define CHECK_EVERY 10
#define BLOCK 256

__global__ void jacobi(const float *u, float *unew, const float *f, int n, float h2) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i > 0 && i < n - 1)
    unew[i] = 0.5f * (u[i - 1] + u[i + 1] - h2 * f[i]);
}

__global__ void residual(const float *u, const float *f, float *res, int n, float h2) {
  __shared__ float part[BLOCK];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float r = 0.0f;
  if (i > 0 && i < n - 1) {
    float d = u[i - 1] - 2.0f * u[i] + u[i + 1] - h2 * f[i];
    r = d * d;
  }
  part[threadIdx.x] = r;
  __syncthreads();
  for (int s = BLOCK / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) part[threadIdx.x] += part[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(res, part[0]);
}

int main() {
  float *u, *v, *f, *res;
  cudaMalloc(&u, POINTS * sizeof(float));
  cudaMalloc(&v, POINTS * sizeof(float));
  cudaMalloc(&f, POINTS * sizeof(float));
  cudaMalloc(&res, sizeof(float));
  const float h = 1.0f / (POINTS - 1);
  const int blocks = (POINTS + BLOCK - 1) / BLOCK;
  for (int it = 0; it < ITERS; it += 2) {
    jacobi<<<blocks, BLOCK>>>(u, v, f, POINTS, h * h);
    jacobi<<<blocks, BLOCK>>>(v, u, f, POINTS, h * h);
    if (it % CHECK_EVERY == 0) {
      cudaMemset(res, 0, sizeof(float));
      residual<<<blocks, BLOCK>>>(u, f, res, POINTS, h * h);
      float r;
      cudaMemcpy(&r, res, sizeof(float), cudaMemcpyDeviceToHost);
      printf("%d %g\n", it, sqrtf(r));
    }
  }
  return 0;
}

// CHECK-LABEL: gpu.func @jacobi
// CHECK-LABEL: gpu.func @residual
// CHECK-SAME: workgroup(%{{.*}} : memref<256xf32, #gpu.address_space<workgroup>> {ks.name = "part"})
// CHECK: gpu.barrier
// CHECK: memref.atomic_rmw addf
// CHECK-LABEL: func.func @main(
// CHECK-SAME: {ks.allocated, ks.name = "u", ks.scratch}, %{{.*}}: memref<?xf32> {ks.allocated, ks.name = "v", ks.scratch}, %{{.*}}: memref<?xf32> {ks.allocated, ks.name = "f", ks.scratch}, %{{.*}}: memref<?xf32> {ks.allocated, ks.name = "res"})
// CHECK-DAG: %[[N:.*]] = arith.constant 1000 : i32
// CHECK-DAG: %[[ITERS:.*]] = arith.constant 40 : i32
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[ITERS]] step %{{.*}} : i32 {
// CHECK: gpu.launch_func  @kernels::@jacobi {{.*}} args(%arg0 : memref<?xf32>, %arg1 : memref<?xf32>, %arg2 : memref<?xf32>, %[[N]] : i32
// CHECK: gpu.launch_func  @kernels::@jacobi {{.*}} args(%arg1 : memref<?xf32>, %arg0 : memref<?xf32>, %arg2 : memref<?xf32>, %[[N]] : i32
// CHECK: scf.if
// CHECK: gpu.launch_func  @kernels::@residual {{.*}} args(%arg0 : memref<?xf32>, %arg2 : memref<?xf32>, %arg3 : memref<?xf32>, %[[N]] : i32
