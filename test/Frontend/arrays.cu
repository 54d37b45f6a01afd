// Local array initializers (the elements a list leaves out are zero), and
// what nvcc would reject, rejected at import with a location: zero-length
// arrays, static __shared__ memory over 48 KiB.
// RUN: ks-translate --import-cuda %s --no-pch --no-locations -o - 2>&1 | FileCheck %s
// RUN: ks-translate --import-cuda %S/Inputs/array_errors.cu --no-pch --verify-diagnostics -o /dev/null

__global__ void blur(const float *in, float *out, int n) {
  float w[3] = {0.25f, 0.5f, 0.25f};
  int taps[2][2] = {{1, 2}, {3}};
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i > 0 && i < n - 1)
    out[i] = w[0] * in[i - 1] + w[1] * in[i] + w[2] * in[i + 1] + taps[1][1];
}

// CHECK-LABEL: gpu.func @blur
// CHECK-DAG: %[[Q:.*]] = arith.constant 2.500000e-01 : f32
// CHECK-DAG: %[[H:.*]] = arith.constant 5.000000e-01 : f32
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK-DAG: %[[TAPS:.*]] = memref.alloca() : memref<2x2xi32>
// CHECK-DAG: %[[W:.*]] = memref.alloca() : memref<3xf32>
// CHECK: memref.store %[[Q]], %[[W]][%{{.*}}]
// CHECK-NEXT: memref.store %[[H]], %[[W]][%{{.*}}]
// CHECK-NEXT: memref.store %[[Q]], %[[W]][%{{.*}}]
// taps[1][1] is the zero the list left out.
// CHECK: memref.store %[[ZERO]], %[[TAPS]][%{{.*}}, %{{.*}}]
// CHECK: gpu.return
