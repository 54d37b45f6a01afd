//===- KSDialect.h - The ks dialect -----------------------------*- C++ -*-===//
#ifndef KERNELSKILL_DIALECT_KS_IR_KSDIALECT_H
#define KERNELSKILL_DIALECT_KS_IR_KSDIALECT_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/Operation.h" // the discardable attributes' helpers

#include "kernelskill/Dialect/KS/IR/KSDialect.h.inc"

#endif // KERNELSKILL_DIALECT_KS_IR_KSDIALECT_H
