// RUN: ks-translate --export-cuda %s | FileCheck %s
// RUN: not ks-translate --export-cuda %S/Inputs/shared_global.mlir 2>&1 | FileCheck %s --check-prefix=SHARED
// SHARED: shared_global.mlir:3:5: error: export-cuda: only __constant__ (memory space 4) and global device variables are exported
// Module variables: __constant__ (memory space 4) and __device__ (global)
// declarations before the kernels, initializers unless all zero, scalars
// (ks.scalar) read and written without a subscript.

// CHECK: __constant__ float taps[3];
// CHECK-NEXT: __constant__ const double w[2][2] = {{[{][{]}}1.0, 2.5}, {-3.0, 0.0}};
// CHECK-NEXT: __constant__ bool flags[2] = {true, false};
// CHECK-NEXT: __device__ int hits = 7;
// CHECK-LABEL: __global__ void k(
// CHECK: taps[2] * w[1][0]
// CHECK: hits = hits + 1;
// CHECK: atomicAdd(&hits, 1);
module attributes {gpu.container_module} {
  gpu.module @kernels {
    memref.global "public" @taps : memref<3xf32, 4> = dense<0.0>
    memref.global "public" constant @w : memref<2x2xf64, 4> = dense<[[1.0, 2.5], [-3.0, 0.0]]>
    memref.global "public" @flags : memref<2xi1, 4> = dense<[true, false]>
    memref.global "public" @hits : memref<1xi32, #gpu.address_space<global>> = dense<7> {ks.scalar}
    gpu.func @k(%y: memref<?xf64>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %one = arith.constant 1 : i32
      %t = memref.get_global @taps : memref<3xf32, 4>
      %w = memref.get_global @w : memref<2x2xf64, 4>
      %h = memref.get_global @hits : memref<1xi32, #gpu.address_space<global>>
      %a = memref.load %t[%c2] : memref<3xf32, 4>
      %ad = arith.extf %a : f32 to f64
      %b = memref.load %w[%c1, %c0] : memref<2x2xf64, 4>
      %p = arith.mulf %ad, %b : f64
      memref.store %p, %y[%c0] : memref<?xf64>
      %old = memref.load %h[%c0] : memref<1xi32, #gpu.address_space<global>>
      %new = arith.addi %old, %one : i32
      memref.store %new, %h[%c0] : memref<1xi32, #gpu.address_space<global>>
      %r = memref.atomic_rmw addi %one, %h[%c0] : (i32, memref<1xi32, #gpu.address_space<global>>) -> i32
      gpu.return
    }
  }
}
