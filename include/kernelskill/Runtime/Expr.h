//===- Expr.h - Integer formulas of a kernel's scalars ----------*- C++ -*-===//
//
// Buffer extents and launch dimensions are written as formulas of the
// kernel's scalar arguments ("M*K", "ceildiv(N, 16)"). This is their parser
// and evaluator: 64-bit integers, + - * / % with C precedence, parentheses,
// unary minus, and the functions ceildiv, min and max.
//
// The runtime builds without LLVM (it also builds on the GPU machine with
// CUDA alone), so this uses the standard library only.
//
//===----------------------------------------------------------------------===//
#ifndef KERNELSKILL_RUNTIME_EXPR_H
#define KERNELSKILL_RUNTIME_EXPR_H

#include <cstdint>
#include <map>
#include <string>
#include <variant>

namespace mlir::ks::runtime {

/// Values of the named scalars a formula may use.
using ScalarValues = std::map<std::string, int64_t, std::less<>>;

/// An error: what went wrong, with the formula and the column (0-based).
struct ExprError {
  std::string message;
};

/// Evaluates `formula` with `scalars`. Unknown names, division by zero,
/// overflow and syntax errors are reported with their position.
std::variant<int64_t, ExprError> evaluate(const std::string &formula,
                                          const ScalarValues &scalars);

} // namespace mlir::ks::runtime

#endif // KERNELSKILL_RUNTIME_EXPR_H
