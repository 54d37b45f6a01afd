// RUN: ks-opt %s -split-input-file -verify-diagnostics --transform-interpreter -o /dev/null

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
      // expected-note @below {{target}}
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
    // expected-error @below {{lanes = [4, 4]: a warp has 32 lanes}}
    %k = transform.ks.simt_split_reduction %op {lanes = array<i64: 4, 4>} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

module attributes {gpu.container_module, transform.with_named_sequence} {
  gpu.module @kernels {
    gpu.func @gemv(%A: memref<?xf32>, %X: memref<?xf32>, %Y: memref<?xf32>, %Mi: i32, %Ni: i32) kernel attributes {ks.raised} {
      %zero = arith.constant 0.0 : f32
      %M = arith.index_cast %Mi : i32 to index
      %N = arith.index_cast %Ni : i32 to index
      %a = memref.reinterpret_cast %A to offset: [0], sizes: [%M, %N], strides: [1, %M] : memref<?xf32> to memref<?x?xf32, strided<[1, ?]>>
      %x = memref.reinterpret_cast %X to offset: [0], sizes: [%N], strides: [1] : memref<?xf32> to memref<?xf32, strided<[1]>>
      %y = memref.reinterpret_cast %Y to offset: [0], sizes: [%M], strides: [1] : memref<?xf32> to memref<?xf32, strided<[1]>>
      %e = tensor.empty(%M) : tensor<?xf32>
      %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
      %ta = bufferization.to_tensor %a restrict : memref<?x?xf32, strided<[1, ?]>> to tensor<?x?xf32>
      %tx = bufferization.to_tensor %x restrict : memref<?xf32, strided<[1]>> to tensor<?xf32>
      // expected-note @below {{target}}
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
    // expected-error @below {{vector = 4: an input is not contiguous along the reduction}}
    %k = transform.ks.simt_split_reduction %op {lanes = array<i64: 4, 8>, warps = array<i64: 1, 1>, vector = 4} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

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
      // expected-note @below {{target}}
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
    // expected-error @below {{vector must be 1, 2 or 4}}
    %k = transform.ks.simt_split_reduction %op {lanes = array<i64: 8, 4>, warps = array<i64: 8, 1>, vector = 3} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

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
      // expected-note @below {{target}}
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
    // expected-error @below {{2048 threads per block exceed the chip's 1024}}
    %k = transform.ks.simt_split_reduction %op {lanes = array<i64: 2, 16>, warps = array<i64: 32, 2>} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

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
      // expected-note @below {{target}}
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
    // expected-error @below {{the contraction has no n dimension (a matrix-vector product): use transform.ks.simt_split_reduction}}
    %k = transform.ks.simt_outer_product %op {block_tile = array<i64: 64, 64>} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
