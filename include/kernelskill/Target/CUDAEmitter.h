//===- CUDAEmitter.h - MLIR back to readable CUDA C++ -----------*- C++ -*-===//
#ifndef KERNELSKILL_TARGET_CUDAEMITTER_H
#define KERNELSKILL_TARGET_CUDAEMITTER_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::ks {

/// Writes `module` (the lifted form: gpu.func kernels with scf/arith/math/
/// memref/gpu ops, and func.func launchers with gpu.launch_func) as CUDA C++
/// that nvcc compiles. Ops outside the table of docs/Frontend.md are an
/// error at the op; nothing is written then.
LogicalResult emitCUDA(ModuleOp module, llvm::raw_ostream &os);

} // namespace mlir::ks

#endif // KERNELSKILL_TARGET_CUDAEMITTER_H
