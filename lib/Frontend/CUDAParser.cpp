//===- CUDAParser.cpp - Parse CUDA C++ with clang -------------------------===//

#include "CUDAParser.h"
#include "kernelskill/Frontend/CUDAImporter.h"
#include "kernelskill/Config.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/xxhash.h"

using namespace mlir;
using namespace mlir::ks;

namespace {
/// Reports clang's errors as MLIR errors at the same source locations (the
/// form every KernelSkill diagnostic takes), and counts them. With `quiet`
/// only counts.
class ErrorForwarder : public clang::DiagnosticConsumer {
public:
  ErrorForwarder(mlir::MLIRContext &context, bool quiet) : context(context), quiet(quiet) {}
  void HandleDiagnostic(clang::DiagnosticsEngine::Level level,
                        const clang::Diagnostic &info) override {
    DiagnosticConsumer::HandleDiagnostic(level, info);
    if (level < clang::DiagnosticsEngine::Error || quiet)
      return;
    llvm::SmallString<256> message;
    info.FormatDiagnostic(message);
    mlir::Location loc = mlir::UnknownLoc::get(&context);
    if (info.hasSourceManager() && info.getLocation().isValid()) {
      clang::PresumedLoc p = info.getSourceManager().getPresumedLoc(info.getLocation());
      if (p.isValid())
        loc = mlir::FileLineColLoc::get(&context, p.getFilename(), p.getLine(), p.getColumn());
    }
    mlir::emitError(loc) << message;
  }

private:
  mlir::MLIRContext &context;
  bool quiet;
};
} // namespace

namespace {
std::unique_ptr<clang::ASTUnit> parseWith(llvm::StringRef code, const std::vector<std::string> &args,
                                          const std::string &path, mlir::MLIRContext &context,
                                          bool quiet = false) {
  ErrorForwarder printer(context, quiet);
  std::unique_ptr<clang::ASTUnit> unit = clang::tooling::buildASTFromCodeWithArgs(
      code, args, path, "ks-translate", std::make_shared<clang::PCHContainerOperations>(),
      clang::tooling::getClangStripDependencyFileAdjuster(), clang::tooling::FileContentMappings(),
      &printer);
  if (!unit || printer.getNumErrors() > 0)
    return nullptr;
  return unit;
}

/// Parsing CUDA's runtime headers is most of an import's time (0.5 s of
/// 0.6 s). The headers are precompiled once per set of flags, with the clang
/// this importer is built with, into `dir`; a file's parse then reads the
/// PCH. Returns "" (and the import parses the headers) when that clang is
/// missing or fails, or when `dir` cannot be created or written: a PCH is
/// only ever a speed-up.
std::string precompiledCUDAHeaders(const std::vector<std::string> &args, llvm::StringRef dir) {
  if (dir.empty() || !llvm::sys::fs::can_execute(KS_CLANG_EXECUTABLE))
    return "";
  std::string key = KS_CLANG_EXECUTABLE;
  for (const std::string &a : args)
    key += "\x1f" + a;
  if (llvm::sys::fs::create_directories(dir))
    return "";
  llvm::SmallString<256> pch(dir);
  llvm::sys::path::append(pch, llvm::formatv("cuda-{0:x16}.pch", llvm::xxh3_64bits(key)).str());
  if (llvm::sys::fs::exists(pch))
    return std::string(pch);
  // The PCH is made from an empty source that must outlive it (clang
  // checks the files a PCH was built from), kept beside it. Build into a
  // temporary file and rename: concurrent imports (lit runs many) never see
  // a partial PCH.
  llvm::SmallString<256> empty(pch), temp;
  llvm::sys::path::replace_extension(empty, "cu");
  if (!llvm::sys::fs::exists(empty)) {
    std::error_code ec;
    llvm::raw_fd_ostream touch(empty, ec);
    if (ec)
      return "";
  }
  if (llvm::sys::fs::createUniqueFile(pch + ".%%%%%%.tmp", temp))
    return "";
  std::vector<llvm::StringRef> cmd = {KS_CLANG_EXECUTABLE};
  for (const std::string &a : args)
    if (a != "-fsyntax-only")
      cmd.push_back(a);
  cmd.insert(cmd.end(), {"-S", "-Xclang", "-emit-pch", "-o", temp, empty});
  std::optional<llvm::StringRef> quiet[] = {std::nullopt, llvm::StringRef(""), llvm::StringRef("")};
  int rc = llvm::sys::ExecuteAndWait(KS_CLANG_EXECUTABLE, cmd, std::nullopt, quiet, 120);
  if (rc != 0 || llvm::sys::fs::rename(temp, pch)) {
    llvm::sys::fs::remove(temp);
    return "";
  }
  return std::string(pch);
}
} // namespace

std::unique_ptr<clang::ASTUnit> mlir::ks::parseCUDA(MLIRContext &context, const std::string &path,
                                                    const std::string &gpuArch,
                                                    const std::vector<std::string> &extraArgs,
                                                    const std::string &pchDir) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!buffer) {
    // Line 0: the file, no line of it.
    emitError(FileLineColLoc::get(&context, path, 0, 0))
        << "cannot read the file: " << buffer.getError().message();
    return nullptr;
  }
  llvm::StringRef text = (*buffer)->getBuffer();
  std::vector<std::string> args = {"-x", "cuda", "--cuda-device-only",
                                   "--cuda-gpu-arch=" + gpuArch, "-std=c++17",
                                   "-Wno-unknown-cuda-version", "-fsyntax-only",
                                   "-resource-dir=" KS_CLANG_RESOURCE_DIR};
  std::string toolkit = KS_CUDA_TOOLKIT_DIR;
  if (!toolkit.empty() && llvm::sys::fs::exists(toolkit + "/include/cuda.h")) {
    args.push_back("--cuda-path=" + toolkit);
    // CUDA's C++ library (cuda/std/...), which cooperative_groups.h needs:
    // nvcc adds this directory itself, clang does not.
    if (llvm::sys::fs::is_directory(toolkit + "/include/cccl"))
      args.insert(args.end(), {"-isystem", toolkit + "/include/cccl"});
  } else
    args.insert(args.end(), {"-nocudainc", "-nocudalib"});
  args.insert(args.end(), extraArgs.begin(), extraArgs.end());
  if (!toolkit.empty()) {
    std::string pch = precompiledCUDAHeaders(args, pchDir);
    if (!pch.empty()) {
      // A stale or unusable PCH must never fail an import: parse again
      // without it, and show only that parse's errors.
      std::vector<std::string> withPCH = args;
      withPCH.insert(withPCH.end(), {"-include-pch", pch});
      bool debug = std::getenv("KS_DEBUG_PCH");
      if (std::unique_ptr<clang::ASTUnit> unit =
              parseWith(text, withPCH, path, context, /*quiet=*/!debug))
        return unit;
      if (debug)
        llvm::errs() << "ks-translate: the precompiled CUDA headers failed (errors above)\n";
    }
  }
  return parseWith(text, args, path, context);
}

std::string mlir::ks::getDefaultPCHDirectory() {
  if (std::getenv("KS_NO_PCH"))
    return "";
  if (const char *dir = std::getenv("KS_PCH_DIR"); dir && *dir)
    return dir;
  llvm::SmallString<256> dir;
  if (const char *xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
    dir = xdg;
  else if (const char *home = std::getenv("HOME"); home && *home)
    llvm::sys::path::append(dir, home, ".cache");
  else
    return "";
  llvm::sys::path::append(dir, "kernelskill", "pch");
  return std::string(dir);
}
