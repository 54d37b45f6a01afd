//===- SequentialTree.cpp - Tree reductions, sequential addressing --------===//
//
// A rewrite of the SIMT form (a kernel the raising left alone: its threads,
// shared memory and barriers are explicit), so it works on the kernel as
// lifted rather than through upstream's reduction patterns, which start
// from linalg or vector reductions this loop never becomes.
//
//===----------------------------------------------------------------------===//

#include "kernelskill/Transforms/SequentialTree.h"
#include "kernelskill/Transforms/KernelLaunch.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::ks;

namespace {

bool isThreadIdX(Value v) {
  auto tid = stripExtensions(v).getDefiningOp<gpu::ThreadIdOp>();
  return tid && tid.getDimension() == gpu::Dimension::x;
}

bool isBlockDimX(Value v) {
  auto dim = stripExtensions(v).getDefiningOp<gpu::BlockDimOp>();
  return dim && dim.getDimension() == gpu::Dimension::x;
}

bool isConstant(Value v, int64_t c) {
  std::optional<int64_t> k = getConstantIntValue(v);
  return k && *k == c;
}

/// Commutative and associative: either order of the tree gives the same
/// total (up to rounding for the float sum and product).
bool isTreeCombiner(Operation *op) {
  return isa<arith::AddFOp, arith::MulFOp, arith::MaximumFOp, arith::MinimumFOp,
             arith::MaxNumFOp, arith::MinNumFOp, arith::AddIOp, arith::MulIOp, arith::AndIOp,
             arith::OrIOp, arith::XOrIOp, arith::MaxSIOp, arith::MinSIOp, arith::MaxUIOp,
             arith::MinUIOp>(op);
}

/// `step` is s * 2 or s << 1.
bool isDoubled(Value step, Value s) {
  Operation *op = step.getDefiningOp();
  if (auto mul = dyn_cast_or_null<arith::MulIOp>(op))
    return (mul.getLhs() == s && isConstant(mul.getRhs(), 2)) ||
           (mul.getRhs() == s && isConstant(mul.getLhs(), 2));
  if (auto shl = dyn_cast_or_null<arith::ShLIOp>(op))
    return shl.getLhs() == s && isConstant(shl.getRhs(), 1);
  return false;
}

/// The element a thread of the tree updates, i: tid itself (interleaved
/// form) or `strided` = 2 * s * tid (strided form).
struct UpdatedElement {
  Value strided; ///< null for the interleaved form
  bool is(Value v) const { return strided ? stripExtensions(v) == strided : isThreadIdX(v); }
  /// `v` is i + s (either order, through index casts).
  bool isPlus(Value v, Value s) const {
    auto add = stripExtensions(v).getDefiningOp<arith::AddIOp>();
    if (!add)
      return false;
    Value a = add.getLhs(), b = add.getRhs();
    return (is(a) && stripExtensions(b) == s) || (is(b) && stripExtensions(a) == s);
  }
};

/// `v` is 2 * s * tid in any association of integer multiplications and
/// left shifts by constants; sets `tid` to its thread-index factor (of the
/// counter's type, as the multiplications are).
bool isDoubledCounterTimesThread(Value v, Value s, Value &tid) {
  SmallVector<Value> leaves;
  int64_t constant = 1;
  SmallVector<Value> work{v};
  while (!work.empty()) {
    Value x = work.pop_back_val();
    Operation *op = x.getDefiningOp();
    std::optional<int64_t> c = getConstantIntValue(x);
    if (c) {
      constant *= *c;
    } else if (auto mul = dyn_cast_or_null<arith::MulIOp>(op)) {
      work.append({mul.getLhs(), mul.getRhs()});
    } else if (auto shl = dyn_cast_or_null<arith::ShLIOp>(op)) {
      std::optional<int64_t> by = getConstantIntValue(shl.getRhs());
      if (!by || *by < 0 || *by > 8)
        return false;
      constant <<= *by;
      work.push_back(shl.getLhs());
    } else {
      leaves.push_back(x);
    }
    if (leaves.size() > 2 || constant > 2 || constant < 1)
      return false;
  }
  if (constant != 2 || leaves.size() != 2)
    return false;
  if (leaves[1] == s)
    std::swap(leaves[0], leaves[1]);
  if (leaves[0] != s || !isThreadIdX(leaves[1]))
    return false;
  tid = leaves[1];
  return true;
}

/// The parts of a tree loop the rewrite changes.
struct TreeLoop {
  arith::CmpIOp bound;  ///< s < blockDim.x (before region)
  scf::IfOp guard;      ///< if (tid % (2 * s) == 0) { a[tid] = a[tid] OP a[tid + s]; }
                        ///< or if (2*s*tid < blockDim.x) { a[2*s*tid] = ... a[2*s*tid + s]; }
  Value tid;            ///< the thread index, of the counter's type
  UpdatedElement element;
  Value shared;         ///< a
  Operation *combine;   ///< OP
  scf::YieldOp yield;   ///< yields 2 * s
};

FailureOr<TreeLoop> matchTree(scf::WhileOp loop, gpu::GPUFuncOp kernel, std::string &why) {
  auto fail = [&](const char *reason) {
    why = reason;
    return failure();
  };
  TreeLoop t;
  if (loop.getInits().size() != 1 || !isConstant(loop.getInits()[0], 1))
    return fail("the loop does not carry one counter starting at 1");
  // Before: s < blockDim.x, the counter forwarded.
  Block &before = loop.getBefore().front();
  scf::ConditionOp condition = loop.getConditionOp();
  t.bound = condition.getCondition().getDefiningOp<arith::CmpIOp>();
  if (!t.bound)
    return fail("the loop does not run while the counter is below blockDim.x");
  // (blockDim.x and its casts may be read inside: the first use in the source.)
  for (Operation &op : before.without_terminator())
    if (&op != t.bound.getOperation() &&
        !isa<gpu::BlockDimOp, arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtUIOp>(op))
      return fail("the loop's condition computes more than counter < blockDim.x");
  if (!t.bound || condition.getArgs().size() != 1 ||
      condition.getArgs()[0] != before.getArgument(0) ||
      t.bound.getLhs() != before.getArgument(0) ||
      (t.bound.getPredicate() != arith::CmpIPredicate::ult &&
       t.bound.getPredicate() != arith::CmpIPredicate::slt) ||
      !isBlockDimX(t.bound.getRhs()))
    return fail("the loop does not run while the counter is below blockDim.x");
  // After: the guarded update, a barrier, the counter doubled.
  Block &after = loop.getAfter().front();
  Value s = after.getArgument(0);
  // A narrow counter compared signed against blockDim.x may wrap where the
  // rewritten loop does not (i8 against 128 threads).
  if (!s.getType().isIndex() && s.getType().getIntOrFloatBitWidth() < 16)
    return fail("the loop's counter is narrower than 16 bits");
  t.yield = cast<scf::YieldOp>(after.getTerminator());
  gpu::BarrierOp barrier;
  for (Operation &op : after.without_terminator()) {
    if (auto b = dyn_cast<gpu::BarrierOp>(op)) {
      if (barrier)
        return fail("the loop body holds more than one barrier");
      barrier = b;
    } else if (auto guard = dyn_cast<scf::IfOp>(op)) {
      if (t.guard)
        return fail("the loop body holds more than one conditional");
      t.guard = guard;
    } else if (!isa<arith::ConstantOp, arith::MulIOp, arith::ShLIOp, arith::RemUIOp,
                    arith::RemSIOp, arith::CmpIOp, arith::IndexCastOp, arith::IndexCastUIOp,
                    arith::ExtSIOp, arith::ExtUIOp, gpu::BlockDimOp>(op)) {
      return fail("the loop body does more than one guarded update and a barrier");
    }
  }
  if (!barrier || !t.guard || !t.guard->isBeforeInBlock(barrier) ||
      t.guard.getNumResults() != 0 || !t.guard.getElseRegion().empty())
    return fail("the loop body is not one guarded update followed by a barrier");
  Value step = t.yield.getOperand(0);
  if (!isDoubled(step, s))
    return fail("the counter is not doubled each iteration");
  // The guard: tid % (2 * s) == 0 (interleaved: divergent warps), or
  // 2 * s * tid < blockDim.x (strided: bank conflicts). Both update every
  // element j that is a multiple of 2 * s from j + s, and nothing else,
  // which is all the rewrite relies on; only the thread doing it differs.
  auto cmp = t.guard.getCondition().getDefiningOp<arith::CmpIOp>();
  const char *notAGuard =
      "the update's guard is neither tid % (2 * s) == 0 nor 2 * s * tid < blockDim.x";
  if (!cmp)
    return fail(notAGuard);
  if (cmp.getPredicate() == arith::CmpIPredicate::eq) {
    Value rem = isConstant(cmp.getRhs(), 0) ? cmp.getLhs() : cmp.getRhs();
    if (!isConstant(cmp.getLhs(), 0) && !isConstant(cmp.getRhs(), 0))
      return fail(notAGuard);
    Operation *remOp = rem.getDefiningOp();
    if (!remOp || !isa<arith::RemUIOp, arith::RemSIOp>(remOp) ||
        (remOp->getOperand(1) != step && !isDoubled(remOp->getOperand(1), s)) ||
        !isThreadIdX(remOp->getOperand(0)))
      return fail(notAGuard);
    t.tid = remOp->getOperand(0);
  } else if (cmp.getPredicate() == arith::CmpIPredicate::ult ||
             cmp.getPredicate() == arith::CmpIPredicate::slt) {
    Value index = cmp.getLhs();
    if (!isBlockDimX(cmp.getRhs()) || !isDoubledCounterTimesThread(index, s, t.tid))
      return fail(notAGuard);
    // 2 * s * tid < 2 * 1024 * 1024 for any block: no wrap from 32 bits up.
    if (!index.getType().isIndex() && index.getType().getIntOrFloatBitWidth() < 32)
      return fail("the strided update's element 2 * s * tid is narrower than 32 bits");
    // It is replaced by tid inside the update; anywhere else it would keep
    // the old meaning.
    if (llvm::any_of(index.getUsers(), [&](Operation *u) {
          return u != cmp && !t.guard.getThenRegion().isAncestor(u->getParentRegion());
        }))
      return fail("the strided update's element 2 * s * tid is used outside the update");
    t.element.strided = index;
  } else {
    return fail(notAGuard);
  }
  // The update: a[i] = a[i] OP a[i + s], nothing else (i = tid or 2*s*tid).
  memref::StoreOp store;
  int loads = 0;
  for (Operation &op : t.guard.getThenRegion().front().without_terminator()) {
    if (auto st = dyn_cast<memref::StoreOp>(op)) {
      if (store)
        return fail("the update stores more than once");
      store = st;
    } else if (isa<memref::LoadOp>(op)) {
      ++loads;
    } else if (!isTreeCombiner(&op) &&
               !isa<arith::ConstantOp, arith::AddIOp, arith::IndexCastOp, arith::IndexCastUIOp,
                    arith::ExtSIOp, arith::ExtUIOp>(op)) {
      return fail("the update does more than combine two elements of shared memory");
    }
  }
  if (!store || store.getIndices().size() != 1 || !t.element.is(store.getIndices()[0]))
    return fail("the update does not store to the element its guard selects");
  if (loads != 2)
    return fail("the update does not load two elements of the array");
  t.shared = store.getMemRef();
  auto type = dyn_cast<MemRefType>(t.shared.getType());
  if (!type || type.getRank() != 1 || !gpu::GPUDialect::hasWorkgroupMemoryAddressSpace(type))
    return fail("the update's array is not one-dimensional shared memory");
  // Every access to its bytes must be visible: a workgroup attribution of
  // the kernel, only loaded and stored (no view, cast or other alias; the
  // views of dynamic shared memory share bytes, so they are refused).
  if (!llvm::is_contained(kernel.getWorkgroupAttributions(), t.shared) ||
      llvm::any_of(t.shared.getUsers(),
                   [](Operation *u) { return !isa<memref::LoadOp, memref::StoreOp>(u); }))
    return fail("the update's array is not a __shared__ array of the kernel accessed only by "
                "loads and stores (dynamic shared memory and views may alias it)");
  Operation *combine = store.getValue().getDefiningOp();
  if (!combine || !isTreeCombiner(combine) || combine->getBlock() != store->getBlock())
    return fail("the stored value is not a commutative, associative combination");
  // Both operands loaded from the array within the update (not a value
  // read before the loop).
  auto own = combine->getOperand(0).getDefiningOp<memref::LoadOp>();
  auto other = combine->getOperand(1).getDefiningOp<memref::LoadOp>();
  auto inUpdate = [&](memref::LoadOp l) {
    return l && l.getMemRef() == t.shared && l.getIndices().size() == 1 &&
           l->getBlock() == store->getBlock();
  };
  if (!inUpdate(own) || !inUpdate(other))
    return fail("the update does not combine a[i] with a[i + s]");
  if (!t.element.is(own.getIndices()[0]))
    std::swap(own, other);
  if (!t.element.is(own.getIndices()[0]) || !t.element.isPlus(other.getIndices()[0], s))
    return fail("the update does not combine a[i] with a[i + s]");
  t.combine = combine;
  // Where it sits: no loop around it (what comes before would come after),
  // structured control flow only (one block per region up to the kernel).
  for (Operation *p = loop; p && p != kernel; p = p->getParentOp()) {
    if (p != loop && isa<LoopLikeOpInterface>(p))
      return fail("the reduction is inside a loop");
    if (!p->getParentRegion()->hasOneBlock())
      return fail("the reduction is inside unstructured control flow");
  }
  if (!loop->use_empty())
    return fail("the loop's final counter is used");
  // After the loop the two orders agree on element 0 alone.
  for (Operation *user : t.shared.getUsers()) {
    if (loop->isAncestor(user))
      continue;
    bool isBefore = false;
    for (Operation *anc = loop; anc != kernel; anc = anc->getParentOp())
      if (Operation *a = anc->getBlock()->findAncestorOpInBlock(*user)) {
        isBefore = a != anc && a->isBeforeInBlock(anc);
        break;
      }
    if (isBefore)
      continue;
    auto load = dyn_cast<memref::LoadOp>(user);
    if (!load || !isConstant(load.getIndices()[0], 0))
      return fail("after the loop the array is used other than by reading element 0");
  }
  return t;
}

/// s = blockDim.x / 2 while s > 0, tid < s, a[tid] OP= a[tid + s], s >>= 1:
/// in place.
void rewrite(scf::WhileOp loop, TreeLoop &t) {
  OpBuilder b(loop);
  Location loc = loop.getLoc();
  Type type = loop.getInits()[0].getType();
  Value one = arith::ConstantOp::create(b, loc, b.getIntegerAttr(type, 1));
  Value zero = arith::ConstantOp::create(b, loc, b.getIntegerAttr(type, 0));
  // blockDim.x / 2, read before the loop (the source may read it inside).
  Value dim = gpu::BlockDimOp::create(b, loc, gpu::Dimension::x);
  if (!type.isIndex())
    dim = arith::IndexCastUIOp::create(b, loc, type, dim);
  loop->setOperand(0, arith::ShRUIOp::create(b, loc, dim, one));
  b.setInsertionPoint(t.bound);
  Value positive = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt,
                                         loop.getBefore().front().getArgument(0), zero);
  t.bound.replaceAllUsesWith(positive);
  t.bound.erase();
  Value s = loop.getAfter().front().getArgument(0);
  // The strided form's element 2 * s * tid becomes tid in the update.
  if (t.element.strided)
    t.element.strided.replaceUsesWithIf(t.tid, [&](OpOperand &use) {
      return t.guard.getThenRegion().isAncestor(use.getOwner()->getParentRegion());
    });
  b.setInsertionPoint(t.guard);
  t.guard.getConditionMutable().assign(
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, t.tid, s));
  b.setInsertionPoint(t.yield);
  t.yield->setOperand(0, arith::ShRUIOp::create(b, loc, s, one));
  // Partial sums in another order may overflow where the source's did not:
  // the integer combination wraps (the same total modulo 2^w), no longer
  // poison.
  if (auto flags = dyn_cast<arith::ArithIntegerOverflowFlagsInterface>(t.combine))
    t.combine->setAttr(flags.getIntegerOverflowAttrName(),
                       arith::IntegerOverflowFlagsAttr::get(t.combine->getContext(),
                                                            arith::IntegerOverflowFlags::none));
  // The remainder, the doublings and the bound, now unused (users before
  // their operands: each block in reverse).
  for (Region *region : {&loop.getBefore(), &loop.getAfter()})
    for (Operation &op : llvm::make_early_inc_range(llvm::reverse(region->front().getOperations())))
      if (isOpTriviallyDead(&op))
        op.erase();
}

} // namespace

int mlir::ks::rewriteInterleavedTrees(gpu::GPUFuncOp kernel, std::string &why) {
  SmallVector<scf::WhileOp> loops;
  kernel.walk([&](scf::WhileOp loop) { loops.push_back(loop); });
  if (loops.empty()) {
    why = "the kernel has no while loop (an interleaved tree reduction lifts to scf.while)";
    return 0;
  }
  // The two orders cover the same elements only for a power-of-two block of
  // one row, which every launch must fix.
  SmallVector<gpu::LaunchFuncOp> launches = getLaunches(kernel);
  if (launches.empty()) {
    why = "no launch of the kernel in the module gives its block size";
    return 0;
  }
  for (gpu::LaunchFuncOp launch : launches) {
    std::optional<int64_t> x = getConstantIntValue(launch.getBlockSizeX());
    if (!x || !llvm::isPowerOf2_64(*x) || !isConstant(launch.getBlockSizeY(), 1) ||
        !isConstant(launch.getBlockSizeZ(), 1)) {
      why = "a launch's block is not a constant power of two along x and one thread along y "
            "and z";
      return 0;
    }
  }
  int rewritten = 0;
  std::string first;
  for (scf::WhileOp loop : loops) {
    std::string reason;
    FailureOr<TreeLoop> tree = matchTree(loop, kernel, reason);
    if (failed(tree)) {
      if (first.empty())
        first = reason;
      continue;
    }
    rewrite(loop, *tree);
    ++rewritten;
  }
  if (!rewritten)
    why = first;
  return rewritten;
}
