// --kernelskill-pipeline: the agents (now the architecture and performance
// profilers), then the lowering.
// RUN: ks-opt %examples/naive_gemm.mlir --kernelskill-pipeline="ptx=%t.ptx" | FileCheck %s
// RUN: FileCheck %s --check-prefix=PTX --input-file=%t.ptx
// RUN: ks-opt %examples/naive_gemm.mlir --kernelskill-pipeline="gpu=a100 print-arch=json" -o %t.mlir 2>&1 | FileCheck %s --check-prefix=JSON
// RUN: FileCheck %s --check-prefix=A100 --input-file=%t.mlir
// RUN: ks-opt %examples/naive_gemm.mlir --kernelskill-pipeline="print-diagnosis=text workload=M=512,N=512,K=512" -o /dev/null 2>&1 | FileCheck %s --check-prefix=DIAG

// CHECK: module attributes {gpu.container_module, ks.arch = #ks.arch<chip = "sm_90", sku = "NVIDIA H200"
// CHECK: gpu.binary @kernels [#gpu.object<#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">
// PTX: .target sm_90
// PTX: .visible .entry naive_gemm(
// JSON: "chip": "sm_80",
// JSON: "sku": "NVIDIA A100-SXM4-80GB",
// A100: ks.arch = #ks.arch<chip = "sm_80"
// A100: #nvvm.target<O = 3, chip = "sm_80"
// DIAG: kernel naive_gemm (naive_gemm.mlir:21) on NVIDIA H200
// DIAG-NEXT: sizes: M = 512, N = 512, K = 512 (from #ks.workload of naive_gemm_launch and the workload option); grid 32x32x1, block 16x16x1
// DIAG: findings:
// DIAG-NEXT: 1. [{{[a-z]+}}] compute_bound
