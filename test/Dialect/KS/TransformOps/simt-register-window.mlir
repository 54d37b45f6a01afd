// RUN: ks-opt %s -split-input-file --transform-interpreter --canonicalize --cse | FileCheck %s

// simt_halo_tile with registers = true: a register window along the
// outermost dimension. out[i][j] = in[i-1][j] + in[i+1][j] + in[i][j+1] +
// w[j]: `in` is read at offsets (-1, 0), (1, 0) and (0, 1); the first two
// differ from the point along dimension 0 alone and are staged (lo -1, hi 1),
// the right neighbour (0, 1) stays a global load, and so does `w` (one
// offset). Each of the 4 x 2 threads takes 2 consecutive rows (tile 4 rows =
// 2 threads x 2) of one column: its column's 2 + 1 - (-1) = 4 values are
// loaded first, rows i0 - 1 ... i0 + 2, each from its flat address when that
// lies inside the buffer (zero otherwise); then the 2 points, the row above
// the first point from value 0, the row below it from value 2; the second
// point's from values 1 and 3. No shared memory, no barrier.
// CHECK-LABEL: gpu.func @stencil
// CHECK-SAME: (%[[IN:[^:]*]]: memref<?xf32>, %[[W:[^:]*]]: memref<?xf32>, %[[OUT:[^:]*]]: memref<?xf32>,
// CHECK-NOT: workgroup
// CHECK-SAME: known_block_size = array<i32: 4, 2, 1>, ks.schedule = "simt_register_window"
// CHECK-NOT: gpu.barrier
// CHECK: %[[TY:.*]] = gpu.thread_id  y
// CHECK: %[[BY:.*]] = gpu.block_id  y
// CHECK: %[[ORIGIN0:.*]] = arith.muli %[[BY]], %c4
// CHECK: %[[TX:.*]] = gpu.thread_id  x
// CHECK: %[[BX:.*]] = gpu.block_id  x
// CHECK: %[[ORIGIN1:.*]] = arith.muli %[[BX]], %c4
// CHECK: %[[TY2:.*]] = arith.muli %[[TY]], %c2
// CHECK: %[[I0:.*]] = arith.addi %[[ORIGIN0]], %[[TY2]]
// CHECK: %[[J:.*]] = arith.addi %[[ORIGIN1]], %[[TX]]
// The window's end: the furthest any of the input's views reaches (each
// view's offset plus its span).
// CHECK: %[[MM1:.*]] = arith.subi %arg4, %c1
// CHECK: %[[END:.*]] = arith.maxsi %{{.*}}, %{{.*}} : index
// CHECK: %[[R0:.*]] = arith.addi %[[I0]], %c-1
// CHECK: %[[ROW0:.*]] = arith.muli %[[R0]], %arg4
// CHECK: %[[F0:.*]] = arith.addi %[[ROW0]], %[[J]]
// CHECK: %[[IN0:.*]] = arith.cmpi ult, %[[F0]], %[[END]]
// CHECK: %[[V0:.*]] = scf.if %[[IN0]] -> (f32) {
// CHECK-NEXT: %[[L0:.*]] = memref.load %[[IN]][%[[F0]]] : memref<?xf32>
// CHECK-NEXT: scf.yield %[[L0]]
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield %cst
// CHECK: %[[V1:.*]] = scf.if
// CHECK: %[[I1:.*]] = arith.addi %[[I0]], %c1
// CHECK: %[[V2:.*]] = scf.if
// CHECK: %[[V3:.*]] = scf.if
// CHECK: scf.yield %cst
// CHECK-NEXT: }
// CHECK-NOT: memref.load %[[IN]]
// The column inside the space along the other dimension, checked once; the
// first point, row i0: the rows above and below from values 0 and 2, the
// right neighbour and w global.
// CHECK: %[[JIN:.*]] = arith.cmpi ult, %[[J]], %arg4
// CHECK: scf.if %[[JIN]] {
// CHECK: %[[P0IN:.*]] = arith.cmpi ult, %[[I0]], %arg3
// CHECK: scf.if %[[P0IN]] {
// CHECK: %[[RIGHT:.*]] = memref.load %{{.*}}[%[[I0]], %{{.*}}] : memref<?x?xf32, strided<[?, 1]>>
// CHECK-NEXT: %[[WJ:.*]] = memref.load %[[W]][%[[J]]] : memref<?xf32>
// CHECK-NEXT: %[[S0:.*]] = arith.addf %[[V0]], %[[V2]]
// CHECK-NEXT: %[[S1:.*]] = arith.addf %[[S0]], %[[RIGHT]]
// CHECK-NEXT: arith.addf %[[S1]], %[[WJ]]
// The second point, row i0 + 1 (values 1 and 3), inside the first's check:
// past the space's end, so is every later point.
// CHECK: memref.store
// CHECK-NEXT: %[[P1IN:.*]] = arith.cmpi ult, %[[I1]], %arg3
// CHECK-NEXT: scf.if %[[P1IN]] {
// CHECK: memref.load %{{.*}}[%[[I1]], %{{.*}}]
// CHECK: arith.addf %[[V1]], %[[V3]]
// CHECK: memref.store
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: }
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
      %down = memref.reinterpret_cast %in0 to offset: [%m], sizes: [%n, %m], strides: [%m, 1] : memref<?xf32> to memref<?x?xf32, strided<[?, 1], offset: ?>>
      %out = memref.reinterpret_cast %out0 to offset: [0], sizes: [%n, %m], strides: [%m, 1] : memref<?xf32> to memref<?x?xf32, strided<[?, 1]>>
      scf.forall (%i, %j) in (%n, %m) {
        %a = memref.load %up[%i, %j] : memref<?x?xf32, strided<[?, 1], offset: ?>>
        %d = memref.load %down[%i, %j] : memref<?x?xf32, strided<[?, 1], offset: ?>>
        %j1 = arith.addi %j, %c1 : index
        %b = memref.load %in[%i, %j1] : memref<?x?xf32, strided<[?, 1]>>
        %c = memref.load %w[%j] : memref<?xf32>
        %s = arith.addf %a, %d : f32
        %t = arith.addf %s, %b : f32
        %u = arith.addf %t, %c : f32
        memref.store %u, %out[%i, %j] : memref<?x?xf32, strided<[?, 1]>>
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
    %k = transform.ks.simt_halo_tile %f {tile = array<i64: 4, 4>, block = array<i64: 4, 2>, registers = true} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// The neighbours' views are offset by the row stride computed another way:
// the view's stride is `r * m` in index, the source's offsets `(long)m * r`
// in i64 (nsw) — the same value (sameSignedValue), so the rows above and
// below are read from the window.
// CHECK-LABEL: gpu.func @stride_spelled_twice
// CHECK-SAME: ks.schedule = "simt_register_window"
// CHECK-NOT: offset: ?
// CHECK: memref.load %arg0[
// CHECK-NOT: offset: ?
// CHECK: memref.store
module attributes {gpu.container_module, transform.with_named_sequence} {
  gpu.module @kernels {
    gpu.func @stride_spelled_twice(%in0: memref<?xf32>, %out0: memref<?xf32>, %n: index, %m32: i32, %r32: i32) kernel attributes {ks.raised} {
      %m = arith.index_cast %m32 : i32 to index
      %r = arith.index_cast %r32 : i32 to index
      %stride = arith.muli %r, %m : index
      %m64 = arith.extsi %m32 : i32 to i64
      %r64 = arith.extsi %r32 : i32 to i64
      %s64 = arith.muli %m64, %r64 overflow<nsw> : i64
      %s = arith.index_cast %s64 : i64 to index
      %c0 = arith.constant 0 : index
      %negs = arith.subi %c0, %s : index
      %up = memref.reinterpret_cast %in0 to offset: [%negs], sizes: [%n, %m], strides: [%stride, 1] : memref<?xf32> to memref<?x?xf32, strided<[?, 1], offset: ?>>
      %down = memref.reinterpret_cast %in0 to offset: [%s], sizes: [%n, %m], strides: [%stride, 1] : memref<?xf32> to memref<?x?xf32, strided<[?, 1], offset: ?>>
      %out = memref.reinterpret_cast %out0 to offset: [0], sizes: [%n, %m], strides: [%stride, 1] : memref<?xf32> to memref<?x?xf32, strided<[?, 1]>>
      scf.forall (%i, %j) in (%n, %m) {
        %a = memref.load %up[%i, %j] : memref<?x?xf32, strided<[?, 1], offset: ?>>
        %d = memref.load %down[%i, %j] : memref<?x?xf32, strided<[?, 1], offset: ?>>
        %t = arith.addf %a, %d : f32
        memref.store %t, %out[%i, %j] : memref<?x?xf32, strided<[?, 1]>>
      }
      gpu.return
    }
  }
  func.func @launch(%in: memref<?xf32>, %out: memref<?xf32>, %n: index, %m: i32, %r: i32) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@stride_spelled_twice blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%in : memref<?xf32>, %out : memref<?xf32>, %n : index, %m : i32, %r : i32)
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    %k = transform.ks.simt_halo_tile %f {tile = array<i64: 4, 4>, block = array<i64: 4, 2>, registers = true} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
