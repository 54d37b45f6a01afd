//===- KSDialect.h - The ks dialect -----------------------------*- C++ -*-===//
#ifndef KERNELSKILL_DIALECT_KS_IR_KSDIALECT_H
#define KERNELSKILL_DIALECT_KS_IR_KSDIALECT_H

#include "mlir/IR/Dialect.h"

#include "kernelskill/Dialect/KS/IR/KSDialect.h.inc"

#endif // KERNELSKILL_DIALECT_KS_IR_KSDIALECT_H
