//===- AgentDriver.cpp - Negotiate, rank, compile, apply ------------------===//
//
// The agent driver (docs/Agents.md): Negotiation.cpp composes and ranks the
// agents' proposals; this pass compiles the best candidates on copies of
// the module, applies the winner as a transform script (the same script
// `schedule=FILE` writes, so the file reproduces the result) and records
// every step.
//
//===----------------------------------------------------------------------===//

#include "kernelskill/Agents/DeviceQuery.h"
#include "kernelskill/Analysis/KernelProfile.h"
#include "kernelskill/Analysis/LaunchContext.h"
#include "kernelskill/Dialect/KS/IR/KSAttrs.h"
#include "kernelskill/Dialect/KS/IR/SourceNames.h"
#include "kernelskill/Driver/Lookup.h"
#include "kernelskill/Driver/Emulation.h"
#include "kernelskill/Driver/Measure.h"
#include "kernelskill/Driver/Negotiation.h"
#include "kernelskill/Driver/Passes.h"
#include "kernelskill/Driver/Restore.h"
#include "kernelskill/Driver/StaticCheck.h"
#include "kernelskill/Transforms/KernelLaunch.h"
#include "kernelskill/Transforms/RowReduction.h"
#include "kernelskill/Driver/Transcript.h"
#include "kernelskill/Target/LaunchSpec.h"
#include "kernelskill/Target/Lowering.h"
#include "kernelskill/Config.h"
#include "kernelskill/Runtime/Stats.h"
#include "kernelskill/Runtime/TuningDB.h"
#include "kernelskill/Target/PTXAS.h"
#include "kernelskill/Transforms/Raising.h"

#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/Dialect/Transform/IR/TransformOps.h"
#include "mlir/Dialect/Transform/Transforms/TransformInterpreterUtils.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/xxhash.h"
#include "llvm/Support/ToolOutputFile.h"

#include <chrono>
#include <set>

namespace mlir::ks {
#define GEN_PASS_DEF_KSAGENTDRIVER
#include "kernelskill/Driver/Passes.h.inc"
} // namespace mlir::ks

using namespace mlir;
using namespace mlir::ks;

namespace {

/// The transform op that applies `c` to the kernel matched as `%handle`.
std::string opText(const Candidate &c, StringRef handle, StringRef result) {
  return (Twine("%") + result + " = " + c.family->transformOp + " %" + handle + " " +
          c.family->opAttributes(c.knobs) + " : (!transform.any_op) -> !transform.any_op")
      .str();
}

/// A transform script applying each (kernel, op) pair; with `raise`, the
/// lifted input is raised first (a standalone schedule).
std::string scriptText(ArrayRef<std::pair<std::string, const Candidate *>> steps, bool raise) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << "module attributes {transform.with_named_sequence} {\n"
     << "  transform.named_sequence @__transform_main(%root: !transform.any_op {"
     << (raise ? "transform.consumed" : "transform.readonly") << "}) {\n";
  StringRef payload = "root";
  if (raise) {
    os << "    %raised = transform.apply_registered_pass \"ks-raise\" to %root : "
          "(!transform.any_op) -> !transform.any_op\n";
    payload = "raised";
  }
  for (auto [i, step] : llvm::enumerate(steps)) {
    std::string k = "k" + std::to_string(i), r = "r" + std::to_string(i);
    os << "    %" << k << " = transform.structured.match ops{[\"gpu.func\"]} attributes "
       << "{sym_name = \"" << step.first << "\"} in %" << payload
       << " : (!transform.any_op) -> !transform.any_op\n"
       << "    " << opText(*step.second, k, r) << "\n";
  }
  os << "    transform.yield\n  }\n}\n";
  return s;
}

/// In a copy made to compile one candidate, the other raised kernels (still
/// linalg, which only a schedule lowers) become empty: only the candidate's
/// figures are read from the copy.
void emptyOtherRaisedKernels(ModuleOp copy, StringRef keep) {
  copy.walk([&](gpu::GPUFuncOp f) {
    if (!f.isKernel() || f.getName() == keep || !f->hasAttr("ks.raised"))
      return;
    Region &body = f.getBody();
    while (body.getBlocks().size() > 1)
      body.back().erase();
    Block &entry = body.front();
    while (!entry.empty())
      entry.back().erase();
    OpBuilder b = OpBuilder::atBlockEnd(&entry);
    gpu::ReturnOp::create(b, f.getLoc());
  });
}

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
    auto it = llvm::find_if(ranked, [&](const Candidate &c) {
      return c.family->name == family && c.knobs == c.family->complete(*n.arbitration.agreed);
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

/// Parses `script` in `payload`'s context and applies it to `payload`.
LogicalResult applyScript(ModuleOp payload, StringRef script) {
  OwningOpRef<ModuleOp> transforms = parseSourceString<ModuleOp>(script, payload.getContext());
  if (!transforms)
    return failure();
  transform::NamedSequenceOp entry;
  transforms->walk([&](transform::NamedSequenceOp op) {
    if (op.getSymName() == "__transform_main")
      entry = op;
  });
  if (!entry)
    return failure();
  return transform::applyTransformNamedSequence(payload, entry, *transforms,
                                                transform::TransformOptions());
}

/// Whether `script` applies to a copy of `module` (diagnostics silenced);
/// when it does not, `why` (if given) holds the first error.
bool appliesToCopy(ModuleOp module, StringRef script, std::string *why = nullptr) {
  OwningOpRef<ModuleOp> copy = cast<ModuleOp>(module->clone());
  ScopedDiagnosticHandler quiet(module.getContext(), [&](Diagnostic &diag) {
    if (why && why->empty() && diag.getSeverity() == DiagnosticSeverity::Error)
      *why = diag.str();
    return success();
  });
  return succeeded(applyScript(*copy, script));
}

/// A fingerprint of the kernel's code: its generic form without the facts
/// the profilers and agents attach (they describe the code, they are not it).
std::string fingerprintOf(gpu::GPUFuncOp kernel) {
  OwningOpRef<Operation *> copy = kernel->clone();
  dropKernelFacts(*copy);
  (*copy)->removeAttr(ProposalAttr::kKernelAttrName);
  std::string text;
  llvm::raw_string_ostream os(text);
  (*copy)->print(os, OpPrintingFlags().printGenericOpForm().elideLargeElementsAttrs());
  return llvm::formatv("{0:x16}", llvm::xxh3_64bits(text)).str();
}

/// Long-term memory of the candidates (Runtime/TuningDB.h), keyed by the
/// kernel's fingerprint, the GPU and the op's attributes: ptxas's verdict
/// (any workload) and, with measure=cuda, the measured median and
/// verification at one workload ("original" is the lifted kernel). Records
/// count only under the same toolchain identity (Target/PTXAS.h): the
/// verdict belongs to the PTX, which another build may lower differently.
/// Times per launch with concurrent launches (objective=throughput) are
/// another kind of record than a launch's own ("measured_throughput"): a
/// search for one objective never takes the other's times.
class CandidateMemory {
public:
  CandidateMemory(StringRef path, std::string fingerprint, std::string gpu, std::string chip,
                  int optLevel, std::string workload, std::string toolchain,
                  Objective objective)
      : fingerprint(std::move(fingerprint)), gpu(std::move(gpu)), chip(std::move(chip)),
        workload(std::move(workload)), toolchain(std::move(toolchain)),
        measuredKind(objective == Objective::Throughput ? "measured_throughput" : "measured"),
        optLevel(optLevel) {
#if !KS_HAVE_TUNING_DB
    return; // built without SQLite: the short-term memory only
#endif
    // Hermetic by default: a database only where db=PATH names one (the
    // same input and options give the same IR on every machine).
    if (path.empty() || path == "none")
      return;
    db = runtime::TuningDB::open(path.str(), error);
    if (!db)
      return;
    if (auto records = db->query(this->fingerprint, this->gpu, std::nullopt, error))
      for (const runtime::MeasurementRecord &r : *records) {
        llvm::Expected<llvm::json::Value> v = llvm::json::parse(r.results);
        if (!v) {
          llvm::consumeError(v.takeError());
          continue;
        }
        const llvm::json::Object *o = v->getAsObject();
        if (!o || o->getInteger("opt_level") != optLevel || r.chip != this->chip ||
            o->getString("toolchain") != StringRef(this->toolchain))
          continue;
        std::string status = o->getString("status").value_or("").str();
        if (o->getString("kind") == "ptxas")
          known[r.schedule] = {o->getInteger("registers").value_or(0),
                               o->getInteger("spill_bytes").value_or(0), status};
        else if (o->getString("kind") == measuredKind && r.workload == this->workload)
          measured[r.schedule] = {o->getNumber("median_ms").value_or(-1), status,
                                  o->getString("verification").value_or("").str()};
        else if (o->getString("kind") == "measured" && r.workload != this->workload &&
                 status == "pass") {
          // Another workload's measurement calibrates the model here (that
          // workload's own decides by its measurements, so a repeat run
          // ranks as the first did).
          double median = o->getNumber("median_ms").value_or(-1);
          double predicted = o->getNumber("predicted_ms").value_or(-1);
          if (median > 0 && predicted > 0)
            ratios[r.schedule].push_back(median / predicted);
        }
      }
  }
  struct Verdict {
    int64_t registers = 0, spillBytes = 0;
    std::string status; ///< "compiled" or "rejected: ..."
  };
  struct Measurement {
    double medianMs = -1;
    std::string status;       ///< "pass" or "rejected: ..."
    std::string verification; ///< where it was verified
    double predictedMs = -1;  ///< the model's time at that workload (calibration)
  };
  const Verdict *lookup(const std::string &schedule) const {
    auto it = known.find(schedule);
    return it == known.end() ? nullptr : &it->second;
  }
  const Measurement *lookupMeasurement(const std::string &schedule) const {
    auto it = measured.find(schedule);
    return it == measured.end() ? nullptr : &it->second;
  }
  void remember(const std::string &schedule, const Verdict &v) {
    known[schedule] = v;
    insert(schedule, "{}",
           llvm::json::Object{{"kind", "ptxas"},          {"opt_level", optLevel},
                              {"registers", v.registers}, {"spill_bytes", v.spillBytes},
                              {"status", v.status},       {"toolchain", toolchain}});
  }
  void remember(const std::string &schedule, const Measurement &m) {
    measured[schedule] = m;
    insert(schedule, workload,
           llvm::json::Object{{"kind", measuredKind},
                              {"opt_level", optLevel},
                              {"median_ms", m.medianMs},
                              {"status", m.status},
                              {"verification", m.verification},
                              {"predicted_ms", m.predictedMs},
                              {"toolchain", toolchain}});
  }
  /// Measured / predicted of `schedule` at other workloads (the median of
  /// its records), else of every point of the kernel measured there
  /// (excluding the original); nothing without records.
  std::optional<double> calibration(const std::string &schedule) const {
    auto median = [](std::vector<double> v) { return runtime::summarize(std::move(v)).median; };
    if (auto it = ratios.find(schedule); it != ratios.end())
      return median(it->second);
    std::vector<double> all;
    for (auto &[name, values] : ratios)
      if (name != "original")
        llvm::append_range(all, values);
    if (all.empty())
      return std::nullopt;
    return median(all);
  }
  /// How many measurements of candidates at other workloads calibrate the
  /// model (the original's alone do not: the candidates would stay at the
  /// model's times while the original's moved).
  size_t calibrationRecords() const {
    size_t n = 0;
    for (auto &[name, values] : ratios)
      if (name != "original")
        n += values.size();
    return n;
  }
  bool enabled() const { return db != nullptr; }
  std::string error;

private:
  void insert(const std::string &schedule, const std::string &recordWorkload,
              llvm::json::Object results) {
#if !KS_HAVE_TUNING_DB
    return;
#endif
    if (!db)
      return;
    runtime::MeasurementRecord r;
    r.fingerprint = fingerprint;
    r.gpuName = gpu;
    r.chip = chip;
    r.schedule = schedule;
    r.workload = recordWorkload;
    r.ksVersion = KS_VERSION_STRING;
    r.results = llvm::formatv("{0}", llvm::json::Value(std::move(results))).str();
    std::string ignored;
    db->insert(r, ignored);
  }
  std::unique_ptr<runtime::TuningDB> db;
  std::string fingerprint, gpu, chip, workload, toolchain;
  std::string measuredKind; ///< "measured", or "measured_throughput"
  int optLevel;
  std::map<std::string, Verdict> known;
  std::map<std::string, Measurement> measured;
  std::map<std::string, std::vector<double>> ratios; ///< measured / predicted, other workloads
};

double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

/// Two measured medians closer than this are the same to the driver.
constexpr double kMeasurementNoise = 0.02;
/// A simpler candidate is preferred over the fastest only this close to it
/// (and timed in the same run): half the noise, since preferring it trades
/// a likely loss for simplicity.
constexpr double kSimplerBand = 0.01;
/// Screening (screen=true): the candidates verified at the workload are
/// those screened within this fraction of the fastest (twice the noise:
/// any of them may still win or be the simpler one within the noise), and
/// at least kMinFinalists, so that one failing there leaves another, and
/// at most kMaxFinalists: schedules at the DRAM floor tie (7 of 8
/// transposes within 4% on an H100), and verifying every near-tie made the
/// screened search slower than the unscreened one (75.8 s against 63.1 s,
/// bench/results/2026-12-05-h100-session22-e71ab02).
constexpr double kScreenMargin = 2 * kMeasurementNoise;
constexpr size_t kMinFinalists = 2;
constexpr size_t kMaxFinalists = 4;
constexpr StringLiteral kScreenedOut = "screened out";
bool isScreenedOut(StringRef status) { return status.starts_with(kScreenedOut); }

/// "; measured X ms, Nx the original's Y ms, verified" for a chosen
/// candidate that was measured, else nothing.
std::string measuredSuffix(const Candidate &chosen, const KernelDecision &d) {
  if (chosen.measuredMs <= 0 || d.measuredBeforeMs <= 0)
    return "";
  return llvm::formatv("; measured {0:f4} ms, {1:f2}x the original's {2:f4} ms, verified",
                       chosen.measuredMs, d.measuredBeforeMs / chosen.measuredMs,
                       d.measuredBeforeMs)
      .str();
}

/// The index of the fastest candidate verified and measured (compiled, with
/// a time), or -1.
int fastestVerified(ArrayRef<Candidate> evaluated) {
  int best = -1;
  for (auto [i, c] : llvm::enumerate(evaluated))
    if (c.status == "compiled" && c.measuredMs > 0 &&
        (best < 0 || c.measuredMs < evaluated[best].measuredMs))
      best = int(i);
  return best;
}

/// Step 5's re-profile: `what`, the winner of `round` (0: the input), at
/// `ms` against the kernel's roofline floor; round 0 goes first in d.rounds.
void reprofile(KernelDecision &d, int round, std::string what, double ms, bool measured) {
  RoundDiagnosis r{round, std::move(what), ms, measured, d.floorMs};
  d.rounds.insert(round == 0 ? d.rounds.begin() : d.rounds.end(), std::move(r));
}

/// d.evaluated[index] as the winner of `round`: its measured time, else the
/// calibrated model's.
void reprofile(KernelDecision &d, int index, int round, bool measured) {
  const Candidate &c = d.evaluated[index];
  reprofile(d, round, c.family->name.str() + " " + describeKnobs(c),
            measured ? c.measuredMs : calibratedSeconds(c) * 1e3, measured);
}

/// Why `what`, measured at `ms`, does not replace the original measured at
/// `beforeMs`: it is not faster by more than the noise. Nothing when it is.
std::optional<std::string> notFasterThanOriginal(StringRef what, double ms, double beforeMs) {
  if (ms < beforeMs * (1 - kMeasurementNoise))
    return std::nullopt;
  return llvm::formatv("{0} ({1:f4} ms) is not faster than the original ({2:f4} ms) by more "
                       "than the noise ({3}%)",
                       what, ms, beforeMs, int(kMeasurementNoise * 100))
      .str();
}

/// The launches of `kernel` (and of its split-K init kernel) in `module`'s
/// launchers, in order, as a ks-bench manifest (a JSON array of launches).
FailureOr<std::string> manifestOf(ModuleOp module, StringRef kernel) {
  std::vector<std::string> launches;
  bool failedOne = false;
  module.walk([&](gpu::LaunchFuncOp launch) {
    StringRef name = launch.getKernelName();
    if (name != kernel && name != (kernel + "_split_init").str())
      return;
    FailureOr<std::string> spec =
        buildLaunchSpec(launch, launch->getParentOfType<func::FuncOp>(), false);
    if (failed(spec))
      failedOne = true;
    else
      launches.push_back(*spec);
  });
  if (failedOne || launches.empty())
    return failure();
  return "[" + llvm::join(launches, ",\n") + "]\n";
}

struct AgentDriver : ks::impl::KSAgentDriverBase<AgentDriver> {
  using Base::Base;
  AgentDriver(const KSAgentDriverOptions &options, std::shared_ptr<OriginalModule> original)
      : Base(options), fromPipeline(std::move(original)) {}

  void runOnOperation() override;

private:
  /// What every kernel's decision shares in one run.
  struct RunContext {
    GPUCapabilities caps;
    Budgets budgets;
    llvm::StringMap<int64_t> workloadValues;
    std::string chip, sku;
    std::optional<std::string> ptxas;
    /// measure=cuda (or auto that became cuda): the lifted original, ks-bench,
    /// where files go, and the original's PTX once lowered.
    bool measuring = false;
    ModuleOp original;
    std::string bench, workDir, originalPTX;
    /// verify=emulate: the emulator and where its files go.
    bool emulating = false;
    std::string emulator, emulateDir;
  };
  /// How many timed ks-bench runs this driver made (Candidate::timedRun).
  int timedRuns = 0;
  /// What ks-bench needs of the lifted original to measure one kernel.
  struct Reference {
    std::string specPath;                 ///< its launch, with inferred buffer extents
    std::map<std::string, int64_t> values; ///< every scalar at the workload
    std::string workload, oddWorkload;    ///< NAME=VALUE,...
    std::string workloadKey;              ///< the tuning database's key (JSON)
    std::string assumed;                  ///< scalars without a value, as assumed
  };
  /// The PTX and launch manifest ks-bench runs for one compiled candidate.
  struct BenchFiles {
    std::string ptx, manifest;
  };
  void decide(gpu::GPUFuncOp kernel, KernelDecision &d, RunContext &run);
  /// measure=cuda: the reference for d.kernel, or nothing (d.measuredWith
  /// then says why; the kernel is decided statically). Nothing otherwise.
  std::optional<Reference> referenceFor(KernelDecision &d, RunContext &run);
  /// The tuning database's records of `kernel` on this GPU and toolchain,
  /// at `ref`'s workload (any workload without one: ptxas's verdicts only).
  CandidateMemory memoryFor(gpu::GPUFuncOp kernel, const Reference *ref, const RunContext &run);
  /// ptxas's verdict on `c`, a candidate for `kernel` (needs run.ptxas): the
  /// registers and spill bytes of the kernel and its split-K init kernel,
  /// and c.status "compiled" or "rejected: ..." (the lowering failed, ptxas
  /// spilled, or more registers than max-registers). The database's verdict
  /// and, with `measuring`, its measurement are used when it has them (then
  /// `fromMemory`); else the candidate is applied to a copy of the module and
  /// compiled, and with `measuring` its PTX and manifest come back in
  /// `files` for ks-bench. A remembered "screened out" counts only with
  /// `trustScreened` (see measureCandidates): it held against that run's
  /// candidates, not against any.
  struct Compiled {
    bool fromMemory = false;
    std::optional<BenchFiles> files;
  };
  Compiled compileForBench(Candidate &c, const std::string &kernel, const RunContext &run,
                           CandidateMemory &memory, bool measuring, bool trustScreened);
  /// A kernel the raising left alone (`whyNot`) gets the SIMT-level rewrite
  /// that applies to a copy of it (today only sequential_tree); with
  /// measure=cuda only when verified and faster than the original; else
  /// it stays unchanged, and d.decision says why.
  void applySIMTLevel(gpu::GPUFuncOp kernel, KernelDecision &d, const std::string &whyNot,
                      RunContext &run);
  /// Applies d.evaluated[chosen] to the kernel and records it as chosen;
  /// warns and fails when the schedule that applied to a copy does not.
  LogicalResult applyChosen(gpu::GPUFuncOp kernel, KernelDecision &d, int chosen);
  std::optional<Reference> prepareReference(StringRef kernel, RunContext &run, std::string &why);
  /// Measures the compiled candidates of `d` whose PTX is in `compiled` (by
  /// index) against the lifted original: verification at an odd workload,
  /// then timing at the workload. Fills measured times or rejects. False
  /// when the run measured nothing (d.measuredWith says why).
  bool measureCandidates(KernelDecision &d, const Reference &ref, RunContext &run,
                         CandidateMemory &memory, std::map<size_t, BenchFiles> &compiled);
  bool writeFile(StringRef path, StringRef text);
  /// refine=: rounds after the first measurements. Each compiles (with
  /// `compileOne`, in rank order) the knob neighbours of the fastest
  /// verified candidate that are not yet compiled, while d.evaluated is
  /// under `total`, and measures them (`measure`); the rounds stop when one
  /// finds nothing faster than that candidate beyond the noise, no
  /// neighbour is left, or the budget is spent. Messages say each round's
  /// outcome and why they stopped.
  void refineAroundFastest(
      KernelDecision &d, const std::vector<Candidate> &ranked, int64_t total,
      llvm::function_ref<bool(const Candidate &, int)> compileOne,
      std::map<size_t, BenchFiles> &compiledFiles,
      llvm::function_ref<bool(std::map<size_t, BenchFiles> &)> measure,
      llvm::function_ref<bool()> outOfTime);
  /// `run` given and measuring: the schedule is measured first (measurePick)
  /// and the lifted original comes back when it is not faster.
  void scheduleAnyway(gpu::GPUFuncOp kernel, KernelDecision &d, const KernelShape &shape,
                      const std::vector<Candidate> &ranked, const GPUCapabilities &caps,
                      const std::string &reason, RunContext *run);
  /// measure=cuda: compiles `pick`, verifies and times it against the lifted
  /// original, and appends it to d.evaluated. Returns why the original should
  /// come back instead, or nothing to apply `pick` (faster, or not measurable:
  /// d.measuredWith then says why).
  std::optional<std::string> measurePick(gpu::GPUFuncOp kernel, KernelDecision &d,
                                         Candidate pick, RunContext &run);
  /// A static decision's last check before `c` replaces the kernel: with
  /// verify=emulate, the CPU emulation against the lifted original. Returns
  /// why the original should come back instead (a mismatch, or the check
  /// could not run), or nothing; d.verifiedWith says how it went.
  std::optional<std::string> checkStatically(KernelDecision &d, const Candidate &c,
                                             RunContext &run);
  /// A static decision on `pick`, which no cost model ranked (a family's
  /// defaults, a SIMT-level rewrite): the profiler's model of the rewritten
  /// kernel must predict it faster than the input by the margin, and
  /// checkStatically pass. Returns why not, or nothing to apply it.
  std::optional<std::string> staticPickRefused(KernelDecision &d, Candidate &pick,
                                               RunContext &run);
  /// Never slower than the input: gives the kernel its lifted original back
  /// when measure=cuda found nothing faster; else schedules anyway.
  void keepOriginal(gpu::GPUFuncOp kernel, KernelDecision &d, const KernelShape &shape,
                    RunContext &run, const std::string &reason);

  std::shared_ptr<OriginalModule> fromPipeline;
};

void AgentDriver::keepOriginal(gpu::GPUFuncOp kernel, KernelDecision &d, const KernelShape &shape,
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
void AgentDriver::scheduleAnyway(gpu::GPUFuncOp kernel, KernelDecision &d,
                                 const KernelShape &shape, const std::vector<Candidate> &ranked,
                                 const GPUCapabilities &caps, const std::string &reason,
                                 RunContext *run) {
  std::optional<Candidate> pick;
  int entry = -1; // pick's entry in d.evaluated, when it has one
  for (auto [i, c] : llvm::enumerate(d.evaluated))
    if (!pick && c.status == "compiled") {
      pick = c;
      entry = int(i);
    }
  if (!pick && !ranked.empty())
    pick = ranked.front();
  if (!pick) {
    // The family's defaults; a raised kernel without a contraction is its
    // iteration space: rows walked in loops get a warp each where the
    // row-reduction schedule applies, else every iteration a thread (256
    // per block). (An interim choice until the agents propose the
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
    c.knobs = family->complete({});
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
      if (!d.restoredOriginal && d.evaluated[at].status.rfind("rejected", 0) == 0)
        kernel.emitWarning() << "ks-agent-driver: the kernel's only schedule was "
                             << d.evaluated[at].status
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
  std::string script = pick ? scriptText({{d.kernel, &*pick}}, /*raise=*/false) : "";
  if (!pick || failed(applyScript(getOperation(), script))) {
    if (run)
      return keepOriginal(kernel, d, shape, *run,
                          reason + "; its schedule did not apply to the kernel itself");
    kernel.emitError() << "ks-agent-driver: " << reason
                       << "; and no schedule applies to the raised kernel, which cannot be "
                          "lowered without one (run the pipeline with optimize=false)";
    d.decision = reason + "; no schedule applies: the raised kernel cannot be lowered";
    return signalPassFailure();
  }
  if (entry < 0) {
    d.evaluated.push_back(*pick);
    entry = int(d.evaluated.size()) - 1;
  }
  Candidate &chosen = d.evaluated[entry];
  chosen.status = "chosen";
  d.chosen = entry;
  d.changed = true;
  d.scheduleOp = opText(chosen, "k", "r");
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

std::optional<std::string> AgentDriver::checkStatically(KernelDecision &d, const Candidate &c,
                                                        RunContext &run) {
  if (!run.emulating) {
    d.verifiedWith = "not verified against the input (verify=none)";
    return std::nullopt;
  }
  std::string script = scriptText({{d.kernel, &c}}, /*raise=*/false);
  CPUCheckSettings settings;
  settings.emulator = run.emulator;
  settings.workDir = run.emulateDir;
  settings.tf32 = precision != Precision::Strict;
  settings.workload = run.workloadValues;
  std::string used;
  EmulationVerdict verdict = checkOnCPU(
      getOperation(), run.original, d.kernel,
      [&](ModuleOp copy) { return applyScript(copy, script); }, settings, used);
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

std::optional<std::string> AgentDriver::staticPickRefused(KernelDecision &d, Candidate &pick,
                                                          RunContext &run) {
  std::string what = "its schedule " + pick.family->name.str() + " " + describeKnobs(pick);
  std::string script = scriptText({{d.kernel, &pick}}, /*raise=*/false);
  std::string why;
  std::optional<double> predicted = predictRewrittenSeconds(
      getOperation(), d.kernel, [&](ModuleOp copy) { return applyScript(copy, script); },
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

void AgentDriver::applySIMTLevel(gpu::GPUFuncOp kernel, KernelDecision &d,
                                 const std::string &whyNot, RunContext &run) {
  Candidate c;
  c.family = lookupScheduleFamily("sequential_tree");
  c.status = "compiled";
  std::string what = "the SIMT-level rewrite " + std::string(c.family->name);
  std::string refusal;
  if (!appliesToCopy(getOperation(), scriptText({{d.kernel, &c}}, /*raise=*/false), &refusal)) {
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

std::optional<std::string> AgentDriver::measurePick(gpu::GPUFuncOp kernel, KernelDecision &d,
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
  if (c.status == "compiled" || c.measuredFromMemory) {
    auto measureStart = std::chrono::steady_clock::now();
    measureCandidates(d, *ref, run, memory, compiled);
    d.measureSeconds = secondsSince(measureStart);
  } else {
    d.measuredWith = "nothing run: " + what + " was " + c.status + " before ks-bench ran it";
  }
  if (c.status != "compiled")
    return what + " was " + c.status;
  if (d.measuredBeforeMs <= 0)
    return std::nullopt; // not measured (d.measuredWith says why): decided statically
  if (c.measuredMs <= 0)
    return what + " was not timed";
  return notFasterThanOriginal(what, c.measuredMs, d.measuredBeforeMs);
}

std::optional<AgentDriver::Reference> AgentDriver::referenceFor(KernelDecision &d,
                                                                RunContext &run) {
  if (!run.measuring)
    return std::nullopt;
  std::string why;
  std::optional<Reference> ref = prepareReference(d.kernel, run, why);
  if (!ref)
    d.measuredWith = "not measured: " + why;
  return ref;
}

CandidateMemory AgentDriver::memoryFor(gpu::GPUFuncOp kernel, const Reference *ref,
                                       const RunContext &run) {
  CandidateMemory memory(db, fingerprintOf(kernel), run.sku, run.chip, optLevel,
                         ref ? ref->workloadKey : std::string("{}"),
                         toolchainIdentity(run.ptxas ? *run.ptxas : ""), objective);
  if (!memory.error.empty())
    kernel.emitWarning() << "ks-agent-driver: tuning database not used: " << memory.error;
  return memory;
}

AgentDriver::Compiled AgentDriver::compileForBench(Candidate &c, const std::string &kernel,
                                                   const RunContext &run,
                                                   CandidateMemory &memory, bool measuring,
                                                   bool trustScreened) {
  Compiled result;
  std::string attributes = c.family->opAttributes(c.knobs);
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
    std::string script = scriptText({{kernel, &c}}, /*raise=*/false);
    std::string error, ptx, manifest;
    auto report = lowerAndAssemble(
        getOperation(), *run.ptxas, run.chip, optLevel, error,
        [&](ModuleOp copy) {
          emptyOtherRaisedKernels(copy, kernel);
          if (failed(applyScript(copy, script)))
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
      c.status = "rejected: " + error;
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
    c.verification = measured->verification;
    c.measuredFromMemory = true;
    if (measured->status != "pass" && verdict.status == "compiled")
      verdict.status = measured->status;
  }
  c.registers = verdict.registers;
  c.registersFromPtxas = true;
  c.spillBytes = verdict.spillBytes;
  c.status = verdict.status;
  if (c.status == "compiled" && c.registers > run.budgets.maxRegisters)
    c.status = "rejected: ptxas allocates " + std::to_string(c.registers) +
               " registers > max-registers " + std::to_string(run.budgets.maxRegisters);
  return result;
}

bool AgentDriver::writeFile(StringRef path, StringRef text) {
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

/// A kernel without a contraction has no m, n, k: its integer arguments
/// with the values the workload gives them ("n=1000, unset: stride"), or
/// "no contraction" when it has none.
static std::string scalarsAtWorkload(gpu::GPUFuncOp kernel,
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

void AgentDriver::decide(gpu::GPUFuncOp kernel, KernelDecision &d, RunContext &run) {
  ModuleOp module = getOperation();
  const GPUCapabilities &caps = run.caps;
  const Budgets &budgets = run.budgets;
  const std::optional<std::string> &ptxasPath = run.ptxas;
  d.kernel = kernel.getName().str();
  if (auto t = kernel->getAttrOfType<FloatAttr>(kPredictedTimeAttrName))
    d.predictedBefore = t.getValueAsDouble();
  if (auto t = kernel->getAttrOfType<FloatAttr>(kFloorTimeAttrName))
    d.floorMs = t.getValueAsDouble() * 1e3;
  if (auto diagnosis = kernel->getAttrOfType<DiagnosisAttr>(DiagnosisAttr::kKernelAttrName))
    llvm::append_range(d.findings, diagnosis.getFindings());
  if (auto list = kernel->getAttrOfType<ArrayAttr>(ProposalAttr::kKernelAttrName))
    for (Attribute a : list)
      d.proposals.push_back(cast<ProposalAttr>(a));
  kernel->removeAttr(ProposalAttr::kKernelAttrName);

  KernelShape shape = readKernelShape(kernel, module, run.workloadValues);
  if (!kernels.empty() && !llvm::is_contained(kernels, d.kernel)) {
    std::string why = "not selected (kernels=" + llvm::join(kernels, ",") + ")";
    if (kernel->hasAttr("ks.raised"))
      return keepOriginal(kernel, d, shape, run, why);
    d.decision = "unchanged: " + why;
    return;
  }
  if (shape.cls == ProblemClass::Rows)
    d.sizes = "rows=" + std::to_string(shape.rows.rows) +
              ", row length=" + std::to_string(shape.rows.length) +
              ", passes=" + std::to_string(shape.rows.readPasses);
  else if (shape.cls == ProblemClass::Transpose)
    d.sizes = "transpose of " + std::to_string(shape.tile.rows) + " x " +
              std::to_string(shape.tile.cols);
  else if (shape.cls == ProblemClass::Stencil)
    d.sizes = "stencil over " +
              llvm::join(llvm::map_range(shape.stencil.extents,
                                         [](int64_t e) { return std::to_string(e); }),
                         " x ") +
              ", reads spread " + std::to_string(shape.stencil.halo) + " along the outermost";
  else if (shape.problem)
    d.sizes = "m=" + std::to_string(shape.sizes.m) + ", n=" + std::to_string(shape.sizes.n) +
              ", k=" + std::to_string(shape.sizes.k) +
              ", batch=" + std::to_string(shape.sizes.batch);
  else
    d.sizes = scalarsAtWorkload(kernel, run.workloadValues);
  if (!shape.sizesFrom.empty())
    d.sizes += " (" + shape.sizesFrom + ")";
  // Rows, transposes and stencils are searched like the contractions (rules,
  // negotiation, cost model, ptxas, measurements); the other raised kernels
  // without a contraction get their family's defaults (scheduleAnyway).
  if (!isSearchable(shape)) {
    if (kernel->hasAttr("ks.raised"))
      return scheduleAnyway(kernel, d, shape, {}, caps, shape.whyNot, &run);
    return applySIMTLevel(kernel, d, shape.whyNot, run);
  }
  if (d.proposals.empty())
    return scheduleAnyway(kernel, d, shape, {}, caps,
                          "no agent proposed anything (no rule fires for the kernel's class, conditions and findings)",
                          &run);

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
    Negotiation n = negotiate(shape, *family, mine, caps, budgets);
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
  diversifyByPrimaryKnobs(ranked);
  if (ranked.empty())
    return scheduleAnyway(kernel, d, shape, ranked, caps,
                          "no point of the proposals fits the verifier and the budgets", &run);

  // Step 4: compile the best `budget` on copies of the module.
  d.compiledWith = ptxasPath ? "ptxas " + *ptxasPath + " (" + run.chip + ", -O" +
                                   std::to_string(optLevel) + ")"
                             : "no ptxas found: transforms applied to copies, registers "
                               "estimated";
  // Points the model cannot tell apart (same time and claims) are compiled
  // once: the first in the agents' order of preference. A candidate that
  // spills lowers the register budget to below its estimate, so the next
  // ones the estimate puts at least as high are not compiled either.
  int64_t registerCap = budgets.maxRegisters;
  int64_t fromMemory = 0;
  // measure=cuda: the lifted original's launch, PTX and workload first (a
  // kernel whose original cannot be run is decided statically, with why).
  std::optional<Reference> ref = referenceFor(d, run);
  CandidateMemory memory = memoryFor(kernel, ref ? &*ref : nullptr, run);
  // Calibration, when the decision is static: the tuning database's
  // measurements of this kernel on this GPU (at other workloads: every
  // measured one for a static decision) scale the model's times, and the
  // points are ranked again. A measured search ranks by the model alone, so
  // that a repeat run compiles the first one's candidates (all in the
  // database: no ks-bench call); its measurements decide.
  double originalCalibration = 1;
  if (size_t records = ref ? 0 : memory.calibrationRecords()) {
    originalCalibration = memory.calibration("original").value_or(1);
    for (Candidate &c : ranked)
      c.calibration = memory.calibration(c.family->opAttributes(c.knobs)).value_or(1);
    llvm::stable_sort(ranked, [](const Candidate &a, const Candidate &b) {
      return calibratedSeconds(a) < calibratedSeconds(b);
    });
    diversifyByPrimaryKnobs(ranked);
    d.calibratedWith = llvm::formatv("the model calibrated by {0} measurement{1} of this kernel "
                                     "on {2} at other workloads",
                                     records, records == 1 ? "" : "s", run.sku)
                           .str();
    d.negotiations.back().second.messages.push_back({"driver", "driver", "", d.calibratedWith});
  }
  // refine=: part of the budget waits for the first measurements (at least
  // one candidate is the model's).
  int64_t total = std::max(budget.getValue(), 1);
  int64_t reserved = ref && refine > 0 ? std::min<int64_t>(refine, total - 1) : 0;
  int64_t count = std::min<int64_t>(total - reserved, int64_t(ranked.size()));
  // The agents' agreed point in the first round (Arbiter.h), in its last
  // slot: the model's best come first.
  placeAgreed(ranked, d.negotiations, size_t(std::max<int64_t>(count - 1, 0)));
  // measure=cuda: each compiled candidate's PTX and launch manifest, by its
  // index in d.evaluated.
  std::map<size_t, BenchFiles> compiledFiles;
  std::vector<const Candidate *> seen;
  int64_t skippedSame = 0, skippedCap = 0;
  auto compileStart = std::chrono::steady_clock::now();
  // search-seconds=: past them, the candidates compiled so far are measured
  // and decided; no further one is compiled.
  auto searchTimeIsUp = [&] {
    return searchSeconds > 0 && secondsSince(compileStart) >= double(searchSeconds);
  };
  bool outOfTime = false;
  // Compiles `point` (ptxas's verdict from the tuning database or now) into
  // d.evaluated; false when it is not compiled (rated like one compiled
  // before, or over the lowered register cap).
  auto compileOne = [&](const Candidate &point, int round) -> bool {
    Candidate c = point;
    c.round = round;
    if (llvm::any_of(seen, [&](const Candidate *s) {
          return s->cost.seconds == c.cost.seconds && s->calibration == c.calibration &&
                 s->registers == c.registers && s->sharedBytes == c.sharedBytes &&
                 s->threads == c.threads;
        })) {
      ++skippedSame;
      return false;
    }
    if (c.registers > registerCap) {
      ++skippedCap;
      return false;
    }
    seen.push_back(&point);
    int64_t estimate = c.registers;
    if (ptxasPath) {
      // ptxas's verdict: from the tuning database when an earlier run
      // compiled this point, else from compiling it now.
      Compiled result =
          compileForBench(c, d.kernel, run, memory, ref.has_value(), /*trustScreened=*/screen);
      fromMemory += result.fromMemory;
      if (c.status != "compiled") {
        // Only a spill at the registers the block may have says the
        // estimate is low; below them ptxas chose to spill (8 bytes at 40
        // of 255 registers for a row reduction, ptxas 13) and says nothing
        // of the other points: the budget stays.
        bool exhausted = spilledAtRegisterLimit(c.registers, c.threads, caps, budgets);
        if (c.spillBytes > 0 && !exhausted)
          d.negotiations.back().second.messages.push_back(
              {"resource", "driver", "registers",
               "ptxas spilled " + describeKnobs(c) + " at " + std::to_string(c.registers) +
                   " registers, below the " +
                   std::to_string(registersAllowed(c.threads, caps, budgets)) +
                   " its block allows: ptxas's own choice, the register budget stays"});
        if (c.spillBytes > 0 && exhausted && estimate <= registerCap) {
          registerCap = estimate - 1;
          d.negotiations.back().second.messages.push_back(
              {"resource", "driver", "registers",
               "ptxas spilled " + describeKnobs(c) + " (estimated " + std::to_string(estimate) +
                   " registers): the register budget for the remaining candidates is " +
                   std::to_string(registerCap) + " by the estimate"});
        }
        d.evaluated.push_back(std::move(c));
        return true;
      }
      if (result.files)
        compiledFiles[d.evaluated.size()] = std::move(*result.files);
    } else {
      if (!appliesToCopy(module, scriptText({{d.kernel, &c}}, /*raise=*/false))) {
        c.status = "rejected: the transform did not apply";
        d.evaluated.push_back(std::move(c));
        return true;
      }
    }
    c.cost = predictCandidate(c, shape, caps);
    c.status = "compiled";
    d.evaluated.push_back(std::move(c));
    return true;
  };
  size_t next = 0;
  for (; next < ranked.size() && int64_t(d.evaluated.size()) < count; ++next) {
    if (!d.evaluated.empty() && searchTimeIsUp()) {
      outOfTime = true;
      break;
    }
    compileOne(ranked[next], /*round=*/1);
  }
  if (outOfTime)
    d.compiledWith += "; search-seconds=" + std::to_string(searchSeconds) + " ran out after " +
                      std::to_string(d.evaluated.size()) + " of the budget's " +
                      std::to_string(count) + " candidates";
  if (fromMemory)
    d.compiledWith += "; " + std::to_string(fromMemory) + " of " +
                      std::to_string(d.evaluated.size()) +
                      " candidates' ptxas results from the tuning database";

  if (skippedSame || skippedCap)
    d.negotiations.back().second.messages.push_back(
        {"driver", "driver", "",
         std::to_string(skippedSame) + " points the model rates like a compiled one and " +
             std::to_string(skippedCap) +
             " over the lowered register budget were not compiled"});

  d.compileSeconds = secondsSince(compileStart);
  if (ref) {
    auto measureStart = std::chrono::steady_clock::now();
    measureCandidates(d, *ref, run, memory, compiledFiles);
    // Candidates the database remembers as screened out lost to others of
    // that run, which may not be here (another budget= or max-registers=):
    // with no candidate verified now, they are measured after all.
    if (fastestVerified(d.evaluated) < 0) {
      std::map<size_t, BenchFiles> again;
      for (auto [i, c] : llvm::enumerate(d.evaluated)) {
        if (!c.measuredFromMemory || !isScreenedOut(c.status))
          continue;
        c.measuredFromMemory = false;
        c.measuredMs = -1;
        Compiled result = compileForBench(c, d.kernel, run, memory, /*measuring=*/true,
                                          /*trustScreened=*/false);
        if (result.files)
          again[i] = std::move(*result.files);
      }
      if (!again.empty())
        measureCandidates(d, *ref, run, memory, again);
    }
    d.measureSeconds = secondsSince(measureStart);
    // Not measured (no GPU after all, the original failed): the decision is
    // static, and the part of the budget refine= kept for measured rounds
    // goes to the model's next candidates, as without refine=.
    if (d.measuredBeforeMs <= 0 && reserved > 0) {
      auto refillStart = std::chrono::steady_clock::now();
      for (; next < ranked.size() && int64_t(d.evaluated.size()) < total && !searchTimeIsUp();
           ++next)
        compileOne(ranked[next], /*round=*/1);
      d.compileSeconds += secondsSince(refillStart);
    }
    // Step 5's re-profile: round 1's fastest against the roofline floor
    // (the target decides whether refinement goes on).
    if (d.measuredBeforeMs > 0)
      if (int best = fastestVerified(d.evaluated); best >= 0)
        reprofile(d, best, /*round=*/1, /*measured=*/true);
    // (search-seconds=: no round once the first ones ran out of time.)
    if (reserved > 0 && d.measuredBeforeMs > 0 && !outOfTime)
      refineAroundFastest(
          d, ranked, total, compileOne, compiledFiles,
          [&](auto &files) { return measureCandidates(d, *ref, run, memory, files); },
          searchTimeIsUp);
    // The original as round 0, at its last measured time (what a repeat
    // run finds in the tuning database).
    if (d.measuredBeforeMs > 0)
      reprofile(d, /*round=*/0, "the lifted original", d.measuredBeforeMs, /*measured=*/true);
  }

  // Step 5 with measurements: the fastest verified candidate; within the
  // noise of the fastest (kMeasurementNoise) the simpler one, and only when
  // it beats the measured original by more than the noise.
  if (ref && d.measuredBeforeMs > 0) {
    int best = fastestVerified(d.evaluated);
    if (best < 0)
      return keepOriginal(kernel, d, shape, run,
                          "no candidate was verified and measured (see each one's status)");
    // Only between medians of the same run: times of two runs (a refine
    // round, the tuning database) differ by more than the band (a simpler
    // GEMM chosen this way timed 6% slower on its own, issue 44).
    int chosen = best;
    for (auto [i, c] : llvm::enumerate(d.evaluated))
      if (c.status == "compiled" && c.measuredMs > 0 && c.timedRun > 0 &&
          c.timedRun == d.evaluated[best].timedRun &&
          c.measuredMs <= d.evaluated[best].measuredMs * (1 + kSimplerBand) &&
          c.family->complexity(c.knobs) <
              d.evaluated[chosen].family->complexity(d.evaluated[chosen].knobs))
        chosen = int(i);
    Candidate &winner = d.evaluated[chosen];
    if (std::optional<std::string> slower = notFasterThanOriginal(
            "the fastest verified candidate", winner.measuredMs, d.measuredBeforeMs))
      return keepOriginal(kernel, d, shape, run, *slower);
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
    return;
  }

  // Step 5 without measurements: the fastest compiled candidate; between
  // equal predictions the simpler one. (Preferring the simpler one within a
  // margin is for measurements, whose noise is known; the model's error is
  // not noise: measured, run 3 lost up to 1.6x to "simpler within 3%".)
  int best = -1;
  for (auto [i, c] : llvm::enumerate(d.evaluated)) {
    if (c.status != "compiled")
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

void AgentDriver::refineAroundFastest(
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

LogicalResult AgentDriver::applyChosen(gpu::GPUFuncOp kernel, KernelDecision &d, int chosen) {
  Candidate &winner = d.evaluated[chosen];
  if (failed(applyScript(getOperation(), scriptText({{d.kernel, &winner}}, /*raise=*/false)))) {
    kernel.emitWarning() << "ks-agent-driver: the winning schedule did not apply to the kernel "
                            "after it applied to a copy";
    return failure();
  }
  winner.status = "chosen";
  d.chosen = chosen;
  d.changed = true;
  d.scheduleOp = opText(winner, "k", "r");
  return success();
}

std::optional<AgentDriver::Reference>
AgentDriver::prepareReference(StringRef kernelName, RunContext &run, std::string &why) {
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

bool AgentDriver::measureCandidates(KernelDecision &d, const Reference &ref, RunContext &run,
                                    CandidateMemory &memory,
                                    std::map<size_t, BenchFiles> &compiled) {
  std::string prefix = run.workDir + "/" + d.kernel;
  BenchJob job;
  job.bench = run.bench;
  job.kernel = d.kernel;
  job.specPath = ref.specPath;
  job.timeoutSeconds = std::max(1, int(timeout));
  // No schedule uses TF32 or fast math yet; a looser precision only loosens
  // the check (for the schedules that will).
  job.tf32Tolerance = precision != Precision::Strict;
  job.variants.push_back({"original", run.originalPTX, ""});
  std::vector<size_t> pending;
  for (auto &[index, files] : compiled) {
    std::string name = "c" + std::to_string(index);
    BenchVariant v{name, prefix + "." + name + ".ptx", prefix + "." + name + ".launch.json"};
    if (!writeFile(v.ptxPath, files.ptx) || !writeFile(v.manifestPath, files.manifest)) {
      d.measuredWith = "not measured: cannot write " + v.ptxPath + " or its manifest";
      return false;
    }
    job.variants.push_back(v);
    pending.push_back(index);
  }
  const CandidateMemory::Measurement *original = memory.lookupMeasurement("original");
  if (pending.empty() && original) {
    d.measuredBeforeMs = original->medianMs;
    d.measuredWith = "every measurement from the tuning database (" + ref.workload + ")";
    return true;
  }
  auto reject = [&](size_t index, const std::string &why) {
    Candidate &c = d.evaluated[index];
    c.status = "rejected: " + why;
    memory.remember(c.family->opAttributes(c.knobs),
                    CandidateMemory::Measurement{-1, c.status, c.verification});
  };
  auto run1 = [&](StringRef what, StringRef workload, int reps, int warmup)
      -> std::optional<std::map<std::string, BenchOutcome>> {
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
  };
  // Verification at odd sizes first (one timed run each), then timing at
  // the workload (which verifies again) for those that passed.
  std::optional<std::map<std::string, BenchOutcome>> odd =
      run1("odd", ref.oddWorkload, /*reps=*/1, /*warmup=*/0);
  if (!odd)
    return false;
  // objective=throughput: what is timed from here on (the screen and the
  // decision) is the time per launch in waves of concurrent launches.
  if (objective == Objective::Throughput)
    job.streams = kThroughputStreams;
  const BenchVariant originalVariant = job.variants.front();
  std::vector<size_t> order; // the candidates verified at the odd workload
  std::map<size_t, BenchVariant> variantOf;
  for (auto [index, variant] : llvm::zip(pending, ArrayRef(job.variants).drop_front())) {
    auto it = odd->find(variant.name);
    if (it == odd->end() || it->second.status != "pass") {
      reject(index, "fails verification at " + ref.oddWorkload + ": " +
                        (it == odd->end() ? "no result" : it->second.reason));
      continue;
    }
    d.evaluated[index].verification = "verified at " + ref.oddWorkload;
    order.push_back(index);
    variantOf[index] = variant;
  }
  // Screening: at the workload a verified run is mostly copies and host
  // comparisons of whole buffers (2-3 s per candidate for 537 MB, against
  // milliseconds of timing: bench/results/2026-12-04-h200-search-phases).
  // So every candidate is timed there once without them (--time-only: the
  // same timing, no reference, no checks), and only the fastest are verified
  // and timed again for the decision. Each was verified at the odd workload.
  std::map<size_t, double> screenMs;
  if (screen && order.size() > kMinFinalists) {
    job.variants.clear();
    for (size_t index : order)
      job.variants.push_back(variantOf[index]);
    job.timeOnly = true;
    job.reference = originalVariant;
    std::optional<std::map<std::string, BenchOutcome>> screened =
        run1("screen", ref.workload, std::max(1, int(reps)), 2);
    job.timeOnly = false;
    job.reference.reset();
    if (!screened)
      return false;
    std::vector<size_t> timedOrder;
    for (size_t index : order) {
      auto it = screened->find("c" + std::to_string(index));
      if (it == screened->end() || it->second.status != "timed" || it->second.medianMs <= 0) {
        reject(index, "fails at " + ref.workload + " (screening, unverified): " +
                          (it == screened->end() ? "no result" : it->second.reason));
        continue;
      }
      screenMs[index] = it->second.medianMs;
      timedOrder.push_back(index);
    }
    llvm::stable_sort(timedOrder,
                      [&](size_t a, size_t b) { return screenMs[a] < screenMs[b]; });
    order = std::move(timedOrder);
  }
  // Verified and timed at the workload, with the original in the same run:
  // the finalists (screened within kScreenMargin of the fastest, at least
  // kMinFinalists, at most kMaxFinalists; without screening, every
  // candidate); the next ones only
  // when none of those verifies there. With none left, the original alone
  // (its time decides that it comes back).
  size_t from = 0, rounds = 0;
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
    job.variants = {originalVariant};
    for (size_t i = from; i < end; ++i)
      job.variants.push_back(variantOf[order[i]]);
    std::optional<std::map<std::string, BenchOutcome>> timed =
        run1(rounds == 0 ? "timed" : "timed" + std::to_string(rounds + 1), ref.workload,
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
    for (size_t i = from; i < end; ++i) {
      size_t index = order[i];
      Candidate &c = d.evaluated[index];
      auto it = timed->find("c" + std::to_string(index));
      if (it == timed->end() || it->second.status != "pass") {
        reject(index, "fails at " + ref.workload + ": " +
                          (it == timed->end() ? "no result" : it->second.reason));
        continue;
      }
      anyPassed = true;
      c.measuredMs = it->second.medianMs;
      c.timedRun = timedRuns;
      c.verification += " and " + ref.workload;
      memory.remember(c.family->opAttributes(c.knobs),
                      CandidateMemory::Measurement{c.measuredMs, "pass", c.verification,
                                                   c.cost.seconds * 1e3});
    }
    from = end;
  }
  memory.remember("original",
                  CandidateMemory::Measurement{d.measuredBeforeMs, "pass", "the reference",
                                               d.predictedBefore > 0 ? d.predictedBefore * 1e3
                                                                     : -1});
  // Screened out: never verified at the workload, so never chosen (and
  // remembered so, for a repeat run to decide the same).
  double fastestScreened = screenMs.empty() ? 0 : screenMs.at(order.front());
  for (size_t i = from; i < order.size(); ++i) {
    Candidate &c = d.evaluated[order[i]];
    c.status = llvm::formatv("{0}: {1:f4} ms at {2} unverified there, {3:f2}x the "
                             "fastest screened ({4:f4} ms)",
                             kScreenedOut, screenMs[order[i]], ref.workload,
                             screenMs[order[i]] / fastestScreened, fastestScreened)
                   .str();
    // Remembered without a time: the status holds the unverified one.
    memory.remember(c.family->opAttributes(c.knobs),
                    CandidateMemory::Measurement{-1, c.status, c.verification});
  }
  if (screenMs.empty())
    d.measuredWith = llvm::formatv("ks-bench ({0}): {1} candidates measured now, median of {2} "
                                   "at {3}, verified against the lifted original at {4} and {3}",
                                   run.bench, pending.size(), int(reps), ref.workload,
                                   ref.oddWorkload)
                         .str();
  else
    d.measuredWith =
        llvm::formatv("ks-bench ({0}): {1} candidates measured now, verified against the lifted "
                      "original at {4}; {2} screened at {3} without verification there "
                      "(ks-bench --time-only); the {5} fastest sent to be verified at {3} and "
                      "timed there (median of {6}) in {7} run{8}",
                      run.bench, pending.size(), screenMs.size(), ref.workload, ref.oddWorkload,
                      from, int(reps), rounds, rounds == 1 ? "" : "s")
            .str();
  if (!ref.assumed.empty())
    d.measuredWith += " (no workload gave " + ref.assumed + ": assumed, as the profiler does)";
  if (job.streams > 1)
    d.measuredWith += llvm::formatv("; objective=throughput: timed in waves of {0} concurrent "
                                    "launches, each on its own stream and buffers (ms per "
                                    "launch)",
                                    job.streams)
                          .str();
  if (job.tf32Tolerance)
    d.measuredWith += "; verified at the TF32 tolerance (precision=" +
                      std::string(precision == Precision::TF32 ? "tf32" : "fast") +
                      "; no schedule uses TF32 or fast math yet)";
  return true;
}

/// workload= names what the kernels and launchers call their scalars (or a
/// launch dimension, block.x ... grid.z); a name that is none of them is a
/// typo that would otherwise leave every size at its assumed value.
static LogicalResult checkWorkloadNames(ModuleOp module,
                                        const llvm::StringMap<int64_t> &values) {
  if (values.empty())
    return success();
  std::set<std::string> known = {"block.x", "block.y", "block.z", "grid.x", "grid.y", "grid.z"};
  std::set<std::string> scalars;
  auto addArguments = [&](FunctionOpInterface fn) {
    for (unsigned i = 0, e = fn.getNumArguments(); i < e; ++i)
      if (fn.getArgument(i).getType().isIntOrIndex() || fn.getArgument(i).getType().isFloat())
        scalars.insert(getArgumentName(fn, i));
    if (auto workload = fn->getAttrOfType<WorkloadAttr>("ks.workload"))
      for (NamedAttribute entry : workload.getScalars())
        scalars.insert(entry.getName().str());
  };
  module.walk([&](Operation *op) {
    if (isa<func::FuncOp, gpu::GPUFuncOp>(op))
      addArguments(cast<FunctionOpInterface>(op));
  });
  known.insert(scalars.begin(), scalars.end());
  bool anyKernel = false;
  module.walk([&](gpu::GPUFuncOp) { anyKernel = true; });
  if (!anyKernel) // nothing to check against (ks checks its options on an empty module)
    return success();
  for (const auto &entry : values) {
    if (known.count(entry.getKey().str()))
      continue;
    std::string list;
    for (const std::string &name : scalars)
      list += (list.empty() ? "" : ", ") + name;
    return emitError(module.getLoc())
           << "ks-agent-driver: workload=: no scalar named '" << entry.getKey()
           << "'; the kernels' and launchers' scalars: " << (list.empty() ? "(none)" : list)
           << " (and block.x ... grid.z)";
  }
  return success();
}

void AgentDriver::runOnOperation() {
  ModuleOp module = getOperation();
  std::string error;
  FailureOr<llvm::StringMap<int64_t>> workloadValues = parseWorkloadOption(workload, error);
  if (failed(workloadValues)) {
    emitError(module.getLoc()) << "ks-agent-driver: " << error;
    return signalPassFailure();
  }
  if (optLevel < 0 || optLevel > 3) {
    emitError(module.getLoc()) << "ks-agent-driver: opt-level must be 0 to 3, got "
                               << int(optLevel);
    return signalPassFailure();
  }
  if (!(target >= 0 && target <= 1)) {
    emitError(module.getLoc()) << "ks-agent-driver: target must be a fraction of the roofline "
                                  "floor, 0 to 1, got "
                               << double(target);
    return signalPassFailure();
  }
  RunContext run;
  run.workloadValues = std::move(*workloadValues);
  std::tie(run.sku, run.caps) = getTargetGPU(module);
  auto arch = module->getAttrOfType<ArchAttr>(ArchAttr::kModuleAttrName);
  run.chip = arch ? arch.getChip().str() : std::string(getDefaultGPU().chip);
  run.budgets.maxThreads = run.caps.maxThreadsPerBlock;
  run.budgets.maxSharedBytes = maxShared > 0
                                   ? std::min<int64_t>(maxShared, run.caps.smemPerBlock)
                                   : run.caps.smemPerBlock;
  run.budgets.maxRegisters = std::min<int64_t>(maxRegisters, run.caps.maxRegsPerThread);
  run.budgets.minOccupancy = minOccupancy;
  run.ptxas = findPtxas(ptxas);

  // measure=cuda needs the original, ks-bench, ptxas and a GPU; auto falls
  // back to static without one of them and says which.
  std::string mode = "static", modeNote;
  OwningOpRef<ModuleOp> fromFile;
  std::string originalError;
  if (fromPipeline && fromPipeline->module) {
    run.original = *fromPipeline->module;
  } else if (!original.empty()) {
    fromFile = parseSourceFile<ModuleOp>(original.getValue(), &getContext());
    if (!fromFile)
      originalError = "the original '" + original + "' does not parse";
    else
      run.original = *fromFile;
  }
  if (failed(checkKernelNames(module, kernels, "ks-agent-driver")))
    return signalPassFailure();
  if (failed(checkWorkloadNames(module, run.workloadValues)))
    return signalPassFailure();
  if (measure != MeasureMode::Static) {
    std::string missing = originalError;
    std::optional<std::string> bench = findBench(this->bench);
    if (!missing.empty()) {
    } else if (!run.original)
      missing = "no lifted original to verify against (run it in --kernelskill-pipeline or "
                "give original=FILE)";
    else if (!bench)
      missing = this->bench.empty() ? "no ks-bench beside ks-opt or on PATH (give bench=PATH)"
                                    : "bench='" + this->bench + "' is not executable";
    else if (!run.ptxas)
      missing = "no ptxas (the candidates' PTX is checked by ptxas before it runs)";
    else if (measure == MeasureMode::Auto) {
      // cuda asks ks-bench, which says when it finds no GPU; auto looks first.
      if (llvm::Expected<DeviceCapabilities> device = queryDevice(0); !device) {
        std::string why = llvm::toString(device.takeError());
        missing = "no usable GPU: " + why.substr(0, why.find("; source=device"));
      }
    }
    if (!missing.empty() && measure == MeasureMode::Cuda) {
      emitError(module.getLoc()) << "ks-agent-driver: measure=cuda: " << missing;
      return signalPassFailure();
    }
    if (missing.empty()) {
      mode = "cuda";
      run.measuring = true;
      run.bench = *bench;
    } else {
      modeNote = "measure=auto decided statically: " + missing;
    }
  }
  // verify=emulate: the static decisions' CPU check (StaticCheck.h).
  if (verify != "none" && verify != "emulate") {
    emitError(module.getLoc()) << "ks-agent-driver: verify must be none or emulate, got '"
                               << verify << "'";
    return signalPassFailure();
  }
  if (!(staticMargin >= 0)) {
    emitError(module.getLoc()) << "ks-agent-driver: static-margin must be a fraction of 0 or "
                                  "more, got "
                               << double(staticMargin);
    return signalPassFailure();
  }
  bool removeEmulateDir = false;
  if (verify == "emulate") {
    std::optional<std::string> found = findEmulator(emulator);
    if (!found) {
      emitError(module.getLoc())
          << "ks-agent-driver: verify=emulate: "
          << (emulator.empty() ? "no ks-emulate.py in ../libexec/ks-emulate/ beside ks-opt "
                                 "(give emulator=PATH)"
                               : "emulator='" + emulator + "' does not exist");
      return signalPassFailure();
    }
    if (!run.original) {
      emitError(module.getLoc()) << "ks-agent-driver: verify=emulate: no lifted original to "
                                    "verify against (run it in --kernelskill-pipeline or give "
                                    "original=FILE)";
      return signalPassFailure();
    }
    llvm::SmallString<256> dir;
    if (std::error_code ec = llvm::sys::fs::createUniqueDirectory("ks-emulate", dir)) {
      emitError(module.getLoc()) << "ks-agent-driver: cannot create a directory for the CPU "
                                    "emulation: "
                                 << ec.message();
      return signalPassFailure();
    }
    run.emulating = true;
    run.emulator = *found;
    run.emulateDir = dir.str().str();
    removeEmulateDir = true;
  }
  bool removeWorkDir = false;
  if (run.measuring) {
    llvm::SmallString<256> dir;
    std::error_code ec;
    if (!workdir.empty()) {
      dir = workdir.getValue();
      ec = llvm::sys::fs::create_directories(dir);
    } else {
      ec = llvm::sys::fs::createUniqueDirectory("ks-driver", dir);
      removeWorkDir = true;
    }
    if (ec) {
      emitError(module.getLoc()) << "ks-agent-driver: cannot create the directory '" << dir
                                 << "' for measurements: " << ec.message();
      return signalPassFailure();
    }
    run.workDir = dir.str().str();
  }

  SmallVector<gpu::GPUFuncOp> kernels;
  module.walk([&](gpu::GPUFuncOp k) {
    if (k.isKernel())
      kernels.push_back(k);
  });
  std::vector<KernelDecision> decisions;
  for (gpu::GPUFuncOp kernel : kernels) {
    KernelDecision &d = decisions.emplace_back();
    Location loc = kernel.getLoc(); // the kernel may be replaced by its original
    decide(kernel, d, run);
    if (objective == Objective::Throughput && d.measuredBeforeMs <= 0 && d.changed)
      d.decision += "; objective=throughput ranked by the latency model: it has no term for "
                    "concurrent launches (measure=cuda times them)";
    if (d.measuredWith.empty())
      d.measuredWith = modeNote;
    else if (measure == MeasureMode::Cuda && StringRef(d.measuredWith).starts_with("not measured"))
      emitWarning(loc) << "ks-agent-driver: measure=cuda: " << d.measuredWith
                           << "; decided statically";
    if (explain)
      printExplanation(llvm::errs(), d);
  }
  // A changed kernel's launchers keep what the lifted kernel's accesses say
  // of the buffers, for the launch manifest of a schedule whose own accesses
  // the launch spec cannot bound.
  if (run.original)
    for (const KernelDecision &d : decisions)
      if (d.changed)
        recordLiftedExtents(module, run.original, d.kernel);
  // The raising's reasons for leaving a kernel alone are in the decisions now.
  module.walk([](gpu::GPUFuncOp k) {
    k->removeAttr(kNotRaisedAttrName);
    k->removeAttr(kNoLauncherAttrName);
  });

  if (!transcript.empty()) {
    std::string text;
    llvm::raw_string_ostream os(text);
    llvm::json::Value doc = transcriptJSON(mode, run.sku, decisions);
    doc.getAsObject()->try_emplace("precision", precision == Precision::Strict ? "strict"
                                                : precision == Precision::TF32 ? "tf32"
                                                                               : "fast");
    doc.getAsObject()->try_emplace(
        "objective", objective == Objective::Throughput ? "throughput" : "latency");
    os << llvm::formatv("{0:2}", doc) << "\n";
    if (!writeFile(transcript, text))
      return signalPassFailure();
  }
  if (!schedule.empty()) {
    std::vector<std::pair<std::string, const Candidate *>> steps;
    for (const KernelDecision &d : decisions)
      if (d.chosen >= 0)
        steps.emplace_back(d.kernel, &d.evaluated[d.chosen]);
    std::string text = "// The schedule ks-agent-driver chose (measure=" + mode + ", " + run.sku +
                       "): apply to the lifted module with\n//   ks-opt IN.mlir "
                       "--transform-preload-library=\"transform-library-paths=THIS\" "
                       "--transform-interpreter --canonicalize --cse\n" +
                       scriptText(steps, /*raise=*/true);
    for (const KernelDecision &d : decisions)
      if (d.restoredOriginal)
        text += "// @" + d.kernel + " came back as the lifted original (measured: nothing was "
                "faster); this script raises it and leaves it to the lowering.\n";
    if (!writeFile(schedule, text))
      return signalPassFailure();
  }
  if (removeWorkDir)
    llvm::sys::fs::remove_directories(run.workDir);
  if (removeEmulateDir)
    llvm::sys::fs::remove_directories(run.emulateDir);
}

/// Copies the module into the shared OriginalModule (see Driver/Passes.h).
struct KeepOriginal : PassWrapper<KeepOriginal, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(KeepOriginal)
  explicit KeepOriginal(std::shared_ptr<OriginalModule> original)
      : original(std::move(original)) {}
  StringRef getArgument() const override { return "ks-keep-original"; }
  StringRef getDescription() const override {
    return "Keep a copy of the lifted module for the agent driver's measurements";
  }
  void runOnOperation() override { original->module = getOperation().clone(); }
  std::shared_ptr<OriginalModule> original;
};

} // namespace

std::unique_ptr<Pass> mlir::ks::createKeepOriginalPass(std::shared_ptr<OriginalModule> original) {
  return std::make_unique<KeepOriginal>(std::move(original));
}

std::unique_ptr<Pass> mlir::ks::createKSAgentDriver(const KSAgentDriverOptions &options,
                                                    std::shared_ptr<OriginalModule> original) {
  return std::make_unique<AgentDriver>(options, std::move(original));
}
