//===- Search.cpp - The driver's policy: rounds, budget, refinement ===//
//
// Steps 1 to 4 for one kernel: the negotiation per family (Negotiation.h),
// the order the candidates are compiled in, the budget, the measured
// rounds and refinement; the selector (Select.cpp) picks the winner.
//
//===----------------------------------------------------------------------===//

#include "KernelSearch.h"

#include <random>

using namespace mlir;
using namespace mlir::ks;
using namespace mlir::ks::driver;

namespace {


/// Reorders `ranked` (fastest first) so that the best point of each
/// combination of its family's primary knobs comes first, in rank order,
/// then the rest in rank order: the first `budget` compiled (and measured)
/// cover the structurally different schedules rather than near-copies of
/// the model's favourite. Families without primary knobs keep their order.
void diversifyByPrimaryKnobs(std::vector<Candidate> &ranked) {
  std::set<std::string> seen;
  std::vector<Candidate> first, rest;
  for (Candidate &c : ranked) {
    SmallVector<StringRef> names;
    StringRef(c.family->primaryKnobs).split(names, ',', -1, /*KeepEmpty=*/false);
    if (names.empty()) {
      first.push_back(std::move(c));
      continue;
    }
    std::string key = c.family->name.str();
    for (StringRef n : names)
      key += "," + std::to_string(c.knobs.count(n.str()) ? c.knobs.at(n.str()) : 0);
    (seen.insert(key).second ? first : rest).push_back(std::move(c));
  }
  llvm::append_range(first, rest);
  ranked = std::move(first);
}

/// Moves the points the agents agreed on (one per family, the arbiter's)
/// to `slot` of `ranked` (the last of the first round), the model's faster
/// first: each round of the negotiated search holds both the model's best
/// and the agents' agreed choice. A point already before `slot` stays.
void placeAgreed(std::vector<Candidate> &ranked,
                 ArrayRef<std::pair<std::string, Negotiation>> negotiations, size_t slot) {
  std::vector<Candidate> agreed;
  for (auto &[family, n] : negotiations) {
    if (!n.arbitration.agreed)
      continue;
    const ScheduleFamily *agreedFamily = lookupScheduleFamily(family);
    KnobValues point = agreedFamily->complete(*n.arbitration.agreed);
    auto it = llvm::find_if(ranked, [&](const Candidate &c) {
      return c.family == agreedFamily && c.knobs == point;
    });
    if (it == ranked.end() || size_t(it - ranked.begin()) < slot)
      continue;
    agreed.push_back(std::move(*it));
    ranked.erase(it);
  }
  llvm::stable_sort(agreed, [](const Candidate &a, const Candidate &b) {
    return calibratedSeconds(a) < calibratedSeconds(b);
  });
  slot = std::min(slot, ranked.size());
  ranked.insert(ranked.begin() + slot, std::make_move_iterator(agreed.begin()),
                std::make_move_iterator(agreed.end()));
}

/// A kernel without a contraction has no m, n, k: its integer arguments
/// with the values the workload gives them ("n=1000, unset: stride"), or
/// "no contraction" when it has none.
std::string scalarsAtWorkload(gpu::GPUFuncOp kernel,
                                     const llvm::StringMap<int64_t> &workload) {
  SmallVector<std::string> given, unset;
  for (auto [i, arg] : llvm::enumerate(kernel.getArguments())) {
    if (!arg.getType().isIntOrIndex())
      continue;
    std::string name = getArgumentName(kernel, i);
    if (auto it = workload.find(name); it != workload.end())
      given.push_back(name + "=" + std::to_string(it->second));
    else
      unset.push_back(name);
  }
  std::string text = given.empty() && unset.empty() ? "no contraction" : llvm::join(given, ", ");
  if (!unset.empty())
    text += (given.empty() ? "" : ", ") + std::string("not in the workload: ") + llvm::join(unset, ", ");
  return text;
}


/// search=random: `ranked` in an order drawn from `seed` (Fisher-Yates
/// over a 64-bit Mersenne twister: the same order on every platform).
void shuffleSeeded(std::vector<Candidate> &ranked, uint64_t seed) {
  std::mt19937_64 random(seed);
  for (size_t i = ranked.size(); i > 1; --i)
    std::swap(ranked[i - 1], ranked[random() % i]);
}

/// What the transcript says of the kernel's sizes ("m=4096, n=4096, ...").
std::string describeSizes(const KernelShape &shape, gpu::GPUFuncOp kernel,
                          const llvm::StringMap<int64_t> &workload) {
  std::string sizes;
  if (shape.cls == ProblemClass::Rows)
    sizes = "rows=" + std::to_string(shape.rows.rows) +
            ", row length=" + std::to_string(shape.rows.length) +
            ", passes=" + std::to_string(shape.rows.readPasses);
  else if (shape.cls == ProblemClass::Transpose)
    sizes = "transpose of " + std::to_string(shape.tile.rows) + " x " +
            std::to_string(shape.tile.cols);
  else if (shape.cls == ProblemClass::Stencil)
    sizes = "stencil over " +
            llvm::join(llvm::map_range(shape.stencil.extents,
                                       [](int64_t e) { return std::to_string(e); }),
                       " x ") +
            ", reads spread " + std::to_string(shape.stencil.halo) + " along the outermost";
  else if (shape.problem)
    sizes = "m=" + std::to_string(shape.sizes.m) + ", n=" + std::to_string(shape.sizes.n) +
            ", k=" + std::to_string(shape.sizes.k) +
            ", batch=" + std::to_string(shape.sizes.batch);
  else
    sizes = scalarsAtWorkload(kernel, workload);
  if (!shape.sizesFrom.empty())
    sizes += " (" + shape.sizesFrom + ")";
  return sizes;
}

} // namespace

void KernelSearch::decide(gpu::GPUFuncOp kernel, KernelDecision &d, RunContext &run) {
  ModuleOp module = getOperation();
  d.kernel = kernel.getName().str();
  if (auto t = kernel->getAttrOfType<FloatAttr>(kPredictedTimeAttrName))
    d.predictedBefore = t.getValueAsDouble();
  if (auto t = kernel->getAttrOfType<FloatAttr>(kFloorTimeAttrName))
    d.floorMs = t.getValueAsDouble() * 1e3;
  if (auto diagnosis = kernel->getAttrOfType<DiagnosisAttr>(DiagnosisAttr::kKernelAttrName))
    llvm::append_range(d.findings, diagnosis.getFindings());
  // agents=: the others' proposals are left out, as if they had not run.
  if (auto list = kernel->getAttrOfType<ArrayAttr>(ProposalAttr::kKernelAttrName))
    for (Attribute a : list)
      if (agents.empty() || llvm::is_contained(agents, cast<ProposalAttr>(a).getAgent().str()))
        d.proposals.push_back(cast<ProposalAttr>(a));
  kernel->removeAttr(ProposalAttr::kKernelAttrName);

  KernelShape shape = readKernelShape(kernel, module, run.workloadValues);
  if (!kernels.empty() && !llvm::is_contained(kernels, d.kernel)) {
    std::string why = "not selected (kernels=" + llvm::join(kernels, ",") + ")";
    if (kernel->hasAttr(kRaisedAttrName))
      return keepOriginal(kernel, d, shape, run, why);
    d.decision = "unchanged: " + why;
    return;
  }
  d.sizes = describeSizes(shape, kernel, run.workloadValues);
  // Rows, transposes and stencils are searched like the contractions (rules,
  // negotiation, cost model, ptxas, measurements); the other raised kernels
  // without a contraction get their family's defaults (scheduleAnyway).
  if (!isSearchable(shape)) {
    if (kernel->hasAttr(kRaisedAttrName))
      return scheduleAnyway(kernel, d, shape, {}, run.caps, shape.whyNot, &run);
    return applySIMTLevel(kernel, d, shape.whyNot, run);
  }
  if (d.proposals.empty())
    return scheduleAnyway(kernel, d, shape, {}, run.caps,
                          "no agent proposed anything (no rule fires for the kernel's class, conditions and findings)",
                          &run);
  SearchState s;
  s.ranked = negotiateFamilies(kernel, d, shape, run);
  if (s.ranked.empty())
    return scheduleAnyway(kernel, d, shape, s.ranked, run.caps,
                          "no point of the proposals fits the verifier and the budgets", &run);
  compileFirstRound(kernel, d, shape, run, s);
  if (s.ref)
    measureRounds(d, shape, run, s);
  if (s.ref && d.measuredBeforeMs > 0)
    return selectMeasured(kernel, d, shape, run);
  selectStatic(kernel, d, shape, run, s.originalCalibration);
}

std::vector<Candidate> KernelSearch::negotiateFamilies(gpu::GPUFuncOp kernel, KernelDecision &d,
                                                       const KernelShape &shape,
                                                       RunContext &run) {
  // Steps 1-3 per family; the families exclude each other (one schedule
  // per kernel), so their candidates compete in one ranking.
  std::vector<Candidate> ranked;
  for (const ScheduleFamily *family : allScheduleFamilies()) {
    SmallVector<ProposalAttr> mine;
    for (ProposalAttr p : d.proposals)
      if (p.getSchedule() == family->name)
        mine.push_back(p);
    if (mine.empty())
      continue;
    Negotiation n = negotiate(shape, *family, mine, run.caps, run.budgets);
    llvm::append_range(ranked, n.admissible);
    d.negotiations.emplace_back(family->name.str(), std::move(n));
  }
  for (ProposalAttr p : d.proposals)
    if (!lookupScheduleFamily(p.getSchedule()))
      kernel.emitWarning() << "ks-agent-driver: unknown schedule family '" << p.getSchedule()
                           << "' in a proposal of the " << p.getAgent() << " agent: ignored";
  llvm::stable_sort(ranked, [](const Candidate &a, const Candidate &b) {
    return a.cost.seconds < b.cost.seconds;
  });
  if (search == "negotiated")
    diversifyByPrimaryKnobs(ranked);
  else if (search == "random")
    shuffleSeeded(ranked, uint64_t(searchSeed));
  return ranked;
}

bool KernelSearch::searchTimeIsUp(const SearchState &s) const {
  // search-seconds=: past them, the candidates compiled so far are measured
  // and decided; no further one is compiled.
  return searchSeconds > 0 && secondsSince(s.compileStart) >= double(searchSeconds);
}

void KernelSearch::compileFirstRound(gpu::GPUFuncOp kernel, KernelDecision &d,
                                     const KernelShape &shape, RunContext &run, SearchState &s) {
  // Step 4: compile the best `budget` on copies of the module.
  d.compiledWith = run.ptxas ? "ptxas " + *run.ptxas + " (" + run.chip + ", -O" +
                                   std::to_string(optLevel) + ")"
                             : std::string(run.ptxasNote) +
                                   ": transforms applied to copies, registers estimated";
  // Points the model cannot tell apart (same time and claims) are compiled
  // once: the first in the agents' order of preference. A candidate that
  // spills lowers the register budget to below its estimate, so the next
  // ones the estimate puts at least as high are not compiled either.
  s.registerCap = run.budgets.maxRegisters;
  // measure=cuda: the lifted original's launch, PTX and workload first (a
  // kernel whose original cannot be run is decided statically, with why).
  s.ref = referenceFor(d, run);
  s.memory.emplace(memoryFor(kernel, s.ref ? &*s.ref : nullptr, run));
  // Calibration, when the decision is static: the tuning database's
  // measurements of this kernel on this GPU (at other workloads: every
  // measured one for a static decision) scale the model's times, and the
  // points are ranked again. A measured search ranks by the model alone, so
  // that a repeat run compiles the first one's candidates (all in the
  // database: no ks-bench call); its measurements decide.
  if (size_t records = s.ref ? 0 : s.memory->calibrationRecords()) {
    s.originalCalibration = s.memory->calibration("original").value_or(1);
    for (Candidate &c : s.ranked)
      c.calibration =
          s.memory->calibration(c.family->opAttributes(&getContext(), c.knobs)).value_or(1);
    if (search != "random") {
      llvm::stable_sort(s.ranked, [](const Candidate &a, const Candidate &b) {
        return calibratedSeconds(a) < calibratedSeconds(b);
      });
      if (search == "negotiated")
        diversifyByPrimaryKnobs(s.ranked);
    }
    d.calibratedWith = llvm::formatv("the model calibrated by {0} measurement{1} of this kernel "
                                     "on {2} at other workloads",
                                     records, records == 1 ? "" : "s", run.sku)
                           .str();
    d.negotiations.back().second.messages.push_back({"driver", "driver", "", d.calibratedWith});
  }
  // refine=: part of the budget waits for the first measurements (at least
  // one candidate is the model's).
  // search=exhaustive: every admissible point, whatever the budget (the
  // negotiation benchmark's reference).
  s.total = search == "exhaustive" ? std::max<int64_t>(s.ranked.size(), 1) : std::max(budget, 1);
  s.reserved = s.ref && refine > 0 ? std::min<int64_t>(refine, s.total - 1) : 0;
  s.count = std::min<int64_t>(s.total - s.reserved, int64_t(s.ranked.size()));
  // The agents' agreed point in the first round (Arbiter.h), in its last
  // slot: the model's best come first.
  if (search == "negotiated")
    placeAgreed(s.ranked, d.negotiations, size_t(std::max<int64_t>(s.count - 1, 0)));
  s.compileStart = std::chrono::steady_clock::now();
  for (; s.next < s.ranked.size() && int64_t(d.evaluated.size()) < s.count; ++s.next) {
    if (!d.evaluated.empty() && searchTimeIsUp(s)) {
      s.outOfTime = true;
      break;
    }
    compileOne(d, shape, run, s, s.ranked[s.next], /*round=*/1);
  }
  if (s.outOfTime)
    d.compiledWith += "; search-seconds=" + std::to_string(searchSeconds) + " ran out after " +
                      std::to_string(d.evaluated.size()) + " of the budget's " +
                      std::to_string(s.count) + " candidates";
  if (s.fromMemory)
    d.compiledWith += "; " + std::to_string(s.fromMemory) + " of " +
                      std::to_string(d.evaluated.size()) +
                      " candidates' ptxas results from the tuning database";

  if (s.skippedSame || s.skippedCap)
    d.negotiations.back().second.messages.push_back(
        {"driver", "driver", "",
         std::to_string(s.skippedSame) + " points the model rates like a compiled one and " +
             std::to_string(s.skippedCap) +
             " over the lowered register budget were not compiled"});

  d.compileSeconds = secondsSince(s.compileStart);
}

bool KernelSearch::compileOne(KernelDecision &d, const KernelShape &shape, RunContext &run,
                              SearchState &s, const Candidate &point, int round) {
  Candidate c = point;
  c.round = round;
  // search=exhaustive compiles the points the model cannot tell apart too,
  // and those over a register budget a spill lowered: ptxas and the GPU
  // judge every one.
  bool everyPoint = search == "exhaustive";
  if (!everyPoint && llvm::any_of(s.seen, [&](const Candidate *e) {
        return e->cost.seconds == c.cost.seconds && e->calibration == c.calibration &&
               e->registers == c.registers && e->sharedBytes == c.sharedBytes &&
               e->threads == c.threads;
      })) {
    ++s.skippedSame;
    return false;
  }
  if (!everyPoint && c.registers > s.registerCap) {
    ++s.skippedCap;
    return false;
  }
  s.seen.push_back(&point);
  int64_t estimate = c.registers;
  if (run.ptxas) {
    // ptxas's verdict: from the tuning database when an earlier run
    // compiled this point, else from compiling it now.
    Compiled result = compileForBench(c, d.kernel, run, *s.memory, s.ref.has_value(),
                                      /*trustScreened=*/screen);
    s.fromMemory += result.fromMemory;
    if (!c.isCompiled()) {
      noteSpill(d, run, s, c, estimate);
      d.evaluated.push_back(std::move(c));
      return true;
    }
    if (result.files)
      s.compiledFiles[d.evaluated.size()] = std::move(*result.files);
  } else if (!appliesToCopy(getOperation(), d.kernel, c)) {
    c.reject("the transform did not apply");
    d.evaluated.push_back(std::move(c));
    return true;
  }
  c.cost = predictCandidate(c, shape, run.caps);
  c.status = CandidateStatus::Compiled;
  d.evaluated.push_back(std::move(c));
  return true;
}

void KernelSearch::noteSpill(KernelDecision &d, RunContext &run, SearchState &s,
                             const Candidate &c, int64_t estimate) {
  // Only a spill at the registers the block may have says the estimate is
  // low; below them ptxas chose to spill (8 bytes at 40 of 255 registers
  // for a row reduction, ptxas 13) and says nothing of the other points:
  // the budget stays.
  if (c.spillBytes <= 0)
    return;
  bool exhausted = spilledAtRegisterLimit(c.registers, c.threads, run.caps, run.budgets);
  if (!exhausted)
    d.negotiations.back().second.messages.push_back(
        {"resource", "driver", "registers",
         "ptxas spilled " + describeKnobs(c) + " at " + std::to_string(c.registers) +
             " registers, below the " +
             std::to_string(registersAllowed(c.threads, run.caps, run.budgets)) +
             " its block allows: ptxas's own choice, the register budget stays"});
  if (exhausted && estimate <= s.registerCap) {
    s.registerCap = estimate - 1;
    d.negotiations.back().second.messages.push_back(
        {"resource", "driver", "registers",
         "ptxas spilled " + describeKnobs(c) + " (estimated " + std::to_string(estimate) +
             " registers): the register budget for the remaining candidates is " +
             std::to_string(s.registerCap) + " by the estimate"});
  }
}

void KernelSearch::measureRounds(KernelDecision &d, const KernelShape &shape, RunContext &run,
                                 SearchState &s) {
  auto measureStart = std::chrono::steady_clock::now();
  measureCandidates(d, *s.ref, run, *s.memory, s.compiledFiles);
  // Candidates the database remembers as screened out lost to others of
  // that run, which may not be here (another budget= or max-registers=):
  // with no candidate verified now, they are measured after all.
  if (fastestVerified(d.evaluated) < 0) {
    std::map<size_t, BenchFiles> again;
    for (auto [i, c] : llvm::enumerate(d.evaluated)) {
      if (!c.measuredFromMemory || c.status != CandidateStatus::ScreenedOut)
        continue;
      c.measuredFromMemory = false;
      c.measuredMs = -1;
      Compiled result = compileForBench(c, d.kernel, run, *s.memory, /*measuring=*/true,
                                        /*trustScreened=*/false);
      if (result.files)
        again[i] = std::move(*result.files);
    }
    if (!again.empty())
      measureCandidates(d, *s.ref, run, *s.memory, again);
  }
  d.measureSeconds = secondsSince(measureStart);
  // Not measured (no GPU after all, the original failed): the decision is
  // static, and the part of the budget refine= kept for measured rounds
  // goes to the model's next candidates, as without refine=.
  if (d.measuredBeforeMs <= 0 && s.reserved > 0) {
    auto refillStart = std::chrono::steady_clock::now();
    for (; s.next < s.ranked.size() && int64_t(d.evaluated.size()) < s.total &&
           !searchTimeIsUp(s);
         ++s.next)
      compileOne(d, shape, run, s, s.ranked[s.next], /*round=*/1);
    d.compileSeconds += secondsSince(refillStart);
  }
  // Step 5's re-profile: round 1's fastest against the roofline floor
  // (the target decides whether refinement goes on).
  if (d.measuredBeforeMs > 0)
    if (int best = fastestVerified(d.evaluated); best >= 0)
      reprofile(d, best, /*round=*/1, /*measured=*/true);
  // (search-seconds=: no round once the first ones ran out of time.)
  if (s.reserved > 0 && d.measuredBeforeMs > 0 && !s.outOfTime)
    refineAroundFastest(
        d, s.ranked, s.total,
        [&](const Candidate &point, int round) {
          return compileOne(d, shape, run, s, point, round);
        },
        s.compiledFiles,
        [&](auto &files) { return measureCandidates(d, *s.ref, run, *s.memory, files); },
        [&] { return searchTimeIsUp(s); });
  // The original as round 0, at its last measured time (what a repeat
  // run finds in the tuning database).
  if (d.measuredBeforeMs > 0)
    reprofile(d, /*round=*/0, "the lifted original", d.measuredBeforeMs, /*measured=*/true);
}

void KernelSearch::refineAroundFastest(
    KernelDecision &d, const std::vector<Candidate> &ranked, int64_t total,
    llvm::function_ref<bool(const Candidate &, int)> compileOne,
    std::map<size_t, BenchFiles> &compiledFiles,
    llvm::function_ref<bool(std::map<size_t, BenchFiles> &)> measure,
    llvm::function_ref<bool()> outOfTime) {
  std::string firstMeasured = d.measuredWith;
  std::vector<std::string> notes;
  int center = fastestVerified(d.evaluated);
  std::string stop;
  while (true) {
    if (center < 0) {
      stop = "no candidate was verified";
      break;
    }
    if (std::optional<std::string> reached =
            d.rounds.empty() ? std::nullopt : targetReached(d.rounds.back(), target)) {
      stop = *reached;
      break;
    }
    if (int64_t(d.evaluated.size()) >= total) {
      stop = "the budget is spent";
      break;
    }
    if (outOfTime()) {
      stop = "search-seconds ran out";
      break;
    }
    const Candidate &c = d.evaluated[center];
    auto negotiation = llvm::find_if(d.negotiations, [&](const auto &n) {
      return n.first == c.family->name;
    });
    if (negotiation == d.negotiations.end()) {
      stop = "no knob space for " + c.family->name.str();
      break;
    }
    std::vector<const Candidate *> next =
        knobNeighbours(c, ranked, negotiation->second.space, d.evaluated);
    std::string around = describeKnobs(c);
    double centerMs = c.measuredMs;
    int round = d.round + 1;
    auto compileStart = std::chrono::steady_clock::now();
    std::map<size_t, BenchFiles> files;
    size_t before = d.evaluated.size();
    for (const Candidate *n : next) {
      if (int64_t(d.evaluated.size()) >= total)
        break;
      size_t index = d.evaluated.size();
      if (!compileOne(*n, round))
        continue;
      if (auto it = compiledFiles.find(index); it != compiledFiles.end())
        files[index] = it->second;
    }
    d.compileSeconds += secondsSince(compileStart);
    if (d.evaluated.size() == before) {
      stop = next.empty() ? "no knob neighbour of " + around + " is left"
                          : "its knob neighbours rate like compiled ones or exceed the "
                            "register budget";
      break;
    }
    d.round = round;
    auto measureStart = std::chrono::steady_clock::now();
    double originalMs = d.measuredBeforeMs;
    bool measured = files.empty() || measure(files);
    d.measureSeconds += secondsSince(measureStart);
    // (A run that failed before timing leaves the original's time.)
    if (!measured || d.measuredBeforeMs <= 0) {
      // The earlier rounds' measurements stand; this one's candidates have
      // no time, so none of them is chosen.
      stop = "round " + std::to_string(round) + " was not measured (" + d.measuredWith + ")";
      d.measuredBeforeMs = originalMs;
      break;
    }
    int best = fastestVerified(d.evaluated);
    reprofile(d, best, round, /*measured=*/true);
    notes.push_back(llvm::formatv("round {0}: {1} neighbour{2} of {3} ({4:f4} ms)", round,
                                  d.evaluated.size() - before,
                                  d.evaluated.size() - before == 1 ? "" : "s", around, centerMs)
                        .str());
    if (best == center || d.evaluated[best].measuredMs >= centerMs * (1 - kMeasurementNoise)) {
      stop = "round " + std::to_string(round) + " found nothing faster beyond the noise";
      break;
    }
    notes.back() += llvm::formatv(", the fastest now {0} ({1:f4} ms)",
                                  describeKnobs(d.evaluated[best]), d.evaluated[best].measuredMs)
                        .str();
    center = best;
  }
  std::string text = "refine: " + llvm::join(notes, "; ") + (notes.empty() ? "" : "; ") +
                     "stopped: " + stop;
  d.negotiations.back().second.messages.push_back({"driver", "driver", "", text});
  d.measuredWith = firstMeasured + "; " + text;
}
