//===- RowReductionCodegen.cpp - The row-reduction family's SIMT schedule -===//
//
// From a raised kernel whose forall iterates over rows and whose body walks
// the row in loops (include/kernelskill/Transforms/RowReduction.h):
//
//   group g of T threads per row (R groups per block), lane l in the group
//     (thread g * T + l; interleaved: thread l * R + g)
//   row = blockIdx.x * R + g (a group past the last row computes the last
//     row again with its loops emptied and its stores dropped, so every lane
//     of a warp reaches the shuffles)
//   each loop over the row, n = its trip count:
//     for (base = l * V; base < n; base += T * V * U)
//       turns u < U, elements v < V: t = base + u * T * V + v (predicated
//       past n), the loads from buffers the kernel does not write issued
//       first (vector loads where the view is contiguous along the row and
//       aligned), then the rest of the body
//     its reductions: each lane's partial from the combining op's neutral
//     element; a butterfly of shuffles across the group's lanes; with more
//     than a warp per row, warp totals through shared memory (interleaved:
//     every lane's partial through shared memory); the loop's
//     result is combine(init, total), the same in every lane
//   work between the loops: in every lane; its stores in lane 0 only
//   cached (rows of up to T * V * C elements): all C turns unrolled, the
//     elements several loops read kept in registers by the first; with
//     prefetch, a later loop's loads from read-only buffers at the loop's
//     variable issued by the first loop of the same bounds (its turns'
//     early loads), kept in registers too
//   online: a max loop and a later sum of exp(x - max) merged into one loop
//     first (OnlineSoftmax.h), its (max, sum) pairs combined as pairs
//
// Legality: the reductions' order changes (partial sums per lane, then a
// tree): the verification tolerance covers it (docs/Raising.md). A buffer
// the kernel writes must be accessed only inside the row loops, at one index
// pattern (the loop variable in one position, the other indices the same
// values defined outside the loops) in loops of the same start and step, so
// an element is read and written by the same lane in every loop; or only
// stored outside the loops. Distinct buffers are assumed not to alias, as
// throughout the raising.
//
// Not upstream's: linalg's split reductions need the reduction as one
// linalg op, while these bodies hold several loops with scalar work between
// them that every lane of the group must see (the row's max before the sum).
//
//===----------------------------------------------------------------------===//

#include "kernelskill/Transforms/RowReduction.h"
#include "SIMTBuilder.h"
#include "kernelskill/Transforms/Contraction.h"
#include "kernelskill/Transforms/KernelLaunch.h"
#include "kernelskill/Transforms/OnlineSoftmax.h"
#include "kernelskill/Transforms/Passes.h"
#include "kernelskill/Transforms/Raising.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/MapVector.h"

#include <deque>
#include <tuple>

using namespace mlir;
using namespace mlir::ks;

std::string mlir::ks::verifyRowReduction(const RowReductionSchedule &s, int64_t maxThreads) {
  int64_t t = s.threadsPerRow;
  if (t <= 0 || (t & (t - 1)))
    return "threads_per_row must be a power of two";
  if (s.rowsPerBlock <= 0 || s.unroll <= 0)
    return "rows_per_block and unroll must be positive";
  if (s.vector != 1 && s.vector != 2 && s.vector != 4 && s.vector != 8)
    return "vector must be 1, 2, 4 or 8";
  if (s.cachedTurns < 0 || s.cachedTurns * s.vector > 64)
    return "cached_turns x vector must be between 0 and 64 (elements each lane keeps in registers)";
  if (s.prefetch && s.cachedTurns == 0)
    return "prefetch needs cached_turns > 0 (the prefetched elements are kept in the cached "
           "turns' registers)";
  if (s.interleaved && t > 64)
    return "interleaved: threads_per_row must be at most 64 (each thread reads its row's "
           "partials from shared memory)";
  if (!s.interleaved && t > 32 && s.rowsPerBlock != 1)
    return "a row of more than a warp takes the whole block: rows_per_block must be 1";
  if (!s.interleaved && t > 1 && s.threads() % 32)
    return "the block (threads_per_row x rows_per_block = " + std::to_string(s.threads()) +
           ") must be whole warps: the shuffles take every lane of a warp";
  if (s.threads() > maxThreads)
    return std::to_string(s.threads()) + " threads per block exceed the chip's " +
           std::to_string(maxThreads);
  return "";
}

namespace {
/// One loop-carried reduction of a row loop.
struct Reduction {
  unsigned index;       ///< the iter_arg
  Operation *combine;   ///< the binary op the loop yields (a select in an arg pair)
  unsigned accOperand;  ///< which operand of `combine` is the iter_arg
  TypedAttr neutral;    ///< the combine's neutral element
  /// An argmax / argmin pair is two entries, the value then its position,
  /// combined together (matchArgPair).
  enum class Kind { Plain, ArgValue, ArgIndex } kind = Kind::Plain;
  bool argMin = false; ///< ArgValue: the least value wins
};

/// An argmax (argmin) pair of a row loop: iter_args (best, at) updated as
///   better = x > best (x < best); best = better ? x : best;
///   at = better ? index_cast(j) : at
/// with j the loop variable (a constant non-negative start, a positive
/// constant step): `at` ends at the first position of the row's maximum.
/// Lanes find their own pair; pairs combine by value, and between equal
/// values by the lower position, which is what the sequential loop's
/// strict comparison keeps (a NaN never wins, as there). f32 values and
/// i32 positions (what the shuffles carry).
struct ArgPair {
  unsigned value, index;
  bool min;
};
std::optional<ArgPair> matchArgPair(scf::ForOp loop, unsigned i) {
  using P = arith::CmpFPredicate;
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  std::optional<int64_t> lb = getConstantIntValue(loop.getLowerBound()),
                         step = getConstantIntValue(loop.getStep());
  BlockArgument best = loop.getRegionIterArgs()[i];
  auto sel = yield.getOperand(i).getDefiningOp<arith::SelectOp>();
  if (!lb || *lb < 0 || !step || *step <= 0 || !best.getType().isF32() || !sel ||
      sel->getBlock() != loop.getBody() || sel.getFalseValue() != best || !sel->hasOneUse())
    return std::nullopt;
  Value x = sel.getTrueValue();
  auto cmp = sel.getCondition().getDefiningOp<arith::CmpFOp>();
  if (!cmp || (cmp.getPredicate() != P::OGT && cmp.getPredicate() != P::OLT))
    return std::nullopt;
  bool min;
  if (cmp.getLhs() == x && cmp.getRhs() == best)
    min = cmp.getPredicate() == P::OLT;
  else if (cmp.getLhs() == best && cmp.getRhs() == x)
    min = cmp.getPredicate() == P::OGT;
  else
    return std::nullopt;
  if (!llvm::all_of(best.getUsers(), [&](Operation *u) { return u == cmp || u == sel; }))
    return std::nullopt;
  for (auto [j, at] : llvm::enumerate(loop.getRegionIterArgs())) {
    auto pick = yield.getOperand(j).getDefiningOp<arith::SelectOp>();
    if (j == i || !at.getType().isInteger(32) || !at.hasOneUse() || !pick ||
        pick.getCondition() != cmp.getResult() || pick.getFalseValue() != at ||
        !pick->hasOneUse())
      continue;
    Operation *cast = pick.getTrueValue().getDefiningOp();
    if (!cast || !isa<arith::IndexCastOp, arith::IndexCastUIOp>(cast) ||
        cast->getOperand(0) != loop.getInductionVar())
      continue;
    if (!llvm::all_of(cmp->getUsers(), [&](Operation *u) { return u == sel || u == pick; }))
      continue;
    return ArgPair{i, unsigned(j), min};
  }
  return std::nullopt;
}

/// A loop over the row at the forall body's top level.
struct RowLoop {
  scf::ForOp loop;
  SmallVector<Reduction> reductions;
  /// Merged by `online`: reductions 0 and 1 are a (max, sum) pair, combined
  /// with combineOnlineSoftmax.
  bool online = false;
};

class RowReductionGen {
public:
  RowReductionGen(scf::ForallOp forall, const RowReductionSchedule &s)
      : forall(forall), s(s), dom(forall->getParentOp()) {}

  /// Every refusal happens here, before the IR changes.
  LogicalResult analyze(int64_t maxSharedBytes, std::string &why);
  LogicalResult generate(int64_t maxSharedBytes, std::string &why);
  /// After analyze: what `prefetch` and `online` find (whether or not the
  /// schedule asks for them).
  RowReductionFacts facts() const {
    return {int64_t(prefetches.size()), int64_t(onlinePairs.size())};
  }

private:
  scf::ForallOp forall;
  const RowReductionSchedule &s;
  DominanceInfo dom;
  gpu::GPUFuncOp kernel;
  SmallVector<RowLoop> loops;
  llvm::DenseMap<Operation *, unsigned> loopIndex; ///< row loop op -> index in `loops`
  llvm::DenseSet<Value> written;                   ///< buffers the forall stores to
  /// A later loop's load that `prefetch` issues in an earlier loop of the
  /// same bounds, one per buffer and index pattern.
  struct Prefetch {
    memref::LoadOp load; ///< in `owner`
    scf::ForOp owner, filler;
  };
  SmallVector<Prefetch> prefetches;
  /// The loads a later row loop could take from an earlier one (analysis).
  void findPrefetches();
  /// The loop pairs `online` merges (analysis), and the merged loops.
  SmallVector<OnlineSoftmaxPair> onlinePairs;
  llvm::DenseSet<Operation *> mergedLoops;
  /// The cache entries of every row loop's loads (analysis: which loads
  /// several loops make).
  void countCachedLoads();

  /// The row loop at the body's top level that holds `op`, if any.
  scf::ForOp enclosingRowLoop(Operation *op);
  LogicalResult analyzeLoop(scf::ForOp loop, std::string &why);
  LogicalResult analyzeAccesses(std::string &why);

  // Generation state.
  Value lane, group, valid, threadId, first;
  /// A row's elements read in several loops at the same index pattern:
  /// with cached_turns, each lane keeps its elements in registers (a
  /// private array, fully unrolled), filled by the first loop that loads
  /// them.
  struct CachedLoad {
    Value memref;
    SmallVector<Value> others; ///< the indices besides the loop variable
    unsigned loops = 0;        ///< how many row loops load it
    Value cache;               ///< (generation: with cached_turns)
    bool filled = false;
    /// Prefetched: the earlier loop that fills it, the load it stands for.
    const Prefetch *prefetch = nullptr;
  };
  std::deque<CachedLoad> cachedLoads; // (stable addresses)
  /// The cache entry of `load` in `loop`, if it has one.
  CachedLoad *cachedLoadOf(memref::LoadOp load, scf::ForOp loop, bool create);
  void emitBody(SIMTBuilder &sb, IRMapping outer, bool cached);
  void emitRowLoop(SIMTBuilder &sb, const RowLoop &rl, IRMapping &outer, bool cached);
  /// Loads of `loop`'s body that may be issued ahead of the turn's other
  /// work (from buffers the kernel does not write), with the pure ops
  /// their indices need.
  llvm::DenseSet<Operation *> hoistable(scf::ForOp loop);
  /// Whether `load` reads V consecutive elements of a view contiguous along
  /// the loop (vector loads apply).
  /// Whether an access of `memref` at `indices` in `loop` can be V wide:
  /// contiguous along the row, the other indices fixed in the loop.
  bool vectorizable(Value memref, ValueRange indices, scf::ForOp loop);
  /// Whether a lane's first element of such an access is V-aligned (the
  /// buffer's address and the row's start), computed before the loop.
  Value alignedFlag(SIMTBuilder &sb, Value memref, ValueRange indices, scf::ForOp loop,
                    IRMapping &outer);
  SmallVector<Value> combineAcrossGroup(SIMTBuilder &sb, const RowLoop &rl, ValueRange partials);
  /// rl's reductions in the groups combined together: each plain one
  /// alone, an online (max, sum) pair or an arg (value, position) pair as one.
  SmallVector<SmallVector<unsigned>> reductionGroups(const RowLoop &rl) const;
  /// The group `ks`'s values `a` combined with `b` (a the accumulator).
  /// With `aFirst`, `a` comes before every element of `x` in the loop's
  /// order (the loop's initial values): an arg pair then wins ties.
  SmallVector<Value> combineGroup(OpBuilder &b, Location loc, const RowLoop &rl,
                                  ArrayRef<unsigned> ks, ValueRange a, ValueRange x,
                                  bool aFirst = false);
  /// The rest of a speculated turn's body (after its early loads), element
  /// by element, with the stores in `vectorStores` (store -> aligned flag)
  /// kept to the turn's end and written V wide where the turn is whole.
  void emitSpeculatedTurn(SIMTBuilder &sb, const RowLoop &rl, const llvm::DenseSet<Operation *> &early,
                          const llvm::MapVector<Operation *, Value> &vectorStores,
                          MutableArrayRef<IRMapping> maps, ArrayRef<Value> ts,
                          ArrayRef<Value> inside, Value n, SmallVectorImpl<Value> &partials);
  /// The rest of an online loop's turn: each element's value (past the
  /// row's end: -inf, which adds nothing), then one update of the (max,
  /// sum) pair for the whole turn.
  void emitOnlineTurn(SIMTBuilder &sb, const RowLoop &rl, const llvm::DenseSet<Operation *> &early,
                      MutableArrayRef<IRMapping> maps, ArrayRef<Value> inside,
                      SmallVectorImpl<Value> &partials);
  /// Interleaved lanes: every partial through shared memory (slot
  /// lane * R + group), each thread combining its row's in lane order.
  SmallVector<Value> combineThroughShared(SIMTBuilder &sb, const RowLoop &rl,
                                          ArrayRef<Value> partials);
  /// totals[k] = the combination of `count` slots of each `buffers[k]`
  /// (slot(i) the i-th's index), in slot order, group by group.
  void combineSlots(SIMTBuilder &sb, const RowLoop &rl, ArrayRef<Value> buffers, int64_t count,
                    llvm::function_ref<Value(int64_t)> slot, SmallVectorImpl<Value> &totals);
};

/// Whether `op` (or an op nested in it) may write memory.
bool writesMemory(Operation *op) {
  WalkResult w = op->walk([](Operation *o) {
    if (auto iface = dyn_cast<MemoryEffectOpInterface>(o)) {
      if (iface.hasEffect<MemoryEffects::Write>() || iface.hasEffect<MemoryEffects::Free>())
        return WalkResult::interrupt();
      return WalkResult::advance();
    }
    return o->hasTrait<OpTrait::HasRecursiveMemoryEffects>() ? WalkResult::advance()
                                                             : WalkResult::interrupt();
  });
  return w.wasInterrupted();
}

scf::ForOp RowReductionGen::enclosingRowLoop(Operation *op) {
  Block *body = forall.getBody();
  while (op && op->getBlock() != body)
    op = op->getParentOp();
  auto loop = op ? dyn_cast<scf::ForOp>(op) : scf::ForOp();
  return loop && loopIndex.contains(loop) ? loop : scf::ForOp();
}

LogicalResult RowReductionGen::analyzeLoop(scf::ForOp loop, std::string &why) {
  RowLoop rl{loop, {}};
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  if (mergedLoops.contains(loop)) {
    // The online pair: lanes start from (-inf, 0), an empty row's pair
    // (maxnumf's own neutral element, NaN, would make the first rescaling
    // NaN).
    Operation *max = yield.getOperand(0).getDefiningOp();
    Operation *add = yield.getOperand(1).getDefiningOp();
    auto type = cast<FloatType>(yield.getOperand(0).getType());
    OpBuilder b(loop);
    rl.reductions.push_back(
        {0, max, unsigned(max->getOperand(0) == loop.getRegionIterArgs()[0] ? 0 : 1),
         b.getFloatAttr(type, APFloat::getInf(type.getFloatSemantics(), /*Negative=*/true))});
    rl.reductions.push_back({1, add, 0, b.getFloatAttr(type, 0.0)});
    rl.online = true;
    loopIndex[loop] = loops.size();
    loops.push_back(rl);
    return success();
  }
  // Argmax / argmin pairs first, each as two consecutive entries.
  llvm::SmallDenseSet<unsigned> paired;
  for (unsigned i = 0; i < loop.getNumRegionIterArgs(); ++i) {
    std::optional<ArgPair> pair = paired.contains(i) ? std::nullopt : matchArgPair(loop, i);
    if (!pair || paired.contains(pair->index))
      continue;
    OpBuilder b(loop);
    auto f32 = cast<FloatType>(b.getF32Type());
    Reduction value{pair->value, yield.getOperand(pair->value).getDefiningOp(), 2,
                    b.getFloatAttr(f32, APFloat::getInf(f32.getFloatSemantics(),
                                                        /*Negative=*/!pair->min))};
    value.kind = Reduction::Kind::ArgValue;
    value.argMin = pair->min;
    Reduction index{pair->index, yield.getOperand(pair->index).getDefiningOp(), 2,
                    b.getI32IntegerAttr(std::numeric_limits<int32_t>::max())};
    index.kind = Reduction::Kind::ArgIndex;
    rl.reductions.push_back(value);
    rl.reductions.push_back(index);
    paired.insert(pair->value);
    paired.insert(pair->index);
  }
  for (auto [i, arg] : llvm::enumerate(loop.getRegionIterArgs())) {
    if (paired.contains(i))
      continue;
    Value next = yield.getOperand(i);
    Operation *combine = next.getDefiningOp();
    if (!arg.hasOneUse() || !combine || combine->getNumOperands() != 2 ||
        combine->getNumResults() != 1 || !next.hasOneUse() ||
        combine->getBlock() != loop.getBody()) {
      why = "a value carried by a loop over the row is not a reduction (the loop yields "
            "combine(acc, x) with acc used nowhere else)";
      return failure();
    }
    unsigned accOperand = combine->getOperand(0) == arg ? 0 : 1;
    if (combine->getOperand(accOperand) != arg) {
      why = "a value carried by a loop over the row is not combined with the element's value";
      return failure();
    }
    std::optional<TypedAttr> neutral = arith::getNeutralElement(combine);
    if (!neutral || !isPure(combine)) {
      why = "the reduction's '" + combine->getName().getStringRef().str() +
            "' is not an associative op with a neutral element (add, mul, min, max)";
      return failure();
    }
    Type t = arg.getType();
    // (NVVM's lowering of gpu.shuffle takes 32-bit values only.)
    if (!t.isF32() && !t.isInteger(32)) {
      why = "a reduction of a type the warp shuffles do not carry (f32 and i32 only)";
      return failure();
    }
    rl.reductions.push_back({unsigned(i), combine, accOperand, *neutral});
  }
  loopIndex[loop] = loops.size();
  loops.push_back(rl);
  return success();
}

LogicalResult RowReductionGen::analyzeAccesses(std::string &why) {
  struct Access {
    Operation *op;
    Value memref;
    ValueRange indices;
    scf::ForOp loop;
  };
  llvm::DenseMap<Value, SmallVector<Access>> byBuffer;
  WalkResult w = forall.getBody()->walk([&](Operation *op) {
    if (op->getNumRegions() || isa<scf::YieldOp, scf::InParallelOp>(op))
      return WalkResult::advance();
    Value memref;
    ValueRange indices;
    if (auto load = dyn_cast<memref::LoadOp>(op)) {
      memref = load.getMemRef();
      indices = load.getIndices();
    } else if (auto store = dyn_cast<memref::StoreOp>(op)) {
      memref = store.getMemRef();
      indices = store.getIndices();
    } else if (!isMemoryEffectFree(op)) {
      why = "the row holds '" + op->getName().getStringRef().str() +
            "', a side effect the schedule does not distribute";
      return WalkResult::interrupt();
    } else {
      return WalkResult::advance();
    }
    Value base = viewedBuffer(memref);
    if (!base) {
      why = "an access is not to a view of a kernel buffer (a private array)";
      return WalkResult::interrupt();
    }
    if (isa<memref::StoreOp>(op))
      written.insert(base);
    byBuffer[base].push_back({op, memref, indices, enclosingRowLoop(op)});
    return WalkResult::advance();
  });
  if (w.wasInterrupted())
    return failure();
  for (Value base : written) {
    SmallVector<Access> &accesses = byBuffer[base];
    bool outside = llvm::any_of(accesses, [](const Access &a) { return !a.loop; });
    if (outside) {
      if (llvm::any_of(accesses, [](const Access &a) { return a.loop || isa<memref::LoadOp>(a.op); })) {
        why = "a buffer written outside the loops over the row is also read, or written in them";
        return failure();
      }
      continue;
    }
    // Every access: the same view, its loop's variable in one position,
    // the other indices the same values from outside the loops.
    Access first = accesses.front();
    std::optional<unsigned> position;
    for (Access &a : accesses) {
      Value iv = a.loop.getInductionVar();
      if (a.memref != first.memref || a.indices.size() != first.indices.size() ||
          llvm::count(a.indices, iv) != 1) {
        why = "a buffer the kernel writes is accessed at other elements than its loop's variable "
              "(one lane would read what another writes)";
        return failure();
      }
      unsigned p = llvm::find(a.indices, iv) - a.indices.begin();
      if (position && *position != p) {
        why = "a buffer the kernel writes is indexed by the loop variable in different positions";
        return failure();
      }
      position = p;
      for (auto [i, index] : llvm::enumerate(a.indices))
        if (i != p && (index != first.indices[i] || !dom.properlyDominates(index, a.loop))) {
          why = "a buffer the kernel writes is accessed at indices that differ between accesses";
          return failure();
        }
      if (!sameBound(a.loop.getLowerBound(), first.loop.getLowerBound()) ||
          !sameBound(a.loop.getStep(), first.loop.getStep())) {
        why = "a buffer the kernel writes is accessed in loops of different starts or steps";
        return failure();
      }
    }
  }
  return success();
}

LogicalResult RowReductionGen::analyze(int64_t maxSharedBytes, std::string &why) {
  // (Analyzed again after `online` merged its loops.)
  loops.clear();
  loopIndex.clear();
  written.clear();
  prefetches.clear();
  cachedLoads.clear();
  kernel = scheduledKernelOf(forall, {gpu::Dimension::x}, why);
  if (!kernel)
    return failure();
  for (Operation &op : forall.getBody()->without_terminator()) {
    if (auto loop = dyn_cast<scf::ForOp>(op)) {
      if (failed(analyzeLoop(loop, why)))
        return failure();
      continue;
    }
    if (writesMemory(&op) && op.getNumResults()) {
      why = "an op between the loops both writes memory and yields values";
      return failure();
    }
  }
  if (loops.empty()) {
    why = "the forall holds no loop over a row (elementwise work: ks.map_forall_to_grid maps it)";
    return failure();
  }
  if (s.cachedTurns > 0)
    for (RowLoop &rl : loops)
      for (Value bound : {rl.loop.getLowerBound(), rl.loop.getUpperBound(), rl.loop.getStep()})
        if (!dom.properlyDominates(bound, forall)) {
          why = "cached_turns: a loop's bounds vary between rows (whether a row fits the "
                "registers must be the same for every row)";
          return failure();
        }
  // With more than a warp per row: one shared slot per warp per reduction
  // (in each of the two versions with cached_turns).
  // Interleaved: one slot per thread per reduction.
  int64_t slots = s.interleaved && s.threadsPerRow > 1 ? s.threads()
                  : s.threadsPerRow > 32             ? s.threadsPerRow / 32
                                                     : 0;
  int64_t bytes = 0;
  for (const RowLoop &rl : loops)
    for (const Reduction &r : rl.reductions)
      bytes += (s.cachedTurns > 0 ? 2 : 1) * slots * r.neutral.getType().getIntOrFloatBitWidth() / 8;
  if (bytes > std::min<int64_t>(48 * 1024, maxSharedBytes)) {
    why = "the warp totals need " + std::to_string(bytes) + " bytes of shared memory";
    return failure();
  }
  if (failed(analyzeAccesses(why)))
    return failure();
  countCachedLoads();
  findPrefetches();
  if (mergedLoops.empty())
    onlinePairs = findOnlineSoftmaxPairs(forall);
  return success();
}

void RowReductionGen::countCachedLoads() {
  // In the body's order: the private arrays are created in this order,
  // which the generated code must not take from pointer hashes.
  for (RowLoop &rl : loops) {
    llvm::SmallPtrSet<CachedLoad *, 4> seen;
    llvm::DenseSet<Operation *> early = hoistable(rl.loop);
    for (Operation &op : rl.loop.getBody()->without_terminator())
      if (auto load = dyn_cast<memref::LoadOp>(op); load && early.contains(&op))
        if (CachedLoad *c = cachedLoadOf(load, rl.loop, /*create=*/true); c && seen.insert(c).second)
          ++c->loops;
  }
}

void RowReductionGen::findPrefetches() {
  for (size_t i = 1; i < loops.size(); ++i) {
    scf::ForOp owner = loops[i].loop, filler;
    for (size_t j = 0; j < i && !filler; ++j) {
      scf::ForOp l = loops[j].loop;
      if (sameBound(l.getLowerBound(), owner.getLowerBound()) &&
          sameBound(l.getUpperBound(), owner.getUpperBound()) &&
          sameBound(l.getStep(), owner.getStep()))
        filler = l;
    }
    if (!filler)
      continue;
    llvm::DenseSet<Operation *> early = hoistable(owner);
    for (Operation &op : owner.getBody()->without_terminator()) {
      auto load = dyn_cast<memref::LoadOp>(op);
      CachedLoad *entry =
          load && early.contains(&op) ? cachedLoadOf(load, owner, /*create=*/false) : nullptr;
      // Read by another loop too: cached by the first that reads it.
      if (!entry || entry->loops > 1 || llvm::any_of(prefetches, [&](const Prefetch &p) {
            return cachedLoadOf(p.load, p.owner, /*create=*/false) == entry;
          }))
        continue;
      if (!dom.properlyDominates(load.getMemRef(), filler) ||
          llvm::any_of(load.getIndices().drop_back(),
                       [&](Value v) { return !dom.properlyDominates(v, filler); }))
        continue;
      prefetches.push_back({load, owner, filler});
    }
  }
}

llvm::DenseSet<Operation *> RowReductionGen::hoistable(scf::ForOp loop) {
  llvm::DenseSet<Operation *> set;
  Block *body = loop.getBody();
  // Operands from outside the loop, the loop variable, or ops already taken.
  auto ready = [&](Operation &op) {
    return llvm::all_of(op.getOperands(), [&](Value v) {
      Operation *def = v.getDefiningOp();
      if (v == loop.getInductionVar())
        return true;
      if (def && def->getBlock() == body)
        return set.contains(def);
      return v.getParentBlock() != body; // defined outside the loop
    });
  };
  // Pure ops first (an index computation may feed a load), then loads.
  for (Operation &op : body->without_terminator()) {
    if (auto load = dyn_cast<memref::LoadOp>(op)) {
      if (!written.contains(viewedBuffer(load.getMemRef())) && ready(op))
        set.insert(&op);
      continue;
    }
    if (!op.getNumRegions() && isPure(&op) && ready(op) &&
        llvm::none_of(op.getOperands(), [&](Value v) {
          return llvm::is_contained(loop.getRegionIterArgs(), v);
        }))
      set.insert(&op);
  }
  // Keep the pure ops only where a hoisted load needs them.
  llvm::DenseSet<Operation *> needed;
  std::function<void(Operation *)> need = [&](Operation *op) {
    if (!needed.insert(op).second)
      return;
    for (Value v : op->getOperands())
      if (Operation *def = v.getDefiningOp(); def && set.contains(def))
        need(def);
  };
  for (Operation *op : set)
    if (isa<memref::LoadOp>(op))
      need(op);
  return needed;
}

bool RowReductionGen::vectorizable(Value memref, ValueRange indices, scf::ForOp loop) {
  if (s.vector == 1 || getConstantIntValue(loop.getStep()) != 1)
    return false;
  auto view = memref.getDefiningOp<memref::ReinterpretCastOp>();
  auto type = cast<MemRefType>(memref.getType());
  Type elt = type.getElementType();
  if (!view || !elt.isIntOrFloat() || elt.getIntOrFloatBitWidth() * s.vector > 128 ||
      elt.getIntOrFloatBitWidth() % 8)
    return false;
  if (indices.empty() || indices.back() != loop.getInductionVar())
    return false;
  for (Value index : indices.drop_back())
    if (!dom.properlyDominates(index, loop))
      return false;
  auto [strides, offset] = type.getStridesAndOffset();
  return !strides.empty() && strides.back() == 1;
}

Value RowReductionGen::alignedFlag(SIMTBuilder &sb, Value memref, ValueRange indices,
                                   scf::ForOp loop, IRMapping &outer) {
  auto view = memref.getDefiningOp<memref::ReinterpretCastOp>();
  int64_t bytes = cast<MemRefType>(memref.getType()).getElementTypeBitWidth() / 8;
  auto eq0 = [&](Value v, int64_t m) {
    return arith::CmpIOp::create(sb.b, sb.loc, arith::CmpIPredicate::eq, sb.rem(v, m), sb.c(0))
        .getResult();
  };
  Value base = memref::ExtractAlignedPointerAsIndexOp::create(
      sb.b, sb.loc, outer.lookupOrDefault(view.getSource()));
  // The first element a lane reads: offset + sum(index * stride) over the
  // other dimensions + start + a multiple of V.
  Value linear = getValueOrCreateConstantIndexOp(sb.b, sb.loc, view.getMixedOffsets()[0]);
  linear = outer.lookupOrDefault(linear);
  SmallVector<OpFoldResult> strides = view.getMixedStrides();
  for (auto [i, index] : llvm::enumerate(indices.drop_back()))
    linear = sb.add(linear, sb.mul(outer.lookupOrDefault(index),
                                   outer.lookupOrDefault(getValueOrCreateConstantIndexOp(
                                       sb.b, sb.loc, strides[i]))));
  linear = sb.add(linear, outer.lookupOrDefault(loop.getLowerBound()));
  return sb.andi(eq0(base, bytes * s.vector), eq0(linear, s.vector));
}

void RowReductionGen::emitSpeculatedTurn(SIMTBuilder &sb, const RowLoop &rl,
                                         const llvm::DenseSet<Operation *> &early,
                                         const llvm::MapVector<Operation *, Value> &vectorStores,
                                         MutableArrayRef<IRMapping> maps, ArrayRef<Value> ts,
                                         ArrayRef<Value> inside, Value n,
                                         SmallVectorImpl<Value> &partials) {
  OpBuilder &b = sb.b;
  Location loc = sb.loc;
  scf::ForOp loop = rl.loop;
  Block *body = loop.getBody();
  int64_t V = s.vector;
  llvm::MapVector<Operation *, SmallVector<Value>> pending;
  for (int64_t v = 0; v < V; ++v) {
    for (auto [k, r] : llvm::enumerate(rl.reductions))
      maps[v].map(loop.getRegionIterArgs()[r.index], partials[k]);
    for (Operation &op : body->without_terminator()) {
      if (early.contains(&op))
        continue;
      if (vectorStores.contains(&op)) {
        pending[&op].push_back(maps[v].lookupOrDefault(cast<memref::StoreOp>(op).getValueToStore()));
        continue;
      }
      if (isa<memref::StoreOp>(op) && inside[v])
        sb.ifThen(inside[v], [&]() { b.clone(op, maps[v]); });
      else
        b.clone(op, maps[v]);
    }
    auto yield = cast<scf::YieldOp>(body->getTerminator());
    for (auto [k, r] : llvm::enumerate(rl.reductions)) {
      Value next = maps[v].lookupOrDefault(yield.getOperand(r.index));
      partials[k] = inside[v] ? arith::SelectOp::create(b, loc, inside[v], next, partials[k]).getResult()
                              : next;
    }
  }
  for (auto &[op, values] : pending) {
    auto store = cast<memref::StoreOp>(op);
    Value whole = sb.andi(sb.lt(sb.add(ts[0], V - 1), n), vectorStores.lookup(op));
    auto ifOp = scf::IfOp::create(b, loc, TypeRange{}, whole, /*withElseRegion=*/true);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
    SmallVector<Value> indices;
    for (Value index : store.getIndices())
      indices.push_back(maps[0].lookupOrDefault(index));
    auto type = VectorType::get({V}, values.front().getType());
    int64_t bytes = type.getElementTypeBitWidth() / 8;
    vector::StoreOp::create(b, loc, vector::FromElementsOp::create(b, loc, type, values),
                            maps[0].lookupOrDefault(store.getMemRef()), indices,
                            /*nontemporal=*/false, llvm::Align(bytes * V));
    b.setInsertionPoint(ifOp.elseBlock()->getTerminator());
    for (int64_t v = 0; v < V; ++v) {
      IRMapping map = maps[v];
      map.map(store.getValueToStore(), values[v]);
      if (inside[v])
        sb.ifThen(inside[v], [&]() { b.clone(*op, map); });
      else
        b.clone(*op, map);
    }
  }
}

void RowReductionGen::emitOnlineTurn(SIMTBuilder &sb, const RowLoop &rl,
                                     const llvm::DenseSet<Operation *> &early,
                                     MutableArrayRef<IRMapping> maps, ArrayRef<Value> inside,
                                     SmallVectorImpl<Value> &partials) {
  // The merged loop (mergeOnlineSoftmaxPair) computes x from the element,
  // then updates (max, sum) element by element: each update waits on the
  // last one's exponential, and rescales the sum. Per turn instead: the
  // turn's max first, the sum rescaled once, the elements' exponentials
  // independent of each other. The same sum in exact arithmetic; the guards
  // are the merged loop's.
  OpBuilder &b = sb.b;
  Location loc = sb.loc;
  scf::ForOp loop = rl.loop;
  Block *body = loop.getBody();
  Operation *maxOp = rl.reductions[0].combine;
  Value m = loop.getRegionIterArgs()[0];
  Value x = maxOp->getOperand(0) == m ? maxOp->getOperand(1) : maxOp->getOperand(0);
  // The update: every op that depends on the carried pair.
  llvm::DenseSet<Operation *> update;
  for (Operation &op : body->without_terminator())
    if (llvm::any_of(op.getOperands(), [&](Value v) {
          Operation *def = v.getDefiningOp();
          return llvm::is_contained(loop.getRegionIterArgs(), v) || (def && update.contains(def));
        }))
      update.insert(&op);
  auto type = cast<FloatType>(x.getType());
  Value negInf = arith::ConstantOp::create(
      b, loc, b.getFloatAttr(type, APFloat::getInf(type.getFloatSemantics(), /*Negative=*/true)));
  auto max = [&](Value a, Value c) {
    Operation *op = b.clone(*maxOp);
    op->setOperands({a, c});
    return op->getResult(0);
  };
  SmallVector<Value> xs;
  for (auto [v, map] : llvm::enumerate(maps)) {
    for (Operation &op : body->without_terminator())
      if (!early.contains(&op) && !update.contains(&op))
        b.clone(op, map);
    Value xv = map.lookupOrDefault(x);
    if (inside[v])
      xv = arith::SelectOp::create(b, loc, inside[v], xv, negInf);
    xs.push_back(xv);
  }
  Value turnMax = xs.front();
  for (Value xv : ArrayRef(xs).drop_front())
    turnMax = max(turnMax, xv);
  Value next = max(partials[0], turnMax);
  Value sum = rescaleOnlineSum(b, loc, partials[0], partials[1], next);
  SmallVector<Value> terms;
  for (Value xv : xs)
    terms.push_back(onlineSoftmaxTerm(b, loc, xv, next));
  // (A tree: the additions need not wait on each other either.)
  while (terms.size() > 1) {
    SmallVector<Value> pairs;
    for (size_t i = 0; i + 1 < terms.size(); i += 2)
      pairs.push_back(arith::AddFOp::create(b, loc, terms[i], terms[i + 1]));
    if (terms.size() % 2)
      pairs.push_back(terms.back());
    terms = pairs;
  }
  partials[0] = next;
  partials[1] = arith::AddFOp::create(b, loc, sum, terms.front());
}

SmallVector<SmallVector<unsigned>> RowReductionGen::reductionGroups(const RowLoop &rl) const {
  if (rl.online)
    return {{0, 1}};
  SmallVector<SmallVector<unsigned>> groups;
  for (unsigned k = 0; k < rl.reductions.size(); ++k) {
    if (rl.reductions[k].kind == Reduction::Kind::ArgValue)
      groups.push_back({k, k + 1});
    else if (rl.reductions[k].kind == Reduction::Kind::Plain)
      groups.push_back({k});
  }
  return groups;
}

SmallVector<Value> RowReductionGen::combineGroup(OpBuilder &b, Location loc, const RowLoop &rl,
                                                 ArrayRef<unsigned> ks, ValueRange a,
                                                 ValueRange x, bool aFirst) {
  if (rl.online) {
    auto [m, sum] = combineOnlineSoftmax(b, loc, rl.reductions[0].combine, a[0], a[1], x[0], x[1]);
    return {m, sum};
  }
  const Reduction &r = rl.reductions[ks[0]];
  if (r.kind == Reduction::Kind::ArgValue) {
    // x's pair wins with a better value, or the same value at a lower
    // position; symmetric, so both lanes of a shuffle agree. The loop's
    // initial pair comes first: only a better value beats it.
    using P = arith::CmpFPredicate;
    Value better = arith::CmpFOp::create(b, loc, r.argMin ? P::OLT : P::OGT, x[0], a[0]);
    if (aFirst)
      return {arith::SelectOp::create(b, loc, better, x[0], a[0]).getResult(),
              arith::SelectOp::create(b, loc, better, x[1], a[1]).getResult()};
    Value tie = arith::CmpFOp::create(b, loc, P::OEQ, x[0], a[0]);
    Value earlier = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, x[1], a[1]);
    Value take = arith::OrIOp::create(b, loc, better, arith::AndIOp::create(b, loc, tie, earlier));
    return {arith::SelectOp::create(b, loc, take, x[0], a[0]).getResult(),
            arith::SelectOp::create(b, loc, take, x[1], a[1]).getResult()};
  }
  Operation *c = b.clone(*r.combine);
  c->setOperand(r.accOperand, a[0]);
  c->setOperand(1 - r.accOperand, x[0]);
  return {c->getResult(0)};
}

SmallVector<Value> RowReductionGen::combineAcrossGroup(SIMTBuilder &sb, const RowLoop &rl,
                                                       ValueRange partials) {
  OpBuilder &b = sb.b;
  SmallVector<Value> totals(partials.begin(), partials.end());
  if (s.interleaved)
    return combineThroughShared(sb, rl, totals);
  int64_t withinWarp = std::min<int64_t>(s.threadsPerRow, 32);
  for (ArrayRef<unsigned> ks : reductionGroups(rl))
    for (int64_t off = withinWarp / 2; off >= 1; off /= 2) {
      SmallVector<Value> mine, theirs;
      for (unsigned k : ks) {
        mine.push_back(totals[k]);
        theirs.push_back(gpu::ShuffleOp::create(b, sb.loc, totals[k], int32_t(off), 32,
                                                gpu::ShuffleMode::XOR)
                             .getShuffleResult());
      }
      for (auto [k, v] : llvm::zip(ks, combineGroup(b, sb.loc, rl, ks, mine, theirs)))
        totals[k] = v;
    }
  if (s.threadsPerRow <= 32 || rl.reductions.empty())
    return totals;
  // The warps of the row: each warp's total through shared memory, read
  // back by every thread in the same order.
  int64_t warps = s.threadsPerRow / 32;
  auto space = gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Workgroup);
  SmallVector<Value> buffers;
  for (const Reduction &r : rl.reductions) {
    Type t = r.neutral.getType();
    buffers.push_back(addSharedBuffer(
        kernel, MemRefType::get({warps}, t, MemRefLayoutAttrInterface(), space), sb.loc));
  }
  Value warp = sb.div(threadId, 32);
  Value first = arith::CmpIOp::create(b, sb.loc, arith::CmpIPredicate::eq, sb.rem(threadId, 32),
                                      sb.c(0));
  sb.ifThen(first, [&]() {
    for (auto [k, buffer] : llvm::enumerate(buffers))
      memref::StoreOp::create(b, sb.loc, totals[k], buffer, ValueRange{warp});
  });
  gpu::BarrierOp::create(b, sb.loc);
  combineSlots(sb, rl, buffers, warps, [&](int64_t w) { return sb.c(w); }, totals);
  return totals;
}

void RowReductionGen::combineSlots(SIMTBuilder &sb, const RowLoop &rl, ArrayRef<Value> buffers,
                                   int64_t count, llvm::function_ref<Value(int64_t)> slot,
                                   SmallVectorImpl<Value> &totals) {
  for (ArrayRef<unsigned> ks : reductionGroups(rl)) {
    auto load = [&](int64_t i) {
      SmallVector<Value> values;
      for (unsigned k : ks)
        values.push_back(memref::LoadOp::create(sb.b, sb.loc, buffers[k], ValueRange{slot(i)}));
      return values;
    };
    SmallVector<Value> x = load(0);
    for (int64_t i = 1; i < count; ++i)
      x = combineGroup(sb.b, sb.loc, rl, ks, x, load(i));
    for (auto [k, v] : llvm::zip(ks, x))
      totals[k] = v;
  }
}

SmallVector<Value> RowReductionGen::combineThroughShared(SIMTBuilder &sb, const RowLoop &rl,
                                                         ArrayRef<Value> partials) {
  SmallVector<Value> totals(partials);
  int64_t T = s.threadsPerRow, R = s.rowsPerBlock;
  if (T == 1 || rl.reductions.empty())
    return totals;
  OpBuilder &b = sb.b;
  auto space = gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Workgroup);
  SmallVector<Value> buffers;
  for (const Reduction &r : rl.reductions)
    buffers.push_back(addSharedBuffer(
        kernel, MemRefType::get({T * R}, r.neutral.getType(), MemRefLayoutAttrInterface(), space),
        sb.loc));
  // (Each thread's slot is its thread index: lane * R + group.)
  for (auto [k, buffer] : llvm::enumerate(buffers))
    memref::StoreOp::create(b, sb.loc, totals[k], buffer, ValueRange{threadId});
  gpu::BarrierOp::create(b, sb.loc);
  combineSlots(sb, rl, buffers, T, [&](int64_t l) { return l ? sb.add(group, l * R) : group; },
               totals);
  return totals;
}

RowReductionGen::CachedLoad *RowReductionGen::cachedLoadOf(memref::LoadOp load, scf::ForOp loop,
                                                          bool create) {
  ValueRange indices = load.getIndices();
  if (written.contains(viewedBuffer(load.getMemRef())) || indices.empty() ||
      indices.back() != loop.getInductionVar() ||
      llvm::any_of(indices.drop_back(),
                   [&](Value v) { return !dom.properlyDominates(v, loop); }))
    return nullptr;
  SmallVector<Value> others(indices.drop_back());
  for (CachedLoad &c : cachedLoads)
    if (c.memref == load.getMemRef() && c.others == others)
      return &c;
  if (!create)
    return nullptr;
  cachedLoads.push_back({load.getMemRef(), others});
  return &cachedLoads.back();
}

void RowReductionGen::emitRowLoop(SIMTBuilder &sb, const RowLoop &rl, IRMapping &outer,
                                  bool cached) {
  OpBuilder &b = sb.b;
  Location loc = sb.loc;
  scf::ForOp loop = rl.loop;
  Value lb = outer.lookupOrDefault(loop.getLowerBound());
  Value ub = outer.lookupOrDefault(loop.getUpperBound());
  Value step = outer.lookupOrDefault(loop.getStep());
  // The trip count, empty for a group past the last row.
  bool isUnsigned = loop.getUnsignedCmp();
  Value positive = arith::CmpIOp::create(
      b, loc, isUnsigned ? arith::CmpIPredicate::ugt : arith::CmpIPredicate::sgt, ub, lb);
  Value span = sb.sub(ub, lb);
  Value count = isUnsigned ? Value(arith::CeilDivUIOp::create(b, loc, span, step))
                           : Value(arith::CeilDivSIOp::create(b, loc, span, step));
  Value n = arith::SelectOp::create(b, loc, sb.andi(positive, valid), count, sb.c(0));

  int64_t T = s.threadsPerRow, V = s.vector, U = s.unroll;
  llvm::DenseSet<Operation *> early = hoistable(loop);
  // Whether the body's other ops may run for an element past the row's end
  // (where the loads that go first read zero): arithmetic that cannot trap
  // (no integer division), and stores, which stay predicated.
  bool speculatable = llvm::all_of(loop.getBody()->without_terminator(), [&](Operation &op) {
    if (early.contains(&op) || isa<memref::StoreOp>(op))
      return true;
    if (op.getNumRegions() || !isPure(&op))
      return false;
    return !isa<arith::DivSIOp, arith::DivUIOp, arith::RemSIOp, arith::RemUIOp, arith::CeilDivSIOp,
                arith::CeilDivUIOp, arith::FloorDivSIOp>(op);
  });
  llvm::DenseMap<Operation *, Value> aligned;
  for (Operation &op : loop.getBody()->without_terminator()) // (the body's order)
    if (auto load = dyn_cast<memref::LoadOp>(op);
        load && early.contains(&op) && vectorizable(load.getMemRef(), load.getIndices(), loop))
      aligned[&op] = alignedFlag(sb, load.getMemRef(), load.getIndices(), loop, outer);
  // Stores that go out V wide (where the whole turn is in the row and
  // aligned): a warp's scalar stores V elements apart fill a fraction of
  // each sector they touch, which made softmax L2-bound. Only where the
  // rest of the turn is speculated, since a turn's stores then move to the
  // turn's end; no element reads another's (a buffer the kernel writes is
  // accessed at the loop's variable only, checked before).
  llvm::MapVector<Operation *, Value> vectorStores;
  if (speculatable)
    for (Operation &op : loop.getBody()->without_terminator())
      if (auto store = dyn_cast<memref::StoreOp>(op);
          store && vectorizable(store.getMemRef(), store.getIndices(), loop))
        vectorStores[&op] = alignedFlag(sb, store.getMemRef(), store.getIndices(), loop, outer);

  // The later loops' loads this one prefetches (cached only), with their
  // alignment flags where they can be V wide.
  SmallVector<CachedLoad *> prefetched;
  if (cached)
    for (CachedLoad &c : cachedLoads) {
      if (!c.prefetch || c.prefetch->filler != loop)
        continue;
      prefetched.push_back(&c);
      memref::LoadOp load = c.prefetch->load;
      if (vectorizable(load.getMemRef(), load.getIndices(), c.prefetch->owner))
        aligned[load] = alignedFlag(sb, load.getMemRef(), load.getIndices(), c.prefetch->owner,
                                    outer);
    }

  SmallVector<Value> neutral;
  for (const Reduction &r : rl.reductions)
    neutral.push_back(arith::ConstantOp::create(b, loc, r.neutral));
  // Cached: the row fits cached_turns turns, all of them unrolled (the
  // private arrays' indices become constants: registers); else turns until
  // the end of the row, `unroll` per iteration.
  int64_t C = s.cachedTurns;
  if (cached)
    U = 1;
  auto split = cached ? scf::ForOp::create(b, loc, sb.c(0), sb.c(C), sb.c(1), neutral)
                      : scf::ForOp::create(b, loc, sb.mul(lane, V), n, sb.c(T * V * U), neutral);
  if (cached)
    split->setAttr(kUnrollAttrName, b.getUnitAttr());
  SmallVector<CachedLoad *> filling;
  {
    OpBuilder::InsertionGuard guard(b);
    // (A loop without results comes with its terminator.)
    if (neutral.empty())
      b.setInsertionPoint(split.getBody()->getTerminator());
    else
      b.setInsertionPointToStart(split.getBody());
    Value turn = split.getInductionVar();
    Value base = cached ? sb.add(sb.mul(turn, T * V), sb.mul(lane, V)) : turn;
    SmallVector<Value> partials(split.getRegionIterArgs().begin(), split.getRegionIterArgs().end());
    Block *body = loop.getBody();
    for (int64_t u = 0; u < U; ++u) {
      // Each element of the turn: its own mapping of the loop's values.
      SmallVector<IRMapping> maps(V, outer);
      SmallVector<Value> ts(V), inside(V);
      for (int64_t v = 0; v < V; ++v) {
        ts[v] = sb.add(base, u * T * V + v);
        inside[v] = u == 0 && v == 0 && !cached ? Value() : sb.lt(ts[v], n);
        maps[v].map(loop.getInductionVar(), sb.add(lb, sb.mul(ts[v], step)));
      }
      // A load that goes first, for every element of the turn (`lmaps`:
      // the element's mapping of the load's loop).
      auto emitEarlyLoad = [&](memref::LoadOp load, CachedLoad *entry,
                               MutableArrayRef<IRMapping> lmaps) {
        Operation &op = *load;
        Type elt = load.getType();
        auto slot = [&](int64_t v) { return sb.add(sb.mul(turn, V), v); };
        if (entry && entry->filled) {
          for (int64_t v = 0; v < V; ++v)
            lmaps[v].map(load.getResult(),
                         memref::LoadOp::create(b, loc, entry->cache, ValueRange{slot(v)}));
          return;
        }
        auto keep = [&]() {
          if (!entry)
            return;
          for (int64_t v = 0; v < V; ++v)
            memref::StoreOp::create(b, loc, lmaps[v].lookup(load.getResult()), entry->cache,
                                    ValueRange{slot(v)});
          filling.push_back(entry);
        };
        auto scalar = [&](int64_t v) -> Value {
          if (!inside[v])
            return b.clone(op, lmaps[v])->getResult(0);
          return sb.ifElse(inside[v], elt,
                           [&]() -> SmallVector<Value> { return {b.clone(op, lmaps[v])->getResult(0)}; },
                           [&]() -> SmallVector<Value> { return {sb.zero(elt)}; })[0];
        };
        if (!aligned.contains(&op)) {
          for (int64_t v = 0; v < V; ++v)
            lmaps[v].map(load.getResult(), scalar(v));
          keep();
          return;
        }
        auto type = VectorType::get({V}, elt);
        Value whole = sb.andi(sb.lt(sb.add(ts[0], V - 1), n), aligned[&op]);
        Value vec = sb.ifElse(
            whole, type,
            [&]() -> SmallVector<Value> {
              SmallVector<Value> indices;
              for (Value index : load.getIndices())
                indices.push_back(lmaps[0].lookupOrDefault(index));
              int64_t bytes = elt.getIntOrFloatBitWidth() / 8;
              return {vector::LoadOp::create(b, loc, type, lmaps[0].lookupOrDefault(load.getMemRef()),
                                             indices, /*nontemporal=*/false,
                                             llvm::Align(bytes * V))};
            },
            [&]() -> SmallVector<Value> {
              SmallVector<Value> elements;
              for (int64_t v = 0; v < V; ++v)
                elements.push_back(scalar(v));
              return {vector::FromElementsOp::create(b, loc, type, elements)};
            })[0];
        for (int64_t v = 0; v < V; ++v)
          lmaps[v].map(load.getResult(), vector::ExtractOp::create(b, loc, vec, v));
        keep();
      };
      for (Operation &op : body->without_terminator()) {
        if (!early.contains(&op))
          continue;
        auto load = dyn_cast<memref::LoadOp>(op);
        if (!load) {
          for (int64_t v = 0; v < V; ++v)
            b.clone(op, maps[v]);
          continue;
        }
        CachedLoad *entry = cached ? cachedLoadOf(load, loop, /*create=*/false) : nullptr;
        if (entry && entry->loops < 2 && !entry->prefetch)
          entry = nullptr;
        emitEarlyLoad(load, entry, maps);
      }
      // A later loop's loads this loop prefetches: the same elements (the
      // loops' bounds are the same), the later loop's variable mapped to
      // this one's.
      for (CachedLoad *entry : prefetched) {
        scf::ForOp owner = entry->prefetch->owner;
        SmallVector<IRMapping> lmaps(maps);
        for (int64_t v = 0; v < V; ++v)
          lmaps[v].map(owner.getInductionVar(), maps[v].lookup(loop.getInductionVar()));
        emitEarlyLoad(entry->prefetch->load, entry, lmaps);
      }
      if (rl.online) {
        emitOnlineTurn(sb, rl, early, maps, inside, partials);
        continue;
      }
      if (!vectorStores.empty()) {
        emitSpeculatedTurn(sb, rl, early, vectorStores, maps, ts, inside, n, partials);
        continue;
      }
      // The rest of the body, element by element, predicated past the end:
      // speculated where it can be (its stores predicated, its reductions
      // selected), which keeps it free of branches.
      for (int64_t v = 0; v < V; ++v) {
        if (inside[v] && speculatable) {
          for (auto [k, r] : llvm::enumerate(rl.reductions))
            maps[v].map(loop.getRegionIterArgs()[r.index], partials[k]);
          for (Operation &op : body->without_terminator()) {
            if (early.contains(&op))
              continue;
            if (isa<memref::StoreOp>(op))
              sb.ifThen(inside[v], [&]() { b.clone(op, maps[v]); });
            else
              b.clone(op, maps[v]);
          }
          auto yield = cast<scf::YieldOp>(body->getTerminator());
          for (auto [k, r] : llvm::enumerate(rl.reductions))
            partials[k] = arith::SelectOp::create(
                b, loc, inside[v], maps[v].lookupOrDefault(yield.getOperand(r.index)), partials[k]);
          continue;
        }
        auto emitRest = [&]() -> SmallVector<Value> {
          for (auto [k, r] : llvm::enumerate(rl.reductions))
            maps[v].map(loop.getRegionIterArgs()[r.index], partials[k]);
          for (Operation &op : body->without_terminator())
            if (!early.contains(&op))
              b.clone(op, maps[v]);
          SmallVector<Value> next;
          auto yield = cast<scf::YieldOp>(body->getTerminator());
          for (const Reduction &r : rl.reductions)
            next.push_back(maps[v].lookupOrDefault(yield.getOperand(r.index)));
          return next;
        };
        if (!inside[v]) {
          partials = emitRest();
          continue;
        }
        if (partials.empty()) {
          sb.ifThen(inside[v], [&]() { emitRest(); });
          continue;
        }
        ValueRange next = sb.ifElse(inside[v], TypeRange(ValueRange(partials)), emitRest,
                                    [&]() -> SmallVector<Value> { return partials; });
        partials.assign(next.begin(), next.end());
      }
    }
    if (!neutral.empty())
      scf::YieldOp::create(b, loc, partials);
  }
  for (CachedLoad *entry : filling)
    entry->filled = true;
  // Interleaved (the form for rows that lie side by side, a column sum's
  // columns), a row's elements are a stride apart, the row length, a
  // runtime value in the column sums measured (a constant one is marked
  // too, unmeasured): its loads get
  // 32-bit offsets in the loop too (ks-narrow-offsets' exception, Passes.td
  // says why), so that each unrolled turn does not hold a 64-bit pointer.
  if (s.interleaved)
    split.walk([&](memref::LoadOp load) {
      load->setAttr(kInt32LoopOffsetsAttrName, b.getUnitAttr());
    });
  SmallVector<Value> totals = combineAcrossGroup(sb, rl, split.getResults());
  for (ArrayRef<unsigned> ks : reductionGroups(rl)) {
    SmallVector<Value> inits, mine;
    for (unsigned k : ks) {
      inits.push_back(outer.lookupOrDefault(loop.getInitArgs()[rl.reductions[k].index]));
      mine.push_back(totals[k]);
    }
    for (auto [k, v] : llvm::zip(ks, combineGroup(b, loc, rl, ks, inits, mine, /*aFirst=*/true)))
      outer.map(loop.getResult(rl.reductions[k].index), v);
  }
}

void RowReductionGen::emitBody(SIMTBuilder &sb, IRMapping outer, bool cached) {
  for (Operation &op : forall.getBody()->without_terminator()) {
    if (auto loop = dyn_cast<scf::ForOp>(op)) {
      emitRowLoop(sb, loops[loopIndex.lookup(loop)], outer, cached);
      continue;
    }
    if (!writesMemory(&op)) {
      sb.b.clone(op, outer);
      continue;
    }
    sb.ifThen(first, [&]() { sb.b.clone(op, outer); });
  }
}

LogicalResult RowReductionGen::generate(int64_t maxSharedBytes, std::string &why) {
  if (s.online && !onlinePairs.empty()) {
    for (const OnlineSoftmaxPair &pair : onlinePairs)
      mergedLoops.insert(mergeOnlineSoftmaxPair(pair));
    // The merged loop reads what the two read and writes nothing: what was
    // legal stays legal.
    if (failed(analyze(maxSharedBytes, why))) {
      why = "internal error after merging the online softmax loops: " + why;
      return failure();
    }
  }
  OpBuilder b(forall);
  SIMTBuilder sb(b, forall.getLoc());
  Location loc = forall.getLoc();
  int64_t T = s.threadsPerRow, R = s.rowsPerBlock;
  SmallVector<Value> ubs;
  for (OpFoldResult ub : forall.getMixedUpperBound())
    ubs.push_back(getValueOrCreateConstantIndexOp(b, loc, ub));
  Value rows = sb.product(ubs);
  threadId = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  if (s.interleaved) {
    lane = sb.div(threadId, R);
    group = sb.rem(threadId, R);
  } else {
    lane = T > 32 ? threadId : sb.rem(threadId, T);
    group = T > 32 ? sb.c(0) : sb.div(threadId, T);
  }
  Value row = sb.add(sb.mul(gpu::BlockIdOp::create(b, loc, gpu::Dimension::x), R), group);
  valid = sb.lt(row, rows);
  // A group past the last row recomputes the last row (its loads stay in
  // bounds) with its loops emptied and its stores dropped.
  Value clamped = arith::SelectOp::create(b, loc, valid, row, sb.sub(rows, sb.c(1)));
  IRMapping outer;
  Value rest = clamped;
  for (int64_t i = forall.getRank() - 1; i >= 0; --i) {
    Value iv = i == 0 ? rest : sb.remu(rest, ubs[i]);
    if (i > 0)
      rest = sb.divu(rest, ubs[i]);
    outer.map(forall.getInductionVars()[i], iv);
  }
  first = sb.andi(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lane, sb.c(0)), valid);
  if (s.cachedTurns == 0) {
    emitBody(sb, outer, /*cached=*/false);
  } else {
    // The elements several loops read (countCachedLoads), each lane's in
    // registers.
    if (s.prefetch)
      for (const Prefetch &p : prefetches)
        cachedLoadOf(p.load, p.owner, /*create=*/false)->prefetch = &p;
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(&kernel.getBody().front());
      for (CachedLoad &c : cachedLoads)
        if (c.loops >= 2 || c.prefetch)
          c.cache = memref::AllocaOp::create(
              b, loc, MemRefType::get({s.cachedTurns * s.vector},
                                      cast<MemRefType>(c.memref.getType()).getElementType()));
    }
    // Whether every loop's row fits the turns (the bounds are the same for
    // every row: checked).
    Value fits;
    SmallVector<std::tuple<Value, Value, Value>> seenBounds;
    for (RowLoop &rl : loops) {
      scf::ForOp l = rl.loop;
      std::tuple<Value, Value, Value> bounds{l.getLowerBound(), l.getUpperBound(), l.getStep()};
      if (llvm::is_contained(seenBounds, bounds))
        continue;
      seenBounds.push_back(bounds);
      Value span = sb.sub(l.getUpperBound(), l.getLowerBound());
      Value count = l.getUnsignedCmp()
                        ? Value(arith::CeilDivUIOp::create(b, loc, span, l.getStep()))
                        : Value(arith::CeilDivSIOp::create(b, loc, span, l.getStep()));
      fits = sb.andi(fits, arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sle, count,
                                                 sb.c(s.cachedTurns * s.vector * T)));
    }
    auto ifOp = scf::IfOp::create(b, loc, TypeRange{}, fits, /*withElseRegion=*/true);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
    emitBody(sb, outer, /*cached=*/true);
    b.setInsertionPoint(ifOp.elseBlock()->getTerminator());
    emitBody(sb, outer, /*cached=*/false);
  }
  std::array<Value, 3> grid = {sb.ceilDiv(rows, R), Value(), Value()};
  if (failed(rewriteLaunch(kernel, grid, {s.threads(), 1, 1}, why)))
    return failure();
  forall.erase();
  kernel->removeAttr(kRaisedAttrName);
  kernel->setAttr(kScheduleAttrName, b.getStringAttr("simt_row_reduction"));
  kernel.setKnownBlockSizeAttr(b.getDenseI32ArrayAttr({int32_t(s.threads()), 1, 1}));
  return success();
}
} // namespace

LogicalResult mlir::ks::checkRowReduction(scf::ForallOp forall, const RowReductionSchedule &s,
                                          int64_t maxSharedBytes, std::string &why,
                                          RowReductionFacts *facts) {
  RowReductionGen gen(forall, s);
  if (failed(gen.analyze(maxSharedBytes, why)))
    return failure();
  if (facts)
    *facts = gen.facts();
  return success();
}

LogicalResult mlir::ks::generateRowReduction(scf::ForallOp forall, const RowReductionSchedule &s,
                                             int64_t maxSharedBytes, std::string &why) {
  RowReductionGen gen(forall, s);
  if (failed(gen.analyze(maxSharedBytes, why)))
    return failure();
  return gen.generate(maxSharedBytes, why);
}
