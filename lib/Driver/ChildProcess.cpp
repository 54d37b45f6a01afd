//===- ChildProcess.cpp - Running a helper tool with its output logged ----===//

#include "kernelskill/Driver/ChildProcess.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"

#include <algorithm>
#include <optional>

using namespace mlir::ks;

ChildResult mlir::ks::runLogged(llvm::StringRef program, const std::vector<std::string> &args,
                                llvm::StringRef logPath, unsigned timeoutSeconds) {
  std::vector<llvm::StringRef> argv(args.begin(), args.end());
  std::optional<llvm::StringRef> redirects[] = {llvm::StringRef(""), logPath, logPath};
  ChildResult result;
  result.rc = llvm::sys::ExecuteAndWait(program, argv, std::nullopt, redirects, timeoutSeconds,
                                        /*MemoryLimit=*/0, &result.error);
  return result;
}

std::string mlir::ks::readText(llvm::StringRef path) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  return buffer ? (*buffer)->getBuffer().str() : std::string();
}

std::string mlir::ks::logTail(llvm::StringRef path, size_t maxChars) {
  std::string log = llvm::StringRef(readText(path)).trim().str();
  if (log.size() > maxChars)
    log = "..." + log.substr(log.size() - maxChars);
  std::replace(log.begin(), log.end(), '\n', ' ');
  return log;
}
