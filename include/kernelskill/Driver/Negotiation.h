//===- Negotiation.h - Composing and negotiating the agents' proposals -*- C++ -*-===//
//
// Steps 1 to 3 of the agent driver (docs/Agents.md): compose the proposals
// of one schedule family into a knob space, negotiate it against the
// budgets, and rank what is admissible with the cost model. No IR is
// changed here; compiling and applying is the driver's (AgentDriver.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef KERNELSKILL_DRIVER_NEGOTIATION_H
#define KERNELSKILL_DRIVER_NEGOTIATION_H

#include "kernelskill/Agents/KernelShape.h"
#include "kernelskill/Agents/ScheduleFamily.h"
#include "kernelskill/Analysis/ScheduleCost.h"
#include "kernelskill/Driver/Arbiter.h"

#include <map>
#include <string>
#include <vector>

namespace mlir::ks {

/// Where a candidate stands in the search.
enum class CandidateStatus {
  Admissible,  ///< in the space, not compiled
  Compiled,    ///< compiled (measured: verified and timed): it may be chosen
  Rejected,    ///< refused, `why`: the transform, ptxas, a budget or verification
  ScreenedOut, ///< timed unverified and slower than the finalists, `why`: its time
  Chosen,      ///< applied to the kernel
};

/// One point of a family's knob space with what it claims and costs.
struct Candidate {
  const ScheduleFamily *family = nullptr;
  KnobValues knobs; ///< complete
  int64_t sharedBytes = 0, threads = 0, registers = 0;
  bool registersFromPtxas = false;
  int64_t spillBytes = 0;
  ScheduleCost cost;
  CandidateStatus status = CandidateStatus::Admissible;
  /// Rejected or screened out: why ("ptxas spills 24 bytes").
  std::string why;
  /// The status as the transcript and the tuning database write it:
  /// "compiled", "rejected: WHY", "screened out: WHY", "chosen".
  std::string statusText() const;
  /// Reads statusText()'s form (a tuning database's record); anything
  /// else is a rejection with the text as the reason.
  void setStatusText(llvm::StringRef text);
  void reject(std::string reason) {
    status = CandidateStatus::Rejected;
    why = std::move(reason);
  }
  bool isCompiled() const { return status == CandidateStatus::Compiled; }
  /// measure=cuda: ks-bench's median at the workload (-1: not measured),
  /// what verified it, and whether the figures came from the tuning database.
  double measuredMs = -1;
  /// objective=energy: the board's joules per launch at the workload, in
  /// the same run as measuredMs (-1: not measured).
  double measuredEnergyJ = -1;
  std::string verification;
  bool measuredFromMemory = false;
  /// Which of this driver's timed ks-bench runs measured it (0: none, the
  /// figures came from the tuning database): only medians of one run,
  /// interleaved with each other, are close enough to prefer the simpler.
  int timedRun = 0;
  /// The search round that compiled it: 1, the model's best; 2, 3, ...
  /// refinement rounds around the fastest measured one (refine=).
  int round = 1;
  /// Measured / predicted time from the tuning database's measurements of
  /// this kernel on this GPU at other workloads: the point's own (median
  /// over workloads), else every measured point's median; 1 without any.
  double calibration = 1;
};

/// The model's time scaled by the calibration: what the driver ranks by.
inline double calibratedSeconds(const Candidate &c) { return c.cost.seconds * c.calibration; }

/// One exchange of the negotiation: `from` yields `knob` to `to` (an
/// agent, or "driver" for a budget that excludes values), or the arbiter
/// resolves a conflict (to = "arbiter").
struct NegotiationMessage {
  std::string from, to, knob, text;
};

struct Budgets {
  int64_t maxThreads = 1024;
  int64_t maxSharedBytes = 48 * 1024;
  int64_t maxRegisters = 255;
  double minOccupancy = 0;
};

/// The claims the proposals carry (the one with the larger gain first);
/// the family's for any they leave out.
FamilyClaims claimsOf(const ScheduleFamily &family, llvm::ArrayRef<ProposalAttr> proposals);

/// Checks and prices one point: the transform's verifier, the claims, the
/// user's budgets (threads, shared memory, max-registers, min-occupancy;
/// with `registerFile`, also the registers the block's size leaves each
/// thread) and the cost model. The negotiation's one evaluation of a point,
/// shared by the enumeration and the arbiter.
PointPrice pricePoint(const KernelShape &shape, const ScheduleFamily &family,
                      const FamilyClaims &claims, const KnobValues &values,
                      const GPUCapabilities &caps, const Budgets &budgets, bool registerFile);

struct Negotiation {
  /// The composed knob space: per knob, every value some agent wants, in
  /// the order of the proposal with the larger gain, then the others'.
  std::vector<std::pair<std::string, std::vector<int64_t>>> space;
  /// Which agents want each knob ("memory+resource").
  std::map<std::string, std::string> owner;
  std::vector<NegotiationMessage> messages;
  /// The arbiter's conflicts and the point the agents agreed on.
  Arbitration arbitration;
  std::vector<Candidate> admissible; ///< fastest first
  int64_t considered = 0, rejectedByVerifier = 0, rejectedByBudget = 0;
  /// The verifier's reasons, with how many points each excluded.
  std::map<std::string, int64_t> verifierReasons;
};

/// The points of the space beyond this are not enumerated (a message says
/// so); the rule tables keep spaces far smaller.
inline constexpr int64_t kMaxPoints = 1 << 14;

/// Composes `proposals` (all of `family`) for the kernel, enumerates the
/// space, keeps what the verifier and the budgets admit, ranks it, and
/// arbitrates the agents' conflicts (Arbiter.h).
Negotiation negotiate(const KernelShape &shape, const ScheduleFamily &family,
                      llvm::ArrayRef<ProposalAttr> proposals, const GPUCapabilities &caps,
                      const Budgets &budgets);

/// The cost model's time for `c` (with its current registers).
ScheduleCost predictCandidate(const Candidate &c, const KernelShape &shape,
                              const GPUCapabilities &caps);

/// The registers per thread a block of `threads` may have: the chip's
/// per-thread limit, the user's max-registers, and the register file per
/// block over its threads.
int64_t registersAllowed(int64_t threads, const GPUCapabilities &caps, const Budgets &budgets);

/// Whether ptxas spilling at `registers` (for a block of `threads`) shows
/// that the point needs more registers than it may have: the allocation
/// within 8 of registersAllowed. Below that, ptxas chose to spill (it
/// trades registers for occupancy under .maxntid), which says nothing of
/// other points' register estimates.
bool spilledAtRegisterLimit(int64_t registers, int64_t threads, const GPUCapabilities &caps,
                            const Budgets &budgets);

/// "BM=128,BN=128,..." for the knobs that differ from the family's default.
std::string describeKnobs(const Candidate &c);

/// The points of `ranked` one knob step from `center` in its family's
/// composed space (`space`: per knob, the allowed values; a step is to the
/// next smaller or larger of them), every other knob equal, that are not in
/// `evaluated`; in rank order. The driver's refinement rounds (refine=)
/// measure them.
std::vector<const Candidate *>
knobNeighbours(const Candidate &center, const std::vector<Candidate> &ranked,
               llvm::ArrayRef<std::pair<std::string, std::vector<int64_t>>> space,
               llvm::ArrayRef<Candidate> evaluated);

} // namespace mlir::ks

#endif // KERNELSKILL_DRIVER_NEGOTIATION_H
