//===- ks-translate.cpp - CUDA C++ <-> MLIR -------------------------------===//
//
//   ks-translate --import-cuda kernel.cu [-o kernel.mlir] [-- extra clang args]
//
// Imports the __global__ kernels of a CUDA file into lifted MLIR (docs/
// Frontend.md). Errors are "file:line:col: error: ..."; on error nothing is
// written and the exit code is 1.
//
//===----------------------------------------------------------------------===//

#include "kernelskill/Config.h"
#include "kernelskill/Dialect/KS/IR/KSDialect.h"
#include "kernelskill/Frontend/CUDAImporter.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
namespace cl = llvm::cl;

static cl::opt<std::string> importCuda("import-cuda", cl::desc("CUDA C++ file to import"),
                                       cl::value_desc("FILE.cu"));
static cl::opt<std::string> output("o", cl::desc("Output file (default: stdout)"),
                                   cl::value_desc("FILE"), cl::init("-"));
static cl::opt<std::string> gpuArch("gpu-arch", cl::desc("GPU architecture clang parses for"),
                                    cl::init("sm_90"));
static cl::opt<bool> noStructure("no-structure",
                                 cl::desc("Keep the raw control-flow graph (no mem2reg, no "
                                          "lifting to scf): for debugging the importer"));
static cl::opt<bool> noLocations("no-locations",
                                 cl::desc("Do not print source locations"));
static cl::list<std::string> clangArgs(cl::ConsumeAfter,
                                       cl::desc("[-- extra clang arguments]"));

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::AddExtraVersionPrinter([](llvm::raw_ostream &os) {
    os << "KernelSkill ks-translate " KS_VERSION_STRING " (LLVM/MLIR/clang " LLVM_VERSION_STRING ")\n";
  });
  cl::ParseCommandLineOptions(argc, argv, "KernelSkill CUDA C++ <-> MLIR translator\n");
  if (importCuda.empty()) {
    llvm::errs() << "ks-translate: error: nothing to do: give --import-cuda FILE.cu\n";
    return 2;
  }
  MLIRContext context;
  context.loadDialect<ks::KSDialect>();
  ks::CUDAImportOptions options;
  options.gpuArch = gpuArch;
  options.extraArgs.assign(clangArgs.begin(), clangArgs.end());
  options.structure = !noStructure;
  OwningOpRef<ModuleOp> module = ks::importCUDA(context, importCuda, options, llvm::errs());
  if (!module)
    return 1;
  std::string message;
  std::unique_ptr<llvm::ToolOutputFile> file = openOutputFile(output, &message);
  if (!file) {
    llvm::errs() << "ks-translate: error: " << message << "\n";
    return 1;
  }
  OpPrintingFlags flags;
  if (!noLocations)
    flags.enableDebugInfo(/*enable=*/true, /*prettyForm=*/false);
  module->print(file->os(), flags);
  file->keep();
  return 0;
}
