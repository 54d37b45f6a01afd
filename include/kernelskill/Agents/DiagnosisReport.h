//===- DiagnosisReport.h - A diagnosis for people and programs ---*- C++ -*-===//
//
// The performance profiler's report: the profile's evidence, the ranked
// findings and, with measurements, each prediction next to its counter, as
// text or JSON. Rendering only: the facts come from KernelProfile, the
// judgement from Diagnosis.h.
//
//===----------------------------------------------------------------------===//
#ifndef KERNELSKILL_AGENTS_DIAGNOSISREPORT_H
#define KERNELSKILL_AGENTS_DIAGNOSISREPORT_H

#include "kernelskill/Agents/Diagnosis.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::ks {

void printDiagnosisText(llvm::raw_ostream &os, const KernelProfile &p,
                        const std::vector<Finding> &findings,
                        const std::vector<Comparison> &comparisons, const Measurement *m);

/// The profile's JSON (ProfilePrinter.h) with the findings and, when
/// measured, the comparisons and the measured time.
llvm::json::Value diagnosisToJSON(const KernelProfile &p, const std::vector<Finding> &findings,
                                  const std::vector<Comparison> &comparisons,
                                  const Measurement *m);

} // namespace mlir::ks

#endif // KERNELSKILL_AGENTS_DIAGNOSISREPORT_H
