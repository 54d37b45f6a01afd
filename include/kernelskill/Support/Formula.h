//===- Formula.h - Integer formulas of a kernel's scalars -------*- C++ -*-===//
//
// Buffer extents and launch sizes are written as formulas of a kernel's
// scalar arguments ("M*K", "udiv(N + 15, 16)"), and workloads as NAME=VALUE
// lists. This is their one parser and evaluator, shared by the runtime
// (launch specs, `ks-bench --workload`) and the analyses (`workload=` pass
// options). The language (docs/Runtime.md, "Formulas") can state exactly
// what a launcher's `arith` ops compute, so ks-emit-launch-spec writes the
// launcher's arithmetic and ks-bench launches what the profiler analyzed:
//
//   integers, names, ( ), + - * (wrapping at 64 bits), unary -,
//   / % (signed, truncating, as C), ceildiv floordiv min max (signed),
//   udiv urem ceildivu minu maxu (unsigned; an optional last argument gives
//   the width in bits, default 64), trunc(x, W) and zext(x, W) (the low W
//   bits of x read as signed / unsigned).
//
// The arithmetic is IntegerArith.h's. Standard library only: the runtime
// builds without LLVM.
//
//===----------------------------------------------------------------------===//
#ifndef KERNELSKILL_SUPPORT_FORMULA_H
#define KERNELSKILL_SUPPORT_FORMULA_H

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <variant>
#include <vector>

namespace mlir::ks {

/// Values of the named scalars a formula may use.
using ScalarValues = std::map<std::string, int64_t, std::less<>>;

/// An error: what went wrong, with the formula and the column (1-based).
struct FormulaError {
  std::string message;
};

/// Evaluates `formula` with `scalars`. Unknown names and functions, wrong
/// argument counts, a division by zero or the signed division of INT64_MIN
/// by -1 (undefined in arith), literals beyond 64 bits and syntax errors are
/// reported with their position.
std::variant<int64_t, FormulaError> evaluateFormula(const std::string &formula,
                                                    const ScalarValues &scalars);

/// Parses a workload, "NAME=VALUE[,NAME=VALUE...]", into `values` (adding or
/// overriding). VALUE is a formula of the values before it ("M=4096,N=2*M").
/// NAME is an identifier, possibly dotted ("block.x"). Empty entries are
/// skipped. On error returns false with a message quoting the entry.
bool parseWorkload(const std::string &text, ScalarValues &values, std::string &error);

/// Splits on `sep` outside parentheses and brackets, trimming each part.
std::vector<std::string> splitTopLevel(const std::string &text, char sep = ',');

/// Whether `name` is a C identifier (what a formula can refer to).
bool isIdentifier(const std::string &name);

} // namespace mlir::ks

#endif // KERNELSKILL_SUPPORT_FORMULA_H
