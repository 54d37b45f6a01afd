// RUN: ks-opt %s -split-input-file | FileCheck %s
// RUN: ks-opt %s -split-input-file | ks-opt -split-input-file | FileCheck %s

// The assembly format prints every key, in the field table's order.
// CHECK-LABEL: module attributes
// CHECK-SAME: ks.arch = #ks.arch<chip = "sm_90", sku = "NVIDIA H200", sm_count = 132, warp_size = 32,
// CHECK-SAME: max_threads_per_sm = 2048, max_threads_per_block = 1024, max_blocks_per_sm = 32,
// CHECK-SAME: regs_per_sm = 65536, regs_per_block = 65536, max_regs_per_thread = 255, reg_alloc_unit = 256,
// CHECK-SAME: smem_per_sm = 233472, smem_per_block = 49152, smem_per_block_optin = 232448,
// CHECK-SAME: smem_alloc_unit = 128, smem_reserved_per_block = 1024, l2_bytes = 62914560,
// CHECK-SAME: dram_gbps = 4800.0, sm_clock_mhz = 1980, fp32_tflops = 67.0, fp64_tflops = 67.0,
// CHECK-SAME: tf32_tflops = 494.7, fp16_tflops = 989.4, bf16_tflops = 989.4, fp8_tflops = 1978.9,
// CHECK-SAME: tensor_cores = [wmma, mma_sync, wgmma], async_copy = [cp_async, tma], max_cluster_size = 8>
module attributes {ks.arch = #ks.arch<chip = "sm_90", sku = "NVIDIA H200", sm_count = 132,
    warp_size = 32, max_threads_per_sm = 2048, max_threads_per_block = 1024,
    max_blocks_per_sm = 32, regs_per_sm = 65536, regs_per_block = 65536,
    max_regs_per_thread = 255, reg_alloc_unit = 256, smem_per_sm = 233472,
    smem_per_block = 49152, smem_per_block_optin = 232448, smem_alloc_unit = 128,
    smem_reserved_per_block = 1024, l2_bytes = 62914560, dram_gbps = 4800,
    sm_clock_mhz = 1980, fp32_tflops = 67, fp64_tflops = 67.0, tf32_tflops = 494.7,
    fp16_tflops = 989.4, bf16_tflops = 989.4, fp8_tflops = 1978.9,
    tensor_cores = [wmma, mma_sync, wgmma], async_copy = [cp_async, tma],
    max_cluster_size = 8>} {
}

// -----

// Keys may come in any order; families may be empty; sm_75 reserves no
// shared memory per block.
// CHECK-LABEL: module attributes
// CHECK-SAME: #ks.arch<chip = "sm_75", sku = "Tesla T4", sm_count = 40
// CHECK-SAME: smem_reserved_per_block = 0
// CHECK-SAME: bf16_tflops = 0.0
// CHECK-SAME: tensor_cores = [wmma, mma_sync], async_copy = [], max_cluster_size = 1>
module attributes {ks.arch = #ks.arch<max_cluster_size = 1, async_copy = [],
    tensor_cores = [mma_sync, wmma], sku = "Tesla T4", chip = "sm_75", sm_count = 40,
    warp_size = 32, max_threads_per_sm = 1024, max_threads_per_block = 1024,
    max_blocks_per_sm = 16, regs_per_sm = 65536, regs_per_block = 65536,
    max_regs_per_thread = 255, reg_alloc_unit = 256, smem_per_sm = 65536,
    smem_per_block = 49152, smem_per_block_optin = 65536, smem_alloc_unit = 256,
    smem_reserved_per_block = 0, l2_bytes = 4194304, dram_gbps = 320.0,
    sm_clock_mhz = 1590, fp32_tflops = 8.1, fp64_tflops = 0.25, tf32_tflops = 0.0,
    fp16_tflops = 65.0, bf16_tflops = 0.0, fp8_tflops = 0.0>} {
}
