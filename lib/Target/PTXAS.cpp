//===- PTXAS.cpp - Running NVIDIA's PTX assembler -------------------------===//

#include "kernelskill/Target/PTXAS.h"
#include "kernelskill/Config.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm-c/Core.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

#include <map>
#include <mutex>

using namespace mlir::ks;

std::optional<std::string> mlir::ks::findPtxas(llvm::StringRef explicitPath) {
  if (!explicitPath.empty()) {
    if (llvm::sys::fs::can_execute(explicitPath))
      return explicitPath.str();
    return std::nullopt;
  }
  if (llvm::ErrorOr<std::string> onPath = llvm::sys::findProgramByName("ptxas"))
    return *onPath;
  llvm::SmallVector<std::string> roots;
  for (const char *var : {"CUDA_HOME", "CUDA_PATH", "CUDA_ROOT"})
    if (const char *value = std::getenv(var))
      roots.push_back(value);
  roots.push_back(KS_CUDA_TOOLKIT_DIR);
  roots.push_back("/usr/local/cuda");
  for (const std::string &root : roots) {
    if (root.empty())
      continue;
    llvm::SmallString<256> candidate(root);
    llvm::sys::path::append(candidate, "bin", "ptxas");
    if (llvm::sys::fs::can_execute(candidate))
      return std::string(candidate);
  }
  return std::nullopt;
}

bool mlir::ks::ptxasRequested(llvm::StringRef option, bool searchWhenUnset) {
  return option.empty() ? searchWhenUnset : option != "none";
}

std::optional<std::string> mlir::ks::resolvePtxasOption(llvm::StringRef option,
                                                        bool searchWhenUnset,
                                                        std::string &error) {
  if (!ptxasRequested(option, searchWhenUnset))
    return std::nullopt;
  if (option.empty() || option == "auto")
    return findPtxas();
  if (std::optional<std::string> found = findPtxas(option))
    return found;
  error = "ptxas='" + option.str() + "' is not executable (a path, auto or none)";
  return std::nullopt;
}

static llvm::Error makeError(const llvm::Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), msg);
}

llvm::Expected<PtxasResult> mlir::ks::runPtxas(llvm::StringRef ptxasPath, llvm::StringRef ptx,
                                               llvm::StringRef chip) {
  llvm::SmallString<128> ptxFile, cubinFile, logFile;
  for (auto [path, suffix] : {std::pair{&ptxFile, "ptx"}, {&cubinFile, "cubin"}, {&logFile, "log"}})
    if (std::error_code ec = llvm::sys::fs::createTemporaryFile("ks-ptxas", suffix, *path))
      return makeError("cannot create a temporary file: " + ec.message());
  llvm::scope_exit cleanup([&] {
    for (const auto &path : {ptxFile, cubinFile, logFile})
      llvm::sys::fs::remove(path);
  });
  {
    std::error_code ec;
    llvm::raw_fd_ostream out(ptxFile, ec);
    if (ec)
      return makeError("cannot write " + ptxFile + ": " + ec.message());
    out << ptx;
  }
  std::string gpuName = ("--gpu-name=" + chip).str();
  llvm::SmallVector<llvm::StringRef> args = {ptxasPath, "-v", gpuName, ptxFile, "-o", cubinFile};
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, logFile, logFile};
  std::string execError;
  int rc = llvm::sys::ExecuteAndWait(ptxasPath, args, std::nullopt, redirects,
                                     /*SecondsToWait=*/120, /*MemoryLimit=*/0, &execError);
  std::string log;
  if (auto buffer = llvm::MemoryBuffer::getFile(logFile))
    log = (*buffer)->getBuffer().str();
  if (rc != 0)
    return makeError("ptxas " + gpuName + " failed" +
                     (execError.empty() ? "" : " (" + execError + ")") + ":\n" + log);
  auto cubin = llvm::MemoryBuffer::getFile(cubinFile, /*IsText=*/false);
  if (!cubin)
    return makeError("ptxas produced no cubin: " + cubin.getError().message());
  return PtxasResult{(*cubin)->getBuffer().str(), log};
}

/// xxh3 of a file's bytes, or of its path when it cannot be read (a program
/// that cannot read its own executable still tells ptxas binaries apart).
static uint64_t hashFile(llvm::StringRef path) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false);
  if (!buffer)
    return llvm::xxh3_64bits(path);
  return llvm::xxh3_64bits((*buffer)->getBuffer());
}

std::string mlir::ks::toolchainIdentity(llvm::StringRef ptxasPath) {
  static std::mutex mutex;
  static std::map<std::string, std::string> known;
  std::lock_guard<std::mutex> lock(mutex);
  auto [it, inserted] = known.try_emplace(ptxasPath.str());
  if (inserted) {
    // On Linux /proc/self/exe: the binary running this lowering, whichever
    // tool (ks-opt, ks, a user's compiler) links it. The LLVM it runs with
    // (the NVPTX backend may be a shared library, upgraded under a binary
    // that stays the same) is named by its run-time version.
    static int anchor;
    std::string self = llvm::sys::fs::getMainExecutable(nullptr, &anchor);
    unsigned major = 0, minor = 0, patch = 0;
    LLVMGetVersion(&major, &minor, &patch);
    it->second = (llvm::Twine(llvm::utohexstr(hashFile(self), /*LowerCase=*/true)) + "/llvm-" +
                  llvm::Twine(major) + "." + llvm::Twine(minor) + "." + llvm::Twine(patch) + "/" +
                  llvm::utohexstr(hashFile(ptxasPath), /*LowerCase=*/true))
                     .str();
  }
  return it->second;
}
