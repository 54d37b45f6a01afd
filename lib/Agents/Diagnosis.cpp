//===- Diagnosis.cpp - From a kernel profile to ranked findings -----------===//
//
// Decides what is wrong with a kernel: which facts of its KernelProfile are
// worth a finding, how much each could save under the first-order time model
// (savedFraction), how severe that is, and the ranking.
//
//===----------------------------------------------------------------------===//

#include "kernelskill/Agents/Diagnosis.h"
#include "kernelskill/Analysis/ProfilePrinter.h"

#include "llvm/ADT/STLExtras.h"

#include <cmath>

using namespace mlir;
using namespace mlir::ks;

namespace {

std::string percent(double fraction) { return formatFixed(100 * fraction, 1) + "%"; }

//===----------------------------------------------------------------------===//
// Findings
//===----------------------------------------------------------------------===//

} // namespace

Severity mlir::ks::severityOf(double headroom) {
  if (headroom >= 0.5)
    return Severity::critical;
  if (headroom >= 0.2)
    return Severity::major;
  if (headroom >= 0.05)
    return Severity::minor;
  return Severity::info;
}

namespace {
std::string where(Location loc) {
  std::string s = shortLocation(loc);
  return s.empty() ? "" : " (" + s + ")";
}

/// Names `subject` as the subject of the findings added while it lives.
struct SubjectScope {
  SubjectScope(std::vector<Finding> &findings, Operation *subject)
      : findings(findings), first(findings.size()), subject(subject) {}
  ~SubjectScope() {
    for (size_t i = first; i < findings.size(); ++i)
      findings[i].subject = subject;
  }
  std::vector<Finding> &findings;
  size_t first;
  Operation *subject;
};

std::string strideOf(const KernelProfile &p, const AccessReport &a) {
  return a.stride ? p.indices->print(*a.stride) : "?";
}
} // namespace

std::vector<Finding> mlir::ks::diagnose(const KernelProfile &p, const Measurement *measured) {
  std::vector<Finding> findings;
  Location kernelLoc = p.kernel->getLoc();
  double totalSectors = 0;
  for (const AccessReport &a : p.accesses)
    if (a.space == MemorySpace::Global)
      totalSectors += a.stats.sectors;

  for (const AccessReport &a : p.accesses) {
    SubjectScope scope(findings, a.op);
    Location loc = a.op->getLoc();
    if (a.stats.requests <= 0)
      continue;
    if (a.space == MemorySpace::Global) {
      // Uncoalesced: a quarter more sectors than the bytes need.
      double excess = a.stats.sectors - a.stats.idealSectors;
      if (a.sectorsPerRequest > 1.25 * a.idealSectorsPerRequest && excess > 0) {
        std::string how = a.pattern == AccessPattern::Strided
                              ? "strided by " + strideOf(p, a) + " elements"
                          : a.stats.unknownRequests > 0
                              ? "at addresses the analysis cannot compute (data-dependent, or "
                                "from ops it does not model; worst case assumed: a sector per "
                                "lane)"
                          : a.pattern == AccessPattern::Gather
                              ? "scattered"
                              : "contiguous but not aligned to 32-byte sectors (rows of the "
                                "warp start mid-sector)";
        findings.push_back({FindingKind::uncoalesced_access, "sectors_per_request",
                            a.sectorsPerRequest, Evidence::predicted,
                            savedFraction(p, {excess, excess * a.l2Sectors / a.stats.sectors}), loc,
                            a.kindName() + " of `" + a.text + "`" + where(loc) + " is " + how +
                                " across the warp: " + formatFixed(a.sectorsPerRequest, 1) +
                                " sectors per request, ideal " +
                                formatFixed(a.idealSectorsPerRequest, 1) + "; " +
                                percent(totalSectors > 0 ? a.stats.sectors / totalSectors : 0) +
                                " of the kernel's global sectors"});
      }
      // Reuse across the warps of a block with nothing on chip: staging
      // in shared memory turns those requests into one.
      if (a.isLoad && !a.isStore && a.stats.warpsPerElement >= 2) {
        double share = 1 - 1 / a.stats.warpsPerElement;
        WorkSaved saved;
        saved.l1Sectors = a.stats.sectors * share;
        saved.memoryRequests = a.stats.requests * share;
        findings.push_back({FindingKind::no_reuse, "warps_per_element", a.stats.warpsPerElement,
                            Evidence::predicted, savedFraction(p, saved), loc,
                            "load of `" + a.text + "`" + where(loc) + ": each element is read by " +
                                formatFixed(a.stats.threadsPerElement, 0) + " threads in " +
                                formatFixed(a.stats.warpsPerElement, 0) +
                                " warps of the block, each warp with its own request (only L1 "
                                "catches the repeats); staging a tile in shared memory would cut "
                                "its global requests about " +
                                formatFixed(a.stats.warpsPerElement, 0) + "x"});
      }
    }
    // Loop-invariant loads: registers.
    if (a.invariantLoop && a.isLoad && !a.isStore) {
      WorkSaved saved;
      if (a.space == MemorySpace::Global)
        saved.l1Sectors = a.stats.sectors, saved.l2Sectors = a.l2Sectors;
      else
        saved.wavefronts = a.stats.wavefronts;
      saved.memoryRequests = saved.instructions = a.stats.requests;
      findings.push_back({FindingKind::no_reuse, "loop_invariant_requests", a.stats.requests,
                          Evidence::predicted, savedFraction(p, saved), loc,
                          a.kindName() + " of `" + a.text + "`" + where(loc) +
                              " reads the same address in every iteration of the loop" +
                              where(getLoopLocation(a.invariantLoop)) +
                              "; load it once before the loop and keep it in a register"});
    }
    if (a.space == MemorySpace::Shared && a.wavefrontsPerRequest > 1.05) {
      double extra = a.stats.wavefronts - a.stats.idealWavefronts;
      findings.push_back({FindingKind::bank_conflict, "wavefronts_per_request",
                          a.wavefrontsPerRequest, Evidence::predicted,
                          savedFraction(p, {0, 0, extra}), loc,
                          a.kindName() + " of `" + a.text + "`" + where(loc) + " has " +
                              formatFixed(a.wavefrontsPerRequest, 1) + "-way bank conflicts (" +
                              formatFixed(a.stats.worstWavefronts, 0) + "-way at worst): " +
                              (a.pattern == AccessPattern::Gather
                                   ? std::string("the lanes' addresses fall on the same banks")
                                   : "stride " + strideOf(p, a) +
                                         " elements along threadIdx.x maps lanes to the same "
                                         "bank")});
    }
  }

  for (const BranchReport &b : p.branches) {
    SubjectScope scope(findings, b.op);
    if (b.divergentFraction <= 0 || b.stats.executions <= 0)
      continue;
    // A divergent warp runs both sides: about half of the instructions
    // inside are spent with lanes masked off.
    double wasted = b.instructionsInside * b.divergentFraction * 0.5;
    std::string condition = conditionText(p, b);
    std::string cond = condition.empty() ? "its condition" : "`" + condition + "`";
    std::string note =
        b.isLoop() ? "lanes of a warp leave the loop on " + cond + where(*b.loc) +
                       " at different iterations in " + percent(b.divergentFraction) +
                       " of its executions: the trip count depends on the lane"
                 : "branch on " + cond + where(*b.loc) + " splits " +
                       percent(b.divergentFraction) + " of the warps that reach it" +
                       (b.laneDependent ? ": the condition depends on the lane" : "") +
                       (b.predicable ? " (short enough that the compiler will likely "
                                       "predicate it: both sides run for every lane)"
                                     : "");
    findings.push_back({FindingKind::divergence, "divergent_fraction", b.divergentFraction,
                        Evidence::predicted, savedFraction(p, {0, 0, 0, 0, wasted}), *b.loc, note});
  }

  // Resources.
  const ResourceReport &r = p.resources;
  const PtxasFunctionInfo &info = r.info;
  if (info.spillStoreBytes > 0 || info.spillLoadBytes > 0 || info.stackFrameBytes > 0) {
    bool spills = info.spillStoreBytes > 0 || info.spillLoadBytes > 0;
    Location loc = r.localArrayLoc.value_or(kernelLoc);
    std::string note = std::string(r.fromPtxas ? "ptxas: " : "estimated: ") +
                       std::to_string(info.stackFrameBytes) + " bytes stack frame, " +
                       std::to_string(info.spillStoreBytes) + " bytes spill stores, " +
                       std::to_string(info.spillLoadBytes) + " bytes spill loads with " +
                       std::to_string(info.registers) + " registers";
    if (r.localArrayLoc)
      note += "; the thread-private array at " + shortLocation(*r.localArrayLoc) +
              " lives in local memory" +
              (r.localArrayDynamicIndex
                   ? " (indexed with run-time values, it cannot stay in registers)"
                   : " (too large for registers, or its address escapes)");
    if (p.localBytes > 0)
      note += "; " + formatFixed(p.localBytes / 1e6, 1) + " MB of local-memory traffic, " +
              formatFixed(p.localDramBytes / 1e6, 1) + " MB of it expected to reach DRAM";
    WorkSaved saved;
    saved.l2Sectors = p.localBytes / 32;
    saved.dramBytes = p.localDramBytes;
    // Spills cost at least their instructions even when the model does not
    // see their traffic.
    double headroom = std::max(savedFraction(p, saved), spills ? 0.05 : 0.0);
    findings.push_back({FindingKind::register_spill, "stack_bytes",
                        double(info.stackFrameBytes + info.spillStoreBytes), Evidence::predicted,
                        headroom, loc, note});
  }
  const Occupancy &o = p.occupancy;
  if (!o.whyNone.empty()) {
    findings.push_back({FindingKind::low_occupancy, "occupancy", 0, Evidence::predicted, 1.0,
                        kernelLoc, "no block fits on an SM: " + o.whyNone});
  } else if (o.occupancy < 0.5 && p.roofline.bound != Bound::Compute) {
    // Below half occupancy a memory- or latency-bound kernel has too few
    // warps to hide latency; the saving grows as occupancy falls.
    double headroom = 0.5 * (1 - o.occupancy / 0.5);
    std::string limit = toString(o.limiter);
    std::string detail = o.limiter == OccupancyLimiter::SharedMemory
                             ? std::to_string(info.sharedBytes + r.dynamicSharedBytes) +
                                   " B of shared memory per block"
                         : o.limiter == OccupancyLimiter::Registers
                             ? std::to_string(info.registers) + " registers per thread"
                             : std::to_string(p.context.launch.threadsPerBlock()) +
                                   " threads per block";
    findings.push_back({FindingKind::low_occupancy, "occupancy", o.occupancy, Evidence::predicted,
                        headroom, kernelLoc,
                        "occupancy " + percent(o.occupancy) + " (" +
                            std::to_string(o.activeBlocksPerSM) + " blocks, " +
                            std::to_string(o.activeWarpsPerSM) + " warps per SM), limited by " +
                            limit + ": " + detail});
  }

  // Waves: a last, partly filled wave leaves SMs idle.
  double perWave = double(p.caps.smCount) * double(o.activeBlocksPerSM);
  if (perWave > 0) {
    double waves = double(p.context.launch.blocks()) / perWave;
    double full = std::ceil(waves);
    if (waves > 1 && waves < 8 && full - waves > 0.25) {
      double idle = (full - waves) / full;
      findings.push_back({FindingKind::tail_effect, "waves", waves, Evidence::predicted,
                          idle * 0.5, kernelLoc,
                          formatFixed(waves, 2) + " waves of " + formatFixed(perWave, 0) +
                              " blocks: the last wave leaves " + percent(full - waves) +
                              " of the GPU idle"});
    }
  }

  // The roofline: how far the kernel is from its floor.
  const Roofline &roof = p.roofline;
  double current = p.model.total();
  Evidence evidence = Evidence::predicted;
  if (measured && measured->medianMs) {
    current = *measured->medianMs * 1e-3;
    evidence = Evidence::measured;
  }
  if (current > 0 && roof.floorSeconds > 0) {
    // No kernel beats its floor plus the cost of being launched.
    double headroom = std::clamp(1 - (roof.floorSeconds + p.model.launch) / current, 0.0, 1.0);
    FindingKind kind = roof.bound == Bound::Memory    ? FindingKind::memory_bound
                       : roof.bound == Bound::Compute ? FindingKind::compute_bound
                                                      : FindingKind::latency_bound;
    std::string note = "the roofline says " + std::string(toString(roof.bound)) + "-bound: " +
                       formatFixed(p.simulation.totalFlops() / 1e9, 3) + " GFLOP and " +
                       formatFixed(p.dramBytes / 1e6, 3) + " MB of compulsory DRAM traffic, intensity " +
                       formatFixed(roof.intensity, 2) + " FLOP/B (ridge " + formatFixed(roof.ridgePoint, 2) +
                       "); floor " + formatFixed(roof.floorSeconds * 1e3, 4) + " ms, " +
                       (evidence == Evidence::measured ? "measured " : "estimated ") +
                       formatFixed(current * 1e3, 4) + " ms";
    if (evidence == Evidence::predicted)
      note += std::string("; the model's bottleneck is ") + p.model.bottleneck();
    // Too few loads in flight to cover bandwidth x latency: what the
    // bottleneck is, whatever the roofline's bound.
    if (p.model.latency > 0 && p.model.latency >= p.model.total() - p.model.launch)
      note += "; memory-level parallelism: " + describeMemoryLatency(p);
    if (roof.bound == Bound::Latency)
      note += "; the launch has " +
              std::to_string(p.context.launch.blocks() * p.context.launch.warpsPerBlock()) +
              " warps, fewer than " + formatFixed(kMinWarpsPerSM, 0) + " per SM";
    findings.push_back({kind, "time_over_floor", current / roof.floorSeconds, evidence, headroom,
                        kernelLoc, note});
  }
  llvm::stable_sort(findings, [](const Finding &a, const Finding &b) {
    return a.headroom > b.headroom;
  });
  return findings;
}

