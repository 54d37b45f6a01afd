//===- ks-opt.cpp - The KernelSkill optimizer driver ----------------------===//
//
// mlir-opt with every upstream dialect, pass, extension and LLVM/NVVM
// translation (so gpu-module-to-binary works), plus the ks dialect, passes and
// the two named pipelines.
//
//===----------------------------------------------------------------------===//

#include "kernelskill/Agents/Passes.h"
#include "kernelskill/Analysis/Passes.h"
#include "kernelskill/Config.h"
#include "kernelskill/Dialect/KS/IR/KSDialect.h"
#include "kernelskill/Dialect/KS/TransformOps/KSTransformOps.h"
#include "kernelskill/Driver/Passes.h"
#include "kernelskill/Pipelines/Pipelines.h"
#include "kernelskill/Target/Passes.h"
#include "kernelskill/Transforms/Passes.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

#include <vector>

/// --help's first lines: KernelSkill's own entry points, before MLIR's.
static const char kOverview[] =
    "KernelSkill optimizer driver (mlir-opt with the ks dialect, passes and pipelines)\n\n"
    "KernelSkill's pipelines (docs/UserGuide.md):\n"
    "  --kernelskill-pipeline   profile, raise, let the agents propose and the driver decide, lower\n"
    "  --kernelskill-lower      lower a kernel as it is to PTX or a cubin\n"
    "  --ks-raise               raise lifted SIMT kernels to structured IR where provable\n"
    "  --ks-structure-import    the importer's raw form (--no-structure) to the lifted form\n"
    "KernelSkill's passes are the --ks-* entries of the pass list below\n"
    "(agents: --ks-arch-profiler, --ks-perf-profiler, --ks-memory-agent, --ks-compute-agent,\n"
    "--ks-resource-agent, --ks-agent-driver).\n";

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  mlir::ks::registerKSAgentsPasses();
  mlir::ks::registerKSAnalysisPasses();
  mlir::ks::registerKSDriverPasses();
  mlir::ks::registerKSTransformsPasses();
  mlir::ks::registerKSTargetPasses();
  mlir::ks::registerKernelSkillPipelines();

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::registerAllToLLVMIRTranslations(registry);
  registry.insert<mlir::ks::KSDialect>();
  mlir::ks::registerKSTransformOps(registry);

  llvm::cl::AddExtraVersionPrinter([](llvm::raw_ostream &os) {
    os << "KernelSkill ks-opt " KS_VERSION_STRING " (built against LLVM/MLIR " LLVM_VERSION_STRING
          "; CUDA toolkit "
       << (KS_HAVE_CUDA_TOOLKIT ? "found: " KS_CUDA_TOOLKIT_DIR : "not found") << ")\n";
  });
  // What is registered before MlirOptMain registers its own options is
  // LLVM's libraries' (AArch64, AMDGPU, X86, IR2Vec, Polly ...): hidden, as
  // clang tools hide unrelated categories. --help-hidden still lists them;
  // --version and --help stay.
  for (auto &[name, option] : llvm::cl::getRegisteredOptions())
    if (!llvm::is_contained({"help", "help-hidden", "help-list", "help-list-hidden", "version"},
                            name))
      option->setHiddenFlag(llvm::cl::Hidden);
  // A remark or error says what and where in one line; the op it concerns,
  // with every attribute, is printed only when asked for
  // (--mlir-print-op-on-diagnostic, mlir-opt's default): one refusal per
  // kernel used to fill the terminal with IR.
  std::vector<char *> args(argv, argv + argc);
  static char quiet[] = "--mlir-print-op-on-diagnostic=false";
  if (llvm::none_of(args, [](const char *a) {
        return llvm::StringRef(a).starts_with("--mlir-print-op-on-diagnostic") ||
               llvm::StringRef(a).starts_with("-mlir-print-op-on-diagnostic");
      }))
    args.insert(args.begin() + 1, quiet);
  int count = int(args.size());
  args.push_back(nullptr); // argv[argc], as main's
  return mlir::asMainReturnCode(mlir::MlirOptMain(count, args.data(), kOverview, registry));
}
