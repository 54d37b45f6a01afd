// ptxas accepts the baseline PTX for sm_90 and sm_90a, and reports no spills.
// REQUIRES: ptxas
// RUN: ks-opt %examples/naive_gemm.mlir --kernelskill-lower="ptx=%t.ptx" -o /dev/null
// RUN: %ptxas -v --gpu-name=sm_90 %t.ptx -o %t.cubin 2>&1 | FileCheck %s
// RUN: ks-opt %examples/naive_gemm.mlir --kernelskill-lower="chip=sm_90a ptx=%t.a.ptx" -o /dev/null
// RUN: %ptxas --gpu-name=sm_90a %t.a.ptx -o %t.a.cubin
// CHECK: Compiling entry function 'naive_gemm' for 'sm_90'
// CHECK: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK: Used {{[0-9]+}} registers
