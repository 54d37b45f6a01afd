//===- AgentDriver.cpp - Negotiate, rank, compile, apply ------------------===//
//
// The agent driver (docs/Agents.md): Negotiation.cpp composes and ranks the
// agents' proposals; this pass compiles the best candidates on copies of
// the module, applies the winner as a transform script (the same script
// `schedule=FILE` writes, so the file reproduces the result) and records
// every step.
//
//===----------------------------------------------------------------------===//

#include "KernelSearch.h"

#include "mlir/Parser/Parser.h"
#include "llvm/Support/FileSystem.h"


namespace mlir::ks {
#define GEN_PASS_DEF_KSAGENTDRIVER
#include "kernelskill/Driver/Passes.h.inc"
} // namespace mlir::ks

using namespace mlir;
using namespace mlir::ks;
using namespace mlir::ks::driver;

namespace {

/// workload= names what the kernels and launchers call their scalars (or a
/// launch dimension, block.x ... grid.z); a name that is none of them is a
/// typo that would otherwise leave every size at its assumed value.
LogicalResult checkWorkloadNames(ModuleOp module,
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

using RunContext = KernelSearch::RunContext;

struct AgentDriver : ks::impl::KSAgentDriverBase<AgentDriver> {
  using Base::Base;
  AgentDriver(const KSAgentDriverOptions &options, std::shared_ptr<OriginalModule> original)
      : Base(options), fromPipeline(std::move(original)) {}

  void runOnOperation() override;

private:
  /// The options as the search reads them.
  KSAgentDriverOptions currentOptions() const;
  /// The options' own errors (opt-level, target, verify, static-margin).
  LogicalResult checkOptions(ModuleOp module);
  /// The chip, budgets, ptxas and lifted original of `run`; what
  /// measure= becomes (`mode`, and `modeNote` when auto decided statically).
  LogicalResult prepareRun(ModuleOp module, RunContext &run, OwningOpRef<ModuleOp> &fromFile,
                           std::string &mode, std::string &modeNote);
  /// verify=emulate's emulator and directory, measure=cuda's work
  /// directory; `removeEmulateDir`/`removeWorkDir` when made here.
  LogicalResult prepareDirectories(ModuleOp module, RunContext &run, bool &removeEmulateDir,
                                   bool &removeWorkDir);
  /// transcript= and schedule=.
  LogicalResult writeOutputs(KernelSearch &search, const RunContext &run, StringRef mode,
                             ArrayRef<KernelDecision> decisions);

  std::shared_ptr<OriginalModule> fromPipeline;
};

KSAgentDriverOptions AgentDriver::currentOptions() const {
  KSAgentDriverOptions o;
  o.measure = measure;
  o.budget = budget;
  o.searchSeconds = searchSeconds;
  o.screen = screen;
  o.refine = refine;
  o.target = target;
  o.maxRegisters = maxRegisters;
  o.maxShared = maxShared;
  o.minOccupancy = minOccupancy;
  o.optLevel = optLevel;
  o.ptxas = ptxas;
  o.workload = workload;
  o.db = db;
  o.bench = bench;
  o.original = original;
  o.reps = reps;
  o.timeout = timeout;
  o.workdir = workdir;
  o.precision = precision;
  o.objective = objective;
  o.kernels.assign(kernels.begin(), kernels.end());
  o.transcript = transcript;
  o.schedule = schedule;
  o.explain = explain;
  o.verify = verify;
  o.emulator = emulator;
  o.staticMargin = staticMargin;
  o.search = search;
  o.searchSeed = searchSeed;
  o.agents.assign(agents.begin(), agents.end());
  return o;
}

LogicalResult AgentDriver::checkOptions(ModuleOp module) {
  if (optLevel < 0 || optLevel > 3)
    return emitError(module.getLoc()) << "ks-agent-driver: opt-level must be 0 to 3, got "
                                      << int(optLevel);
  if (!(target >= 0 && target <= 1))
    return emitError(module.getLoc()) << "ks-agent-driver: target must be a fraction of the "
                                         "roofline floor, 0 to 1, got "
                                      << double(target);
  // verify=emulate: the static decisions' CPU check (StaticCheck.h).
  if (verify != "none" && verify != "emulate")
    return emitError(module.getLoc()) << "ks-agent-driver: verify must be none or emulate, got '"
                                      << verify << "'";
  if (search != "negotiated" && search != "model" && search != "random" &&
      search != "exhaustive")
    return emitError(module.getLoc()) << "ks-agent-driver: search must be negotiated, model, "
                                         "random or exhaustive, got '"
                                      << search << "'";
  for (const std::string &agent : agents)
    if (agent != "memory" && agent != "compute" && agent != "resource")
      return emitError(module.getLoc()) << "ks-agent-driver: agents: unknown agent '" << agent
                                        << "' (memory, compute, resource)";
  if (!(staticMargin >= 0))
    return emitError(module.getLoc()) << "ks-agent-driver: static-margin must be a fraction of "
                                         "0 or more, got "
                                      << double(staticMargin);
  return success();
}

LogicalResult AgentDriver::prepareRun(ModuleOp module, RunContext &run,
                                      OwningOpRef<ModuleOp> &fromFile, std::string &mode,
                                      std::string &modeNote) {
  std::tie(run.sku, run.caps) = getTargetGPU(module);
  auto arch = module->getAttrOfType<ArchAttr>(ArchAttr::kModuleAttrName);
  run.chip = arch ? arch.getChip().str() : std::string(getDefaultGPU().chip);
  run.budgets.maxThreads = run.caps.maxThreadsPerBlock;
  run.budgets.maxSharedBytes = maxShared > 0
                                   ? std::min<int64_t>(maxShared, run.caps.smemPerBlock)
                                   : run.caps.smemPerBlock;
  run.budgets.maxRegisters = std::min<int64_t>(maxRegisters, run.caps.maxRegsPerThread);
  run.budgets.minOccupancy = minOccupancy;
  // Static decisions run ptxas only when asked (ptxas=auto or a path): the
  // same input and options give the same IR on any machine (hermetic).
  std::string ptxasError;
  bool measuring = measure != MeasureMode::Static;
  run.ptxas = resolvePtxasOption(ptxas, measuring, ptxasError);
  if (!ptxasError.empty())
    return emitError(module.getLoc()) << "ks-agent-driver: " << ptxasError;
  if (!ptxasRequested(ptxas, measuring))
    run.ptxasNote = "no ptxas (measure=static runs it only when given ptxas=auto or a path)";

  // measure=cuda needs the original, ks-bench, ptxas and a GPU; auto falls
  // back to static without one of them and says which.
  mode = "static";
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
  if (measure == MeasureMode::Static)
    return success();
  std::string missing = originalError;
  std::optional<std::string> found = findBench(bench);
  if (!missing.empty()) {
  } else if (!run.original)
    missing = "no lifted original to verify against (run it in --kernelskill-pipeline or "
              "give original=FILE)";
  else if (!found)
    missing = bench.empty() ? "no ks-bench beside ks-opt or on PATH (give bench=PATH)"
                            : "bench='" + bench + "' is not executable";
  else if (!run.ptxas)
    missing = "no ptxas (the candidates' PTX is checked by ptxas before it runs)";
  else if (measure == MeasureMode::Auto) {
    // cuda asks ks-bench, which says when it finds no GPU; auto looks first.
    if (llvm::Expected<DeviceCapabilities> device = queryDevice(0); !device) {
      std::string why = llvm::toString(device.takeError());
      missing = "no usable GPU: " + why.substr(0, why.find("; source=device"));
    }
  }
  if (!missing.empty() && measure == MeasureMode::Cuda)
    return emitError(module.getLoc()) << "ks-agent-driver: measure=cuda: " << missing;
  if (missing.empty()) {
    mode = "cuda";
    run.measuring = true;
    run.bench = *found;
  } else {
    modeNote = "measure=auto decided statically: " + missing;
  }
  return success();
}

LogicalResult AgentDriver::prepareDirectories(ModuleOp module, RunContext &run,
                                              bool &removeEmulateDir, bool &removeWorkDir) {
  if (verify == "emulate") {
    std::optional<std::string> found = findEmulator(emulator);
    if (!found)
      return emitError(module.getLoc())
             << "ks-agent-driver: verify=emulate: "
             << (emulator.empty() ? "no ks-emulate.py in ../libexec/ks-emulate/ beside ks-opt "
                                    "(give emulator=PATH)"
                                  : "emulator='" + emulator + "' does not exist");
    if (!run.original)
      return emitError(module.getLoc())
             << "ks-agent-driver: verify=emulate: no lifted original to verify against (run "
                "it in --kernelskill-pipeline or give original=FILE)";
    llvm::SmallString<256> dir;
    if (std::error_code ec = llvm::sys::fs::createUniqueDirectory("ks-emulate", dir))
      return emitError(module.getLoc()) << "ks-agent-driver: cannot create a directory for the "
                                           "CPU emulation: "
                                        << ec.message();
    run.emulating = true;
    run.emulator = *found;
    run.emulateDir = dir.str().str();
    removeEmulateDir = true;
  }
  if (!run.measuring)
    return success();
  llvm::SmallString<256> dir;
  std::error_code ec;
  if (!workdir.empty()) {
    dir = workdir.getValue();
    ec = llvm::sys::fs::create_directories(dir);
  } else {
    ec = llvm::sys::fs::createUniqueDirectory("ks-driver", dir);
    removeWorkDir = true;
  }
  if (ec)
    return emitError(module.getLoc()) << "ks-agent-driver: cannot create the directory '" << dir
                                      << "' for measurements: " << ec.message();
  run.workDir = dir.str().str();
  return success();
}

LogicalResult AgentDriver::writeOutputs(KernelSearch &search, const RunContext &run,
                                        StringRef mode, ArrayRef<KernelDecision> decisions) {
  if (!transcript.empty()) {
    std::string text;
    llvm::raw_string_ostream os(text);
    llvm::json::Value doc = transcriptJSON(mode, run.sku, decisions);
    doc.getAsObject()->try_emplace("precision", precision == Precision::Strict ? "strict"
                                                : precision == Precision::TF32 ? "tf32"
                                                                               : "fast");
    doc.getAsObject()->try_emplace(
        "objective", objective == Objective::Throughput ? "throughput"
                     : objective == Objective::Energy   ? "energy"
                                                        : "latency");
    doc.getAsObject()->try_emplace("search", this->search.getValue());
    if (!agents.empty())
      doc.getAsObject()->try_emplace("agents", llvm::json::Array(agents));
    os << llvm::formatv("{0:2}", doc) << "\n";
    if (!search.writeFile(transcript, text))
      return failure();
  }
  if (schedule.empty())
    return success();
  std::vector<std::pair<std::string, const Candidate *>> steps;
  for (const KernelDecision &d : decisions)
    if (d.chosen >= 0)
      steps.emplace_back(d.kernel, &d.evaluated[d.chosen]);
  std::string text = "// The schedule ks-agent-driver chose (measure=" + mode.str() + ", " +
                     run.sku +
                     "): apply to the lifted module with\n//   ks-opt IN.mlir "
                     "--transform-preload-library=\"transform-library-paths=THIS\" "
                     "--transform-interpreter --canonicalize --cse\n";
  llvm::raw_string_ostream os(text);
  buildScript(&getContext(), steps, /*raise=*/true)->print(os);
  os << "\n";
  for (const KernelDecision &d : decisions)
    if (d.restoredOriginal)
      text += "// @" + d.kernel + " came back as the lifted original (measured: nothing was "
              "faster); this script raises it and leaves it to the lowering.\n";
  return success(search.writeFile(schedule, text));
}

void AgentDriver::runOnOperation() {
  ModuleOp module = getOperation();
  std::string error;
  FailureOr<llvm::StringMap<int64_t>> workloadValues = parseWorkloadOption(workload, error);
  if (failed(workloadValues)) {
    emitError(module.getLoc()) << "ks-agent-driver: " << error;
    return signalPassFailure();
  }
  if (failed(checkOptions(module)))
    return signalPassFailure();
  RunContext run;
  run.workloadValues = std::move(*workloadValues);
  if (failed(checkKernelNames(module, kernels, "ks-agent-driver")) ||
      failed(checkWorkloadNames(module, run.workloadValues)))
    return signalPassFailure();
  OwningOpRef<ModuleOp> fromFile;
  std::string mode, modeNote;
  bool removeEmulateDir = false, removeWorkDir = false;
  if (failed(prepareRun(module, run, fromFile, mode, modeNote)) ||
      failed(prepareDirectories(module, run, removeEmulateDir, removeWorkDir)))
    return signalPassFailure();

  KernelSearch search(currentOptions(), module);
  SmallVector<gpu::GPUFuncOp> toDecide;
  module.walk([&](gpu::GPUFuncOp k) {
    if (k.isKernel())
      toDecide.push_back(k);
  });
  std::vector<KernelDecision> decisions;
  for (gpu::GPUFuncOp kernel : toDecide) {
    KernelDecision &d = decisions.emplace_back();
    Location loc = kernel.getLoc(); // the kernel may be replaced by its original
    search.decide(kernel, d, run);
    // Unmeasured, the other objectives are ranked as latency is: say so.
    if (objective != Objective::Latency && d.measuredBeforeMs <= 0 && d.changed)
      d.decision += objective == Objective::Throughput
                        ? "; objective=throughput ranked by the latency model: it has no term "
                          "for concurrent launches (measure=cuda times them)"
                        : "; objective=energy ranked by the latency model: it has no energy "
                          "term (measure=cuda reads the GPU's energy counter)";
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
  bool written = succeeded(writeOutputs(search, run, mode, decisions));
  if (removeWorkDir)
    llvm::sys::fs::remove_directories(run.workDir);
  if (removeEmulateDir)
    llvm::sys::fs::remove_directories(run.emulateDir);
  if (!written || search.passFailed)
    signalPassFailure();
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
