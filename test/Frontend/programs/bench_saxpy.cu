// A benchmark-suite program: main allocates, copies, times the kernel with
// events, checks against a CPU reference and prints. The kernel and the
// launch slice of main are lifted; the rest of the host code is skipped,
// with one remark per skipped function. The size comes from -D.
// RUN: ks-translate --import-cuda %s --no-pch --no-locations --verify-diagnostics -o - -- -DSIZE=4096 | FileCheck %s
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <cuda_runtime.h>

#ifndef SIZE
#define SIZE 1024
#endif

__global__ void saxpy(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

// expected-remark@+1 {{host function 'saxpyReference' launches no kernel: skipped}}
void saxpyReference(int n, float a, const float *x, float *y) {
  for (int i = 0; i < n; ++i)
    y[i] = a * x[i] + y[i];
}

// expected-remark@+1 {{host function 'maxError' launches no kernel: skipped}}
float maxError(const float *a, const float *b, int n) {
  float e = 0;
  for (int i = 0; i < n; ++i)
    e = fmaxf(e, fabsf(a[i] - b[i]));
  return e;
}

int main() {
  size_t bytes = SIZE * sizeof(float);
  float *hx = (float *)malloc(bytes), *hy = (float *)malloc(bytes), *ref = (float *)malloc(bytes);
  for (int i = 0; i < SIZE; ++i) {
    hx[i] = rand() / (float)RAND_MAX;
    hy[i] = ref[i] = 1.0f;
  }
  float *dx, *dy;
  cudaMalloc(&dx, bytes);
  cudaMalloc(&dy, bytes);
  cudaMemcpy(dx, hx, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(dy, hy, bytes, cudaMemcpyHostToDevice);
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  int threads = 256;
  int blocks = (SIZE + threads - 1) / threads;
  cudaEventRecord(start);
  saxpy<<<blocks, threads>>>(SIZE, 2.0f, dx, dy);
  cudaEventRecord(stop);
  cudaEventSynchronize(stop);
  float ms = 0;
  cudaEventElapsedTime(&ms, start, stop);
  cudaMemcpy(hy, dy, bytes, cudaMemcpyDeviceToHost);
  saxpyReference(SIZE, 2.0f, hx, ref);
  float err = maxError(hy, ref, SIZE);
  printf("%.3f ms, max error %g\n", ms, err);
  cudaFree(dx);
  cudaFree(dy);
  free(hx);
  free(hy);
  free(ref);
  return err < 1e-5f ? 0 : 1;
}

// CHECK-LABEL: gpu.func @saxpy
// The buffers main allocates are the launcher's parameters; the sizes are
// computed (4096 from -DN: 16 blocks of 256).
// CHECK-LABEL: func.func @main(
// CHECK-SAME: %[[X:.*]]: memref<?xf32> {ks.allocated, ks.name = "dx"}, %[[Y:.*]]: memref<?xf32> {ks.allocated, ks.name = "dy"})
// CHECK-DAG: %[[B:.*]] = arith.constant 16 : index
// CHECK-DAG: %[[T:.*]] = arith.constant 256 : index
// CHECK-DAG: %[[NN:.*]] = arith.constant 4096 : i32
// CHECK: gpu.launch_func @kernels::@saxpy blocks in (%[[B]], %{{.*}}, %{{.*}}) threads in (%[[T]], %{{.*}}, %{{.*}}) args(%[[NN]] : i32, %{{.*}} : f32, %[[X]] : memref<?xf32>, %[[Y]] : memref<?xf32>)
// CHECK-NEXT: return
