// RUN: ks-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{#ks.arch has unknown chip 'sm_91'; valid chips: sm_70, sm_75, sm_80, sm_86, sm_89, sm_90, sm_90a, sm_100, sm_100a}}
module attributes {ks.arch = #ks.arch<chip = "sm_91", sku = "X", sm_count = 132, warp_size = 32, max_threads_per_sm = 2048, max_threads_per_block = 1024, max_blocks_per_sm = 32, regs_per_sm = 65536, regs_per_block = 65536, max_regs_per_thread = 255, reg_alloc_unit = 256, smem_per_sm = 233472, smem_per_block = 49152, smem_per_block_optin = 232448, smem_alloc_unit = 128, smem_reserved_per_block = 1024, l2_bytes = 62914560, dram_gbps = 4800.0, sm_clock_mhz = 1980, fp32_tflops = 67.0, fp64_tflops = 67.0, tf32_tflops = 494.7, fp16_tflops = 989.4, bf16_tflops = 989.4, fp8_tflops = 1978.9, tensor_cores = [wmma, mma_sync, wgmma], async_copy = [cp_async, tma], max_cluster_size = 8>} {}

// -----

// expected-error @+1 {{#ks.arch is missing key 'fp8_tflops'}}
module attributes {ks.arch = #ks.arch<chip = "sm_90", sku = "X", sm_count = 132, warp_size = 32, max_threads_per_sm = 2048, max_threads_per_block = 1024, max_blocks_per_sm = 32, regs_per_sm = 65536, regs_per_block = 65536, max_regs_per_thread = 255, reg_alloc_unit = 256, smem_per_sm = 233472, smem_per_block = 49152, smem_per_block_optin = 232448, smem_alloc_unit = 128, smem_reserved_per_block = 1024, l2_bytes = 62914560, dram_gbps = 4800.0, sm_clock_mhz = 1980, fp32_tflops = 67.0, fp64_tflops = 67.0, tf32_tflops = 494.7, fp16_tflops = 989.4, bf16_tflops = 989.4, tensor_cores = [wmma, mma_sync, wgmma], async_copy = [cp_async, tma], max_cluster_size = 8>} {}

// -----

// expected-error @+1 {{unknown #ks.arch key 'sm_cnt'; valid keys: chip, sku, sm_count,}}
module attributes {ks.arch = #ks.arch<chip = "sm_90", sm_cnt = 132>} {}

// -----

// expected-error @+1 {{#ks.arch has key 'sm_count' twice}}
module attributes {ks.arch = #ks.arch<chip = "sm_90", sm_count = 132, sm_count = 130>} {}

// -----

// expected-error @+1 {{unknown tensor-core family 'hmma'; expected one of: wmma, mma_sync, wgmma, tcgen05}}
module attributes {ks.arch = #ks.arch<chip = "sm_90", tensor_cores = [wmma, hmma]>} {}

// -----

// expected-error @+1 {{unknown async-copy family 'bulk'; expected one of: cp_async, tma}}
module attributes {ks.arch = #ks.arch<async_copy = [bulk]>} {}

// -----

// expected-error @+1 {{#ks.arch is inconsistent: 'max_threads_per_block' exceeds 'max_threads_per_sm'}}
module attributes {ks.arch = #ks.arch<chip = "sm_90", sku = "X", sm_count = 132, warp_size = 32, max_threads_per_sm = 512, max_threads_per_block = 1024, max_blocks_per_sm = 32, regs_per_sm = 65536, regs_per_block = 65536, max_regs_per_thread = 255, reg_alloc_unit = 256, smem_per_sm = 233472, smem_per_block = 49152, smem_per_block_optin = 232448, smem_alloc_unit = 128, smem_reserved_per_block = 1024, l2_bytes = 62914560, dram_gbps = 4800.0, sm_clock_mhz = 1980, fp32_tflops = 67.0, fp64_tflops = 67.0, tf32_tflops = 494.7, fp16_tflops = 989.4, bf16_tflops = 989.4, fp8_tflops = 1978.9, tensor_cores = [wmma, mma_sync, wgmma], async_copy = [cp_async, tma], max_cluster_size = 8>} {}

// -----

// expected-error @+1 {{#ks.arch is inconsistent: 'sm_count' must be positive, got 0}}
module attributes {ks.arch = #ks.arch<chip = "sm_90", sku = "X", sm_count = 0, warp_size = 32, max_threads_per_sm = 2048, max_threads_per_block = 1024, max_blocks_per_sm = 32, regs_per_sm = 65536, regs_per_block = 65536, max_regs_per_thread = 255, reg_alloc_unit = 256, smem_per_sm = 233472, smem_per_block = 49152, smem_per_block_optin = 232448, smem_alloc_unit = 128, smem_reserved_per_block = 1024, l2_bytes = 62914560, dram_gbps = 4800.0, sm_clock_mhz = 1980, fp32_tflops = 67.0, fp64_tflops = 67.0, tf32_tflops = 494.7, fp16_tflops = 989.4, bf16_tflops = 989.4, fp8_tflops = 1978.9, tensor_cores = [wmma, mma_sync, wgmma], async_copy = [cp_async, tma], max_cluster_size = 8>} {}

// -----

// expected-error @+1 {{#ks.arch lists 'wgmma', which only sm_90a has, for chip 'sm_80'}}
module attributes {ks.arch = #ks.arch<chip = "sm_80", sku = "X", sm_count = 108, warp_size = 32, max_threads_per_sm = 2048, max_threads_per_block = 1024, max_blocks_per_sm = 32, regs_per_sm = 65536, regs_per_block = 65536, max_regs_per_thread = 255, reg_alloc_unit = 256, smem_per_sm = 167936, smem_per_block = 49152, smem_per_block_optin = 166912, smem_alloc_unit = 128, smem_reserved_per_block = 1024, l2_bytes = 41943040, dram_gbps = 2039.0, sm_clock_mhz = 1410, fp32_tflops = 19.5, fp64_tflops = 19.5, tf32_tflops = 156.0, fp16_tflops = 312.0, bf16_tflops = 312.0, fp8_tflops = 0.0, tensor_cores = [wmma, mma_sync, wgmma], async_copy = [cp_async], max_cluster_size = 1>} {}

// -----

// expected-error @+1 {{#ks.arch needs a non-empty 'sku'}}
module attributes {ks.arch = #ks.arch<chip = "sm_80", sku = "", sm_count = 108, warp_size = 32, max_threads_per_sm = 2048, max_threads_per_block = 1024, max_blocks_per_sm = 32, regs_per_sm = 65536, regs_per_block = 65536, max_regs_per_thread = 255, reg_alloc_unit = 256, smem_per_sm = 167936, smem_per_block = 49152, smem_per_block_optin = 166912, smem_alloc_unit = 128, smem_reserved_per_block = 1024, l2_bytes = 41943040, dram_gbps = 2039.0, sm_clock_mhz = 1410, fp32_tflops = 19.5, fp64_tflops = 19.5, tf32_tflops = 156.0, fp16_tflops = 312.0, bf16_tflops = 312.0, fp8_tflops = 0.0, tensor_cores = [wmma, mma_sync], async_copy = [cp_async], max_cluster_size = 1>} {}

// -----

// expected-error @+1 {{#ks.arch lists 'tma', which needs sm_90 or newer, for chip 'sm_80'}}
module attributes {ks.arch = #ks.arch<chip = "sm_80", sku = "X", sm_count = 108, warp_size = 32, max_threads_per_sm = 2048, max_threads_per_block = 1024, max_blocks_per_sm = 32, regs_per_sm = 65536, regs_per_block = 65536, max_regs_per_thread = 255, reg_alloc_unit = 256, smem_per_sm = 167936, smem_per_block = 49152, smem_per_block_optin = 166912, smem_alloc_unit = 128, smem_reserved_per_block = 1024, l2_bytes = 41943040, dram_gbps = 2039.0, sm_clock_mhz = 1410, fp32_tflops = 19.5, fp64_tflops = 19.5, tf32_tflops = 156.0, fp16_tflops = 312.0, bf16_tflops = 312.0, fp8_tflops = 0.0, tensor_cores = [wmma, mma_sync], async_copy = [cp_async, tma], max_cluster_size = 1>} {}
