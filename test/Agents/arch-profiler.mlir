// The architecture profiler attaches #ks.arch for the chosen GPU.
// RUN: ks-opt %s --ks-arch-profiler | FileCheck %s --check-prefix=DEFAULT
// RUN: ks-opt %s --ks-arch-profiler="gpu=a100" | FileCheck %s --check-prefix=A100
// RUN: ks-opt %s --ks-arch-profiler="gpu='NVIDIA H100 80GB HBM3'" | FileCheck %s --check-prefix=H100
// RUN: ks-opt %s --ks-arch-profiler="chip=sm_89" | FileCheck %s --check-prefix=SM89
// RUN: ks-opt %s --ks-arch-profiler="gpu=H200 chip=sm_90a" | FileCheck %s --check-prefix=SM90A
// RUN: ks-opt %s --ks-arch-profiler="gpu=b200" | FileCheck %s --check-prefix=B200
// A second run replaces the first one's answer.
// RUN: ks-opt %s --ks-arch-profiler="gpu=t4" --ks-arch-profiler="gpu=v100" | FileCheck %s --check-prefix=LAST

// DEFAULT: module attributes {ks.arch = #ks.arch<chip = "sm_90", sku = "NVIDIA H200", sm_count = 132,
// DEFAULT-SAME: l2_bytes = 62914560, dram_gbps = 4800.0
// A100: #ks.arch<chip = "sm_80", sku = "NVIDIA A100-SXM4-80GB", sm_count = 108,
// A100-SAME: tensor_cores = [wmma, mma_sync], async_copy = [cp_async], max_cluster_size = 1>
// H100: #ks.arch<chip = "sm_90", sku = "NVIDIA H100 80GB HBM3", sm_count = 132,
// H100-SAME: l2_bytes = 52428800, dram_gbps = 3350.0
// SM89: #ks.arch<chip = "sm_89", sku = "NVIDIA L40S", sm_count = 142, warp_size = 32, max_threads_per_sm = 1536,
// SM90A: #ks.arch<chip = "sm_90a", sku = "NVIDIA H200",
// B200: #ks.arch<chip = "sm_100", sku = "NVIDIA B200", sm_count = 148,
// B200-SAME: tensor_cores = [wmma, mma_sync, tcgen05], async_copy = [cp_async, tma]
// LAST: #ks.arch<chip = "sm_70", sku = "Tesla V100-SXM2"
// LAST-NOT: Tesla T4
module {
}
