// Every CUDA vector type the importer accepts (char .. double, 1 to 4
// components; the short ones once failed the export) is written back under a CUDA name by the exporter, and the
// result compiles: the import -> export round trip has no type it drops.
// RUN: ks-translate --import-cuda %s -o %t.mlir
// RUN: ks-translate --export-cuda %t.mlir -o %t.out.cu
// RUN: FileCheck %s --input-file=%t.out.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_90 -c %t.out.cu -o %t.o %}

// Signedness is not in MLIR's integer types: unsigned vectors come back as
// their signed twins of the same layout (ushort2 as short2).
// CHECK-LABEL: void small(const char4 *a, const char2 *b, const short4 *c, const short2 *d, short1 *out)
__global__ void small(const char4 *a, const uchar2 *b, const short4 *c, const ushort2 *d,
                      short1 *out) {
  int i = threadIdx.x;
  // CHECK: make_short1(
  out[i] = make_short1(a[i].x + b[i].y + c[i].w + d[i].x);
}

// CHECK-LABEL: void wide(const int4 *a, const int2 *b, const longlong2 *c, const longlong1 *d, const longlong2 *e, const float2 *f, const double2 *g, double *out)
__global__ void wide(const int4 *a, const uint2 *b, const long2 *c, const ulong1 *d,
                     const longlong2 *e, const float2 *f, const double2 *g, double *out) {
  int i = threadIdx.x;
  out[i] = a[i].z + b[i].x + c[i].y + d[i].x + e[i].x + f[i].y + g[i].x;
}

// Three-component types may be values (float3 v = make_float3(...)), not
// buffer elements (see test/Frontend/invalid.test); these fold away.
// CHECK-LABEL: void three(const float *x, float *y)
// CHECK: y[i] = x[v0] + x[v0 + 1] * x[v0 + 2];
__global__ void three(const float *x, float *y) {
  int i = threadIdx.x;
  float3 v = make_float3(x[3 * i], x[3 * i + 1], x[3 * i + 2]);
  y[i] = v.x + v.y * v.z;
}
