// Reference parameters of __device__ functions name the argument's place:
// a local, a buffer element, an array element, a vector component. A const
// reference reads like a value.
// RUN: ks-translate --import-cuda %s --no-pch --no-locations -o - | FileCheck %s

__device__ void swapf(float &a, float &b) {
  float t = a;
  a = b;
  b = t;
}

__device__ void accumulate(float &sum, const float &x) { sum += x * x; }

__device__ void bump(int &counter) { ++counter; }

__global__ void refs(float *x, int *hits, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i + 1 >= n)
    return;
  swapf(x[i], x[i + 1]); // buffer elements
  float s = 0.0f;
  accumulate(s, x[i]);   // a local, and a const reference to an element
  float4 v = make_float4(s, 0.0f, 0.0f, 0.0f);
  accumulate(v.y, s);    // a vector component
  int local[2] = {0, 0};
  bump(local[1]);        // an array element
  bump(hits[i]);
  x[i] = v.y + local[1];
}

// CHECK-LABEL: gpu.func @refs
// swapf on x[i] and x[i + 1]: two loads, two stores to the buffer.
// CHECK: %[[A:.*]] = memref.load %arg0[%[[I:.*]]] : memref<?xf32>
// CHECK: %[[B:.*]] = memref.load %arg0[%[[J:.*]]] : memref<?xf32>
// CHECK: memref.store %[[B]], %arg0[%[[I]]]
// CHECK: memref.store %[[A]], %arg0[%[[J]]]
// bump(hits[i]) increments the buffer element.
// CHECK: %[[H:.*]] = memref.load %arg1[
// CHECK: %[[H1:.*]] = arith.addi %[[H]], %{{.*}}
// CHECK: memref.store %[[H1]], %arg1[
