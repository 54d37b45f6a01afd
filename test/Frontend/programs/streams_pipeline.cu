// Application style: a three-stage pipeline (scale, bias + ReLU, row sums)
// launched on a user stream by a wrapper that returns an error code through
// a CHECK macro; the stream and the zero shared memory are launch arguments
// the slice leaves to the host. The launches keep their order.
// RUN: ks-translate --import-cuda %s --no-pch --no-locations --verify-diagnostics -o - | FileCheck %s
#include <cstdio>
#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t e = (call); if (e != cudaSuccess) { printf("%s\n", cudaGetErrorString(e)); return 1; } } while (0)

__global__ void scale(const float *x, float *y, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i];
}

__global__ void bias_relu(float *y, const float *bias, int rows, int cols) {
  int c = blockIdx.x * blockDim.x + threadIdx.x, r = blockIdx.y;
  if (c < cols) y[r * cols + c] = fmaxf(y[r * cols + c] + bias[c], 0.0f);
}

__global__ void row_sums(const float *y, float *sums, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  float s = 0.0f;
  for (int c = 0; c < cols; ++c) s += y[r * cols + c];
  sums[r] = s;
}

int forward(const float *x, const float *bias, float *y, float *sums, int rows, int cols, cudaStream_t stream) {
  int n = rows * cols;
  scale<<<(n + 255) / 256, 256, 0, stream>>>(x, y, 0.5f, n);
  bias_relu<<<dim3((cols + 127) / 128, rows), 128, 0, stream>>>(y, bias, rows, cols);
  row_sums<<<(rows + 63) / 64, 64, 0, stream>>>(y, sums, rows, cols);
  CHECK(cudaGetLastError());
  return 0;
}

int main() { // expected-remark {{host function 'main' launches no kernel: skipped}}
  const int rows = 512, cols = 1000;
  float *x, *bias, *y, *sums;
  CHECK(cudaMalloc(&x, rows * cols * sizeof(float)));
  CHECK(cudaMalloc(&bias, cols * sizeof(float)));
  CHECK(cudaMalloc(&y, rows * cols * sizeof(float)));
  CHECK(cudaMalloc(&sums, rows * sizeof(float)));
  cudaStream_t stream;
  CHECK(cudaStreamCreate(&stream));
  if (forward(x, bias, y, sums, rows, cols, stream)) return 1;
  CHECK(cudaStreamSynchronize(stream));
  CHECK(cudaStreamDestroy(stream));
  return 0;
}

// CHECK-LABEL: gpu.func @scale
// CHECK-LABEL: gpu.func @bias_relu
// CHECK-LABEL: gpu.func @row_sums
// CHECK-LABEL: func.func @forward(
// CHECK-SAME: {ks.const, ks.name = "x"}, %{{.*}}: memref<?xf32> {ks.const, ks.name = "bias"}, %{{.*}}: memref<?xf32> {ks.name = "y"}, %{{.*}}: memref<?xf32> {ks.name = "sums"}, %{{.*}}: i32 {ks.name = "rows"}, %{{.*}}: i32 {ks.name = "cols"})
// CHECK: gpu.launch_func  @kernels::@scale
// CHECK: gpu.launch_func  @kernels::@bias_relu blocks in (%{{.*}}, %{{.*}}, %c1) threads in (%c128, %c1, %c1)
// CHECK: gpu.launch_func  @kernels::@row_sums
// CHECK-NOT: gpu.launch_func
