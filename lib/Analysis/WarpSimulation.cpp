//===- WarpSimulation.cpp - Run a kernel's index arithmetic per warp ------===//
//
// A small SIMT interpreter for the integer part of structured kernels (see the
// header). It is ours because upstream has no interpreter for the gpu/scf/arith
// dialects; it only needs the ops the lifter and the lowering produce, and
// treats everything else as an op with unknown results.
//
//===----------------------------------------------------------------------===//

#include "kernelskill/Analysis/WarpSimulation.h"
#include "kernelskill/Analysis/IntegerSemantics.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/TypeSwitch.h"

#include <algorithm>
#include <bit>

using namespace mlir;
using namespace mlir::ks;

namespace {
constexpr unsigned kLanes = 32;
constexpr uint32_t kAllLanes = 0xffffffffu;
/// Bound on the (element, thread) pairs kept per access and block.
constexpr size_t kMaxReuseEntries = 1 << 20;

/// One SSA value across the 32 lanes of a warp.
struct Lanes {
  std::array<int64_t, kLanes> v{};
  uint32_t known = 0; ///< lanes whose value is known
  static Lanes splat(int64_t x) {
    Lanes l;
    l.v.fill(x);
    l.known = kAllLanes;
    return l;
  }
  /// Takes `from`'s known values on the lanes of `mask`.
  void takeFrom(const Lanes &from, uint32_t mask) {
    mask &= from.known;
    for (uint32_t m = mask; m; m &= m - 1) {
      unsigned lane = std::countr_zero(m);
      v[lane] = from.v[lane];
    }
    known |= mask;
  }
};

template <typename F> void forEachLane(uint32_t mask, F f) {
  while (mask) {
    unsigned lane = std::countr_zero(mask);
    f(lane);
    mask &= mask - 1;
  }
}

MemorySpace spaceOf(MemRefType type) {
  if (auto space = dyn_cast_or_null<gpu::AddressSpaceAttr>(type.getMemorySpace())) {
    if (space.getValue() == gpu::AddressSpace::Workgroup)
      return MemorySpace::Shared;
    if (space.getValue() == gpu::AddressSpace::Private)
      return MemorySpace::Local;
    return MemorySpace::Global;
  }
  if (auto i = dyn_cast_or_null<IntegerAttr>(type.getMemorySpace())) {
    if (i.getInt() == 3)
      return MemorySpace::Shared;
    if (i.getInt() == 5)
      return MemorySpace::Local;
  }
  return MemorySpace::Global;
}

/// 0 f16, 1 bf16, 2 f32, 3 f64; -1 for other types.
int precisionSlot(Type type) {
  if (auto v = dyn_cast<VectorType>(type))
    type = v.getElementType();
  if (type.isF16())
    return 0;
  if (type.isBF16())
    return 1;
  if (type.isF32())
    return 2;
  if (type.isF64())
    return 3;
  return -1;
}

int64_t elementsOf(Type type) {
  if (auto v = dyn_cast<VectorType>(type))
    return v.getNumElements();
  return 1;
}

/// Statistics of one simulated block or the whole run.
struct Stats {
  llvm::MapVector<Operation *, AccessStats> accesses;
  llvm::MapVector<Operation *, BranchStats> branches;
  std::array<double, 4> flops = {0, 0, 0, 0};
  double special = 0, warpInstructions = 0;

  /// this += (now - base) * factor, entry by entry. `extrapolated` marks the
  /// accesses that took part (their highest element is no longer known).
  void addScaledDelta(const Stats &now, const Stats &base, double factor,
                      bool extrapolated = false) {
    for (auto &[op, s] : now.accesses) {
      AccessStats b = base.accesses.lookup(op);
      AccessStats &d = accesses[op];
      if (extrapolated && s.requests > b.requests)
        d.extrapolated = true;
      d.extrapolated |= s.extrapolated;
      d.requests += (s.requests - b.requests) * factor;
      d.sectors += (s.sectors - b.sectors) * factor;
      d.idealSectors += (s.idealSectors - b.idealSectors) * factor;
      d.wavefronts += (s.wavefronts - b.wavefronts) * factor;
      d.idealWavefronts += (s.idealWavefronts - b.idealWavefronts) * factor;
      d.unknownRequests += (s.unknownRequests - b.unknownRequests) * factor;
      d.maxElement = std::max(d.maxElement, s.maxElement);
      d.worstWavefronts = std::max(d.worstWavefronts, s.worstWavefronts);
    }
    for (auto &[op, s] : now.branches) {
      BranchStats b = base.branches.lookup(op);
      BranchStats &d = branches[op];
      d.executions += (s.executions - b.executions) * factor;
      d.divergent += (s.divergent - b.divergent) * factor;
      d.unknown += (s.unknown - b.unknown) * factor;
      d.iterations += (s.iterations - b.iterations) * factor;
      d.divergentIterations += (s.divergentIterations - b.divergentIterations) * factor;
    }
    for (int i = 0; i < 4; ++i)
      flops[i] += (now.flops[i] - base.flops[i]) * factor;
    special += (now.special - base.special) * factor;
    warpInstructions += (now.warpInstructions - base.warpInstructions) * factor;
  }
};

/// After extrapolating a loop: each access's highest element grows as it
/// did per iteration between `first` (after one iteration) and `last`
/// (after `recorded`), for `more` iterations.
void extrapolateMaxElement(Stats &stats, const Stats &first, const Stats &last, double recorded,
                           double more) {
  if (recorded < 2 || more <= 0)
    return;
  for (auto &[op, s] : last.accesses) {
    auto it = first.accesses.find(op);
    if (it == first.accesses.end() || s.maxElement <= it->second.maxElement)
      continue;
    double perIteration = (s.maxElement - it->second.maxElement) / (recorded - 1);
    AccessStats &d = stats.accesses[op];
    d.maxElement = std::max(d.maxElement, s.maxElement + perIteration * more);
  }
}

/// Distinct (element, thread) pairs and elements per access in one block.
struct BlockReuse {
  llvm::DenseSet<int64_t> elements;
  llvm::DenseSet<std::pair<int64_t, int64_t>> elementThreads, elementWarps;
};

class Simulator {
public:
  Simulator(gpu::GPUFuncOp kernel, const SimulationOptions &options)
      : kernel(kernel), options(options) {}

  SimulationResult run();

private:
  // Execution.
  void execBlock(Block &block, uint32_t mask);
  void execOp(Operation *op, uint32_t mask);
  void execIf(scf::IfOp op, uint32_t mask);
  void execWhile(scf::WhileOp op, uint32_t mask);
  void execFor(scf::ForOp op, uint32_t mask);
  void execIndexSwitch(scf::IndexSwitchOp op, uint32_t mask);
  /// Runs one side of a branch on the lanes of `mask` and takes what its
  /// terminator yields on those lanes into `results`.
  void runBranch(Region &region, uint32_t mask, SmallVectorImpl<Lanes> &results);
  /// Counts one warp-level execution of a loop.
  void recordLoop(Operation *loop, bool divergentExit, bool unknown, double iterations,
                  double divergentIterations);
  void execAccess(Operation *op, const AccessInfo &info, uint32_t mask);
  bool execArith(Operation *op, uint32_t mask);

  Lanes get(Value v) const {
    auto it = env.find(v);
    return it == env.end() ? Lanes() : it->second;
  }
  void approximate(const std::string &why) {
    if (!llvm::is_contained(approximations, why))
      approximations.push_back(why);
  }
  bool overBudget() const { return opsExecuted > options.budget; }

  /// What a while loop's condition depends on: the ops of each region, in
  /// order, and the loop-carried values (the rest become unknown while the
  /// loop is fast-forwarded).
  struct ControlSlice {
    std::vector<Operation *> beforeOps, afterOps;
    std::vector<bool> neededArgs;
  };
  const ControlSlice &controlSlice(scf::WhileOp op);

  gpu::GPUFuncOp kernel;
  const SimulationOptions &options;
  llvm::DenseMap<Value, Lanes> env;
  Stats stats;
  bool recording = true;
  uint64_t opsExecuted = 0;
  std::vector<std::string> approximations;
  llvm::DenseMap<Operation *, ControlSlice> slices;
  llvm::DenseMap<Operation *, IntegerSemantics> semantics; ///< per op, built once

  // The warp being simulated.
  std::array<int64_t, 3> blockId = {0, 0, 0};
  std::array<std::array<int64_t, kLanes>, 3> threadId{};
  std::array<int64_t, kLanes> linearThread{};
  llvm::DenseMap<Operation *, BlockReuse> *reuse = nullptr;
};

void Simulator::execBlock(Block &block, uint32_t mask) {
  for (Operation &op : block.without_terminator()) {
    if (overBudget())
      return;
    execOp(&op, mask);
  }
}

bool Simulator::execArith(Operation *op, uint32_t mask) {
  auto [it, inserted] = semantics.try_emplace(op);
  if (inserted)
    it->second = getIntegerSemantics(op);
  const IntegerSemantics &compute = it->second;
  if (!compute)
    return false;
  SmallVector<Lanes, 3> operands;
  for (Value v : op->getOperands())
    operands.push_back(get(v));
  SmallVector<std::optional<int64_t>, 3> values(operands.size());
  Lanes out;
  // Constants hold on every lane, whichever are active where they sit.
  forEachLane(isa<arith::ConstantOp>(op) ? kAllLanes : mask, [&](unsigned l) {
    for (auto [i, lanes] : llvm::enumerate(operands))
      values[i] = (lanes.known >> l) & 1 ? std::optional<int64_t>(lanes.v[l]) : std::nullopt;
    if (std::optional<int64_t> r = compute(values)) {
      out.v[l] = *r;
      out.known |= 1u << l;
    }
  });
  env[op->getResult(0)] = out;
  return true;
}

} // namespace

int64_t mlir::ks::getStorageBytes(Type type) {
  if (auto v = dyn_cast<VectorType>(type))
    return v.getNumElements() * getStorageBytes(v.getElementType());
  if (type.isIntOrFloat()) // whole bytes: an i1 (C bool) takes one
    return std::max<int64_t>(1, (type.getIntOrFloatBitWidth() + 7) / 8);
  if (type.isIndex())
    return 8;
  return 4;
}

std::optional<AccessInfo> mlir::ks::getAccessInfo(Operation *op) {
  auto make = [](Value memref, ValueRange indices, Type accessType, bool load,
                 bool store) -> std::optional<AccessInfo> {
    auto type = dyn_cast<MemRefType>(memref.getType());
    if (!type)
      return std::nullopt;
    MemorySpace space = spaceOf(type);
    // A thread-private array (alloca, private attribution) is local memory
    // whatever its memref's address space says.
    if (memref.getDefiningOp<memref::AllocaOp>())
      space = MemorySpace::Local;
    if (auto arg = dyn_cast<BlockArgument>(memref))
      if (auto fn = dyn_cast<gpu::GPUFuncOp>(arg.getOwner()->getParentOp()))
        if (arg.getArgNumber() >= fn.getNumArguments() + fn.getNumWorkgroupAttributions())
          space = MemorySpace::Local;
    return AccessInfo{memref, indices, space, getStorageBytes(accessType), load, store};
  };
  return llvm::TypeSwitch<Operation *, std::optional<AccessInfo>>(op)
      .Case<memref::LoadOp>([&](memref::LoadOp l) {
        return make(l.getMemRef(), l.getIndices(), l.getType(), true, false);
      })
      .Case<memref::StoreOp>([&](memref::StoreOp s) {
        return make(s.getMemRef(), s.getIndices(), s.getValueToStore().getType(), false, true);
      })
      .Case<vector::LoadOp>([&](vector::LoadOp l) {
        return make(l.getBase(), l.getIndices(), l.getVectorType(), true, false);
      })
      .Case<vector::StoreOp>([&](vector::StoreOp s) {
        return make(s.getBase(), s.getIndices(), s.getVectorType(), false, true);
      })
      .Case<memref::AtomicRMWOp>([&](memref::AtomicRMWOp a) {
        return make(a.getMemref(), a.getIndices(), a.getType(), true, true);
      })
      .Case<memref::GenericAtomicRMWOp>([&](memref::GenericAtomicRMWOp a) {
        return make(a.getMemref(), a.getIndices(), a.getResult().getType(), true, true);
      })
      .Default([](Operation *) { return std::nullopt; });
}

namespace {

void Simulator::execAccess(Operation *op, const AccessInfo &info, uint32_t mask) {
  for (Value r : op->getResults())
    env.erase(r); // loaded data is not simulated
  if (op->getNumRegions()) // generic_atomic_rmw's body only computes the new value
    for (Region &r : op->getRegions())
      for (Block &b : r)
        for (Operation &inner : b.without_terminator())
          (void)execArith(&inner, mask);
  if (!recording || !mask)
    return;
  if (info.space == MemorySpace::Local) {
    // Local memory is interleaved by thread: a warp's accesses to the same
    // element of its private arrays are contiguous, whatever the index.
    AccessStats &s = stats.accesses[op];
    double lanes = std::popcount(mask);
    s.requests += 1;
    s.sectors += std::ceil(lanes * info.bytes / 32.0);
    s.idealSectors += std::ceil(lanes * info.bytes / 32.0);
    return;
  }
  auto type = cast<MemRefType>(info.memref.getType());
  SmallVector<int64_t> strides;
  int64_t offset = 0;
  bool stridesKnown = succeeded(type.getStridesAndOffset(strides, offset)) &&
                      llvm::none_of(strides, ShapedType::isDynamic);
  // The flat element index per lane.
  Lanes index = Lanes::splat(0);
  if (!stridesKnown)
    index.known = 0;
  for (auto [d, idx] : llvm::enumerate(info.indices)) {
    if (!stridesKnown)
      break;
    Lanes i = get(idx);
    index.known &= i.known;
    forEachLane(mask, [&](unsigned l) { index.v[l] += i.v[l] * strides[d]; });
  }
  int64_t elementBytes = getStorageBytes(type.getElementType());
  int64_t width = info.bytes;
  uint32_t knownLanes = mask & index.known;
  unsigned unknownLanes = std::popcount(mask & ~index.known);

  AccessStats &s = stats.accesses[op];
  forEachLane(knownLanes, [&](unsigned l) {
    s.maxElement = std::max(s.maxElement, double(index.v[l] + (width - 1) / elementBytes));
  });
  s.requests += 1;
  if (unknownLanes)
    s.unknownRequests += 1;

  if (info.space == MemorySpace::Global) {
    SmallVector<int64_t, 64> sectors;
    // The ideal: each row of the warp (lanes with the same threadIdx.y/z)
    // reading its distinct bytes contiguously from its lowest address.
    llvm::SmallDenseMap<int64_t, SmallVector<std::pair<int64_t, int64_t>, 32>, 4> rows;
    forEachLane(knownLanes, [&](unsigned l) {
      int64_t begin = index.v[l] * elementBytes;
      rows[threadId[1][l] + threadId[2][l] * options.launch.block[1]].push_back(
          {begin, begin + width});
      for (int64_t sector = begin >> 5; sector <= (begin + width - 1) >> 5; ++sector)
        sectors.push_back(sector);
    });
    llvm::sort(sectors);
    double touched = std::unique(sectors.begin(), sectors.end()) - sectors.begin();
    SmallVector<int64_t, 64> idealSectors;
    for (auto &[row, spans] : rows) {
      llvm::sort(spans);
      int64_t distinctBytes = 0, end = INT64_MIN;
      for (auto [b, e] : spans) {
        b = std::max(b, end);
        if (e > b)
          distinctBytes += e - b;
        end = std::max(end, e);
      }
      int64_t first = spans.front().first >> 5;
      for (int64_t k = 0; k < (distinctBytes + 31) / 32; ++k)
        idealSectors.push_back(first + k);
    }
    llvm::sort(idealSectors);
    double ideal = std::unique(idealSectors.begin(), idealSectors.end()) - idealSectors.begin();
    // A data-dependent address is charged its own sectors (the worst case).
    double perLane = double((width + 31) / 32);
    s.sectors += touched + unknownLanes * perLane;
    s.idealSectors += std::max<double>(1, ideal + std::ceil(unknownLanes * width / 32.0));
  } else {
    // Shared memory: 32 banks of 4 bytes; wider accesses are split into
    // phases of 128 bytes (half-warps for 8 bytes, quarter-warps for 16).
    unsigned lanesPerPhase = width <= 4 ? 32 : std::max<unsigned>(1, unsigned(128 / width));
    double requestWavefronts = 0, requestPhases = 0;
    for (unsigned first = 0; first < kLanes; first += lanesPerPhase) {
      uint32_t phase = (lanesPerPhase == 32 ? kAllLanes : ((1u << lanesPerPhase) - 1) << first) & mask;
      if (!phase)
        continue;
      std::array<SmallVector<int64_t, 4>, 32> words;
      forEachLane(phase & knownLanes, [&](unsigned l) {
        int64_t begin = index.v[l] * elementBytes;
        for (int64_t w = begin >> 2; w <= (begin + std::max<int64_t>(width, 1) - 1) >> 2; ++w) {
          auto &bank = words[uint64_t(w) % 32];
          if (!llvm::is_contained(bank, w))
            bank.push_back(w);
        }
      });
      size_t passes = 1;
      for (auto &bank : words)
        passes = std::max(passes, bank.size());
      s.wavefronts += passes;
      s.idealWavefronts += 1;
      requestWavefronts += passes;
      requestPhases += 1;
    }
    if (requestPhases > 0)
      s.worstWavefronts = std::max(s.worstWavefronts, requestWavefronts / requestPhases);
  }

  if (reuse && knownLanes) {
    BlockReuse &r = (*reuse)[op];
    if (r.elementThreads.size() > kMaxReuseEntries) {
      approximate("reuse was measured on part of a block (too many distinct elements)");
      return;
    }
    forEachLane(knownLanes, [&](unsigned l) {
      r.elements.insert(index.v[l]);
      r.elementThreads.insert({index.v[l], linearThread[l]});
      r.elementWarps.insert({index.v[l], linearThread[l] / kLanes});
    });
  }
}

void Simulator::runBranch(Region &region, uint32_t mask, SmallVectorImpl<Lanes> &results) {
  if (!mask || region.empty())
    return;
  execBlock(region.front(), mask);
  for (auto [i, v] : llvm::enumerate(region.front().getTerminator()->getOperands()))
    results[i].takeFrom(get(v), mask);
}

void Simulator::recordLoop(Operation *loop, bool divergentExit, bool unknown, double iterations,
                           double divergentIterations) {
  if (!recording)
    return;
  BranchStats &s = stats.branches[loop];
  s.executions += 1;
  s.divergent += divergentExit ? 1 : 0;
  s.unknown += unknown ? 1 : 0;
  s.iterations += iterations;
  s.divergentIterations += divergentIterations;
}

void Simulator::execIf(scf::IfOp op, uint32_t mask) {
  Lanes cond = get(op.getCondition());
  uint32_t unknown = mask & ~cond.known;
  uint32_t thenMask = 0, elseMask = 0;
  forEachLane(mask & cond.known, [&](unsigned l) {
    (cond.v[l] ? thenMask : elseMask) |= 1u << l;
  });
  if (unknown) {
    // A data-dependent condition: assume those lanes take the then branch.
    thenMask |= unknown;
    approximate("a data-dependent branch is assumed taken");
  }
  if (recording) {
    BranchStats &s = stats.branches[op];
    s.executions += 1;
    s.divergent += (thenMask && elseMask) ? 1 : 0;
    s.unknown += unknown ? 1 : 0;
  }
  SmallVector<Lanes, 4> results(op.getNumResults());
  runBranch(op.getThenRegion(), thenMask, results);
  runBranch(op.getElseRegion(), elseMask, results);
  for (auto [i, r] : llvm::enumerate(op.getResults()))
    env[r] = results[i];
}

const Simulator::ControlSlice &Simulator::controlSlice(scf::WhileOp op) {
  if (auto it = slices.find(op); it != slices.end())
    return it->second;
  Block &before = op.getBefore().front(), &after = op.getAfter().front();
  auto yield = op.getYieldOp();
  auto condition = op.getConditionOp();
  ControlSlice slice;
  slice.neededArgs.assign(before.getNumArguments(), false);
  llvm::DenseSet<Operation *> inSlice;
  SmallVector<Value> worklist = {condition.getCondition()};
  auto needArg = [&](unsigned i) {
    if (!slice.neededArgs[i]) {
      slice.neededArgs[i] = true;
      worklist.push_back(yield.getOperand(i));
    }
  };
  // Integer loop-carried values are cheap and may index memory after the
  // loop (`k += 2` then `y[k]`): keep them exact too. Floats stay unknown.
  for (BlockArgument arg : before.getArguments())
    if (arg.getType().isIntOrIndex())
      needArg(arg.getArgNumber());
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      if (arg.getOwner() == &after) // forwarded by the condition
        worklist.push_back(condition.getArgs()[arg.getArgNumber()]);
      else if (arg.getOwner() == &before)
        needArg(arg.getArgNumber());
      continue;
    }
    Operation *def = v.getDefiningOp();
    if (!def)
      continue;
    // Values defined inside an op of the two blocks: that op is needed.
    while (def && def->getBlock() != &before && def->getBlock() != &after)
      def = def->getParentOp() && op->isProperAncestor(def->getParentOp()) ? def->getParentOp()
                                                                          : nullptr;
    if (!def || !inSlice.insert(def).second)
      continue;
    def->walk([&](Operation *inner) {
      for (Value operand : inner->getOperands())
        if (!def->isAncestor(operand.getParentBlock()->getParentOp()) ||
            operand.getParentBlock() == def->getBlock())
          worklist.push_back(operand);
    });
  }
  for (Block *block : {&before, &after})
    for (Operation &o : block->without_terminator())
      if (inSlice.contains(&o))
        (block == &before ? slice.beforeOps : slice.afterOps).push_back(&o);
  return slices[op] = std::move(slice);
}

void Simulator::execWhile(scf::WhileOp op, uint32_t mask) {
  Block &before = op.getBefore().front(), &after = op.getAfter().front();
  auto condition = op.getConditionOp();
  auto yield = op.getYieldOp();
  for (auto [arg, init] : llvm::zip(before.getArguments(), op.getInits()))
    env[arg] = get(init);
  SmallVector<Lanes, 4> results(op.getNumResults());
  uint32_t running = mask;
  double iterations = 0, recorded = 0, divergentIterations = 0;
  bool divergentExit = false, unknownCond = false;
  // After `recordedIterations` full iterations (`base` is the statistics at
  // that point, `atStart` before the loop), only the ops the condition
  // depends on run; the recorded iterations stand for the rest.
  std::optional<Stats> base, atStart, firstIteration;
  if (recording)
    atStart = stats;
  bool wasRecording = recording;
  const ControlSlice *fast = nullptr;

  while (running && !overBudget()) {
    if (recording && !base && recorded == options.recordedIterations) {
      fast = &controlSlice(op);
      base = stats;
      recording = false;
    }
    if (fast)
      for (Operation *o : fast->beforeOps)
        execOp(o, running);
    else
      execBlock(before, running);
    Lanes cond = get(condition.getCondition());
    uint32_t unknown = running & ~cond.known;
    if (unknown) {
      // A data-dependent trip count: those lanes leave after this test.
      unknownCond = true;
      approximate("a data-dependent loop is assumed to stop early");
    }
    uint32_t staying = 0;
    forEachLane(running & cond.known, [&](unsigned l) {
      if (cond.v[l])
        staying |= 1u << l;
    });
    uint32_t leaving = running & ~staying;
    if (leaving && staying)
      divergentExit = true;
    for (auto [i, v] : llvm::enumerate(condition.getArgs()))
      results[i].takeFrom(get(v), leaving);
    running = staying;
    if (!running)
      break;
    iterations += 1;
    if (running != mask)
      divergentIterations += 1;
    for (auto [arg, v] : llvm::zip(after.getArguments(), condition.getArgs()))
      env[arg] = get(v);
    if (fast) {
      for (Operation *o : fast->afterOps)
        execOp(o, running);
    } else {
      execBlock(after, running);
      if (recording && ++recorded == 1)
        firstIteration = stats;
    }
    SmallVector<Lanes, 4> next;
    for (auto [i, v] : llvm::enumerate(yield.getOperands()))
      next.push_back(fast && !fast->neededArgs[i] ? Lanes() : get(v));
    for (auto [arg, n] : llvm::zip(before.getArguments(), next))
      env[arg] = n;
  }
  if (overBudget())
    approximate("the simulation budget ran out; later iterations were not simulated");
  recording = wasRecording;
  if (base && recorded > 0) {
    // The iterations after the recorded ones behave like them on average.
    double factor = (iterations - recorded) / recorded;
    stats.addScaledDelta(*base, *atStart, factor, /*extrapolated=*/true);
    if (firstIteration)
      extrapolateMaxElement(stats, *firstIteration, *base, recorded, iterations - recorded);
  }
  recordLoop(op, divergentExit, unknownCond, iterations, divergentIterations);
  for (auto [i, r] : llvm::enumerate(op.getResults()))
    env[r] = fast && !fast->neededArgs[i] ? Lanes() : results[i];
}

void Simulator::execFor(scf::ForOp op, uint32_t mask) {
  Lanes lb = get(op.getLowerBound()), ub = get(op.getUpperBound()), step = get(op.getStep());
  Block &body = *op.getBody();
  Value iv = op.getInductionVar();
  unsigned width = getIntegerBitWidth(iv.getType());
  bool isUnsigned = op.getUnsignedCmp();
  Lanes ivLanes = lb;
  for (auto [arg, init] : llvm::zip(op.getRegionIterArgs(), op.getInitArgs()))
    env[arg] = get(init);
  SmallVector<Lanes, 4> results(op.getNumResults());
  uint32_t unknown = mask & ~(lb.known & ub.known & step.known);
  forEachLane(mask & ~unknown, [&](unsigned l) {
    if (step.v[l] <= 0)
      unknown |= 1u << l; // scf.for requires a positive step
  });
  if (unknown)
    approximate("a data-dependent loop is assumed to stop early");
  uint32_t running = mask & ~unknown;
  auto below = [&](unsigned l) {
    return isUnsigned ? asUnsignedInteger(ivLanes.v[l], width) < asUnsignedInteger(ub.v[l], width)
                      : ivLanes.v[l] < ub.v[l];
  };
  std::optional<Stats> atStart, firstIteration;
  if (recording)
    atStart = stats;
  double iterations = 0, recorded = 0, divergentIterations = 0;
  bool divergentExit = false, extrapolated = false;
  while (running && !overBudget()) {
    uint32_t staying = 0;
    forEachLane(running, [&](unsigned l) {
      if (below(l))
        staying |= 1u << l;
    });
    if (staying != running) {
      divergentExit |= staying != 0;
      for (auto [i, arg] : llvm::enumerate(op.getRegionIterArgs()))
        results[i].takeFrom(get(arg), running & ~staying);
    }
    running = staying;
    if (!running)
      break;
    if (recording && recorded == options.recordedIterations) {
      // The trip count of an scf.for is known: extrapolate from here.
      double most = 0, least = INFINITY;
      forEachLane(running, [&](unsigned l) {
        double left = isUnsigned ? double(asUnsignedInteger(ub.v[l], width) - asUnsignedInteger(ivLanes.v[l], width))
                                 : double(ub.v[l] - ivLanes.v[l]);
        double trips = std::ceil(left / double(step.v[l]));
        most = std::max(most, trips);
        least = std::min(least, trips);
      });
      iterations += most;
      divergentIterations += most - least + (running != mask ? least : 0);
      divergentExit |= most != least;
      Stats now = stats;
      stats.addScaledDelta(now, *atStart, most / recorded, /*extrapolated=*/true);
      if (firstIteration)
        extrapolateMaxElement(stats, *firstIteration, now, recorded, most);
      extrapolated = true;
      break;
    }
    iterations += 1;
    if (running != mask)
      divergentIterations += 1;
    env[iv] = ivLanes;
    execBlock(body, running);
    if (recording && ++recorded == 1)
      firstIteration = stats;
    Operation *yield = body.getTerminator();
    SmallVector<Lanes, 4> next;
    for (Value v : yield->getOperands())
      next.push_back(get(v));
    for (auto [arg, n] : llvm::zip(op.getRegionIterArgs(), next))
      env[arg] = n;
    forEachLane(running, [&](unsigned l) {
      ivLanes.v[l] = normalizeInteger(ivLanes.v[l] + step.v[l], width);
    });
  }
  recordLoop(op, divergentExit, unknown != 0, iterations, divergentIterations);
  // Lanes still running when the rest was extrapolated have unknown results.
  for (auto [i, r] : llvm::enumerate(op.getResults()))
    env[r] = extrapolated ? Lanes() : results[i];
}

void Simulator::execIndexSwitch(scf::IndexSwitchOp op, uint32_t mask) {
  Lanes arg = get(op.getArg());
  uint32_t unknown = mask & ~arg.known;
  if (unknown)
    approximate("a data-dependent switch is assumed to take its default case");
  SmallVector<Lanes, 4> results(op.getNumResults());
  ArrayRef<int64_t> cases = op.getCases();
  unsigned taken = 0;
  auto runRegion = [&](Region &region, uint32_t m) {
    taken += m != 0;
    runBranch(region, m, results);
  };
  uint32_t matched = 0;
  for (auto [c, region] : llvm::zip(cases, op.getCaseRegions())) {
    uint32_t m = 0;
    forEachLane(mask & arg.known, [&](unsigned l) {
      if (arg.v[l] == c)
        m |= 1u << l;
    });
    matched |= m;
    runRegion(region, m);
  }
  runRegion(op.getDefaultRegion(), mask & ~matched);
  if (recording) {
    BranchStats &s = stats.branches[op];
    s.executions += 1;
    s.divergent += taken > 1 ? 1 : 0;
    s.unknown += unknown ? 1 : 0;
  }
  for (auto [i, r] : llvm::enumerate(op.getResults()))
    env[r] = results[i];
}

void Simulator::execOp(Operation *op, uint32_t mask) {
  ++opsExecuted;
  // Constants and integer casts cost no instruction after lowering.
  if (recording && !isa<arith::ConstantOp, arith::IndexCastOp, arith::IndexCastUIOp,
                        arith::ExtSIOp, arith::ExtUIOp, arith::TruncIOp>(op))
    stats.warpInstructions += 1;
  if (auto ifOp = dyn_cast<scf::IfOp>(op))
    return execIf(ifOp, mask);
  if (auto loop = dyn_cast<scf::WhileOp>(op))
    return execWhile(loop, mask);
  if (auto loop = dyn_cast<scf::ForOp>(op))
    return execFor(loop, mask);
  if (auto sw = dyn_cast<scf::IndexSwitchOp>(op))
    return execIndexSwitch(sw, mask);
  if (std::optional<AccessInfo> info = getAccessInfo(op))
    return execAccess(op, *info, mask);
  if (isa<gpu::BarrierOp>(op))
    return;
  auto idOp = [&](auto dimOp, auto laneValue) {
    Lanes out;
    unsigned d = static_cast<unsigned>(dimOp.getDimension());
    for (unsigned l = 0; l < kLanes; ++l)
      out.v[l] = laneValue(d, l);
    out.known = kAllLanes;
    env[op->getResult(0)] = out;
  };
  if (auto t = dyn_cast<gpu::ThreadIdOp>(op))
    return idOp(t, [&](unsigned d, unsigned l) { return threadId[d][l]; });
  if (auto b = dyn_cast<gpu::BlockIdOp>(op))
    return idOp(b, [&](unsigned d, unsigned) { return blockId[d]; });
  if (auto b = dyn_cast<gpu::BlockDimOp>(op))
    return idOp(b, [&](unsigned d, unsigned) { return options.launch.block[d]; });
  if (auto g = dyn_cast<gpu::GridDimOp>(op))
    return idOp(g, [&](unsigned d, unsigned) { return options.launch.grid[d]; });
  if (isa<gpu::LaneIdOp>(op)) {
    Lanes out;
    for (unsigned l = 0; l < kLanes; ++l)
      out.v[l] = l;
    out.known = kAllLanes;
    env[op->getResult(0)] = out;
    return;
  }
  if (execArith(op, mask))
    return;
  // Floating-point work: FLOPs by precision (an FMA is two).
  if (recording && op->getNumResults() == 1) {
    Type type = op->getResult(0).getType();
    int slot = precisionSlot(type);
    if (slot >= 0) {
      double lanes = std::popcount(mask) * double(elementsOf(type));
      if (isa<math::FmaOp>(op))
        stats.flops[slot] += 2 * lanes;
      else if (isa<arith::AddFOp, arith::SubFOp, arith::MulFOp, arith::DivFOp, arith::NegFOp,
                   arith::MaximumFOp, arith::MinimumFOp, arith::MaxNumFOp, arith::MinNumFOp,
                   arith::RemFOp>(op))
        stats.flops[slot] += lanes;
      else if (op->getDialect() && op->getDialect()->getNamespace() == "math")
        stats.special += lanes;
    }
  }
  for (Value r : op->getResults())
    env.erase(r);
}

SimulationResult Simulator::run() {
  SimulationResult result;
  const LaunchShape &launch = options.launch;
  if (kernel.getBody().getBlocks().size() != 1) {
    result.approximations.push_back(
        "the kernel has unstructured control flow; only straight-line code was simulated");
  }
  for (auto [i, value] : options.scalars)
    if (i < kernel.getNumArguments()) {
      BlockArgument arg = kernel.getArgument(i);
      env[arg] = Lanes::splat(normalizeInteger(value, getIntegerBitWidth(arg.getType())));
    }

  // Sampled blocks, stratified: the grid's blocks fall into strata by which
  // dimensions sit on their last index (the interior, each face, edge and
  // the corner of the last row/column/plane), where bounds checks differ.
  // One block represents each stratum (the middle of the stratum's other
  // dimensions) and counts for all of its blocks; the interior also gets
  // block 0.
  struct Sample {
    std::array<int64_t, 3> block;
    double weight;
  };
  std::vector<Sample> samples;
  SmallVector<int> dims;
  for (int d = 0; d < 3; ++d)
    if (launch.grid[d] > 1)
      dims.push_back(d);
  for (unsigned mask = 0; mask < (1u << dims.size()); ++mask) {
    std::array<int64_t, 3> block = {0, 0, 0};
    double count = 1;
    for (auto [i, d] : llvm::enumerate(dims)) {
      bool last = mask & (1u << i);
      block[d] = last ? launch.grid[d] - 1 : (launch.grid[d] - 1) / 2;
      count *= last ? 1 : double(launch.grid[d] - 1);
    }
    if (mask == 0 && count > 1 && block != std::array<int64_t, 3>{0, 0, 0}) {
      samples.push_back({{0, 0, 0}, count / 2});
      samples.push_back({block, count / 2});
    } else {
      samples.push_back({block, count});
    }
  }
  if (samples.size() > options.maxSampledBlocks) {
    // Keep the heaviest strata; the others' blocks count for the rest.
    llvm::stable_sort(samples, [](const Sample &a, const Sample &b) { return a.weight > b.weight; });
    double dropped = 0;
    for (size_t i = options.maxSampledBlocks; i < samples.size(); ++i)
      dropped += samples[i].weight;
    samples.resize(options.maxSampledBlocks);
    double kept = 0;
    for (const Sample &x : samples)
      kept += x.weight;
    for (Sample &x : samples)
      x.weight *= (kept + dropped) / kept;
  }

  Stats total;
  double skippedWeight = 0, usedWeight = 0;
  std::optional<double> interiorRequests;
  for (const Sample &sample : samples) {
    if (overBudget()) {
      approximate("the simulation budget ran out; fewer blocks were sampled");
      skippedWeight += sample.weight;
      continue;
    }
    blockId = sample.block;
    stats = Stats();
    llvm::DenseMap<Operation *, BlockReuse> blockReuse;
    reuse = &blockReuse;
    int64_t threads = launch.threadsPerBlock();
    int64_t completedWarps = 0;
    for (int64_t w = 0; w < launch.warpsPerBlock() && !overBudget(); ++w) {
      uint32_t mask = 0;
      for (unsigned l = 0; l < kLanes; ++l) {
        int64_t t = w * kLanes + l;
        linearThread[l] = t;
        threadId[0][l] = t % launch.block[0];
        threadId[1][l] = (t / launch.block[0]) % launch.block[1];
        threadId[2][l] = t / (launch.block[0] * launch.block[1]);
        if (t < threads)
          mask |= 1u << l;
      }
      execBlock(kernel.getBody().front(), mask);
      if (!overBudget())
        ++completedWarps;
    }
    if (completedWarps == 0)
      continue;
    // A block the budget cut short stands for itself scaled by its warps.
    double weight = sample.weight * double(launch.warpsPerBlock()) / double(completedWarps);
    usedWeight += weight;
    // The interior stratum's two samples (block 0 and the middle one) should
    // do alike; when one works and the other does not, the grid is larger
    // than the work (an assumed grid, say) and the totals are rough.
    double requests = 0;
    for (auto &[op, a] : stats.accesses)
      requests += a.requests;
    if (&sample - samples.data() < 2 && samples.size() > 1 &&
        samples[0].weight == samples[1].weight) {
      if (interiorRequests && (*interiorRequests == 0) != (requests == 0))
        approximate("blocks of the same part of the grid do different work (the grid may be "
                    "larger than the problem); the totals are rough: give the real grid");
      interiorRequests = requests;
    }
    Stats zero;
    total.addScaledDelta(stats, zero, weight);
    for (auto &[op, r] : blockReuse) {
      if (r.elements.empty())
        continue;
      AccessStats &s = total.accesses[op];
      s.threadsPerElement += sample.weight * double(r.elementThreads.size()) / r.elements.size();
      s.warpsPerElement += sample.weight * double(r.elementWarps.size()) / r.elements.size();
      s.sampledBlocks += sample.weight; // the weight the averages are over
    }
    reuse = nullptr;
  }
  if (skippedWeight > 0 && usedWeight > 0) {
    Stats zero, scaled;
    scaled.addScaledDelta(total, zero, skippedWeight / usedWeight);
    total.addScaledDelta(scaled, zero, 1);
  }
  for (auto &[op, s] : total.accesses)
    if (s.sampledBlocks > 0) {
      s.threadsPerElement /= s.sampledBlocks;
      s.warpsPerElement /= s.sampledBlocks;
    }
  result.accesses = std::move(total.accesses);
  result.branches = std::move(total.branches);
  result.flops = total.flops;
  result.specialFunctionOps = total.special;
  result.warpInstructions = total.warpInstructions;
  for (std::string &a : approximations)
    result.approximations.push_back(std::move(a));
  return result;
}
} // namespace

SimulationResult mlir::ks::simulateKernel(gpu::GPUFuncOp kernel, const SimulationOptions &options) {
  return Simulator(kernel, options).run();
}
