//===- PromoteAccumulators.cpp - Accumulate in registers, not in memory ---===//
//
// `for k: c[i][j] = c[i][j] + f(k)` (the polyhedral suites' style: the
// output is zeroed or scaled, then accumulated in place) becomes `acc =
// c[i][j]; for k iter_args(acc): acc = acc + f(k); c[i][j] = acc`, and the
// stores and loads of the element left around the loop are forwarded and
// dropped (Passes.td says when). The loop then carries its accumulator the
// way ks-raise-contractions expects a reduction, and a kernel left SIMT
// reads and writes the element once instead of once per iteration.
//
// Not upstream's: affine-scalrep takes affine.load/affine.store only (the
// raised kernels' accesses are memref.load/store of strided views with
// dynamic bounds), and loop-invariant subset hoisting takes ops of the
// subset interfaces (tensor slices, vector transfers), not memref.load.
//
// Legality: distinct kernel buffers are assumed not to alias, as
// throughout the raising (docs/Raising.md); two accesses to one buffer are
// the same element only when they are the same view at the same index
// values, and otherwise may be the same element.
//
//===----------------------------------------------------------------------===//

#include "kernelskill/Dialect/KS/IR/KSDialect.h"
#include "kernelskill/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace mlir::ks {
#define GEN_PASS_DEF_KSPROMOTEACCUMULATORS
#include "kernelskill/Transforms/Passes.h.inc"
} // namespace mlir::ks

using namespace mlir;

namespace {

/// The buffer a memref views: through view-like ops (reinterpret_cast,
/// subview, casts) to a kernel argument or an allocation.
Value rootBuffer(Value memref) {
  while (auto view = memref.getDefiningOp<ViewLikeOpInterface>())
    memref = view.getViewSource();
  return memref;
}

/// How `op` (with everything nested in it) touches `buffer`: not at all,
/// or possibly (any read or write of a memref viewing it, or an effect on
/// memory the op does not name).
bool mayTouch(Operation *op, Value buffer) {
  std::optional<SmallVector<MemoryEffects::EffectInstance>> effects = getEffectsRecursively(op);
  if (!effects)
    return true;
  for (const MemoryEffects::EffectInstance &effect : *effects) {
    if (isa<MemoryEffects::Allocate, MemoryEffects::Free>(effect.getEffect()))
      continue;
    Value value = effect.getValue();
    if (!value)
      return true;
    if (isa<BaseMemRefType>(value.getType()) && rootBuffer(value) == buffer)
      return true;
  }
  return false;
}

/// The element an access names: its memref value and index values.
struct Element {
  Value memref;
  OperandRange indices;
  bool operator==(const Element &other) const {
    return memref == other.memref && llvm::equal(indices, other.indices);
  }
};

Element elementOf(memref::LoadOp load) { return {load.getMemRef(), load.getIndices()}; }
Element elementOf(memref::StoreOp store) { return {store.getMemRef(), store.getIndices()}; }

bool definedOutside(Value value, Operation *op) {
  return !op->isAncestor(value.getParentBlock()->getParentOp());
}

/// Whether `loop` runs at least once: constant bounds, or `0 to N` inside
/// an scf.forall iteration over `0 to N` (the point exists, so N >= 1).
bool runsAtLeastOnce(scf::ForOp loop) {
  std::optional<int64_t> lb = getConstantIntValue(loop.getLowerBound());
  std::optional<int64_t> ub = getConstantIntValue(loop.getUpperBound());
  if (lb && ub)
    return *lb < *ub;
  if (!lb || *lb != 0)
    return false;
  for (auto forall = loop->getParentOfType<scf::ForallOp>(); forall;
       forall = forall->getParentOfType<scf::ForallOp>()) {
    for (auto [lower, upper] :
         llvm::zip(forall.getMixedLowerBound(), forall.getMixedUpperBound())) {
      std::optional<int64_t> forallLb = getConstantIntValue(lower);
      if (forallLb && *forallLb == 0 && isa<Value>(upper) &&
          cast<Value>(upper) == loop.getUpperBound())
        return true;
    }
  }
  return false;
}

/// Whether the block holding `loop` stores to `element` unconditionally
/// (outside the loop): the point owns the element whether or not the loop
/// runs, so writing it back after a loop that ran zero times stores what
/// another point could not have written.
bool storedBesideLoop(scf::ForOp loop, const Element &element) {
  for (Operation &op : *loop->getBlock())
    if (auto store = dyn_cast<memref::StoreOp>(op); store && elementOf(store) == element)
      return true;
  return false;
}

/// One element the loop loads and then stores each iteration: the loads
/// (direct children of the body, before the store) and the store.
struct Accumulator {
  SmallVector<memref::LoadOp> loads;
  memref::StoreOp store;
};

/// The accumulator in `loop`'s body over `store`'s element, if every access
/// the loop makes to that buffer is a load of the element before the store
/// or the store itself.
std::optional<Accumulator> accumulatorOf(scf::ForOp loop, memref::StoreOp store) {
  Element element = elementOf(store);
  if (!definedOutside(element.memref, loop) ||
      !llvm::all_of(element.indices, [&](Value v) { return definedOutside(v, loop); }))
    return std::nullopt;
  Value buffer = rootBuffer(element.memref);
  Accumulator acc{{}, store};
  bool afterStore = false;
  for (Operation &op : loop.getBody()->without_terminator()) {
    if (&op == store.getOperation()) {
      afterStore = true;
      continue;
    }
    if (!mayTouch(&op, buffer))
      continue;
    auto load = dyn_cast<memref::LoadOp>(op);
    if (!load || afterStore || !(elementOf(load) == element))
      return std::nullopt;
    acc.loads.push_back(load);
  }
  if (acc.loads.empty())
    return std::nullopt;
  return acc;
}

/// Rewrites one accumulator to an iter_arg of `loop`; returns the new loop.
scf::ForOp promote(RewriterBase &rewriter, scf::ForOp loop, Accumulator &acc) {
  memref::StoreOp store = acc.store;
  Element element = elementOf(store);
  SmallVector<Value> indices(element.indices);
  bool writeBackAlways = runsAtLeastOnce(loop) || storedBesideLoop(loop, element);

  rewriter.setInsertionPoint(loop);
  Value init = memref::LoadOp::create(rewriter, acc.loads.front().getLoc(), element.memref,
                                      indices, acc.loads.front().getNontemporal());
  Value stored = store.getValueToStore();
  FailureOr<LoopLikeOpInterface> grown = loop.replaceWithAdditionalYields(
      rewriter, init, /*replaceInitOperandUsesInLoop=*/false,
      [&](OpBuilder &, Location, ArrayRef<BlockArgument>) { return SmallVector<Value>{stored}; });
  assert(succeeded(grown) && "scf.for always takes more iter_args");
  auto newLoop = cast<scf::ForOp>(grown->getOperation());
  BlockArgument carried = newLoop.getRegionIterArgs().back();
  for (memref::LoadOp load : acc.loads)
    rewriter.replaceOp(load, carried);
  Value result = newLoop.getResults().back();

  rewriter.setInsertionPointAfter(newLoop);
  auto writeBack = [&](OpBuilder &b, Location loc) {
    memref::StoreOp::create(b, loc, result, element.memref, indices, store.getNontemporal(),
                            llvm::MaybeAlign(store.getAlignment().value_or(0)));
  };
  if (writeBackAlways) {
    writeBack(rewriter, store.getLoc());
  } else {
    // A loop that may run zero times wrote nothing: nor does its write-back.
    Value runs = arith::CmpIOp::create(rewriter, store.getLoc(), arith::CmpIPredicate::slt,
                                       newLoop.getLowerBound(), newLoop.getUpperBound());
    scf::IfOp::create(rewriter, store.getLoc(), runs, [&](OpBuilder &b, Location loc) {
      writeBack(b, loc);
      scf::YieldOp::create(b, loc);
    });
  }
  rewriter.eraseOp(store);
  return newLoop;
}

/// Within `block`: a load of an element stored earlier in the block, with
/// nothing between that may touch the buffer, takes the stored value; a
/// store overwritten later in the block with nothing between that may read
/// the buffer is dropped.
bool forwardAndDropStores(RewriterBase &rewriter, Block &block) {
  bool changed = false;
  SmallVector<memref::StoreOp> stores(block.getOps<memref::StoreOp>());
  for (memref::StoreOp store : stores) {
    Element element = elementOf(store);
    Value buffer = rootBuffer(element.memref);
    // Forward to the loads that follow until something else touches the
    // buffer; a store to the element there overwrites this one, which the
    // loads forwarded to no longer read.
    for (Operation *op = store->getNextNode(); op; op = op->getNextNode()) {
      if (auto load = dyn_cast<memref::LoadOp>(op); load && elementOf(load) == element) {
        op = op->getPrevNode();
        rewriter.replaceOp(load, store.getValueToStore());
        changed = true;
        continue;
      }
      if (auto later = dyn_cast<memref::StoreOp>(op); later && elementOf(later) == element) {
        rewriter.eraseOp(store);
        changed = true;
        break;
      }
      if (mayTouch(op, buffer))
        break;
    }
  }
  return changed;
}

struct PromoteAccumulators : ks::impl::KSPromoteAccumulatorsBase<PromoteAccumulators> {
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    getOperation()->walk([&](gpu::GPUFuncOp func) {
      if (!func->hasAttr(ks::kRaisedAttrName))
        return;
      // Innermost loops first: their write-back is then a store in the
      // enclosing loop's body, which may carry the element in turn.
      SmallVector<scf::ForOp> loops;
      func.walk([&](scf::ForOp loop) { loops.push_back(loop); });
      for (scf::ForOp loop : loops) {
        bool grew = true;
        while (grew) {
          grew = false;
          for (auto store : loop.getBody()->getOps<memref::StoreOp>()) {
            std::optional<Accumulator> acc = accumulatorOf(loop, store);
            if (!acc)
              continue;
            Block *around = loop->getBlock();
            loop = promote(rewriter, loop, *acc);
            forwardAndDropStores(rewriter, *around);
            grew = true;
            break;
          }
        }
      }
    });
  }
};

} // namespace
