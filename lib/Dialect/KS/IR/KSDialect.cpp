//===- KSDialect.cpp - The ks dialect -------------------------------------===//
//
// The dialect's generated definitions; KSDialect::initialize, which registers
// the attributes, is in KSAttrs.cpp beside their storage classes.
//
//===----------------------------------------------------------------------===//

#include "kernelskill/Dialect/KS/IR/KSDialect.h"
#include "kernelskill/Dialect/KS/IR/KSAttrs.h"

using namespace mlir;
using namespace mlir::ks;

#include "kernelskill/Dialect/KS/IR/KSDialect.cpp.inc"
