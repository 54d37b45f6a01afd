//===- ChildProcess.h - Running a helper tool with its output logged -*- C++ -*-===//
//
// The driver runs two helpers as child processes when asked to (ks-bench
// for measure=cuda, the CPU emulator for verify=emulate): each with no
// input, its output and errors in a log file, and the end of that log read
// back for the transcript.
//
//===----------------------------------------------------------------------===//
#ifndef KERNELSKILL_DRIVER_CHILDPROCESS_H
#define KERNELSKILL_DRIVER_CHILDPROCESS_H

#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace mlir::ks {

struct ChildResult {
  /// The exit status; negative when the child could not be run, crashed or
  /// ran past its time (-2), as llvm::sys::ExecuteAndWait reports.
  int rc = -1;
  /// Why it could not be run, when rc < 0.
  std::string error;
};

/// Runs `program` with `args` (args[0] is the program's name), stdin empty,
/// stdout and stderr into `logPath`; `timeoutSeconds` 0 waits for ever.
ChildResult runLogged(llvm::StringRef program, const std::vector<std::string> &args,
                      llvm::StringRef logPath, unsigned timeoutSeconds);

/// The file's text, or "" when it cannot be read.
std::string readText(llvm::StringRef path);

/// The last `maxChars` characters of the file (with "..." when cut), on one
/// line: a child's last words for a one-line reason.
std::string logTail(llvm::StringRef path, size_t maxChars);

} // namespace mlir::ks

#endif // KERNELSKILL_DRIVER_CHILDPROCESS_H
