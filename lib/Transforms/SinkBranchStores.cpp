//===- SinkBranchStores.cpp - One store after an if that stores either way -===//
//
// `scf.if %c { ...; memref.store %a, %m[%i] } else { ...; memref.store %b,
// %m[%i] }` becomes `%v = scf.if %c -> T { ...; yield %a } else { ...;
// yield %b }; memref.store %v, %m[%i]` (Passes.td says why). Upstream's
// canonicalizations move no side effects out of scf.if regions, and LLVM's
// own sinking of the two stores keeps a phi of two addresses computed
// apart, hence this pattern.
//
//===----------------------------------------------------------------------===//

#include "kernelskill/Transforms/SinkBranchStores.h"
#include "kernelskill/Transforms/Passes.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::ks {
#define GEN_PASS_DEF_KSSINKBRANCHSTORES
#include "kernelskill/Transforms/Passes.h.inc"
} // namespace mlir::ks

using namespace mlir;

namespace {
/// The store that ends `block` (the last op before its terminator), if any.
memref::StoreOp endingStore(Block &block) {
  if (block.getOperations().size() < 2)
    return {};
  return dyn_cast<memref::StoreOp>(*std::prev(block.getTerminator()->getIterator()));
}

} // namespace

FailureOr<scf::IfOp> mlir::ks::sinkStoresOutOfIf(RewriterBase &rewriter, scf::IfOp ifOp) {
  if (ifOp.getElseRegion().empty())
    return failure();
  memref::StoreOp thenStore = endingStore(ifOp.getThenRegion().front());
  memref::StoreOp elseStore = endingStore(ifOp.getElseRegion().front());
  if (!thenStore || !elseStore)
    return failure();
  // The same element: the same memref and index values, from outside.
  auto outside = [&](Value v) { return !ifOp->isAncestor(v.getParentBlock()->getParentOp()); };
  if (thenStore.getMemRef() != elseStore.getMemRef() ||
      thenStore.getIndices() != elseStore.getIndices() ||
      thenStore.getNontemporal() != elseStore.getNontemporal() ||
      thenStore.getAlignment() != elseStore.getAlignment() || !outside(thenStore.getMemRef()) ||
      !llvm::all_of(thenStore.getIndices(), outside))
    return failure();

  Value memref = thenStore.getMemRef();
  SmallVector<Value> indices(thenStore.getIndices());
  Location loc = thenStore.getLoc();
  bool nontemporal = thenStore.getNontemporal();
  std::optional<uint64_t> alignment = thenStore.getAlignment();
  SmallVector<Type> types(ifOp.getResultTypes());
  types.push_back(thenStore.getValueToStore().getType());
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(ifOp);
  auto merged = scf::IfOp::create(rewriter, ifOp.getLoc(), types, ifOp.getCondition(),
                                  /*addThenBlock=*/false, /*addElseBlock=*/false);
  for (auto [from, to] : {std::pair(&ifOp.getThenRegion(), &merged.getThenRegion()),
                          std::pair(&ifOp.getElseRegion(), &merged.getElseRegion())}) {
    rewriter.inlineRegionBefore(*from, *to, to->end());
    Block &block = to->front();
    auto yield = cast<scf::YieldOp>(block.getTerminator());
    memref::StoreOp store = endingStore(block);
    SmallVector<Value> values(yield.getOperands());
    values.push_back(store.getValueToStore());
    rewriter.setInsertionPoint(yield);
    rewriter.replaceOpWithNewOp<scf::YieldOp>(yield, values);
    rewriter.eraseOp(store);
  }
  rewriter.setInsertionPointAfter(merged);
  memref::StoreOp::create(rewriter, loc, merged.getResults().back(), memref, indices, nontemporal,
                          llvm::MaybeAlign(alignment.value_or(0)));
  rewriter.replaceOp(ifOp, merged.getResults().drop_back());
  return merged;
}

bool mlir::ks::sinkCommonStores(Block &block) {
  bool changed = false;
  for (Operation &op : block)
    for (Region &region : op.getRegions())
      for (Block &inner : region)
        changed |= sinkCommonStores(inner);
  IRRewriter rewriter(block.getParent()->getContext());
  for (scf::IfOp ifOp : llvm::make_early_inc_range(block.getOps<scf::IfOp>())) {
    // As the pass's greedy driver does: again on the new if, while both of
    // its branches still end storing to one element.
    for (FailureOr<scf::IfOp> merged = sinkStoresOutOfIf(rewriter, ifOp); succeeded(merged);
         merged = sinkStoresOutOfIf(rewriter, *merged))
      changed = true;
  }
  return changed;
}

namespace {
struct SinkStoresOutOfIf : OpRewritePattern<scf::IfOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(scf::IfOp ifOp, PatternRewriter &rewriter) const override {
    return failure(failed(ks::sinkStoresOutOfIf(rewriter, ifOp)));
  }
};

struct SinkBranchStores : ks::impl::KSSinkBranchStoresBase<SinkBranchStores> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<SinkStoresOutOfIf>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
