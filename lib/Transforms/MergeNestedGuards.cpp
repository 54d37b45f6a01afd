//===- MergeNestedGuards.cpp - One bounds check instead of nested ones ----===//
//
// `if (row < rows) { if (col < cols) work }` — and its spellings with an
// early return, `if (row >= rows) {} else { ... }` — becomes `if (row <
// rows && col < cols) work` at a kernel's top level (Passes.td says when):
// ks-raise-iteration-space reads one guard, a conjunction of `index <
// bound` tests. Upstream's scf.if canonicalizations combine nested ifs only
// when the outer one holds nothing but the inner (CombineNestedIfs), not
// across the pure ops that compute the inner condition nor an empty
// then-branch.
//
//===----------------------------------------------------------------------===//

#include "kernelskill/Transforms/KernelLaunch.h"
#include "kernelskill/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::ks {
#define GEN_PASS_DEF_KSMERGENESTEDGUARDS
#include "kernelskill/Transforms/Passes.h.inc"
} // namespace mlir::ks

using namespace mlir;

namespace {

/// The condition under which `ifOp` runs its work branch.
Value workCondition(OpBuilder &b, scf::IfOp ifOp, bool inElse) {
  Value cond = ifOp.getCondition();
  if (!inElse)
    return cond;
  Value allOnes = arith::ConstantIntOp::create(b, ifOp.getLoc(), b.getI1Type(), 1);
  return arith::XOrIOp::create(b, ifOp.getLoc(), cond, allOnes);
}

/// Merges `outer` with the one guard its work branch holds, beside pure
/// ops only; returns the merged guard, or null when they do not merge.
scf::IfOp mergeOnce(scf::IfOp outer) {
  bool outerInElse = false;
  Block *work = ks::guardedBranch(outer, &outerInElse);
  if (!work)
    return {};
  scf::IfOp inner;
  for (Operation &op : work->without_terminator()) {
    if (auto nested = dyn_cast<scf::IfOp>(op); nested && !inner && ks::guardedBranch(nested)) {
      inner = nested;
      continue;
    }
    // Hoisted above the outer check: it must run safely whatever the check
    // says (no division that may trap, no memory access).
    if (!isPure(&op) || op.getNumRegions())
      return {};
  }
  if (!inner)
    return {};
  bool innerInElse = false;
  Block *innerWork = ks::guardedBranch(inner, &innerInElse);
  OpBuilder b(outer);
  Value first = workCondition(b, outer, outerInElse);
  for (Operation &op : llvm::make_early_inc_range(work->without_terminator()))
    if (&op != inner.getOperation())
      op.moveBefore(outer);
  Value second = workCondition(b, inner, innerInElse);
  Value both = arith::AndIOp::create(b, outer.getLoc(), first, second);
  auto merged = scf::IfOp::create(b, outer.getLoc(), both, /*withElseRegion=*/false);
  Block *then = merged.thenBlock();
  then->getOperations().splice(then->getTerminator()->getIterator(), innerWork->getOperations(),
                               innerWork->begin(), innerWork->getTerminator()->getIterator());
  outer.erase();
  return merged;
}

struct MergeNestedGuards : ks::impl::KSMergeNestedGuardsBase<MergeNestedGuards> {
  void runOnOperation() override {
    getOperation()->walk([&](gpu::GPUFuncOp kernel) {
      if (!kernel.isKernel())
        return;
      for (auto ifOp : llvm::make_early_inc_range(kernel.getBody().front().getOps<scf::IfOp>()))
        for (scf::IfOp merged = mergeOnce(ifOp); merged; merged = mergeOnce(merged)) {
        }
    });
  }
};

} // namespace
