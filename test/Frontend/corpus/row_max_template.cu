// RUN: ks-translate --import-cuda %s --no-locations | FileCheck %s
// RUN: ks-translate --import-cuda %s -o %t.mlir
// RUN: ks-opt %t.mlir --kernelskill-lower="ptx=%t.ptx" -o /dev/null
// RUN: %if ptxas %{ %ptxas --gpu-name=sm_90 %t.ptx -o %t.cubin %}
// RUN: ks-translate --export-cuda %t.mlir -o %t.out.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_90 -c %t.out.cu -o %t.o %}
// The template instantiation the host launches becomes the kernel; the
// __device__ helper is inlined; -INFINITY folds to a constant.
// CHECK-LABEL: gpu.func @row_max_4
// CHECK: arith.constant 0xFF800000 : f32
// CHECK: arith.maxnumf
// CHECK: gpu.shuffle  xor
// CHECK-NOT: func.call
// CHECK-LABEL: func.func @launch
// CHECK: gpu.launch_func  @kernels::@row_max_4

// Row max with warp shuffles; a __device__ helper and a template.
__device__ float warp_max(float v) {
  for (int offset = 16; offset > 0; offset /= 2)
    v = fmaxf(v, __shfl_xor_sync(0xffffffff, v, offset));
  return v;
}
template <int WARPS>
__global__ void row_max(const float *x, float *y, int rows, int cols) {
  int row = blockIdx.x * WARPS + threadIdx.x / 32;
  int lane = threadIdx.x % 32;
  if (row >= rows)
    return;
  float m = -INFINITY;
  for (int c = lane; c < cols; c += 32)
    m = fmaxf(m, x[row * cols + c]);
  m = warp_max(m);
  if (lane == 0)
    y[row] = m;
}
void launch(const float *x, float *y, int rows, int cols) {
  row_max<4><<<(rows + 3) / 4, 128>>>(x, y, rows, cols);
}
