//===- Arbiter.h - Resolving the agents' conflicts over budgets -*- C++ -*-===//
//
// The agents own objectives, not knobs: the memory agent wants reuse and
// latency hiding (deeper stages, larger reduction tiles, wider vectors), the
// compute agent instruction-level parallelism (larger register tiles, more
// turns in flight), the resource agent occupancy and waves (block shapes,
// fewer registers and buffers). Their proposals overlap on knobs and compete
// for the same threads, shared memory and registers. The arbiter starts from
// every agent's first preference, finds each conflict -- two agents wanting
// different values of one knob, or their wishes together breaking a budget
// or leaving one block per SM -- asks the agents involved for
// counter-proposals (each its least concession that frees the contested
// resource), prices every offer with the cost model and accepts the one the
// model predicts fastest among those that fit. The result is the agreed
// point, which the driver evaluates first (docs/Agents.md, "Negotiation");
// every conflict, offer and resolution goes to the transcript.
//
// The arbiter decides nothing of its own: who yields is the cost model's
// prediction of each offer, the offers are the agents' own lists in their
// order of preference.
//
//===----------------------------------------------------------------------===//
#ifndef KERNELSKILL_DRIVER_ARBITER_H
#define KERNELSKILL_DRIVER_ARBITER_H

#include "kernelskill/Agents/KernelShape.h"
#include "kernelskill/Agents/ScheduleFamily.h"
#include "kernelskill/Analysis/Occupancy.h"

#include <limits>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace mlir::ks {

struct Budgets;

/// One agent's proposal for one family, as the arbiter reads it.
struct AgentWishes {
  std::string agent;
  double gain = 0;
  /// Per knob, the values the agent accepts in its order of preference.
  std::vector<std::pair<std::string, std::vector<int64_t>>> knobs;
  /// The proposal's resource claims: "shared_bytes", "threads",
  /// "registers" -> formulas of the knobs.
  std::map<std::string, std::string> claims;
};

/// What the agents fight over.
enum class ConflictKind {
  Knob,         ///< two agents want different values of one knob
  Verifier,     ///< the combined wishes do not fit the transform
  Threads,      ///< threads per block over the budget
  SharedMemory, ///< shared memory per block over the budget
  Registers,    ///< registers per thread over what the block may have
  Occupancy,    ///< admissible, but one block per SM (by registers or shared memory)
};

const char *toString(ConflictKind kind);

/// One knob of an offer: from the point's value to the agent's.
struct Move {
  std::string knob;
  int64_t from = 0, to = 0;
};

/// One way out of a conflict: `agent`'s counter-proposal, a new value for
/// one or more of its own knobs (its re-plan: the fewest of its knobs
/// changed that resolve the conflict), or, for a knob conflict, the value
/// `agent` wants. An offer with an empty agent is "keep the point as it
/// is" (occupancy and knob conflicts).
struct Offer {
  std::string agent;
  std::vector<Move> moves;
  double seconds = std::numeric_limits<double>::infinity(); ///< the model's time
  int64_t use = 0;    ///< the contested resource at this point (bytes, registers, threads)
  int64_t blocksPerSM = 0;
  std::string breaks; ///< empty when the point fits the verifier and every budget
  /// "BM=64,BN=64".
  std::string describeMoves() const;
};

struct Conflict {
  ConflictKind kind = ConflictKind::Knob;
  std::vector<std::string> parties; ///< agents involved
  std::string over;                 ///< "shared memory 66560 B > 49152 B"
  std::vector<Offer> offers;
  int accepted = -1;                ///< index into offers; -1: none resolves it
  std::string resolution;           ///< one line for the transcript
};

struct Arbitration {
  std::vector<Conflict> conflicts;
  /// The agreed point (the agents' knobs; the family's defaults complete
  /// it), when the agents reached one.
  std::optional<KnobValues> agreed;
  /// Where the agents stood when the arbiter stopped (the agreed point, or
  /// the last point of a failed negotiation).
  KnobValues reached;
  /// Whether the agreed point is the arbiter's mediation (the admissible
  /// point nearest `reached`, when no agent alone could answer a conflict).
  bool mediated = false;
  std::string outcome; ///< what was agreed, or why nothing was
};

/// A family's resource claims as formulas of its knobs (the proposals'
/// `claims`, else the family's own: Negotiation.h's claimsOf).
struct FamilyClaims {
  std::string sharedBytes, threads, registers;
};

/// The points the arbiter prices: the family's claims, verifier, budgets
/// and cost model (Negotiation.cpp's, one implementation).
struct PointPrice {
  int64_t threads = 0, sharedBytes = 0, registers = 0;
  double seconds = std::numeric_limits<double>::infinity();
  Occupancy occupancy;
  std::string verifier;       ///< the transform's objection, empty when it applies
  ConflictKind brokenBudget = ConflictKind::Knob; ///< with `budget` non-empty
  std::string budget;         ///< the first budget it breaks, empty when none
};

/// Resolves the conflicts among `wishes` (one family's proposals, whose
/// resources `claims` states). At most kMaxArbitrationSteps conflicts are
/// resolved before the arbiter gives up.
Arbitration arbitrate(const KernelShape &shape, const ScheduleFamily &family,
                      llvm::ArrayRef<AgentWishes> wishes, const FamilyClaims &claims,
                      const GPUCapabilities &caps, const Budgets &budgets);

inline constexpr int kMaxArbitrationSteps = 32;
/// An agent re-plans at most this many combinations of its knobs' values
/// per conflict (beyond it, one knob at a time).
inline constexpr int64_t kMaxReplans = 4096;

/// The knobs a claim formula reads ("4*STAGES*BK" -> STAGES, BK), in order
/// of appearance, each once; function names are not knobs.
std::vector<std::string> knobsInFormula(llvm::StringRef formula);

} // namespace mlir::ks

#endif // KERNELSKILL_DRIVER_ARBITER_H
