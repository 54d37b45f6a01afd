// RUN: ks-translate --import-cuda %s --no-locations | FileCheck %s
// RUN: ks-translate --import-cuda %s -o %t.mlir
// RUN: ks-opt %t.mlir --kernelskill-lower="ptx=%t.ptx" -o /dev/null
// RUN: %if ptxas %{ %ptxas --gpu-name=sm_90 %t.ptx -o %t.cubin %}
// RUN: ks-translate --export-cuda %t.mlir -o %t.out.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_90 -c %t.out.cu -o %t.o %}
// A 2-D shared tile, padded against bank conflicts, with a barrier.
// CHECK-LABEL: gpu.func @transpose_tiled
// CHECK-SAME: workgroup(%[[T:.*]] : memref<32x33xf32, #gpu.address_space<workgroup>> {ks.name = "tile"})
// CHECK: memref.store {{.*}}, %[[T]][%{{.*}}, %{{.*}}] : memref<32x33xf32
// CHECK: gpu.barrier
// CHECK: memref.load %[[T]][%{{.*}}, %{{.*}}] : memref<32x33xf32
#define TILE 32
__global__ void transpose_tiled(const float *in, float *out, int rows, int cols) {
  __shared__ float tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += blockDim.y)
    if (x < cols && y + j < rows)
      tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * cols + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += blockDim.y)
    if (x < rows && y + j < cols)
      out[(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
}
