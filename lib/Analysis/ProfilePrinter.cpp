//===- ProfilePrinter.cpp - A KernelProfile as text and JSON --------------===//

#include "kernelskill/Analysis/ProfilePrinter.h"
#include "kernelskill/Analysis/SourceText.h"

using namespace mlir;
using namespace mlir::ks;

std::string mlir::ks::printIndex(const KernelProfile &p, const std::optional<IndexExpr> &expr) {
  return expr && p.indices ? p.indices->print(*expr) : "?";
}

std::string mlir::ks::strideText(const KernelProfile &p, const AccessReport &a) {
  return printIndex(p, a.stride);
}

std::string mlir::ks::conditionText(const KernelProfile &p, const BranchReport &b) {
  if (b.kind == ControlKind::Switch)
    return b.lhs ? printIndex(p, b.lhs) : "";
  if (b.predicate.empty() || !b.lhs || !b.rhs)
    return "";
  return printIndex(p, b.lhs) + " " + b.predicate.str() + " " + printIndex(p, b.rhs);
}

std::string mlir::ks::describeMemoryLatency(const KernelProfile &p) {
  const MemoryLatency &m = p.memoryLatency;
  return formatFixed(m.roundsPerWarp, 1) + " load rounds per warp (" +
         formatFixed(m.loadsInFlightPerWarp, 0) + " loads in flight), " + formatFixed(m.waves, 0) +
         (m.waves == 1 ? " wave" : " waves") + "; " + formatFixed(m.bytesInFlight / 1024, 0) +
         " KB in flight of the " + formatFixed(m.bytesNeeded / 1024, 0) +
         " KB DRAM bandwidth x latency needs";
}

const char *mlir::ks::toString(ControlKind kind) {
  switch (kind) {
  case ControlKind::If:
    return "branch";
  case ControlKind::Switch:
    return "switch";
  case ControlKind::Loop:
    return "loop";
  }
  return "?";
}

llvm::json::Object mlir::ks::toJSON(const KernelProfile &p, const AccessReport &a) {
  llvm::json::Object o{{"kind", a.kindName()},
                       {"text", a.text},
                       {"location", shortLocation(a.op->getLoc())},
                       {"index", printIndex(p, a.index)},
                       {"stride", strideText(p, a)},
                       {"pattern", toString(a.pattern)},
                       {"requests", a.stats.requests},
                       {"sectors_per_request", a.sectorsPerRequest},
                       {"ideal_sectors_per_request", a.idealSectorsPerRequest},
                       {"wavefronts_per_request", a.wavefrontsPerRequest},
                       {"threads_per_element", a.stats.threadsPerElement},
                       {"warps_per_element", a.stats.warpsPerElement},
                       {"loop_invariant", a.invariantLoop != nullptr}};
  if (std::optional<int64_t> stride = a.constantStride())
    o["stride_elements"] = *stride;
  return o;
}

llvm::json::Object mlir::ks::toJSON(const KernelProfile &p, const BranchReport &b) {
  return llvm::json::Object{{"kind", toString(b.kind)},
                            {"condition", conditionText(p, b)},
                            {"location", shortLocation(*b.loc)},
                            {"executions", b.stats.executions},
                            {"divergent_fraction", b.divergentFraction},
                            {"lane_dependent", b.laneDependent}};
}

llvm::json::Object mlir::ks::toJSON(const KernelProfile &p) {
  const PtxasFunctionInfo &info = p.resources.info;
  llvm::json::Array accesses, branches;
  for (const AccessReport &a : p.accesses)
    accesses.push_back(toJSON(p, a));
  for (const BranchReport &b : p.branches)
    branches.push_back(toJSON(p, b));
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
      {"latency_ms", p.model.latency * 1e3},
      {"load_rounds_per_warp", p.memoryLatency.roundsPerWarp},
      {"bytes_in_flight", p.memoryLatency.bytesInFlight},
      {"bytes_needed_in_flight", p.memoryLatency.bytesNeeded},
      {"floor_ms", p.roofline.floorSeconds * 1e3}};
  llvm::json::Object resources{{"source", p.resources.fromPtxas ? "ptxas" : "estimate"},
                               {"note", p.resources.estimateNote},
                               {"registers", info.registers},
                               {"stack_bytes", info.stackFrameBytes},
                               {"spill_store_bytes", info.spillStoreBytes},
                               {"spill_load_bytes", info.spillLoadBytes},
                               {"static_shared_bytes", info.sharedBytes},
                               {"dynamic_shared_bytes", p.resources.dynamicSharedBytes}};
  if (p.resources.fromPtxas) {
    resources["chip"] = p.resources.chip;
    resources["opt_level"] = p.resources.optLevel;
  }
  const LaunchShape &l = p.context.launch;
  return llvm::json::Object{
      {"kernel", p.name},
      {"location", shortLocation(p.kernel->getLoc())},
      {"gpu", p.gpu},
      {"sizes", llvm::json::Array(p.context.scalarText)},
      {"sizes_from", p.context.source},
      {"assumed", llvm::json::Array(p.context.assumptions)},
      {"grid", llvm::json::Array{l.grid[0], l.grid[1], l.grid[2]}},
      {"block", llvm::json::Array{l.block[0], l.block[1], l.block[2]}},
      {"resources", std::move(resources)},
      {"occupancy", llvm::json::Object{{"fraction", p.occupancy.occupancy},
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
      {"approximations", llvm::json::Array(p.simulation.approximations)}};
}
