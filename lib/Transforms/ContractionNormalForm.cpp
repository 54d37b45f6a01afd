//===- ContractionNormalForm.cpp - Zero init, a bare product, an epilogue ---===//
//
// The contraction schedules take `out + a * b` from a fill (the GEMM
// family's outer product, the GEMV's split reduction). Kernels in the
// polyhedral suites' style reach ks-raise-contractions as `C = beta * C;
// for k: C += alpha * A * B` (once ks-promote-accumulators carries C): the
// reduction starts from an elementwise generic over C and multiplies a
// loop-invariant factor in. Both move to the epilogue: the reduction
// starts from zero and multiplies its two inputs, and an elementwise
// generic computes `init + alpha * sum`, fused into the existing epilogue
// (upstream's linalg elementwise fusion). The sum's order changes (the
// init is added last, the factor applied once): linalg's order is any
// already and the verification tolerance covers it (docs/Raising.md).
//
//===----------------------------------------------------------------------===//

#include "kernelskill/Transforms/Contraction.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;

namespace {

/// The product `t` multiplies, leaf by leaf, through arith.mulf ops inside
/// `body` (each used once); false when something else computes it.
bool collectFactors(Value t, Block &body, SmallVectorImpl<Value> &leaves,
                    SmallVectorImpl<Operation *> &muls) {
  auto mul = t.getDefiningOp<arith::MulFOp>();
  if (!mul || mul->getBlock() != &body) {
    leaves.push_back(t);
    return true;
  }
  if (!mul->hasOneUse())
    return false;
  muls.push_back(mul);
  return collectFactors(mul.getLhs(), body, leaves, muls) &&
         collectFactors(mul.getRhs(), body, leaves, muls);
}

/// Replaces the uses of `producer`'s result in `consumer` by fusing it in;
/// returns the fused op (or `consumer` when they do not fuse).
linalg::GenericOp fuseInto(RewriterBase &rewriter, linalg::GenericOp producer,
                           linalg::GenericOp consumer) {
  for (OpOperand &operand : consumer->getOpOperands()) {
    if (operand.get().getDefiningOp() != producer || !linalg::areElementwiseOpsFusable(&operand))
      continue;
    // The fused op is built at the insertion point: the consumer's place,
    // after everything either op reads.
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPoint(consumer);
    FailureOr<linalg::ElementwiseOpFusionResult> fused =
        linalg::fuseElementwiseOps(rewriter, &operand);
    if (failed(fused))
      return consumer;
    for (auto [from, to] : fused->replacements)
      rewriter.replaceUsesWithIf(from, to, [&](OpOperand &use) {
        return use.getOwner() != fused->fusedOp && use.getOwner() != producer;
      });
    rewriter.eraseOp(consumer);
    if (producer->use_empty())
      rewriter.eraseOp(producer);
    return cast<linalg::GenericOp>(fused->fusedOp);
  }
  return consumer;
}

} // namespace

bool mlir::ks::normalizeContraction(RewriterBase &rewriter, linalg::GenericOp contraction) {
  if (contraction.getNumDpsInputs() != 2 || contraction.getNumDpsInits() != 1 ||
      !contraction.hasPureTensorSemantics() || contraction->getNumResults() != 1)
    return false;
  Block &body = *contraction.getBlock();
  BlockArgument in0 = body.getArgument(0), in1 = body.getArgument(1), out = body.getArgument(2);
  auto add = body.getTerminator()->getOperand(0).getDefiningOp<arith::AddFOp>();
  if (!add || add->getBlock() != &body || !add->hasOneUse())
    return false;
  Value term = add.getLhs() == out ? add.getRhs() : add.getLhs();
  if (term == out || (add.getLhs() != out && add.getRhs() != out))
    return false;
  SmallVector<Value> leaves;
  SmallVector<Operation *> muls;
  if (!collectFactors(term, body, leaves, muls) ||
      !llvm::hasNItems(body.without_terminator(), muls.size() + 1))
    return false;
  // The two inputs once each; the rest loop-invariant values from outside.
  SmallVector<Value> factors;
  unsigned inputsSeen = 0;
  for (Value leaf : leaves) {
    if (leaf == in0 || leaf == in1) {
      ++inputsSeen;
      continue;
    }
    if (contraction->isAncestor(leaf.getParentBlock()->getParentOp()))
      return false;
    factors.push_back(leaf);
  }
  if (inputsSeen != 2 || llvm::count(leaves, in0) != 1)
    return false;

  Value init = contraction.getDpsInits()[0];
  auto fill = init.getDefiningOp<linalg::FillOp>();
  if (fill && factors.empty())
    return false; // already the normal form (a fill of any value)
  tensor::EmptyOp initEmpty =
      fill ? fill.getOutputs()[0].getDefiningOp<tensor::EmptyOp>()
           : init.getDefiningOp<linalg::GenericOp>()
                 ? init.getDefiningOp<linalg::GenericOp>().getDpsInits()[0].getDefiningOp<tensor::EmptyOp>()
                 : tensor::EmptyOp();
  auto initGeneric = init.getDefiningOp<linalg::GenericOp>();
  if (!initEmpty || (!fill && (!initGeneric || initGeneric.getNumLoops() !=
                                                   initGeneric.getNumParallelLoops())))
    return false;
  auto type = cast<RankedTensorType>(contraction->getResult(0).getType());
  Type element = type.getElementType();
  Location loc = contraction.getLoc();
  arith::FastMathFlags flags = add.getFastmath();

  // The reduction: out + in0 * in1 from a fill of zero.
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(contraction);
  Value scale;
  for (Value factor : factors)
    scale = scale ? arith::MulFOp::create(rewriter, loc, scale, factor, flags).getResult() : factor;
  Value zero = arith::ConstantOp::create(rewriter, loc, rewriter.getZeroAttr(element));
  Value zeroInit =
      linalg::FillOp::create(rewriter, loc, zero, rewriter.clone(*initEmpty)->getResult(0))
          .getResult(0);
  rewriter.modifyOpInPlace(contraction, [&] {
    contraction.getDpsInitsMutable()[0].set(zeroInit);
    rewriter.setInsertionPoint(body.getTerminator());
    Value product = arith::MulFOp::create(rewriter, loc, in0, in1, flags);
    Value sum = arith::AddFOp::create(rewriter, loc, out, product, flags);
    body.getTerminator()->setOperand(0, sum);
    rewriter.eraseOp(add);
    for (Operation *mul : muls)
      rewriter.eraseOp(mul);
  });

  // The epilogue's first step: init + scale * sum, elementwise.
  Value sum = contraction->getResult(0);
  SmallVector<Operation *> oldUsers(sum.getUsers());
  rewriter.setInsertionPointAfter(contraction);
  unsigned rank = type.getRank();
  AffineMap identity = rewriter.getMultiDimIdentityMap(rank);
  SmallVector<Value> inputs;
  if (!fill)
    inputs.push_back(init);
  inputs.push_back(sum);
  SmallVector<AffineMap> maps(inputs.size() + 1, identity);
  SmallVector<utils::IteratorType> parallel(rank, utils::IteratorType::parallel);
  Value fillValue = fill ? fill.getInputs()[0] : Value();
  auto step = linalg::GenericOp::create(
      rewriter, loc, type, inputs, rewriter.clone(*initEmpty)->getResult(0), maps, parallel,
      [&](OpBuilder &b, Location nloc, ValueRange args) {
        Value start = fill ? fillValue : args[0];
        Value scaled = args[inputs.size() - 1];
        if (scale)
          scaled = arith::MulFOp::create(b, nloc, scale, scaled, flags);
        linalg::YieldOp::create(b, nloc,
                                arith::AddFOp::create(b, nloc, start, scaled, flags).getResult());
      });
  for (Operation *user : oldUsers)
    rewriter.modifyOpInPlace(user, [&] { user->replaceUsesOfWith(sum, step->getResult(0)); });
  if (fill && fill->use_empty())
    rewriter.eraseOp(fill);

  // Fused with the init's generic and with the epilogue that follows.
  linalg::GenericOp epilogue = step;
  if (initGeneric)
    epilogue = fuseInto(rewriter, initGeneric, epilogue);
  Value result = epilogue->getResult(0);
  if (result.hasOneUse())
    if (auto next = dyn_cast<linalg::GenericOp>(*result.getUsers().begin());
        next && next.getNumLoops() == next.getNumParallelLoops()) {
      fuseInto(rewriter, epilogue, next);
    }
  return true;
}
