//===- IntegerSemantics.h - What arith's integer ops compute -----*- C++ -*-===//
//
// One definition of the integer arithmetic the analyses execute: the warp
// simulation runs it per lane in kernels, the launch context on the host
// launcher's sizes. Values are 64-bit, in the canonical form of their width
// (sign-extended; an i1 true is -1, as extsi sees it); add, sub and mul wrap;
// a division by zero or INT64_MIN / -1 is unknown, like an out-of-range shift.
//
//===----------------------------------------------------------------------===//
#ifndef KERNELSKILL_ANALYSIS_INTEGERSEMANTICS_H
#define KERNELSKILL_ANALYSIS_INTEGERSEMANTICS_H

#include "mlir/IR/Operation.h"

#include <cstdint>
#include <functional>
#include <optional>

namespace mlir::ks {

/// Bits of an integer or index type (index: 64); 0 for other types.
unsigned getIntegerBitWidth(Type type);

/// `x` in the canonical form of a `width`-bit integer.
int64_t normalizeInteger(int64_t x, unsigned width);

/// `x` read as an unsigned `width`-bit integer.
uint64_t asUnsignedInteger(int64_t x, unsigned width);

/// What `op` computes from its operands' values (nullopt: unknown), for
/// arith constants, casts, binary integer ops, cmpi and select; an empty
/// function for any other op (or a non-integer result). Built once per op,
/// called once per value set.
using IntegerSemantics =
    std::function<std::optional<int64_t>(ArrayRef<std::optional<int64_t>> operands)>;
IntegerSemantics getIntegerSemantics(Operation *op);

} // namespace mlir::ks

#endif // KERNELSKILL_ANALYSIS_INTEGERSEMANTICS_H
