// RUN: ks-translate --import-cuda %s --no-locations | FileCheck %s
// RUN: ks-translate --import-cuda %s -o %t.mlir
// RUN: ks-opt %t.mlir --kernelskill-lower="ptx=%t.ptx" -o /dev/null
// RUN: %if ptxas %{ %ptxas --gpu-name=sm_90 %t.ptx -o %t.cubin %}
// RUN: ks-translate --export-cuda %t.mlir -o %t.out.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_90 -c %t.out.cu -o %t.o %}
// CHECK-LABEL: gpu.func @saxpy
// CHECK: scf.while
// CHECK: arith.mulf
// CHECK: gpu.grid_dim  x
// CHECK-LABEL: func.func @run_saxpy
// CHECK: gpu.launch_func  @kernels::@saxpy blocks in (%c264, %c1, %c1) threads in (%c256, %c1, %c1)
__global__ void saxpy(int n, float a, const float *__restrict__ x, float *__restrict__ y) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    y[i] = a * x[i] + y[i];
}
void run_saxpy(int n, float a, const float *x, float *y) {
  saxpy<<<2 * 132, 256>>>(n, a, x, y);
}
