//===- CUDAParser.h - Parse CUDA C++ with clang -----------------*- C++ -*-===//
#ifndef KERNELSKILL_LIB_FRONTEND_CUDAPARSER_H
#define KERNELSKILL_LIB_FRONTEND_CUDAPARSER_H

#include "mlir/IR/MLIRContext.h"
#include "clang/Frontend/ASTUnit.h"

#include <memory>
#include <string>
#include <vector>

namespace mlir::ks {

/// Parses `path` as CUDA device code (clang 22, --cuda-device-only, the CUDA
/// headers from /usr/local/cuda when present, clang's own builtins otherwise).
/// Reports clang's errors through `context`'s diagnostics (at their source
/// locations) and returns null if there were any. With a non-empty `pchDir`, CUDA's headers are precompiled
/// into (and read from) that directory when it is usable.
std::unique_ptr<clang::ASTUnit> parseCUDA(MLIRContext &context, const std::string &path,
                                          const std::string &gpuArch,
                                          const std::vector<std::string> &extraArgs,
                                          const std::string &pchDir);

} // namespace mlir::ks

#endif // KERNELSKILL_LIB_FRONTEND_CUDAPARSER_H
