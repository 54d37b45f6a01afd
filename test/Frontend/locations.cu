// Every op carries its source location; the module records its file.
// RUN: ks-translate --import-cuda %s | FileCheck %s
// CHECK: module attributes {gpu.container_module, ks.source = "{{.*}}locations.cu"}
// CHECK: memref.load %arg0[{{.*}}] : memref<?xf32> loc([[LOAD:#loc[0-9]+]])
// CHECK: arith.mulf {{.*}} loc([[MUL:#loc[0-9]+]])
// CHECK-DAG: [[LOAD]] = loc("{{.*}}locations.cu":12:13)
// CHECK-DAG: [[MUL]] = loc("{{.*}}locations.cu":12:7)
__global__ void scale(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] =
      2.f * x[i];
}
