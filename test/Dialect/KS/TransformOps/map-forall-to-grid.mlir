// RUN: ks-opt %s -split-input-file --transform-interpreter | FileCheck %s

// A raised kernel's forall back on threads: x for the innermost dimension,
// a bounds check, ceil(extent / block) blocks; the launcher follows.
// CHECK-LABEL: gpu.func @copy2d
// CHECK-SAME: known_block_size = array<i32: 32, 8, 1>, ks.schedule = "simt_one_per_thread"
// CHECK: %[[TX:.*]] = gpu.thread_id x
// CHECK: %[[X:.*]] = arith.addi %{{.*}}, %[[TX]] : index
// CHECK: %[[TY:.*]] = gpu.thread_id y
// CHECK: %[[Y:.*]] = arith.addi %{{.*}}, %[[TY]] : index
// CHECK: scf.if %{{.*}} {
// CHECK: memref.load %arg0[%[[Y]], %[[X]]]
// CHECK-LABEL: func.func @launch
// CHECK-DAG: %[[GX:.*]] = arith.ceildivui %{{.*}}, %c32 : index
// CHECK-DAG: %[[GY:.*]] = arith.ceildivui %{{.*}}, %c8 : index
// CHECK: gpu.launch_func @kernels::@copy2d blocks in (%[[GX]], %[[GY]], %{{.*}}) threads in (%c32{{.*}}, %c8{{.*}}, %c1{{.*}})
module attributes {gpu.container_module, transform.with_named_sequence} {
  gpu.module @kernels {
    gpu.func @copy2d(%in: memref<?x?xf32>, %out: memref<?x?xf32>, %m: index, %n: index) kernel attributes {ks.raised} {
      scf.forall (%i, %j) in (%m, %n) {
        %v = memref.load %in[%i, %j] : memref<?x?xf32>
        memref.store %v, %out[%j, %i] : memref<?x?xf32>
      }
      gpu.return
    }
  }
  func.func @launch(%in: memref<?x?xf32>, %out: memref<?x?xf32>, %m: index, %n: index) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@copy2d blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%in : memref<?x?xf32>, %out : memref<?x?xf32>, %m : index, %n : index)
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    %k = transform.ks.map_forall_to_grid %f {block = array<i64: 32, 8, 1>} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Four dimensions: the two outer ones share z, delinearized.
// CHECK-LABEL: gpu.func @four_d
// CHECK: %[[TZ:.*]] = gpu.thread_id z
// CHECK: %[[Z:.*]] = arith.addi %{{.*}}, %[[TZ]] : index
// CHECK: scf.if
// CHECK: %[[D1:.*]] = arith.remui %[[Z]], %arg2 : index
// CHECK: %[[D0:.*]] = arith.divui %[[Z]], %arg2 : index
// CHECK: memref.store %{{.*}}, %arg0[%[[D0]], %[[D1]], %{{.*}}, %{{.*}}]
module attributes {gpu.container_module, transform.with_named_sequence} {
  gpu.module @kernels {
    gpu.func @four_d(%out: memref<?x?x?x?xf32>, %a: index, %b: index, %c: index, %d: index) kernel attributes {ks.raised} {
      %one = arith.constant 1.0 : f32
      scf.forall (%i, %j, %k, %l) in (%a, %b, %c, %d) {
        memref.store %one, %out[%i, %j, %k, %l] : memref<?x?x?x?xf32>
      }
      gpu.return
    }
  }
  func.func @launch(%out: memref<?x?x?x?xf32>, %a: index, %b: index, %c: index, %d: index) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@four_d blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%out : memref<?x?x?x?xf32>, %a : index, %b : index, %c : index, %d : index)
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    %k = transform.ks.map_forall_to_grid %f {block = array<i64: 64, 4, 1>} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Coarsened: two points per thread along y, 8 rows apart (blocks of 16
// rows). The stores of both branches move after the scf.if, so the body
// ends in its store: both points' values first (zero outside the space),
// then both points' stores under their bounds checks.
// CHECK-LABEL: gpu.func @border
// CHECK-SAME: ks.schedule = "simt_coarsened_grid"
// CHECK: %[[BY:.*]] = gpu.block_id y
// CHECK: %[[TY:.*]] = gpu.thread_id y
// CHECK: %[[Y0:.*]] = arith.muli %[[BY]], %c16
// CHECK: %[[I0:.*]] = arith.addi %[[Y0]], %[[TY]]
// CHECK: %[[I1:.*]] = arith.addi %[[I0]], %c8
// CHECK: %[[V0:.*]] = scf.if %{{.*}} -> (f32) {
// CHECK: %[[E0:.*]] = scf.if %{{.*}} -> (f32) {
// CHECK: memref.load %arg0[%[[I0]], %{{.*}}]
// CHECK: } else {
// CHECK: arith.mulf
// CHECK: scf.yield %[[E0]] : f32
// CHECK: } else {
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: scf.yield %[[ZERO]] : f32
// CHECK: %[[V1:.*]] = scf.if %{{.*}} -> (f32) {
// CHECK: memref.load %arg0[%[[I1]], %{{.*}}]
// CHECK: scf.if %{{[0-9]+}} {
// CHECK-NEXT: memref.store %[[V0]], %arg1[%[[I0]], %{{.*}}]
// CHECK: scf.if %{{[0-9]+}} {
// CHECK-NEXT: memref.store %[[V1]], %arg1[%[[I1]], %{{.*}}]
// CHECK-LABEL: func.func @launch
// CHECK-DAG: %[[GX:.*]] = arith.ceildivui %{{.*}}, %c32 : index
// CHECK-DAG: %[[GY:.*]] = arith.ceildivui %{{.*}}, %c16 : index
// CHECK: gpu.launch_func @kernels::@border blocks in (%[[GX]], %[[GY]], %{{.*}}) threads in (%c32{{.*}}, %c8{{.*}}, %c1{{.*}})
module attributes {gpu.container_module, transform.with_named_sequence} {
  gpu.module @kernels {
    gpu.func @border(%in: memref<?x?xf32>, %out: memref<?x?xf32>, %m: index, %n: index) kernel attributes {ks.raised} {
      %c0 = arith.constant 0 : index
      %half = arith.constant 0.5 : f32
      scf.forall (%i, %j) in (%m, %n) {
        %edge = arith.cmpi eq, %i, %c0 : index
        scf.if %edge {
          %v = memref.load %in[%i, %j] : memref<?x?xf32>
          memref.store %v, %out[%i, %j] : memref<?x?xf32>
        } else {
          %v = memref.load %in[%i, %j] : memref<?x?xf32>
          %w = arith.mulf %v, %half : f32
          memref.store %w, %out[%i, %j] : memref<?x?xf32>
        }
      }
      gpu.return
    }
  }
  func.func @launch(%in: memref<?x?xf32>, %out: memref<?x?xf32>, %m: index, %n: index) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@border blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%in : memref<?x?xf32>, %out : memref<?x?xf32>, %m : index, %n : index)
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    %k = transform.ks.map_forall_to_grid %f {block = array<i64: 32, 8, 1>, coarsen = array<i64: 1, 2, 1>} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A body that reads after it stores does not end in its stores: coarsened
// point by point (each point's body under its bounds check, in order).
// CHECK-LABEL: gpu.func @store_then_load
// CHECK: scf.if %{{.*}} {
// CHECK-NEXT: memref.store
// CHECK-NEXT: memref.load
// CHECK-NEXT: memref.store
// CHECK-NEXT: }
// CHECK: scf.if %{{.*}} {
// CHECK-NEXT: memref.store
// CHECK-NEXT: memref.load
// CHECK-NEXT: memref.store
// CHECK-NEXT: }
module attributes {gpu.container_module, transform.with_named_sequence} {
  gpu.module @kernels {
    gpu.func @store_then_load(%a: memref<?xf32>, %b: memref<?xf32>, %n: index) kernel attributes {ks.raised} {
      %one = arith.constant 1.0 : f32
      scf.forall (%i) in (%n) {
        memref.store %one, %a[%i] : memref<?xf32>
        %v = memref.load %a[%i] : memref<?xf32>
        memref.store %v, %b[%i] : memref<?xf32>
      }
      gpu.return
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    %k = transform.ks.map_forall_to_grid %f {block = array<i64: 128, 1, 1>, coarsen = array<i64: 2, 1, 1>} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
