//===- Passes.h - Printing the static analyses ------------------*- C++ -*-===//
#ifndef KERNELSKILL_ANALYSIS_PASSES_H
#define KERNELSKILL_ANALYSIS_PASSES_H

#include "kernelskill/Support/Choices.h"

#include "mlir/Pass/Pass.h"
#include <memory>

namespace mlir::ks {

#define GEN_PASS_DECL
#include "kernelskill/Analysis/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "kernelskill/Analysis/Passes.h.inc"

} // namespace mlir::ks

#endif // KERNELSKILL_ANALYSIS_PASSES_H
