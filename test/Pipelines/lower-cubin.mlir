// format=cubin assembles with ptxas and keeps its resource report.
// REQUIRES: ptxas
// RUN: ks-opt %examples/naive_gemm.mlir --kernelskill-lower="format=cubin ptx=%t.ptx" | FileCheck %s
// RUN: FileCheck %s --check-prefix=PTX --input-file=%t.ptx
// CHECK: gpu.binary @kernels [#gpu.object<#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">
// CHECK-SAME: ptxas_info = "{{.*}}Compiling entry function 'naive_gemm' for 'sm_90'
// CHECK-SAME: bin = "
// CHECK-NOT: assembly = "
// PTX: .visible .entry naive_gemm(
