// RUN: not ks-opt %s --ks-print-analysis="analysis=speed" -o /dev/null 2>&1 | FileCheck %s --check-prefix=ANALYSIS
// RUN: not ks-opt %s --ks-print-analysis="workload=M=x" -o /dev/null 2>&1 | FileCheck %s --check-prefix=WORKLOAD
// RUN: not ks-opt %s --ks-print-analysis="workload=M" -o /dev/null 2>&1 | FileCheck %s --check-prefix=WORKLOAD-NAME

// ANALYSIS: --analysis option: unknown value 'speed'; valid choices: index, coalescing, bank-conflicts, divergence, reuse, resources, occupancy, roofline
// WORKLOAD: error: ks-print-analysis: workload entry 'M=x' is not NAME=INTEGER
// WORKLOAD-NAME: error: ks-print-analysis: workload entry 'M' is not NAME=INTEGER
module {}
