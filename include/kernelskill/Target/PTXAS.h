//===- PTXAS.h - Running NVIDIA's PTX assembler -----------------*- C++ -*-===//
#ifndef KERNELSKILL_TARGET_PTXAS_H
#define KERNELSKILL_TARGET_PTXAS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <optional>
#include <string>

namespace mlir::ks {

/// Finds ptxas: `explicitPath` if given, else PATH, $CUDA_HOME/bin,
/// $CUDA_PATH/bin, $CUDA_ROOT/bin, the toolkit found at build time and
/// /usr/local/cuda/bin, in that order.
std::optional<std::string> findPtxas(llvm::StringRef explicitPath = {});

/// What ptxas produced for one PTX module.
struct PtxasResult {
  std::string cubin;  ///< the assembled binary
  std::string report; ///< ptxas -v's resource report (its stderr)
};

/// Assembles `ptx` for `chip` (e.g. sm_90a) with `ptxasPath -v`. Fails with
/// ptxas's own log when it rejects the PTX.
llvm::Expected<PtxasResult> runPtxas(llvm::StringRef ptxasPath, llvm::StringRef ptx,
                                     llvm::StringRef chip);

/// Names what turns a schedule into ptxas's verdict: a hash of the running
/// program (its lowering), the run-time LLVM version and a hash of the
/// ptxas binary at `ptxasPath`. Verdicts
/// and timings remembered across runs (Runtime/TuningDB.h) are only reused
/// under the same identity: a rebuilt KernelSkill may lower the same
/// schedule to other PTX, and another ptxas may allocate it otherwise.
/// Computed once per path per process.
std::string toolchainIdentity(llvm::StringRef ptxasPath);

} // namespace mlir::ks

#endif // KERNELSKILL_TARGET_PTXAS_H
