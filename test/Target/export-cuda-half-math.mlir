// NaN tests and the math of halves: cmpf uno/ord as isnan (cuda_fp16.h's
// __hisnan on halves; with two operands, either/neither is NaN), and math
// ops on halves and pairs as cuda_fp16.h's functions (one table with the
// importer, kernelskill/Support/CUDABuiltins.h).
// RUN: ks-translate --export-cuda %s | FileCheck %s
// RUN: ks-translate --export-cuda %s -o %t.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_90 -c %t.cu -o %t.o %}

// CHECK-LABEL: void nan_tests(
// CHECK: const float [[X:v[0-9]+]] = xs[0];
// CHECK: const float [[Y:v[0-9]+]] = xs[1];
// CHECK: const __half [[H:v[0-9]+]] = hs[0];
// CHECK: f[0] = isnan([[X]]);
// CHECK: f[1] = isnan([[X]]) || isnan([[Y]]);
// CHECK: f[2] = !isnan([[X]]) && !isnan([[Y]]);
// CHECK: f[3] = __hisnan([[H]]);
// CHECK: f[4] = !__hisnan([[H]]);
// CHECK-LABEL: void half_math(
// CHECK: const __half [[V:v[0-9]+]] = x[0];
// CHECK: y[0] = hsqrt([[V]]);
// CHECK: y[1] = __habs([[V]]);
// CHECK: y[2] = hexp([[V]]);
// CHECK: const __half2 [[U:v[0-9]+]] = p[0];
// CHECK: const __half2 [[W:v[0-9]+]] = p[1];
// CHECK: q[0] = h2sqrt([[U]]);
// CHECK: q[1] = __habs2([[U]]);
// CHECK: q[2] = __hmax2([[U]], [[W]]);
// CHECK: q[3] = -[[U]];
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @nan_tests(%xs: memref<?xf32> {ks.name = "xs"}, %hs: memref<?xf16> {ks.name = "hs"},
                        %f: memref<?xi1> {ks.name = "f"}) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %x = memref.load %xs[%c0] {ks.name = "x"} : memref<?xf32>
      %y = memref.load %xs[%c1] {ks.name = "y"} : memref<?xf32>
      %h = memref.load %hs[%c0] {ks.name = "h"} : memref<?xf16>
      %a = arith.cmpf uno, %x, %x : f32
      memref.store %a, %f[%c0] : memref<?xi1>
      %b = arith.cmpf uno, %x, %y : f32
      memref.store %b, %f[%c1] : memref<?xi1>
      %c = arith.cmpf ord, %x, %y : f32
      memref.store %c, %f[%c2] : memref<?xi1>
      %d = arith.cmpf uno, %h, %h : f16
      memref.store %d, %f[%c3] : memref<?xi1>
      %e = arith.cmpf ord, %h, %h : f16
      memref.store %e, %f[%c4] : memref<?xi1>
      gpu.return
    }
    gpu.func @half_math(%x: memref<?xf16> {ks.name = "x"}, %y: memref<?xf16> {ks.name = "y"},
                        %p: memref<?xvector<2xf16>> {ks.name = "p"},
                        %q: memref<?xvector<2xf16>> {ks.name = "q"}) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %h = memref.load %x[%c0] : memref<?xf16>
      %s = math.sqrt %h : f16
      memref.store %s, %y[%c0] : memref<?xf16>
      %a = math.absf %h : f16
      memref.store %a, %y[%c1] : memref<?xf16>
      %e = math.exp %h : f16
      memref.store %e, %y[%c2] : memref<?xf16>
      %u = memref.load %p[%c0] : memref<?xvector<2xf16>>
      %v = memref.load %p[%c1] : memref<?xvector<2xf16>>
      %s2 = math.sqrt %u : vector<2xf16>
      memref.store %s2, %q[%c0] : memref<?xvector<2xf16>>
      %a2 = math.absf %u : vector<2xf16>
      memref.store %a2, %q[%c1] : memref<?xvector<2xf16>>
      %m2 = arith.maxnumf %u, %v : vector<2xf16>
      memref.store %m2, %q[%c2] : memref<?xvector<2xf16>>
      %n2 = arith.negf %u : vector<2xf16>
      memref.store %n2, %q[%c3] : memref<?xvector<2xf16>>
      gpu.return
    }
  }
}
