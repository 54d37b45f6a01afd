// RUN: ks-translate --import-cuda %s --no-locations | FileCheck %s
// RUN: ks-translate --import-cuda %s -o %t.mlir
// RUN: ks-opt %t.mlir --kernelskill-lower="ptx=%t.ptx" -o /dev/null
// RUN: %if ptxas %{ %ptxas --gpu-name=sm_90 %t.ptx -o %t.cubin %}
// RUN: ks-translate --export-cuda %t.mlir -o %t.out.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_90 -c %t.out.cu -o %t.o %}
// 7-point 3-D stencil; border cells are copied.
// CHECK-LABEL: gpu.func @stencil3d
// CHECK: gpu.block_id  z
__global__ void stencil3d(const float *in, float *out, int nx, int ny, int nz) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int z = blockIdx.z * blockDim.z + threadIdx.z;
  if (x >= nx || y >= ny || z >= nz) return;
  long idx = ((long)z * ny + y) * nx + x;
  if (x == 0 || y == 0 || z == 0 || x == nx - 1 || y == ny - 1 || z == nz - 1) {
    out[idx] = in[idx];
    return;
  }
  long sx = 1, sy = nx, sz = (long)nx * ny;
  out[idx] = (in[idx - sx] + in[idx + sx] + in[idx - sy] + in[idx + sy] + in[idx - sz] + in[idx + sz]
              - 6.f * in[idx]) * (1.f / 6.f);
}
