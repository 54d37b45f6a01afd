// Pipeline options are checked before anything runs: a clear message naming
// the valid choices, a non-zero exit, never an option silently ignored.
// RUN: not ks-opt %s --kernelskill-pipeline="chip=sm_91" 2>&1 | FileCheck %s --check-prefix=CHIP
// RUN: not ks-opt %s --kernelskill-pipeline="gpu=h300" 2>&1 | FileCheck %s --check-prefix=GPU
// RUN: not ks-opt %s --kernelskill-pipeline="gpu=t4 chip=sm_90" 2>&1 | FileCheck %s --check-prefix=MISMATCH
// RUN: not ks-opt %s --kernelskill-pipeline="format=fatbin" 2>&1 | FileCheck %s --check-prefix=FORMAT
// RUN: not ks-opt %s --kernelskill-pipeline="print-arch=xml" 2>&1 | FileCheck %s --check-prefix=PRINT
// RUN: not ks-opt %s --kernelskill-pipeline="measure=fast" 2>&1 | FileCheck %s --check-prefix=MEASURE
// RUN: not ks-opt %s --kernelskill-lower="chip=sm_52" 2>&1 | FileCheck %s --check-prefix=LOWERCHIP
// RUN: not ks-opt %s --kernelskill-lower="print-arch=text" 2>&1 | FileCheck %s --check-prefix=LOWEROPT

// CHIP: unknown chip 'sm_91'; valid chips: sm_70, sm_75, sm_80, sm_86, sm_89, sm_90, sm_90a, sm_100, sm_100a
// GPU: unknown GPU 'h300'; valid GPUs: v100, t4, a100, rtx3090, a10, l40s, rtx4090, h200, h100, b200
// MISMATCH: chip 'sm_90' does not match GPU 't4', which is sm_75
// FORMAT: --format option: unknown value 'fatbin'; valid choices: ptx, cubin
// PRINT: --print-arch option: unknown value 'xml'; valid choices: none, text, json
// MEASURE: --measure option: unknown value 'fast'; valid choices: static, cuda, auto
// LOWERCHIP: unknown chip 'sm_52'
// LOWEROPT: no such option print-arch
module {
}
// RUN: not ks-opt %s --kernelskill-pipeline="print-diagnosis=html" 2>&1 | FileCheck %s --check-prefix=DIAG
// RUN: not ks-opt %s --kernelskill-pipeline="workload=M" 2>&1 | FileCheck %s --check-prefix=WORKLOAD
// DIAG: --print-diagnosis option: unknown value 'html'; valid choices: none, text, json
// WORKLOAD: workload entry 'M' is not NAME=INTEGER
