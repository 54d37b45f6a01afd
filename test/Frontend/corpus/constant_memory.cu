// RUN: ks-translate --import-cuda %s --no-locations | FileCheck %s
// RUN: ks-translate --import-cuda %s -o %t.mlir
// RUN: ks-opt %t.mlir --kernelskill-lower="ptx=%t.ptx" -o /dev/null
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %if ptxas %{ %ptxas --gpu-name=sm_90 %t.ptx -o %t.cubin %}
// RUN: ks-translate --export-cuda %t.mlir -o %t.out.cu --manifest %t.json
// RUN: FileCheck %s --check-prefix=CUDA < %t.out.cu
// RUN: FileCheck %s --check-prefix=SPEC < %t.json
// RUN: %if nvcc %{ %nvcc -arch=sm_90 -c %t.out.cu -o %t.o %}
// A 1-D convolution whose filter the host puts in constant memory (the
// programming guide's pattern), and a bucket count through a lookup table
// and a counter in global device variables.
// CHECK: memref.global "public" @taps : memref<9xf32, 4> = dense<0.000000e+00>
// CHECK: memref.global "public" @scale : memref<1xf32, 4> = dense<0.000000e+00> {ks.scalar}
// CHECK: memref.global "public" constant @edge : memref<2xf32, 4> = dense<[0.000000e+00, 1.000000e+00]>
// CHECK: memref.global "public" @bucket_of : memref<4x4xi32, #gpu.address_space<global>> = dense<{{\[\[}}0, 1, 1, 2], [2, 2, 3, 3], [3, 3, 3, 0], [0, 0, 0, 0]]>
// CHECK: memref.global "public" @seen : memref<1xi32, #gpu.address_space<global>> = dense<0> {ks.scalar}
// CHECK-LABEL: gpu.func @conv1d_const
// CHECK: %[[TAPS:.*]] = memref.get_global @taps : memref<9xf32, 4>
// CHECK: memref.load %[[TAPS]]
// CHECK-LABEL: gpu.func @bucket_count
// CHECK: %[[SEEN:.*]] = memref.get_global @seen
// CHECK: memref.atomic_rmw addi %{{.*}}, %[[SEEN]][%{{.*}}]
// CHECK-LABEL: func.func @run_conv1d
// CHECK: gpu.launch_func  @kernels::@conv1d_const
// PTX-DAG: .visible .const .align 4 .b8 taps[36];
// PTX-DAG: .visible .global .align 4 .b8 bucket_of[64] = {0, 0, 0, 0, 1,
// PTX-DAG: ld.const
// CUDA: __constant__ float taps[9];
// CUDA-NEXT: __constant__ float scale;
// CUDA-NEXT: __constant__ const float edge[2] = {0.0f, 1.0f};
// CUDA-NEXT: __device__ int bucket_of[4][4] = {{[{][{]}}0, 1, 1, 2}, {2, 2, 3, 3}, {3, 3, 3, 0}, {0, 0, 0, 0}};
// CUDA-NEXT: __device__ int seen;
// CUDA: acc = acc + taps[k + 4] * in[
// CUDA: out[i] = scale * acc + edge[
// CUDA: atomicAdd(&seen, 1);
// SPEC: "extent": "9",
// SPEC-NEXT: "global": true,
// SPEC-NEXT: "name": "taps",
// SPEC-NEXT: "role": "in",
// SPEC-NOT: "name": "edge"
#define RADIUS 4
__constant__ float taps[2 * RADIUS + 1];
__constant__ float scale;
__constant__ const float edge[2] = {0.0f, 1.0f};
__device__ int bucket_of[4][4] = {{0, 1, 1, 2}, {2, 2, 3, 3}, {3, 3, 3}};
__device__ unsigned seen;

__global__ void conv1d_const(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float acc = 0.0f;
  for (int k = -RADIUS; k <= RADIUS; ++k) {
    int j = min(max(i + k, 0), n - 1);
    acc += taps[k + RADIUS] * in[j];
  }
  out[i] = scale * acc + edge[i == n - 1];
}

__global__ void bucket_count(const int *keys, int *counts, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int k = keys[i] & 15;
    atomicAdd(&counts[bucket_of[k / 4][k % 4]], 1);
    atomicAdd(&seen, 1u);
  }
}

void run_conv1d(const float *h_taps, float h_scale, const float *in, float *out, int n) {
  cudaMemcpyToSymbol(taps, h_taps, sizeof(taps));
  cudaMemcpyToSymbol(scale, &h_scale, sizeof(float));
  conv1d_const<<<(n + 255) / 256, 256>>>(in, out, n);
}
