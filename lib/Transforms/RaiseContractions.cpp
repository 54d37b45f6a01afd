//===- RaiseContractions.cpp - Reductions over views to linalg ------------===//
//
// After the iteration-space and view raisings, a naive GEMM is
//
//   scf.forall (%i, %j) in (%M, %N) {
//     %acc = scf.for %p = 0 to %K step 1 iter_args(%s = 0.0) {
//       %a = memref.load %A_v[%i, %p]; %b = memref.load %B_v[%p, %j]
//       scf.yield %s + %a * %b
//     }
//     memref.store %acc, %C_v[%i, %j]
//   }
//
// which is a linalg contraction: this file writes it as one, on tensors,
// with the init and the elementwise work after the reduction (alpha/beta,
// bias, activation) as separate linalg ops the schedule fuses back:
//
//   %init = linalg.fill ins(0.0) outs(tensor.empty(M, N))
//   %r = linalg.matmul ins(to_tensor(A_v), to_tensor(B_v)) outs(%init)
//   bufferization.materialize_in_destination %r in %C_v
//
// The reduction is any computation of the accumulator and the loaded values
// (a linalg.generic; specialized to a named op where one fits), any number
// of nested reduction loops (a convolution's c, r, s), any permutation of
// the output indices in the store.
//
//===----------------------------------------------------------------------===//

#include "kernelskill/Dialect/KS/IR/KSAttrs.h"
#include "kernelskill/Transforms/Contraction.h"
#include "kernelskill/Transforms/Passes.h"
#include "kernelskill/Transforms/Raising.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::ks {
#define GEN_PASS_DEF_KSRAISECONTRACTIONS
#include "kernelskill/Transforms/Passes.h.inc"
} // namespace mlir::ks

using namespace mlir;
using namespace mlir::ks;

namespace {
Operation *specializeContraction(linalg::GenericOp generic);

/// The loop structure of one raisable forall.
struct Nest {
  scf::ForallOp forall;
  SmallVector<scf::ForOp> reductions; ///< outermost first
  memref::StoreOp store;
  SmallVector<Value> dims; ///< forall variables, then reduction variables
};

class ContractionRaiser {
public:
  explicit ContractionRaiser(scf::ForallOp forall) : forall(forall), dom(forall->getParentOp()) {
    nest.forall = forall;
  }
  LogicalResult run(std::string &why);

private:
  scf::ForallOp forall;
  DominanceInfo dom;
  Nest nest;
  std::string why;
  bool contract = true; ///< every float op of the reduction allows FMA contraction

  LogicalResult fail(const Twine &reason) {
    why = reason.str();
    return failure();
  }
  LogicalResult match();
  /// Checks that `block`'s ops (but `except`) are pure or loads of views
  /// indexed by the loop variables in `allowed`.
  LogicalResult checkOps(Block &block, ArrayRef<Operation *> except, ArrayRef<Value> allowed);

  unsigned dimOf(Value v) const { return llvm::find(nest.dims, v) - nest.dims.begin(); }
  Value viewOf(memref::LoadOp load) const { return load.getMemRef(); }

  /// Builds a linalg.generic computing `root` (a value computed inside the
  /// forall from loads, `carried` values and invariants) over the
  /// dimensions of `nest.dims` up to `numDims`. `carried` are values the
  /// generic receives as extra inputs (tensors with the given maps) and the
  /// output block argument gets `accumulator` if set.
  FailureOr<Value> buildGeneric(OpBuilder &b, Value root, unsigned numDims,
                                ArrayRef<utils::IteratorType> iterators,
                                ArrayRef<std::pair<Value, std::pair<Value, AffineMap>>> carried,
                                Value accumulator, Value init, AffineMap outMap);
};

LogicalResult ContractionRaiser::checkOps(Block &block, ArrayRef<Operation *> except,
                                          ArrayRef<Value> allowed) {
  for (Operation &op : block.without_terminator()) {
    if (llvm::is_contained(except, &op))
      continue;
    if (auto load = dyn_cast<memref::LoadOp>(op)) {
      if (!load.getMemRef().getDefiningOp<memref::ReinterpretCastOp>())
        return fail("a load is not of a view (ks-raise-strided-views left it flat)");
      for (Value index : load.getIndices())
        if (!llvm::is_contained(allowed, index))
          return fail("a load is not indexed by the loop variables themselves");
      continue;
    }
    if (op.getNumRegions() || !isPure(&op))
      return fail(std::string("the loop body has '") + op.getName().getStringRef().str() +
                  "', which is neither pure nor a load");
  }
  return success();
}

LogicalResult ContractionRaiser::match() {
  Block *body = forall.getBody();
  for (Value iv : forall.getInductionVars())
    nest.dims.push_back(iv);
  SmallVector<Operation *> structural;
  for (Operation &op : body->without_terminator()) {
    if (auto store = dyn_cast<memref::StoreOp>(op)) {
      if (nest.store)
        return fail("the loop stores more than one value");
      nest.store = store;
      structural.push_back(&op);
    } else if (auto loop = dyn_cast<scf::ForOp>(op)) {
      if (!nest.reductions.empty())
        return fail("the loop holds more than one reduction loop");
      nest.reductions.push_back(loop);
      structural.push_back(&op);
    }
  }
  if (!nest.store)
    return fail("the loop stores nothing");
  if (!nest.store.getMemRef().getDefiningOp<memref::ReinterpretCastOp>())
    return fail("the store is not to a view");
  // The store writes each output once: its indices are the forall's
  // variables, each exactly once.
  auto indices = nest.store.getIndices();
  if (indices.size() != forall.getRank())
    return fail("the store's indices are not the loop's variables");
  for (Value iv : forall.getInductionVars())
    if (llvm::count(indices, iv) != 1)
      return fail("the store's indices are not the loop's variables (each exactly once)");
  if (failed(checkOps(*body, structural, forall.getInductionVars())))
    return failure();
  // The reduction nest: perfectly nested loops from 0, step 1, invariant
  // bounds, one accumulator threaded through all of them.
  while (!nest.reductions.empty()) {
    scf::ForOp loop = nest.reductions.back();
    if (loop.getNumResults() != 1)
      return fail("a reduction loop carries more than one value");
    if (getConstantIntValue(loop.getLowerBound()) != 0 || getConstantIntValue(loop.getStep()) != 1)
      return fail("a reduction loop does not run from 0 in steps of 1");
    if (!dom.properlyDominates(loop.getUpperBound(), forall))
      return fail("a reduction loop's bound depends on the output index (a triangular update): "
                  "it stays SIMT");
    nest.dims.push_back(loop.getInductionVar());
    scf::ForOp inner;
    for (Operation &op : loop.getBody()->without_terminator())
      if (auto l = dyn_cast<scf::ForOp>(op)) {
        if (inner)
          return fail("a reduction loop holds more than one loop");
        inner = l;
      }
    if (!inner)
      break;
    // The inner loop continues the accumulation: it starts from the outer
    // iteration's accumulator and yields the next one.
    if (inner.getInitArgs().size() != 1 || inner.getInitArgs()[0] != loop.getRegionIterArgs()[0] ||
        loop.getBody()->getTerminator()->getOperand(0) != inner.getResult(0))
      return fail("nested reduction loops do not pass one accumulator through");
    for (Operation &op : loop.getBody()->without_terminator())
      if (&op != inner.getOperation())
        return fail("a reduction loop computes something besides its inner loop");
    nest.reductions.push_back(inner);
  }
  if (!nest.reductions.empty()) {
    scf::ForOp innermost = nest.reductions.back();
    if (failed(checkOps(*innermost.getBody(), {}, nest.dims)))
      return failure();
    for (Operation &op : innermost.getBody()->without_terminator())
      if (auto fm = dyn_cast<arith::ArithFastMathInterface>(op)) {
        // Conversions (arith.extf of a __half, a float widened to double)
        // may carry no flags at all: they are not what contraction fuses.
        arith::FastMathFlagsAttr flags = fm.getFastMathFlagsAttr();
        if (!flags)
          continue;
        contract &= bitEnumContainsAll(flags.getValue(), arith::FastMathFlags::contract);
      }
  }
  // Inputs must not be the output's buffer (read elsewhere than where it is
  // written, that would be a race in the original).
  Value outBase = nest.store.getMemRef().getDefiningOp<memref::ReinterpretCastOp>().getSource();
  for (scf::ForOp loop : nest.reductions) {
    WalkResult w = loop.walk([&](memref::LoadOp load) {
      auto view = load.getMemRef().getDefiningOp<memref::ReinterpretCastOp>();
      return view && view.getSource() == outBase ? WalkResult::interrupt() : WalkResult::advance();
    });
    if (w.wasInterrupted())
      return fail("the reduction reads the buffer it writes");
  }
  // A contraction multiplies two inputs. A reduction of one (a row sum, a
  // maximum, a sum of squares) stays a forall: the row-reduction schedule
  // (transform.ks.simt_row_reduction) takes that form, as it does the
  // kernels that hold several such loops (softmax, normalizations).
  // (Loads after CSE: x[i] * x[i] is one input, A[i][j] * A[j][i] two.)
  unsigned inputs = 0;
  if (!nest.reductions.empty())
    nest.reductions.back().walk([&](memref::LoadOp) { ++inputs; });
  if (!nest.reductions.empty() && inputs < 2)
    return fail("a reduction of one input is not a contraction: it stays a forall "
                "(transform.ks.simt_row_reduction schedules it)");
  for (Operation &op : *body)
    if (auto load = dyn_cast<memref::LoadOp>(op)) {
      auto view = load.getMemRef().getDefiningOp<memref::ReinterpretCastOp>();
      if (view.getSource() == outBase && (load.getMemRef() != nest.store.getMemRef() ||
                                          load.getIndices() != nest.store.getIndices()))
        return fail("the kernel reads the output buffer elsewhere than where it writes");
    }
  return success();
}

/// The tensor type of a view.
RankedTensorType tensorTypeOf(Value view) {
  auto type = cast<MemRefType>(view.getType());
  return RankedTensorType::get(type.getShape(), type.getElementType());
}

FailureOr<Value> ContractionRaiser::buildGeneric(
    OpBuilder &b, Value root, unsigned numDims, ArrayRef<utils::IteratorType> iterators,
    ArrayRef<std::pair<Value, std::pair<Value, AffineMap>>> carried, Value accumulator, Value init,
    AffineMap outMap) {
  Location loc = forall.getLoc();
  MLIRContext *ctx = b.getContext();
  // The values `root` is computed from, inside the forall: loads become
  // inputs, invariants stay captured, pure ops are cloned into the body.
  SmallVector<Operation *> ops; // in order
  SmallVector<memref::LoadOp> loads;
  llvm::DenseSet<Operation *> seen;
  std::function<LogicalResult(Value)> collect = [&](Value v) -> LogicalResult {
    for (auto &[value, input] : carried)
      if (value == v)
        return success();
    if (v == accumulator)
      return success();
    if (dom.properlyDominates(v, forall))
      return success();
    Operation *op = v.getDefiningOp();
    if (!op)
      return fail("a value depends on a loop variable directly (not through a load)");
    if (seen.contains(op))
      return success();
    seen.insert(op);
    if (auto load = dyn_cast<memref::LoadOp>(op)) {
      loads.push_back(load);
      return success();
    }
    for (Value operand : op->getOperands())
      if (failed(collect(operand)))
        return failure();
    ops.push_back(op);
    return success();
  };
  if (failed(collect(root)))
    return failure();
  // `collect` visits operands first: `ops` is in an order the body can be
  // cloned in.
  SmallVector<Value> inputs;
  SmallVector<AffineMap> maps;
  for (auto &[value, input] : carried) {
    inputs.push_back(input.first);
    maps.push_back(input.second);
  }
  for (memref::LoadOp load : loads) {
    Value view = load.getMemRef();
    inputs.push_back(bufferization::ToTensorOp::create(b, loc, tensorTypeOf(view), view,
                                                       /*restrict=*/true, /*writable=*/false));
    SmallVector<AffineExpr> exprs;
    for (Value index : load.getIndices()) {
      unsigned d = dimOf(index);
      if (d >= numDims)
        return fail("a load outside the reduction is indexed by a reduction variable");
      exprs.push_back(getAffineDimExpr(d, ctx));
    }
    maps.push_back(AffineMap::get(numDims, 0, exprs, ctx));
  }
  maps.push_back(outMap);
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{init.getType()}, inputs, ValueRange{init}, maps, iterators,
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        IRMapping map;
        unsigned next = 0;
        for (auto &[value, input] : carried)
          map.map(value, args[next++]);
        for (memref::LoadOp load : loads)
          map.map(load.getResult(), args[next++]);
        if (accumulator)
          map.map(accumulator, args.back());
        for (Operation *op : ops)
          nb.clone(*op, map);
        linalg::YieldOp::create(nb, nloc, map.lookupOrDefault(root));
      });
  return generic.getResult(0);
}

LogicalResult ContractionRaiser::run(std::string &reason) {
  if (failed(match())) {
    reason = why;
    return failure();
  }
  // What is built goes before the forall; a refusal found while building
  // erases it again.
  Operation *previous = forall->getPrevNode();
  auto undo = [&]() {
    reason = why;
    while (Operation *op = forall->getPrevNode()) {
      if (op == previous)
        break;
      op->erase();
    }
    return failure();
  };
  OpBuilder b(forall);
  Location loc = forall.getLoc();
  MLIRContext *ctx = b.getContext();
  unsigned numPar = forall.getRank();
  unsigned numDims = nest.dims.size();
  Value outView = nest.store.getMemRef();
  RankedTensorType outType = tensorTypeOf(outView);
  // The output tensor's dimensions are the view's, in the store's order.
  SmallVector<AffineExpr> outExprs;
  for (Value index : nest.store.getIndices())
    outExprs.push_back(getAffineDimExpr(dimOf(index), ctx));
  AffineMap outMapAll = AffineMap::get(numDims, 0, outExprs, ctx);
  AffineMap outMapPar = AffineMap::get(numPar, 0, outExprs, ctx);
  SmallVector<Value> dynamicSizes;
  for (auto [i, index] : llvm::enumerate(nest.store.getIndices()))
    if (outType.isDynamicDim(i))
      dynamicSizes.push_back(
          getValueOrCreateConstantIndexOp(b, loc, forall.getMixedUpperBound()[dimOf(index)]));
  auto emptyOf = [&](RankedTensorType type) {
    return tensor::EmptyOp::create(b, loc, type, dynamicSizes).getResult();
  };
  auto empty = [&]() { return emptyOf(outType); };
  SmallVector<utils::IteratorType> parallel(numPar, utils::IteratorType::parallel);

  Value result;
  Operation *contraction = nullptr;
  if (!nest.reductions.empty()) {
    scf::ForOp outer = nest.reductions.front(), innermost = nest.reductions.back();
    // The init: an invariant fills the output; anything else is an
    // elementwise generic over the output.
    Value initValue = outer.getInitArgs()[0];
    // The reduction runs in the accumulator's type, which need not be the
    // output's (an `int` or `double` sum stored as float, a float sum of
    // halves stored as a half): then the store's conversion is the
    // epilogue, from a tensor of the accumulator's type.
    RankedTensorType accType = outType.clone(initValue.getType());
    auto accEmpty = [&]() { return emptyOf(accType); };
    Value init;
    if (dom.properlyDominates(initValue, forall)) {
      init = linalg::FillOp::create(b, loc, initValue, accEmpty()).getResult(0);
    } else if (Operation *def = initValue.getDefiningOp(); def && def->hasTrait<OpTrait::ConstantLike>()) {
      init = linalg::FillOp::create(b, loc, b.clone(*def)->getResult(0), accEmpty()).getResult(0);
    } else {
      FailureOr<Value> generic = buildGeneric(b, initValue, numPar, parallel, {}, Value(), accEmpty(),
                                              outMapPar);
      if (failed(generic))
        return undo();
      init = *generic;
    }
    SmallVector<utils::IteratorType> iterators(numPar, utils::IteratorType::parallel);
    iterators.append(nest.reductions.size(), utils::IteratorType::reduction);
    Value next = innermost.getBody()->getTerminator()->getOperand(0);
    FailureOr<Value> reduced = buildGeneric(b, next, numDims, iterators, {},
                                            innermost.getRegionIterArgs()[0], init, outMapAll);
    if (failed(reduced))
      return undo();
    result = *reduced;
    contraction = result.getDefiningOp();
    // The epilogue: what the store writes, computed from the reduction.
    Value stored = nest.store.getValueToStore();
    if (stored != outer.getResult(0)) {
      AffineMap identityOut = outMapPar;
      FailureOr<Value> epilogue = buildGeneric(
          b, stored, numPar, parallel, {{outer.getResult(0), {result, identityOut}}}, Value(),
          empty(), outMapPar);
      if (failed(epilogue))
        return undo();
      result = *epilogue;
    }
  } else {
    FailureOr<Value> elementwise = buildGeneric(b, nest.store.getValueToStore(), numPar, parallel,
                                                {}, Value(), empty(), outMapPar);
    if (failed(elementwise))
      return undo();
    result = *elementwise;
  }
  bufferization::MaterializeInDestinationOp::create(b, loc, TypeRange{}, result, outView,
                                                    /*restrict=*/true, /*writable=*/true);
  forall.erase();
  // The schedules' form (a bare product from a fill), then a named op where
  // one fits (matmul, batch_matmul, matvec, ...).
  if (auto generic = dyn_cast_or_null<linalg::GenericOp>(contraction)) {
    IRRewriter rewriter(b);
    ks::normalizeContraction(rewriter, generic);
    contraction = specializeContraction(generic);
  }
  if (contraction && contract)
    contraction->setAttr(kContractAttrName, UnitAttr::get(ctx));
  return success();
}

/// Whether `body` is `out + in0 * in1` (in either operand order).
bool isMultiplyAdd(Block &body) {
  if (body.getNumArguments() != 3 || !llvm::hasNItems(body.without_terminator(), 2))
    return false;
  auto mul = dyn_cast<arith::MulFOp>(&body.front());
  auto add = dyn_cast<arith::AddFOp>(mul ? mul->getNextNode() : nullptr);
  if (!mul || !add || body.getTerminator()->getOperand(0) != add.getResult())
    return false;
  Value in0 = body.getArgument(0), in1 = body.getArgument(1), out = body.getArgument(2);
  bool mulOk = (mul.getLhs() == in0 && mul.getRhs() == in1) || (mul.getLhs() == in1 && mul.getRhs() == in0);
  bool addOk = (add.getLhs() == out && add.getRhs() == mul) || (add.getRhs() == out && add.getLhs() == mul);
  return mulOk && addOk;
}

/// The generic as a named op that computes the same, or the generic itself.
/// Upstream's specializeGenericOp is checked, not trusted: in LLVM 22.1.8 it
/// turns a generic with B transposed ((d0, d1, d2) -> (d1, d2)) into a plain
/// linalg.matmul with the default maps, which computes something else. A
/// matmul or batch_matmul with transposed operands is written with explicit
/// indexing_maps instead.
Operation *specializeContraction(linalg::GenericOp generic) {
  IRRewriter rewriter(generic);
  SmallVector<AffineMap> maps = generic.getIndexingMapsArray();
  // Upstream's specialization, kept only if it preserved the maps and the
  // operands.
  auto clone = cast<linalg::GenericOp>(rewriter.clone(*generic));
  FailureOr<linalg::LinalgOp> named = linalg::specializeGenericOp(rewriter, clone);
  if (succeeded(named)) {
    bool same = named->getIndexingMapsArray() == maps &&
                ValueRange(named->getDpsInputs()) == ValueRange(generic.getDpsInputs()) &&
                ValueRange(named->getDpsInits()) == ValueRange(generic.getDpsInits());
    if (same && !isa<linalg::GenericOp>(named->getOperation())) {
      rewriter.replaceOp(generic, named->getOperation()->getResults());
      return *named;
    }
    rewriter.eraseOp(*named);
  } else {
    rewriter.eraseOp(clone);
  }
  // matmul / batch_matmul with transposed operands: every input map a
  // permutation of its dimensions, the output the identity over the parallel
  // ones, the body a multiply-add.
  unsigned numLoops = generic.getNumLoops();
  unsigned numPar = generic.getNumParallelLoops();
  auto isLeadingIdentity = [&](AffineMap map) {
    if (map.getNumResults() != numPar)
      return false;
    for (unsigned i = 0; i < numPar; ++i)
      if (map.getResult(i) != getAffineDimExpr(i, map.getContext()))
        return false;
    return true;
  };
  if (generic.getNumDpsInputs() != 2 || generic.getNumReductionLoops() != 1 ||
      !isMultiplyAdd(*generic.getBlock()) || !isLeadingIdentity(maps[2]))
    return generic;
  MLIRContext *ctx = generic.getContext();
  auto d = [&](unsigned i) { return getAffineDimExpr(i, ctx); };
  // matvec: y(i) += A(i, k) * x(k), with linalg.matvec's own maps.
  if (numLoops == 2 && maps[0] == AffineMap::get(2, 0, {d(0), d(1)}, ctx) &&
      maps[1] == AffineMap::get(2, 0, {d(1)}, ctx)) {
    auto matvec = linalg::MatvecOp::create(rewriter, generic.getLoc(), generic.getResultTypes(),
                                           generic.getDpsInputs(), generic.getDpsInits());
    rewriter.replaceOp(generic, matvec->getResults());
    return matvec;
  }
  if (numLoops != 3 && numLoops != 4)
    return generic;
  for (AffineMap map : {maps[0], maps[1]})
    if (!map.isProjectedPermutation() || map.getNumResults() != numLoops - 1)
      return generic;
  // The first input of a (batch_)matmul is the one with the M dimension
  // (d0, or d1 after the batch): a column-major GEMM computes C^T = B^T A^T
  // and has them the other way round. The product commutes exactly.
  SmallVector<Value> inputs(generic.getDpsInputs());
  unsigned mDim = numLoops == 3 ? 0 : 1;
  if (!maps[0].isFunctionOfDim(mDim) && maps[1].isFunctionOfDim(mDim)) {
    std::swap(inputs[0], inputs[1]);
    std::swap(maps[0], maps[1]);
  }
  Operation *op;
  if (numLoops == 3)
    op = linalg::MatmulOp::create(rewriter, generic.getLoc(), generic.getResultTypes(), inputs,
                                  generic.getDpsInits());
  else
    op = linalg::BatchMatmulOp::create(rewriter, generic.getLoc(), generic.getResultTypes(),
                                       inputs, generic.getDpsInits());
  op->setAttr("indexing_maps", rewriter.getAffineMapArrayAttr(maps));
  if (failed(mlir::verify(op))) {
    rewriter.eraseOp(op);
    return generic;
  }
  rewriter.replaceOp(generic, op->getResults());
  return op;
}

struct RaiseContractionsPass : ks::impl::KSRaiseContractionsBase<RaiseContractionsPass> {
  using Base::Base;
  void runOnOperation() override {
    SmallVector<scf::ForallOp> foralls;
    getOperation().walk([&](gpu::GPUFuncOp kernel) {
      if (kernel->hasAttr(kRaisedAttrName))
        kernel.walk([&](scf::ForallOp f) { foralls.push_back(f); });
    });
    for (scf::ForallOp forall : foralls) {
      Location loc = forall.getLoc();
      bool hasLoop = false;
      forall.getBody()->walk([&](scf::ForOp) { hasLoop = true; });
      if (!hasLoop && !elementwise) {
        if (remarks)
          emitRemark(loc) << "ks-raise-contractions: not raised to linalg: no reduction loop "
                             "(elementwise work stays a forall; elementwise=true raises it)";
        continue;
      }
      std::string why;
      if (failed(raiseContraction(forall, why)) && remarks)
        emitRemark(loc) << "ks-raise-contractions: not raised to linalg: " << why;
    }
  }
};
} // namespace

LogicalResult mlir::ks::raiseContraction(scf::ForallOp forall, std::string &why) {
  auto kernel = forall->getParentOfType<gpu::GPUFuncOp>();
  ContractionRaiser raiser(forall);
  if (failed(raiser.run(why)))
    return failure();
  if (kernel)
    detachOpFacts(kernel);
  return success();
}
