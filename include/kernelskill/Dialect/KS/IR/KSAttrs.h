//===- KSAttrs.h - Attributes of the ks dialect -----------------*- C++ -*-===//
#ifndef KERNELSKILL_DIALECT_KS_IR_KSATTRS_H
#define KERNELSKILL_DIALECT_KS_IR_KSATTRS_H

#include "kernelskill/Dialect/KS/IR/KSDialect.h"
#include "kernelskill/Support/ArchDatabase.h"
#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/Location.h"

namespace mlir::ks {
/// Prints a double so that it reads naturally and parses back exactly:
/// "4800.0", "494.7", "0.556".
void printReal(llvm::raw_ostream &os, double value);
/// Parses an integer or a float literal as a double.
ParseResult parseReal(AsmParser &parser, double &value);
/// parseReal for APFloat attribute parameters.
FailureOr<llvm::APFloat> parseRealParameter(AsmParser &parser);
} // namespace mlir::ks

#include "kernelskill/Dialect/KS/IR/KSEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "kernelskill/Dialect/KS/IR/KSAttrs.h.inc"

namespace mlir::ks {
/// Builds the #ks.arch of a database entry, retargeted to `chip` when given
/// (sm_90a for an sm_90 GPU).
ArchAttr getArchAttr(MLIRContext *ctx, const ArchEntry &entry,
                     llvm::StringRef chip = {});

/// The kernel attribute (f64, seconds) that holds the performance
/// profiler's predicted time of the kernel as it profiled it: kept through
/// the raising with #ks.diagnosis (it describes the program), the baseline
/// the agent driver compares its candidates with.
inline constexpr llvm::StringLiteral kPredictedTimeAttrName = "ks.predicted_time";
/// The kernel attribute (f64, seconds) that holds the profiler's roofline
/// floor of the kernel plus its launch: the least time any schedule of the
/// same computation can take (its FLOPs and compulsory DRAM bytes). Kept
/// with ks.predicted_time; the agent driver measures each round's winner
/// against it (target=, Driver/Iteration.h).
inline constexpr llvm::StringLiteral kFloorTimeAttrName = "ks.floor_time";
/// The launcher attribute (a dictionary of strings: buffer name -> extent
/// formula over the launcher's arguments) that holds the extents the lifted
/// kernel's guarded accesses imply, written by the agent driver when the
/// schedule it applied accesses a buffer in a way the launch spec cannot
/// bound (register_window's row loads): the optimized kernel touches no
/// more than the original did, so its manifest uses them
/// (Target/LaunchSpec.h, inferBufferExtents).
inline constexpr llvm::StringLiteral kExtentsAttrName = "ks.extents";

/// The id of the profiler's #ks.access or #ks.branch on `op`, if it has one.
std::optional<int64_t> getProfileId(Operation *op);
/// The op inside `kernel` whose #ks.access or #ks.branch has `id` (a
/// finding's subject), or null where a pass erased it (a dead or folded op).
Operation *lookupSubject(Operation *kernel, int64_t id);
/// Removes the profiler's facts from `kernel` and the ops inside it
/// (#ks.diagnosis, ks.predicted_time, ks.floor_time, #ks.access, #ks.branch): what a transform that changes the
/// kernel calls, since the facts describe the IR before it.
void dropProfileAttributes(Operation *kernel);
/// Removes everything known about `kernel`'s code: the profiler's facts and
/// ptxas's #ks.resources (which describe the binary of the code before the
/// change). What a raising pass or a schedule calls on each kernel it
/// rewrites; the next ks-collect-resources / ks-perf-profiler recomputes them.
void dropKernelFacts(Operation *kernel);
/// What a rewrite that keeps the kernel's behaviour but not its ops calls
/// (the raising): the per-op facts and #ks.resources go, #ks.diagnosis
/// stays (its findings describe what the program does, which the raising
/// does not change) without the subjects, whose ops are gone.
void detachOpFacts(Operation *kernel);
} // namespace mlir::ks

#endif // KERNELSKILL_DIALECT_KS_IR_KSATTRS_H
