// Sizes from the command line with a usage check, a host wrapper that
// times its launch and returns the milliseconds (a launcher; the value is
// host code's), and main calling it: rows and cols become named
// parameters of main's slice, the wrapper's own are its parameters.
// RUN: ks-translate --import-cuda %s --no-pch --no-locations --verify-diagnostics -o - | FileCheck %s
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void softmaxRows(const float *x, float *y, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows)
    return;
  float m = -INFINITY;
  for (int c = 0; c < cols; ++c)
    m = fmaxf(m, x[r * cols + c]);
  float s = 0.0f;
  for (int c = 0; c < cols; ++c)
    s += expf(x[r * cols + c] - m);
  for (int c = 0; c < cols; ++c)
    y[r * cols + c] = expf(x[r * cols + c] - m) / s;
}

float timedSoftmax(const float *x, float *y, int rows, int cols) {
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  cudaEventRecord(a);
  softmaxRows<<<(rows + 127) / 128, 128>>>(x, y, rows, cols);
  cudaEventRecord(b);
  cudaEventSynchronize(b);
  float ms = 0;
  cudaEventElapsedTime(&ms, a, b);
  return ms;
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: %s ROWS COLS\n", argv[0]);
    return 1;
  }
  int rows = atoi(argv[1]); // expected-remark {{'rows' is computed by host code outside the launch slice of 'main': the launcher takes it as parameter 'rows'}}
  int cols = atoi(argv[2]); // expected-remark {{'cols' is computed by host code outside the launch slice of 'main': the launcher takes it as parameter 'cols'}}
  float *x, *y;
  cudaMalloc(&x, (size_t)rows * cols * sizeof(float));
  cudaMalloc(&y, (size_t)rows * cols * sizeof(float));
  softmaxRows<<<(rows + 255) / 256, 256>>>(x, y, rows, cols); // warm-up
  printf("%.3f ms\n", timedSoftmax(x, y, rows, cols));
  return 0;
}

// CHECK-LABEL: func.func @timedSoftmax(
// CHECK-SAME: memref<?xf32> {ks.const, ks.name = "x"}, %{{.*}}: memref<?xf32> {ks.name = "y"}, %[[R:[^:]*]]: i32 {ks.name = "rows"}, %[[C:[^:]*]]: i32 {ks.name = "cols"})
// CHECK: gpu.launch_func @kernels::@softmaxRows {{.*}} threads in (%c128
// CHECK-LABEL: func.func @main(
// CHECK-SAME: %{{.*}}: i32 {ks.name = "argc"}, %[[ROWS:[^:]*]]: i32 {ks.host_value, ks.name = "rows"}, %[[COLS:[^:]*]]: i32 {ks.host_value, ks.name = "cols"}, %{{.*}}: memref<?xf32> {ks.allocated, ks.name = "x"}, %{{.*}}: memref<?xf32> {ks.allocated, ks.name = "y"})
// CHECK: gpu.launch_func @kernels::@softmaxRows {{.*}} threads in (%c256{{.*}} args({{.*}}, %[[ROWS]] : i32, %[[COLS]] : i32)
