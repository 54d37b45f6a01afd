//===- Diagnosis.h - From a kernel profile to ranked findings ---*- C++ -*-===//
//
// The performance profiler's judgement, apart from its pass: which of the
// facts of a KernelProfile are inefficiencies worth a sentence, how much of
// the kernel's time fixing each could save under the first-order time model,
// and in what order. The pass attaches them as #ks.diagnosis; the report
// printer (DiagnosisReport.h) renders them.
//
//===----------------------------------------------------------------------===//
#ifndef KERNELSKILL_AGENTS_DIAGNOSIS_H
#define KERNELSKILL_AGENTS_DIAGNOSIS_H

#include "kernelskill/Agents/Measurements.h"
#include "kernelskill/Analysis/KernelProfile.h"
#include "kernelskill/Dialect/KS/IR/KSAttrs.h"

#include <string>
#include <vector>

namespace mlir::ks {

/// One finding before it becomes a #ks.finding.
struct Finding {
  FindingKind kind;
  std::string metric;
  double value = 0;
  Evidence evidence = Evidence::predicted;
  double headroom = 0;
  Location loc;
  std::string note;
  /// The access, branch or loop the finding is about; null for the kernel.
  Operation *subject = nullptr;
};

/// Critical from a headroom of 0.5, major from 0.2, minor from 0.05.
Severity severityOf(double headroom);

/// The findings of profile `p`, ranked by headroom, largest first; with a
/// measurement its time sets the roofline's headroom.
std::vector<Finding> diagnose(const KernelProfile &p, const Measurement *measured);

} // namespace mlir::ks

#endif // KERNELSKILL_AGENTS_DIAGNOSIS_H
