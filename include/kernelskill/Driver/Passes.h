//===- Passes.h - The agent driver ------------------------------*- C++ -*-===//
#ifndef KERNELSKILL_DRIVER_PASSES_H
#define KERNELSKILL_DRIVER_PASSES_H

#include "kernelskill/Dialect/KS/IR/KSDialect.h"
#include "kernelskill/Support/Choices.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Pass/Pass.h"

#include <memory>

namespace mlir::ks {
#define GEN_PASS_DECL
#include "kernelskill/Driver/Passes.h.inc"
#define GEN_PASS_REGISTRATION
#include "kernelskill/Driver/Passes.h.inc"

/// The lifted module as the pipeline received it, before raising: the
/// reference measure=cuda verifies against and what a kernel returns to
/// when no candidate is faster.
struct OriginalModule {
  OwningOpRef<ModuleOp> module;
};

/// A pass that copies the module it runs on into `original` (the pipeline
/// runs it before the raising).
std::unique_ptr<Pass> createKeepOriginalPass(std::shared_ptr<OriginalModule> original);

/// The driver, reading the original from `original` (when set) instead of
/// its `original=FILE` option.
std::unique_ptr<Pass> createKSAgentDriver(const KSAgentDriverOptions &options,
                                          std::shared_ptr<OriginalModule> original);
} // namespace mlir::ks

#endif // KERNELSKILL_DRIVER_PASSES_H
