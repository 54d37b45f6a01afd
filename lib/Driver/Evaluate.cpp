//===- Evaluate.cpp - The driver's evaluator: compile, verify, measure ===//
//
// Step 4 of the driver: candidates applied to copies of the module,
// lowered and assembled by ptxas, and with measure=cuda verified and timed
// by ks-bench against the lifted original; the tuning database remembers.
//
//===----------------------------------------------------------------------===//

#include "KernelSearch.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace mlir;
using namespace mlir::ks;
using namespace mlir::ks::driver;

std::optional<std::string> KernelSearch::measurePick(gpu::GPUFuncOp kernel, KernelDecision &d,
                                                    Candidate pick, RunContext &run) {
  std::optional<Reference> ref = referenceFor(d, run);
  if (!ref)
    return std::nullopt; // not measured (d.measuredWith says why): decided statically
  CandidateMemory memory = memoryFor(kernel, &*ref, run);
  auto compileStart = std::chrono::steady_clock::now();
  size_t at = d.evaluated.size();
  std::map<size_t, BenchFiles> compiled;
  Compiled result = compileForBench(pick, d.kernel, run, memory, /*measuring=*/true,
                                    /*trustScreened=*/false);
  if (result.files)
    compiled[at] = std::move(*result.files);
  d.evaluated.push_back(std::move(pick));
  d.compileSeconds = secondsSince(compileStart);
  const Candidate &c = d.evaluated[at];
  std::string what = "its schedule " + c.family->name.str() + " " + describeKnobs(c);
  // Measured when it compiled; a verification failure the database
  // remembers stands even when the original's timing failed.
  if (c.isCompiled() || c.measuredFromMemory) {
    auto measureStart = std::chrono::steady_clock::now();
    measureCandidates(d, *ref, run, memory, compiled);
    d.measureSeconds = secondsSince(measureStart);
  } else {
    d.measuredWith =
        "nothing run: " + what + " was " + c.statusText() + " before ks-bench ran it";
  }
  if (!c.isCompiled())
    return what + " was " + c.statusText();
  if (d.measuredBeforeMs <= 0)
    return std::nullopt; // not measured (d.measuredWith says why): decided statically
  if (c.measuredMs <= 0)
    return what + " was not timed";
  return notFasterThanOriginal(what, c.measuredMs, d.measuredBeforeMs);
}

std::optional<KernelSearch::Reference> KernelSearch::referenceFor(KernelDecision &d,
                                                                RunContext &run) {
  if (!run.measuring)
    return std::nullopt;
  std::string why;
  std::optional<Reference> ref = prepareReference(d.kernel, run, why);
  if (!ref)
    d.measuredWith = "not measured: " + why;
  return ref;
}

CandidateMemory KernelSearch::memoryFor(gpu::GPUFuncOp kernel, const Reference *ref,
                                       const RunContext &run) {
  CandidateMemory memory(db, fingerprintOf(kernel), run.sku, run.chip, optLevel,
                         ref ? ref->workloadKey : std::string("{}"),
                         toolchainIdentity(run.ptxas ? *run.ptxas : ""), objective);
  if (!memory.error.empty())
    kernel.emitWarning() << "ks-agent-driver: tuning database not used: " << memory.error;
  return memory;
}

KernelSearch::Compiled KernelSearch::compileForBench(Candidate &c, const std::string &kernel,
                                                   const RunContext &run,
                                                   CandidateMemory &memory, bool measuring,
                                                   bool trustScreened) {
  Compiled result;
  std::string attributes = c.family->opAttributes(&getContext(), c.knobs);
  const CandidateMemory::Measurement *measured =
      measuring ? memory.lookupMeasurement(attributes) : nullptr;
  if (measured && isScreenedOut(measured->status) && !trustScreened)
    measured = nullptr;
  const CandidateMemory::Verdict *known = memory.lookup(attributes);
  // Compiled again only for PTX to measure: a point ptxas rejected stays rejected.
  bool needFiles = measuring && !measured && (!known || known->status == "compiled");
  CandidateMemory::Verdict verdict;
  if (known && !needFiles) {
    verdict = *known;
    result.fromMemory = true;
  } else {
    std::string error, ptx, manifest;
    auto report = lowerAndAssemble(
        getOperation(), *run.ptxas, run.chip, optLevel, error,
        [&](ModuleOp copy) {
          emptyOtherRaisedKernels(copy, kernel);
          if (failed(applyCandidate(copy, kernel, c)))
            return failure();
          if (needFiles) {
            FailureOr<std::string> launches = manifestOf(copy, kernel);
            if (failed(launches))
              return failure();
            manifest = *launches;
          }
          return success();
        },
        needFiles ? &ptx : nullptr);
    if (failed(report)) {
      // Not remembered: a failure may come from the rest of the module.
      c.reject(error);
      return result;
    }
    verdict.registers = c.registers;
    for (auto &[name, info] : *report) {
      if (name != kernel && name != kernel + "_split_init")
        continue;
      verdict.spillBytes += info.spillStoreBytes + info.spillLoadBytes;
      if (name == kernel)
        verdict.registers = info.registers;
    }
    verdict.status = verdict.spillBytes > 0
                         ? "rejected: ptxas spills " + std::to_string(verdict.spillBytes) + " bytes"
                         : "compiled";
    memory.remember(attributes, verdict);
    if (needFiles)
      result.files = BenchFiles{std::move(ptx), std::move(manifest)};
  }
  if (measured) {
    c.measuredMs = measured->medianMs;
    c.measuredEnergyJ = measured->energyJ;
    c.verification = measured->verification;
    c.measuredFromMemory = true;
    if (measured->status != "pass" && verdict.status == "compiled")
      verdict.status = measured->status;
  }
  c.registers = verdict.registers;
  c.registersFromPtxas = true;
  c.spillBytes = verdict.spillBytes;
  c.setStatusText(verdict.status);
  if (c.isCompiled() && c.registers > run.budgets.maxRegisters)
    c.reject("ptxas allocates " + std::to_string(c.registers) + " registers > max-registers " +
             std::to_string(run.budgets.maxRegisters));
  return result;
}

bool KernelSearch::writeFile(StringRef path, StringRef text) {
  std::error_code ec;
  llvm::ToolOutputFile file(path, ec, llvm::sys::fs::OF_Text);
  if (ec) {
    emitError(getOperation().getLoc()) << "ks-agent-driver: cannot write '" << path
                                       << "': " << ec.message();
    return false;
  }
  file.os() << text;
  file.keep();
  return true;
}

std::optional<KernelSearch::Reference>
KernelSearch::prepareReference(StringRef kernelName, RunContext &run, std::string &why) {
  ModuleOp module = getOperation();
  auto [launch, launcher] = findLaunch(module, kernelName);
  auto [before, beforeLauncher] = findLaunch(run.original, kernelName);
  if (!launch || !launcher || !before || !beforeLauncher) {
    why = "no launcher launches @" + kernelName.str() +
          (launch ? " in the original" : "") + " (ks-bench needs one)";
    return std::nullopt;
  }
  // The buffers' extents: the raised kernel's views say what it touches.
  llvm::StringMap<std::string> extents = inferBufferExtents(launch, launcher);
  std::string diagnostics;
  FailureOr<std::string> spec;
  {
    ScopedDiagnosticHandler capture(&getContext(), [&](Diagnostic &diag) {
      diagnostics += (diagnostics.empty() ? "" : "; ") + diag.str();
      return success();
    });
    spec = buildLaunchSpec(before, beforeLauncher, /*requireExtents=*/true, &extents);
  }
  if (failed(spec)) {
    why = diagnostics;
    return std::nullopt;
  }
  // The workload: the launcher's #ks.workload, overridden by workload=;
  // every scalar parameter needs a value.
  Reference ref;
  llvm::Expected<llvm::json::Value> doc = llvm::json::parse(*spec);
  if (!doc) {
    why = "internal: the launch spec is not JSON: " + llvm::toString(doc.takeError());
    return std::nullopt;
  }
  const llvm::json::Object *root = doc->getAsObject();
  if (const llvm::json::Object *scalars = root->getObject("scalars"))
    for (const auto &[name, value] : *scalars)
      if (std::optional<int64_t> v = value.getAsInteger())
        ref.values[name.str()] = *v;
  for (auto &entry : run.workloadValues)
    ref.values[entry.getKey().str()] = entry.getValue();
  // A scalar without a value gets the profiler's assumption (the sizes the
  // agents decided with), and the transcript says so.
  if (const llvm::json::Array *params = root->getArray("params"))
    for (const llvm::json::Value &p : *params) {
      const llvm::json::Object *o = p.getAsObject();
      std::string name = o ? o->getString("name").value_or("").str() : "";
      if (!o || o->get("extent") || o->get("value") || ref.values.count(name))
        continue;
      bool isFloat = o->getString("type").value_or("").starts_with("f");
      ref.values[name] = isFloat ? 1 : kAssumedScalar;
      ref.assumed += (ref.assumed.empty() ? "" : ", ") + name + " = " +
                     std::to_string(ref.values[name]);
    }
  if (run.originalPTX.empty()) {
    std::string ptx, error;
    if (failed(lowerAndAssemble(run.original, *run.ptxas, run.chip, optLevel, error, nullptr,
                                &ptx))) {
      why = "the original does not lower: " + error;
      return std::nullopt;
    }
    run.originalPTX = run.workDir + "/original.ptx";
    if (!writeFile(run.originalPTX, ptx)) {
      run.originalPTX.clear();
      why = "cannot write " + run.workDir + "/original.ptx";
      return std::nullopt;
    }
  }
  ref.specPath = run.workDir + "/" + kernelName.str() + ".spec.json";
  if (!writeFile(ref.specPath, *spec)) {
    why = "cannot write " + ref.specPath;
    return std::nullopt;
  }
  ref.workload = workloadText(ref.values);
  ref.oddWorkload = oddWorkload(ref.values);
  llvm::json::Object key;
  for (auto &[name, v] : ref.values)
    key[name] = v;
  ref.workloadKey = llvm::formatv("{0}", llvm::json::Value(std::move(key))).str();
  return ref;
}

namespace mlir::ks::driver {

/// The ks-bench runs of one measureCandidates call: the job (variants,
/// spec, tolerances) and what each run found.
struct BenchSession {
  KernelDecision &d;
  const KernelSearch::Reference &ref;
  CandidateMemory &memory;
  std::string prefix;
  BenchJob job;
  MLIRContext *context = nullptr; ///< for the tuning database's keys
  std::string energyError;        ///< why the original has no energy reading

  /// One ks-bench run named `what`; nothing when it failed or the original
  /// did not pass (d.measuredWith says why).
  std::optional<std::map<std::string, BenchOutcome>> run(StringRef what, StringRef workload,
                                                         int reps, int warmup) {
    job.workload = workload.str();
    job.reps = reps;
    job.warmup = warmup;
    job.jsonPath = prefix + "." + what.str() + ".results.json";
    job.logPath = prefix + "." + what.str() + ".log";
    llvm::Expected<std::map<std::string, BenchOutcome>> outcomes = runBench(job);
    if (!outcomes) {
      d.measuredWith = "not measured: " + llvm::toString(outcomes.takeError());
      return std::nullopt;
    }
    // (A screening run times the candidates alone: the original is only
    // its --reference.)
    if (job.reference)
      return *outcomes;
    auto it = outcomes->find("original");
    if (it == outcomes->end() || it->second.status != "pass") {
      d.measuredWith = "not measured: the original failed at " + workload.str() + ": " +
                       (it == outcomes->end() ? "no result" : it->second.reason);
      return std::nullopt;
    }
    return *outcomes;
  }
  void reject(size_t index, const std::string &why) {
    Candidate &c = d.evaluated[index];
    c.reject(why);
    memory.remember(c.family->opAttributes(context, c.knobs),
                    CandidateMemory::Measurement{-1, c.statusText(), c.verification});
  }
};

} // namespace mlir::ks::driver

namespace {

/// Screening: at the workload a verified run is mostly copies and host
/// comparisons of whole buffers (2-3 s per candidate for 537 MB, against
/// milliseconds of timing: bench/results/2026-12-04-h200-search-phases).
/// So every candidate is timed there once without them (--time-only: the
/// same timing, no reference, no checks), and only the fastest are verified
/// and timed again for the decision. Each was verified at the odd workload.
/// `order` becomes the screened, fastest first; false when the run failed.
bool screenCandidates(BenchSession &b, std::vector<size_t> &order,
                      std::map<size_t, BenchVariant> &variantOf,
                      const BenchVariant &originalVariant, int reps,
                      std::map<size_t, double> &screenMs) {
  b.job.variants.clear();
  for (size_t index : order)
    b.job.variants.push_back(variantOf[index]);
  b.job.timeOnly = true;
  b.job.reference = originalVariant;
  std::optional<std::map<std::string, BenchOutcome>> screened =
      b.run("screen", b.ref.workload, reps, 2);
  b.job.timeOnly = false;
  b.job.reference.reset();
  if (!screened)
    return false;
  std::vector<size_t> timedOrder;
  for (size_t index : order) {
    auto it = screened->find("c" + std::to_string(index));
    if (it == screened->end() || it->second.status != "timed" || it->second.medianMs <= 0) {
      b.reject(index, "fails at " + b.ref.workload + " (screening, unverified): " +
                          (it == screened->end() ? "no result" : it->second.reason));
      continue;
    }
    screenMs[index] = it->second.medianMs;
    timedOrder.push_back(index);
  }
  llvm::stable_sort(timedOrder, [&](size_t a, size_t c) { return screenMs[a] < screenMs[c]; });
  order = std::move(timedOrder);
  return true;
}

/// What measured the candidates, for the transcript.
std::string describeMeasurement(const BenchSession &b, StringRef bench, size_t measuredNow,
                                const std::map<size_t, double> &screenMs, size_t finalists,
                                int reps, size_t rounds, Precision precision) {
  const KernelSearch::Reference &ref = b.ref;
  std::string text =
      screenMs.empty()
          ? llvm::formatv("ks-bench ({0}): {1} candidates measured now, median of {2} at {3}, "
                          "verified against the lifted original at {4} and {3}",
                          bench, measuredNow, reps, ref.workload, ref.oddWorkload)
                .str()
          : llvm::formatv("ks-bench ({0}): {1} candidates measured now, verified against the "
                          "lifted original at {4}; {2} screened at {3} without verification "
                          "there (ks-bench --time-only); the {5} fastest sent to be verified at "
                          "{3} and timed there (median of {6}) in {7} run{8}",
                          bench, measuredNow, screenMs.size(), ref.workload, ref.oddWorkload,
                          finalists, reps, rounds, rounds == 1 ? "" : "s")
                .str();
  if (!ref.assumed.empty())
    text += " (no workload gave " + ref.assumed + ": assumed, as the profiler does)";
  if (b.job.streams > 1)
    text += llvm::formatv("; objective=throughput: timed in waves of {0} concurrent launches, "
                          "each on its own stream and buffers (ms per launch)",
                          b.job.streams)
                .str();
  if (b.job.energySeconds > 0)
    text += b.energyError.empty()
                ? llvm::formatv("; objective=energy: the finalists' energy per launch read "
                                "from NVML over {0} s of back-to-back launches each",
                                b.job.energySeconds)
                      .str()
                : "; objective=energy: no energy reading (" + b.energyError + ")";
  if (b.job.tf32Tolerance)
    text += "; verified at the TF32 tolerance (precision=" +
            std::string(precision == Precision::TF32 ? "tf32" : "fast") +
            "; no schedule uses TF32 or fast math yet)";
  return text;
}

} // namespace

bool KernelSearch::measureCandidates(KernelDecision &d, const Reference &ref, RunContext &run,
                                     CandidateMemory &memory,
                                     std::map<size_t, BenchFiles> &compiled) {
  BenchSession b{d, ref, memory, run.workDir + "/" + d.kernel, {}, &getContext()};
  b.job.bench = run.bench;
  b.job.kernel = d.kernel;
  b.job.specPath = ref.specPath;
  b.job.timeoutSeconds = std::max(1, int(timeout));
  // No schedule uses TF32 or fast math yet; a looser precision only loosens
  // the check (for the schedules that will).
  b.job.tf32Tolerance = precision != Precision::Strict;
  b.job.variants.push_back({"original", run.originalPTX, ""});
  std::vector<size_t> pending;
  for (auto &[index, files] : compiled) {
    std::string name = "c" + std::to_string(index);
    BenchVariant v{name, b.prefix + "." + name + ".ptx", b.prefix + "." + name + ".launch.json"};
    if (!writeFile(v.ptxPath, files.ptx) || !writeFile(v.manifestPath, files.manifest)) {
      d.measuredWith = "not measured: cannot write " + v.ptxPath + " or its manifest";
      return false;
    }
    b.job.variants.push_back(v);
    pending.push_back(index);
  }
  const CandidateMemory::Measurement *original = memory.lookupMeasurement("original");
  if (pending.empty() && original) {
    d.measuredBeforeMs = original->medianMs;
    d.measuredBeforeEnergyJ = original->energyJ;
    d.measuredWith = "every measurement from the tuning database (" + ref.workload + ")";
    return true;
  }
  // Verification at odd sizes first (one timed run each), then timing at
  // the workload (which verifies again) for those that passed.
  std::optional<std::map<std::string, BenchOutcome>> odd =
      b.run("odd", ref.oddWorkload, /*reps=*/1, /*warmup=*/0);
  if (!odd)
    return false;
  // objective=throughput: what is timed from here on (the screen and the
  // decision) is the time per launch in waves of concurrent launches.
  if (objective == Objective::Throughput)
    b.job.streams = kThroughputStreams;
  const BenchVariant originalVariant = b.job.variants.front();
  std::vector<size_t> order; // the candidates verified at the odd workload
  std::map<size_t, BenchVariant> variantOf;
  for (auto [index, variant] : llvm::zip(pending, ArrayRef(b.job.variants).drop_front())) {
    auto it = odd->find(variant.name);
    if (it == odd->end() || it->second.status != "pass") {
      b.reject(index, "fails verification at " + ref.oddWorkload + ": " +
                          (it == odd->end() ? "no result" : it->second.reason));
      continue;
    }
    d.evaluated[index].verification = "verified at " + ref.oddWorkload;
    order.push_back(index);
    variantOf[index] = variant;
  }
  std::map<size_t, double> screenMs;
  if (screen && order.size() > kMinFinalists &&
      !screenCandidates(b, order, variantOf, originalVariant, std::max(1, int(reps)), screenMs))
    return false;
  // objective=energy: the finalists' run also reads each one's energy per
  // launch (the screen ranks by time: energy readings take half a second).
  if (objective == Objective::Energy)
    b.job.energySeconds = kEnergySeconds;
  size_t from = 0, rounds = 0;
  if (!timeFinalists(b, order, variantOf, originalVariant, screenMs, from, rounds))
    return false;
  memory.remember("original",
                  CandidateMemory::Measurement{d.measuredBeforeMs, "pass", "the reference",
                                               d.predictedBefore > 0 ? d.predictedBefore * 1e3
                                                                     : -1,
                                               d.measuredBeforeEnergyJ});
  // Screened out: never verified at the workload, so never chosen (and
  // remembered so, for a repeat run to decide the same).
  double fastestScreened = screenMs.empty() ? 0 : screenMs.at(order.front());
  for (size_t i = from; i < order.size(); ++i) {
    Candidate &c = d.evaluated[order[i]];
    c.status = CandidateStatus::ScreenedOut;
    c.why = llvm::formatv("{0:f4} ms at {1} unverified there, {2:f2}x the fastest screened "
                          "({3:f4} ms)",
                          screenMs[order[i]], ref.workload, screenMs[order[i]] / fastestScreened,
                          fastestScreened)
                .str();
    // Remembered without a time: the status holds the unverified one.
    memory.remember(c.family->opAttributes(&getContext(), c.knobs),
                    CandidateMemory::Measurement{-1, c.statusText(), c.verification});
  }
  d.measuredWith = describeMeasurement(b, run.bench, pending.size(), screenMs, from, int(reps),
                                       rounds, precision);
  return true;
}

/// Verified and timed at the workload, with the original in the same run:
/// the finalists (screened within kScreenMargin of the fastest, at least
/// kMinFinalists, at most kMaxFinalists; without screening, every
/// candidate); the next ones only when none of those verifies there. With
/// none left, the original alone (its time decides that it comes back).
bool KernelSearch::timeFinalists(BenchSession &b, const std::vector<size_t> &order,
                                 std::map<size_t, BenchVariant> &variantOf,
                                 const BenchVariant &originalVariant,
                                 std::map<size_t, double> &screenMs, size_t &from,
                                 size_t &rounds) {
  KernelDecision &d = b.d;
  const Reference &ref = b.ref;
  bool anyPassed = false;
  while (!anyPassed && (rounds == 0 || from < order.size())) {
    size_t end = order.size();
    if (!screenMs.empty()) {
      end = from + 1;
      while (end < order.size() &&
             (end - from < kMinFinalists ||
              (end - from < kMaxFinalists &&
               screenMs[order[end]] <= screenMs[order[from]] * (1 + kScreenMargin))))
        ++end;
    }
    b.job.variants = {originalVariant};
    for (size_t i = from; i < end; ++i)
      b.job.variants.push_back(variantOf[order[i]]);
    std::optional<std::map<std::string, BenchOutcome>> timed =
        b.run(rounds == 0 ? "timed" : "timed" + std::to_string(rounds + 1), ref.workload,
              std::max(1, int(reps)), 2);
    if (!timed) {
      // Nothing of this run is known: decided statically (measuredWith
      // says why), as when the first timed run fails.
      d.measuredBeforeMs = -1;
      return false;
    }
    ++rounds;
    ++timedRuns;
    d.measuredBeforeMs = timed->at("original").medianMs;
    d.measuredBeforeEnergyJ = timed->at("original").energyJ;
    if (b.job.energySeconds > 0 && d.measuredBeforeEnergyJ <= 0)
      b.energyError = timed->at("original").energyError;
    for (size_t i = from; i < end; ++i) {
      size_t index = order[i];
      Candidate &c = d.evaluated[index];
      auto it = timed->find("c" + std::to_string(index));
      if (it == timed->end() || it->second.status != "pass") {
        b.reject(index, "fails at " + ref.workload + ": " +
                            (it == timed->end() ? "no result" : it->second.reason));
        continue;
      }
      anyPassed = true;
      c.measuredMs = it->second.medianMs;
      c.measuredEnergyJ = it->second.energyJ;
      c.timedRun = timedRuns;
      c.verification += " and " + ref.workload;
      b.memory.remember(c.family->opAttributes(b.context, c.knobs),
                        CandidateMemory::Measurement{c.measuredMs, "pass", c.verification,
                                                     c.cost.seconds * 1e3, c.measuredEnergyJ});
    }
    from = end;
  }
  return true;
}
