//===- OnlineSoftmax.cpp - A row's max and sum of exponentials in one loop -===//
//
// include/kernelskill/Transforms/OnlineSoftmax.h says what and why. Used by
// the row-reduction schedule (`online = true`), which distributes the merged
// loop over a row's lanes and combines the lanes' (max, sum) pairs with
// combineOnlineSoftmax.
//
// Not upstream's: MLIR 22 has no online-normalizer rewrite; linalg's
// softmax decomposition produces the two-pass form.
//
//===----------------------------------------------------------------------===//

#include "kernelskill/Transforms/OnlineSoftmax.h"
#include "SIMTBuilder.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::ks;

namespace {
/// The ops of `loop`'s body that `v` is computed from (v's own op
/// included), or nullopt when one of them is neither pure nor a load of a
/// buffer outside `written`.
std::optional<llvm::SetVector<Operation *>> computationOf(Value v, scf::ForOp loop,
                                                         const llvm::DenseSet<Value> &written) {
  llvm::SetVector<Operation *> ops;
  SmallVector<Value> work{v};
  while (!work.empty()) {
    Value x = work.pop_back_val();
    Operation *def = x.getDefiningOp();
    if (!def || def->getBlock() != loop.getBody())
      continue; // the loop variable, an iter_arg (rejected by the caller), or from outside
    if (!ops.insert(def))
      continue;
    auto load = dyn_cast<memref::LoadOp>(def);
    if (def->getNumRegions() || (!load && !isPure(def)) ||
        (load && written.contains(viewedBuffer(load.getMemRef()))))
      return std::nullopt;
    llvm::append_range(work, def->getOperands());
  }
  return ops;
}

/// Whether `a` (in loop `la`) is computed as `b` (in loop `lb`): the same
/// ops with the same attributes on equivalent operands, each loop's
/// variable standing for the other's, values from outside the same.
bool computedAlike(Value a, scf::ForOp la, Value b, scf::ForOp lb) {
  if (a == b)
    return a.getParentBlock() != la.getBody() && a.getParentBlock() != lb.getBody();
  if (a == la.getInductionVar() || b == lb.getInductionVar())
    return a == la.getInductionVar() && b == lb.getInductionVar();
  Operation *da = a.getDefiningOp(), *db = b.getDefiningOp();
  if (!da || !db || da->getBlock() != la.getBody() || db->getBlock() != lb.getBody() ||
      cast<OpResult>(a).getResultNumber() != cast<OpResult>(b).getResultNumber())
    return false;
  return OperationEquivalence::isEquivalentTo(
      da, db,
      [&](Value x, Value y) { return success(computedAlike(x, la, y, lb)); },
      /*markEquivalent=*/nullptr, OperationEquivalence::IgnoreLocations);
}

/// The value a max loop reduces, with its max op; null when `loop` is not
/// one (one iter_arg, yielded as max(acc, x), acc used nowhere else).
std::pair<Value, Operation *> maxReduction(scf::ForOp loop) {
  if (loop.getNumRegionIterArgs() != 1)
    return {};
  Value acc = loop.getRegionIterArgs()[0];
  Operation *max = loop.getBody()->getTerminator()->getOperand(0).getDefiningOp();
  if (!isa_and_nonnull<arith::MaxNumFOp, arith::MaximumFOp>(max) ||
      max->getBlock() != loop.getBody() || !acc.hasOneUse() || !max->getResult(0).hasOneUse())
    return {};
  Value x = max->getOperand(0) == acc ? max->getOperand(1) : max->getOperand(0);
  if (x == acc)
    return {};
  return {x, max};
}

/// Whether `loop` adds exp(y - m) to zero, with y computed in the loop as
/// `x` is in `maxLoop` and m maxLoop's result; nothing else in the loop.
bool sumsExponentials(scf::ForOp loop, scf::ForOp maxLoop, Value x,
                      const llvm::DenseSet<Value> &written) {
  if (loop.getNumRegionIterArgs() != 1 || !sameBound(loop.getLowerBound(), maxLoop.getLowerBound()) ||
      !sameBound(loop.getUpperBound(), maxLoop.getUpperBound()) ||
      !sameBound(loop.getStep(), maxLoop.getStep()) ||
      loop.getUnsignedCmp() != maxLoop.getUnsignedCmp())
    return false;
  auto init = loop.getInitArgs()[0].getDefiningOp<arith::ConstantFloatOp>();
  if (!init || !init.value().isZero())
    return false;
  Value acc = loop.getRegionIterArgs()[0];
  auto add = loop.getBody()->getTerminator()->getOperand(0).getDefiningOp<arith::AddFOp>();
  if (!add || add->getBlock() != loop.getBody() || !acc.hasOneUse() ||
      !add.getResult().hasOneUse())
    return false;
  Value term = add.getLhs() == acc ? add.getRhs() : add.getLhs();
  auto exp = term.getDefiningOp<math::ExpOp>();
  auto sub = exp ? exp.getOperand().getDefiningOp<arith::SubFOp>() : arith::SubFOp();
  if (!sub || !exp->hasOneUse() || !sub->hasOneUse() || sub.getRhs() != maxLoop.getResult(0))
    return false;
  std::optional<llvm::SetVector<Operation *>> ops = computationOf(sub.getLhs(), loop, written);
  // Nothing in the body but y's computation, the subtraction, exp and add.
  return ops && ops->size() + 3 == size_t(llvm::range_size(loop.getBody()->without_terminator())) &&
         computedAlike(sub.getLhs(), loop, x, maxLoop);
}
} // namespace

SmallVector<OnlineSoftmaxPair> mlir::ks::findOnlineSoftmaxPairs(scf::ForallOp forall) {
  // Buffers the forall writes: the merged loop reads them earlier.
  llvm::DenseSet<Value> written;
  forall.getBody()->walk([&](memref::StoreOp store) { written.insert(viewedBuffer(store.getMemRef())); });
  SmallVector<scf::ForOp> loops;
  for (Operation &op : forall.getBody()->without_terminator())
    if (auto loop = dyn_cast<scf::ForOp>(op))
      loops.push_back(loop);
  SmallVector<OnlineSoftmaxPair> pairs;
  llvm::DenseSet<Operation *> taken;
  for (auto [i, maxLoop] : llvm::enumerate(loops)) {
    if (taken.contains(maxLoop))
      continue;
    auto [x, max] = maxReduction(maxLoop);
    if (!x || !x.getType().isF32())
      continue;
    std::optional<llvm::SetVector<Operation *>> ops = computationOf(x, maxLoop, written);
    if (!ops || ops->size() + 1 != size_t(llvm::range_size(maxLoop.getBody()->without_terminator())) ||
        llvm::is_contained(*ops, max))
      continue;
    for (scf::ForOp later : ArrayRef(loops).drop_front(i + 1))
      if (!taken.contains(later) && sumsExponentials(later, maxLoop, x, written)) {
        pairs.push_back({maxLoop, later});
        taken.insert(maxLoop);
        taken.insert(later);
        break;
      }
  }
  return pairs;
}

std::pair<Value, Value> mlir::ks::combineOnlineSoftmax(OpBuilder &b, Location loc,
                                                       Operation *maxOp, Value mA, Value sA,
                                                       Value mB, Value sB) {
  Operation *max = b.clone(*maxOp);
  max->setOperands({mA, mB});
  Value m = max->getResult(0);
  // Each sum relative to the larger max (B's first: the order of the ops
  // the measured kernels were generated with).
  Value rescaledB = rescaleOnlineSum(b, loc, mB, sB, m);
  Value rescaledA = rescaleOnlineSum(b, loc, mA, sA, m);
  return {m, arith::AddFOp::create(b, loc, rescaledA, rescaledB)};
}

Value mlir::ks::rescaleOnlineSum(OpBuilder &b, Location loc, Value m, Value s, Value next) {
  Value same = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, m, next);
  Value factor = math::ExpOp::create(b, loc, arith::SubFOp::create(b, loc, m, next));
  return arith::SelectOp::create(b, loc, same, s, arith::MulFOp::create(b, loc, s, factor));
}

Value mlir::ks::onlineSoftmaxTerm(OpBuilder &b, Location loc, Value x, Value next) {
  auto type = cast<FloatType>(x.getType());
  Value negInf = arith::ConstantOp::create(
      b, loc, b.getFloatAttr(type, APFloat::getInf(type.getFloatSemantics(), /*Negative=*/true)));
  Value isNegInf = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, x, negInf);
  Value e = math::ExpOp::create(b, loc, arith::SubFOp::create(b, loc, x, next));
  return arith::SelectOp::create(
      b, loc, isNegInf, arith::ConstantOp::create(b, loc, b.getFloatAttr(type, 0.0)), e);
}

scf::ForOp mlir::ks::mergeOnlineSoftmaxPair(const OnlineSoftmaxPair &pair) {
  scf::ForOp maxLoop = pair.maxLoop, sumLoop = pair.sumLoop;
  auto [x, max] = maxReduction(maxLoop);
  auto add = cast<arith::AddFOp>(sumLoop.getBody()->getTerminator()->getOperand(0).getDefiningOp());
  auto type = cast<FloatType>(x.getType());
  OpBuilder b(maxLoop);
  Location loc = maxLoop.getLoc();
  Value negInf = arith::ConstantOp::create(
      b, loc, b.getFloatAttr(type, APFloat::getInf(type.getFloatSemantics(), /*Negative=*/true)));
  auto merged = scf::ForOp::create(
      b, loc, maxLoop.getLowerBound(), maxLoop.getUpperBound(), maxLoop.getStep(),
      // (The sum's init is a zero constant that may be defined after the
      // max loop: a copy of it.)
      ValueRange{maxLoop.getInitArgs()[0],
                 b.clone(*sumLoop.getInitArgs()[0].getDefiningOp())->getResult(0)},
      nullptr,
      maxLoop.getUnsignedCmp());
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(merged.getBody());
    Value m = merged.getRegionIterArgs()[0], s = merged.getRegionIterArgs()[1];
    IRMapping map;
    map.map(maxLoop.getInductionVar(), merged.getInductionVar());
    map.map(maxLoop.getRegionIterArgs()[0], m);
    for (Operation &op : maxLoop.getBody()->without_terminator())
      b.clone(op, map);
    Value next = map.lookup(max->getResult(0)), xm = map.lookup(x);
    // s rescaled to the new max (unchanged where the max did not grow),
    // plus x's term (0 for x = -inf, as exp(-inf - max) is for any max but
    // -inf: a row of -inf only is mended after the loop).
    Value kept = rescaleOnlineSum(b, loc, m, s, next);
    Value term = onlineSoftmaxTerm(b, loc, xm, next);
    Value sum = arith::AddFOp::create(b, loc, kept, term, add.getFastmath());
    scf::YieldOp::create(b, loc, ValueRange{next, sum});
  }
  // The two-loop form's sum of a nonempty row whose max is -inf is NaN
  // (exp(-inf - -inf)); the merged loop's is 0.
  Value m = merged.getResult(0);
  Value nonempty = arith::CmpIOp::create(
      b, loc, maxLoop.getUnsignedCmp() ? arith::CmpIPredicate::ult : arith::CmpIPredicate::slt,
      maxLoop.getLowerBound(), maxLoop.getUpperBound());
  Value allNegInf = arith::AndIOp::create(
      b, loc, nonempty, arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, m, negInf));
  Value nan = arith::ConstantOp::create(b, loc, b.getFloatAttr(type, APFloat::getNaN(type.getFloatSemantics())));
  Value sum = arith::SelectOp::create(b, loc, allNegInf, nan, merged.getResult(1));
  sumLoop.getResult(0).replaceAllUsesWith(sum);
  sumLoop.erase();
  maxLoop.getResult(0).replaceAllUsesWith(m);
  maxLoop.erase();
  return merged;
}
