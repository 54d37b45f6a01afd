// RUN: ks-opt %s -split-input-file -verify-diagnostics --transform-interpreter --canonicalize --cse | FileCheck %s

// out[j][i] = in[i][j]: the values computed with x along j into a padded
// shared tile, stored after a barrier with x along i; the launch becomes
// ceil(cols / 32) x ceil(rows / 32) blocks of 32 x 8.
// CHECK-LABEL: gpu.func @transpose
// CHECK-SAME: workgroup(%[[TILE:.*]] : memref<32x33xf32, #gpu.address_space<workgroup>>
// CHECK-SAME: known_block_size = array<i32: 32, 8, 1>
// CHECK-DAG: %[[TX:.*]] = gpu.thread_id x
// CHECK-DAG: %[[TY:.*]] = gpu.thread_id y
// CHECK: scf.for
// CHECK: %[[II:.*]] = arith.addi %[[TY]], %{{.*}} : index
// CHECK: scf.if
// CHECK: %[[V:.*]] = memref.load %{{.*}}[%{{.*}}, %{{.*}}] : memref<?x?xf32
// CHECK: memref.store %[[V]], %[[TILE]][%[[II]], %[[TX]]]
// CHECK: } {ks.unroll}
// CHECK: gpu.barrier
// CHECK: scf.for
// CHECK: %[[JJ:.*]] = arith.addi %[[TY]], %{{.*}} : index
// CHECK: scf.if
// CHECK: %[[W:.*]] = memref.load %[[TILE]][%[[TX]], %[[JJ]]]
// CHECK: memref.store %[[W]]
// CHECK: } {ks.unroll}
// CHECK: func.func @launch
// CHECK: %[[GX:.*]] = arith.ceildivui %{{.*}}, %c32
// CHECK: %[[GY:.*]] = arith.ceildivui %{{.*}}, %c32
// CHECK: gpu.launch_func @kernels::@transpose blocks in (%[[GX]], %[[GY]], %c1) threads in (%c32, %c8, %c1)
module attributes {gpu.container_module, transform.with_named_sequence} {
  gpu.module @kernels {
    gpu.func @transpose(%in: memref<?xf32>, %out: memref<?xf32>, %rows: i32, %cols: i32) kernel attributes {ks.raised} {
      %r = arith.index_cast %rows : i32 to index
      %c = arith.index_cast %cols : i32 to index
      %vin = memref.reinterpret_cast %in to offset: [0], sizes: [%r, %c], strides: [%c, 1] : memref<?xf32> to memref<?x?xf32, strided<[?, 1]>>
      %vout = memref.reinterpret_cast %out to offset: [0], sizes: [%c, %r], strides: [%r, 1] : memref<?xf32> to memref<?x?xf32, strided<[?, 1]>>
      scf.forall (%i, %j) in (%r, %c) {
        %v = memref.load %vin[%i, %j] : memref<?x?xf32, strided<[?, 1]>>
        memref.store %v, %vout[%j, %i] : memref<?x?xf32, strided<[?, 1]>>
      }
      gpu.return
    }
  }
  func.func @launch(%in: memref<?xf32>, %out: memref<?xf32>, %rows: i32, %cols: i32) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@transpose blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%in : memref<?xf32>, %out : memref<?xf32>, %rows : i32, %cols : i32)
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    %k = transform.ks.simt_transpose_tile %f {tile = array<i64: 32, 32>, block = array<i64: 32, 8>, pad = 1} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// The body reads the buffer it writes: refused.
module attributes {gpu.container_module, transform.with_named_sequence} {
  gpu.module @kernels {
    gpu.func @inplace(%a: memref<?xf32>, %n: i32) kernel attributes {ks.raised} {
      %m = arith.index_cast %n : i32 to index
      %v = memref.reinterpret_cast %a to offset: [0], sizes: [%m, %m], strides: [%m, 1] : memref<?xf32> to memref<?x?xf32, strided<[?, 1]>>
      // expected-note @below {{target}}
      scf.forall (%i, %j) in (%m, %m) {
        %x = memref.load %v[%i, %j] : memref<?x?xf32, strided<[?, 1]>>
        memref.store %x, %v[%j, %i] : memref<?x?xf32, strided<[?, 1]>>
      }
      gpu.return
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{ks.simt_transpose_tile: the body reads the buffer it writes}}
    %k = transform.ks.simt_transpose_tile %f : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Block sizes that do not divide the tile: refused.
module attributes {gpu.container_module, transform.with_named_sequence} {
  gpu.module @kernels {
    gpu.func @copy(%a: memref<?xf32>, %b: memref<?xf32>, %n: i32) kernel attributes {ks.raised} {
      %m = arith.index_cast %n : i32 to index
      %va = memref.reinterpret_cast %a to offset: [0], sizes: [%m, %m], strides: [%m, 1] : memref<?xf32> to memref<?x?xf32, strided<[?, 1]>>
      %vb = memref.reinterpret_cast %b to offset: [0], sizes: [%m, %m], strides: [%m, 1] : memref<?xf32> to memref<?x?xf32, strided<[?, 1]>>
      // expected-note @below {{target}}
      scf.forall (%i, %j) in (%m, %m) {
        %x = memref.load %va[%i, %j] : memref<?x?xf32, strided<[?, 1]>>
        memref.store %x, %vb[%j, %i] : memref<?x?xf32, strided<[?, 1]>>
      }
      gpu.return
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{ks.simt_transpose_tile: block x must divide the tile's columns}}
    %k = transform.ks.simt_transpose_tile %f {tile = array<i64: 32, 48>, block = array<i64: 32, 8>} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
