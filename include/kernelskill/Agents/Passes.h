//===- Passes.h - The KernelSkill agents ------------------------*- C++ -*-===//
#ifndef KERNELSKILL_AGENTS_PASSES_H
#define KERNELSKILL_AGENTS_PASSES_H

#include "kernelskill/Dialect/KS/IR/KSDialect.h"
#include "kernelskill/Support/Choices.h"
#include "mlir/Pass/Pass.h"
#include <memory>

namespace mlir::ks {

#define GEN_PASS_DECL
#include "kernelskill/Agents/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "kernelskill/Agents/Passes.h.inc"

} // namespace mlir::ks

#endif // KERNELSKILL_AGENTS_PASSES_H
