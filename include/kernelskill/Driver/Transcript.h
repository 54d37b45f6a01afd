//===- Transcript.h - What the agent driver did and why ---------*- C++ -*-===//
//
// One record per kernel and round: the diagnosis it started from, each
// agent's proposals, the negotiation, the candidates with their predicted
// (and, once measured, measured) times and the decision. Written as JSON
// (`transcript=FILE`, schema in docs/Agents.md) and as a short summary
// (`explain`).
//
//===----------------------------------------------------------------------===//
#ifndef KERNELSKILL_DRIVER_TRANSCRIPT_H
#define KERNELSKILL_DRIVER_TRANSCRIPT_H

#include "kernelskill/Driver/Iteration.h"
#include "kernelskill/Driver/Negotiation.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace mlir::ks {

struct KernelDecision {
  std::string kernel;
  int round = 1;                   ///< search rounds: 1, or 1 + refinement rounds (refine=)
  std::string sizes;               ///< "m=4096, n=4096, k=4096 (#ks.workload of ...)"
  double predictedBefore = -1;     ///< the profiler's seconds, -1 when unknown
  double floorMs = -1;             ///< the profiler's ks.floor_time, -1 when unknown
  /// Each round's winner profiled against the floor (Iteration.h).
  std::vector<RoundDiagnosis> rounds;
  SmallVector<FindingAttr> findings;
  SmallVector<ProposalAttr> proposals;
  std::vector<std::pair<std::string, Negotiation>> negotiations; ///< per family
  std::vector<Candidate> evaluated; ///< compiled (or tried), in ranking order
  int chosen = -1;                  ///< index into `evaluated`
  bool changed = false;
  std::string decision;             ///< why
  std::string scheduleOp;           ///< the transform op applied, as text
  std::string compiledWith;         ///< "ptxas (sm_90, -O3)" or why not
  /// What calibrated the model's ranking (the tuning database's
  /// measurements at other workloads), empty when nothing did.
  std::string calibratedWith;
  /// measure=cuda: how candidates were measured, or why they were not.
  std::string measuredWith;
  double measuredBeforeMs = -1;     ///< the lifted original, measured in the same run
  double measuredBeforeEnergyJ = -1; ///< objective=energy: its joules per launch
  /// The search's cost in wall-clock seconds: applying, lowering and
  /// assembling the candidates; measuring them (measure=cuda); -1 when
  /// that step did not run.
  double compileSeconds = -1, measureSeconds = -1;
  bool restoredOriginal = false;    ///< the lifted original came back unchanged
  /// A static decision that changed the kernel: how the change was checked
  /// against the input before it was applied ("emulated on the CPU at
  /// n=67: match") or why it was not (verify=none); empty otherwise.
  std::string verifiedWith;
};

llvm::json::Object toJSON(const KernelDecision &d);
/// The transcript document: {"measure": ..., "gpu": ..., "kernels": [...]};
/// `measure` is the mode used ("static", "cuda"), which for measure=auto
/// says what auto became.
llvm::json::Value transcriptJSON(llvm::StringRef measure, llvm::StringRef gpu,
                                 llvm::ArrayRef<KernelDecision> decisions);
/// A few lines per kernel: findings, what was done, predicted speedup.
void printExplanation(llvm::raw_ostream &os, const KernelDecision &d);

} // namespace mlir::ks

#endif // KERNELSKILL_DRIVER_TRANSCRIPT_H
