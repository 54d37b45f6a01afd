// --kernelskill-lower: the example as it is, to a gpu.binary holding PTX
// whose entry has the CUDA signature (bare pointers, then the scalars).
// RUN: ks-opt %examples/naive_gemm.mlir --kernelskill-lower="ptx=%t.ptx" | FileCheck %s
// RUN: FileCheck %s --check-prefix=PTX --input-file=%t.ptx

// CHECK-NOT: ks.arch
// CHECK: gpu.binary @kernels [#gpu.object<#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">
// CHECK-SAME: assembly = "
// CHECK: llvm.func @naive_gemm_launch
// CHECK: gpu.launch_func @kernels::@naive_gemm

// PTX: .version 8.0
// PTX: .target sm_90
// PTX: .visible .entry naive_gemm(
// PTX-NEXT: .param .u64 .ptr .align 4 naive_gemm_param_0,
// PTX-NEXT: .param .u64 .ptr .align 4 naive_gemm_param_1,
// PTX-NEXT: .param .u64 .ptr .align 4 naive_gemm_param_2,
// PTX-NEXT: .param .u32 naive_gemm_param_3,
// PTX-NEXT: .param .u32 naive_gemm_param_4,
// PTX-NEXT: .param .u32 naive_gemm_param_5
// PTX-NEXT: )
// The naive kernel has no shared memory and no barriers: nothing was optimized.
// PTX-NOT: .shared
// PTX-NOT: bar.sync
// PTX: ld.global
// PTX: st.global
