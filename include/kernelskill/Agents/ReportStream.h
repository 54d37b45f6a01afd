//===- ReportStream.h - Where an agent's report goes -------------*- C++ -*-===//
//
// Agents write their reports (capability lists, diagnoses) beside the IR,
// never into it: stdout carries the IR, so `ks-opt ... | next-tool` and
// `json.load` on a report both keep working.
//
//===----------------------------------------------------------------------===//
#ifndef KERNELSKILL_AGENTS_REPORTSTREAM_H
#define KERNELSKILL_AGENTS_REPORTSTREAM_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <string>

namespace mlir::ks {

/// The stream for a report: the file `path` (created or truncated), or
/// stderr when `path` is empty. Null, with the reason in `error`, when the
/// file cannot be opened.
std::unique_ptr<llvm::raw_ostream> openReport(llvm::StringRef path, std::string &error);

} // namespace mlir::ks

#endif // KERNELSKILL_AGENTS_REPORTSTREAM_H
