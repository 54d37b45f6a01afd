//===- Select.cpp - The driver's selector: the winner, or the original kept ===//
//
// Step 5 of the driver: which candidate replaces the kernel, and what
// happens when none may (the lifted original comes back, or a raised
// kernel is scheduled anyway with the reason).
//
//===----------------------------------------------------------------------===//

#include "KernelSearch.h"

using namespace mlir;
using namespace mlir::ks;
using namespace mlir::ks::driver;

void KernelSearch::keepOriginal(gpu::GPUFuncOp kernel, KernelDecision &d, const KernelShape &shape,
                               RunContext &run, const std::string &reason) {
  std::string why;
  if (run.original && succeeded(restoreOriginal(getOperation(), run.original, d.kernel, why))) {
    d.restoredOriginal = true;
    d.chosen = -1;
    d.changed = false;
    d.decision = "unchanged (the lifted original): " + reason;
    return;
  }
  scheduleAnyway(kernel, d, shape, {}, run.caps,
                 reason + (why.empty() ? "" : "; the original cannot come back: " + why),
                 /*run=*/nullptr);
}

/// A raised kernel holds linalg on tensors, launched as one thread: only a
/// schedule lowers it. When the driver keeps no candidate for it, it still
/// applies one — the best compiled, else the best admissible, else the
/// family's defaults — and says so; the kernel is never left unlowerable.
void KernelSearch::scheduleAnyway(gpu::GPUFuncOp kernel, KernelDecision &d,
                                 const KernelShape &shape, const std::vector<Candidate> &ranked,
                                 const GPUCapabilities &caps, const std::string &reason,
                                 RunContext *run) {
  std::optional<Candidate> pick;
  int entry = -1; // pick's entry in d.evaluated, when it has one
  for (auto [i, c] : llvm::enumerate(d.evaluated))
    if (!pick && c.isCompiled()) {
      pick = c;
      entry = int(i);
    }
  if (!pick && !ranked.empty())
    pick = ranked.front();
  if (!pick) {
    // The family's defaults; a raised kernel without a contraction is its
    // iteration space: rows walked in loops get a warp each where the
    // row-reduction schedule applies, else every iteration a thread (256
    // per block, fewer where the grid would leave SMs idle:
    // onePerThreadBlock). (An interim choice until the agents propose the
    // memory-bound families: a warp per row is 4-12x faster than a thread
    // per row on the H200 for softmax and the normalizations, but a block
    // per row wins on rows of 4096; docs/Performance.md.)
    StringRef name = shape.cls == ProblemClass::Gemm ? "outer_product" : "split_reduction";
    if (!shape.problem) {
      name = "one_per_thread";
      const ScheduleFamily *rows = lookupScheduleFamily("row_reduction");
      const ScheduleFamily *atomics = lookupScheduleFamily("privatized_atomics");
      std::string why;
      for (Operation &op : kernel.getBody().front())
        if (auto forall = dyn_cast<scf::ForallOp>(op)) {
          if (succeeded(checkRowReduction(forall, toRowReduction(rows->complete({})),
                                          caps.smemPerBlock, why)))
            name = rows->name;
          // Scattered atomic additions (histograms): private counters per
          // block (bench/results/2026-12-02-h200-memory/run7: 336x the
          // naive kernel's global atomics on 256 bins).
          else if (succeeded(checkPrivatizedAtomics(
                       forall, toPrivatizedAtomics(atomics->complete({})), caps.smemPerBlock,
                       why)))
            name = atomics->name;
        }
    }
    const ScheduleFamily *family = lookupScheduleFamily(name);
    Candidate c;
    c.family = family;
    KnobValues knobs;
    if (name == "one_per_thread")
      knobs["BX"] = onePerThreadBlock(shape, caps.smCount);
    c.knobs = family->complete(knobs);
    if (family->verify(shape, {}, caps.maxThreadsPerBlock, caps.smemPerBlock).empty())
      pick = c;
  }
  // Measured like a searched candidate: a schedule picked without a search
  // may be no faster than the input (one thread per point again: the same
  // kernel), and is verified before it replaces it.
  if (pick && run && run->measuring) {
    size_t at = d.evaluated.size();
    if (std::optional<std::string> keep = measurePick(kernel, d, *pick, *run)) {
      keepOriginal(kernel, d, shape, *run, reason + "; " + *keep);
      if (!d.restoredOriginal && d.evaluated[at].status == CandidateStatus::Rejected)
        kernel.emitWarning() << "ks-agent-driver: the kernel's only schedule was "
                             << d.evaluated[at].statusText()
                             << ", and the original cannot come back: " << d.decision;
      return;
    }
    if (at < d.evaluated.size())
      entry = int(at);
  }
  // Not measured (measure=static, or not measurable): a static decision,
  // which applies only what is predicted faster by the margin and checked.
  // (Without `run` the original could not come back: the schedule is the
  // only way to lower the raised kernel.)
  bool measured = entry >= 0 && d.evaluated[entry].measuredMs > 0 && d.measuredBeforeMs > 0;
  if (run && !measured) {
    if (!pick)
      return keepOriginal(kernel, d, shape, *run, reason + "; no schedule applies");
    if (std::optional<std::string> keep = staticPickRefused(d, *pick, *run))
      return keepOriginal(kernel, d, shape, *run, reason + "; " + *keep);
    if (entry >= 0)
      d.evaluated[entry].cost = pick->cost;
  }
  if (!pick || failed(applyCandidate(getOperation(), d.kernel, *pick))) {
    if (run)
      return keepOriginal(kernel, d, shape, *run,
                          reason + "; its schedule did not apply to the kernel itself");
    kernel.emitError() << "ks-agent-driver: " << reason
                       << "; and no schedule applies to the raised kernel, which cannot be "
                          "lowered without one (run the pipeline with optimize=false)";
    d.decision = reason + "; no schedule applies: the raised kernel cannot be lowered";
    passFailed = true;
    return;
  }
  if (entry < 0) {
    d.evaluated.push_back(*pick);
    entry = int(d.evaluated.size()) - 1;
  }
  Candidate &chosen = d.evaluated[entry];
  chosen.status = CandidateStatus::Chosen;
  d.chosen = entry;
  d.changed = true;
  d.scheduleOp = opText(chosen, &getContext(), "k", "r");
  std::string what = std::string(pick->family->name) + " " + describeKnobs(*pick);
  if (!run)
    d.decision = reason + "; scheduled anyway with " + what +
                 ": a raised kernel is lowered only through a schedule";
  else if (measured)
    d.decision = reason + "; applied " + what + measuredSuffix(chosen, d);
  else
    d.decision = llvm::formatv("{0}; applied {1}: predicted {2:e3} s vs {3:e3} s before ({4})",
                               reason, what, chosen.cost.seconds, d.predictedBefore,
                               chosen.cost.explanation)
                     .str();
}

std::optional<std::string> KernelSearch::checkStatically(KernelDecision &d, const Candidate &c,
                                                        RunContext &run) {
  if (!run.emulating) {
    d.verifiedWith = "not verified against the input (verify=none)";
    return std::nullopt;
  }
  CPUCheckSettings settings;
  settings.emulator = run.emulator;
  settings.workDir = run.emulateDir;
  settings.tf32 = precision != Precision::Strict;
  settings.workload = run.workloadValues;
  std::string used;
  EmulationVerdict verdict = checkOnCPU(
      getOperation(), run.original, d.kernel,
      [&](ModuleOp copy) { return applyCandidate(copy, d.kernel, c); }, settings, used);
  std::string what = c.family->name.str() + " " + describeKnobs(c);
  switch (verdict.status) {
  case EmulationVerdict::Status::Match:
    d.verifiedWith = "emulated on the CPU against the input at " + used + ": match";
    return std::nullopt;
  case EmulationVerdict::Status::Mismatch:
    d.verifiedWith = "emulated on the CPU against the input at " + used + ": MISMATCH (" +
                     verdict.detail + ")";
    return "the CPU emulation found " + what + " computing something else than the input at " +
           used + " (" + verdict.detail + ")";
  case EmulationVerdict::Status::Unverified:
    break;
  }
  d.verifiedWith = "not verified: " + verdict.detail;
  return what + " could not be verified against the input on the CPU (" + verdict.detail + ")";
}

std::optional<std::string> KernelSearch::staticPickRefused(KernelDecision &d, Candidate &pick,
                                                          RunContext &run) {
  std::string what = "its schedule " + pick.family->name.str() + " " + describeKnobs(pick);
  std::string why;
  std::optional<double> predicted = predictRewrittenSeconds(
      getOperation(), d.kernel, [&](ModuleOp copy) { return applyCandidate(copy, d.kernel, pick); },
      run.workloadValues, why);
  if (!predicted)
    return what + " is not predicted (" + why + ")";
  pick.cost.seconds = *predicted;
  pick.cost.explanation = "the kernel profiler's model of the rewritten kernel";
  if (d.predictedBefore <= 0)
    return what + " has no input time to be compared with";
  if (!(*predicted * (1 + staticMargin) < d.predictedBefore))
    return llvm::formatv("{0} is predicted no faster than the input by more than {1}% ({2:e3} s "
                         "vs {3:e3} s, the profiler's model of both)",
                         what, int(std::lround(staticMargin * 100)), *predicted,
                         d.predictedBefore)
        .str();
  return checkStatically(d, pick, run);
}

void KernelSearch::applySIMTLevel(gpu::GPUFuncOp kernel, KernelDecision &d,
                                 const std::string &whyNot, RunContext &run) {
  Candidate c;
  c.family = lookupScheduleFamily("sequential_tree");
  c.status = CandidateStatus::Compiled;
  std::string what = "the SIMT-level rewrite " + std::string(c.family->name);
  std::string refusal;
  if (!appliesToCopy(getOperation(), d.kernel, c, &refusal)) {
    d.decision = "unchanged: " + whyNot + "; " + what + " does not apply (" + refusal + ")";
    return;
  }
  size_t before = d.evaluated.size();
  if (run.measuring && run.ptxas) {
    if (std::optional<std::string> slower = measurePick(kernel, d, c, run)) {
      d.decision = "unchanged: " + whyNot + "; " + what + ": " + *slower;
      return;
    }
  }
  // Not measured (statically, or no launch spec: measuredWith says why): a
  // static decision.
  if (d.evaluated.size() == before) {
    if (std::optional<std::string> keep = staticPickRefused(d, c, run)) {
      d.decision = "unchanged: " + whyNot + "; " + what + ": " + *keep;
      return;
    }
    d.evaluated.push_back(c);
  }
  if (failed(applyChosen(kernel, d, int(d.evaluated.size()) - 1))) {
    d.decision = "unchanged: " + whyNot + "; " + what + " failed on the kernel";
    return;
  }
  const Candidate &chosen = d.evaluated.back();
  d.decision = "applied " + std::string(c.family->name) + ": " + whyNot +
               ", but a SIMT-level rewrite applies";
  d.decision += measuredSuffix(chosen, d);
}

LogicalResult KernelSearch::applyChosen(gpu::GPUFuncOp kernel, KernelDecision &d, int chosen) {
  Candidate &winner = d.evaluated[chosen];
  if (failed(applyCandidate(getOperation(), d.kernel, winner))) {
    kernel.emitWarning() << "ks-agent-driver: the winning schedule did not apply to the kernel "
                            "after it applied to a copy";
    return failure();
  }
  winner.status = CandidateStatus::Chosen;
  d.chosen = chosen;
  d.changed = true;
  d.scheduleOp = opText(winner, &getContext(), "k", "r");
  return success();
}

/// The simplest candidate whose `figure` (a time, an energy) is within
/// kSimplerBand of `best`'s, of the same timed run: figures of two runs (a
/// refine round, the tuning database) differ by more than the band (a
/// simpler GEMM chosen across runs timed 6% slower on its own, issue 44).
static int simplestWithinBand(ArrayRef<Candidate> evaluated, int best,
                              double Candidate::*figure) {
  int chosen = best;
  for (auto [i, c] : llvm::enumerate(evaluated))
    if (c.isCompiled() && c.*figure > 0 && c.timedRun > 0 &&
        c.timedRun == evaluated[best].timedRun &&
        c.*figure <= evaluated[best].*figure * (1 + kSimplerBand) &&
        c.family->complexity(c.knobs) <
            evaluated[chosen].family->complexity(evaluated[chosen].knobs))
      chosen = int(i);
  return chosen;
}

std::optional<std::string> KernelSearch::selectByEnergy(gpu::GPUFuncOp kernel,
                                                        KernelDecision &d,
                                                        const KernelShape &shape,
                                                        RunContext &run) {
  int best = -1;
  for (auto [i, c] : llvm::enumerate(d.evaluated))
    if (c.isCompiled() && c.measuredMs > 0 && c.measuredEnergyJ > 0 &&
        (best < 0 || c.measuredEnergyJ < d.evaluated[best].measuredEnergyJ))
      best = int(i);
  if (best < 0 || d.measuredBeforeEnergyJ <= 0)
    return std::string("objective=energy: no energy reading of ") +
           (best < 0 ? "any verified candidate" : "the original") + ", decided by time";
  // Readings of one run within the energy noise of the least are the same
  // energy: among them the fastest (a time is the finer measurement; on an
  // H100 the least-energy softmax candidate changed from run to run among
  // points 1-3% apart), and the simpler within kSimplerBand of its time.
  // (Readings from the tuning database, timedRun 0, are one earlier run's:
  // a repeat then chooses as that run did.)
  auto inBand = [&](const Candidate &c) {
    return c.isCompiled() && c.measuredEnergyJ > 0 && c.timedRun == d.evaluated[best].timedRun &&
           c.measuredEnergyJ <= d.evaluated[best].measuredEnergyJ * (1 + kEnergyNoise);
  };
  int fastest = best;
  for (auto [i, c] : llvm::enumerate(d.evaluated))
    if (inBand(c) && c.measuredMs < d.evaluated[fastest].measuredMs)
      fastest = int(i);
  int chosen = simplestWithinBand(d.evaluated, fastest, &Candidate::measuredMs);
  if (!inBand(d.evaluated[chosen]))
    chosen = fastest;
  Candidate &winner = d.evaluated[chosen];
  double before = d.measuredBeforeEnergyJ;
  if (winner.measuredEnergyJ >= before * (1 - kEnergyNoise)) {
    keepOriginal(kernel, d, shape, run,
                 llvm::formatv("the verified candidate of least energy ({0:f4} mJ per launch) "
                               "does not use less than the original ({1:f4} mJ) by more than "
                               "the noise ({2}%)",
                               winner.measuredEnergyJ * 1e3, before * 1e3,
                               int(kEnergyNoise * 100))
                     .str());
    return std::nullopt;
  }
  if (failed(applyChosen(kernel, d, chosen))) {
    keepOriginal(kernel, d, shape, run, "the winning schedule failed on the kernel");
    return std::nullopt;
  }
  d.decision = llvm::formatv("applied {0} {1}: measured least energy of {2} verified ({3:f4} mJ "
                             "per launch, {4:f2}x less than the original's {5:f4} mJ; {6:f4} ms "
                             "against {7:f4} ms){8}",
                             winner.family->name, describeKnobs(winner), d.evaluated.size(),
                             winner.measuredEnergyJ * 1e3, before / winner.measuredEnergyJ,
                             before * 1e3, winner.measuredMs, d.measuredBeforeMs,
                             chosen == best ? ""
                             : chosen == fastest
                                 ? "; the fastest of those within the energy noise (3%)"
                                 : "; the simplest of those within the energy noise and 1% "
                                   "of the fastest's time")
                   .str();
  return std::nullopt;
}

void KernelSearch::selectMeasured(gpu::GPUFuncOp kernel, KernelDecision &d,
                                  const KernelShape &shape, RunContext &run) {
  // objective=energy: the verified candidate of least energy per launch,
  // when the readings are there; else (and for every other objective) by
  // time, below.
  std::string note;
  if (objective == Objective::Energy) {
    std::optional<std::string> noEnergy = selectByEnergy(kernel, d, shape, run);
    if (!noEnergy)
      return;
    note = "; " + *noEnergy;
  }
  // Step 5 with measurements: the fastest verified candidate; within the
  // noise of the fastest (kMeasurementNoise) the simpler one, and only when
  // it beats the measured original by more than the noise.
  {
    int best = fastestVerified(d.evaluated);
    if (best < 0)
      return keepOriginal(kernel, d, shape, run,
                          "no candidate was verified and measured (see each one's status)");
    int chosen = simplestWithinBand(d.evaluated, best, &Candidate::measuredMs);
    Candidate &winner = d.evaluated[chosen];
    if (std::optional<std::string> slower = notFasterThanOriginal(
            "the fastest verified candidate", winner.measuredMs, d.measuredBeforeMs))
      return keepOriginal(kernel, d, shape, run, *slower + note);
    if (failed(applyChosen(kernel, d, chosen)))
      return keepOriginal(kernel, d, shape, run, "the winning schedule failed on the kernel");
    d.decision = llvm::formatv("applied {0} {1}: measured {6} verified of {2} ({3:f4} ms, "
                               "{4:f2}x the original's {5:f4} ms)",
                               winner.family->name, describeKnobs(winner),
                               d.evaluated.size(), winner.measuredMs,
                               d.measuredBeforeMs / winner.measuredMs, d.measuredBeforeMs,
                               chosen == best ? "fastest" : "simplest within the noise")
                     .str();
    if (chosen != best)
      d.decision += llvm::formatv("; preferred over the fastest ({0:f4} ms) as simpler within "
                                  "the noise",
                                  d.evaluated[best].measuredMs)
                        .str();
    d.decision += note;
    return;
  }

}

void KernelSearch::selectStatic(gpu::GPUFuncOp kernel, KernelDecision &d,
                                const KernelShape &shape, RunContext &run,
                                double originalCalibration) {
  // Step 5 without measurements: the fastest compiled candidate; between
  // equal predictions the simpler one. (Preferring the simpler one within a
  // margin is for measurements, whose noise is known; the model's error is
  // not noise: measured, run 3 lost up to 1.6x to "simpler within 3%".)
  int best = -1;
  for (auto [i, c] : llvm::enumerate(d.evaluated)) {
    if (!c.isCompiled())
      continue;
    if (best < 0 || calibratedSeconds(c) < calibratedSeconds(d.evaluated[best]) ||
        (calibratedSeconds(c) == calibratedSeconds(d.evaluated[best]) &&
         c.family->complexity(c.knobs) <
             d.evaluated[best].family->complexity(d.evaluated[best].knobs)))
      best = int(i);
  }
  if (best < 0)
    return keepOriginal(kernel, d, shape, run, "every compiled candidate was rejected");
  int chosen = best;
  Candidate &winner = d.evaluated[chosen];
  // Only what the model predicts faster by the margin replaces the input;
  // then, with verify=emulate, only what the CPU finds computing the same.
  if (!(d.predictedBefore > 0 && calibratedSeconds(winner) * (1 + staticMargin) <
                                     d.predictedBefore * originalCalibration)) {
    std::string why =
        d.predictedBefore > 0
            ? llvm::formatv("the best candidate is predicted no faster than the kernel by more "
                            "than {0}% ({1:e3} s vs {2:e3} s)",
                            int(std::lround(staticMargin * 100)), calibratedSeconds(winner),
                            d.predictedBefore * originalCalibration)
                  .str()
            : std::string("the kernel has no predicted time to compare the candidates with");
    return keepOriginal(kernel, d, shape, run, why);
  }
  if (std::optional<std::string> keep = checkStatically(d, winner, run))
    return keepOriginal(kernel, d, shape, run, *keep);
  if (failed(applyChosen(kernel, d, chosen)))
    return keepOriginal(kernel, d, shape, run, "the winning schedule failed on the kernel itself");
  d.decision = "applied " + std::string(winner.family->name) + " " + describeKnobs(winner) +
               ": predicted fastest of " + std::to_string(d.evaluated.size()) + " compiled";
  if (d.predictedBefore > 0)
    reprofile(d, /*round=*/0, "the input", d.predictedBefore * originalCalibration * 1e3,
              /*measured=*/false);
  reprofile(d, chosen, /*round=*/1, /*measured=*/false);
  if (!d.calibratedWith.empty())
    d.decision += " (" + d.calibratedWith + ")";
}
