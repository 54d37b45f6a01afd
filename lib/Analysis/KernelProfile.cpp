//===- KernelProfile.cpp - Everything the static analyses know ------------===//

#include "kernelskill/Analysis/KernelProfile.h"
#include "kernelskill/Analysis/IndexExpr.h"
#include "kernelskill/Analysis/SourceText.h"
#include "kernelskill/Dialect/KS/IR/KSAttrs.h"
#include "kernelskill/Dialect/KS/IR/SourceNames.h"
#include "kernelskill/Support/OptLevel.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringMap.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::ks;

const char *mlir::ks::toString(AccessPattern pattern) {
  switch (pattern) {
  case AccessPattern::Coalesced:
    return "coalesced";
  case AccessPattern::Strided:
    return "strided";
  case AccessPattern::Broadcast:
    return "broadcast";
  case AccessPattern::Gather:
    return "gather";
  }
  return "?";
}

std::optional<int64_t> AccessReport::constantStride() const {
  return stride ? stride->getConstant() : std::nullopt;
}

std::string AccessReport::kindName() const {
  std::string kind = isLoad && isStore ? "atomic" : isLoad ? "load" : "store";
  return space == MemorySpace::Shared ? "shared " + kind : kind;
}

double TimeModel::total() const {
  return std::max({dram, l2, l1, lsu, shared, compute, issue, latency}) + launch;
}

const char *TimeModel::bottleneck() const {
  double t = total() - launch;
  if (launch > t)
    return "the launch itself";
  if (t == dram)
    return "DRAM bandwidth";
  if (t == l2)
    return "L2 bandwidth (sectors that miss L1)";
  if (t == l1)
    return "L1 sectors of global accesses";
  if (t == lsu)
    return "load/store instructions";
  if (t == shared)
    return "shared-memory wavefronts";
  if (t == compute)
    return "arithmetic";
  if (t == latency)
    return "memory latency (too few loads in flight)";
  return "instruction issue";
}

std::pair<std::string, GPUCapabilities> mlir::ks::getTargetGPU(ModuleOp module) {
  if (auto arch = module->getAttrOfType<ArchAttr>(ArchAttr::kModuleAttrName))
    return {arch.getSku().str(), arch.getCaps()};
  const ArchEntry &entry = getDefaultGPU();
  return {entry.sku, entry.caps};
}

Location mlir::ks::getLoopLocation(Operation *loop) {
  if (auto w = dyn_cast<scf::WhileOp>(loop))
    if (Operation *cond = w.getConditionOp().getCondition().getDefiningOp())
      return cond->getLoc();
  return loop->getLoc();
}

namespace {
/// The value a memref access goes through, back to its root: a kernel
/// argument, a workgroup/private attribution or an allocation.
Value rootMemref(Value memref) {
  while (Operation *def = memref.getDefiningOp()) {
    if (isa<memref::CastOp, memref::ReinterpretCastOp, memref::SubViewOp, memref::ViewOp,
            memref::MemorySpaceCastOp>(def))
      memref = def->getOperand(0);
    else
      break;
  }
  return memref;
}

std::string bufferName(gpu::GPUFuncOp kernel, Value root) {
  if (auto arg = dyn_cast<BlockArgument>(root)) {
    if (arg.getOwner()->getParentOp() == kernel.getOperation()) {
      unsigned n = arg.getArgNumber();
      if (n < kernel.getNumArguments())
        return getArgumentName(kernel, n);
      if (auto named = dyn_cast<NameLoc>(arg.getLoc()))
        return named.getName().str();
      return n < kernel.getNumArguments() + kernel.getNumWorkgroupAttributions() ? "shared"
                                                                                 : "local";
    }
  }
  if (auto global = root.getDefiningOp<memref::GetGlobalOp>())
    return global.getName().str(); // a __constant__ or __device__ variable
  return getSourceVariableName(root).value_or("?").str();
}

StringRef predicateText(arith::CmpIPredicate p) {
  switch (p) {
  case arith::CmpIPredicate::eq: return "==";
  case arith::CmpIPredicate::ne: return "!=";
  case arith::CmpIPredicate::slt:
  case arith::CmpIPredicate::ult: return "<";
  case arith::CmpIPredicate::sle:
  case arith::CmpIPredicate::ule: return "<=";
  case arith::CmpIPredicate::sgt:
  case arith::CmpIPredicate::ugt: return ">";
  case arith::CmpIPredicate::sge:
  case arith::CmpIPredicate::uge: return ">=";
  }
  return "?";
}

/// Few ops on each side and nothing that needs a real branch: the kind of
/// if the compiler turns into predicated or selected code.
bool isPredicable(scf::IfOp ifOp) {
  constexpr int kMaxOps = 8;
  int ops = 0;
  bool blocked = false;
  ifOp->walk([&](Operation *inner) {
    if (inner == ifOp.getOperation() || isa<scf::YieldOp>(inner))
      return;
    ++ops;
    blocked |= inner->getNumRegions() > 0 || isa<gpu::BarrierOp>(inner);
  });
  return !blocked && ops <= kMaxOps;
}

Operation *enclosingLoop(Operation *op, Operation *kernel) {
  for (Operation *p = op->getParentOp(); p && p != kernel; p = p->getParentOp())
    if (isa<scf::WhileOp, scf::ForOp>(p))
      return p;
  return nullptr;
}

int64_t memrefBytes(MemRefType type) {
  return type.hasStaticShape() ? type.getNumElements() * getStorageBytes(type.getElementType()) : 0;
}

constexpr double kL1SectorsPerClock = 4;     // 128 B/clk/SM of L1 bandwidth
constexpr double kSchedulersPerSM = 4;       // one warp instruction issued each per clock
constexpr double kLSUInstructionsPerClock = 1; // 32 load/store lanes per SM per clock
// L2 bandwidth relative to DRAM's. Not in the architecture database yet; 1.5
// is the order of Hopper's (about 7 TB/s of L2 against 4.8 TB/s of HBM3e on
// an H200). docs/Profiler.md says how the agreement run checks it.
constexpr double kL2OverDramBandwidth = 1.5;
// What a launch costs however small the kernel (event-timed, as ks-bench
// measures); docs/Profiler.md compares it with the smallest measured kernels.
constexpr double kLaunchSeconds = 2e-6;
constexpr double kSpecialOpsPerClock = 16;   // SFU lanes per SM
// One global-memory round trip, in SM clocks. Fitted on one kernel of the
// agreement run (column_sum: 1000 dependent-free loads per thread, one warp
// per SM, 4 in flight: 0.0545 ms measured on the H200), checked on the
// others (docs/Profiler.md, "Memory-level parallelism").
constexpr double kMemoryLatencyCycles = 430;
// Loads one warp has in flight in a loop: LLVM unrolls small loop bodies at
// run time until about this many loads are exposed (the corpus's PTX: x4 for
// one load per iteration at -O2, x8 at -O3; x2 and x4 for two loads).
double loadsInFlightPerWarp(int64_t optLevel) { return optLevel >= 3 ? 8 : 4; }

/// Global-load rounds per warp (MemoryLatency): each loop's loads in groups
/// of `inFlight`, each straight-line stretch's loads in one round.
double loadRoundsPerWarp(const KernelProfile &p, double inFlight) {
  double warps = double(p.context.launch.blocks()) * double(p.context.launch.warpsPerBlock());
  if (warps <= 0)
    return 0;
  llvm::MapVector<Operation *, std::pair<double, double>> groups; // loop -> (sum, max)
  for (const AccessReport &a : p.accesses) {
    if (a.space != MemorySpace::Global || !a.isLoad || a.isStore || a.stats.requests <= 0)
      continue;
    auto &[sum, most] = groups[enclosingLoop(a.op, p.kernel)];
    sum += a.stats.requests / warps;
    most = std::max(most, a.stats.requests / warps);
  }
  double rounds = 0;
  for (auto &[loop, g] : groups)
    rounds += loop ? g.first / inFlight : g.second;
  return rounds;
}
} // namespace

KernelProfile mlir::ks::profileKernel(gpu::GPUFuncOp kernel, const ProfileOptions &options) {
  KernelProfile p;
  p.name = kernel.getName().str();
  p.kernel = kernel;
  auto module = kernel->getParentOfType<ModuleOp>();
  std::tie(p.gpu, p.caps) = getTargetGPU(module);
  p.context = resolveLaunchContext(kernel, module, options.workload);
  SimulationOptions sim;
  sim.launch = p.context.launch;
  sim.scalars = p.context.scalars;
  p.simulation = simulateKernel(kernel, sim);

  auto indexAnalysis = std::make_shared<IndexAnalysis>(kernel);
  p.indices = indexAnalysis;
  IndexAnalysis &indices = *indexAnalysis;
  std::optional<unsigned> tx = std::nullopt;

  // Memory accesses.
  kernel.walk([&](Operation *op) {
    std::optional<AccessInfo> info = getAccessInfo(op);
    if (!info || info->space == MemorySpace::Local)
      return;
    AccessReport a;
    a.op = op;
    a.space = info->space;
    a.isLoad = info->isLoad;
    a.isStore = info->isStore;
    a.bytes = info->bytes;
    Value root = rootMemref(info->memref);
    a.buffer = root;
    a.bufferName = bufferName(kernel, root);
    a.stats = p.simulation.accesses.lookup(op);
    std::optional<IndexExpr> index = indices.linearIndex(info->memref, info->indices);
    tx = indices.threadIdXAtom();
    auto memrefType = cast<MemRefType>(info->memref.getType());
    int64_t elementBytes = getStorageBytes(memrefType.getElementType());
    a.index = index;
    if (!index) {
      a.pattern = AccessPattern::Gather;
    } else {
      std::optional<IndexExpr> coeff = tx ? index->coefficientOf(*tx) : IndexExpr::constant(0);
      IndexExpr rest = *index;
      if (coeff && tx)
        rest = *index - *coeff * IndexExpr::atom(*tx);
      // Lanes that differ only in threadIdx.y/z are not "irregular".
      bool irregular = false;
      for (const auto &[m, c] : rest.terms())
        for (unsigned atomId : m) {
          const IndexAtom &atom = indices.atom(atomId);
          if (atom.laneVarying && atom.kind != IndexAtom::Kind::ThreadId)
            irregular = true;
        }
      if (!coeff || irregular || (coeff && indices.isLaneVarying(*coeff))) {
        a.pattern = AccessPattern::Gather;
        if (coeff && !irregular)
          a.stride = *coeff;
      } else {
        a.stride = *coeff;
        if (std::optional<int64_t> c = coeff->getConstant()) {
          int64_t strideBytes = std::abs(*c) * elementBytes;
          a.pattern = *c == 0                      ? AccessPattern::Broadcast
                      : strideBytes <= a.bytes     ? AccessPattern::Coalesced
                                                   : AccessPattern::Strided;
        } else {
          a.pattern = AccessPattern::Strided;
        }
      }
      // A load whose address does not change across the iterations of its
      // innermost loop, from a buffer the loop does not write.
      if (a.isLoad && !a.isStore)
        if (Operation *loop = enclosingLoop(op, kernel)) {
          bool written = false;
          loop->walk([&](Operation *inner) {
            if (std::optional<AccessInfo> other = getAccessInfo(inner))
              written |= other->isStore && rootMemref(other->memref) == root;
          });
          if (!written && !indices.variesWithin(*index, loop))
            a.invariantLoop = loop;
        }
    }
    a.text = getSourceAccess(op->getLoc(), /*requireSubscript=*/true);
    if (a.text.empty())
      a.text = a.bufferName + "[" + (index ? indices.print(*index) : std::string("?")) + "]";
    if (a.space == MemorySpace::Global) {
      a.l2Sectors = a.stats.sectors;
      if (a.isLoad && !a.isStore) {
        a.l2Sectors /= std::max(1.0, a.stats.warpsPerElement);
        if (index)
          if (Operation *loop = enclosingLoop(op, kernel)) {
            BranchStats trips = p.simulation.branches.lookup(loop);
            if (!indices.variesWithin(*index, loop) && trips.executions > 0)
              a.l2Sectors /= std::max(1.0, trips.iterations / trips.executions);
            else if (std::optional<int64_t> step = indices.constantStrideWithin(*index, loop))
              if (*step != 0 && std::abs(*step) * elementBytes < 32)
                a.l2Sectors /= double(32 / (std::abs(*step) * elementBytes));
          }
      }
    }
    if (a.stats.requests > 0) {
      a.sectorsPerRequest = a.stats.sectors / a.stats.requests;
      a.idealSectorsPerRequest = a.stats.idealSectors / a.stats.requests;
      a.wavefrontsPerRequest =
          a.stats.idealWavefronts > 0 ? a.stats.wavefronts / a.stats.idealWavefronts : 0;
    }
    p.accesses.push_back(std::move(a));
  });

  // Branches and loops.
  auto staticOps = [](Region &r) {
    double n = 0;
    r.walk([&](Operation *) { n += 1; });
    return n;
  };
  kernel.walk([&](Operation *op) {
    Value cond;
    BranchReport b;
    b.op = op;
    b.stats = p.simulation.branches.lookup(op);
    if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
      cond = ifOp.getCondition();
      b.predicable = isPredicable(ifOp);
      b.instructionsInside = b.stats.executions *
                             (staticOps(ifOp.getThenRegion()) + staticOps(ifOp.getElseRegion()));
    } else if (auto sw = dyn_cast<scf::IndexSwitchOp>(op)) {
      b.kind = ControlKind::Switch;
      double inside = 0;
      for (Region &r : sw->getRegions())
        inside += staticOps(r);
      b.instructionsInside = b.stats.executions * inside;
      b.lhs = indices.get(sw.getArg());
      b.laneDependent = indices.isLaneVarying(*b.lhs);
    } else if (auto loop = dyn_cast<scf::WhileOp>(op)) {
      b.kind = ControlKind::Loop;
      cond = loop.getConditionOp().getCondition();
      b.instructionsInside = b.stats.iterations * staticOps(loop.getAfter());
    } else if (auto loop = dyn_cast<scf::ForOp>(op)) {
      b.kind = ControlKind::Loop;
      b.instructionsInside = b.stats.iterations * staticOps(loop.getRegion());
      b.lhs = indices.get(loop.getInductionVar());
      b.rhs = indices.get(loop.getUpperBound());
      b.predicate = "<";
      b.laneDependent = indices.isLaneVarying(indices.get(loop.getUpperBound())) ||
                        indices.isLaneVarying(indices.get(loop.getLowerBound()));
    } else {
      return;
    }
    b.loc = b.isLoop() ? getLoopLocation(op) : op->getLoc();
    if (cond) {
      b.laneDependent = indices.isLaneVarying(indices.get(cond));
      if (auto cmp = cond.getDefiningOp<arith::CmpIOp>()) {
        b.lhs = indices.get(cmp.getLhs());
        b.rhs = indices.get(cmp.getRhs());
        b.predicate = predicateText(cmp.getPredicate());
      }
    }
    if (b.stats.executions > 0)
      b.divergentFraction = b.stats.divergent / b.stats.executions;
    p.branches.push_back(std::move(b));
  });

  // Resources: ptxas's report, else what the IR says.
  ResourceReport &r = p.resources;
  r.dynamicSharedBytes = p.context.dynamicSharedBytes;
  int64_t staticShared = 0, localBytes = 0;
  for (BlockArgument a : kernel.getWorkgroupAttributions())
    staticShared += memrefBytes(cast<MemRefType>(a.getType()));
  for (BlockArgument a : kernel.getPrivateAttributions()) {
    localBytes += memrefBytes(cast<MemRefType>(a.getType()));
    if (!r.localArrayLoc)
      r.localArrayLoc = a.getLoc();
  }
  kernel.walk([&](memref::AllocaOp alloca) {
    localBytes += memrefBytes(alloca.getType());
    if (!r.localArrayLoc && alloca.getType().getNumElements() > 1) {
      r.localArrayLoc = alloca.getLoc();
      for (Operation *user : alloca->getUsers())
        if (std::optional<AccessInfo> info = getAccessInfo(user))
          for (Value index : info->indices)
            r.localArrayDynamicIndex |= !index.getDefiningOp<arith::ConstantOp>();
    }
  });
  if (auto given = kernel->getAttrOfType<ResourcesAttr>(ResourcesAttr::kKernelAttrName)) {
    r.fromPtxas = true;
    r.info.registers = given.getRegisters();
    r.info.stackFrameBytes = given.getStack();
    r.info.spillStoreBytes = given.getSpillStores();
    r.info.spillLoadBytes = given.getSpillLoads();
    r.info.sharedBytes = given.getShared();
    r.chip = given.getChip().str();
    r.optLevel = given.getOptLevel();
  } else {
    // A rough estimate: one register per scalar value defined, within the
    // range ptxas uses in practice; stack = private arrays.
    int64_t values = 0;
    kernel.walk([&](Operation *op) {
      for (Value v : op->getResults())
        if (v.getType().isIntOrIndexOrFloat())
          ++values;
    });
    r.info.registers = std::clamp<int64_t>((values + 7) / 8 * 8, 16, 255);
    r.info.sharedBytes = staticShared;
    r.info.stackFrameBytes = localBytes;
    r.estimateNote = "estimated from the IR (" + std::to_string(values) +
                     " scalar values); the kernel has no #ks.resources (run "
                     "ks-collect-resources, which needs ptxas)";
  }
  KernelResources kr;
  kr.threadsPerBlock = p.context.launch.threadsPerBlock();
  kr.registersPerThread = r.info.registers;
  kr.staticSmemPerBlock = r.info.sharedBytes;
  kr.dynamicSmemPerBlock = r.dynamicSharedBytes;
  p.occupancy = computeOccupancy(p.caps, kr);

  // DRAM traffic, compulsory-traffic model: every byte of a buffer the
  // kernel touches moves once (L2 holds the reuse), but never more than
  // the sectors that reach L2.
  llvm::MapVector<Value, std::pair<double, double>> readWrite; // requested bytes
  llvm::DenseMap<Value, double> maxElement;
  llvm::DenseMap<Value, int64_t> elementBytesOf;
  llvm::DenseSet<Value> reachUnknown; // buffers with data-dependent accesses
  for (const AccessReport &a : p.accesses) {
    if (a.space != MemorySpace::Global)
      continue;
    std::optional<AccessInfo> info = getAccessInfo(a.op);
    Value root = rootMemref(info->memref);
    auto &[read, write] = readWrite[root];
    // What misses L1 is what can reach DRAM.
    if (a.isLoad)
      read += a.l2Sectors * 32;
    if (a.isStore)
      write += a.l2Sectors * 32;
    maxElement[root] = std::max(maxElement.lookup(root), a.stats.maxElement);
    if (a.stats.unknownRequests > 0)
      reachUnknown.insert(root);
    elementBytesOf[root] =
        getStorageBytes(cast<MemRefType>(info->memref.getType()).getElementType());
  }
  for (auto &[root, rw] : readWrite) {
    // The highest element the sampled blocks touch (they include the grid's
    // last block); a declared extent can only lower it.
    // When some accesses are data-dependent, the highest element seen is no
    // bound: only a declared extent is. (Extrapolated loops extrapolate it.)
    double extent = reachUnknown.contains(root) ? INFINITY : maxElement.lookup(root) + 1;
    if (auto arg = dyn_cast<BlockArgument>(root))
      if (auto it = p.context.extents.find(arg.getArgNumber()); it != p.context.extents.end())
        extent = std::min(extent, double(it->second));
    double footprint = extent * elementBytesOf.lookup(root);
    p.footprintBytes += std::isfinite(footprint) ? footprint : std::max(rw.first, rw.second);
    p.dramReadBytes += std::min(footprint, rw.first);
    p.dramWriteBytes += std::min(footprint, rw.second);
  }

  // The roofline's floor rests on the global buffers' compulsory traffic;
  // local-memory traffic is an inefficiency, priced by the time model.
  p.dramBytes = p.dramReadBytes + p.dramWriteBytes;

  // Local memory: the private arrays of every resident thread; what L2
  // cannot hold of that footprint goes to DRAM, in proportion.
  double localLoads = 0, localStores = 0;
  for (auto &[op, stats] : p.simulation.accesses) {
    std::optional<AccessInfo> info = getAccessInfo(op);
    if (!info || info->space != MemorySpace::Local)
      continue;
    (info->isLoad ? localLoads : localStores) += stats.sectors * 32;
    if (info->isLoad && info->isStore)
      localStores += stats.sectors * 32;
  }
  p.localBytes = localLoads + localStores;
  double residentThreads = double(p.occupancy.activeWarpsPerSM) * double(p.caps.warpSize) *
                           double(p.caps.smCount);
  double localFootprint = double(r.info.stackFrameBytes) *
                          std::min(residentThreads, double(p.context.launch.blocks()) *
                                                        double(p.context.launch.threadsPerBlock()));
  if (localFootprint > double(p.caps.l2Bytes) && localFootprint > 0) {
    double missing = 1 - double(p.caps.l2Bytes) / localFootprint;
    p.dramReadBytes += localLoads * missing;
    p.dramWriteBytes += localStores * missing;
    p.localDramBytes = p.localBytes * missing;
  }

  // Achieved occupancy cannot exceed what the grid supplies: with fewer
  // blocks than SMs times resident blocks, each SM holds ceil(blocks / SMs)
  // at most (the counter averages over the cycles an SM is active).
  double blocksPerSM = std::ceil(double(p.context.launch.blocks()) / std::max<double>(1, p.caps.smCount));
  double maxWarps = double(p.caps.maxThreadsPerSM) / double(p.caps.warpSize);
  p.expectedAchievedOccupancy =
      maxWarps > 0 ? std::min(p.occupancy.occupancy,
                              blocksPerSM * double(p.context.launch.warpsPerBlock()) / maxWarps)
                   : 0;

  RooflineInput in;
  in.flops = p.simulation.flops;
  in.dramBytes = p.dramBytes;
  in.totalWarps = double(p.context.launch.blocks() * p.context.launch.warpsPerBlock());
  p.roofline = computeRoofline(p.caps, in);

  // The first-order time model: each unit at its peak rate.
  double clock = double(p.caps.smClockMHz) * 1e6, sms = double(p.caps.smCount);
  double globalSectors = 0, l2Sectors = 0, wavefronts = 0, memoryRequests = 0;
  double ldSectors = 0, ldRequests = 0, stSectors = 0, stRequests = 0;
  for (const AccessReport &a : p.accesses) {
    memoryRequests += a.stats.requests;
    if (a.space == MemorySpace::Global) {
      globalSectors += a.stats.sectors;
      l2Sectors += a.l2Sectors;
      if (a.isLoad && !a.isStore)
        ldSectors += a.stats.sectors, ldRequests += a.stats.requests;
      if (a.isStore && !a.isLoad)
        stSectors += a.stats.sectors, stRequests += a.stats.requests;
    } else {
      wavefronts += a.stats.wavefronts;
      double extra = a.stats.wavefronts - a.stats.idealWavefronts;
      (a.isLoad ? p.sharedLoadConflicts : p.sharedStoreConflicts) += extra;
    }
  }
  p.loadSectorsPerRequest = ldRequests > 0 ? ldSectors / ldRequests : 0;
  p.storeSectorsPerRequest = stRequests > 0 ? stSectors / stRequests : 0;
  double executions = 0, divergent = 0;
  for (const BranchReport &b : p.branches) {
    if (b.isLoop()) {
      // The back-edge branch runs once per iteration and once at the exit.
      executions += b.stats.iterations + b.stats.executions;
      divergent += b.stats.divergentIterations + b.stats.divergent;
    } else if (!b.predicable) {
      executions += b.stats.executions;
      divergent += b.stats.divergent;
    }
  }
  p.branchUniformity = executions > 0 ? 1 - divergent / executions : 1;
  if (clock > 0 && sms > 0) {
    p.model.launch = kLaunchSeconds;
    p.model.dram = p.roofline.memorySeconds;
    if (p.caps.dramGBps > 0)
      p.model.dram += p.localDramBytes / (p.caps.dramGBps * 1e9);
    if (p.caps.dramGBps > 0)
      p.model.l2 = (l2Sectors * 32 + p.localBytes) / (kL2OverDramBandwidth * p.caps.dramGBps * 1e9);
    p.model.l1 = globalSectors / (sms * clock * kL1SectorsPerClock);
    p.model.lsu = memoryRequests / (sms * clock * kLSUInstructionsPerClock);
    p.model.shared = wavefronts / (sms * clock);
    p.model.compute = p.roofline.computeSeconds +
                      p.simulation.specialFunctionOps / (sms * clock * kSpecialOpsPerClock);
    p.model.issue = p.simulation.warpInstructions / (sms * clock * kSchedulersPerSM);

    MemoryLatency &m = p.memoryLatency;
    m.loadsInFlightPerWarp = loadsInFlightPerWarp(r.fromPtxas ? r.optLevel : kDefaultOptLevel);
    m.roundsPerWarp = loadRoundsPerWarp(p, m.loadsInFlightPerWarp);
    m.latencySeconds = kMemoryLatencyCycles / clock;
    double resident = sms * double(std::max<int64_t>(1, p.occupancy.activeBlocksPerSM));
    m.waves = std::ceil(double(p.context.launch.blocks()) / resident);
    double loadRequests = 0, loadBytes = 0;
    for (const AccessReport &a : p.accesses)
      if (a.space == MemorySpace::Global && a.isLoad && !a.isStore)
        loadRequests += a.stats.requests, loadBytes += a.stats.sectors * 32;
    double residentWarps =
        std::min(double(p.context.launch.blocks()) * double(p.context.launch.warpsPerBlock()),
                 double(p.occupancy.activeWarpsPerSM) * sms);
    if (loadRequests > 0)
      m.bytesInFlight = residentWarps * m.loadsInFlightPerWarp * loadBytes / loadRequests;
    m.bytesNeeded = p.caps.dramGBps * 1e9 * m.latencySeconds;
    p.model.latency = m.waves * m.roundsPerWarp * m.latencySeconds;
  }
  return p;
}

double mlir::ks::savedFraction(const KernelProfile &profile, const WorkSaved &saved) {
  double clock = double(profile.caps.smClockMHz) * 1e6, sms = double(profile.caps.smCount);
  TimeModel fixed = profile.model;
  if (clock <= 0 || sms <= 0 || profile.model.total() <= 0)
    return 0;
  auto less = [](double &term, double seconds) { term = std::max(0.0, term - seconds); };
  less(fixed.l1, saved.l1Sectors / (sms * clock * kL1SectorsPerClock));
  if (profile.caps.dramGBps > 0)
    less(fixed.l2, saved.l2Sectors * 32 / (kL2OverDramBandwidth * profile.caps.dramGBps * 1e9));
  less(fixed.lsu, saved.memoryRequests / (sms * clock * kLSUInstructionsPerClock));
  less(fixed.shared, saved.wavefronts / (sms * clock));
  less(fixed.issue, saved.instructions / (sms * clock * kSchedulersPerSM));
  if (profile.caps.dramGBps > 0)
    less(fixed.dram, saved.dramBytes / (profile.caps.dramGBps * 1e9));
  return std::clamp(1 - fixed.total() / profile.model.total(), 0.0, 1.0);
}

//===----------------------------------------------------------------------===//
// KernelProfileAnalysis
//===----------------------------------------------------------------------===//

KernelProfileAnalysis::KernelProfileAnalysis(Operation *op) : kernel(cast<gpu::GPUFuncOp>(op)) {}

const KernelProfile &KernelProfileAnalysis::get(const ProfileOptions &options) {
  // StringMap iterates in no particular order: sort for a canonical key.
  std::vector<std::pair<std::string, int64_t>> sizes;
  for (const auto &entry : options.workload)
    sizes.emplace_back(entry.getKey().str(), entry.getValue());
  llvm::sort(sizes);
  std::string key;
  for (const auto &[name, value] : sizes)
    key += name + "=" + std::to_string(value) + ",";
  std::unique_ptr<KernelProfile> &slot = profiles[key];
  if (!slot)
    slot = std::make_unique<KernelProfile>(profileKernel(kernel, options));
  return *slot;
}
