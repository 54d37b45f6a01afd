//===- PtxasReport.h - Reading `ptxas -v`'s resource report -----*- C++ -*-===//
//
// ptxas -v prints, per entry function, the registers, stack frame, spills,
// shared and constant memory it allocated:
//
//   ptxas info    : Compiling entry function 'k' for 'sm_90'
//   ptxas info    : Function properties for k
//       1024 bytes stack frame, 8 bytes spill stores, 8 bytes spill loads
//   ptxas info    : Used 40 registers, used 1 barriers, 4224 bytes smem, 380 bytes cmem[0]
//
// Pure C++ so the parser is unit-tested without MLIR.
//
//===----------------------------------------------------------------------===//
#ifndef KERNELSKILL_ANALYSIS_PTXASREPORT_H
#define KERNELSKILL_ANALYSIS_PTXASREPORT_H

#include <cstdint>
#include <map>
#include <string>

namespace mlir::ks {

struct PtxasFunctionInfo {
  int64_t registers = 0;
  int64_t barriers = 0;
  int64_t stackFrameBytes = 0;
  int64_t spillStoreBytes = 0;
  int64_t spillLoadBytes = 0;
  int64_t sharedBytes = 0; ///< static shared memory
  int64_t constantBytes = 0; ///< cmem[0], the parameter bank
};

/// The entry functions of a `ptxas -v` report, by name. Lines it does not
/// recognize are skipped (ptxas adds warnings and gmem lines).
std::map<std::string, PtxasFunctionInfo> parsePtxasReport(const std::string &report);

} // namespace mlir::ks

#endif // KERNELSKILL_ANALYSIS_PTXASREPORT_H
