//===- CUDAParser.h - Parse CUDA C++ with clang -----------------*- C++ -*-===//
#ifndef KERNELSKILL_LIB_FRONTEND_CUDAPARSER_H
#define KERNELSKILL_LIB_FRONTEND_CUDAPARSER_H

#include "clang/Frontend/ASTUnit.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <string>
#include <vector>

namespace mlir::ks {

/// Parses `path` as CUDA device code (clang 22, --cuda-device-only, the CUDA
/// headers from /usr/local/cuda when present, clang's own builtins otherwise).
/// Prints clang's errors as "file:line:col: error: ..." and returns null if
/// there were any. With a non-empty `pchDir`, CUDA's headers are precompiled
/// into (and read from) that directory when it is usable.
std::unique_ptr<clang::ASTUnit> parseCUDA(const std::string &path, const std::string &gpuArch,
                                          const std::vector<std::string> &extraArgs,
                                          const std::string &pchDir,
                                          llvm::raw_ostream &diagnostics);

} // namespace mlir::ks

#endif // KERNELSKILL_LIB_FRONTEND_CUDAPARSER_H
