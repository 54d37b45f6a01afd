//===- ProfilePrinter.h - A KernelProfile as text and JSON -------*- C++ -*-===//
//
// The analyses keep typed results (polynomials, numbers, the ops they
// describe); this is the one place that renders them for people (C-like
// text) and programs (JSON). Agents build their reports from these pieces.
//
//===----------------------------------------------------------------------===//
#ifndef KERNELSKILL_ANALYSIS_PROFILEPRINTER_H
#define KERNELSKILL_ANALYSIS_PROFILEPRINTER_H

#include "kernelskill/Analysis/KernelProfile.h"

#include "llvm/Support/JSON.h"

#include <optional>
#include <string>

namespace mlir::ks {

/// A polynomial of the profile's atom table in C syntax; "?" when absent.
std::string printIndex(const KernelProfile &p, const std::optional<IndexExpr> &expr);
/// An access's stride along threadIdx.x ("?" when unknown).
std::string strideText(const KernelProfile &p, const AccessReport &a);
/// A branch's condition, `lhs < rhs`; a switch's value; "" when unknown.
std::string conditionText(const KernelProfile &p, const BranchReport &b);
/// The memory-level parallelism: "128.0 load rounds per warp (8 loads in
/// flight), 1 wave; 512 KB in flight of the 1018 KB DRAM bandwidth x latency
/// needs".
std::string describeMemoryLatency(const KernelProfile &p);
/// "branch", "switch" or "loop".
const char *toString(ControlKind kind);

/// One access, branch; the whole profile (sizes, launch, resources,
/// occupancy, roofline, the predictions comparable with counters, accesses,
/// branches, approximations).
llvm::json::Object toJSON(const KernelProfile &p, const AccessReport &a);
llvm::json::Object toJSON(const KernelProfile &p, const BranchReport &b);
llvm::json::Object toJSON(const KernelProfile &p);

} // namespace mlir::ks

#endif // KERNELSKILL_ANALYSIS_PROFILEPRINTER_H
