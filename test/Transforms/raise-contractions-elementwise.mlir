// RUN: ks-opt %s -verify-diagnostics --ks-raise-contractions | FileCheck %s
// RUN: ks-opt %s --ks-raise-contractions="elementwise=true remarks=false" | FileCheck %s --check-prefix=RAISED

// A forall without a reduction loop stays a forall by default (no schedule
// consumes elementwise generics yet; ks.map_forall_to_grid maps it back onto
// threads); elementwise=true raises it to a parallel linalg.generic.
// CHECK-LABEL: gpu.func @scale
// CHECK: scf.forall
// CHECK-NOT: linalg.generic
// RAISED-LABEL: gpu.func @scale
// RAISED: linalg.generic {{.*}} iterator_types = ["parallel"]
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @scale(%X: memref<?xf32>, %a: f32, %N: index) kernel attributes {ks.raised} {
      %x = memref.reinterpret_cast %X to offset: [0], sizes: [%N], strides: [1] : memref<?xf32> to memref<?xf32, strided<[1]>>
      // expected-remark @+1 {{ks-raise-contractions: not raised to linalg: no reduction loop (elementwise work stays a forall; elementwise=true raises it)}}
      scf.forall (%i) in (%N) {
        %v = memref.load %x[%i] : memref<?xf32, strided<[1]>>
        %r = arith.mulf %a, %v : f32
        memref.store %r, %x[%i] : memref<?xf32, strided<[1]>>
      }
      gpu.return
    }
  }
}
