// RUN: ks-opt %s -split-input-file --transform-interpreter --canonicalize | FileCheck %s

// An index counter (IR from another stack, not lifted C): blockDim.x is
// used as it is, with no cast of index to index; the tree sequential.
// CHECK-LABEL: gpu.func @tree_index
// CHECK-NOT: arith.index_cast
// CHECK: gpu.barrier
// CHECK-NEXT: %[[DIM:.*]] = gpu.block_dim x
// CHECK-NEXT: %[[HALF:.*]] = arith.shrui %[[DIM]], %{{.*}} : index
// CHECK: scf.while (%[[S:.*]] = %[[HALF]]) : (index) -> index
// CHECK: arith.cmpi ugt, %[[S]]
// CHECK: ^bb0(%[[S2:.*]]: index):
// CHECK: %[[ACTIVE:.*]] = arith.cmpi ult, %{{.*}}, %[[S2]] : index
// CHECK-NEXT: scf.if %[[ACTIVE]]
// CHECK-NOT: arith.remui
// CHECK: arith.shrui %[[S2]]
module attributes {gpu.container_module, transform.with_named_sequence} {
  gpu.module @kernels {
    gpu.func @tree_index(%in: memref<?xf32>, %out: memref<?xf32>)
        workgroup(%a : memref<256xf32, #gpu.address_space<workgroup>>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %tid = gpu.thread_id x
      %bid = gpu.block_id x
      %dim = gpu.block_dim x
      %base = arith.muli %bid, %dim : index
      %i = arith.addi %base, %tid : index
      %v = memref.load %in[%i] : memref<?xf32>
      memref.store %v, %a[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %last = scf.while (%s = %c1) : (index) -> index {
        %more = arith.cmpi ult, %s, %dim : index
        scf.condition(%more) %s : index
      } do {
      ^bb0(%s: index):
        %two = arith.muli %s, %c2 : index
        %r = arith.remui %tid, %two : index
        %z = arith.cmpi eq, %r, %c0 : index
        scf.if %z {
          %x = memref.load %a[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
          %j = arith.addi %tid, %s : index
          %y = memref.load %a[%j] : memref<256xf32, #gpu.address_space<workgroup>>
          %sum = arith.addf %x, %y : f32
          memref.store %sum, %a[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
        }
        gpu.barrier
        scf.yield %two : index
      }
      %first = arith.cmpi eq, %tid, %c0 : index
      scf.if %first {
        %t = memref.load %a[%c0] : memref<256xf32, #gpu.address_space<workgroup>>
        memref.store %t, %out[%bid] : memref<?xf32>
      }
      gpu.return
    }
  }
  func.func @launch(%in: memref<?xf32>, %out: memref<?xf32>, %n: index) {
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    gpu.launch_func @kernels::@tree_index blocks in (%n, %c1, %c1) threads in (%c256, %c1, %c1)
        args(%in : memref<?xf32>, %out : memref<?xf32>)
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["gpu.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %r = transform.ks.simt_sequential_tree %k : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// The strided form on index values: 2 * s * tid as tid * (s << 1), the
// operands of the maximum swapped; the element becomes tid.
// CHECK-LABEL: gpu.func @tree_strided_index
// CHECK: %[[TID:.*]] = gpu.thread_id x
// CHECK: ^bb0(%[[S:.*]]: index):
// CHECK-NEXT: %[[ACTIVE:.*]] = arith.cmpi ult, %[[TID]], %[[S]] : index
// CHECK-NEXT: scf.if %[[ACTIVE]]
// CHECK-NEXT: %[[J:.*]] = arith.addi %[[S]], %[[TID]] : index
// CHECK-NEXT: %[[Y:.*]] = memref.load %{{.*}}[%[[J]]]
// CHECK-NEXT: %[[X:.*]] = memref.load %{{.*}}[%[[TID]]]
// CHECK-NEXT: %[[M:.*]] = arith.maximumf %[[Y]], %[[X]] : f32
// CHECK-NEXT: memref.store %[[M]], %{{.*}}[%[[TID]]]
// CHECK-NOT: arith.muli
// CHECK: gpu.return
module attributes {gpu.container_module, transform.with_named_sequence} {
  gpu.module @kernels {
    gpu.func @tree_strided_index(%in: memref<?xf32>, %out: memref<?xf32>)
        workgroup(%a : memref<256xf32, #gpu.address_space<workgroup>>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %tid = gpu.thread_id x
      %bid = gpu.block_id x
      %dim = gpu.block_dim x
      %base = arith.muli %bid, %dim : index
      %i = arith.addi %base, %tid : index
      %v = memref.load %in[%i] : memref<?xf32>
      memref.store %v, %a[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %last = scf.while (%s = %c1) : (index) -> index {
        %more = arith.cmpi ult, %s, %dim : index
        scf.condition(%more) %s : index
      } do {
      ^bb0(%s: index):
        %two = arith.shli %s, %c1 : index
        %e = arith.muli %tid, %two : index
        %z = arith.cmpi ult, %e, %dim : index
        scf.if %z {
          %j = arith.addi %s, %e : index
          %y = memref.load %a[%j] : memref<256xf32, #gpu.address_space<workgroup>>
          %x = memref.load %a[%e] : memref<256xf32, #gpu.address_space<workgroup>>
          %sum = arith.maximumf %y, %x : f32
          memref.store %sum, %a[%e] : memref<256xf32, #gpu.address_space<workgroup>>
        }
        gpu.barrier
        scf.yield %two : index
      }
      %first = arith.cmpi eq, %tid, %c0 : index
      scf.if %first {
        %t = memref.load %a[%c0] : memref<256xf32, #gpu.address_space<workgroup>>
        memref.store %t, %out[%bid] : memref<?xf32>
      }
      gpu.return
    }
  }
  func.func @launch(%in: memref<?xf32>, %out: memref<?xf32>, %n: index) {
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    gpu.launch_func @kernels::@tree_strided_index blocks in (%n, %c1, %c1) threads in (%c256, %c1, %c1)
        args(%in : memref<?xf32>, %out : memref<?xf32>)
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["gpu.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %r = transform.ks.simt_sequential_tree %k : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
