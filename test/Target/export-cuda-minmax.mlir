// arith.maximumf/minimumf propagate NaN (and order -0 below +0); fmaxf/fminf
// return the non-NaN operand, so they spell only maxnumf/minnumf.
// RUN: ks-translate --export-cuda %s | FileCheck %s
// RUN: ks-translate --export-cuda %s -o %t.cu
// The helpers' values on the host, where nvcc exists.
// RUN: %if nvcc %{ rm -rf %t.dir && mkdir -p %t.dir && cp %t.cu %t.dir/exported.cu %}
// RUN: %if nvcc %{ %nvcc -arch=sm_90 -I%t.dir %S/Inputs/minmax_host.cu -o %t.exe %}
// RUN: %if nvcc %{ %t.exe %}
// C's fmaxf (imported as maxnumf) stays fmaxf, and a file without
// maximumf/minimumf gets no helpers.
// RUN: ks-translate --import-cuda %ks_src_root/test/Frontend/corpus/softmax_rows.cu -o %t.softmax.mlir
// RUN: ks-translate --export-cuda %t.softmax.mlir | FileCheck %s --check-prefix=NUM
// NUM-NOT: ks_maximum
// NUM: fmaxf(

// CHECK: template <typename T> static __host__ __device__ __forceinline__ T ks_maximum(T a, T b) {
// CHECK: template <typename T> static __host__ __device__ __forceinline__ T ks_minimum(T a, T b) {
// CHECK-LABEL: void minmax(
// CHECK: y[0] = ks_maximum<float>(a, b);
// CHECK: y[1] = ks_minimum<float>(a, b);
// CHECK: y[2] = fmaxf(a, b);
// CHECK: y[3] = fminf(a, b);
// CHECK: z[0] = ks_maximum<double>(c, d);
// CHECK: z[1] = ks_minimum<double>(c, d);
// CHECK: z[2] = fmax(c, d);
// CHECK: z[3] = fmin(c, d);
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @minmax(%y: memref<?xf32> {ks.name = "y"}, %z: memref<?xf64> {ks.name = "z"},
                     %a: f32 {ks.name = "a"}, %b: f32 {ks.name = "b"},
                     %c: f64 {ks.name = "c"}, %d: f64 {ks.name = "d"}) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %0 = arith.maximumf %a, %b : f32
      memref.store %0, %y[%c0] : memref<?xf32>
      %1 = arith.minimumf %a, %b : f32
      memref.store %1, %y[%c1] : memref<?xf32>
      %2 = arith.maxnumf %a, %b : f32
      memref.store %2, %y[%c2] : memref<?xf32>
      %3 = arith.minnumf %a, %b : f32
      memref.store %3, %y[%c3] : memref<?xf32>
      %4 = arith.maximumf %c, %d : f64
      memref.store %4, %z[%c0] : memref<?xf64>
      %5 = arith.minimumf %c, %d : f64
      memref.store %5, %z[%c1] : memref<?xf64>
      %6 = arith.maxnumf %c, %d : f64
      memref.store %6, %z[%c2] : memref<?xf64>
      %7 = arith.minnumf %c, %d : f64
      memref.store %7, %z[%c3] : memref<?xf64>
      gpu.return
    }
  }
}

