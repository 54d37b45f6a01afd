// switch: labels fall through as in C, `break` leaves the switch,
// `continue` inside it goes to the enclosing loop; lifted to
// scf.index_switch and exported back to CUDA.
// RUN: ks-translate --import-cuda %s --no-pch --no-locations -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: ks-translate --export-cuda %t.mlir | FileCheck %s --check-prefix=CUDA

__global__ void classify(const int *kind, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float v = 0.0f;
  switch (kind[i]) {
  case 0:
    v = 1.0f;
    break;
  case 1:
  case 2:
    v = 2.0f; // 1 and 2 share it
    break;
  case 7:
    v += 3.0f; // falls through into default
  default:
    v += 4.0f;
  }
  out[i] = v;
}

__global__ void skipOdd(const int *x, int *sum, int n) {
  for (int i = 0; i < n; ++i) {
    switch (x[i] & 1) {
    case 1:
      continue;
    default:
      break;
    }
    sum[0] += x[i];
  }
}

// CHECK-LABEL: gpu.func @classify
// CHECK: scf.index_switch
// CHECK: gpu.func @skipOdd
// CHECK-NOT: {{[^s]cf\.}}
// CHECK: gpu.return
// CUDA-LABEL: __global__ void classify(
// CUDA: switch (
// CUDA: case 0:
