//===- Passes.h - KernelSkill target passes ------------------------*- C++ -*-===//
#ifndef KERNELSKILL_TARGET_PASSES_H
#define KERNELSKILL_TARGET_PASSES_H

#include "kernelskill/Target/Lowering.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Pass/Pass.h"
#include <memory>

namespace mlir::ks {

#define GEN_PASS_DECL
#include "kernelskill/Target/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "kernelskill/Target/Passes.h.inc"

} // namespace mlir::ks

#endif // KERNELSKILL_TARGET_PASSES_H
