//===- Int32Offsets.cpp - 32-bit address arithmetic where the source had it ===//
//
// ks-mark-int32-offsets finds the buffers a lifted kernel indexes only with
// C `int` subscripts; ks-narrow-offsets, in the lowering, computes the
// offsets of their accesses in i32 (Passes.td says why that is exact).
//
//===----------------------------------------------------------------------===//

#include "kernelskill/Transforms/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "llvm/ADT/DenseMap.h"

namespace mlir::ks {
#define GEN_PASS_DEF_KSMARKINT32OFFSETS
#define GEN_PASS_DEF_KSNARROWOFFSETS
#include "kernelskill/Transforms/Passes.h.inc"
} // namespace mlir::ks

using namespace mlir;

static constexpr StringLiteral kInt32Offsets = "ks.int32_offsets";

namespace {

/// Whether `index` is the source's `int` subscript: a signed index_cast of
/// an i32, or a constant that fits in one.
bool isInt32Subscript(Value index) {
  if (auto cast = index.getDefiningOp<arith::IndexCastOp>())
    return cast.getIn().getType().isInteger(32);
  APInt c;
  return matchPattern(index, m_ConstantInt(&c)) && c.isSignedIntN(32);
}

struct MarkInt32Offsets : ks::impl::KSMarkInt32OffsetsBase<MarkInt32Offsets> {
  void runOnOperation() override {
    getOperation().walk([](gpu::GPUFuncOp kernel) {
      if (!kernel.isKernel())
        return;
      // The function's arguments, not the shared-memory attributions after them.
      for (BlockArgument arg : kernel.getArguments().take_front(kernel.getNumArguments())) {
        if (!isa<MemRefType>(arg.getType()))
          continue;
        bool allInt32 = llvm::all_of(arg.getUses(), [](OpOperand &use) {
          Operation *user = use.getOwner();
          if (auto load = dyn_cast<memref::LoadOp>(user))
            return llvm::all_of(load.getIndices(), isInt32Subscript);
          if (auto store = dyn_cast<memref::StoreOp>(user))
            return &use == &store.getMemrefMutable() &&
                   llvm::all_of(store.getIndices(), isInt32Subscript);
          return false;
        });
        if (allInt32 && !arg.use_empty())
          kernel.setArgAttr(arg.getArgNumber(), kInt32Offsets, UnitAttr::get(kernel.getContext()));
      }
    });
  }
};

/// Builds the i32 counterparts of index values, each right after the value's
/// definition, so that every use the original dominates, the copy does too.
class Narrower {
public:
  explicit Narrower(MLIRContext *context) : b(context) {}

  Value narrow(Value v) {
    // trunc(sext(x)) = trunc(zext(x)) = x. Not cached: x may be the result
    // of an access the pass replaces.
    if (auto cast = v.getDefiningOp<arith::IndexCastOp>();
        cast && cast.getIn().getType().isInteger(32))
      return cast.getIn();
    if (auto cast = v.getDefiningOp<arith::IndexCastUIOp>();
        cast && cast.getIn().getType().isInteger(32))
      return cast.getIn();
    if (Value done = cache.lookup(v))
      return done;
    Value result = build(v);
    cache[v] = result;
    return result;
  }

private:
  OpBuilder b;
  llvm::DenseMap<Value, Value> cache;

  void setInsertionAfter(Value v) {
    if (Operation *def = v.getDefiningOp())
      b.setInsertionPointAfter(def);
    else
      b.setInsertionPointToStart(cast<BlockArgument>(v).getOwner());
  }

  Value build(Value v) {
    Type i32 = b.getI32Type();
    Location loc = v.getLoc();
    APInt c;
    if (matchPattern(v, m_ConstantInt(&c))) {
      setInsertionAfter(v);
      return arith::ConstantIntOp::create(b, loc, i32, c.trunc(32).getSExtValue());
    }
    Operation *def = v.getDefiningOp();
    // Ring operations commute with reduction modulo 2^32: rebuild them in
    // i32, without overflow flags (the copy must wrap).
    if (isa_and_nonnull<arith::AddIOp, arith::SubIOp, arith::MulIOp, arith::ShLIOp>(def) &&
        (!isa<arith::ShLIOp>(def) || isSmallShift(def->getOperand(1)))) {
      Value lhs = narrow(def->getOperand(0)), rhs = narrow(def->getOperand(1));
      setInsertionAfter(v);
      if (isa<arith::AddIOp>(def))
        return arith::AddIOp::create(b, loc, lhs, rhs);
      if (isa<arith::SubIOp>(def))
        return arith::SubIOp::create(b, loc, lhs, rhs);
      if (isa<arith::MulIOp>(def))
        return arith::MulIOp::create(b, loc, lhs, rhs);
      return arith::ShLIOp::create(b, loc, lhs, rhs);
    }
    // Anything else (a division, a select, a loop variable) is computed in
    // 64 bits as before and truncated.
    setInsertionAfter(v);
    return arith::IndexCastOp::create(b, loc, i32, v);
  }

  /// x << k agrees modulo 2^32 only while k < 32.
  static bool isSmallShift(Value amount) {
    APInt k;
    return matchPattern(amount, m_ConstantInt(&k)) && k.ult(32);
  }
};

/// Whether `v` changes from one iteration of an enclosing loop to the next:
/// it is, or is computed from, a loop's block argument (induction variable,
/// iteration argument) or the result of an op with regions inside a loop
/// (an scf.if's yield may carry either). Values defined in a loop from
/// loop-invariant operands only are not loop-varying.
class LoopVariance {
public:
  bool isLoopVarying(Value v) {
    if (auto it = known.find(v); it != known.end())
      return it->second;
    bool varying = compute(v);
    known[v] = varying;
    return varying;
  }

private:
  llvm::DenseMap<Value, bool> known;

  bool compute(Value v) {
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      Operation *owner = arg.getOwner()->getParentOp();
      return isa<LoopLikeOpInterface>(owner) || owner->getParentOfType<LoopLikeOpInterface>();
    }
    Operation *def = v.getDefiningOp();
    if (def->getNumRegions() != 0)
      return def->getParentOfType<LoopLikeOpInterface>() != nullptr;
    return llvm::any_of(def->getOperands(), [&](Value operand) { return isLoopVarying(operand); });
  }
};

/// The buffer an access reaches and the view's offset and strides, when the
/// accessed memref is a marked kernel argument or a reinterpret_cast of one.
struct View {
  Value buffer;
  OpFoldResult offset;
  SmallVector<OpFoldResult> strides;
};

std::optional<View> viewOf(Value memref, MLIRContext *context) {
  auto marked = [](Value v) {
    auto arg = dyn_cast<BlockArgument>(v);
    if (!arg)
      return false;
    auto kernel = dyn_cast<gpu::GPUFuncOp>(arg.getOwner()->getParentOp());
    // The entry block's arguments after the function's are workgroup and
    // private attributions (shared memory), which carry no argument attributes.
    return kernel && kernel.isKernel() && arg.getOwner() == &kernel.getBody().front() &&
           arg.getArgNumber() < kernel.getNumArguments() &&
           kernel.getArgAttr(arg.getArgNumber(), kInt32Offsets);
  };
  Builder b(context);
  if (marked(memref) && cast<MemRefType>(memref.getType()).getRank() == 1)
    return View{memref, b.getIndexAttr(0), {b.getIndexAttr(1)}};
  auto cast = memref.getDefiningOp<memref::ReinterpretCastOp>();
  if (!cast || !marked(cast.getSource()))
    return std::nullopt;
  SmallVector<OpFoldResult> offsets = cast.getMixedOffsets();
  if (offsets.size() != 1)
    return std::nullopt;
  return View{cast.getSource(), offsets.front(), cast.getMixedStrides()};
}

struct NarrowOffsets : ks::impl::KSNarrowOffsetsBase<NarrowOffsets> {
  using Base::Base;

  void runOnOperation() override {
    MLIRContext *context = &getContext();
    SmallVector<Operation *> accesses;
    getOperation().walk([&](Operation *op) {
      if (isa<memref::LoadOp, memref::StoreOp, vector::LoadOp, vector::StoreOp>(op))
        accesses.push_back(op);
    });
    Narrower narrower(context);
    LoopVariance variance;
    for (Operation *op : accesses)
      rewrite(op, narrower, variance);
  }

  void rewrite(Operation *op, Narrower &narrower, LoopVariance &variance) {
    Value memref;
    ValueRange indices;
    if (auto load = dyn_cast<memref::LoadOp>(op))
      memref = load.getMemRef(), indices = load.getIndices();
    else if (auto store = dyn_cast<memref::StoreOp>(op))
      memref = store.getMemRef(), indices = store.getIndices();
    else if (auto load = dyn_cast<vector::LoadOp>(op))
      memref = load.getBase(), indices = load.getIndices();
    else if (auto store = dyn_cast<vector::StoreOp>(op))
      memref = store.getBase(), indices = store.getIndices();
    std::optional<View> view = viewOf(memref, op->getContext());
    if (!view || view->strides.size() != indices.size())
      return;
    // A vector access runs along the innermost dimension: contiguous in the
    // buffer only where that dimension's stride is 1.
    bool isVector = isa<vector::LoadOp, vector::StoreOp>(op);
    if (isVector && getConstantIntValue(view->strides.back()) != 1)
      return;
    // In a loop, LLVM's strength reduction turns a 64-bit offset that
    // advances with the loop into a pointer increment; a wrapping i32 offset
    // sign-extended in the loop defeats it, and measured slower on the H200
    // (softmax row_warp 0.96 -> 0.66 of the copy, Passes.td).
    // An access a transform marked (its walk advances by a runtime stride:
    // no displacement to fold) is narrowed in loops too.
    if (!narrowLoopOffsets && !op->hasAttr(ks::kInt32LoopOffsetsAttrName) &&
        llvm::any_of(indices, [&](Value index) { return variance.isLoopVarying(index); }))
      return;
    OpBuilder b(op);
    Location loc = op->getLoc();
    auto narrowFold = [&](OpFoldResult f) -> Value {
      if (auto v = dyn_cast<Value>(f))
        return narrower.narrow(v);
      return arith::ConstantIntOp::create(b, loc, b.getI32Type(),
                                          cast<IntegerAttr>(cast<Attribute>(f)).getInt());
    };
    // The narrowed values are built after their definitions: reset to the
    // access each time.
    auto atOp = [&] { b.setInsertionPoint(op); };
    // Subscript terms first, the view's offset last: views of one buffer
    // that differ only in their offset (a stencil's neighbours) then share
    // the sum of the terms after CSE.
    Value offset;
    for (auto [index, stride] : llvm::zip(indices, view->strides)) {
      Value i = narrower.narrow(index);
      atOp();
      Value term = getConstantIntValue(stride) == 1
                       ? i
                       : arith::MulIOp::create(b, loc, i, narrowFold(stride)).getResult();
      atOp();
      offset = offset ? arith::AddIOp::create(b, loc, offset, term).getResult() : term;
    }
    if (std::optional<int64_t> c = getConstantIntValue(view->offset); !offset || c != 0) {
      Value viewOffset = narrowFold(view->offset);
      atOp();
      offset = offset ? arith::AddIOp::create(b, loc, offset, viewOffset).getResult() : viewOffset;
    }
    atOp();
    Value linear = arith::IndexCastOp::create(b, loc, b.getIndexType(), offset);
    Operation *replacement;
    if (auto load = dyn_cast<memref::LoadOp>(op))
      replacement = memref::LoadOp::create(b, loc, view->buffer, ValueRange{linear});
    else if (auto store = dyn_cast<memref::StoreOp>(op))
      replacement =
          memref::StoreOp::create(b, loc, store.getValueToStore(), view->buffer, ValueRange{linear});
    else if (auto load = dyn_cast<vector::LoadOp>(op))
      replacement =
          vector::LoadOp::create(b, loc, load.getVectorType(), view->buffer, ValueRange{linear});
    else
      replacement = vector::StoreOp::create(b, loc, cast<vector::StoreOp>(op).getValueToStore(),
                                            view->buffer, ValueRange{linear});
    // Keep what else the access carried (alignment, nontemporal, ks marks).
    replacement->setAttrs(op->getAttrDictionary());
    replacement->removeAttr(ks::kInt32LoopOffsetsAttrName);
    op->replaceAllUsesWith(replacement);
    op->erase();
  }
};

} // namespace
