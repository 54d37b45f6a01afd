//===- Passes.h - KernelSkill transforms ------------------------*- C++ -*-===//
#ifndef KERNELSKILL_TRANSFORMS_PASSES_H
#define KERNELSKILL_TRANSFORMS_PASSES_H

#include "kernelskill/Dialect/KS/IR/KSDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/Pass.h"
#include <memory>

namespace mlir::ks {

/// A unit attribute on a load or store: `ks-narrow-offsets` computes its
/// offset in 32 bits even where a subscript varies with a loop (the buffer
/// must still be marked `ks.int32_offsets`). Set on every load of
/// `simt_row_reduction interleaved = true`'s walk (made for column sums,
/// whose rows are a runtime stride apart), where narrowing measured faster
/// (Passes.td says why).
// (kInt32LoopOffsetsAttrName, the mark: KSDialect.h.)

#define GEN_PASS_DECL
#include "kernelskill/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "kernelskill/Transforms/Passes.h.inc"

} // namespace mlir::ks

#endif // KERNELSKILL_TRANSFORMS_PASSES_H
