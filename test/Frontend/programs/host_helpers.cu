// Host helpers that compute launch sizes (divUp, a clamp with an early
// return) are inlined into the launch slice like __device__ functions into
// kernels; a helper that reads host memory is not, and what it computes
// becomes a named parameter.
// RUN: ks-translate --import-cuda %s --no-pch --no-locations --verify-diagnostics -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: FileCheck %s --check-prefix=RESIZED < %t.mlir
// RUN: FileCheck %s --check-prefix=TWO < %t.mlir
#include <cuda_runtime.h>

__global__ void fill(float *x, float v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = v;
}

// expected-remark@+1 {{host function 'divUp' launches no kernel: launch slices that call it inline it: skipped}}
static int divUp(int a, int b) { return (a + b - 1) / b; }

// expected-remark@+1 {{host function 'clampBlocks' launches no kernel: launch slices that call it inline it: skipped}}
static int clampBlocks(int blocks, int most) {
  if (blocks > most)
    return most;
  int atLeast = 1;
  return blocks < atLeast ? atLeast : blocks;
}

// expected-remark@+1 {{host function 'firstOf' launches no kernel: skipped}}
static int firstOf(const int *sizes) { return sizes[0]; }

void launchAll(float *x, int n) {
  int blocks = clampBlocks(divUp(n, 256), 4096);
  fill<<<blocks, 256>>>(x, 0.0f, n);
  int sizes[2] = {n, 2 * n};
  int m = firstOf(sizes); // expected-remark {{'m' is computed by host code outside the launch slice of 'launchAll': the launcher takes it as parameter 'm'}}
  fill<<<divUp(m, 128), 128>>>(x, 1.0f, m);
}

int pickSize(int n); // defined elsewhere: its value is host code's

// A parameter the host reassigns through a call: the value from there on is
// a new parameter, named apart from the first (the remark is at the
// variable's declaration).
// expected-remark@+1 {{'n' is computed by host code outside the launch slice of 'resized': the launcher takes it as parameter 'n_2'}}
void resized(float *x, int n) {
  n = pickSize(n);
  fill<<<divUp(n, 256), 256>>>(x, 2.0f, n);
}

// One declaration, two variables: only the one host code computes becomes
// a parameter; `threads` stays the constant it is.
void twoDecls(float *x, int n) {
  int threads = 128, count = pickSize(n); // expected-remark {{'count' is computed by host code outside the launch slice of 'twoDecls': the launcher takes it as parameter 'count'}}
  fill<<<divUp(count, threads), threads>>>(x, 3.0f, count);
}

// TWO-LABEL: func.func @twoDecls(
// TWO-SAME: %[[C:[^:]*]]: i32 {ks.host_value, ks.name = "count"})
// TWO: gpu.launch_func @kernels::@fill {{.*}} threads in (%c128,
// TWO-SAME: %[[C]] : i32)

// RESIZED-LABEL: func.func @resized(
// RESIZED-SAME: {ks.name = "n"}, %[[N2:[^:]*]]: i32 {ks.host_value, ks.name = "n_2"})
// RESIZED: gpu.launch_func @kernels::@fill {{.*}} %[[N2]] : i32)

// CHECK-LABEL: func.func @launchAll(
// CHECK-SAME: %[[X:[^:]*]]: memref<?xf32> {ks.name = "x"}, %[[N:[^:]*]]: i32 {ks.name = "n"}, %[[M:[^:]*]]: i32 {ks.host_value, ks.name = "m"})
// divUp(n, 256) clamped to [1, 4096]: computed from n.
// CHECK: arith.addi %[[N]]
// CHECK: arith.divsi
// CHECK: arith.cmpi sgt
// CHECK: gpu.launch_func @kernels::@fill
// CHECK: arith.addi %[[M]]
// CHECK: gpu.launch_func @kernels::@fill {{.*}} args(%[[X]] : memref<?xf32>, %{{.*}} : f32, %[[M]] : i32)
