//===- SinkBranchStores.h - One store after an if that stores either way --===//
//
// `scf.if %c { ...; memref.store %a, %m[%i] } else { ...; memref.store %b,
// %m[%i] }` becomes `%v = scf.if %c -> T { ...; yield %a } else { ...;
// yield %b }; memref.store %v, %m[%i]`. Used by the `ks-sink-branch-stores`
// pass of the lowering and by the grid mapping (which needs a body's stores
// at its end before it splits the body into two phases).
//
//===----------------------------------------------------------------------===//
#ifndef KERNELSKILL_TRANSFORMS_SINKBRANCHSTORES_H
#define KERNELSKILL_TRANSFORMS_SINKBRANCHSTORES_H

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::ks {

/// Moves the store that ends both branches of `ifOp` after it, the branches
/// yielding the stored values, when the two stores write the same element:
/// the same memref and index values (defined outside the if), the same
/// `nontemporal` flag and alignment (both kept). Returns the new if, or
/// failure with the IR unchanged.
FailureOr<scf::IfOp> sinkStoresOutOfIf(RewriterBase &rewriter, scf::IfOp ifOp);

/// sinkStoresOutOfIf on every `scf.if` in `block` and in the regions it
/// holds, inside out. Returns whether a store moved.
bool sinkCommonStores(Block &block);

} // namespace mlir::ks

#endif // KERNELSKILL_TRANSFORMS_SINKBRANCHSTORES_H
