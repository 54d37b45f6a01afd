// Semantics the importer once got wrong (found in review).
// RUN: ks-translate --import-cuda %s --no-locations | FileCheck %s
// RUN: ks-translate --import-cuda %s -o %t.mlir
// RUN: ks-opt %t.mlir --kernelskill-lower -o /dev/null
// RUN: ks-translate --export-cuda %t.mlir -o %t.out.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_90 -c %t.out.cu -o %t.o %}

// A float4 pointer variable keeps its width: v[i] reads 4 floats at 4*i,
// and ++p steps 4 floats.
// CHECK-LABEL: gpu.func @float4_pointer
// CHECK: %[[C4:.*]] = arith.constant 4 : index
// CHECK: arith.muli %{{.*}}, %[[C4]] : index
// CHECK: vector.load %arg0[%{{.*}}] {alignment = 16 : i64} : memref<?xf32>, vector<4xf32>
// CHECK: arith.addi %{{.*}}, %[[C4]] : index
// CHECK: vector.load %arg0
__global__ void float4_pointer(const float *x, float *y, int i) {
  const float4 *v = reinterpret_cast<const float4 *>(x);
  float4 a = v[i];
  ++v;
  float4 b = v[i];
  y[i] = a.x + b.w;
}

// f(a, f(b, c)) binds the outer call's parameters after evaluating the
// inner call: the result is max(a, max(b, c)), not max(b, ...).
// CHECK-LABEL: gpu.func @nested_inline
// CHECK: %[[BC:.*]] = arith.cmpi sgt, %arg1, %arg2
// CHECK: %[[IN:.*]] = arith.select %[[BC]], %arg1, %arg2
// CHECK: %[[A:.*]] = arith.cmpi sgt, %arg0, %[[IN]]
// CHECK: arith.select %[[A]], %arg0, %[[IN]]
__device__ int imax(int p, int q) { return p > q ? p : q; }
__global__ void nested_inline(int a, int b, int c, int *out) { out[0] = imax(a, imax(b, c)); }

// A 64-bit value shifted by an int shifts in 64 bits.
// CHECK-LABEL: gpu.func @wide_shift
// CHECK: arith.extsi %arg1 : i32 to i64
// CHECK: arith.shli %arg0, %{{.*}} : i64
__global__ void wide_shift(long long x, int k, long long *out) { out[0] = x << k; }

// `return voidCall();` still calls and still returns.
// CHECK-LABEL: gpu.func @return_void_call
// CHECK: memref.store
__device__ void put(int *p) { p[0] = 7; }
__global__ void return_void_call(int *p) { return put(p); }
