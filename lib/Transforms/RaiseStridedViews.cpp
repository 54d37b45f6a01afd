//===- RaiseStridedViews.cpp - Flat buffer accesses to strided views ------===//
//
// A lifted kernel indexes each CUDA pointer as a flat 1-D memref: A[row * K +
// p]. Inside a raised kernel the index is a sum of loop variables times
// invariant strides, and the access is really one of a 2-D (3-D, ...) view
// of the buffer: A_v[row, p] with A_v = A reinterpreted as sizes [M, K],
// strides [K, 1]. With views, tiling, promotion and the contraction raising
// see rows and columns.
//
// Exactness: the flat index is computed in the kernel's integer types; the
// view computes the offset in 64-bit index arithmetic. The two agree when
// the narrow arithmetic cannot wrap, which `nsw`/`nuw` promise (the
// importer writes nsw for C's signed int, whose overflow is undefined);
// 64-bit arithmetic wraps exactly as index arithmetic does.
//
//===----------------------------------------------------------------------===//

#include "kernelskill/Dialect/KS/IR/KSAttrs.h"
#include "kernelskill/Transforms/KernelLaunch.h"
#include "kernelskill/Transforms/Passes.h"
#include "kernelskill/Transforms/Raising.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/MapVector.h"

namespace mlir::ks {
#define GEN_PASS_DEF_KSRAISESTRIDEDVIEWS
#include "kernelskill/Transforms/Passes.h.inc"
} // namespace mlir::ks

using namespace mlir;
using namespace mlir::ks;

namespace {
/// How a narrow integer value becomes an index.
enum class Ext { Sign, Zero };

/// sum(coefficient * variable) + constant, with every coefficient and the
/// constant an index value available before the forall.
struct Linear {
  llvm::MapVector<Value, Value> terms; ///< variable -> coefficient
  Value constant;                      ///< null for 0
};

/// Rewrites the accesses of one forall.
class ViewBuilder {
public:
  ViewBuilder(scf::ForallOp forall, gpu::GPUFuncOp kernel)
      : forall(forall), kernel(kernel), dom(kernel), b(forall) {
    for (Value iv : forall.getInductionVars())
      variables.push_back(iv);
    forall.walk<WalkOrder::PreOrder>(
        [&](scf::ForOp loop) { variables.push_back(loop.getInductionVar()); });
  }

  LogicalResult rewrite(Operation *access, std::string &why);

private:
  scf::ForallOp forall;
  gpu::GPUFuncOp kernel;
  DominanceInfo dom;
  OpBuilder b;
  SmallVector<Value> variables; ///< forall variables, then loop variables in nest order
  std::string why;

  bool isVariable(Value v) const { return llvm::is_contained(variables, v); }
  LogicalResult fail(const Twine &reason) {
    why = reason.str();
    return failure();
  }

  /// The upper bound of a loop variable, available before the forall.
  Value upperBound(Value iv) {
    if (auto arg = dyn_cast<BlockArgument>(iv)) {
      if (auto f = dyn_cast<scf::ForallOp>(arg.getOwner()->getParentOp())) {
        OpFoldResult ub = f.getMixedUpperBound()[arg.getArgNumber()];
        if (auto v = dyn_cast<Value>(ub))
          return v;
        return arith::ConstantIndexOp::create(b, f.getLoc(), *getConstantIntValue(ub));
      }
      if (auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp()))
        return loop.getUpperBound();
    }
    return Value();
  }

  /// Whether iv's values fit a signed `width`-bit integer (so truncating it
  /// to that type and extending back gives iv): its loop starts at a
  /// non-negative constant and its bound is an extension of a narrower value.
  bool fitsIn(Value iv, unsigned width) {
    auto arg = cast<BlockArgument>(iv);
    if (auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp())) {
      std::optional<int64_t> lb = getConstantIntValue(loop.getLowerBound());
      if (!lb || *lb < 0)
        return false;
    }
    Value ub = upperBound(iv);
    if (!ub)
      return false;
    if (std::optional<int64_t> c = getConstantIntValue(ub))
      return width >= 64 || *c <= (int64_t(1) << (width - 1));
    Operation *ext = ub.getDefiningOp();
    if (!isa_and_nonnull<arith::IndexCastOp, arith::ExtSIOp>(ext))
      return false;
    Type from = ext->getOperand(0).getType();
    return from.isIntOrIndex() && !from.isIndex() && from.getIntOrFloatBitWidth() <= width;
  }

  /// `v` recomputed before the forall (pure ops only), as an index.
  FailureOr<Value> materialize(Value v, Ext ext) {
    Value available = clone(v);
    if (!available)
      return failure();
    if (available.getType().isIndex())
      return available;
    if (ext == Ext::Zero)
      return b.createOrFold<arith::IndexCastUIOp>(v.getLoc(), b.getIndexType(), available);
    return b.createOrFold<arith::IndexCastOp>(v.getLoc(), b.getIndexType(), available);
  }
  Value clone(Value v) {
    if (dom.properlyDominates(v, forall))
      return v;
    Operation *op = v.getDefiningOp();
    if (!op || op->getNumRegions() || !isPure(op) || isVariable(v))
      return Value();
    IRMapping map;
    for (Value operand : op->getOperands()) {
      Value c = clone(operand);
      if (!c)
        return Value();
      map.map(operand, c);
    }
    return b.clone(*op, map)->getResult(cast<OpResult>(v).getResultNumber());
  }

  bool dependsOnVariable(Value v) {
    if (isVariable(v))
      return true;
    if (dom.properlyDominates(v, forall))
      return false;
    Operation *op = v.getDefiningOp();
    if (!op)
      return true; // a block argument inside the forall: a loop-carried value
    return llvm::any_of(op->getOperands(), [&](Value o) { return dependsOnVariable(o); });
  }

  Value add(Value x, Value y) {
    if (!x) return y;
    if (!y) return x;
    return b.createOrFold<arith::AddIOp>(forall.getLoc(), x, y);
  }
  // (Folded as they are built: whether the offset is a constant, and its
  // sign, is decided on them.)
  Value mul(Value x, Value y) { return b.createOrFold<arith::MulIOp>(forall.getLoc(), x, y); }
  Value neg(Value x) {
    return b.createOrFold<arith::SubIOp>(
        forall.getLoc(), arith::ConstantIndexOp::create(b, forall.getLoc(), 0), x);
  }

  /// Whether a narrow add/sub/mul extends through: the flag that makes
  /// ext(a op b) = ext(a) op ext(b).
  bool extendsThrough(Operation *op, Ext ext) {
    Type t = op->getResult(0).getType();
    if (t.isIndex() || t.getIntOrFloatBitWidth() >= 64)
      return true;
    auto flags = cast<arith::ArithIntegerOverflowFlagsInterface>(op).getOverflowAttr().getValue();
    return bitEnumContainsAll(flags, ext == Ext::Sign ? arith::IntegerOverflowFlags::nsw
                                                      : arith::IntegerOverflowFlags::nuw);
  }

  FailureOr<Linear> decompose(Value v, Ext ext);
};

FailureOr<Linear> ViewBuilder::decompose(Value v, Ext ext) {
  Location loc = forall.getLoc();
  if (isVariable(v)) {
    Linear l;
    l.terms[v] = arith::ConstantIndexOp::create(b, loc, 1);
    return l;
  }
  if (!dependsOnVariable(v)) {
    FailureOr<Value> c = materialize(v, ext);
    if (failed(c))
      return fail("an invariant part of the index is computed with side effects or in a region");
    Linear l;
    l.constant = *c;
    return l;
  }
  Operation *op = v.getDefiningOp();
  if (!op)
    return fail("the index depends on a value carried by a loop");
  unsigned width = v.getType().isIndex() ? 64 : v.getType().getIntOrFloatBitWidth();
  // A loop variable truncated to its source type: the variable itself.
  if (auto cast = dyn_cast<arith::IndexCastOp>(op); cast && !v.getType().isIndex()) {
    if (isVariable(cast.getIn()) && fitsIn(cast.getIn(), width))
      return decompose(cast.getIn(), ext);
    return fail("the index truncates a 64-bit value");
  }
  if (isa<arith::IndexCastOp, arith::ExtSIOp>(op)) {
    unsigned from = op->getOperand(0).getType().getIntOrFloatBitWidth();
    if (width < 64 && ext == Ext::Zero && from < width)
      return fail("a sign extension inside a zero extension");
    return decompose(op->getOperand(0), Ext::Sign);
  }
  if (isa<arith::IndexCastUIOp, arith::ExtUIOp>(op))
    return decompose(op->getOperand(0), Ext::Zero);
  if (isa<arith::AddIOp, arith::SubIOp>(op)) {
    if (!extendsThrough(op, ext))
      return fail(std::string("the index is computed with ") + op->getName().getStringRef().str() +
                  " at " + std::to_string(width) + " bits without " +
                  (ext == Ext::Sign ? "nsw" : "nuw") + ", which may wrap");
    FailureOr<Linear> x = decompose(op->getOperand(0), ext);
    if (failed(x))
      return failure();
    FailureOr<Linear> y = decompose(op->getOperand(1), ext);
    if (failed(y))
      return failure();
    bool subtract = isa<arith::SubIOp>(op);
    for (auto [var, coef] : y->terms) {
      Value c = subtract ? neg(coef) : coef;
      x->terms[var] = x->terms.count(var) ? add(x->terms[var], c) : c;
    }
    if (y->constant)
      x->constant = add(x->constant, subtract ? neg(y->constant) : y->constant);
    return x;
  }
  if (auto m = dyn_cast<arith::MulIOp>(op)) {
    if (!extendsThrough(op, ext))
      return fail(std::string("the index is multiplied at ") + std::to_string(width) +
                  " bits without " + (ext == Ext::Sign ? "nsw" : "nuw") + ", which may wrap");
    Value lhs = m.getLhs(), rhs = m.getRhs();
    if (dependsOnVariable(lhs) && dependsOnVariable(rhs))
      return fail("the index multiplies two loop variables");
    if (dependsOnVariable(rhs))
      std::swap(lhs, rhs);
    FailureOr<Linear> x = decompose(lhs, ext);
    if (failed(x))
      return failure();
    FailureOr<Value> factor = materialize(rhs, ext);
    if (failed(factor))
      return fail("a stride is computed with side effects or in a region");
    for (auto &[var, coef] : x->terms)
      coef = mul(coef, *factor);
    if (x->constant)
      x->constant = mul(x->constant, *factor);
    return x;
  }
  return fail(std::string("the index is computed by '") + op->getName().getStringRef().str() +
              "', which is not an add, sub or multiply by an invariant");
}

LogicalResult ViewBuilder::rewrite(Operation *access, std::string &reason) {
  auto load = dyn_cast<memref::LoadOp>(access);
  auto store = dyn_cast<memref::StoreOp>(access);
  Value base = load ? load.getMemRef() : store.getMemRef();
  Value index = load ? load.getIndices()[0] : store.getIndices()[0];
  Location loc = access->getLoc();
  b.setInsertionPoint(forall);
  FailureOr<Linear> linear = decompose(index, Ext::Sign);
  if (failed(linear)) {
    reason = why;
    return failure();
  }
  if (linear->terms.empty()) {
    reason = "the index does not depend on a loop variable";
    return failure();
  }
  // Dimensions in loop-nest order, the ones with a constant unit stride last.
  SmallVector<Value> dims;
  for (Value v : variables)
    if (linear->terms.count(v) && getConstantIntValue(linear->terms[v]) != 1)
      dims.push_back(v);
  for (Value v : variables)
    if (linear->terms.count(v) && getConstantIntValue(linear->terms[v]) == 1)
      dims.push_back(v);
  SmallVector<OpFoldResult> sizes, strides;
  SmallVector<int64_t> staticStrides, shape;
  for (Value v : dims) {
    Value ub = upperBound(v);
    if (ub && !dom.properlyDominates(ub, forall))
      ub = clone(ub); // an invariant bound computed inside the forall
    if (!ub) {
      reason = "the range of a loop variable depends on the output index";
      return failure();
    }
    std::optional<int64_t> size = getConstantIntValue(ub);
    sizes.push_back(size ? OpFoldResult(b.getIndexAttr(*size)) : OpFoldResult(ub));
    shape.push_back(size ? *size : ShapedType::kDynamic);
    Value stride = linear->terms[v];
    std::optional<int64_t> s = getConstantIntValue(stride);
    strides.push_back(s ? OpFoldResult(b.getIndexAttr(*s)) : OpFoldResult(stride));
    staticStrides.push_back(s ? *s : ShapedType::kDynamic);
  }
  std::optional<int64_t> off = linear->constant ? getConstantIntValue(linear->constant) : 0;
  // A view cannot start before its buffer (a stencil's in[i * m + j - 1]):
  // a negative constant offset moves into the indices of the dimensions of
  // constant stride, outer first (view[i, j - 1]; with m = 1024 and
  // in[(i - 1) * 1024 + j], view[i - 1, j]), which address the same
  // element. (A dynamic offset that is negative at run time, -m, stays: the
  // address is the same, and no verifier sees it.)
  SmallVector<int64_t> shifts(dims.size(), 0);
  if (off && *off < 0) {
    int64_t rest = *off;
    for (auto [d, stride] : llvm::enumerate(staticStrides))
      if (stride != ShapedType::kDynamic && stride > 0) {
        shifts[d] = rest / stride;
        rest -= shifts[d] * stride;
      }
    if (rest != 0) {
      reason = "the index has a negative constant offset the view's constant strides cannot take";
      return failure();
    }
    off = 0;
  }
  OpFoldResult offset = off ? OpFoldResult(b.getIndexAttr(*off)) : OpFoldResult(linear->constant);
  auto baseType = cast<MemRefType>(base.getType());
  auto layout = StridedLayoutAttr::get(b.getContext(), off ? *off : ShapedType::kDynamic,
                                       staticStrides);
  auto viewType = MemRefType::get(shape, baseType.getElementType(), layout,
                                  baseType.getMemorySpace());
  auto view = memref::ReinterpretCastOp::create(b, loc, viewType, base, offset, sizes, strides);
  OpBuilder at(access);
  SmallVector<Value> indices(dims);
  for (auto [index, shift] : llvm::zip(indices, shifts))
    if (shift)
      index = arith::AddIOp::create(at, loc, index, arith::ConstantIndexOp::create(at, loc, shift));
  if (load) {
    auto replacement = memref::LoadOp::create(at, loc, view, indices);
    replacement->setDiscardableAttrs(load->getDiscardableAttrDictionary());
    load.replaceAllUsesWith(replacement.getResult());
  } else {
    auto replacement = memref::StoreOp::create(at, loc, store.getValueToStore(), view, indices);
    replacement->setDiscardableAttrs(store->getDiscardableAttrDictionary());
  }
  access->erase();
  return success();
}

/// Whether `v` is a 1-D buffer argument of `kernel`.
bool isFlatBufferArgument(Value v, gpu::GPUFuncOp kernel) {
  auto arg = dyn_cast<BlockArgument>(v);
  auto type = dyn_cast<MemRefType>(v.getType());
  return arg && arg.getOwner() == &kernel.getBody().front() &&
         arg.getArgNumber() < kernel.getFunctionType().getNumInputs() && type &&
         type.getRank() == 1 && type.getLayout().isIdentity();
}

struct RaiseStridedViewsPass : ks::impl::KSRaiseStridedViewsBase<RaiseStridedViewsPass> {
  using Base::Base;
  void runOnOperation() override {
    getOperation().walk([&](gpu::GPUFuncOp kernel) {
      if (!kernel->hasAttr(kRaisedAttrName))
        return;
      SmallVector<std::pair<Operation *, std::string>> refusals;
      raiseStridedViews(kernel, refusals);
      if (remarks)
        for (auto &[op, why] : refusals)
          op->emitRemark() << "ks-raise-strided-views: left flat: " << why;
    });
  }
};
} // namespace

unsigned mlir::ks::raiseStridedViews(gpu::GPUFuncOp kernel,
                                     SmallVectorImpl<std::pair<Operation *, std::string>> &refusals) {
  unsigned raised = 0;
  SmallVector<scf::ForallOp> foralls;
  kernel.walk([&](scf::ForallOp f) { foralls.push_back(f); });
  for (scf::ForallOp forall : foralls) {
    SmallVector<Operation *> accesses;
    forall.walk([&](Operation *op) {
      if (auto load = dyn_cast<memref::LoadOp>(op); load && isFlatBufferArgument(load.getMemRef(), kernel))
        accesses.push_back(op);
      if (auto store = dyn_cast<memref::StoreOp>(op); store && isFlatBufferArgument(store.getMemRef(), kernel))
        accesses.push_back(op);
    });
    ViewBuilder builder(forall, kernel);
    for (Operation *access : accesses) {
      std::string why;
      if (succeeded(builder.rewrite(access, why)))
        ++raised;
      else
        refusals.push_back({access, why});
    }
  }
  // Index arithmetic the views replaced, and the partial results of refused
  // decompositions.
  eraseUnusedPureOps(kernel);
  if (raised)
    detachOpFacts(kernel);
  return raised;
}
