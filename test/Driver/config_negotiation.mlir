// Config tests of the negotiation (what was decided, IREE's config_*
// style): a GEMM's #ks.diagnosis in, the three agents' proposals, the
// arbiter's conflicts, offers and resolutions out (the driver's explain
// lines; docs/Agents.md, "Negotiation"). No GPU, no ptxas needed: the
// arbiter prices points with the claims and the cost model.
// RUN: ks-opt %s --ks-memory-agent --ks-compute-agent --ks-resource-agent --ks-agent-driver="explain=true workload=M=4096,N=4096,K=4096" 2>&1 >/dev/null | FileCheck %s
// RUN: ks-opt %s --ks-memory-agent --ks-compute-agent --ks-resource-agent --ks-agent-driver="explain=true max-shared=20000 workload=M=4096,N=4096,K=4096" 2>&1 >/dev/null | FileCheck %s --check-prefix=SHARED
// RUN: ks-opt %s --ks-memory-agent --ks-compute-agent --ks-resource-agent --ks-agent-driver="explain=true max-registers=64 workload=M=4096,N=4096,K=4096" 2>&1 >/dev/null | FileCheck %s --check-prefix=REGS
// RUN: ks-opt %s --ks-memory-agent --ks-compute-agent --ks-resource-agent --ks-agent-driver="explain=true max-shared=16000 workload=M=4096,N=4096,K=4096" 2>&1 >/dev/null | FileCheck %s --check-prefix=SMEM

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

// The compute agent wants BK = 16 (more multiply-adds between barriers),
// the memory agent 8: the model prefers 16. The point then runs one block
// per SM (registers): the compute agent's LM = 8 and the resource agent's
// re-plan of its warps both free registers at the same predicted time, and
// keeping the point is slower; the larger gain's offer is taken.
// CHECK: conflict over BK (memory agent wants 8, compute agent wants 16; now 8); offers: memory agent BK=8: {{[0-9.]+}} ms, 1 block(s)/SM; compute agent BK=16: {{[0-9.]+}} ms, 1 block(s)/SM; the model prefers BK=16: memory agent yields
// CHECK: occupancy conflict: one block per SM, limited by registers (144 registers per thread, 33280 B of shared memory per block); offers: compute agent LM=8: {{.*}}; resource agent WM=4,WN=2: {{.*}}; keeping the point: {{.*}}; the model prefers the compute agent's LM=8 ({{[0-9.]+}} ms): compute agent yields
// CHECK: arbiter: agreed on BK=16,LM=8,PAD_A=4,VEC_A=4,VEC_B=4,STAGES=2: predicted {{[0-9.]+}} ms, 256 threads, 33280 B shared, ~136 registers, 1 block(s)/SM

// max-shared=20000: BK = 16 would take 33280 B, so the memory agent's 8
// holds; the resource agent then re-plans its warps (WM=4,WN=2) for a
// second block per SM, which the model prefers to keeping one.
// SHARED: conflict over BK (memory agent wants 8, compute agent wants 16; now 8); offers: memory agent BK=8: {{[0-9.]+}} ms, 1 block(s)/SM; compute agent BK=16: breaks shared memory 33280 B > 20000; the model prefers BK=8: compute agent yields
// SHARED: occupancy conflict: one block per SM, limited by registers {{.*}}; offers: resource agent WM=4,WN=2: {{[0-9.]+}} ms, 2 block(s)/SM; keeping the point: {{[0-9.]+}} ms, 1 block(s)/SM; the model prefers the resource agent's WM=4,WN=2 ({{[0-9.]+}} ms): resource agent yields
// SHARED: arbiter: agreed on WM=4,WN=2,PAD_A=4,VEC_A=4,VEC_B=4,STAGES=2: {{.*}}, 16640 B shared, ~128 registers, 2 block(s)/SM

// max-registers=64: every agent's re-plan of its own knobs still breaks
// the budget or the transform (the fitting points change the resource
// agent's tiles and warps together with the compute agent's): the
// concessions run out, and the arbiter mediates the admissible point
// nearest where the agents stopped, which the driver evaluates.
// REGS: registers conflict: registers 136 > max-registers 64; offers: {{.*}}; no offer fits; the {{[a-z]+}} agent's {{.*}} answers the conflict (still breaks {{.*}}): {{[a-z]+}} agent yields
// REGS: arbiter: mediated on BM=64,BN=64,BK=16,WM=4,WN=2,PAD_A=4,VEC_A=4,VEC_B=4,STAGES=2: the admissible point nearest the agents' positions (3 knob(s) differ), predicted {{[0-9.]+}} ms; the agents alone reached no agreement: transform conflict: {{.*}}; no agent has a value left that answers it
// REGS: chosen: outer_product BM=64,BN=64,BK=16,WM=4,WN=2,PAD_A=4,VEC_A=4,VEC_B=4,STAGES=2

// max-shared=16000: even the first preferences (BK = 8) take 16640 B, a
// shared-memory conflict among the agents whose knobs the shared-memory
// claim reads; the resource agent's smaller block tile frees it but breaks
// the transform, whose objection its re-plan of the warps then answers.
// SMEM: shared memory conflict: shared memory 16640 B > 16000; offers: resource agent BN=64: breaks the transform {{.*}}: resource agent yields
// SMEM: transform conflict: {{.*}}; the model prefers the resource agent's WN=2 ({{[0-9.]+}} ms): resource agent yields
// SMEM: arbiter: agreed on BN=64,WN=2,PAD_A=4,VEC_A=4,VEC_B=4,STAGES=2: {{.*}}, 12544 B shared
