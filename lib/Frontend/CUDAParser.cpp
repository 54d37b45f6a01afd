//===- CUDAParser.cpp - Parse CUDA C++ with clang -------------------------===//

#include "CUDAParser.h"
#include "kernelskill/Config.h"

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

using namespace mlir::ks;

namespace {
/// Prints errors as "file:line:col: error: message", the form the rest of
/// KernelSkill's diagnostics take, and counts them.
class ErrorPrinter : public clang::DiagnosticConsumer {
public:
  explicit ErrorPrinter(llvm::raw_ostream &os) : os(os) {}
  void HandleDiagnostic(clang::DiagnosticsEngine::Level level,
                        const clang::Diagnostic &info) override {
    DiagnosticConsumer::HandleDiagnostic(level, info);
    if (level < clang::DiagnosticsEngine::Error)
      return;
    llvm::SmallString<256> message;
    info.FormatDiagnostic(message);
    if (info.hasSourceManager() && info.getLocation().isValid()) {
      clang::PresumedLoc loc = info.getSourceManager().getPresumedLoc(info.getLocation());
      if (loc.isValid())
        os << loc.getFilename() << ":" << loc.getLine() << ":" << loc.getColumn() << ": ";
    }
    os << "error: " << message << "\n";
  }

private:
  llvm::raw_ostream &os;
};
} // namespace

std::unique_ptr<clang::ASTUnit> mlir::ks::parseCUDA(const std::string &path,
                                                    const std::string &gpuArch,
                                                    const std::vector<std::string> &extraArgs,
                                                    llvm::raw_ostream &diagnostics) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!buffer) {
    diagnostics << path << ": error: cannot read the file: " << buffer.getError().message()
                << "\n";
    return nullptr;
  }
  // Cooperative groups need CUDA's C++ library headers, which clang does not
  // find; say what the construct is instead of clang's missing-file error.
  llvm::StringRef text = (*buffer)->getBuffer();
  size_t lineNo = 1;
  for (llvm::StringRef rest = text; !rest.empty();) {
    auto [line, tail] = rest.split('\n');
    if (line.ltrim().starts_with("#") && line.contains("include") &&
        line.contains("cooperative_groups")) {
      diagnostics << path << ":" << lineNo << ":" << (line.size() - line.ltrim().size() + 1)
                  << ": error: cooperative groups (cooperative_groups.h) are outside the "
                     "supported subset\n";
      return nullptr;
    }
    rest = tail;
    ++lineNo;
  }
  std::vector<std::string> args = {"-x", "cuda", "--cuda-device-only",
                                   "--cuda-gpu-arch=" + gpuArch, "-std=c++17",
                                   "-Wno-unknown-cuda-version", "-fsyntax-only",
                                   "-resource-dir=" KS_CLANG_RESOURCE_DIR};
  std::string toolkit = KS_CUDA_TOOLKIT_DIR;
  if (!toolkit.empty() && llvm::sys::fs::exists(toolkit + "/include/cuda.h"))
    args.push_back("--cuda-path=" + toolkit);
  else
    args.insert(args.end(), {"-nocudainc", "-nocudalib"});
  args.insert(args.end(), extraArgs.begin(), extraArgs.end());
  ErrorPrinter printer(diagnostics);
  std::unique_ptr<clang::ASTUnit> unit = clang::tooling::buildASTFromCodeWithArgs(
      (*buffer)->getBuffer(), args, path, "ks-translate",
      std::make_shared<clang::PCHContainerOperations>(),
      clang::tooling::getClangStripDependencyFileAdjuster(), clang::tooling::FileContentMappings(),
      &printer);
  if (!unit || printer.getNumErrors() > 0)
    return nullptr;
  return unit;
}
