//===- KernelProfile.h - Everything the static analyses know ----*- C++ -*-===//
//
// One kernel, analyzed: per memory access its index (IndexAnalysis), its
// pattern across the warp and predicted sectors or bank wavefronts
// (WarpSimulation), its reuse; per branch and loop the divergence; the
// resources (ptxas's report when given, an estimate otherwise), occupancy,
// FLOPs, DRAM bytes under the compulsory-traffic cache model, the roofline and
// a first-order time model that prices each inefficiency.
//
// Facts only: the performance-profiler agent turns them into ranked findings.
//
//===----------------------------------------------------------------------===//
#ifndef KERNELSKILL_ANALYSIS_KERNELPROFILE_H
#define KERNELSKILL_ANALYSIS_KERNELPROFILE_H

#include "kernelskill/Analysis/LaunchContext.h"
#include "kernelskill/Analysis/Occupancy.h"
#include "kernelskill/Analysis/PtxasReport.h"
#include "kernelskill/Analysis/Roofline.h"
#include "kernelskill/Analysis/SourceText.h"
#include "kernelskill/Analysis/WarpSimulation.h"
#include "kernelskill/Support/ArchDatabase.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir::ks {

/// How the lanes of a warp address memory, from the stride along threadIdx.x.
enum class AccessPattern {
  Coalesced, ///< consecutive lanes, consecutive accesses
  Strided,   ///< a constant or symbolic stride larger than the access
  Broadcast, ///< the same address for every lane along x
  Gather,    ///< data-dependent or not a polynomial of the thread id
};
const char *toString(AccessPattern pattern);

struct AccessReport {
  Operation *op = nullptr;
  MemorySpace space = MemorySpace::Global;
  bool isLoad = false, isStore = false;
  int64_t bytes = 0; ///< per lane
  std::string buffer;   ///< the C name of the buffer
  std::string text;     ///< the access as written in the source, or rebuilt
  std::string index;    ///< the flat element index as a polynomial
  std::string stride;   ///< elements between lanes along threadIdx.x
  AccessPattern pattern = AccessPattern::Gather;
  AccessStats stats;
  double sectorsPerRequest = 0, idealSectorsPerRequest = 0;
  double wavefrontsPerRequest = 0; ///< shared: the conflict degree
  /// Global: sectors expected to reach L2 — stores all, loads less what L1
  /// serves (other warps of the block reading the same element, the next
  /// iterations of the innermost loop reading the same sector).
  double l2Sectors = 0;
  /// Inside a loop whose iterations do not change the address (a register
  /// candidate): that loop's location.
  std::optional<Location> invariantInLoop;
  std::string kindName() const; ///< "load", "store", "atomic", "shared load", ...
};

struct BranchReport {
  Operation *op = nullptr;
  /// Small enough that the compiler will likely predicate it (no branch in
  /// the machine code): a few ops on each side, no loops, barriers or calls.
  bool predicable = false;
  /// Where to report it: the condition for loops (the lifted loop op
  /// carries the location of its body's last statement).
  std::optional<Location> loc;
  bool isLoop = false;
  std::string condition; ///< `lhs < rhs`, or "" when not a comparison
  bool laneDependent = false; ///< statically: the condition may vary in a warp
  BranchStats stats;
  double divergentFraction = 0; ///< of warp-level executions (loops: exits)
  double instructionsInside = 0; ///< warp instructions executed in its body
};

struct ResourceReport {
  bool fromPtxas = false;
  PtxasFunctionInfo info;
  int64_t dynamicSharedBytes = 0;
  std::string estimateNote; ///< how the estimate was made, when not ptxas
  /// A private array that lives in local memory, when there is one, and
  /// whether some access indexes it with a run-time value.
  std::optional<Location> localArrayLoc;
  bool localArrayDynamicIndex = false;
};

/// Seconds each unit would need at its peak, and the bottleneck; the total
/// is the slowest unit plus the fixed cost of a launch.
struct TimeModel {
  double dram = 0, l2 = 0, l1 = 0, lsu = 0, shared = 0, compute = 0, issue = 0;
  double launch = 0;
  double total() const;
  const char *bottleneck() const;
};

struct KernelProfile {
  std::string name;
  Operation *kernel = nullptr;
  LaunchContext context;
  std::string gpu; ///< SKU of the target
  GPUCapabilities caps;
  std::vector<AccessReport> accesses;
  std::vector<BranchReport> branches;
  SimulationResult simulation;
  ResourceReport resources;
  Occupancy occupancy;
  /// What occupancy the counters should see: the theoretical one, or less
  /// when the grid has too few blocks to give every SM its share.
  double expectedAchievedOccupancy = 0;
  /// DRAM traffic: dramBytes is the global buffers' compulsory traffic (the
  /// roofline's); the read/write figures add local memory's, for comparing
  /// with the counters.
  double dramBytes = 0, dramReadBytes = 0, dramWriteBytes = 0;
  /// Footprint of the buffers the kernel touches (DRAM model): when it fits
  /// in L2 a measurement may find it there already.
  double footprintBytes = 0;
  /// Traffic to thread-private arrays in local memory, and the part of it
  /// expected to reach DRAM (the local footprint of all resident threads
  /// beyond what L2 holds).
  double localBytes = 0, localDramBytes = 0;
  Roofline roofline;
  TimeModel model;
  /// Kernel-wide predictions comparable with the hardware counters.
  double loadSectorsPerRequest = 0, storeSectorsPerRequest = 0;
  double sharedLoadConflicts = 0, sharedStoreConflicts = 0; ///< extra wavefronts
  /// Fraction of branch executions whose lanes agree, counting what the
  /// compiler keeps as branches: loop back-edges per iteration and the ifs
  /// too big to be predicated (see isPredicable).
  double branchUniformity = 1;
};

struct ProfileOptions {
  llvm::StringMap<int64_t> workload; ///< the pass option's sizes
  /// ptxas's report for the kernel, when the toolkit ran on its PTX.
  std::optional<PtxasFunctionInfo> ptxas;
  std::optional<double> measuredSeconds;
};

/// The GPU the module targets: its #ks.arch, else the database's default.
std::pair<std::string, GPUCapabilities> getTargetGPU(ModuleOp module);

KernelProfile profileKernel(gpu::GPUFuncOp kernel, const ProfileOptions &options);

/// Work a fix would remove, in the units of the time model.
struct WorkSaved {
  double l1Sectors = 0, l2Sectors = 0, wavefronts = 0, memoryRequests = 0, instructions = 0;
  double dramBytes = 0;
};

/// The first-order model's time with some of the work removed: how much
/// faster fixing one inefficiency would make the kernel, as a fraction.
double savedFraction(const KernelProfile &profile, const WorkSaved &saved);

} // namespace mlir::ks

#endif // KERNELSKILL_ANALYSIS_KERNELPROFILE_H
