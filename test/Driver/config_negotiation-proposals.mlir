// Config tests of the arbiter on hand-written proposals (no agent runs):
// the knobs, gains and conflicts are the test's. Proposals without claims
// are priced with the family's own formulas.
// RUN: ks-opt %s -split-input-file --ks-agent-driver="explain=true workload=M=4096,N=4096,K=4096" 2>&1 >/dev/null | FileCheck %s

// The memory agent (larger gain) wants three stages but proposes no
// cp.async: the transform objects (three stages need it), and the resource
// agent, whose STAGES the memory agent's value displaced, offers its own 2.
// CHECK-LABEL: kernel gemm
// CHECK: transform conflict: stages = 3 needs async_copy {{.*}}; offers: resource agent STAGES=2: {{[0-9.]+}} ms, {{[0-9]}} block(s)/SM; the model prefers the resource agent's STAGES=2 ({{[0-9.]+}} ms): resource agent yields
// CHECK: conflict over STAGES (memory agent wants 3, resource agent wants 2; now 2); offers: memory agent STAGES=3: breaks the transform (stages = 3 needs async_copy{{.*}}); resource agent STAGES=2: {{.*}}; the model prefers STAGES=2: memory agent yields
// CHECK: arbiter: agreed on STAGES=2: predicted
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @gemm(%A: memref<?xf32> {ks.name = "A"}, %B: memref<?xf32> {ks.name = "B"}, %C: memref<?xf32> {ks.name = "C"}, %Mi: i32 {ks.name = "M"}, %Ni: i32 {ks.name = "N"}, %Ki: i32 {ks.name = "K"}) kernel attributes {ks.raised, ks.proposals = [#ks.proposal<agent = "memory", schedule = "outer_product", answers = ["compute_bound"], knobs = {STAGES = array<i64: 3>}, claims = {}, gain = 0.9, rationale = "r">, #ks.proposal<agent = "resource", schedule = "outer_product", answers = ["compute_bound"], knobs = {STAGES = array<i64: 2>}, claims = {}, gain = 0.5, rationale = "r">], ks.diagnosis = #ks.diagnosis<[
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

// An objection no concession answers (LM = 3 is the compute agent's only
// value, and nobody else sets LM): no agreement, and no point of the space
// fits either.
// CHECK-LABEL: kernel gemm
// CHECK: transform conflict: LM = 3 does not divide a warp's 32 lanes; no agent has a value left that answers it
// CHECK: arbiter: no agreement: transform conflict: LM = 3
// CHECK: decision: {{.*}}no point of the proposals fits the verifier and the budgets
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @gemm(%A: memref<?xf32> {ks.name = "A"}, %B: memref<?xf32> {ks.name = "B"}, %C: memref<?xf32> {ks.name = "C"}, %Mi: i32 {ks.name = "M"}, %Ni: i32 {ks.name = "N"}, %Ki: i32 {ks.name = "K"}) kernel attributes {ks.raised, ks.proposals = [#ks.proposal<agent = "compute", schedule = "outer_product", answers = ["compute_bound"], knobs = {LM = array<i64: 3>}, claims = {}, gain = 0.9, rationale = "r">, #ks.proposal<agent = "resource", schedule = "outer_product", answers = ["compute_bound"], knobs = {BM = array<i64: 128, 64>}, claims = {}, gain = 0.5, rationale = "r">], ks.diagnosis = #ks.diagnosis<[
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

// Two agents overlap on BM with different first choices and no budget in
// the way: the model's prediction at the agreed rest of the point decides,
// and the agent whose value lost yields.
// CHECK-LABEL: kernel gemm
// CHECK: conflict over BM (memory agent wants 64, resource agent wants 128; now 64); offers: memory agent BM=64: {{[0-9.]+}} ms, {{[0-9]+}} block(s)/SM; resource agent BM=128: {{[0-9.]+}} ms, {{[0-9]+}} block(s)/SM; the model prefers BM=128: memory agent yields
// CHECK: arbiter: agreed on
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @gemm(%A: memref<?xf32> {ks.name = "A"}, %B: memref<?xf32> {ks.name = "B"}, %C: memref<?xf32> {ks.name = "C"}, %Mi: i32 {ks.name = "M"}, %Ni: i32 {ks.name = "N"}, %Ki: i32 {ks.name = "K"}) kernel attributes {ks.raised, ks.proposals = [#ks.proposal<agent = "memory", schedule = "outer_product", answers = ["compute_bound"], knobs = {BM = array<i64: 64, 128>}, claims = {}, gain = 0.9, rationale = "r">, #ks.proposal<agent = "resource", schedule = "outer_product", answers = ["compute_bound"], knobs = {BM = array<i64: 128, 64>}, claims = {}, gain = 0.5, rationale = "r">], ks.diagnosis = #ks.diagnosis<[
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
