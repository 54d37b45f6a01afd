//===- RaiseCountedLoops.cpp - Counted scf.while loops to scf.for ---------===//
//
// The importer lifts every C `for` loop to an `scf.while` over the loop's own
// integer type. Where such a loop is a counted loop (an invariant bound, a
// positive invariant step, no other exit) it becomes an `scf.for` over
// `index`, which tiling, unrolling and the contraction raising understand.
//
// Upstream's `upliftWhileToForLoop` is not used: it accepts only `slt`/`sgt`,
// requires the condition to be the before-region's only op, keeps the loop in
// its narrow type (so `i <= n` cannot be expressed without overflow), and
// computes the final counter value wrongly when the loop runs zero times.
//
//===----------------------------------------------------------------------===//

#include "kernelskill/Dialect/KS/IR/KSAttrs.h"
#include "kernelskill/Transforms/KernelLaunch.h"
#include "kernelskill/Transforms/Passes.h"
#include "kernelskill/Transforms/Raising.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::ks {
#define GEN_PASS_DEF_KSRAISECOUNTEDLOOPS
#include "kernelskill/Transforms/Passes.h.inc"
} // namespace mlir::ks

using namespace mlir;
using namespace mlir::ks;

namespace {
using Pred = arith::CmpIPredicate;

/// What makes a while loop a counted loop.
struct CountedLoop {
  unsigned ivIndex;
  Value bound;
  Value step;
  Pred predicate; ///< slt, sle, ult or ule, with the counter on the left
  SmallVector<Operation *> hoisted; ///< invariant ops of the before region
  /// Invariant ops of the body that compute the step (`i += blockDim.x *
  /// gridDim.x` reads gridDim.x in the loop), in order: hoisted too.
  SmallVector<Operation *> stepOps;
};

bool isUnsignedPredicate(Pred p) { return p == Pred::ult || p == Pred::ule; }
bool isInclusive(Pred p) { return p == Pred::sle || p == Pred::ule; }

/// `iv OP bound` with the counter on the left: slt, sle, ult, ule.
std::optional<Pred> counterOnLeft(Pred p, bool swapped) {
  if (!swapped)
    switch (p) {
    case Pred::slt: case Pred::sle: case Pred::ult: case Pred::ule: return p;
    default: return std::nullopt;
    }
  switch (p) { // bound OP iv
  case Pred::sgt: return Pred::slt;
  case Pred::sge: return Pred::sle;
  case Pred::ugt: return Pred::ult;
  case Pred::uge: return Pred::ule;
  default: return std::nullopt;
  }
}

/// The ops of `block` (the loop's body) that `value` is computed by, in
/// program order, when each is pure, has no region and reads only values
/// from outside `loop` or computed by the others: the step of `i +=
/// blockDim.x * gridDim.x`, which C evaluates in the loop but which does not
/// change in it. Fails when `value` depends on anything else of the loop.
LogicalResult collectInvariantOps(scf::WhileOp loop, Block &block, Value value,
                                  SmallVector<Operation *> &ops) {
  llvm::SmallPtrSet<Operation *, 8> seen;
  SmallVector<Value> work{value};
  while (!work.empty()) {
    Value v = work.pop_back_val();
    if (!loop->isAncestor(v.getParentRegion()->getParentOp()))
      continue; // defined outside the loop
    Operation *def = v.getDefiningOp();
    if (!def || def->getBlock() != &block || !isMemoryEffectFree(def) || def->getNumRegions())
      return failure(); // a carried value, a nested op or one with effects
    if (seen.insert(def).second)
      llvm::append_range(work, def->getOperands());
  }
  for (Operation &op : block)
    if (seen.contains(&op))
      ops.push_back(&op);
  return success();
}

/// Whether `block` (a loop's body) loads or stores, unconditionally, at
/// index `iv` sign-extended (`x[i]` with a signed `i`): an iteration with
/// a negative counter accesses memory before the buffer.
/// With `zeroExtended`, also at index `iv` zero-extended.
bool indexesMemoryEveryIteration(Block &block, Value iv, bool zeroExtended) {
  auto isIvIndex = [&](Value index) {
    if (auto cast = index.getDefiningOp<arith::IndexCastOp>())
      return cast.getIn() == iv;
    auto cast = index.getDefiningOp<arith::IndexCastUIOp>();
    return zeroExtended && cast && cast.getIn() == iv;
  };
  for (Operation &op : block) {
    if (auto load = dyn_cast<memref::LoadOp>(op))
      if (load.getIndices().size() == 1 && isIvIndex(load.getIndices()[0]))
        return true;
    if (auto store = dyn_cast<memref::StoreOp>(op))
      if (store.getIndices().size() == 1 && isIvIndex(store.getIndices()[0]))
        return true;
  }
  return false;
}

/// An upper bound of `v` when it is a product of launch sizes and
/// non-negative constants through zero-extending casts (a grid stride:
/// blockDim.x <= 1024, gridDim.x < 2^31), else nothing.
std::optional<uint64_t> upperBoundOf(Value v) {
  Operation *def = v.getDefiningOp();
  if (!def)
    return std::nullopt;
  if (isa<gpu::BlockDimOp>(def))
    return 1024;
  if (isa<gpu::GridDimOp>(def))
    return (uint64_t(1) << 31) - 1;
  APInt constant;
  if (matchPattern(v, m_ConstantInt(&constant)))
    return constant.isNegative() ? std::nullopt : std::optional<uint64_t>(constant.getZExtValue());
  if (isa<arith::IndexCastUIOp, arith::ExtUIOp>(def))
    return upperBoundOf(def->getOperand(0));
  if (isa<arith::MulIOp>(def)) {
    std::optional<uint64_t> a = upperBoundOf(def->getOperand(0));
    std::optional<uint64_t> b = upperBoundOf(def->getOperand(1));
    if (!a || !b || (*a && *b > UINT64_MAX / *a))
      return std::nullopt;
    return *a * *b;
  }
  return std::nullopt;
}

/// Matches `loop` as a counted loop, or says why it is not one.
FailureOr<CountedLoop> matchCountedLoop(scf::WhileOp loop, std::string &why) {
  Block &before = loop.getBefore().front();
  Block &after = loop.getAfter().front();
  scf::ConditionOp condition = loop.getConditionOp();
  if (ValueRange(condition.getArgs()) != ValueRange(before.getArguments())) {
    why = "the loop's results are not its carried values (a value computed in the condition "
          "region leaves the loop)";
    return failure();
  }
  auto cmp = condition.getCondition().getDefiningOp<arith::CmpIOp>();
  if (!cmp || cmp->getBlock() != &before) {
    why = "the exit condition is not one integer comparison";
    return failure();
  }
  CountedLoop counted;
  // Every other op of the condition region must be invariant and pure: it is
  // hoisted above the loop.
  for (Operation &op : before.without_terminator()) {
    if (&op == cmp.getOperation())
      continue;
    bool usesCarried = llvm::any_of(op.getOperands(), [&](Value v) {
      auto arg = dyn_cast<BlockArgument>(v);
      return arg && arg.getOwner() == &before;
    });
    if (usesCarried || !isMemoryEffectFree(&op) || op.getNumRegions()) {
      why = "the condition region computes more than an invariant bound (a loop with a break "
            "or a data-dependent exit)";
      return failure();
    }
    counted.hoisted.push_back(&op);
  }
  for (bool swapped : {false, true}) {
    Value counter = swapped ? cmp.getRhs() : cmp.getLhs();
    Value bound = swapped ? cmp.getLhs() : cmp.getRhs();
    auto arg = dyn_cast<BlockArgument>(counter);
    std::optional<Pred> pred = counterOnLeft(cmp.getPredicate(), swapped);
    if (!arg || arg.getOwner() != &before || !pred)
      continue;
    auto boundArg = dyn_cast<BlockArgument>(bound);
    if (boundArg && boundArg.getOwner() == &before)
      continue;
    counted.ivIndex = arg.getArgNumber();
    counted.bound = bound;
    counted.predicate = *pred;
    break;
  }
  if (!counted.bound) {
    why = "the exit condition is not 'counter < bound' (or <=, unsigned or signed) with an "
          "invariant bound";
    return failure();
  }
  BlockArgument iv = before.getArgument(counted.ivIndex);
  if (!llvm::hasNItems(iv.getUses(), 2)) {
    why = "the counter is used in the condition region beyond the comparison";
    return failure();
  }
  auto yield = cast<scf::YieldOp>(after.getTerminator());
  auto add = yield.getOperand(counted.ivIndex).getDefiningOp<arith::AddIOp>();
  Value ivAfter = after.getArgument(counted.ivIndex);
  if (!add || (add.getLhs() != ivAfter && add.getRhs() != ivAfter)) {
    why = "the counter is not advanced by one addition per iteration";
    return failure();
  }
  counted.step = add.getLhs() == ivAfter ? add.getRhs() : add.getLhs();
  if (failed(collectInvariantOps(loop, after, counted.step, counted.stepOps))) {
    why = "the step is computed inside the loop from values that change in it";
    return failure();
  }
  APInt stepValue;
  bool constantStep = matchPattern(counted.step, m_ConstantInt(&stepValue));
  if (constantStep && !stepValue.isStrictlyPositive()) {
    why = "the step is not positive";
    return failure();
  }
  // Without the no-wrap flag a counter that steps past the bound, or an
  // inclusive bound at the type's maximum, wraps around and the narrow loop
  // goes on where the index loop would stop.
  bool unitStep = constantStep && stepValue.isOne();
  bool noWrap = isUnsignedPredicate(counted.predicate)
                    ? bitEnumContainsAll(add.getOverflowFlags(), arith::IntegerOverflowFlags::nuw)
                    : bitEnumContainsAll(add.getOverflowFlags(), arith::IntegerOverflowFlags::nsw);
  // `i += blockDim.x * gridDim.x` adds an unsigned step, which C lets wrap
  // (no nsw): a signed counter that wrapped would be negative, and a body
  // that indexes a buffer with it would then read before the buffer's
  // start, which the original may not do; where it is defined, it stops
  // where the index loop stops.
  // (That a signed step is positive assumes fewer than 2^31 threads, as
  // the thread index `blockIdx.x * blockDim.x + threadIdx.x` in an int
  // does.) An unsigned 64-bit counter (`size_t i`) stepped by at most the
  // launch's thread count would wrap only past 2^64 - 2^42, beyond any
  // buffer it indexes.
  bool isUnsigned = isUnsignedPredicate(counted.predicate);
  if (!noWrap && indexesMemoryEveryIteration(after, ivAfter, /*zeroExtended=*/isUnsigned)) {
    if (!isUnsigned)
      noWrap = true;
    else if (iv.getType().getIntOrFloatBitWidth() >= 64 || iv.getType().isIndex())
      noWrap = upperBoundOf(counted.step).value_or(UINT64_MAX) < (uint64_t(1) << 42);
  }
  if ((!unitStep || isInclusive(counted.predicate)) && !noWrap &&
      !counted.step.getType().isIndex()) {
    why = std::string("the counter may wrap around: a step other than 1 or an inclusive bound "
                      "needs the increment to be ") +
          (isUnsignedPredicate(counted.predicate) ? "nuw" : "nsw");
    return failure();
  }
  Type ivType = loop.getInits()[counted.ivIndex].getType();
  if (isUnsignedPredicate(counted.predicate) &&
      (ivType.isIndex() || ivType.getIntOrFloatBitWidth() >= 64) &&
      !loop.getResult(counted.ivIndex).use_empty()) {
    why = "the final value of an unsigned 64-bit counter is used after the loop";
    return failure();
  }
  return counted;
}

/// The rewrite; `counted` came from matchCountedLoop.
void raise(scf::WhileOp loop, const CountedLoop &counted) {
  // The kernel's ops change, its behaviour does not: the facts about the
  // ops and the binary go, the diagnosis stays without its subjects.
  if (auto kernel = loop->getParentOfType<gpu::GPUFuncOp>())
    ks::detachOpFacts(kernel);
  IRRewriter rewriter(loop);
  Location loc = loop.getLoc();
  rewriter.setInsertionPoint(loop);
  IRMapping hoist;
  for (Operation *op : counted.hoisted)
    rewriter.clone(*op, hoist);
  for (Operation *op : counted.stepOps)
    rewriter.clone(*op, hoist);
  bool isUnsigned = isUnsignedPredicate(counted.predicate);
  Type ivType = loop.getInits()[counted.ivIndex].getType();
  Value lb = castToIndex(rewriter, loc, loop.getInits()[counted.ivIndex], isUnsigned);
  Value ub = castToIndex(rewriter, loc, hoist.lookupOrDefault(counted.bound), isUnsigned);
  Value step = castToIndex(rewriter, loc, hoist.lookupOrDefault(counted.step), isUnsigned);
  if (isInclusive(counted.predicate))
    ub = arith::AddIOp::create(rewriter, loc, ub, arith::ConstantIndexOp::create(rewriter, loc, 1));
  SmallVector<Value> inits;
  for (auto [i, init] : llvm::enumerate(loop.getInits()))
    if (i != counted.ivIndex)
      inits.push_back(init);
  auto forOp = scf::ForOp::create(rewriter, loc, lb, ub, step, inits,
                                  [](OpBuilder &, Location, Value, ValueRange) {}, isUnsigned);
  Block &after = loop.getAfter().front();
  Block *body = forOp.getBody();
  rewriter.setInsertionPointToStart(body);
  Value iv = forOp.getInductionVar();
  if (!ivType.isIndex())
    iv = arith::IndexCastOp::create(rewriter, loc, ivType, iv);
  IRMapping map;
  for (unsigned i = 0, carried = 0; i < after.getNumArguments(); ++i)
    map.map(after.getArgument(i), i == counted.ivIndex ? iv : forOp.getRegionIterArgs()[carried++]);
  for (Operation &op : after.without_terminator())
    rewriter.clone(op, map);
  SmallVector<Value> yielded;
  for (auto [i, v] : llvm::enumerate(after.getTerminator()->getOperands()))
    if (i != counted.ivIndex)
      yielded.push_back(map.lookupOrDefault(v));
  scf::YieldOp::create(rewriter, loc, yielded);
  // The old counter's increment is dead now.
  eraseUnusedPureOps(forOp);

  // The counter's value at the exit: lb + trips * step, trips = 0 when the
  // loop does not run.
  rewriter.setInsertionPointAfter(forOp);
  SmallVector<Value> results;
  unsigned next = 0;
  for (unsigned i = 0; i < loop.getNumResults(); ++i) {
    if (i != counted.ivIndex) {
      results.push_back(forOp.getResult(next++));
      continue;
    }
    if (loop.getResult(i).use_empty()) {
      results.push_back(Value());
      continue;
    }
    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value span = arith::SubIOp::create(rewriter, loc, ub, lb);
    Value positive = arith::MaxSIOp::create(rewriter, loc, span, zero);
    Value trips = arith::CeilDivSIOp::create(rewriter, loc, positive, step);
    Value last = arith::AddIOp::create(rewriter, loc, lb,
                                       arith::MulIOp::create(rewriter, loc, trips, step));
    results.push_back(ivType.isIndex() ? last
                                       : Value(arith::IndexCastOp::create(rewriter, loc, ivType, last)));
  }
  for (auto [old, replacement] : llvm::zip(loop.getResults(), results))
    if (replacement)
      rewriter.replaceAllUsesWith(old, replacement);
  rewriter.eraseOp(loop);
}

/// A value the loop carries that advances by the same invariant amount each
/// iteration (`p += c`, or `++p` on a pointer walked beside the counter) is
/// a function of the counter: init + k * c in iteration k = (iv - lb) /
/// step. Written so, the accesses through it are affine in the loop's
/// variable and the strided views can read them. Exact in the value's own
/// type: k additions of c wrap exactly as k * c does (modulo 2^n), so no
/// overflow flag is needed or set. Only where the loop's result for it is
/// unused (its final value would need the trip count), the loop runs over
/// index and the step is a positive constant.
void foldDerivedInductions(scf::ForOp loop) {
  std::optional<int64_t> step = getConstantIntValue(loop.getStep());
  if (!step || *step < 1 || !loop.getInductionVar().getType().isIndex())
    return;
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  for (auto [i, arg] : llvm::enumerate(loop.getRegionIterArgs())) {
    Type type = arg.getType();
    if (!type.isIntOrIndex() || !loop.getResult(i).use_empty())
      continue;
    auto add = yield.getOperand(i).getDefiningOp<arith::AddIOp>();
    if (!add)
      continue;
    Value amount = add.getLhs() == arg ? add.getRhs() : add.getRhs() == arg ? add.getLhs() : Value();
    if (!amount || !loop.isDefinedOutsideOfLoop(amount))
      continue;
    OpBuilder b = OpBuilder::atBlockBegin(loop.getBody());
    Location loc = add.getLoc();
    Value k = loop.getInductionVar();
    if (getConstantIntValue(loop.getLowerBound()) != 0)
      k = arith::SubIOp::create(b, loc, k, loop.getLowerBound());
    if (*step != 1)
      k = arith::DivUIOp::create(b, loc, k, loop.getStep());
    if (!type.isIndex())
      k = arith::IndexCastOp::create(b, loc, type, k);
    Value value = arith::AddIOp::create(b, loc, loop.getInitArgs()[i],
                                        arith::MulIOp::create(b, loc, k, amount));
    arg.replaceAllUsesWith(value);
    // Carried unchanged now: canonicalization drops it.
    yield->setOperand(i, arg);
  }
}

struct RaiseCountedLoopsPass : ks::impl::KSRaiseCountedLoopsBase<RaiseCountedLoopsPass> {
  using Base::Base;
  void runOnOperation() override {
    SmallVector<scf::WhileOp> loops;
    getOperation()->walk([&](scf::WhileOp loop) { loops.push_back(loop); });
    for (scf::WhileOp loop : loops) {
      std::string why;
      FailureOr<CountedLoop> counted = matchCountedLoop(loop, why);
      if (failed(counted)) {
        if (remarks)
          loop.emitRemark() << "ks-raise-counted-loops: not a counted loop: " << why;
        continue;
      }
      raise(loop, *counted);
    }
    getOperation()->walk([](scf::ForOp loop) { foldDerivedInductions(loop); });
  }
};
} // namespace

LogicalResult mlir::ks::raiseCountedLoop(scf::WhileOp loop, std::string &why) {
  FailureOr<CountedLoop> counted = matchCountedLoop(loop, why);
  if (failed(counted))
    return failure();
  raise(loop, *counted);
  return success();
}
