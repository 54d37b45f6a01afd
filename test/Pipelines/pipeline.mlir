// --kernelskill-pipeline: the agents (now the architecture profiler), then the lowering.
// RUN: ks-opt %examples/naive_gemm.mlir --kernelskill-pipeline="ptx=%t.ptx" | FileCheck %s
// RUN: FileCheck %s --check-prefix=PTX --input-file=%t.ptx
// RUN: ks-opt %examples/naive_gemm.mlir --kernelskill-pipeline="gpu=a100 print-arch=json" -o %t.mlir | FileCheck %s --check-prefix=JSON
// RUN: FileCheck %s --check-prefix=A100 --input-file=%t.mlir

// CHECK: module attributes {gpu.container_module, ks.arch = #ks.arch<chip = "sm_90", sku = "NVIDIA H200"
// CHECK: gpu.binary @kernels [#gpu.object<#nvvm.target<chip = "sm_90", features = "+ptx80">
// PTX: .target sm_90
// PTX: .visible .entry naive_gemm(
// JSON: "chip": "sm_80",
// JSON: "sku": "NVIDIA A100-SXM4-80GB",
// A100: ks.arch = #ks.arch<chip = "sm_80"
// A100: #nvvm.target<chip = "sm_80"
