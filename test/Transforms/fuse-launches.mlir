// RUN: ks-opt %s -split-input-file -verify-diagnostics --ks-fuse-launches | FileCheck %s

// Two elementwise launches through t (restrict parameters of the launcher):
// one kernel whose forall runs the first body, then the second, the second's
// load of t replaced by the value the first stored (t is still written); its
// parameters are the launches' distinct operands (t once, not const).
// CHECK-LABEL: gpu.module @kernels
// CHECK-NOT: gpu.func @scale(
// CHECK: gpu.func @scale_square(%[[X:.*]]: memref<?xf32> {ks.const, ks.name = "x"}, %[[T:.*]]: memref<?xf32> {ks.name = "t"}, %[[N:.*]]: index {ks.name = "n"}, %[[Y:.*]]: memref<?xf32> {ks.name = "y"}) kernel attributes {ks.raised}
// CHECK: scf.forall (%[[I:.*]]) in (%[[N]]) {
// CHECK-NEXT: %[[V:.*]] = memref.load %[[X]][%[[I]]]
// CHECK-NEXT: %[[D:.*]] = arith.mulf %[[V]], %{{.*}}
// CHECK-NEXT: memref.store %[[D]], %[[T]][%[[I]]]
// CHECK-NEXT: %[[S:.*]] = arith.mulf %[[D]], %[[D]]
// CHECK-NEXT: memref.store %[[S]], %[[Y]][%[[I]]]
// CHECK-NEXT: }
// CHECK-NOT: gpu.func @square(
// CHECK-LABEL: func.func @launch
// CHECK-NEXT: %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT: gpu.launch_func @kernels::@scale_square blocks in (%[[C1]], %[[C1]], %[[C1]]) threads in (%[[C1]], %[[C1]], %[[C1]]) args(%arg0 : memref<?xf32>, %arg1 : memref<?xf32>, %arg3 : index, %arg2 : memref<?xf32>)
// CHECK-NEXT: return
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @scale(%x: memref<?xf32> {ks.const, ks.name = "x"}, %t: memref<?xf32> {ks.name = "t"}, %n: index {ks.name = "n"}) kernel attributes {ks.raised} {
      %two = arith.constant 2.0 : f32
      scf.forall (%i) in (%n) {
        %v = memref.load %x[%i] : memref<?xf32>
        %d = arith.mulf %v, %two : f32
        memref.store %d, %t[%i] : memref<?xf32>
      }
      gpu.return
    }
    gpu.func @square(%t: memref<?xf32> {ks.const, ks.name = "t"}, %y: memref<?xf32> {ks.name = "y"}, %n: index {ks.name = "n"}) kernel attributes {ks.raised} {
      scf.forall (%i) in (%n) {
        %v = memref.load %t[%i] : memref<?xf32>
        %s = arith.mulf %v, %v : f32
        memref.store %s, %y[%i] : memref<?xf32>
      }
      gpu.return
    }
  }
  func.func @launch(%x: memref<?xf32> {ks.restrict}, %t: memref<?xf32> {ks.restrict}, %y: memref<?xf32> {ks.restrict}, %n: index) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@scale blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<?xf32>, %t : memref<?xf32>, %n : index)
    gpu.launch_func @kernels::@square blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%t : memref<?xf32>, %y : memref<?xf32>, %n : index)
    return
  }
}

// -----

// The same launches without __restrict__: x, t and y may overlap at an
// offset (point i of the second kernel could read what point i + 1 of the
// first writes): not fused, with a remark.
// CHECK-LABEL: func.func @maybe_overlapping
// CHECK: gpu.launch_func @kernels::@scale
// CHECK: gpu.launch_func @kernels::@square
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @scale(%x: memref<?xf32>, %t: memref<?xf32>, %n: index) kernel attributes {ks.raised} {
      %two = arith.constant 2.0 : f32
      scf.forall (%i) in (%n) {
        %v = memref.load %x[%i] : memref<?xf32>
        %d = arith.mulf %v, %two : f32
        memref.store %d, %t[%i] : memref<?xf32>
      }
      gpu.return
    }
    gpu.func @square(%t: memref<?xf32>, %y: memref<?xf32>, %n: index) kernel attributes {ks.raised} {
      scf.forall (%i) in (%n) {
        %v = memref.load %t[%i] : memref<?xf32>
        %s = arith.mulf %v, %v : f32
        memref.store %s, %y[%i] : memref<?xf32>
      }
      gpu.return
    }
  }
  func.func @maybe_overlapping(%x: memref<?xf32>, %t: memref<?xf32>, %y: memref<?xf32>, %n: index) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@scale blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<?xf32>, %t : memref<?xf32>, %n : index)
    // expected-remark @below {{ks-fuse-launches: not fused with the launch before: a written buffer and another one may overlap (mark the launcher's pointer parameters __restrict__ to fuse)}}
    gpu.launch_func @kernels::@square blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%t : memref<?xf32>, %y : memref<?xf32>, %n : index)
    return
  }
}

// -----

// The second kernel reads a neighbour of the point (t[i + 1]): another
// point's element of the first kernel's output. Not fused.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @scale(%x: memref<?xf32>, %t: memref<?xf32>, %n: index) kernel attributes {ks.raised} {
      %two = arith.constant 2.0 : f32
      scf.forall (%i) in (%n) {
        %v = memref.load %x[%i] : memref<?xf32>
        %d = arith.mulf %v, %two : f32
        memref.store %d, %t[%i] : memref<?xf32>
      }
      gpu.return
    }
    gpu.func @diff(%t: memref<?xf32>, %y: memref<?xf32>, %n: index) kernel attributes {ks.raised} {
      %c1 = arith.constant 1 : index
      scf.forall (%i) in (%n) {
        %j = arith.addi %i, %c1 : index
        %v = memref.load %t[%j] : memref<?xf32>
        memref.store %v, %y[%i] : memref<?xf32>
      }
      gpu.return
    }
  }
  func.func @neighbour(%x: memref<?xf32> {ks.restrict}, %t: memref<?xf32> {ks.restrict}, %y: memref<?xf32> {ks.restrict}, %n: index) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@scale blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<?xf32>, %t : memref<?xf32>, %n : index)
    // expected-remark @below {{ks-fuse-launches: not fused with the launch before: 'diff' accesses an element other than the point's own (a neighbour or a scatter)}}
    gpu.launch_func @kernels::@diff blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%t : memref<?xf32>, %y : memref<?xf32>, %n : index)
    return
  }
}

// -----

// Iteration spaces of different sizes (n and m): not fused.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @fill(%t: memref<?xf32>, %n: index) kernel attributes {ks.raised} {
      %one = arith.constant 1.0 : f32
      scf.forall (%i) in (%n) {
        memref.store %one, %t[%i] : memref<?xf32>
      }
      gpu.return
    }
  }
  func.func @sizes(%t: memref<?xf32> {ks.restrict}, %n: index, %m: index) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@fill blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%t : memref<?xf32>, %n : index)
    // expected-remark @below {{ks-fuse-launches: not fused with the launch before: the iteration spaces may differ}}
    gpu.launch_func @kernels::@fill blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%t : memref<?xf32>, %m : index)
    return
  }
}

// -----

// The second kernel writes t before it reads it: its load keeps reading
// memory (K2's own value), not the first kernel's.
// CHECK-LABEL: gpu.func @fill_bump
// CHECK: memref.store %{{.*}}, %{{.*}}[%[[I:.*]]]
// CHECK: memref.store %{{.*}}, %[[T:.*]][%[[I]]]
// CHECK-NEXT: %[[R:.*]] = memref.load %[[T]][%[[I]]]
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @fill(%t: memref<?xf32>, %n: index) kernel attributes {ks.raised} {
      %one = arith.constant 1.0 : f32
      scf.forall (%i) in (%n) {
        memref.store %one, %t[%i] : memref<?xf32>
      }
      gpu.return
    }
    gpu.func @bump(%t: memref<?xf32>, %y: memref<?xf32>, %n: index) kernel attributes {ks.raised} {
      %two = arith.constant 2.0 : f32
      scf.forall (%i) in (%n) {
        memref.store %two, %t[%i] : memref<?xf32>
        %v = memref.load %t[%i] : memref<?xf32>
        memref.store %v, %y[%i] : memref<?xf32>
      }
      gpu.return
    }
  }
  func.func @rewrite(%t: memref<?xf32> {ks.restrict}, %y: memref<?xf32> {ks.restrict}, %n: index) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@fill blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%t : memref<?xf32>, %n : index)
    gpu.launch_func @kernels::@bump blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%t : memref<?xf32>, %y : memref<?xf32>, %n : index)
    return
  }
}
