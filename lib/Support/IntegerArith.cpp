//===- IntegerArith.cpp - Fixed-width integer arithmetic ------------------===//

#include "kernelskill/Support/IntegerArith.h"

using namespace mlir::ks;
using U = uint64_t;

int64_t mlir::ks::normalizeInteger(int64_t x, unsigned width) {
  if (width == 0 || width >= 64)
    return x;
  if (width == 1)
    return (x & 1) ? -1 : 0;
  U m = (U(1) << width) - 1;
  U u = U(x) & m;
  if (u >> (width - 1))
    u |= ~m;
  return int64_t(u);
}

uint64_t mlir::ks::asUnsignedInteger(int64_t x, unsigned width) {
  if (width == 0 || width >= 64)
    return U(x);
  return U(x) & ((U(1) << width) - 1);
}

// In unsigned 64-bit arithmetic, which wraps without C++'s signed-overflow
// undefined behaviour; the low `width` bits are those of the narrow result.
int64_t mlir::ks::addWrap(int64_t a, int64_t b, unsigned width) {
  return normalizeInteger(int64_t(U(a) + U(b)), width);
}
int64_t mlir::ks::subWrap(int64_t a, int64_t b, unsigned width) {
  return normalizeInteger(int64_t(U(a) - U(b)), width);
}
int64_t mlir::ks::mulWrap(int64_t a, int64_t b, unsigned width) {
  return normalizeInteger(int64_t(U(a) * U(b)), width);
}
int64_t mlir::ks::negWrap(int64_t a, unsigned width) {
  return normalizeInteger(int64_t(U(0) - U(a)), width);
}

namespace {
/// The most negative `width`-bit value.
int64_t minSigned(unsigned width) {
  return width == 0 || width >= 64 ? INT64_MIN : -(int64_t(1) << (width - 1));
}

/// Whether a / b is defined at `width` bits: b is not 0 and the quotient
/// fits (only the most negative value divided by -1 does not).
bool divisible(int64_t a, int64_t b, unsigned width) {
  return b != 0 && !(b == -1 && a == minSigned(width));
}
} // namespace

std::optional<int64_t> mlir::ks::divS(int64_t a, int64_t b, unsigned width) {
  a = normalizeInteger(a, width);
  b = normalizeInteger(b, width);
  if (!divisible(a, b, width))
    return std::nullopt;
  return a / b;
}

std::optional<int64_t> mlir::ks::remS(int64_t a, int64_t b, unsigned width) {
  a = normalizeInteger(a, width);
  b = normalizeInteger(b, width);
  if (!divisible(a, b, width))
    return std::nullopt;
  return a % b;
}

namespace {
/// The signed quotient rounded up (`up`) or down: truncation already rounds a
/// negative quotient up and a positive one down, so only an inexact quotient
/// of the other sign moves, by one.
std::optional<int64_t> roundedDivS(int64_t a, int64_t b, unsigned width, bool up) {
  std::optional<int64_t> q = divS(a, b, width);
  if (!q)
    return std::nullopt;
  a = normalizeInteger(a, width);
  b = normalizeInteger(b, width);
  bool positive = (a < 0) == (b < 0);
  if (a % b == 0 || positive != up)
    return q;
  return up ? *q + 1 : *q - 1;
}
} // namespace

std::optional<int64_t> mlir::ks::ceilDivS(int64_t a, int64_t b, unsigned width) {
  return roundedDivS(a, b, width, /*up=*/true);
}

std::optional<int64_t> mlir::ks::floorDivS(int64_t a, int64_t b, unsigned width) {
  return roundedDivS(a, b, width, /*up=*/false);
}

std::optional<int64_t> mlir::ks::divU(int64_t a, int64_t b, unsigned width) {
  U ub = asUnsignedInteger(b, width);
  if (!ub)
    return std::nullopt;
  return normalizeInteger(int64_t(asUnsignedInteger(a, width) / ub), width);
}

std::optional<int64_t> mlir::ks::remU(int64_t a, int64_t b, unsigned width) {
  U ub = asUnsignedInteger(b, width);
  if (!ub)
    return std::nullopt;
  return normalizeInteger(int64_t(asUnsignedInteger(a, width) % ub), width);
}

std::optional<int64_t> mlir::ks::ceilDivU(int64_t a, int64_t b, unsigned width) {
  U ua = asUnsignedInteger(a, width), ub = asUnsignedInteger(b, width);
  if (!ub)
    return std::nullopt;
  // Not (a + b - 1) / b: that overflows for a near the top of the range.
  return normalizeInteger(int64_t(ua / ub + (ua % ub != 0)), width);
}

int64_t mlir::ks::minU(int64_t a, int64_t b, unsigned width) {
  return normalizeInteger(asUnsignedInteger(a, width) <= asUnsignedInteger(b, width) ? a : b,
                          width);
}

int64_t mlir::ks::maxU(int64_t a, int64_t b, unsigned width) {
  return normalizeInteger(asUnsignedInteger(a, width) >= asUnsignedInteger(b, width) ? a : b,
                          width);
}
