// RUN: ks-opt %s -split-input-file --transform-interpreter | FileCheck %s

// The register-tiled GEMM: 256 threads, 16-byte aligned shared tiles (A
// k-outer and padded, B as it lies), 128-bit global loads behind an
// alignment check, register double buffering (one barrier per step), the
// multiply-adds with the source's contraction, predicated stores; the
// launcher launches ceil(M / 128) * ceil(N / 128) blocks of 256 threads.
// CHECK-LABEL: gpu.func @gemm
// CHECK-SAME: workgroup(%[[AS:.*]] : memref<2x8x132xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}, %[[BS:.*]] : memref<2x8x128xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// CHECK-SAME: kernel attributes {known_block_size = array<i32: 256, 1, 1>, ks.schedule = "simt_outer_product"}
// CHECK-NOT: linalg.
// CHECK: %[[ACC:.*]] = memref.alloca() : memref<8x8xf32>
// CHECK: memref.extract_aligned_pointer_as_index
// CHECK: vector.load %{{.*}}[%{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<?x?xf32, strided<[?, 1]>>, vector<4xf32>
// CHECK: gpu.barrier
// CHECK: scf.for
// CHECK: vector.load %[[AS]][%{{.*}}, %{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<2x8x132xf32, #gpu.address_space<workgroup>>, vector<4xf32>
// CHECK: arith.mulf %{{.*}}, %{{.*}} fastmath<contract>
// CHECK: arith.addf %{{.*}}, %{{.*}} fastmath<contract>
// CHECK: } {ks.unroll}
// CHECK: gpu.barrier
// CHECK: scf.if
// CHECK: memref.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] : memref<?x?xf32, strided<[?, 1]>>
// CHECK-LABEL: func.func @launch
// CHECK: %[[TM:.*]] = arith.ceildivui %{{.*}}, %{{.*}} : index
// CHECK: %[[TN:.*]] = arith.ceildivui %{{.*}}, %{{.*}} : index
// CHECK: %[[G:.*]] = arith.muli %[[TM]], %[[TN]] : index
// CHECK: %[[T:.*]] = arith.constant 256 : index
// CHECK: gpu.launch_func @kernels::@gemm blocks in (%[[G]], %{{.*}}, %{{.*}}) threads in (%[[T]], %{{.*}}, %{{.*}})
module attributes {gpu.container_module, transform.with_named_sequence} {
  gpu.module @kernels {
    gpu.func @gemm(%A: memref<?xf32>, %B: memref<?xf32>, %C: memref<?xf32>, %Mi: i32, %Ni: i32, %Ki: i32) kernel attributes {ks.raised} {
      %zero = arith.constant 0.0 : f32
      %M = arith.index_cast %Mi : i32 to index
      %N = arith.index_cast %Ni : i32 to index
      %K = arith.index_cast %Ki : i32 to index
      %a = memref.reinterpret_cast %A to offset: [0], sizes: [%M, %K], strides: [%K, 1] : memref<?xf32> to memref<?x?xf32, strided<[?, 1]>>
      %b = memref.reinterpret_cast %B to offset: [0], sizes: [%K, %N], strides: [%N, 1] : memref<?xf32> to memref<?x?xf32, strided<[?, 1]>>
      %c = memref.reinterpret_cast %C to offset: [0], sizes: [%M, %N], strides: [%N, 1] : memref<?xf32> to memref<?x?xf32, strided<[?, 1]>>
      %e = tensor.empty(%M, %N) : tensor<?x?xf32>
      %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
      %ta = bufferization.to_tensor %a restrict : memref<?x?xf32, strided<[?, 1]>> to tensor<?x?xf32>
      %tb = bufferization.to_tensor %b restrict : memref<?x?xf32, strided<[?, 1]>> to tensor<?x?xf32>
      %mm = linalg.matmul {ks.contract} ins(%ta, %tb : tensor<?x?xf32>, tensor<?x?xf32>) outs(%f : tensor<?x?xf32>) -> tensor<?x?xf32>
            bufferization.materialize_in_destination %mm in restrict writable %c : (tensor<?x?xf32>, memref<?x?xf32, strided<[?, 1]>>) -> ()
      gpu.return
    }
  }
  func.func @launch(%A: memref<?xf32>, %B: memref<?xf32>, %C: memref<?xf32>, %M: i32, %N: i32, %K: i32) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@gemm blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%A : memref<?xf32>, %B : memref<?xf32>, %C : memref<?xf32>, %M : i32, %N : i32, %K : i32)
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %k = transform.ks.simt_outer_product %mm {block_tile = array<i64: 128, 128>, reduction_tile = 8, warps = array<i64: 4, 2>, lanes = array<i64: 4, 8>, thread_tile = array<i64: 4, 4>, lhs_layout = "km", rhs_layout = "kn", padding = array<i64: 4, 0>, load_vector = array<i64: 4, 4>, stages = 2} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// cp.async, 3 stages: A staged as it lies (k-inner), the copies zero-fill
// past the edges (their source size shrinks), one group per step. The
// target is the raised kernel itself (by name), which stands for its one
// contraction: how the agent driver's schedules address kernels.
// CHECK-LABEL: gpu.func @gemm
// CHECK-SAME: workgroup(%{{.*}} : memref<3x128x12xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}, %{{.*}} : memref<3x8x128xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// CHECK: nvgpu.device_async_copy %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}], 4, %{{.*}} {bypassL1}
// CHECK: nvvm.cp.async.commit.group
// CHECK: scf.for
// CHECK: nvvm.cp.async.wait.group 1
// CHECK: gpu.barrier
module attributes {gpu.container_module, transform.with_named_sequence} {
  gpu.module @kernels {
    gpu.func @gemm(%A: memref<?xf32>, %B: memref<?xf32>, %C: memref<?xf32>, %Mi: i32, %Ni: i32, %Ki: i32) kernel attributes {ks.raised} {
      %zero = arith.constant 0.0 : f32
      %M = arith.index_cast %Mi : i32 to index
      %N = arith.index_cast %Ni : i32 to index
      %K = arith.index_cast %Ki : i32 to index
      %a = memref.reinterpret_cast %A to offset: [0], sizes: [%M, %K], strides: [%K, 1] : memref<?xf32> to memref<?x?xf32, strided<[?, 1]>>
      %b = memref.reinterpret_cast %B to offset: [0], sizes: [%K, %N], strides: [%N, 1] : memref<?xf32> to memref<?x?xf32, strided<[?, 1]>>
      %c = memref.reinterpret_cast %C to offset: [0], sizes: [%M, %N], strides: [%N, 1] : memref<?xf32> to memref<?x?xf32, strided<[?, 1]>>
      %e = tensor.empty(%M, %N) : tensor<?x?xf32>
      %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
      %ta = bufferization.to_tensor %a restrict : memref<?x?xf32, strided<[?, 1]>> to tensor<?x?xf32>
      %tb = bufferization.to_tensor %b restrict : memref<?x?xf32, strided<[?, 1]>> to tensor<?x?xf32>
      %mm = linalg.matmul {ks.contract} ins(%ta, %tb : tensor<?x?xf32>, tensor<?x?xf32>) outs(%f : tensor<?x?xf32>) -> tensor<?x?xf32>
            bufferization.materialize_in_destination %mm in restrict writable %c : (tensor<?x?xf32>, memref<?x?xf32, strided<[?, 1]>>) -> ()
      gpu.return
    }
  }
  func.func @launch(%A: memref<?xf32>, %B: memref<?xf32>, %C: memref<?xf32>, %M: i32, %N: i32, %K: i32) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@gemm blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%A : memref<?xf32>, %B : memref<?xf32>, %C : memref<?xf32>, %M : i32, %N : i32, %K : i32)
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["gpu.func"]} attributes {sym_name = "gemm"} in %root : (!transform.any_op) -> !transform.any_op
    %k = transform.ks.simt_outer_product %mm {block_tile = array<i64: 128, 128>, reduction_tile = 8, warps = array<i64: 4, 2>, lanes = array<i64: 4, 8>, thread_tile = array<i64: 4, 4>, lhs_layout = "mk", rhs_layout = "kn", padding = array<i64: 4, 0>, load_vector = array<i64: 4, 4>, stages = 3, async_copy} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Grouped block order (L2 reuse) and an XOR swizzle of B's shared tile.
// CHECK-LABEL: gpu.func @gemm
// CHECK: %[[PID:.*]] = gpu.block_id x
// CHECK: arith.minui
// CHECK: arith.xori
module attributes {gpu.container_module, transform.with_named_sequence} {
  gpu.module @kernels {
    gpu.func @gemm(%A: memref<?xf32>, %B: memref<?xf32>, %C: memref<?xf32>, %Mi: i32, %Ni: i32, %Ki: i32) kernel attributes {ks.raised} {
      %zero = arith.constant 0.0 : f32
      %M = arith.index_cast %Mi : i32 to index
      %N = arith.index_cast %Ni : i32 to index
      %K = arith.index_cast %Ki : i32 to index
      %a = memref.reinterpret_cast %A to offset: [0], sizes: [%M, %K], strides: [%K, 1] : memref<?xf32> to memref<?x?xf32, strided<[?, 1]>>
      %b = memref.reinterpret_cast %B to offset: [0], sizes: [%K, %N], strides: [%N, 1] : memref<?xf32> to memref<?x?xf32, strided<[?, 1]>>
      %c = memref.reinterpret_cast %C to offset: [0], sizes: [%M, %N], strides: [%N, 1] : memref<?xf32> to memref<?x?xf32, strided<[?, 1]>>
      %e = tensor.empty(%M, %N) : tensor<?x?xf32>
      %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
      %ta = bufferization.to_tensor %a restrict : memref<?x?xf32, strided<[?, 1]>> to tensor<?x?xf32>
      %tb = bufferization.to_tensor %b restrict : memref<?x?xf32, strided<[?, 1]>> to tensor<?x?xf32>
      %mm = linalg.matmul {ks.contract} ins(%ta, %tb : tensor<?x?xf32>, tensor<?x?xf32>) outs(%f : tensor<?x?xf32>) -> tensor<?x?xf32>
            bufferization.materialize_in_destination %mm in restrict writable %c : (tensor<?x?xf32>, memref<?x?xf32, strided<[?, 1]>>) -> ()
      gpu.return
    }
  }
  func.func @launch(%A: memref<?xf32>, %B: memref<?xf32>, %C: memref<?xf32>, %M: i32, %N: i32, %K: i32) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@gemm blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%A : memref<?xf32>, %B : memref<?xf32>, %C : memref<?xf32>, %M : i32, %N : i32, %K : i32)
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %k = transform.ks.simt_outer_product %mm {block_tile = array<i64: 128, 128>, reduction_tile = 8, warps = array<i64: 4, 2>, lanes = array<i64: 4, 8>, thread_tile = array<i64: 4, 4>, swizzle = array<i1: false, true>, group_m = 8} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Split-K with an alpha * acc + C epilogue: a first kernel writes the
// offset (C), each block of the split (blockIdx.y) adds 2 * its partial sum
// atomically; the launcher launches both, the init first.
// CHECK-LABEL: gpu.func @gemm_split_init
// CHECK-SAME: known_block_size = array<i32: 256, 1, 1>, ks.schedule = "simt_split_init"
// CHECK: %[[OLD:.*]] = memref.load
// CHECK: memref.store %[[OLD]]
// CHECK-LABEL: gpu.func @gemm(
// CHECK: gpu.block_id y
// CHECK: %[[TWO:.*]] = arith.constant 2.000000e+00 : f32
// CHECK: %[[P:.*]] = arith.mulf %[[TWO]], %{{.*}} : f32
// CHECK: memref.atomic_rmw addf %[[P]], %{{.*}}[%{{.*}}, %{{.*}}]
// CHECK-LABEL: func.func @launch
// CHECK: gpu.launch_func @kernels::@gemm_split_init
// CHECK: %[[S:.*]] = arith.constant 4 : index
// CHECK: gpu.launch_func @kernels::@gemm blocks in (%{{.*}}, %[[S]], %{{.*}})
module attributes {gpu.container_module, transform.with_named_sequence} {
  gpu.module @kernels {
    gpu.func @gemm(%A: memref<?xf32>, %B: memref<?xf32>, %C: memref<?xf32>, %Mi: i32, %Ni: i32, %Ki: i32) kernel attributes {ks.raised} {
      %zero = arith.constant 0.0 : f32
      %M = arith.index_cast %Mi : i32 to index
      %N = arith.index_cast %Ni : i32 to index
      %K = arith.index_cast %Ki : i32 to index
      %a = memref.reinterpret_cast %A to offset: [0], sizes: [%M, %K], strides: [%K, 1] : memref<?xf32> to memref<?x?xf32, strided<[?, 1]>>
      %b = memref.reinterpret_cast %B to offset: [0], sizes: [%K, %N], strides: [%N, 1] : memref<?xf32> to memref<?x?xf32, strided<[?, 1]>>
      %c = memref.reinterpret_cast %C to offset: [0], sizes: [%M, %N], strides: [%N, 1] : memref<?xf32> to memref<?x?xf32, strided<[?, 1]>>
      %e = tensor.empty(%M, %N) : tensor<?x?xf32>
      %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
      %ta = bufferization.to_tensor %a restrict : memref<?x?xf32, strided<[?, 1]>> to tensor<?x?xf32>
      %tb = bufferization.to_tensor %b restrict : memref<?x?xf32, strided<[?, 1]>> to tensor<?x?xf32>
      %mm = linalg.matmul {ks.contract} ins(%ta, %tb : tensor<?x?xf32>, tensor<?x?xf32>) outs(%f : tensor<?x?xf32>) -> tensor<?x?xf32>
      %tc = bufferization.to_tensor %c restrict : memref<?x?xf32, strided<[?, 1]>> to tensor<?x?xf32>
      %e2 = tensor.empty(%M, %N) : tensor<?x?xf32>
      %ep = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%mm, %tc : tensor<?x?xf32>, tensor<?x?xf32>) outs(%e2 : tensor<?x?xf32>) {
      ^bb0(%x: f32, %old: f32, %o: f32):
        %two = arith.constant 2.0 : f32
        %ax = arith.mulf %two, %x : f32
        %s = arith.addf %ax, %old : f32
        linalg.yield %s : f32
      } -> tensor<?x?xf32>
      bufferization.materialize_in_destination %ep in restrict writable %c : (tensor<?x?xf32>, memref<?x?xf32, strided<[?, 1]>>) -> ()
      gpu.return
    }
  }
  func.func @launch(%A: memref<?xf32>, %B: memref<?xf32>, %C: memref<?xf32>, %M: i32, %N: i32, %K: i32) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@gemm blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%A : memref<?xf32>, %B : memref<?xf32>, %C : memref<?xf32>, %M : i32, %N : i32, %K : i32)
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %k = transform.ks.simt_outer_product %mm {block_tile = array<i64: 128, 128>, reduction_tile = 8, warps = array<i64: 4, 2>, lanes = array<i64: 4, 8>, thread_tile = array<i64: 4, 4>, split_k = 4} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
