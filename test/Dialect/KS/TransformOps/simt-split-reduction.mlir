// RUN: ks-opt %s --transform-interpreter | FileCheck %s

// A warp per row: 32 lanes split the row, 128-bit loads behind an alignment
// check, 4 in flight, a butterfly of shuffles, the first lane stores.
// CHECK-LABEL: gpu.func @gemv
// CHECK-SAME: known_block_size = array<i32: 256, 1, 1>, ks.schedule = "simt_split_reduction"
// CHECK: memref.extract_aligned_pointer_as_index
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK: vector.load %{{.*}} {alignment = 16 : i64} : memref<?x?xf32, strided<[?, 1]>>, vector<4xf32>
// CHECK: } {ks.unroll}
// CHECK: gpu.shuffle  xor %{{.*}}, %c16_i32, %c32_i32 : f32
// CHECK: gpu.shuffle  xor %{{.*}}, %c1_i32, %c32_i32{{.*}} : f32
// CHECK: scf.if
// CHECK: memref.store
// CHECK-LABEL: func.func @launch
// CHECK: %[[G:.*]] = arith.ceildivui %{{.*}}, %c8 : index
// CHECK: gpu.launch_func @kernels::@gemv blocks in (%[[G]],
module attributes {gpu.container_module, transform.with_named_sequence} {
  gpu.module @kernels {
    gpu.func @gemv(%A: memref<?xf32>, %X: memref<?xf32>, %Y: memref<?xf32>, %Mi: i32, %Ni: i32) kernel attributes {ks.raised} {
      %zero = arith.constant 0.0 : f32
      %M = arith.index_cast %Mi : i32 to index
      %N = arith.index_cast %Ni : i32 to index
      %a = memref.reinterpret_cast %A to offset: [0], sizes: [%M, %N], strides: [%N, 1] : memref<?xf32> to memref<?x?xf32, strided<[?, 1]>>
      %x = memref.reinterpret_cast %X to offset: [0], sizes: [%N], strides: [1] : memref<?xf32> to memref<?xf32, strided<[1]>>
      %y = memref.reinterpret_cast %Y to offset: [0], sizes: [%M], strides: [1] : memref<?xf32> to memref<?xf32, strided<[1]>>
      %e = tensor.empty(%M) : tensor<?xf32>
      %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
      %ta = bufferization.to_tensor %a restrict : memref<?x?xf32, strided<[?, 1]>> to tensor<?x?xf32>
      %tx = bufferization.to_tensor %x restrict : memref<?xf32, strided<[1]>> to tensor<?xf32>
      %mv = linalg.matvec {ks.contract} ins(%ta, %tx : tensor<?x?xf32>, tensor<?xf32>) outs(%f : tensor<?xf32>) -> tensor<?xf32>
      bufferization.materialize_in_destination %mv in restrict writable %y : (tensor<?xf32>, memref<?xf32, strided<[1]>>) -> ()
      gpu.return
    }
  }
  func.func @launch(%A: memref<?xf32>, %X: memref<?xf32>, %Y: memref<?xf32>, %M: i32, %N: i32) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@gemv blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%A : memref<?xf32>, %X : memref<?xf32>, %Y : memref<?xf32>, %M : i32, %N : i32)
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.matvec"]} in %root : (!transform.any_op) -> !transform.any_op
    %k = transform.ks.simt_split_reduction %op {lanes = array<i64: 1, 32>, warps = array<i64: 8, 1>, vector = 4, unroll = 4} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
