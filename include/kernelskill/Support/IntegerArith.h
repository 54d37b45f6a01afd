//===- IntegerArith.h - Fixed-width integer arithmetic ----------*- C++ -*-===//
//
// The one definition of the integer arithmetic KernelSkill executes outside
// the GPU: the analyses run a kernel's and a launcher's `arith` ops with it
// (Analysis/IntegerSemantics.h), and launch-size formulas (Formula.h) are
// evaluated with it by ks-bench, so the profiler and the runtime agree on
// every launch the IR computes, edges included.
//
// A `width`-bit value is held in an int64_t in canonical form: its low
// `width` bits, sign-extended (an i1 true is -1, as arith.extsi sees it).
// Add, sub and mul wrap around at the width, as the hardware does. The
// operations that arith leaves undefined (a division by zero, the signed
// division of the most negative value by -1) give nullopt. Standard library
// only: the runtime builds without LLVM.
//
//===----------------------------------------------------------------------===//
#ifndef KERNELSKILL_SUPPORT_INTEGERARITH_H
#define KERNELSKILL_SUPPORT_INTEGERARITH_H

#include <cstdint>
#include <optional>

namespace mlir::ks {

/// `x` in the canonical form of a `width`-bit integer (arith.trunci to
/// `width`); widths of 0 or 64 and more leave it as it is.
int64_t normalizeInteger(int64_t x, unsigned width);

/// `x` read as an unsigned `width`-bit integer (arith.extui from `width`).
uint64_t asUnsignedInteger(int64_t x, unsigned width);

/// Wrapping add, sub, mul and negation at `width` bits.
int64_t addWrap(int64_t a, int64_t b, unsigned width = 64);
int64_t subWrap(int64_t a, int64_t b, unsigned width = 64);
int64_t mulWrap(int64_t a, int64_t b, unsigned width = 64);
int64_t negWrap(int64_t a, unsigned width = 64);

/// Signed division and remainder with C's semantics (the quotient truncated
/// toward zero; the remainder has the dividend's sign): arith.divsi and
/// arith.remsi. nullopt for b == 0 and for the most negative `width`-bit
/// value divided by -1.
std::optional<int64_t> divS(int64_t a, int64_t b, unsigned width = 64);
std::optional<int64_t> remS(int64_t a, int64_t b, unsigned width = 64);
/// The quotient rounded up / down (arith.ceildivsi, arith.floordivsi).
std::optional<int64_t> ceilDivS(int64_t a, int64_t b, unsigned width = 64);
std::optional<int64_t> floorDivS(int64_t a, int64_t b, unsigned width = 64);

/// Unsigned division, remainder and rounded-up division of the operands read
/// as unsigned `width`-bit integers (arith.divui, remui, ceildivui); nullopt
/// for b == 0. The result is in canonical form.
std::optional<int64_t> divU(int64_t a, int64_t b, unsigned width = 64);
std::optional<int64_t> remU(int64_t a, int64_t b, unsigned width = 64);
std::optional<int64_t> ceilDivU(int64_t a, int64_t b, unsigned width = 64);

/// The smaller / larger operand, compared as unsigned `width`-bit integers
/// (arith.minui, maxui), in canonical form.
int64_t minU(int64_t a, int64_t b, unsigned width = 64);
int64_t maxU(int64_t a, int64_t b, unsigned width = 64);

} // namespace mlir::ks

#endif // KERNELSKILL_SUPPORT_INTEGERARITH_H
