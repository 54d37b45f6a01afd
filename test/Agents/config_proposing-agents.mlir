// The proposing agents' decisions (config tests: IR with #ks.arch and
// #ks.diagnosis in, #ks.proposal out). Each agent runs its rules of the rule
// table (lib/Agents/Rules.cpp) and writes one proposal per schedule family.
// RUN: ks-opt %s -split-input-file --ks-memory-agent -mlir-print-local-scope | FileCheck %s --check-prefix=MEM
// RUN: ks-opt %s -split-input-file --ks-compute-agent -mlir-print-local-scope | FileCheck %s --check-prefix=COMPUTE
// RUN: ks-opt %s -split-input-file --ks-resource-agent="workload=M=4096,N=4096,K=4096" -mlir-print-local-scope | FileCheck %s --check-prefix=RES
// RUN: ks-opt %s -split-input-file --ks-resource-agent="workload=M=256,N=256,K=65536" -mlir-print-local-scope | FileCheck %s --check-prefix=SKINNY
// RUN: ks-opt %s -split-input-file --ks-memory-agent --ks-compute-agent --ks-resource-agent -mlir-print-local-scope | FileCheck %s --check-prefix=ALL

// A row-major GEMM on the H200 (sm_90, the default): A is contiguous along
// k, so the memory agent stages it transposed with padding and 128-bit loads;
// B is contiguous along n: staged as it lies. sm_80+: cp.async is allowed.
// MEM-LABEL: gpu.func @gemm
// MEM-SAME: ks.proposals = [#ks.proposal<agent = "memory", schedule = "outer_product", answers = ["no_reuse", "compute_bound"]
// MEM-SAME: knobs = {ASYNC = array<i64: 0, 1>, BK = array<i64: 8, 16>, KOUTER_A = array<i64: 1>, KOUTER_B = array<i64: 1>, PAD_A = array<i64: 4>, PAD_B = array<i64: 0>, STAGES = array<i64: 2, 3>, VEC_A = array<i64: 4, 1>, VEC_B = array<i64: 4, 1>}
// MEM-SAME: claims = {registers = "{{.*}}", shared_bytes = "4*STAGES*{{.*}}", threads = "32*WM*WN"}
// MEM-SAME: gain = 0.7875
// The compute agent wants the longer reduction tile (more multiply-adds
// between barriers) where the memory agent stages 8 first: they overlap on BK.
// COMPUTE-LABEL: gpu.func @gemm
// COMPUTE-SAME: #ks.proposal<agent = "compute", schedule = "outer_product"
// COMPUTE-SAME: knobs = {BK = array<i64: 16>, LM = array<i64: 4, 8>, TM = array<i64: 4, 8>, TN = array<i64: 4, 8>}
// Enough tiles to fill the GPU: no split-K.
// RES-LABEL: gpu.func @gemm
// RES-SAME: #ks.proposal<agent = "resource", schedule = "outer_product"
// RES-SAME: knobs = {BM = array<i64: 128, 64>, BN = array<i64: 128, 64>, WM = array<i64: 2, 4>, WN = array<i64: 4, 2>}
// RES-NOT: SPLIT_K
// 16 tiles of 64 x 64 for 132 SMs, a reduction 256 times longer: split it.
// SKINNY-LABEL: gpu.func @gemm
// SKINNY-SAME: SPLIT_K = array<i64: 1, 4, 8, 16, 32>
// Every agent keeps the others' proposals.
// ALL-LABEL: gpu.func @gemm
// ALL-SAME: agent = "memory"
// ALL-SAME: agent = "compute"
// ALL-SAME: agent = "resource"
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @gemm(%A: memref<?xf32> {ks.name = "A"}, %B: memref<?xf32> {ks.name = "B"}, %C: memref<?xf32> {ks.name = "C"}, %Mi: i32 {ks.name = "M"}, %Ni: i32 {ks.name = "N"}, %Ki: i32 {ks.name = "K"}) kernel attributes {ks.raised, ks.diagnosis = #ks.diagnosis<[
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

// A T4 (sm_75) has no cp.async: the memory agent proposes register double
// buffering only.
// MEM-LABEL: gpu.func @gemm
// MEM-SAME: knobs = {BK = array<i64: 8, 16>, KOUTER_A = array<i64: 1>, KOUTER_B = array<i64: 1>, PAD_A = array<i64: 4>, PAD_B = array<i64: 0>, STAGES = array<i64: 2>, VEC_A = array<i64: 4, 1>, VEC_B = array<i64: 4, 1>}
// COMPUTE-LABEL: gpu.func @gemm
// RES-LABEL: gpu.func @gemm
// SKINNY-LABEL: gpu.func @gemm
// ALL-LABEL: gpu.func @gemm
module attributes {gpu.container_module, ks.arch = #ks.arch<chip = "sm_75", sku = "Tesla T4", sm_count = 40, warp_size = 32, max_threads_per_sm = 1024, max_threads_per_block = 1024, max_blocks_per_sm = 16, regs_per_sm = 65536, regs_per_block = 65536, max_regs_per_thread = 255, reg_alloc_unit = 256, smem_per_sm = 65536, smem_per_block = 49152, smem_per_block_optin = 65536, smem_alloc_unit = 256, smem_reserved_per_block = 0, l2_bytes = 4194304, dram_gbps = 320.0, sm_clock_mhz = 1590, fp32_tflops = 8.1, fp64_tflops = 0.25, tf32_tflops = 0.0, fp16_tflops = 65.0, bf16_tflops = 0.0, fp8_tflops = 0.0, tensor_cores = [wmma, mma_sync], async_copy = [], max_cluster_size = 1>} {
  gpu.module @kernels {
    gpu.func @gemm(%A: memref<?xf32> {ks.name = "A"}, %B: memref<?xf32> {ks.name = "B"}, %C: memref<?xf32> {ks.name = "C"}, %Mi: i32 {ks.name = "M"}, %Ni: i32 {ks.name = "N"}, %Ki: i32 {ks.name = "K"}) kernel attributes {ks.raised, ks.diagnosis = #ks.diagnosis<[
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

// Nothing in the diagnosis that a rule answers (an empty diagnosis): no
// proposals.
// MEM-LABEL: gpu.func @gemm
// MEM-NOT: ks.proposals
// COMPUTE-LABEL: gpu.func @gemm
// COMPUTE-NOT: ks.proposals
// RES-LABEL: gpu.func @gemm
// RES-NOT: ks.proposals
// SKINNY-LABEL: gpu.func @gemm
// ALL-LABEL: gpu.func @gemm
// ALL-NOT: ks.proposals
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @gemm(%A: memref<?xf32> {ks.name = "A"}, %B: memref<?xf32> {ks.name = "B"}, %C: memref<?xf32> {ks.name = "C"}, %Mi: i32 {ks.name = "M"}, %Ni: i32 {ks.name = "N"}, %Ki: i32 {ks.name = "K"}) kernel attributes {ks.raised, ks.diagnosis = #ks.diagnosis<[]>} {
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

// A kernel that is not raised has no contraction to schedule: no proposals.
// MEM-LABEL: gpu.func @gemm
// MEM-NOT: ks.proposals
// COMPUTE-LABEL: gpu.func @gemm
// RES-LABEL: gpu.func @gemm
// SKINNY-LABEL: gpu.func @gemm
// ALL-LABEL: gpu.func @gemm
// ALL-NOT: ks.proposals
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @gemm(%A: memref<?xf32> {ks.name = "A"}, %B: memref<?xf32> {ks.name = "B"}, %C: memref<?xf32> {ks.name = "C"}, %Mi: i32 {ks.name = "M"}, %Ni: i32 {ks.name = "N"}, %Ki: i32 {ks.name = "K"}) kernel attributes {ks.diagnosis = #ks.diagnosis<[
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
