// Bad options: a clear error naming the valid choices, and a non-zero exit.
// RUN: not ks-opt %s --ks-arch-profiler="gpu=h300" 2>&1 | FileCheck %s --check-prefix=GPU
// RUN: not ks-opt %s --ks-arch-profiler="chip=sm_91" 2>&1 | FileCheck %s --check-prefix=CHIP
// RUN: not ks-opt %s --ks-arch-profiler="gpu=a100 chip=sm_90" 2>&1 | FileCheck %s --check-prefix=MISMATCH
// RUN: not ks-opt %s --ks-arch-profiler="source=cloud" 2>&1 | FileCheck %s --check-prefix=SOURCE
// RUN: not ks-opt %s --ks-arch-profiler="print=yaml" 2>&1 | FileCheck %s --check-prefix=PRINT
// RUN: not ks-opt %s --ks-arch-profiler="source=device gpu=h200" 2>&1 | FileCheck %s --check-prefix=DEVGPU
// RUN: not ks-opt %s --ks-arch-profiler="colour=red" 2>&1 | FileCheck %s --check-prefix=OPTION

// GPU: error: ks-arch-profiler: unknown GPU 'h300'; valid GPUs: v100, t4, a100, rtx3090, a10, l40s, rtx4090, h200, h100, b200
// CHIP: error: ks-arch-profiler: unknown chip 'sm_91'; valid chips: sm_70, sm_75, sm_80, sm_86, sm_89, sm_90, sm_90a, sm_100, sm_100a
// MISMATCH: error: ks-arch-profiler: chip 'sm_90' does not match GPU 'a100', which is sm_80
// SOURCE: --source option: unknown value 'cloud'; valid choices: database, device
// PRINT: --print option: unknown value 'yaml'; valid choices: none, text, json
// DEVGPU: error: ks-arch-profiler: source=device reads the GPU from the driver; drop gpu='h200'
// OPTION: no such option colour
module {
}
