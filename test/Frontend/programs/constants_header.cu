// Sizes from a project header's constexpr values, static consts and enums,
// a 2-D launch and a chain of three element-wise kernels in a __restrict__
// wrapper (the form ks-fuse-launches fuses), called from main.
// RUN: ks-translate --import-cuda %s --no-pch --no-locations -o - -- -I%S/include 2>/dev/null | FileCheck %s
#include "config.h"
#include <cuda_runtime.h>

__global__ void toGray(const float *rgb, float *gray, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h) {
    int p = (y * w + x) * kChannels;
    gray[y * w + x] = 0.299f * rgb[p] + 0.587f * rgb[p + 1] + 0.114f * rgb[p + 2];
  }
}

__global__ void scale(const float *in, float *out, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = a * in[i];
}

__global__ void offset(const float *in, float *out, float b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i] + b;
}

__global__ void clampTo(const float *in, float *out, float lo, float hi, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = fminf(fmaxf(in[i], lo), hi);
}

void normalize(const float *__restrict__ in, float *__restrict__ tmp, float *__restrict__ out, int n) {
  int blocks = (n + 255) / 256;
  scale<<<blocks, 256>>>(in, tmp, 1.0f / 255.0f, n);
  offset<<<blocks, 256>>>(tmp, tmp, -0.5f, n);
  clampTo<<<blocks, 256>>>(tmp, out, -0.5f, 0.5f, n);
}

int main() {
  float *rgb, *gray, *tmp, *out;
  cudaMalloc(&rgb, kWidth * kHeight * kChannels * sizeof(float));
  cudaMalloc(&gray, kWidth * kHeight * sizeof(float));
  cudaMalloc(&tmp, kWidth * kHeight * sizeof(float));
  cudaMalloc(&out, kWidth * kHeight * sizeof(float));
  dim3 block(kBlockX, kBlockY);
  dim3 grid((kWidth + kBlockX - 1) / kBlockX, (kHeight + kBlockY - 1) / kBlockY);
  toGray<<<grid, block>>>(rgb, gray, kWidth, kHeight);
  normalize(gray, tmp, out, kWidth * kHeight);
  return 0;
}

// CHECK-LABEL: func.func @normalize(
// CHECK-SAME: memref<?xf32> {ks.const, ks.name = "in", ks.restrict}
// CHECK: gpu.launch_func @kernels::@scale
// CHECK-NEXT: gpu.launch_func @kernels::@offset
// CHECK-NEXT: gpu.launch_func @kernels::@clampTo
// CHECK-LABEL: func.func @main(
// CHECK-DAG: %[[GX:.*]] = arith.constant 60 : index
// CHECK-DAG: %[[GY:.*]] = arith.constant 135 : index
// CHECK-DAG: %[[W:.*]] = arith.constant 1920 : i32
// CHECK-DAG: %[[H:.*]] = arith.constant 1080 : i32
// CHECK: gpu.launch_func @kernels::@toGray blocks in (%[[GX]], %[[GY]], %{{.*}}) {{.*}} args({{.*}}, %[[W]] : i32, %[[H]] : i32)
