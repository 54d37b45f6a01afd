//===- DiagnosisReport.cpp - A diagnosis for people and programs ----------===//

#include "kernelskill/Agents/DiagnosisReport.h"
#include "kernelskill/Analysis/ProfilePrinter.h"
#include "kernelskill/Analysis/SourceText.h"

#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::ks;

namespace {
std::string percent(double fraction) { return formatFixed(100 * fraction, 1) + "%"; }

std::string where(Location loc) {
  std::string s = shortLocation(loc);
  return s.empty() ? "" : " (" + s + ")";
}

std::string launchText(const KernelProfile &p) {
    const LaunchShape &l = p.context.launch;
    return "grid " + std::to_string(l.grid[0]) + "x" + std::to_string(l.grid[1]) + "x" +
           std::to_string(l.grid[2]) + ", block " + std::to_string(l.block[0]) + "x" +
           std::to_string(l.block[1]) + "x" + std::to_string(l.block[2]);
  }

} // namespace

void mlir::ks::printDiagnosisText(llvm::raw_ostream &os, const KernelProfile &p,
                                  const std::vector<Finding> &findings,
                                  const std::vector<Comparison> &comparisons,
                                  const Measurement *m) {
    const PtxasFunctionInfo &info = p.resources.info;
    os << "kernel " << p.name << where(p.kernel->getLoc()) << " on " << p.gpu << "\n";
    os << "  sizes: "
       << (p.context.scalarText.empty() ? std::string("no scalars")
                                        : llvm::join(p.context.scalarText, ", "))
       << " (from " << p.context.source
       << "); " << launchText(p) << "\n";
    if (!p.context.assumptions.empty())
      os << "  assumed: " << llvm::join(p.context.assumptions, "; ") << "\n";
    os << "  resources (" << (p.resources.fromPtxas ? "ptxas" : p.resources.estimateNote)
       << "): " << info.registers << " registers, " << info.stackFrameBytes << " B stack, "
       << info.spillStoreBytes << "/" << info.spillLoadBytes << " B spill stores/loads, "
       << info.sharedBytes << " B static + " << p.resources.dynamicSharedBytes
       << " B dynamic shared\n";
    const Occupancy &o = p.occupancy;
    os << "  occupancy: " << percent(o.occupancy) << " (" << o.activeBlocksPerSM << " blocks, "
       << o.activeWarpsPerSM << " warps per SM), limited by " << toString(o.limiter) << "\n";
    os << "  work: " << formatFixed(p.simulation.totalFlops() / 1e9, 3) << " GFLOP, "
       << formatFixed(p.dramBytes / 1e6, 3) << " MB DRAM (compulsory), intensity "
       << formatFixed(p.roofline.intensity, 2) << " FLOP/B (ridge " << formatFixed(p.roofline.ridgePoint, 2)
       << ")\n";
    os << "  roofline: " << toString(p.roofline.bound) << "-bound, floor "
       << formatFixed(p.roofline.floorSeconds * 1e3, 4) << " ms; model "
       << formatFixed(p.model.total() * 1e3, 4) << " ms (bottleneck: " << p.model.bottleneck() << ")";
    if (m && m->medianMs)
      os << "; measured " << formatFixed(*m->medianMs, 4) << " ms";
    os << "\n  memory-level parallelism: " << describeMemoryLatency(p);
    os << "\n  accesses:\n";
    for (const AccessReport &a : p.accesses) {
      os << "    " << a.kindName() << " " << a.text << where(a.op->getLoc()) << ": ";
      if (a.stats.requests == 0)
        os << "never executed in the simulation (outside the structured control flow, or "
              "under a condition no sampled thread meets)";
      else if (a.space == MemorySpace::Global)
        os << toString(a.pattern) << ", stride " << strideText(p, a) << ", "
           << formatFixed(a.sectorsPerRequest) << " sectors/request (ideal "
           << formatFixed(a.idealSectorsPerRequest) << "), " << formatFixed(a.stats.warpsPerElement, 1)
           << " warps per element";
      else
        os << formatFixed(a.wavefrontsPerRequest) << " wavefronts/request";
      os << "\n";
    }
    os << "  findings:\n";
    if (findings.empty())
      os << "    none\n";
    for (auto [i, f] : llvm::enumerate(findings))
      os << "    " << i + 1 << ". [" << stringifySeverity(severityOf(f.headroom)) << "] "
         << stringifyFindingKind(f.kind) << ", headroom " << formatFixed(f.headroom) << ": " << f.note
         << "\n";
    if (!comparisons.empty()) {
      os << "  prediction vs measurement:\n";
      for (const Comparison &c : comparisons)
        os << "    " << c.metric << ": predicted " << formatFixed(c.predicted, 3) << ", measured "
           << formatFixed(c.measured, 3)
           << (c.agrees ? " (agrees)" : " (DISAGREES: possible cause: " + c.explanation + ")")
           << "\n";
    }
    for (const std::string &a : p.simulation.approximations)
      os << "  approximation: " << a << "\n";
  }


llvm::json::Value mlir::ks::diagnosisToJSON(const KernelProfile &p,
                                            const std::vector<Finding> &findings,
                                            const std::vector<Comparison> &comparisons,
                                            const Measurement *m) {
  llvm::json::Array findingsJSON, comparisonsJSON;
  for (const Finding &f : findings)
    findingsJSON.push_back(llvm::json::Object{
        {"kind", stringifyFindingKind(f.kind)},
        {"severity", stringifySeverity(severityOf(f.headroom))},
        {"metric", f.metric},
        {"value", f.value},
        {"evidence", stringifyEvidence(f.evidence)},
        {"headroom", f.headroom},
        {"location", shortLocation(f.loc)},
        {"note", f.note}});
  for (const Comparison &c : comparisons)
    comparisonsJSON.push_back(llvm::json::Object{{"metric", c.metric},
                                                 {"predicted", c.predicted},
                                                 {"measured", c.measured},
                                                 {"agrees", c.agrees},
                                                 {"possible_cause", c.explanation}});
  llvm::json::Object k = toJSON(p);
  k["findings"] = std::move(findingsJSON);
  if (m) {
    k["comparisons"] = std::move(comparisonsJSON);
    if (m->medianMs)
      k["measured_ms"] = *m->medianMs;
  }
  return k;
}
