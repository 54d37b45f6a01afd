// The chip picks the NVPTX target and the PTX ISA version.
// RUN: ks-opt %examples/naive_gemm.mlir --kernelskill-lower="chip=sm_80" | FileCheck %s --check-prefix=SM80
// RUN: ks-opt %examples/naive_gemm.mlir --kernelskill-lower="chip=sm_90a" | FileCheck %s --check-prefix=SM90A
// RUN: ks-opt %examples/naive_gemm.mlir --kernelskill-lower="gpu=b200" | FileCheck %s --check-prefix=B200
// RUN: ks-opt %examples/naive_gemm.mlir --kernelskill-lower="gpu=rtx4090" | FileCheck %s --check-prefix=ADA
// SM80: #nvvm.target<O = 3, chip = "sm_80", features = "+ptx80">
// SM80-SAME: .target sm_80
// SM90A: #nvvm.target<O = 3, chip = "sm_90a", features = "+ptx80">
// SM90A-SAME: .target sm_90a
// B200: #nvvm.target<O = 3, chip = "sm_100", features = "+ptx86">
// B200-SAME: .target sm_100
// ADA: #nvvm.target<O = 3, chip = "sm_89", features = "+ptx80">
