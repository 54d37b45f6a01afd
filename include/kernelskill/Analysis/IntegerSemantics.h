//===- IntegerSemantics.h - What arith's integer ops compute -----*- C++ -*-===//
//
// What the analyses execute for each integer `arith` op: the warp simulation
// runs it per lane in kernels, the launch context on the host launcher's
// sizes. The arithmetic itself is Support/IntegerArith.h's, which ks-bench
// also evaluates launch-size formulas with: values are 64-bit, in the
// canonical form of their width (sign-extended; an i1 true is -1, as extsi
// sees it); add, sub and mul wrap; a division by zero or of the most negative
// value by -1 is unknown, like an out-of-range shift.
//
//===----------------------------------------------------------------------===//
#ifndef KERNELSKILL_ANALYSIS_INTEGERSEMANTICS_H
#define KERNELSKILL_ANALYSIS_INTEGERSEMANTICS_H

#include "kernelskill/Support/IntegerArith.h"

#include "mlir/IR/Operation.h"

#include <cstdint>
#include <functional>
#include <optional>

namespace mlir::ks {

/// Bits of an integer or index type (index: 64); 0 for other types.
unsigned getIntegerBitWidth(Type type);

/// What `op` computes from its operands' values (nullopt: unknown), for
/// arith constants, casts, binary integer ops, cmpi and select; an empty
/// function for any other op (or a non-integer result). Built once per op,
/// called once per value set.
using IntegerSemantics =
    std::function<std::optional<int64_t>(ArrayRef<std::optional<int64_t>> operands)>;
IntegerSemantics getIntegerSemantics(Operation *op);

} // namespace mlir::ks

#endif // KERNELSKILL_ANALYSIS_INTEGERSEMANTICS_H
