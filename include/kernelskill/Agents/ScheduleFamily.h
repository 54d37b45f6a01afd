//===- ScheduleFamily.h - The transform schedules agents configure -*- C++ -*-===//
//
// A schedule family is one parameterized transform op of the library
// (docs/Transforms.md) seen as a set of integer knobs: the agents propose
// values for the knobs (#ks.proposal), the driver picks one value per knob,
// and the family turns that choice into the transform op's attributes,
// checks it against the problem with the transform's own verifier, and
// states its resource claims as formulas of the knobs. The families hold no
// heuristics: which values are worth trying is the rule tables' business
// (Rules.h).
//
//===----------------------------------------------------------------------===//
#ifndef KERNELSKILL_AGENTS_SCHEDULEFAMILY_H
#define KERNELSKILL_AGENTS_SCHEDULEFAMILY_H

#include "kernelskill/Agents/KernelShape.h"
#include "kernelskill/Support/Formula.h"
#include "kernelskill/Transforms/Contraction.h"
#include "kernelskill/Transforms/HaloTile.h"
#include "kernelskill/Transforms/PrivatizedAtomics.h"
#include "kernelskill/Transforms/RowReduction.h"
#include "kernelskill/Transforms/TransposeTile.h"

#include "mlir/IR/Builders.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace mlir::ks {

/// A family's knob with its default (the value when no proposal sets it).
struct Knob {
  llvm::StringLiteral name;
  int64_t defaultValue;
  llvm::StringLiteral meaning;
};

/// One value per knob: a point of the family's space.
using KnobValues = ScalarValues;

struct ScheduleFamily {
  llvm::StringLiteral name;        ///< "outer_product"
  llvm::StringLiteral transformOp; ///< "transform.ks.simt_outer_product"
  llvm::ArrayRef<Knob> knobs;
  /// Resource claims as formulas of the knobs (the proposals carry them).
  llvm::StringLiteral sharedBytes, threads, registers;
  /// The knobs that change the schedule's structure ("T,V"), comma
  /// separated: the driver compiles (and measures) the best point of each
  /// distinct combination of them first, since the cost model ranks
  /// structurally different points least reliably. Empty: plain model
  /// order.
  llvm::StringLiteral primaryKnobs = "";

  /// The knobs' defaults overridden by `values`.
  KnobValues complete(const KnobValues &values) const;
  /// The transform op's attributes for `values`, in the op's order.
  llvm::SmallVector<NamedAttribute> opAttributeList(Builder &b, const KnobValues &values) const;
  /// The same as text, in that order ("{block_tile = array<i64: 128, 128>,
  /// ...}"): the tuning database's key of a point and the transcript's.
  std::string opAttributes(MLIRContext *context, const KnobValues &values) const;
  /// The transform op's own check (the same code the op runs) of `values`
  /// against the kernel (its contraction, or its forall for the families
  /// of raised kernels without one) and the chip's limits: empty when it
  /// applies, else what does not fit.
  std::string verify(const KernelShape &shape, const KnobValues &values, int64_t maxThreads,
                     int64_t maxSharedBytes) const;
  /// How many transforms the point uses beyond the plain schedule (staging
  /// layouts, padding, vectors, pipelining, split-K...): the driver prefers
  /// the simpler of two candidates within measurement noise.
  int64_t complexity(const KnobValues &values) const;
};

/// The families, by name; null when unknown.
const ScheduleFamily *lookupScheduleFamily(llvm::StringRef name);
llvm::ArrayRef<const ScheduleFamily *> allScheduleFamilies();

/// The outer-product (GEMM family) and split-reduction (GEMV family) knobs
/// as the transform library's structs.
OuterProductSchedule toOuterProduct(const KnobValues &values);
SplitReductionSchedule toSplitReduction(const KnobValues &values);
RowReductionSchedule toRowReduction(const KnobValues &values);
TransposeTileSchedule toTransposeTile(const KnobValues &values);
/// The register window (simt_halo_tile registers = true) of a 2-D (DIMS 2:
/// tile [K*BY, BX], block [BX, BY]) or 3-D space (tile [K, BY, BX], block
/// [BX, BY, 1]).
HaloTileSchedule toRegisterWindow(const KnobValues &values);
PrivatizedAtomicsSchedule toPrivatizedAtomics(const KnobValues &values);

/// Evaluates one of the family's claim formulas at `values`.
std::optional<int64_t> evaluateClaim(llvm::StringRef formula, const KnobValues &values);

} // namespace mlir::ks

#endif // KERNELSKILL_AGENTS_SCHEDULEFAMILY_H
