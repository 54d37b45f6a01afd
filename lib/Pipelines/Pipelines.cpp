//===- Pipelines.cpp - The named KernelSkill pipelines --------------------===//

#include "kernelskill/Pipelines/Pipelines.h"
#include "kernelskill/Agents/Passes.h"
#include "kernelskill/Driver/Passes.h"
#include "kernelskill/Analysis/LaunchContext.h"
#include "kernelskill/Support/ArchDatabase.h"
#include "kernelskill/Target/Lowering.h"
#include "kernelskill/Target/PTXAS.h"
#include "kernelskill/Target/Passes.h"
#include "kernelskill/Transforms/ImportStructuring.h"
#include "kernelskill/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Transform/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/FileSystem.h"

using namespace mlir;
using namespace mlir::ks;

namespace {
/// The options both pipelines share, checked.
struct TargetChoice {
  std::string chip;
};

/// Resolves gpu=/chip= to a compilation target, or reports why it cannot.
FailureOr<TargetChoice> resolveTarget(StringRef gpu, StringRef chip,
                                      function_ref<LogicalResult(const Twine &)> error) {
  if (!chip.empty() && !isKnownChip(chip))
    return error("unknown chip '" + chip + "'; valid chips: " + joinKnownChips());
  const ArchEntry *entry = gpu.empty() ? nullptr : lookupGPU(gpu);
  if (!gpu.empty() && !entry)
    return error("unknown GPU '" + gpu + "'; valid GPUs: " + joinKnownGPUs());
  if (entry && !chip.empty() && getBaseChip(chip) != entry->chip)
    return error("chip '" + chip + "' does not match GPU '" + entry->key + "', which is " +
                 entry->chip);
  if (!chip.empty())
    return TargetChoice{chip.str()};
  return TargetChoice{entry ? entry->chip : getDefaultGPU().chip};
}

} // namespace

LogicalResult mlir::ks::buildLowerPipeline(OpPassManager &pm, const LowerPipelineOptions &options,
                                           function_ref<LogicalResult(const Twine &)> error) {
  FailureOr<TargetChoice> target = resolveTarget(options.gpu, options.chip, error);
  if (failed(target))
    return failure();
  addKernelLowering(pm, target->chip, options.format, options.ptx, options.optLevel);
  return success();
}

LogicalResult
mlir::ks::buildKernelSkillPipeline(OpPassManager &pm, const KernelSkillPipelineOptions &options,
                                   function_ref<LogicalResult(const Twine &)> error) {
  FailureOr<TargetChoice> target = resolveTarget(options.gpu, options.chip, error);
  if (failed(target))
    return failure();
  KSArchProfilerOptions arch;
  arch.gpu = options.gpu;
  arch.chip = options.chip;
  arch.print = options.printArch;
  arch.report = options.archReport;
  pm.addPass(createKSArchProfiler(arch));
  // Before everything that reads the launch: the profiler, the original
  // kept for verification (measured against through the same launcher).
  // Only for the kernels the driver optimizes: the others come back as
  // they were lifted, without a launcher the source never had.
  if (options.synthesizeLaunchers) {
    KSSynthesizeLaunchersOptions synthesize;
    synthesize.kernels.assign(options.kernels.begin(), options.kernels.end());
    pm.addPass(createKSSynthesizeLaunchers(synthesize));
  }
  std::string workloadError;
  if (failed(parseWorkloadOption(options.workload, workloadError)))
    return error(workloadError);
  // ptxas's figures for the binary this pipeline ships: the same chip and
  // optimization level as the lowering below. Only where ptxas is asked for
  // (ptxas=auto or a path) or the driver measures: a static run is hermetic,
  // its output a function of its input and options alone (issue 40).
  bool measuring = options.optimize && options.measure != MeasureMode::Static;
  if (ptxasRequested(options.ptxas, measuring)) {
    KSCollectResourcesOptions resources;
    resources.chip = target->chip;
    resources.optLevel = options.optLevel;
    resources.ptxas = options.ptxas == "auto" ? "" : options.ptxas.getValue();
    pm.addPass(createKSCollectResources(resources));
  }
  KSPerfProfilerOptions profiler;
  profiler.format = options.printDiagnosis;
  profiler.report = options.diagnosisReport;
  profiler.workload = options.workload;
  pm.addPass(createKSPerfProfiler(profiler));
  if (options.optimize && !options.tuningSpec.empty()) {
    // A tuning spec: the schedules an earlier search chose (its schedule=
    // file, a transform library whose entry point raises the lifted module
    // and applies each kernel's schedule), replayed by upstream's
    // transform interpreter; the same IR that search produced, without it.
    if (!llvm::sys::fs::exists(options.tuningSpec.getValue()))
      return error("tuning-spec: cannot read '" + options.tuningSpec + "'");
    if (options.measure == MeasureMode::Cuda)
      return error("tuning-spec= applies schedules chosen earlier, measure=cuda searches "
                   "again: give one of them");
    transform::PreloadLibraryPassOptions library;
    library.transformLibraryPaths.push_back(options.tuningSpec);
    pm.addPass(transform::createPreloadLibraryPass(library));
    pm.addPass(transform::createInterpreterPass());
    pm.addPass(createCanonicalizerPass());
    pm.addPass(createCSEPass());
  } else if (options.optimize) {
    // The agents decide on the raised kernels (the diagnosis survives the
    // raising); the driver applies what it chose. Measuring, it verifies
    // against the lifted module and may give a kernel back as it was.
    // The lifted module, kept for the driver: it verifies candidates
    // against it and gives a kernel back as it was when nothing is
    // verified faster (statically: predicted faster by a margin).
    auto original = std::make_shared<OriginalModule>();
    pm.addPass(createKeepOriginalPass(original));
    buildRaisePipeline(pm);
    KSMemoryAgentOptions memory;
    memory.workload = options.workload;
    pm.addPass(createKSMemoryAgent(memory));
    KSComputeAgentOptions compute;
    compute.workload = options.workload;
    pm.addPass(createKSComputeAgent(compute));
    KSResourceAgentOptions resource;
    resource.workload = options.workload;
    pm.addPass(createKSResourceAgent(resource));
    KSAgentDriverOptions driver;
    driver.measure = options.measure;
    driver.budget = options.budget;
    driver.searchSeconds = options.searchSeconds;
    driver.screen = options.screen;
    driver.refine = options.refine;
    driver.target = options.target;
    driver.objective = options.objective;
    driver.maxRegisters = options.maxRegisters;
    driver.maxShared = options.maxShared;
    driver.minOccupancy = options.minOccupancy;
    driver.optLevel = options.optLevel;
    driver.workload = options.workload;
    driver.db = options.db;
    driver.transcript = options.transcript;
    driver.schedule = options.schedule;
    driver.explain = options.explain;
    driver.bench = options.bench;
    driver.ptxas = options.ptxas;
    driver.reps = options.reps;
    driver.timeout = options.timeout;
    driver.workdir = options.workdir;
    driver.precision = options.precision;
    driver.verify = options.verify;
    driver.emulator = options.emulator;
    driver.staticMargin = options.staticMargin;
    driver.kernels.assign(options.kernels.begin(), options.kernels.end());
    driver.search = options.search;
    driver.searchSeed = options.searchSeed;
    driver.agents.assign(options.agents.begin(), options.agents.end());
    pm.addPass(createKSAgentDriver(driver, original));
    pm.addPass(createCanonicalizerPass());
    pm.addPass(createCSEPass());
  }
  if (!options.lower)
    return success();
  addKernelLowering(pm, target->chip, options.format, options.ptx, options.optLevel);
  return success();
}

template <typename Options, typename Builder>
static void registerPipeline(StringRef name, StringRef description, Builder build) {
  registerPassPipeline(
      name, description,
      [build](OpPassManager &pm, StringRef text,
              function_ref<LogicalResult(const Twine &)> errorHandler) -> LogicalResult {
        Options options;
        if (failed(options.parseFromString(text)))
          return failure();
        return build(pm, options, errorHandler);
      },
      [](function_ref<void(const detail::PassOptions &)> optHandler) { optHandler(Options()); });
}

void mlir::ks::buildRaisePipeline(OpPassManager &pm) {
  // While the subscripts are still the source's.
  pm.addPass(createKSMarkInt32Offsets());
  pm.addPass(createKSRaiseCountedLoops());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createKSRaiseUnrolledGuards());
  pm.addPass(createKSMergeNestedGuards());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createKSRaiseIterationSpace());
  // Bounds and strides computed inside the guarded work become invariant
  // of the new loop: hoist them so the views can be built before it.
  pm.addPass(createLoopInvariantCodeMotionPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createKSRaiseStridedViews());
  pm.addPass(createLoopInvariantCodeMotionPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createKSPromoteAccumulators());
  pm.addPass(createKSRaiseContractions());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
}

void mlir::ks::registerKernelSkillPipelines() {
  PassPipelineRegistration<>(
      "ks-raise",
      "Raise lifted SIMT kernels to structured IR where provable (docs/Raising.md): counted "
      "loops, the iteration space, strided views, contractions to linalg; each step leaves a "
      "remark where it refuses",
      buildRaisePipeline);
  PassPipelineRegistration<>(
      "ks-structure-import",
      "Turn the importer's raw form (ks-translate --import-cuda --no-structure: control-flow "
      "graphs, one slot per C variable) into the lifted form: mem2reg, then scf",
      buildImportStructuringPipeline);
  registerPipeline<LowerPipelineOptions>(
      "kernelskill-lower",
      "Lower a kernel as it is (no optimization) to a gpu.binary holding PTX (or cubin): the "
      "baseline every optimization is compared with",
      buildLowerPipeline);
  registerPipeline<KernelSkillPipelineOptions>(
      "kernelskill-pipeline",
      "Run the KernelSkill agents (architecture and performance profilers, raising, memory/"
      "compute/resource agents, the negotiating driver), then lower to PTX",
      buildKernelSkillPipeline);
}
