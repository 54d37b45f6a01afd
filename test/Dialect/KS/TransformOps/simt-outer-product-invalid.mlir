// RUN: ks-opt %s -split-input-file -verify-diagnostics --transform-interpreter -o /dev/null

// Each schedule that cannot apply is refused with the knob at fault; the IR is left alone.

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
      // expected-note @below {{target}}
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
    // expected-error @below {{ks.simt_outer_product: lanes = [4, 4]: a warp has 32 lanes}}
    %k = transform.ks.simt_outer_product %mm {block_tile = array<i64: 128, 128>, reduction_tile = 8, warps = array<i64: 4, 2>, lanes = array<i64: 4, 4>, thread_tile = array<i64: 4, 4>} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

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
      // expected-note @below {{target}}
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
    // expected-error @below {{block_tile[0] = 96 is not a multiple of warps[0] x lanes[0] x thread_tile[0] = 64}}
    %k = transform.ks.simt_outer_product %mm {block_tile = array<i64: 96, 128>, reduction_tile = 8, warps = array<i64: 4, 2>, lanes = array<i64: 4, 8>, thread_tile = array<i64: 4, 4>} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

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
      // expected-note @below {{target}}
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
    // expected-error @below {{the staged tiles need 131072 bytes of shared memory per block, over the 49152 of static shared memory}}
    %k = transform.ks.simt_outer_product %mm {block_tile = array<i64: 128, 128>, reduction_tile = 64, warps = array<i64: 4, 2>, lanes = array<i64: 4, 8>, thread_tile = array<i64: 4, 4>, stages = 2} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

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
      // expected-note @below {{target}}
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
    // expected-error @below {{stages = 3 needs async_copy}}
    %k = transform.ks.simt_outer_product %mm {block_tile = array<i64: 128, 128>, reduction_tile = 8, warps = array<i64: 4, 2>, lanes = array<i64: 4, 8>, thread_tile = array<i64: 4, 4>, stages = 3} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

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
      // expected-note @below {{target}}
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
    // expected-error @below {{async_copy copies bytes as they lie: operand lhs is contiguous along k in memory but its shared tile is transposed}}
    %k = transform.ks.simt_outer_product %mm {block_tile = array<i64: 128, 128>, reduction_tile = 8, warps = array<i64: 4, 2>, lanes = array<i64: 4, 8>, thread_tile = array<i64: 4, 4>, load_vector = array<i64: 4, 4>, stages = 2, async_copy} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

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
      // expected-note @below {{target}}
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
    // expected-error @below {{lhs: swizzle and padding exclude each other}}
    %k = transform.ks.simt_outer_product %mm {block_tile = array<i64: 128, 128>, reduction_tile = 8, warps = array<i64: 4, 2>, lanes = array<i64: 4, 8>, thread_tile = array<i64: 4, 4>, padding = array<i64: 4, 0>, swizzle = array<i1: true, false>} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

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
      // expected-note @below {{target}}
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
    // expected-error @below {{lhs_pad = 2 breaks the alignment of 16-byte shared-memory reads}}
    %k = transform.ks.simt_outer_product %mm {block_tile = array<i64: 128, 128>, reduction_tile = 8, warps = array<i64: 4, 2>, lanes = array<i64: 4, 8>, thread_tile = array<i64: 4, 4>, padding = array<i64: 2, 0>} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

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
      // expected-note @below {{target}}
      %mm = linalg.matmul {ks.contract} ins(%ta, %tb : tensor<?x?xf32>, tensor<?x?xf32>) outs(%f : tensor<?x?xf32>) -> tensor<?x?xf32>
      %e2 = tensor.empty(%M, %N) : tensor<?x?xf32>
      %ep = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<?x?xf32>) outs(%e2 : tensor<?x?xf32>) {
      ^bb0(%x: f32, %o: f32):
        %r = math.exp %x : f32
        linalg.yield %r : f32
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
    // expected-error @below {{split_k = 4: the epilogue is not alpha * acc + offset}}
    %k = transform.ks.simt_outer_product %mm {block_tile = array<i64: 128, 128>, reduction_tile = 8, warps = array<i64: 4, 2>, lanes = array<i64: 4, 8>, thread_tile = array<i64: 4, 4>, split_k = 4} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

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
      // expected-note @below {{target}}
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
    // expected-error @below {{lhs_layout must be "km" (k outer) or "mk" (k inner)}}
    %k = transform.ks.simt_outer_product %mm {block_tile = array<i64: 128, 128>, reduction_tile = 8, warps = array<i64: 4, 2>, lanes = array<i64: 4, 8>, thread_tile = array<i64: 4, 4>, lhs_layout = "kn"} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A kernel given as the target must be raised ...
module attributes {gpu.container_module, transform.with_named_sequence} {
  gpu.module @kernels {
    // expected-note @below {{target}}
    gpu.func @plain(%out: memref<?xf32>) kernel {
      gpu.return
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %plain = transform.structured.match ops{["gpu.func"]} attributes {sym_name = "plain"} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{ks.simt_outer_product: the kernel is not raised (run ks-raise first)}}
    %k = transform.ks.simt_outer_product %plain : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// ... and hold one contraction.
module attributes {gpu.container_module, transform.with_named_sequence} {
  gpu.module @kernels {
    // expected-note @below {{target}}
    gpu.func @nothing(%out: memref<?xf32>) kernel attributes {ks.raised} {
      gpu.return
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %nothing = transform.structured.match ops{["gpu.func"]} attributes {sym_name = "nothing"} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{ks.simt_split_reduction: the kernel holds no contraction (no linalg op with a reduction)}}
    %k = transform.ks.simt_split_reduction %nothing : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
