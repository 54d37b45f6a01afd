//===- Passes.h - The agent driver ------------------------------*- C++ -*-===//
#ifndef KERNELSKILL_DRIVER_PASSES_H
#define KERNELSKILL_DRIVER_PASSES_H

#include "kernelskill/Dialect/KS/IR/KSDialect.h"
#include "kernelskill/Support/Choices.h"
#include "mlir/Pass/Pass.h"

#include <memory>

namespace mlir::ks {
#define GEN_PASS_DECL
#include "kernelskill/Driver/Passes.h.inc"
#define GEN_PASS_REGISTRATION
#include "kernelskill/Driver/Passes.h.inc"
} // namespace mlir::ks

#endif // KERNELSKILL_DRIVER_PASSES_H
