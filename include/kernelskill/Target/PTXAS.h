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

/// The ptxas a `ptxas=` option asks for, where running one is a choice: the
/// static driver, which must depend only on its input and options (issue 40:
/// a hermetic ks-opt runs no subprocess it was not asked to). `auto` looks
/// for one as findPtxas does, `none` runs none, a path names one (an error
/// when it is not executable), and an empty option searches only where
/// `searchWhenUnset` (measuring already runs ks-bench on this machine's GPU).
/// Returns std::nullopt for none; sets `error` for a path that does not run.
std::optional<std::string> resolvePtxasOption(llvm::StringRef option, bool searchWhenUnset,
                                              std::string &error);

/// Whether a `ptxas=` option asks for ptxas at all (resolvePtxasOption's
/// rule, for the passes that only need to know whether to run it).
bool ptxasRequested(llvm::StringRef option, bool searchWhenUnset);

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
