// RUN: ks-opt %s -split-input-file --transform-interpreter --canonicalize --cse | FileCheck %s

// A 2-D stencil out[i][j] = in[i-1][j] + in[i][j+1] + w[j], the row above
// through the raising's view offset by -m, the right neighbour through the
// index: `in` is staged (offsets (-1, 0) and (0, 1): a (4+1) x (4+1) tile),
// `w` (one offset) stays global. Phase 1: the 25 tile elements over the 8
// threads, 4 turns unrolled, each element loaded from its flat address
// (row i0 - 1 + h0, column j0 + h1) when that lies inside the buffer the
// views describe (below (n-1)*m + 1 + (m-1)); a barrier; phase 2: each
// thread's 2 points (2 rows apart), inside the space, reading `in` from the
// tile at the point's place plus the offset minus the lowest offset.
// CHECK-LABEL: gpu.func @stencil
// CHECK-SAME: workgroup(%[[TILE:.*]] : memref<5x5xf32, #gpu.address_space<workgroup>>
// CHECK-SAME: known_block_size = array<i32: 4, 2, 1>, ks.schedule = "simt_halo_tile"
// CHECK: %[[TY:.*]] = gpu.thread_id  y
// CHECK: %[[BY:.*]] = gpu.block_id  y
// CHECK: %[[I0:.*]] = arith.muli %[[BY]], %c4
// CHECK: %[[TX:.*]] = gpu.thread_id  x
// CHECK: %[[BX:.*]] = gpu.block_id  x
// CHECK: %[[J0:.*]] = arith.muli %[[BX]], %c4
// CHECK: %[[TY4:.*]] = arith.muli %[[TY]], %c4
// CHECK: %[[T:.*]] = arith.addi %[[TX]], %[[TY4]]
// CHECK: %[[NM1:.*]] = arith.subi %arg3, %c1
// CHECK: %[[LAST:.*]] = arith.muli %[[NM1]], %arg4
// CHECK: %[[LAST1:.*]] = arith.addi %[[LAST]], %c1
// CHECK: %[[MM1:.*]] = arith.subi %arg4, %c1
// CHECK: %[[SPAN:.*]] = arith.addi %[[LAST1]], %[[MM1]]
// The furthest any view of the input reaches (its offset plus its span).
// CHECK: %[[END:.*]] = arith.maxsi %{{.*}}, %[[SPAN]]
// CHECK: scf.for %[[R:.*]] = %c0 to %c4 step %c1 {
// CHECK: %[[R8:.*]] = arith.muli %[[R]], %c8
// CHECK: %[[E:.*]] = arith.addi %[[T]], %[[R8]]
// CHECK: %[[IN:.*]] = arith.cmpi ult, %[[E]], %c25
// CHECK: scf.if %[[IN]] {
// CHECK: %[[H1:.*]] = arith.remui %[[E]], %c5
// CHECK: %[[H0:.*]] = arith.divui %[[E]], %c5
// CHECK: %[[G0:.*]] = arith.addi %[[I0]], %[[H0]]
// CHECK: %[[G0LO:.*]] = arith.addi %[[G0]], %c-1
// CHECK: %[[ROW:.*]] = arith.muli %[[G0LO]], %arg4
// CHECK: %[[G1:.*]] = arith.addi %[[J0]], %[[H1]]
// CHECK: %[[FLAT:.*]] = arith.addi %[[ROW]], %[[G1]]
// CHECK: %[[INSIDE:.*]] = arith.cmpi ult, %[[FLAT]], %[[END]]
// CHECK: scf.if %[[INSIDE]] {
// CHECK: %[[V:.*]] = memref.load %arg0[%[[FLAT]]] : memref<?xf32>
// CHECK: memref.store %[[V]], %[[TILE]][%[[H0]], %[[H1]]]
// CHECK: } {ks.unroll}
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: scf.for %[[A:.*]] = %c0 to %c2 step %c1 {
// CHECK: %[[A2:.*]] = arith.muli %[[A]], %c2
// CHECK: %[[LI:.*]] = arith.addi %[[TY]], %[[A2]]
// CHECK: %[[PI:.*]] = arith.addi %[[I0]], %[[LI]]
// CHECK: %[[PIIN:.*]] = arith.cmpi ult, %[[PI]], %arg3
// CHECK: %[[PJ:.*]] = arith.addi %[[J0]], %[[TX]]
// CHECK: %[[PJIN:.*]] = arith.cmpi ult, %[[PJ]], %arg4
// CHECK: %[[PIN:.*]] = arith.andi %[[PIIN]], %[[PJIN]]
// CHECK: scf.if %[[PIN]] {
// The row above: tile row li + (-1) - (-1), column tx + 0 - 0.
// CHECK-NEXT: %[[UP:.*]] = memref.load %[[TILE]][%[[LI]], %[[TX]]]
// The right neighbour: tile row li + 0 - (-1), column tx + 1 - 0.
// CHECK-NEXT: %[[LI1:.*]] = arith.addi %[[LI]], %c1
// CHECK-NEXT: %[[TX1:.*]] = arith.addi %[[TX]], %c1
// CHECK-NEXT: %[[RIGHT:.*]] = memref.load %[[TILE]][%[[LI1]], %[[TX1]]]
// CHECK-NEXT: %[[W:.*]] = memref.load %arg1[%[[PJ]]] : memref<?xf32>
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[UP]], %[[RIGHT]]
// CHECK-NEXT: %[[SUM:.*]] = arith.addf %[[S]], %[[W]]
// CHECK-NEXT: memref.store %[[SUM]], %{{.*}}[%[[PI]], %[[PJ]]]
// CHECK: } {ks.unroll}
// CHECK-LABEL: func.func @launch
// CHECK: %[[GX:.*]] = arith.ceildivui %arg4, %c4
// CHECK: %[[GY:.*]] = arith.ceildivui %arg3, %c4
// CHECK: gpu.launch_func @kernels::@stencil blocks in (%[[GX]], %[[GY]], %c1{{.*}}) threads in (%c4{{.*}}, %c2{{.*}}, %c1{{.*}})
module attributes {gpu.container_module, transform.with_named_sequence} {
  gpu.module @kernels {
    gpu.func @stencil(%in0: memref<?xf32>, %w: memref<?xf32>, %out0: memref<?xf32>, %n: index, %m: index) kernel attributes {ks.raised} {
      %c1 = arith.constant 1 : index
      %cm1 = arith.constant -1 : index
      %negm = arith.muli %m, %cm1 : index
      %in = memref.reinterpret_cast %in0 to offset: [0], sizes: [%n, %m], strides: [%m, 1] : memref<?xf32> to memref<?x?xf32, strided<[?, 1]>>
      %up = memref.reinterpret_cast %in0 to offset: [%negm], sizes: [%n, %m], strides: [%m, 1] : memref<?xf32> to memref<?x?xf32, strided<[?, 1], offset: ?>>
      %out = memref.reinterpret_cast %out0 to offset: [0], sizes: [%n, %m], strides: [%m, 1] : memref<?xf32> to memref<?x?xf32, strided<[?, 1]>>
      scf.forall (%i, %j) in (%n, %m) {
        %a = memref.load %up[%i, %j] : memref<?x?xf32, strided<[?, 1], offset: ?>>
        %j1 = arith.addi %j, %c1 : index
        %b = memref.load %in[%i, %j1] : memref<?x?xf32, strided<[?, 1]>>
        %c = memref.load %w[%j] : memref<?xf32>
        %s = arith.addf %a, %b : f32
        %t = arith.addf %s, %c : f32
        memref.store %t, %out[%i, %j] : memref<?x?xf32, strided<[?, 1]>>
      }
      gpu.return
    }
  }
  func.func @launch(%in: memref<?xf32>, %w: memref<?xf32>, %out: memref<?xf32>, %n: index, %m: index) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@stencil blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%in : memref<?xf32>, %w : memref<?xf32>, %out : memref<?xf32>, %n : index, %m : index)
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    %k = transform.ks.simt_halo_tile %f {tile = array<i64: 4, 4>, block = array<i64: 4, 2>} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Three dimensions, x along the innermost: the view offset by the plane
// stride (-s, from 0 - s) and the constant 1 (one element along x) give
// offsets (-1, 0, 0) and (0, 0, 1): a (2+1) x 2 x (4+1) tile; blocks
// (x, y, z) = (4 / 4, 2 / 2, 2 / 1) tiles per dimension, 2 planes per thread.
// CHECK-LABEL: gpu.func @stencil3
// CHECK-SAME: workgroup(%[[TILE:.*]] : memref<3x2x5xf32, #gpu.address_space<workgroup>>
// CHECK-SAME: known_block_size = array<i32: 4, 2, 1>
// CHECK: %[[S:.*]] = arith.muli %arg2, %arg2
// CHECK: %[[TZ:.*]] = gpu.thread_id  z
// CHECK: %[[Z0:.*]] = arith.muli %{{.*}}, %c2
// CHECK: %[[TY:.*]] = gpu.thread_id  y
// CHECK: %[[TX:.*]] = gpu.thread_id  x
// The tile's first plane is the plane below the block's first: z0 - 1.
// CHECK: %[[H1:.*]] = arith.remui %{{.*}}, %c2
// CHECK: %[[H0:.*]] = arith.divui %{{.*}}, %c2
// CHECK: %[[G0:.*]] = arith.addi %[[Z0]], %[[H0]]
// CHECK: %[[G0LO:.*]] = arith.addi %[[G0]], %c-1
// CHECK: arith.muli %[[G0LO]], %[[S]]
// CHECK: gpu.barrier
// CHECK: scf.for %[[A:.*]] = %c0 to %c2 step %c1 {
// CHECK: %[[LZ:.*]] = arith.addi %[[TZ]], %[[A]]
// Below: plane lz + (-1) - (-1); right: plane lz + 0 - (-1), column tx + 1.
// CHECK: %[[BELOW:.*]] = memref.load %[[TILE]][%[[LZ]], %[[TY]], %[[TX]]]
// CHECK: %[[LZ1:.*]] = arith.addi %[[LZ]], %c1
// CHECK: %[[TX1:.*]] = arith.addi %[[TX]], %c1
// CHECK: %[[RIGHT:.*]] = memref.load %[[TILE]][%[[LZ1]], %[[TY]], %[[TX1]]]
// CHECK: arith.addf %[[BELOW]], %[[RIGHT]]
// CHECK-LABEL: func.func @launch
// CHECK-DAG: %[[GX:.*]] = arith.ceildivui %arg2, %c4
// CHECK-DAG: %[[GY:.*]] = arith.ceildivui %arg2, %c2
// CHECK: gpu.launch_func @kernels::@stencil3 blocks in (%[[GX]], %[[GY]], %[[GY]]) threads in (%c4{{.*}}, %c2{{.*}}, %c1{{.*}})
module attributes {gpu.container_module, transform.with_named_sequence} {
  gpu.module @kernels {
    gpu.func @stencil3(%in0: memref<?xf32>, %out0: memref<?xf32>, %n: index) kernel attributes {ks.raised} {
      %c0 = arith.constant 0 : index
      %s = arith.muli %n, %n : index
      %negs = arith.subi %c0, %s : index
      %in = memref.reinterpret_cast %in0 to offset: [0], sizes: [%n, %n, %n], strides: [%s, %n, 1] : memref<?xf32> to memref<?x?x?xf32, strided<[?, ?, 1]>>
      %below = memref.reinterpret_cast %in0 to offset: [%negs], sizes: [%n, %n, %n], strides: [%s, %n, 1] : memref<?xf32> to memref<?x?x?xf32, strided<[?, ?, 1], offset: ?>>
      %right = memref.reinterpret_cast %in0 to offset: [1], sizes: [%n, %n, %n], strides: [%s, %n, 1] : memref<?xf32> to memref<?x?x?xf32, strided<[?, ?, 1], offset: 1>>
      %out = memref.reinterpret_cast %out0 to offset: [0], sizes: [%n, %n, %n], strides: [%s, %n, 1] : memref<?xf32> to memref<?x?x?xf32, strided<[?, ?, 1]>>
      scf.forall (%z, %y, %x) in (%n, %n, %n) {
        %a = memref.load %below[%z, %y, %x] : memref<?x?x?xf32, strided<[?, ?, 1], offset: ?>>
        %b = memref.load %right[%z, %y, %x] : memref<?x?x?xf32, strided<[?, ?, 1], offset: 1>>
        %t = arith.addf %a, %b : f32
        memref.store %t, %out[%z, %y, %x] : memref<?x?x?xf32, strided<[?, ?, 1]>>
      }
      gpu.return
    }
  }
  func.func @launch(%in: memref<?xf32>, %out: memref<?xf32>, %n: index) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@stencil3 blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%in : memref<?xf32>, %out : memref<?xf32>, %n : index)
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    %k = transform.ks.simt_halo_tile %f {tile = array<i64: 2, 2, 4>, block = array<i64: 4, 2, 1>} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Streamed (stream = 2): each block walks its 4 rows 2 per step with one
// thread along them. The window holds 2 + (0 - (-1)) = 3 rows: first the
// row above the block's first (slot 0), then per step the step's 2 rows
// (slots (step + 1 + k) mod 3), a barrier, the 2 rows' points one after the
// other (the row above each from slot (row + 0) mod 3, the point's own row
// from (row + 1) mod 3), a barrier.
// CHECK-LABEL: gpu.func @stream
// CHECK-SAME: workgroup(%[[TILE:.*]] : memref<3x5xf32, #gpu.address_space<workgroup>>
// CHECK-SAME: known_block_size = array<i32: 4, 1, 1>
// CHECK: %[[I0:.*]] = arith.muli %{{.*}}, %c4
// CHECK: %[[TX:.*]] = gpu.thread_id  x
// The prologue: 5 elements of one row over 4 threads, into slot 0.
// CHECK: scf.for %{{.*}} = %c0 to %c2 step %c1 {
// CHECK: memref.store %{{.*}}, %[[TILE]][%{{.*}}, %{{.*}}]
// CHECK: } {ks.unroll}
// CHECK: scf.for %[[STEP:.*]] = %c0 to %c4 step %c2 {
// CHECK: scf.for %{{.*}} = %c0 to %c3 step %c1 {
// CHECK: %[[SLOT:.*]] = arith.remui %{{.*}}, %c3
// CHECK: memref.store %{{.*}}, %[[TILE]][%[[SLOT]], %{{.*}}]
// CHECK: } {ks.unroll}
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: scf.for %[[K:.*]] = %c0 to %c2 step %c1 {
// CHECK-NEXT: %[[ROW:.*]] = arith.addi %[[STEP]], %[[K]]
// CHECK: %[[UPSLOT:.*]] = arith.remui %[[ROW]], %c3
// CHECK-NEXT: %[[UP:.*]] = memref.load %[[TILE]][%[[UPSLOT]], %[[TX]]]
// CHECK: gpu.barrier
// CHECK-LABEL: func.func @launch
// CHECK: threads in (%c4{{.*}}, %c1{{.*}}, %c1{{.*}})
module attributes {gpu.container_module, transform.with_named_sequence} {
  gpu.module @kernels {
    gpu.func @stream(%in0: memref<?xf32>, %out0: memref<?xf32>, %n: index, %m: index) kernel attributes {ks.raised} {
      %c1 = arith.constant 1 : index
      %cm1 = arith.constant -1 : index
      %negm = arith.muli %m, %cm1 : index
      %in = memref.reinterpret_cast %in0 to offset: [0], sizes: [%n, %m], strides: [%m, 1] : memref<?xf32> to memref<?x?xf32, strided<[?, 1]>>
      %up = memref.reinterpret_cast %in0 to offset: [%negm], sizes: [%n, %m], strides: [%m, 1] : memref<?xf32> to memref<?x?xf32, strided<[?, 1], offset: ?>>
      %out = memref.reinterpret_cast %out0 to offset: [0], sizes: [%n, %m], strides: [%m, 1] : memref<?xf32> to memref<?x?xf32, strided<[?, 1]>>
      scf.forall (%i, %j) in (%n, %m) {
        %a = memref.load %up[%i, %j] : memref<?x?xf32, strided<[?, 1], offset: ?>>
        %j1 = arith.addi %j, %c1 : index
        %b = memref.load %in[%i, %j1] : memref<?x?xf32, strided<[?, 1]>>
        %s = arith.addf %a, %b : f32
        memref.store %s, %out[%i, %j] : memref<?x?xf32, strided<[?, 1]>>
      }
      gpu.return
    }
  }
  func.func @launch(%in: memref<?xf32>, %out: memref<?xf32>, %n: index, %m: index) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@stream blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%in : memref<?xf32>, %out : memref<?xf32>, %n : index, %m : index)
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    %k = transform.ks.simt_halo_tile %f {tile = array<i64: 4, 4>, block = array<i64: 4, 1>, stream = 2} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
