//===- ContractionProblem.cpp - Read a raised contraction group back ------===//

#include "kernelskill/Transforms/Contraction.h"
#include "kernelskill/Transforms/Raising.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::ks;

SmallVector<unsigned> ContractionProblem::parallelDims() const {
  SmallVector<unsigned> dims(batch);
  llvm::append_range(dims, m);
  llvm::append_range(dims, n);
  llvm::sort(dims);
  return dims;
}

namespace {
/// The view a tensor operand reads: to_tensor(reinterpret_cast(...)).
FailureOr<Value> viewOf(Value tensor, std::string &why) {
  auto toTensor = tensor.getDefiningOp<bufferization::ToTensorOp>();
  if (!toTensor) {
    why = "an operand is not read from a buffer (bufferization.to_tensor)";
    return failure();
  }
  if (!toTensor.getBuffer().getDefiningOp<memref::ReinterpretCastOp>()) {
    why = "an operand's buffer is not a strided view (memref.reinterpret_cast)";
    return failure();
  }
  return toTensor.getBuffer();
}

ContractionOperand makeOperand(Value view, AffineMap map) {
  ContractionOperand operand{view, map, std::nullopt};
  auto type = cast<MemRefType>(view.getType());
  auto [strides, offset] = type.getStridesAndOffset();
  for (int i = int(strides.size()) - 1; i >= 0; --i)
    if (strides[i] == 1) {
      operand.contiguousDim = i;
      break;
    }
  return operand;
}

/// Whether `body` is `out + in0 * in1` (either operand order).
bool isMultiplyAddBody(Block &body) {
  if (body.getNumArguments() != 3 || !llvm::hasNItems(body.without_terminator(), 2))
    return false;
  auto mul = dyn_cast<arith::MulFOp>(&body.front());
  auto add = dyn_cast<arith::AddFOp>(mul ? mul->getNextNode() : nullptr);
  if (!mul || !add || body.getTerminator()->getOperand(0) != add.getResult())
    return false;
  Value out = body.getArgument(2);
  return ((add.getLhs() == out && add.getRhs() == mul) ||
          (add.getRhs() == out && add.getLhs() == mul)) &&
         llvm::is_contained(ValueRange{mul.getLhs(), mul.getRhs()}, body.getArgument(0)) &&
         llvm::is_contained(ValueRange{mul.getLhs(), mul.getRhs()}, body.getArgument(1));
}
} // namespace

FailureOr<linalg::LinalgOp> mlir::ks::findKernelContraction(gpu::GPUFuncOp kernel,
                                                            std::string &why) {
  if (!kernel->hasAttr(kRaisedAttrName)) {
    why = "the kernel is not raised (run ks-raise first)";
    return failure();
  }
  SmallVector<linalg::LinalgOp> found;
  kernel.walk([&](linalg::LinalgOp op) {
    if (op.getNumReductionLoops() > 0)
      found.push_back(op);
  });
  if (found.size() != 1) {
    why = found.empty() ? "the kernel holds no contraction (no linalg op with a reduction)"
                        : "the kernel holds " + std::to_string(found.size()) +
                              " contractions; target one of them";
    return failure();
  }
  return found.front();
}

FailureOr<ContractionProblem> mlir::ks::analyzeContraction(linalg::LinalgOp op, std::string &why) {
  auto fail = [&](const Twine &reason) -> FailureOr<ContractionProblem> {
    why = reason.str();
    return failure();
  };
  ContractionProblem p;
  p.contraction = op;
  p.kernel = op->getParentOfType<gpu::GPUFuncOp>();
  if (!p.kernel || !p.kernel->hasAttr(kRaisedAttrName))
    return fail("the op is not in a raised kernel (run ks-raise first)");
  if (!op.hasPureTensorSemantics() || op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1)
    return fail("the op is not a two-input contraction on tensors");
  if (!isMultiplyAddBody(*op.getBlock()))
    return fail("the reduction is not a multiply-add");
  FailureOr<linalg::ContractionDimensions> dims = linalg::inferContractionDims(op);
  if (failed(dims))
    return fail("the indexing maps are not those of a contraction");
  p.batch.assign(dims->batch.begin(), dims->batch.end());
  p.m.assign(dims->m.begin(), dims->m.end());
  p.n.assign(dims->n.begin(), dims->n.end());
  p.k.assign(dims->k.begin(), dims->k.end());
  if (p.k.empty())
    return fail("the contraction has no reduction dimension");
  p.elementType = getElementTypeOrSelf(op->getResult(0).getType());
  if (!p.elementType.isF32())
    return fail("only f32 contractions have a SIMT schedule here");
  p.contract = op->hasAttr(kContractAttrName);

  // The init: a fill of an empty tensor.
  p.fill = op.getDpsInits()[0].getDefiningOp<linalg::FillOp>();
  if (!p.fill || !p.fill.getOutputs()[0].getDefiningOp<tensor::EmptyOp>())
    return fail("the init is not a linalg.fill of an empty tensor");
  p.init = p.fill.getInputs()[0];

  // The inputs: which one holds the m dimensions.
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  FailureOr<Value> v0 = viewOf(op.getDpsInputs()[0], why), v1 = viewOf(op.getDpsInputs()[1], why);
  if (failed(v0) || failed(v1))
    return failure();
  auto uses = [&](AffineMap map, ArrayRef<unsigned> group) {
    return llvm::any_of(group, [&](unsigned d) { return map.isFunctionOfDim(d); });
  };
  p.lhsIsInput0 = p.m.empty() ? !uses(maps[0], p.n) : uses(maps[0], p.m);
  p.lhs = makeOperand(p.lhsIsInput0 ? *v0 : *v1, p.lhsIsInput0 ? maps[0] : maps[1]);
  p.rhs = makeOperand(p.lhsIsInput0 ? *v1 : *v0, p.lhsIsInput0 ? maps[1] : maps[0]);

  // The sizes of the iteration dimensions, from the views' sizes.
  p.sizes.assign(op.getNumLoops(), Value());
  OpBuilder b(op);
  auto fillSizes = [&](Value view, AffineMap map) {
    auto cast = view.getDefiningOp<memref::ReinterpretCastOp>();
    for (auto [pos, expr] : llvm::enumerate(map.getResults())) {
      auto d = dyn_cast<AffineDimExpr>(expr);
      if (!d || p.sizes[d.getPosition()])
        continue;
      p.sizes[d.getPosition()] =
          getValueOrCreateConstantIndexOp(b, op.getLoc(), cast.getMixedSizes()[pos]);
    }
  };
  fillSizes(p.lhs.view, p.lhs.map);
  fillSizes(p.rhs.view, p.rhs.map);

  // The output: stored as is, or through an elementwise epilogue.
  Value result = op->getResult(0);
  AffineMap outMap = maps[2];
  if (!result.hasOneUse())
    return fail("the contraction's result has more than one use");
  Operation *user = *result.getUsers().begin();
  if (auto epilogue = dyn_cast<linalg::GenericOp>(user)) {
    p.epilogue = epilogue;
    if (epilogue.getNumLoops() != epilogue.getNumParallelLoops() || epilogue.getNumDpsInits() != 1 ||
        !epilogue.getDpsInits()[0].getDefiningOp<tensor::EmptyOp>())
      return fail("the consumer of the contraction is not an elementwise linalg.generic");
    for (Operation &inner : epilogue.getBlock()->without_terminator())
      if (!isPure(&inner))
        return fail("the epilogue has side effects");
    SmallVector<AffineMap> emaps = epilogue.getIndexingMapsArray();
    for (auto [i, input] : llvm::enumerate(epilogue.getDpsInputs())) {
      if (input == result) {
        if (!emaps[i].isIdentity())
          return fail("the epilogue reads the contraction's result through a permutation");
        p.epilogueResultInput = i;
        continue;
      }
      FailureOr<Value> view = viewOf(input, why);
      if (failed(view))
        return failure();
      p.epilogueInputs.push_back(makeOperand(*view, emaps[i].compose(outMap)));
    }
    if (!emaps.back().isIdentity())
      return fail("the epilogue writes through a permutation");
    result = epilogue->getResult(0);
    if (!result.hasOneUse())
      return fail("the epilogue's result has more than one use");
    user = *result.getUsers().begin();
  }
  p.store = dyn_cast<bufferization::MaterializeInDestinationOp>(user);
  if (!p.store || !p.store.getDest().getDefiningOp<memref::ReinterpretCastOp>())
    return fail("the result is not materialized into a strided view");
  p.out = makeOperand(p.store.getDest(), outMap);
  // The output's sizes fill what the inputs did not give (a dimension only
  // the output has cannot occur in a contraction, but be safe).
  fillSizes(p.out.view, p.out.map);
  for (Value size : p.sizes)
    if (!size)
      return fail("a dimension's size is unknown");
  return p;
}

int64_t OuterProductSchedule::sharedBytes(int64_t elementBytes) const {
  int64_t lhs = lhsKOuter ? blockK * (blockM + lhsPad) : blockM * (blockK + lhsPad);
  int64_t rhs = rhsKOuter ? blockK * (blockN + rhsPad) : blockN * (blockK + rhsPad);
  return stages * (lhs + rhs) * elementBytes;
}
