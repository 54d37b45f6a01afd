// RUN: ks-translate --import-cuda %s --no-locations | FileCheck %s
// RUN: ks-translate --import-cuda %s -o %t.mlir
// RUN: ks-opt %t.mlir --kernelskill-lower="ptx=%t.ptx" -o /dev/null
// RUN: %if ptxas %{ %ptxas --gpu-name=sm_90 %t.ptx -o %t.cubin %}
// RUN: ks-translate --export-cuda %t.mlir -o %t.out.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_90 -c %t.out.cu -o %t.o %}
// RUN: FileCheck %s --check-prefix=PTX --input-file=%t.ptx
// RUN: FileCheck %s --check-prefix=CUDA --input-file=%t.out.cu
// float4 loads through reinterpret_cast, lane updates, and float2 buffers.
// CHECK-LABEL: gpu.func @scale4
// CHECK: vector.load %arg0[{{.*}}] {alignment = 16 : i64} : memref<?xf32>, vector<4xf32>
// CHECK: vector.extract
// CHECK: vector.store {{.*}} {alignment = 16 : i64}
// CHECK-LABEL: gpu.func @add2
// CHECK-SAME: memref<?xvector<2xf32>>
// CHECK: vector.from_elements
// The 16-byte accesses survive the lowering and the export.
// PTX: ld.global.v4.b32
// PTX: st.global.v4.b32
// CUDA: *reinterpret_cast<const float4 *>(&x[
// CUDA: make_float2(
__global__ void scale4(const float *x, float *y, float a, int n4) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n4) {
    float4 v = reinterpret_cast<const float4 *>(x)[i];
    v.x *= a; v.y *= a; v.z *= a; v.w *= a;
    reinterpret_cast<float4 *>(y)[i] = v;
  }
}
__global__ void add2(const float2 *a, const float2 *b, float2 *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = make_float2(a[i].x + b[i].x, a[i].y + b[i].y);
}
