// When the best candidate is predicted no faster than the kernel's
// ks.predicted_time the driver says so; a raised kernel (linalg, one thread)
// is lowered only through a schedule: without the lifted original (the
// standalone pass, no original=) it is scheduled anyway, with the reason. The proposals are removed either way.
// RUN: ks-opt %s -split-input-file --ks-memory-agent --ks-compute-agent --ks-resource-agent --ks-agent-driver="explain=true" 2>&1 >/dev/null | FileCheck %s --check-prefix=EXPLAIN
// RUN: ks-opt %s -split-input-file --ks-memory-agent --ks-compute-agent --ks-resource-agent --ks-agent-driver 2>/dev/null | FileCheck %s

// EXPLAIN: decision: the best candidate is predicted no faster than the kernel by more than 5% ({{.*}} s vs 1.000e-09 s); scheduled anyway with outer_product {{.*}}: a raised kernel is lowered only through a schedule
// CHECK-LABEL: gpu.func @gemm
// CHECK-NOT: ks.proposals
// CHECK-NOT: linalg.matmul
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @gemm(%A: memref<?xf32> {ks.name = "A"}, %B: memref<?xf32> {ks.name = "B"}, %C: memref<?xf32> {ks.name = "C"}, %Mi: i32 {ks.name = "M"}, %Ni: i32 {ks.name = "N"}, %Ki: i32 {ks.name = "K"}) kernel attributes {ks.raised, ks.predicted_time = 1.0e-09 : f64, ks.diagnosis = #ks.diagnosis<[
        #ks.finding<kind = compute_bound, severity = critical, metric = "time_over_floor", value = 8.0, evidence = predicted, headroom = 0.875, loc = loc(unknown), note = "issue bound">,
        #ks.finding<kind = no_reuse, severity = minor, metric = "warps_per_element", value = 8.0, evidence = predicted, headroom = 0.125, loc = loc(unknown), note = "each element read by 8 warps">]>} {
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
}


// -----

// A proposal of a family the driver does not know is ignored, with a warning.
// EXPLAIN: warning: ks-agent-driver: unknown schedule family 'wgmma' in a proposal of the tensor agent: ignored
// EXPLAIN: decision: the kernel has no predicted time to compare the candidates with; scheduled anyway with outer_product
// CHECK-LABEL: gpu.func @gemm
// CHECK-NOT: ks.proposals
// CHECK-NOT: linalg.matmul
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @gemm(%A: memref<?xf32> {ks.name = "A"}, %B: memref<?xf32> {ks.name = "B"}, %C: memref<?xf32> {ks.name = "C"}, %Mi: i32 {ks.name = "M"}, %Ni: i32 {ks.name = "N"}, %Ki: i32 {ks.name = "K"}) kernel attributes {ks.raised, ks.proposals = [#ks.proposal<agent = "tensor", schedule = "wgmma", answers = [], knobs = {}, claims = {}, gain = 0.5, rationale = "r">], ks.diagnosis = #ks.diagnosis<[
        #ks.finding<kind = compute_bound, severity = critical, metric = "time_over_floor", value = 8.0, evidence = predicted, headroom = 0.875, loc = loc(unknown), note = "issue bound">,
        #ks.finding<kind = no_reuse, severity = minor, metric = "warps_per_element", value = 8.0, evidence = predicted, headroom = 0.125, loc = loc(unknown), note = "each element read by 8 warps">]>} {
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
}

