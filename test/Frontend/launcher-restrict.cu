// RUN: ks-translate --import-cuda %s --no-locations | FileCheck %s
// RUN: ks-translate --import-cuda %s -o %t.mlir
// RUN: ks-translate --export-cuda %t.mlir -o - | FileCheck %s --check-prefix=CUDA
// A launcher's __restrict__ pointer parameters are kept (ks.restrict: the
// buffers behind them do not overlap, which ks-fuse-launches relies on) and
// exported again; the others are not marked.
// CHECK-LABEL: func.func @launch_copy
// CHECK-SAME: %arg0: memref<?xf32> {ks.const, ks.name = "x", ks.restrict}
// CHECK-SAME: %arg1: memref<?xf32> {ks.name = "y"}
// CUDA: void launch_copy(const float *__restrict__ x, float *y, int n)
__global__ void copy(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = x[i];
}

void launch_copy(const float *__restrict__ x, float *y, int n) {
  copy<<<(n + 255) / 256, 256>>>(x, y, n);
}
