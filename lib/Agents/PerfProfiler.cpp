//===- PerfProfiler.cpp - The performance profiler agent ------------------===//
//
// Decides what is wrong with each kernel. The facts come from lib/Analysis
// (KernelProfile); this agent turns them into findings — which inefficiencies
// are worth a sentence, how much each could save under the first-order time
// model, how severe that is — ranks them, attaches #ks.diagnosis and prints
// the evidence. With measurements it also checks its predictions against the
// hardware counters and says where they disagree.
//
//===----------------------------------------------------------------------===//

#include "kernelskill/Agents/Measurements.h"
#include "kernelskill/Agents/Passes.h"
#include "kernelskill/Agents/PtxasResources.h"
#include "kernelskill/Analysis/KernelProfile.h"
#include "kernelskill/Dialect/KS/IR/KSAttrs.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>

namespace mlir::ks {
#define GEN_PASS_DEF_KSPERFPROFILER
#include "kernelskill/Agents/Passes.h.inc"
} // namespace mlir::ks

using namespace mlir;
using namespace mlir::ks;

namespace {


std::string percent(double fraction) { return formatFixed(100 * fraction, 1) + "%"; }

//===----------------------------------------------------------------------===//
// Findings
//===----------------------------------------------------------------------===//

struct Finding {
  FindingKind kind;
  std::string metric;
  double value = 0;
  Evidence evidence = Evidence::predicted;
  double headroom = 0;
  Location loc;
  std::string note;
};

Severity severityOf(double headroom) {
  if (headroom >= 0.5)
    return Severity::critical;
  if (headroom >= 0.2)
    return Severity::major;
  if (headroom >= 0.05)
    return Severity::minor;
  return Severity::info;
}

std::string where(Location loc) {
  std::string s = shortLocation(loc);
  return s.empty() ? "" : " (" + s + ")";
}

std::vector<Finding> diagnose(const KernelProfile &p, const Measurement *measured) {
  std::vector<Finding> findings;
  Location kernelLoc = p.kernel->getLoc();
  double totalSectors = 0;
  for (const AccessReport &a : p.accesses)
    if (a.space == MemorySpace::Global)
      totalSectors += a.stats.sectors;

  for (const AccessReport &a : p.accesses) {
    Location loc = a.op->getLoc();
    if (a.stats.requests <= 0)
      continue;
    if (a.space == MemorySpace::Global) {
      // Uncoalesced: a quarter more sectors than the bytes need.
      double excess = a.stats.sectors - a.stats.idealSectors;
      if (a.sectorsPerRequest > 1.25 * a.idealSectorsPerRequest && excess > 0) {
        std::string how = a.pattern == AccessPattern::Strided
                              ? "strided by " + a.stride + " elements"
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
    if (a.invariantInLoop && a.isLoad && !a.isStore) {
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
                              where(*a.invariantInLoop) +
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
                                   : "stride " + a.stride +
                                         " elements along threadIdx.x maps lanes to the same "
                                         "bank")});
    }
  }

  for (const BranchReport &b : p.branches) {
    if (b.divergentFraction <= 0 || b.stats.executions <= 0)
      continue;
    // A divergent warp runs both sides: about half of the instructions
    // inside are spent with lanes masked off.
    double wasted = b.instructionsInside * b.divergentFraction * 0.5;
    std::string cond = b.condition.empty() ? "its condition" : "`" + b.condition + "`";
    std::string note =
        b.isLoop ? "lanes of a warp leave the loop on " + cond + where(*b.loc) +
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

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

struct PerfProfilerPass : public ks::impl::KSPerfProfilerBase<PerfProfilerPass> {
  using KSPerfProfilerBase::KSPerfProfilerBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (format != "none" && format != "text" && format != "json") {
      emitError(module.getLoc()) << "ks-perf-profiler: unknown format='" << format
                         << "'; valid choices: none, text, json";
      return signalPassFailure();
    }
    if (ptxas != "auto" && ptxas != "never") {
      emitError(module.getLoc()) << "ks-perf-profiler: unknown ptxas='" << ptxas
                         << "'; valid choices: auto, never";
      return signalPassFailure();
    }
    std::string error;
    FailureOr<llvm::StringMap<int64_t>> sizes = parseWorkloadOption(workload, error);
    if (failed(sizes)) {
      emitError(module.getLoc()) << "ks-perf-profiler: " << error;
      return signalPassFailure();
    }
    llvm::StringMap<Measurement> measured;
    if (!measurements.empty()) {
      FailureOr<llvm::StringMap<Measurement>> loaded = loadMeasurements(measurements, error);
      if (failed(loaded)) {
        emitError(module.getLoc()) << "ks-perf-profiler: " << error;
        return signalPassFailure();
      }
      measured = std::move(*loaded);
    }

    std::map<std::string, PtxasFunctionInfo> resources;
    std::string noPtxas = "ptxas=never";
    bool havePtxas = false;
    if (ptxas == "auto") {
      std::string chip = "sm_90";
      if (auto arch = module->getAttrOfType<ArchAttr>(ArchAttr::kModuleAttrName))
        chip = arch.getChip().str();
      FailureOr<std::map<std::string, PtxasFunctionInfo>> r =
          getPtxasResources(module, chip, noPtxas);
      if (succeeded(r)) {
        resources = std::move(*r);
        havePtxas = true;
      }
    }

    llvm::json::Array kernelsJSON;
    module.walk([&](gpu::GPUFuncOp kernel) {
      if (!kernel.isKernel())
        return;
      ProfileOptions options;
      options.workload = *sizes;
      if (auto it = resources.find(kernel.getName().str()); it != resources.end())
        options.ptxas = it->second;
      const Measurement *m = nullptr;
      if (auto it = measured.find(kernel.getName()); it != measured.end()) {
        m = &it->second;
        if (m->medianMs)
          options.measuredSeconds = *m->medianMs * 1e-3;
      }
      KernelProfile profile = profileKernel(kernel, options);
      if (!options.ptxas)
        profile.resources.estimateNote += havePtxas ? "; ptxas did not report this kernel"
                                                    : "; " + noPtxas;
      std::vector<Finding> findings = diagnose(profile, m);
      std::vector<Comparison> comparisons;
      if (m)
        comparisons = compareWithCounters(profile, *m);
      attach(kernel, findings);
      if (format == "text")
        printText(profile, findings, comparisons, m);
      else if (format == "json")
        kernelsJSON.push_back(toJSON(profile, findings, comparisons, m));
    });
    if (format == "json") {
      llvm::json::Object doc{{"kernels", std::move(kernelsJSON)}};
      llvm::outs() << llvm::formatv("{0:2}", llvm::json::Value(std::move(doc))) << "\n";
    }
  }

  void attach(gpu::GPUFuncOp kernel, const std::vector<Finding> &findings) {
    MLIRContext *ctx = &getContext();
    SmallVector<FindingAttr> attrs;
    for (const Finding &f : findings)
      attrs.push_back(FindingAttr::get(ctx, f.kind, severityOf(f.headroom), f.metric,
                                       llvm::APFloat(f.value), f.evidence,
                                       llvm::APFloat(f.headroom), f.loc, f.note));
    kernel->setAttr(DiagnosisAttr::kKernelAttrName, DiagnosisAttr::get(ctx, attrs));
  }

  static std::string launchText(const KernelProfile &p) {
    const LaunchShape &l = p.context.launch;
    return "grid " + std::to_string(l.grid[0]) + "x" + std::to_string(l.grid[1]) + "x" +
           std::to_string(l.grid[2]) + ", block " + std::to_string(l.block[0]) + "x" +
           std::to_string(l.block[1]) + "x" + std::to_string(l.block[2]);
  }

  void printText(const KernelProfile &p, const std::vector<Finding> &findings,
                 const std::vector<Comparison> &comparisons, const Measurement *m) {
    llvm::raw_ostream &os = llvm::outs();
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
    os << "\n  accesses:\n";
    for (const AccessReport &a : p.accesses) {
      os << "    " << a.kindName() << " " << a.text << where(a.op->getLoc()) << ": ";
      if (a.stats.requests == 0)
        os << "never executed in the simulation (outside the structured control flow, or "
              "under a condition no sampled thread meets)";
      else if (a.space == MemorySpace::Global)
        os << toString(a.pattern) << ", stride " << a.stride << ", "
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

  llvm::json::Value toJSON(const KernelProfile &p, const std::vector<Finding> &findings,
                           const std::vector<Comparison> &comparisons, const Measurement *m) {
    const PtxasFunctionInfo &info = p.resources.info;
    llvm::json::Array accesses, branches, findingsJSON, comparisonsJSON;
    for (const AccessReport &a : p.accesses)
      accesses.push_back(llvm::json::Object{
          {"kind", a.kindName()},
          {"text", a.text},
          {"location", shortLocation(a.op->getLoc())},
          {"index", a.index},
          {"stride", a.stride},
          {"pattern", toString(a.pattern)},
          {"requests", a.stats.requests},
          {"sectors_per_request", a.sectorsPerRequest},
          {"ideal_sectors_per_request", a.idealSectorsPerRequest},
          {"wavefronts_per_request", a.wavefrontsPerRequest},
          {"threads_per_element", a.stats.threadsPerElement},
          {"warps_per_element", a.stats.warpsPerElement},
          {"loop_invariant", a.invariantInLoop.has_value()}});
    for (const BranchReport &b : p.branches)
      branches.push_back(llvm::json::Object{{"kind", b.isLoop ? "loop" : "branch"},
                                            {"condition", b.condition},
                                            {"location", shortLocation(*b.loc)},
                                            {"executions", b.stats.executions},
                                            {"divergent_fraction", b.divergentFraction},
                                            {"lane_dependent", b.laneDependent}});
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
    const LaunchShape &l = p.context.launch;
    llvm::json::Object predictions{
        {"global_load_sectors_per_request", p.loadSectorsPerRequest},
        {"global_store_sectors_per_request", p.storeSectorsPerRequest},
        {"shared_load_bank_conflicts", p.sharedLoadConflicts},
        {"shared_store_bank_conflicts", p.sharedStoreConflicts},
        {"occupancy", p.occupancy.occupancy},
        {"branch_uniformity", p.branchUniformity},
        {"dram_bytes", p.dramBytes},
        {"dram_read_bytes", p.dramReadBytes},
        {"dram_write_bytes", p.dramWriteBytes},
        {"local_bytes", p.localBytes},
        {"expected_achieved_occupancy", p.expectedAchievedOccupancy},
        {"registers", info.registers},
        {"flops", p.simulation.totalFlops()},
        {"model_ms", p.model.total() * 1e3},
        {"floor_ms", p.roofline.floorSeconds * 1e3}};
    llvm::json::Object k{
        {"kernel", p.name},
        {"location", shortLocation(p.kernel->getLoc())},
        {"gpu", p.gpu},
        {"sizes", llvm::json::Array(p.context.scalarText)},
        {"sizes_from", p.context.source},
        {"assumed", llvm::json::Array(p.context.assumptions)},
        {"grid", llvm::json::Array{l.grid[0], l.grid[1], l.grid[2]}},
        {"block", llvm::json::Array{l.block[0], l.block[1], l.block[2]}},
        {"resources",
         llvm::json::Object{{"source", p.resources.fromPtxas ? "ptxas" : "estimate"},
                            {"note", p.resources.estimateNote},
                            {"registers", info.registers},
                            {"stack_bytes", info.stackFrameBytes},
                            {"spill_store_bytes", info.spillStoreBytes},
                            {"spill_load_bytes", info.spillLoadBytes},
                            {"static_shared_bytes", info.sharedBytes},
                            {"dynamic_shared_bytes", p.resources.dynamicSharedBytes}}},
        {"occupancy",
         llvm::json::Object{{"fraction", p.occupancy.occupancy},
                            {"blocks_per_sm", p.occupancy.activeBlocksPerSM},
                            {"warps_per_sm", p.occupancy.activeWarpsPerSM},
                            {"limited_by", toString(p.occupancy.limiter)}}},
        {"roofline", llvm::json::Object{{"bound", toString(p.roofline.bound)},
                                        {"floor_ms", p.roofline.floorSeconds * 1e3},
                                        {"intensity", p.roofline.intensity},
                                        {"ridge", p.roofline.ridgePoint}}},
        {"predictions", std::move(predictions)},
        {"accesses", std::move(accesses)},
        {"branches", std::move(branches)},
        {"findings", std::move(findingsJSON)},
        {"approximations", llvm::json::Array(p.simulation.approximations)}};
    if (m) {
      k["comparisons"] = std::move(comparisonsJSON);
      if (m->medianMs)
        k["measured_ms"] = *m->medianMs;
    }
    return k;
  }
};
} // namespace
