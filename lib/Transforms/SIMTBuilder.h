//===- SIMTBuilder.h - Building SIMT kernel code ----------------*- C++ -*-===//
//
// Small helpers the contraction code generators share: index arithmetic
// with constants folded, loops marked for unrolling, guarded loads, the
// coordinates of an iteration point, epilogue cloning and the launch
// rewrite. Private to lib/Transforms.
//
//===----------------------------------------------------------------------===//
#ifndef KERNELSKILL_LIB_TRANSFORMS_SIMTBUILDER_H
#define KERNELSKILL_LIB_TRANSFORMS_SIMTBUILDER_H

#include "kernelskill/Transforms/Contraction.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"

#include <functional>

namespace mlir::ks {

class SIMTBuilder {
public:
  SIMTBuilder(OpBuilder &b, Location loc) : b(b), loc(loc) {}

  OpBuilder &b;
  Location loc;

  Value c(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value add(Value x, Value y);
  Value add(Value x, int64_t y) { return y == 0 ? x : add(x, c(y)); }
  Value sub(Value x, Value y) { return arith::SubIOp::create(b, loc, x, y); }
  Value mul(Value x, Value y);
  Value mul(Value x, int64_t y) { return y == 1 ? x : mul(x, c(y)); }
  Value div(Value x, int64_t y) { return y == 1 ? x : arith::DivUIOp::create(b, loc, x, c(y)).getResult(); }
  Value rem(Value x, int64_t y) { return arith::RemUIOp::create(b, loc, x, c(y)); }
  Value divu(Value x, Value y) { return arith::DivUIOp::create(b, loc, x, y); }
  Value remu(Value x, Value y) { return arith::RemUIOp::create(b, loc, x, y); }
  Value ceilDiv(Value x, int64_t y) { return arith::CeilDivUIOp::create(b, loc, x, c(y)); }
  Value minu(Value x, Value y) { return arith::MinUIOp::create(b, loc, x, y); }
  Value lt(Value x, Value y) { return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, x, y); }
  Value lt(Value x, int64_t y) { return lt(x, c(y)); }
  Value andi(Value x, Value y) {
    if (!x)
      return y;
    return arith::AndIOp::create(b, loc, x, y);
  }
  Value zero(Type t) { return arith::ConstantOp::create(b, loc, b.getZeroAttr(t)); }

  /// for (iv = lb; iv < ub; iv += step) body(iv), marked for full unrolling
  /// when `unroll`.
  scf::ForOp loop(Value lb, Value ub, Value step, bool unroll,
                  const std::function<void(Value)> &body);
  scf::ForOp loop(int64_t lb, int64_t ub, int64_t step, bool unroll,
                  const std::function<void(Value)> &body) {
    return loop(c(lb), c(ub), c(step), unroll, body);
  }
  /// if (cond) then() [else otherwise()], yielding `types`.
  ValueRange ifElse(Value cond, TypeRange types, const std::function<SmallVector<Value>()> &then,
                    const std::function<SmallVector<Value>()> &otherwise);
  void ifThen(Value cond, const std::function<void()> &then);

  /// The product of `sizes`.
  Value product(ArrayRef<Value> sizes);
  /// The coordinates of `linear` over the dimensions `dims` (sizes from
  /// `sizes`), the last dimension varying fastest, into `coords`.
  void delinearize(Value linear, ArrayRef<unsigned> dims, ArrayRef<Value> sizes,
                   llvm::DenseMap<unsigned, Value> &coords);
  /// The indices of `operand` at the iteration point `coords`.
  SmallVector<Value> indicesOf(const ContractionOperand &operand,
                               const llvm::DenseMap<unsigned, Value> &coords);
};

/// The epilogue's value at one output element: `acc` (the reduction's
/// value there) through the epilogue's region, its other inputs loaded at
/// `coords`; `acc` itself without an epilogue.
Value emitEpilogue(SIMTBuilder &sb, const ContractionProblem &p, Value acc,
                   const llvm::DenseMap<unsigned, Value> &coords);

/// The epilogue's value `v` (a value of its region that does not depend on
/// the reduction) at one output element, its inputs loaded at `coords`.
Value emitEpilogueValue(SIMTBuilder &sb, const ContractionProblem &p, Value v,
                        const llvm::DenseMap<unsigned, Value> &coords);

/// An epilogue `alpha * acc + offset` (no epilogue: alpha = 1, offset = 0),
/// the form a reduction split across blocks needs: the output is first set
/// to `offset`, then each block adds alpha times its partial sum. `alpha`
/// and `offset` are values of the epilogue's region, null for 1 and 0.
struct LinearEpilogue {
  Value alpha, offset;
};
FailureOr<LinearEpilogue> matchLinearEpilogue(const ContractionProblem &p, std::string &why);

/// The raised kernel whose top-level forall `forall` is, where a forall
/// schedule can replace the forall: normalized, without results, nothing
/// else in the kernel with an effect, no block index read along `dims`
/// (the grid dimensions the schedule takes). Null, `why` saying why, else.
gpu::GPUFuncOp scheduledKernelOf(scf::ForallOp forall, ArrayRef<gpu::Dimension> dims,
                                 std::string &why);

/// A new workgroup (shared-memory) buffer of `kernel`, 16-byte aligned for
/// 128-bit accesses (the lowering's default is the element's alignment).
Value addSharedBuffer(gpu::GPUFuncOp kernel, MemRefType type, Location loc);

/// Equal values, or constants of equal value (loop bounds).
bool sameBound(Value x, Value y);

/// The kernel buffer (argument) a memref value views (through
/// reinterpret_cast and cast), or null.
Value viewedBuffer(Value memref);

/// Whether `op` (and everything nested in it) at most reads memory: every
/// op declares its effects, and they are reads.
bool onlyReadsMemory(Operation *op);

/// Erases the contraction group after its code was generated.
void eraseContractionGroup(ContractionProblem &p);

/// The kernel body holds only pure ops besides the contraction group.
LogicalResult checkKernelHoldsOnlyGroup(const ContractionProblem &p, std::string &why);

} // namespace mlir::ks

#endif // KERNELSKILL_LIB_TRANSFORMS_SIMTBUILDER_H
