//===- ks-translate.cpp - CUDA C++ <-> MLIR -------------------------------===//
//
//   ks-translate --import-cuda kernel.cu [-o kernel.mlir] [--pch-dir DIR | --no-pch]
//                [-- extra clang args]
//   ks-translate --export-cuda kernel.mlir [-o kernel.cu]
//
// Imports the __global__ kernels and launchers of a CUDA file into lifted
// MLIR, and writes lifted MLIR back as CUDA C++ (docs/Frontend.md). Errors
// are "file:line:col: error: ..."; on error nothing is written and the exit
// code is 1.
//
//===----------------------------------------------------------------------===//

#include "kernelskill/Config.h"
#include "kernelskill/Dialect/KS/IR/KSDialect.h"
#include "kernelskill/Frontend/CUDAImporter.h"
#include "kernelskill/Target/CUDAEmitter.h"
#include "kernelskill/Target/LaunchSpec.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Parser/Parser.h"

#include "mlir/IR/Diagnostics.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
namespace cl = llvm::cl;

/// ks-translate's own options: --help lists these, not the hundreds LLVM's
/// libraries register (targets, passes).
static cl::OptionCategory translateCategory("ks-translate options");

static cl::opt<std::string> importCuda("import-cuda", cl::desc("CUDA C++ file to import"),
                                       cl::value_desc("FILE.cu"), cl::cat(translateCategory));
static cl::opt<std::string> exportCuda("export-cuda",
                                       cl::desc("MLIR file (lifted form) to write as CUDA C++"),
                                       cl::value_desc("FILE.mlir"), cl::cat(translateCategory));
static cl::opt<std::string> output("o", cl::desc("Output file (default: stdout)"),
                                   cl::value_desc("FILE"), cl::init("-"), cl::cat(translateCategory));
static cl::opt<std::string> manifest("manifest",
                                     cl::desc("With --export-cuda: also write the launch "
                                              "manifest (JSON) of each launcher to FILE"),
                                     cl::value_desc("FILE"), cl::cat(translateCategory));
static cl::opt<std::string> gpuArch("gpu-arch", cl::desc("GPU architecture clang parses for"),
                                    cl::init("sm_90"), cl::cat(translateCategory));
static cl::opt<bool> noStructure("no-structure",
                                 cl::desc("Keep the raw control-flow graph (no mem2reg, no "
                                          "lifting to scf): for debugging the importer"), cl::cat(translateCategory));
static cl::opt<bool> noLocations("no-locations",
                                 cl::desc("Do not print source locations"), cl::cat(translateCategory));
static cl::opt<std::string> pchDir(
    "pch-dir",
    cl::desc("With --import-cuda: precompile CUDA's headers into DIR to speed up later imports "
             "(default: $KS_PCH_DIR, else $XDG_CACHE_HOME/kernelskill/pch, else "
             "~/.cache/kernelskill/pch). A DIR that cannot be written only turns the PCH off"),
    cl::value_desc("DIR"), cl::cat(translateCategory));
static cl::opt<std::string> buildDir(
    "p",
    cl::desc("With --import-cuda: read the file's include paths, macros and -std from "
             "DIR/compile_commands.json (as clang tools do); arguments after -- come after them"),
    cl::value_desc("DIR"), cl::cat(translateCategory));
static cl::list<std::string> kernelNames(
    "kernel",
    cl::desc("With --import-cuda: lift only this kernel (repeatable; a template's name selects "
             "its instantiations) and the launchers that launch it"),
    cl::value_desc("NAME"), cl::cat(translateCategory));
static cl::opt<bool> verifyDiagnostics(
    "verify-diagnostics",
    cl::desc("Check the errors against the input's `expected-error {{...}}` comments, as "
             "mlir-opt does (for tests); the exit code says whether they matched"),
    cl::cat(translateCategory));
static cl::opt<bool> noPCH("no-pch", cl::desc("With --import-cuda: do not use or write a "
                                              "precompiled header (as KS_NO_PCH=1 does)"), cl::cat(translateCategory));

static int run(MLIRContext &context, llvm::SourceMgr &sourceMgr,
               const std::vector<std::string> &clangArgs);

/// The flags of `file`'s entry in DIR/compile_commands.json that mean the
/// same to clang parsing device code: include paths, macros, forced
/// includes, the language standard. The rest (nvcc's code generation
/// options, -o, -c, the host compiler's flags) are not the parse's.
static FailureOr<std::vector<std::string>>
flagsFromCompilationDatabase(MLIRContext &context, llvm::StringRef dir, llvm::StringRef file) {
  std::string message;
  std::unique_ptr<clang::tooling::CompilationDatabase> db =
      clang::tooling::CompilationDatabase::loadFromDirectory(dir, message);
  Location where = FileLineColLoc::get(&context, file, 0, 0);
  if (!db)
    return emitError(where) << "-p " << dir << ": " << message, failure();
  llvm::SmallString<256> absolute(file);
  llvm::sys::fs::make_absolute(absolute);
  std::vector<clang::tooling::CompileCommand> commands = db->getCompileCommands(absolute);
  if (commands.empty())
    return emitError(where) << "-p " << dir << ": compile_commands.json has no entry for '"
                            << absolute << "'",
           failure();
  const clang::tooling::CompileCommand &command = commands.front();
  std::vector<std::string> flags;
  const std::vector<std::string> &args = command.CommandLine;
  static const llvm::StringRef withValue[] = {"-I", "-isystem", "-D", "-U", "-include"};
  for (size_t i = 1; i < args.size(); ++i) {
    llvm::StringRef arg = args[i];
    bool taken = false;
    for (llvm::StringRef flag : withValue) {
      if (arg == flag && i + 1 < args.size()) {
        // A relative include path is relative to the command's directory.
        std::string value = args[++i];
        if ((flag == "-I" || flag == "-isystem") && !llvm::sys::path::is_absolute(value))
          value = (command.Directory + "/" + value);
        flags.insert(flags.end(), {arg.str(), value});
        taken = true;
        break;
      }
      if (arg.starts_with(flag) && arg.size() > flag.size() && flag.size() == 2) {
        std::string value = arg.drop_front(2).str();
        if (flag == "-I" && !llvm::sys::path::is_absolute(value))
          value = command.Directory + "/" + value;
        flags.push_back(flag.str() + value);
        taken = true;
        break;
      }
    }
    if (!taken && (arg.starts_with("-std=") || arg.starts_with("--std=")))
      flags.push_back(arg.starts_with("--") ? arg.drop_front(1).str() : arg.str());
  }
  return flags;
}

/// Writes `text` to `path` ("-" for stdout); false after printing why not.
static bool writeFile(llvm::StringRef path, llvm::StringRef text) {
  std::string message;
  std::unique_ptr<llvm::ToolOutputFile> file = openOutputFile(path, &message);
  if (!file) {
    llvm::errs() << "ks-translate: error: " << message << "\n";
    return false;
  }
  file->os() << text;
  file->keep();
  return true;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::AddExtraVersionPrinter([](llvm::raw_ostream &os) {
    os << "KernelSkill ks-translate " KS_VERSION_STRING " (LLVM/MLIR/clang " LLVM_VERSION_STRING ")\n";
  });
  // Everything after `--` goes to clang untouched (-I, -D, -std=, ...): split
  // it off before LLVM's parser, which would take it for its own options.
  std::vector<const char *> ownArgs;
  std::vector<std::string> clangArgs;
  bool afterDashDash = false;
  for (int i = 0; i < argc; ++i) {
    if (!afterDashDash && i > 0 && llvm::StringRef(argv[i]) == "--")
      afterDashDash = true;
    else if (afterDashDash)
      clangArgs.push_back(argv[i]);
    else
      ownArgs.push_back(argv[i]);
  }
  cl::HideUnrelatedOptions(translateCategory);
  cl::ParseCommandLineOptions(int(ownArgs.size()), ownArgs.data(),
                              "KernelSkill CUDA C++ <-> MLIR translator\n\n"
                              "  ks-translate --import-cuda FILE.cu [-o FILE.mlir] [-- CLANG ARGS]\n"
                              "  ks-translate --export-cuda FILE.mlir [-o FILE.cu] "
                              "[--manifest FILE.json]\n");
  if (importCuda.empty() == exportCuda.empty()) {
    llvm::errs() << "ks-translate: error: " << (importCuda.empty() ? "nothing to do" : "one at a time")
                 << ": give --import-cuda FILE.cu or --export-cuda FILE.mlir\n";
    return 2;
  }
  MLIRContext context;
  context.loadDialect<ks::KSDialect>();
  // Errors are MLIR diagnostics at source locations: printed with the
  // source line, or checked against the input's expected-* comments.
  llvm::SourceMgr sourceMgr;
  std::string input = importCuda.empty() ? exportCuda : importCuda;
  if (std::unique_ptr<llvm::MemoryBuffer> file = openInputFile(input))
    sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  std::optional<SourceMgrDiagnosticVerifierHandler> verifier;
  std::optional<SourceMgrDiagnosticHandler> printer;
  if (verifyDiagnostics)
    verifier.emplace(sourceMgr, &context);
  else
    printer.emplace(sourceMgr, &context);
  int rc = run(context, sourceMgr, clangArgs);
  if (verifier)
    return failed(verifier->verify()) ? 1 : 0;
  return rc;
}

/// The translation itself; its errors go through `context`'s diagnostics.
static int run(MLIRContext &context, llvm::SourceMgr &sourceMgr,
               const std::vector<std::string> &clangArgs) {
  if (!exportCuda.empty()) {
    DialectRegistry registry;
    // Lifted kernels, and what the raising and the schedules add (views,
    // linalg on tensors, cp.async).
    registry.insert<arith::ArithDialect, bufferization::BufferizationDialect,
                    cf::ControlFlowDialect, func::FuncDialect, gpu::GPUDialect,
                    linalg::LinalgDialect, math::MathDialect, memref::MemRefDialect,
                    NVVM::NVVMDialect, nvgpu::NVGPUDialect, scf::SCFDialect,
                    tensor::TensorDialect, ub::UBDialect, vector::VectorDialect, ks::KSDialect>();
    context.appendDialectRegistry(registry);
    OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
    if (!module)
      return 1;
    std::string text;
    llvm::raw_string_ostream buffer(text);
    if (failed(ks::emitCUDA(*module, buffer)))
      return 1;
    // Everything is computed before anything is written: an error leaves no file.
    std::string specs;
    if (!manifest.empty()) {
      // One launch spec per launcher, as ks-bench reads them (docs/Runtime.md).
      specs = "[\n";
      bool first = true;
      WalkResult walk = module->walk([&](gpu::LaunchFuncOp launch) {
        auto launcher = launch->getParentOfType<func::FuncOp>();
        FailureOr<std::string> spec =
            launcher ? ks::buildLaunchSpec(launch, launcher, /*requireExtents=*/false)
                     : FailureOr<std::string>(failure());
        if (failed(spec))
          return WalkResult::interrupt();
        specs += (first ? "" : ",\n") + *spec;
        first = false;
        return WalkResult::advance();
      });
      if (walk.wasInterrupted())
        return 1;
      specs += "\n]\n";
    }
    if (!writeFile(output, text) || (!manifest.empty() && !writeFile(manifest, specs)))
      return 1;
    return 0;
  }
  ks::CUDAImportOptions options;
  options.gpuArch = gpuArch;
  if (!buildDir.empty()) {
    FailureOr<std::vector<std::string>> flags = flagsFromCompilationDatabase(context, buildDir, importCuda);
    if (failed(flags))
      return 1;
    options.extraArgs = *flags;
  }
  options.extraArgs.insert(options.extraArgs.end(), clangArgs.begin(), clangArgs.end());
  options.kernels.assign(kernelNames.begin(), kernelNames.end());
  options.structure = !noStructure;
  // --no-pch wins over --pch-dir, which wins over the environment's default.
  options.pchDir = noPCH ? "" : pchDir.getNumOccurrences() ? pchDir : ks::getDefaultPCHDirectory();
  OwningOpRef<ModuleOp> module = ks::importCUDA(context, importCuda, options);
  if (!module)
    return 1;
  OpPrintingFlags flags;
  if (!noLocations)
    flags.enableDebugInfo(/*enable=*/true, /*prettyForm=*/false);
  std::string text;
  llvm::raw_string_ostream os(text);
  module->print(os, flags);
  os << "\n";
  return writeFile(output, text) ? 0 : 1;
}
