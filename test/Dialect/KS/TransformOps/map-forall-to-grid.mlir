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
