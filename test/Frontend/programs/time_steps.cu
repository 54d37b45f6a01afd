// A multi-kernel pipeline launched in a host loop of time steps, 2-D
// blocks from dim3 variables, the step count from the command line: the
// loop and both launches keep their order; `steps` (atoi) becomes a named
// parameter with a remark.
// RUN: ks-translate --import-cuda %s --no-pch --no-locations --verify-diagnostics -o - | FileCheck %s
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void diffuse(const float *in, float *out, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x > 0 && y > 0 && x < w - 1 && y < h - 1)
    out[y * w + x] = 0.25f * (in[y * w + x - 1] + in[y * w + x + 1] + in[(y - 1) * w + x] +
                              in[(y + 1) * w + x]);
}

__global__ void copyBack(const float *from, float *to, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    to[i] = from[i];
}

int main(int argc, char **argv) {
  int w = 1000, h = 700;
  int steps = argc > 1 ? atoi(argv[1]) : 10; // expected-remark {{'steps' is computed by host code outside the launch slice of 'main': the launcher takes it as parameter 'steps'}}
  float *a, *b;
  cudaMalloc(&a, w * h * sizeof(float));
  cudaMalloc(&b, w * h * sizeof(float));
  cudaMemset(a, 0, w * h * sizeof(float));
  dim3 block(32, 8);
  dim3 grid((w + block.x - 1) / block.x, (h + block.y - 1) / block.y);
  for (int s = 0; s < steps; ++s) {
    diffuse<<<grid, block>>>(a, b, w, h);
    copyBack<<<(w * h + 255) / 256, 256>>>(b, a, w * h);
    if (s % 100 == 0)
      printf("step %d\n", s);
  }
  cudaDeviceSynchronize();
  float corner;
  cudaMemcpy(&corner, a, sizeof(float), cudaMemcpyDeviceToHost);
  printf("%f\n", corner);
  return 0;
}

// CHECK-LABEL: func.func @main(
// CHECK-SAME: {ks.name = "argc"}
// CHECK-SAME: %[[STEPS:[^:]*]]: i32 {ks.host_value, ks.name = "steps"}
// CHECK-SAME: %[[A:[^:]*]]: memref<?xf32> {ks.allocated, ks.name = "a"}
// CHECK-SAME: %[[B:[^:]*]]: memref<?xf32> {ks.allocated, ks.name = "b", ks.scratch}
// CHECK-DAG: %[[GX:.*]] = arith.constant 32 : index
// CHECK-DAG: %[[GY:.*]] = arith.constant 88 : index
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[STEPS]]
// CHECK-NEXT: gpu.launch_func @kernels::@diffuse blocks in (%[[GX]], %[[GY]], %{{.*}}) threads in (%[[GX]], %{{.*}}, %{{.*}}) args(%[[A]] : memref<?xf32>, %[[B]] : memref<?xf32>
// CHECK-NEXT: gpu.launch_func @kernels::@copyBack {{.*}} args(%[[B]] : memref<?xf32>, %[[A]] : memref<?xf32>
// CHECK-NEXT: }
// CHECK-NEXT: return
