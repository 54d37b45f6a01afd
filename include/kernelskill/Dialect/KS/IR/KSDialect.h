//===- KSDialect.h - The ks dialect -----------------------------*- C++ -*-===//
#ifndef KERNELSKILL_DIALECT_KS_IR_KSDIALECT_H
#define KERNELSKILL_DIALECT_KS_IR_KSDIALECT_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/Operation.h" // the discardable attributes' helpers

#include "kernelskill/Dialect/KS/IR/KSDialect.h.inc"

namespace mlir::ks {

// The discardable ks.* attributes' names, from their declarations
// (KSDialect.td's discardableAttrs, which also say what each holds): code
// names them through these, never as a string of its own.

/// A kernel whose iteration space is explicit (an scf.forall or a linalg
/// op), launched as one thread (plus the dimensions the source left on the
/// grid).
inline constexpr llvm::StringLiteral kRaisedAttrName = KSDialect::RaisedAttrHelper::getNameStr();
/// Why a kernel was left as it was (ks-raise-iteration-space's refusal), for
/// the driver's one-line decision; read and dropped by the driver.
inline constexpr llvm::StringLiteral kNotRaisedAttrName =
    KSDialect::NotRaisedAttrHelper::getNameStr();
/// A raised contraction whose source allowed contracting its multiply-adds
/// into FMAs (CUDA's default).
inline constexpr llvm::StringLiteral kContractAttrName =
    KSDialect::ContractAttrHelper::getNameStr();
/// ks-synthesize-launchers' reason for a kernel that nothing launches.
inline constexpr llvm::StringLiteral kNoLauncherAttrName =
    KSDialect::NoLauncherAttrHelper::getNameStr();
/// The schedule a transform applied to a kernel (its op's name).
inline constexpr llvm::StringLiteral kScheduleAttrName =
    KSDialect::ScheduleAttrHelper::getNameStr();
/// A loop the lowering unrolls (unit: fully; an integer: by that factor),
/// which the CUDA exporter writes as `#pragma unroll`.
inline constexpr llvm::StringLiteral kUnrollAttrName = KSDialect::UnrollAttrHelper::getNameStr();
/// A load whose offsets its loop keeps in 32 bits (Transforms/Passes.td).
inline constexpr llvm::StringLiteral kInt32LoopOffsetsAttrName =
    KSDialect::Int32LoopOffsetsAttrHelper::getNameStr();
/// The importer's: the source file, extern "C" kernels, host symbols copied
/// to the device, initialized and scalar globals; a synthesized launcher.
inline constexpr llvm::StringLiteral kSourceAttrName = KSDialect::SourceAttrHelper::getNameStr();
inline constexpr llvm::StringLiteral kExternCAttrName = KSDialect::ExternCAttrHelper::getNameStr();
inline constexpr llvm::StringLiteral kHostSymbolCopiesAttrName =
    KSDialect::HostSymbolCopiesAttrHelper::getNameStr();
inline constexpr llvm::StringLiteral kInitializedAttrName =
    KSDialect::InitializedAttrHelper::getNameStr();
inline constexpr llvm::StringLiteral kScalarAttrName = KSDialect::ScalarAttrHelper::getNameStr();
inline constexpr llvm::StringLiteral kSynthesizedAttrName =
    KSDialect::SynthesizedAttrHelper::getNameStr();
/// The source's name of a value (on its op, or as an argument attribute).
inline constexpr llvm::StringLiteral kNameAttrName = KSDialect::NameAttrHelper::getNameStr();

} // namespace mlir::ks

#endif // KERNELSKILL_DIALECT_KS_IR_KSDIALECT_H
