//===- SIMTBuilder.cpp - Building SIMT kernel code ------------------------===//

#include "SIMTBuilder.h"
#include "kernelskill/Transforms/KernelLaunch.h"
#include "kernelskill/Transforms/Raising.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include <functional>

using namespace mlir;
using namespace mlir::ks;

Value SIMTBuilder::add(Value x, Value y) {
  std::optional<int64_t> cx = getConstantIntValue(x), cy = getConstantIntValue(y);
  if (cx && cy)
    return c(*cx + *cy);
  if (cx == 0)
    return y;
  if (cy == 0)
    return x;
  return arith::AddIOp::create(b, loc, x, y);
}

Value SIMTBuilder::mul(Value x, Value y) {
  std::optional<int64_t> cx = getConstantIntValue(x), cy = getConstantIntValue(y);
  if (cx && cy)
    return c(*cx * *cy);
  if (cx == 1)
    return y;
  if (cy == 1)
    return x;
  return arith::MulIOp::create(b, loc, x, y);
}

scf::ForOp SIMTBuilder::loop(Value lb, Value ub, Value step, bool unroll,
                             const std::function<void(Value)> &body) {
  auto forOp = scf::ForOp::create(b, loc, lb, ub, step);
  if (unroll)
    forOp->setAttr(kUnrollAttrName, b.getUnitAttr());
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(forOp.getBody()->getTerminator());
  body(forOp.getInductionVar());
  return forOp;
}

ValueRange SIMTBuilder::ifElse(Value cond, TypeRange types,
                               const std::function<SmallVector<Value>()> &then,
                               const std::function<SmallVector<Value>()> &otherwise) {
  auto ifOp = scf::IfOp::create(b, loc, types, cond, /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    SmallVector<Value> values = then();
    scf::YieldOp::create(b, loc, values);
    b.setInsertionPointToStart(ifOp.elseBlock());
    values = otherwise();
    scf::YieldOp::create(b, loc, values);
  }
  return ifOp.getResults();
}

void SIMTBuilder::ifThen(Value cond, const std::function<void()> &then) {
  auto ifOp = scf::IfOp::create(b, loc, TypeRange{}, cond, /*withElseRegion=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
  then();
}

Value SIMTBuilder::product(ArrayRef<Value> sizes) {
  Value p = c(1);
  for (Value s : sizes)
    p = mul(p, s);
  return p;
}

void SIMTBuilder::delinearize(Value linear, ArrayRef<unsigned> dims, ArrayRef<Value> sizes,
                              llvm::DenseMap<unsigned, Value> &coords) {
  if (dims.size() == 1) {
    coords[dims[0]] = linear;
    return;
  }
  for (int i = int(dims.size()) - 1; i >= 0; --i) {
    Value size = sizes[dims[i]];
    if (i == 0) {
      coords[dims[i]] = linear;
      break;
    }
    coords[dims[i]] = remu(linear, size);
    linear = divu(linear, size);
  }
}

SmallVector<Value> SIMTBuilder::indicesOf(const ContractionOperand &operand,
                                          const llvm::DenseMap<unsigned, Value> &coords) {
  SmallVector<Value> indices;
  for (AffineExpr e : operand.map.getResults())
    indices.push_back(coords.lookup(cast<AffineDimExpr>(e).getPosition()));
  return indices;
}

namespace {
/// Maps the epilogue's block arguments: the reduction's to `acc` (when
/// given), the others to loads of their views at `coords`.
IRMapping mapEpilogueArguments(SIMTBuilder &sb, const ContractionProblem &p, Value acc,
                               const llvm::DenseMap<unsigned, Value> &coords) {
  linalg::GenericOp epilogue = p.epilogue;
  Block &body = *epilogue.getBlock();
  IRMapping map;
  unsigned other = 0;
  for (unsigned i = 0, e = epilogue.getNumDpsInputs(); i < e; ++i) {
    if (i == p.epilogueResultInput) {
      if (acc)
        map.map(body.getArgument(i), acc);
      continue;
    }
    const ContractionOperand &input = p.epilogueInputs[other++];
    map.map(body.getArgument(i),
            memref::LoadOp::create(sb.b, sb.loc, input.view, sb.indicesOf(input, coords)));
  }
  return map;
}

/// Clones the ops of the epilogue that `v` depends on, in order.
Value cloneChain(SIMTBuilder &sb, Block &body, Value v, IRMapping &map) {
  if (Value mapped = map.lookupOrNull(v))
    return mapped;
  Operation *op = v.getDefiningOp();
  if (!op || op->getBlock() != &body)
    return v; // captured from above
  for (Value operand : op->getOperands())
    cloneChain(sb, body, operand, map);
  sb.b.clone(*op, map);
  return map.lookup(v);
}
} // namespace

Value mlir::ks::emitEpilogue(SIMTBuilder &sb, const ContractionProblem &p, Value acc,
                             const llvm::DenseMap<unsigned, Value> &coords) {
  if (!p.epilogue)
    return acc;
  linalg::GenericOp epilogue = p.epilogue;
  Block &body = *epilogue.getBlock();
  IRMapping map = mapEpilogueArguments(sb, p, acc, coords);
  for (Operation &op : body.without_terminator())
    sb.b.clone(op, map);
  return map.lookupOrDefault(body.getTerminator()->getOperand(0));
}

Value mlir::ks::emitEpilogueValue(SIMTBuilder &sb, const ContractionProblem &p, Value v,
                                  const llvm::DenseMap<unsigned, Value> &coords) {
  linalg::GenericOp epilogue = p.epilogue;
  IRMapping map = mapEpilogueArguments(sb, p, Value(), coords);
  return cloneChain(sb, *epilogue.getBlock(), v, map);
}

FailureOr<LinearEpilogue> mlir::ks::matchLinearEpilogue(const ContractionProblem &p,
                                                        std::string &why) {
  if (!p.epilogue)
    return LinearEpilogue{};
  linalg::GenericOp epilogue = p.epilogue;
  Block &body = *epilogue.getBlock();
  Value acc = body.getArgument(p.epilogueResultInput);
  std::function<bool(Value)> dependsOnAcc = [&](Value v) {
    if (v == acc)
      return true;
    Operation *op = v.getDefiningOp();
    return op && op->getBlock() == &body &&
           llvm::any_of(op->getOperands(), [&](Value o) { return dependsOnAcc(o); });
  };
  // alpha * acc, acc * alpha, or acc.
  auto scaled = [&](Value v) -> std::optional<Value> {
    if (v == acc)
      return Value();
    if (auto mul = v.getDefiningOp<arith::MulFOp>()) {
      if (mul.getLhs() == acc && !dependsOnAcc(mul.getRhs()))
        return mul.getRhs();
      if (mul.getRhs() == acc && !dependsOnAcc(mul.getLhs()))
        return mul.getLhs();
    }
    return std::nullopt;
  };
  Value result = body.getTerminator()->getOperand(0);
  if (std::optional<Value> alpha = scaled(result))
    return LinearEpilogue{*alpha, Value()};
  if (auto add = result.getDefiningOp<arith::AddFOp>())
    for (auto [x, y] : {std::pair(add.getLhs(), add.getRhs()), std::pair(add.getRhs(), add.getLhs())})
      if (!dependsOnAcc(y))
        if (std::optional<Value> alpha = scaled(x))
          return LinearEpilogue{*alpha, y};
  why = "the epilogue is not alpha * acc + offset, so partial sums cannot be added to the output";
  return failure();
}

Value mlir::ks::addSharedBuffer(gpu::GPUFuncOp kernel, MemRefType type, Location loc) {
  BlockArgument buffer = kernel.addWorkgroupAttribution(type, loc);
  kernel.setWorkgroupAttributionAttr(kernel.getNumWorkgroupAttributions() - 1, "llvm.align",
                                     IntegerAttr::get(IntegerType::get(kernel.getContext(), 64), 16));
  return buffer;
}

bool mlir::ks::sameBound(Value x, Value y) {
  return x == y || (getConstantIntValue(x) && getConstantIntValue(x) == getConstantIntValue(y));
}

Value mlir::ks::viewedBuffer(Value memref) {
  while (true) {
    if (auto cast = memref.getDefiningOp<memref::ReinterpretCastOp>())
      memref = cast.getSource();
    else if (auto cast = memref.getDefiningOp<memref::CastOp>())
      memref = cast.getSource();
    else
      break;
  }
  return isa<BlockArgument>(memref) ? memref : Value();
}

void mlir::ks::eraseContractionGroup(ContractionProblem &p) {
  p.store->erase();
  if (p.epilogue)
    p.epilogue->erase();
  p.contraction->erase();
  p.fill->erase();
  // The empty tensors and buffer reads nothing uses any more.
  SmallVector<Operation *> dead;
  p.kernel.walk([&](Operation *op) {
    if (isa<tensor::EmptyOp, bufferization::ToTensorOp>(op) && op->use_empty())
      dead.push_back(op);
  });
  for (Operation *op : dead)
    op->erase();
}

LogicalResult mlir::ks::checkKernelHoldsOnlyGroup(const ContractionProblem &p, std::string &why) {
  llvm::SmallPtrSet<Operation *, 8> group = {p.store, p.contraction, p.fill};
  if (p.epilogue)
    group.insert(p.epilogue);
  gpu::GPUFuncOp kernel = p.kernel;
  for (Operation &op : kernel.getBody().front().without_terminator()) {
    if (group.contains(&op) || isa<bufferization::ToTensorOp, tensor::EmptyOp>(op) ||
        isMemoryEffectFree(&op))
      continue;
    why = "the kernel holds other work besides the contraction ('" +
          op.getName().getStringRef().str() + "'): every thread would do it";
    return failure();
  }
  return success();
}

bool mlir::ks::onlyReadsMemory(Operation *op) {
  WalkResult result = op->walk([](Operation *inner) {
    if (inner->hasTrait<OpTrait::HasRecursiveMemoryEffects>())
      return WalkResult::advance();
    auto effects = dyn_cast<MemoryEffectOpInterface>(inner);
    if (!effects)
      return WalkResult::interrupt();
    SmallVector<MemoryEffects::EffectInstance> list;
    effects.getEffects(list);
    for (const MemoryEffects::EffectInstance &e : list)
      if (!isa<MemoryEffects::Read>(e.getEffect()))
        return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return !result.wasInterrupted();
}

gpu::GPUFuncOp mlir::ks::scheduledKernelOf(scf::ForallOp forall, ArrayRef<gpu::Dimension> dims,
                                           std::string &why) {
  auto kernel = forall->getParentOfType<gpu::GPUFuncOp>();
  if (!kernel || !kernel->hasAttr(kRaisedAttrName) || forall->getParentOp() != kernel) {
    why = "the target is not the top-level scf.forall of a raised kernel";
    return {};
  }
  if (!forall.getOutputs().empty() || !forall.isNormalized()) {
    why = "the forall has results or is not normalized (from 0, step 1)";
    return {};
  }
  for (Operation &op : kernel.getBody().front().without_terminator())
    if (&op != forall.getOperation() && !isMemoryEffectFree(&op)) {
      why = "the kernel holds other work besides the forall";
      return {};
    }
  for (gpu::Dimension d : dims)
    if (readsBlockIndex(kernel, d)) {
      why = "the kernel already maps a dimension to the grid (blockIdx is read)";
      return {};
    }
  return kernel;
}
