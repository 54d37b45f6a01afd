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

#include "kernelskill/Analysis/IndexExpr.h"
#include "kernelskill/Analysis/LaunchContext.h"
#include "kernelskill/Analysis/Occupancy.h"
#include "kernelskill/Analysis/PtxasReport.h"
#include "kernelskill/Analysis/Roofline.h"
#include "kernelskill/Analysis/SourceText.h"
#include "kernelskill/Analysis/WarpSimulation.h"
#include "kernelskill/Support/ArchDatabase.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"

#include <map>
#include <memory>
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
  Value buffer;           ///< the root memref: kernel argument, attribution, alloc
  std::string bufferName; ///< the C name of the buffer (for reports)
  std::string text;       ///< the access as written in the source, or rebuilt
  /// The flat element index as a polynomial over KernelProfile::indices'
  /// atoms; nullopt when a memref stride is dynamic.
  std::optional<IndexExpr> index;
  /// Elements between neighbouring lanes along threadIdx.x; nullopt when the
  /// index is not linear in threadIdx.x or varies irregularly across lanes.
  std::optional<IndexExpr> stride;
  AccessPattern pattern = AccessPattern::Gather;
  AccessStats stats;
  double sectorsPerRequest = 0, idealSectorsPerRequest = 0;
  double wavefrontsPerRequest = 0; ///< shared: the conflict degree
  /// Global: sectors expected to reach L2 — stores all, loads less what L1
  /// serves (other warps of the block reading the same element, the next
  /// iterations of the innermost loop reading the same sector).
  double l2Sectors = 0;
  /// The innermost loop whose iterations do not change the address (a
  /// register candidate), or null.
  Operation *invariantLoop = nullptr;
  /// The stride when it is a constant number of elements.
  std::optional<int64_t> constantStride() const;
  std::string kindName() const; ///< "load", "store", "atomic", "shared load", ...
};

/// What kind of control flow a BranchReport describes.
enum class ControlKind { If, Switch, Loop };

struct BranchReport {
  Operation *op = nullptr;
  ControlKind kind = ControlKind::If;
  /// Small enough that the compiler will likely predicate it (no branch in
  /// the machine code): a few ops on each side, no loops, barriers or calls.
  bool predicable = false;
  /// Where to report it: the condition for loops (the lifted loop op
  /// carries the location of its body's last statement).
  std::optional<Location> loc;
  /// The condition `lhs predicate rhs` when it is an integer comparison
  /// (loops: the exit test; switches: the switched value alone, in lhs).
  std::optional<IndexExpr> lhs, rhs;
  StringRef predicate; ///< "<", "<=", "==", ... ; empty when not a comparison
  bool laneDependent = false; ///< statically: the condition may vary in a warp
  BranchStats stats;
  double divergentFraction = 0; ///< of warp-level executions (loops: exits)
  double instructionsInside = 0; ///< warp instructions executed in its body
  bool isLoop() const { return kind == ControlKind::Loop; }
};

struct ResourceReport {
  /// From the kernel's #ks.resources (ptxas's report), else estimated.
  bool fromPtxas = false;
  PtxasFunctionInfo info;
  int64_t dynamicSharedBytes = 0;
  std::string chip; ///< with fromPtxas: the target ptxas compiled for
  int64_t optLevel = 0; ///< with fromPtxas: the lowering's LLVM level
  std::string estimateNote; ///< how the estimate was made, when not ptxas
  /// A private array that lives in local memory, when there is one, and
  /// whether some access indexes it with a run-time value.
  std::optional<Location> localArrayLoc;
  bool localArrayDynamicIndex = false;
};

/// How many bytes a kernel keeps in flight against what the memory system
/// needs to reach its bandwidth (Little's law: bandwidth x latency).
///
/// A warp stalls at the first use of a loaded value, so its global loads go
/// out in rounds: the loads of one straight-line stretch together, and in a
/// loop the loads of as many iterations as the compiler unrolls
/// (kLoadsInFlightPerWarp: LLVM's runtime unrolling of small loop bodies).
/// Each round costs a memory latency; a wave of blocks takes its warps'
/// rounds times the latency, however few bytes they move.
struct MemoryLatency {
  double roundsPerWarp = 0;       ///< global-load round trips of an average warp
  double waves = 0;               ///< of resident blocks
  double loadsInFlightPerWarp = 0; ///< assumed, from the lowering's opt level
  /// Over the GPU: resident warps x loads in flight x bytes per request.
  double bytesInFlight = 0;
  double bytesNeeded = 0;         ///< DRAM bandwidth x latency
  double latencySeconds = 0;      ///< of one round trip
};

/// Seconds each unit would need at its peak, and the bottleneck; the total
/// is the slowest unit plus the fixed cost of a launch.
struct TimeModel {
  double dram = 0, l2 = 0, l1 = 0, lsu = 0, shared = 0, compute = 0, issue = 0;
  /// Memory-level parallelism: the chain of global-load round trips each
  /// warp waits for (MemoryLatency), wave after wave. It binds when too few
  /// bytes are in flight to cover bandwidth x latency.
  double latency = 0;
  double launch = 0;
  double total() const;
  const char *bottleneck() const;
};

struct KernelProfile {
  std::string name;
  Operation *kernel = nullptr;
  /// The atom table the access and branch polynomials refer to (print them
  /// with ProfilePrinter.h).
  std::shared_ptr<const IndexAnalysis> indices;
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
  /// Memory-level parallelism, behind TimeModel::latency.
  MemoryLatency memoryLatency;
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
};

/// Where a loop is in the source: the lifted scf.while carries the location
/// of its body's last statement, its condition the `for` line.
Location getLoopLocation(Operation *loop);

/// The GPU the module targets: its #ks.arch, else the database's default.
std::pair<std::string, GPUCapabilities> getTargetGPU(ModuleOp module);

/// Analyzes `kernel` from scratch. Passes use KernelProfileAnalysis, which
/// keeps the result until the kernel changes. Resources come from the
/// kernel's #ks.resources when it has one.
KernelProfile profileKernel(gpu::GPUFuncOp kernel, const ProfileOptions &options);

/// The kernel profile as an MLIR analysis of a `gpu.func` kernel: computed on
/// the first request, kept by the analysis manager until a pass that changes
/// the kernel (or its module's #ks.arch or launcher) invalidates it. The warp
/// simulation behind it costs up to seconds, so every agent of a run shares
/// one. A pass reaches it with
/// `getAnalysisManager().nest(kernel).getAnalysis<KernelProfileAnalysis>()`.
class KernelProfileAnalysis {
public:
  explicit KernelProfileAnalysis(Operation *kernel);
  /// The profile under `options`: computed once per distinct set of options.
  const KernelProfile &get(const ProfileOptions &options);

private:
  gpu::GPUFuncOp kernel;
  std::map<std::string, std::unique_ptr<KernelProfile>> profiles;
};

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
