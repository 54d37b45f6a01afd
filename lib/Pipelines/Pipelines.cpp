//===- Pipelines.cpp - The named KernelSkill pipelines --------------------===//

#include "kernelskill/Pipelines/Pipelines.h"
#include "kernelskill/Agents/Passes.h"
#include "kernelskill/Analysis/LaunchContext.h"
#include "kernelskill/Support/ArchDatabase.h"
#include "kernelskill/Target/Lowering.h"
#include "kernelskill/Target/Passes.h"
#include "kernelskill/Transforms/Passes.h"

#include "mlir/Pass/PassRegistry.h"

using namespace mlir;
using namespace mlir::ks;

namespace {
/// The options both pipelines share, checked.
struct TargetChoice {
  std::string chip;
};

/// Resolves gpu=/chip= to a compilation target, or reports why it cannot.
FailureOr<TargetChoice> resolveTarget(StringRef gpu, StringRef chip, StringRef format,
                                      StringRef printArch,
                                      function_ref<LogicalResult(const Twine &)> error) {
  if (format != "ptx" && format != "cubin")
    return error("unknown format='" + format + "'; valid choices: ptx, cubin");
  if (printArch != "none" && printArch != "text" && printArch != "json")
    return error("unknown print-arch='" + printArch + "'; valid choices: none, text, json");
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
  return TargetChoice{entry ? entry->chip : "sm_90"};
}

} // namespace

LogicalResult mlir::ks::buildLowerPipeline(OpPassManager &pm, const LowerPipelineOptions &options,
                                           function_ref<LogicalResult(const Twine &)> error) {
  FailureOr<TargetChoice> target =
      resolveTarget(options.gpu, options.chip, options.format, "none", error);
  if (failed(target))
    return failure();
  addKernelLowering(pm, target->chip, options.format, options.ptx, options.optLevel);
  return success();
}

LogicalResult
mlir::ks::buildKernelSkillPipeline(OpPassManager &pm, const KernelSkillPipelineOptions &options,
                                   function_ref<LogicalResult(const Twine &)> error) {
  FailureOr<TargetChoice> target =
      resolveTarget(options.gpu, options.chip, options.format, options.printArch, error);
  if (failed(target))
    return failure();
  KSArchProfilerOptions arch;
  arch.gpu = options.gpu;
  arch.chip = options.chip;
  arch.print = options.printArch;
  pm.addPass(createKSArchProfiler(arch));
  if (options.printDiagnosis != "none" && options.printDiagnosis != "text" &&
      options.printDiagnosis != "json")
    return error("unknown print-diagnosis='" + options.printDiagnosis +
                 "'; valid choices: none, text, json");
  std::string workloadError;
  if (failed(parseWorkloadOption(options.workload, workloadError)))
    return error(workloadError);
  KSPerfProfilerOptions profiler;
  profiler.format = options.printDiagnosis;
  profiler.workload = options.workload;
  pm.addPass(createKSPerfProfiler(profiler));
  // Later agents (memory/compute/resource agents, driver) go here.
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

void mlir::ks::registerKernelSkillPipelines() {
  registerPipeline<LowerPipelineOptions>(
      "kernelskill-lower",
      "Lower a kernel as it is (no optimization) to a gpu.binary holding PTX (or cubin): the "
      "baseline every optimization is compared with",
      buildLowerPipeline);
  registerPipeline<KernelSkillPipelineOptions>(
      "kernelskill-pipeline",
      "Run the KernelSkill agents (now: the architecture and performance profilers), then "
      "lower to PTX",
      buildKernelSkillPipeline);
}
