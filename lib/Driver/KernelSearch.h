//===- KernelSearch.h - The agent driver's search, by part -*- C++ -*-===//
//
// Private to lib/Driver (docs/Agents.md, "The driver"): the per-run state
// and the parts of the driver's search that the pass (AgentDriver.cpp)
// runs for every kernel.
//
//===----------------------------------------------------------------------===//
#ifndef KERNELSKILL_LIB_DRIVER_KERNELSEARCH_H
#define KERNELSKILL_LIB_DRIVER_KERNELSEARCH_H

#include "CandidateMemory.h"

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

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/FormatVariadic.h"

#include <chrono>
#include <map>
#include <optional>
#include <set>

namespace mlir::ks::driver {

inline double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

/// Two measured medians closer than this are the same to the driver.
inline constexpr double kMeasurementNoise = 0.02;
/// A simpler candidate is preferred over the fastest only this close to it
/// (and timed in the same run): half the noise, since preferring it trades
/// a likely loss for simplicity.
inline constexpr double kSimplerBand = 0.01;
/// objective=energy: two energy readings closer than this are the same to
/// the driver (the counter's millijoule step over half a second of
/// launches, and the board's power drifting with its temperature).
inline constexpr double kEnergyNoise = 0.03;
/// Screening (screen=true): the candidates verified at the workload are
/// those screened within this fraction of the fastest (twice the noise:
/// any of them may still win or be the simpler one within the noise), and
/// at least kMinFinalists, so that one failing there leaves another, and
/// at most kMaxFinalists: schedules at the DRAM floor tie (7 of 8
/// transposes within 4% on an H100), and verifying every near-tie made the
/// screened search slower than the unscreened one (75.8 s against 63.1 s,
/// bench/results/2026-12-05-h100-session22-e71ab02).
inline constexpr double kScreenMargin = 2 * kMeasurementNoise;
inline constexpr size_t kMinFinalists = 2;
inline constexpr size_t kMaxFinalists = 4;
inline constexpr StringLiteral kScreenedOut = "screened out";
inline bool isScreenedOut(StringRef status) { return status.starts_with(kScreenedOut); }

/// "; measured X ms, Nx the original's Y ms, verified" for a chosen
/// candidate that was measured, else nothing.
inline std::string measuredSuffix(const Candidate &chosen, const KernelDecision &d) {
  if (chosen.measuredMs <= 0 || d.measuredBeforeMs <= 0)
    return "";
  return llvm::formatv("; measured {0:f4} ms, {1:f2}x the original's {2:f4} ms, verified",
                       chosen.measuredMs, d.measuredBeforeMs / chosen.measuredMs,
                       d.measuredBeforeMs)
      .str();
}

/// The index of the fastest candidate verified and measured (compiled, with
/// a time), or -1.
inline int fastestVerified(ArrayRef<Candidate> evaluated) {
  int best = -1;
  for (auto [i, c] : llvm::enumerate(evaluated))
    if (c.isCompiled() && c.measuredMs > 0 &&
        (best < 0 || c.measuredMs < evaluated[best].measuredMs))
      best = int(i);
  return best;
}

/// Step 5's re-profile: `what`, the winner of `round` (0: the input), at
/// `ms` against the kernel's roofline floor; round 0 goes first in d.rounds.
inline void reprofile(KernelDecision &d, int round, std::string what, double ms, bool measured) {
  RoundDiagnosis r{round, std::move(what), ms, measured, d.floorMs};
  d.rounds.insert(round == 0 ? d.rounds.begin() : d.rounds.end(), std::move(r));
}

/// d.evaluated[index] as the winner of `round`: its measured time, else the
/// calibrated model's.
inline void reprofile(KernelDecision &d, int index, int round, bool measured) {
  const Candidate &c = d.evaluated[index];
  reprofile(d, round, c.family->name.str() + " " + describeKnobs(c),
            measured ? c.measuredMs : calibratedSeconds(c) * 1e3, measured);
}

/// Why `what`, measured at `ms`, does not replace the original measured at
/// `beforeMs`: it is not faster by more than the noise. Nothing when it is.
inline std::optional<std::string> notFasterThanOriginal(StringRef what, double ms, double beforeMs) {
  if (ms < beforeMs * (1 - kMeasurementNoise))
    return std::nullopt;
  return llvm::formatv("{0} ({1:f4} ms) is not faster than the original ({2:f4} ms) by more "
                       "than the noise ({3}%)",
                       what, ms, beforeMs, int(kMeasurementNoise * 100))
      .str();
}

// TransformScripts.cpp: the transform scripts that apply candidates, and
// what the evaluator reads of a module.

/// The transform op that applies `c` to the kernel matched as `%handle`, as
/// text (the transcript's account of a schedule).
std::string opText(const Candidate &c, MLIRContext *context, llvm::StringRef handle,
                   llvm::StringRef result);
/// The transform library (one entry point, @__transform_main, built with
/// OpBuilder) that raises the lifted input first (with `raise`) and
/// schedules each kernel of `steps` (by name) with its candidate.
OwningOpRef<ModuleOp> buildScript(MLIRContext *context,
                                  llvm::ArrayRef<std::pair<std::string, const Candidate *>> steps,
                                  bool raise);
/// In a copy made to compile one candidate, the other raised kernels become
/// empty.
void emptyOtherRaisedKernels(ModuleOp copy, llvm::StringRef keep);
/// Applies `script`'s entry point to `payload`.
LogicalResult applyScript(ModuleOp payload, ModuleOp script);
/// Applies `c` to the kernel named `kernel` in `payload` (the script built
/// in `payload`'s context).
LogicalResult applyCandidate(ModuleOp payload, llvm::StringRef kernel, const Candidate &c);
/// Whether `c` applies to the kernel `kernel` in a copy of `module`
/// (diagnostics silenced); when it does not, `why` (if given) holds the
/// first error.
bool appliesToCopy(ModuleOp module, llvm::StringRef kernel, const Candidate &c,
                   std::string *why = nullptr);
/// The kernel's identity in the tuning database.
std::string fingerprintOf(gpu::GPUFuncOp kernel);
/// The launches of `kernel` (and of its split-K init kernel) in `module`'s
/// launchers, in order, as a ks-bench manifest.
FailureOr<std::string> manifestOf(ModuleOp module, llvm::StringRef kernel);

struct BenchSession; // Evaluate.cpp

/// One run of the agent driver over a module: the pass's options, the
/// module, and the decision of every kernel (decide). The pass
/// (AgentDriver.cpp) checks the options, sets up the RunContext, calls
/// decide per kernel and writes the outputs. Its parts by role:
/// Search.cpp (the policy: rounds, budget, refinement), Evaluate.cpp (the
/// evaluator: compiling, measuring, the tuning database), Select.cpp (the
/// selector: the winner, or the original kept), TransformScripts.cpp (the
/// transform scripts that apply a candidate), Negotiation.cpp and
/// Arbiter.cpp (the search space and the agents' negotiation).
class KernelSearch : private KSAgentDriverOptions {
public:
  KernelSearch(KSAgentDriverOptions options, ModuleOp module)
      : KSAgentDriverOptions(std::move(options)), module(module) {}
  ModuleOp getOperation() { return module; }
  MLIRContext &getContext() { return *module.getContext(); }
  /// Set when a kernel could not be decided in a way the pass must fail
  /// for (a raised kernel no schedule applies to).
  bool passFailed = false;

  /// What every kernel's decision shares in one run.
  struct RunContext {
    GPUCapabilities caps;
    Budgets budgets;
    llvm::StringMap<int64_t> workloadValues;
    std::string chip, sku;
    std::optional<std::string> ptxas;
    /// Why there is no ptxas (see resolvePtxasOption): not asked for, or not found.
    const char *ptxasNote = "no ptxas found";
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
  /// Decides `kernel`: steps 1 to 5 (docs/Agents.md), into `d`.
  void decide(gpu::GPUFuncOp kernel, KernelDecision &d, RunContext &run);

  /// One kernel's search in progress (Search.cpp).
  struct SearchState {
    std::vector<Candidate> ranked; ///< the order candidates are compiled in
    std::optional<Reference> ref;  ///< measure=cuda: the lifted original's
    std::optional<CandidateMemory> memory;
    /// measure=cuda: each compiled candidate's PTX and launch manifest, by
    /// its index in d.evaluated.
    std::map<size_t, BenchFiles> compiledFiles;
    std::vector<const Candidate *> seen;
    int64_t skippedSame = 0, skippedCap = 0, fromMemory = 0;
    int64_t registerCap = 0;
    std::chrono::steady_clock::time_point compileStart;
    bool outOfTime = false;
    double originalCalibration = 1;
    /// The budget, the part refine= keeps, the first round's share.
    int64_t total = 0, reserved = 0, count = 0;
    size_t next = 0; ///< the next of `ranked` to compile
  };
  /// Steps 1 to 3: every family's negotiation, the points ranked.
  std::vector<Candidate> negotiateFamilies(gpu::GPUFuncOp kernel, KernelDecision &d,
                                           const KernelShape &shape, RunContext &run);
  /// search-seconds= has run out.
  bool searchTimeIsUp(const SearchState &s) const;
  /// Step 4's first round: the budget's first share, the agreed point last.
  void compileFirstRound(gpu::GPUFuncOp kernel, KernelDecision &d, const KernelShape &shape,
                         RunContext &run, SearchState &s);
  /// Compiles `point` (ptxas's verdict from the tuning database or now)
  /// into d.evaluated; false when it is not compiled (rated like one
  /// compiled before, or over the lowered register cap).
  bool compileOne(KernelDecision &d, const KernelShape &shape, RunContext &run, SearchState &s,
                  const Candidate &point, int round);
  /// What a spill of `c` says of the register budget (a message, and a
  /// lower cap when it spilled at the registers its block may have).
  void noteSpill(KernelDecision &d, RunContext &run, SearchState &s, const Candidate &c,
                 int64_t estimate);
  /// measure=cuda: the first round measured, refine='s rounds.
  void measureRounds(KernelDecision &d, const KernelShape &shape, RunContext &run,
                     SearchState &s);
  /// objective=energy's step 5: of the verified candidates within
  /// kEnergyNoise of the least energy per launch, the fastest (the simpler
  /// within kSimplerBand of its time), if it uses less than the original by
  /// kEnergyNoise, else the original back. Returns why it could not decide
  /// (no energy readings: the caller decides by time), or nothing when it
  /// did.
  std::optional<std::string> selectByEnergy(gpu::GPUFuncOp kernel, KernelDecision &d,
                                            const KernelShape &shape, RunContext &run);
  /// Step 5 with measurements (Select.cpp).
  void selectMeasured(gpu::GPUFuncOp kernel, KernelDecision &d, const KernelShape &shape,
                      RunContext &run);
  /// Step 5 without: the model's fastest compiled, if faster than the
  /// input by static-margin and verified (Select.cpp).
  void selectStatic(gpu::GPUFuncOp kernel, KernelDecision &d, const KernelShape &shape,
                    RunContext &run, double originalCalibration);
  /// measure=cuda: the reference for d.kernel, or nothing (d.measuredWith
  /// then says why; the kernel is decided statically). Nothing otherwise.
  std::optional<Reference> referenceFor(KernelDecision &d, RunContext &run);
  /// The tuning database's records of `kernel` on this GPU and toolchain,
  /// at `ref`'s workload (any workload without one: ptxas's verdicts only).
  CandidateMemory memoryFor(gpu::GPUFuncOp kernel, const Reference *ref, const RunContext &run);
  /// ptxas's verdict on `c`, a candidate for `kernel` (needs run.ptxas): the
  /// registers and spill bytes of the kernel and its split-K init kernel,
  /// and c.status Compiled or Rejected (the lowering failed, ptxas
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
  /// measureCandidates' timed runs at the workload (Evaluate.cpp): the
  /// finalists of `order` from `from` on, until one verifies there.
  bool timeFinalists(BenchSession &b, const std::vector<size_t> &order,
                     std::map<size_t, BenchVariant> &variantOf,
                     const BenchVariant &originalVariant, std::map<size_t, double> &screenMs,
                     size_t &from, size_t &rounds);
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

private:
  ModuleOp module;
};

} // namespace mlir::ks::driver

#endif // KERNELSKILL_LIB_DRIVER_KERNELSEARCH_H
