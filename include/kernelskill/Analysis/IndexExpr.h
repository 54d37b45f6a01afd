//===- IndexExpr.h - Memory indices as polynomials of thread ids -*- C++ -*-===//
//
// The index analysis: the index of every memory access of a kernel written as
// a polynomial over "atoms" — thread ids, block ids, block and grid sizes, the
// kernel's scalar arguments, loop induction variables, and opaque values
// (anything else: a loaded value, a division that does not divide evenly).
// The lifter produces flat pointer arithmetic (`a[(by*bdy + ty)*K + p]`), so
// products of a thread id and a symbol are common; a polynomial keeps them in
// a normal form where the stride along threadIdx.x is the coefficient of one
// atom. (mlir::AffineExpr does not distribute such semi-affine products, so
// it cannot answer "what is the stride along x" here.)
//
// Integer overflow is not modelled: indices are mathematical integers.
//
//===----------------------------------------------------------------------===//
#ifndef KERNELSKILL_ANALYSIS_INDEXEXPR_H
#define KERNELSKILL_ANALYSIS_INDEXEXPR_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/DenseMap.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace mlir::ks {

/// What an atom of an index polynomial stands for.
struct IndexAtom {
  enum class Kind { ThreadId, BlockId, BlockDim, GridDim, LaneId, Argument, InductionVar, Opaque };
  Kind kind;
  unsigned dim = 0; ///< x=0, y=1, z=2 for the id and size atoms
  Value value;      ///< the argument, induction variable or opaque value
  std::string name; ///< how it prints: threadIdx.x, K, p, (tid / 32), ...
  bool laneVarying = false; ///< may differ between the lanes of a warp
  /// Induction variables: how much the variable grows per iteration, when
  /// that is a constant.
  std::optional<int64_t> step;
  bool isThreadIdX() const { return kind == Kind::ThreadId && dim == 0; }
};

/// A polynomial with integer coefficients over atom ids (a builder's table).
class IndexExpr {
public:
  using Monomial = std::vector<unsigned>; ///< sorted atom ids, repeated for powers
  IndexExpr() = default;
  static IndexExpr constant(int64_t c);
  static IndexExpr atom(unsigned id);

  IndexExpr operator+(const IndexExpr &o) const;
  IndexExpr operator-(const IndexExpr &o) const;
  IndexExpr operator*(const IndexExpr &o) const;
  IndexExpr scaled(int64_t factor) const;

  bool isConstant() const;
  std::optional<int64_t> getConstant() const;
  /// The polynomial divided by `divisor` when every coefficient divides.
  std::optional<IndexExpr> exactDiv(int64_t divisor) const;
  /// The coefficient of `atom` when the polynomial is linear in it (the
  /// stride along that atom); nullopt when the atom appears squared.
  std::optional<IndexExpr> coefficientOf(unsigned atom) const;
  /// Whether `atom` occurs in any term.
  bool uses(unsigned atom) const;
  const std::map<Monomial, int64_t> &terms() const { return termMap; }

private:
  void add(const Monomial &m, int64_t c);
  std::map<Monomial, int64_t> termMap; ///< no zero coefficients
};

/// Builds (and memoizes) the IndexExpr of integer and index values inside one
/// kernel, and owns the atom table.
class IndexAnalysis {
public:
  explicit IndexAnalysis(gpu::GPUFuncOp kernel);

  /// The polynomial of `value` (an integer or index SSA value of the kernel).
  /// Returned by value: the cache may grow while the caller holds it.
  IndexExpr get(Value value);
  /// The flat element index of a memref access: indices linearized with the
  /// memref's static strides; nullopt when a stride is dynamic.
  std::optional<IndexExpr> linearIndex(Value memref, ValueRange indices);

  const IndexAtom &atom(unsigned id) const { return atoms[id]; }
  /// Whether the polynomial may differ between lanes of a warp.
  bool isLaneVarying(const IndexExpr &expr) const;
  /// Whether it uses an induction variable of `loop` or an opaque value
  /// defined inside it (it changes from one iteration to the next).
  bool variesWithin(const IndexExpr &expr, Operation *loop) const;
  /// How far the polynomial moves from one iteration of `loop` to the next,
  /// when that is a constant (its coefficient times the variable's step).
  std::optional<int64_t> constantStrideWithin(const IndexExpr &expr, Operation *loop) const;
  /// The atom id of threadIdx.x, if the kernel reads it.
  std::optional<unsigned> threadIdXAtom() const;

  /// Prints like C: `(blockIdx.y*blockDim.y + threadIdx.y)*K` is printed
  /// expanded, `K*blockDim.y*blockIdx.y + K*threadIdx.y + p`.
  std::string print(const IndexExpr &expr) const;

private:
  unsigned getAtom(IndexAtom::Kind kind, unsigned dim, Value value, std::string name,
                   bool laneVarying);
  IndexExpr opaque(Value value, std::string name, bool laneVarying);
  /// The lane-uniform step when `yielded` is `iv + step` (or `iv - step`).
  std::optional<IndexExpr> uniformStep(Value yielded, Value iv, Operation *loop);
  IndexExpr compute(Value value);

  gpu::GPUFuncOp kernel;
  std::vector<IndexAtom> atoms;
  llvm::DenseMap<Value, IndexExpr> cache;
};

} // namespace mlir::ks

#endif // KERNELSKILL_ANALYSIS_INDEXEXPR_H
