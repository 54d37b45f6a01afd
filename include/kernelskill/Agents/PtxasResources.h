//===- PtxasResources.h - ptxas's report for a module's kernels -*- C++ -*-===//
#ifndef KERNELSKILL_AGENTS_PTXASRESOURCES_H
#define KERNELSKILL_AGENTS_PTXASRESOURCES_H

#include "kernelskill/Analysis/PtxasReport.h"

#include "mlir/IR/BuiltinOps.h"

#include <map>
#include <string>

namespace mlir::ks {

/// What `ptxas -v` reports for each kernel of `module`, compiled as it is
/// (the --kernelskill-lower pipeline for `chip`, on a copy in a context of
/// its own, so the module and its context are untouched). Fails with the
/// reason — no ptxas found, the lowering or ptxas failed — so the caller can
/// fall back to an estimate and say why.
FailureOr<std::map<std::string, PtxasFunctionInfo>>
getPtxasResources(ModuleOp module, StringRef chip, std::string &whyNot);

} // namespace mlir::ks

#endif // KERNELSKILL_AGENTS_PTXASRESOURCES_H
