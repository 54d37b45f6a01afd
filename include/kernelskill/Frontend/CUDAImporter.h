//===- CUDAImporter.h - CUDA C++ to lifted MLIR -----------------*- C++ -*-===//
//
// Lifts the __global__ kernels of a CUDA C++ file (parsed by clang as CUDA
// device code) into gpu.func kernels in SIMT form, the way the Toy tutorial's
// MLIRGen builds IR from an AST. See docs/Frontend.md for the subset.
//
//===----------------------------------------------------------------------===//
#ifndef KERNELSKILL_FRONTEND_CUDAIMPORTER_H
#define KERNELSKILL_FRONTEND_CUDAIMPORTER_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace mlir::ks {

struct CUDAImportOptions {
  /// The GPU architecture clang parses for (__CUDA_ARCH__).
  std::string gpuArch = "sm_90";
  /// Extra clang arguments (-D, -I, ...).
  std::vector<std::string> extraArgs;
  /// Lift only these kernels (by name: `axpy`, or an instantiation's
  /// `row_max_4`) and the launchers that launch them; empty: all.
  std::vector<std::string> kernels;
  /// Run mem2reg and lift the control-flow graph to scf (false: raw CFG,
  /// for debugging the importer).
  bool structure = true;
  /// Where CUDA's runtime headers are precompiled, once per set of flags, to
  /// speed up later imports; "" (the default) imports without a PCH. The
  /// library never picks a directory itself: tools pass one (ks-translate:
  /// --pch-dir, else getDefaultPCHDirectory()). A directory that cannot be
  /// created or written only disables the PCH; it never fails an import.
  std::string pchDir;
};

/// The PCH directory ks-translate uses unless told otherwise: $KS_PCH_DIR,
/// else $XDG_CACHE_HOME/kernelskill/pch, else ~/.cache/kernelskill/pch; ""
/// (no PCH) when KS_NO_PCH is set or there is no home folder.
std::string getDefaultPCHDirectory();

/// Imports `path`. Errors (clang's, and constructs outside the subset) are
/// MLIR diagnostics at their source locations, reported through `context`'s
/// handlers (a tool prints them as "file:line:col: error: ..."; tests can
/// verify them with -verify-diagnostics); the result is null when there was
/// any.
OwningOpRef<ModuleOp> importCUDA(MLIRContext &context, llvm::StringRef path,
                                 const CUDAImportOptions &options);

} // namespace mlir::ks

#endif // KERNELSKILL_FRONTEND_CUDAIMPORTER_H
