//===- KSTransformOps.h - KernelSkill transform-dialect ops -----*- C++ -*-===//
#ifndef KERNELSKILL_DIALECT_KS_TRANSFORMOPS_KSTRANSFORMOPS_H
#define KERNELSKILL_DIALECT_KS_TRANSFORMOPS_KSTRANSFORMOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/Dialect/Transform/Interfaces/TransformInterfaces.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#define GET_OP_CLASSES
#include "kernelskill/Dialect/KS/TransformOps/KSTransformOps.h.inc"

namespace mlir {
class DialectRegistry;
namespace ks {
/// Registers the `transform.ks.*` ops with the transform dialect.
void registerKSTransformOps(DialectRegistry &registry);
} // namespace ks
} // namespace mlir

#endif // KERNELSKILL_DIALECT_KS_TRANSFORMOPS_KSTRANSFORMOPS_H
