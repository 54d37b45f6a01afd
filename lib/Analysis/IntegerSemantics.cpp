//===- IntegerSemantics.cpp - What arith's integer ops compute ------------===//

#include "kernelskill/Analysis/IntegerSemantics.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/ADT/TypeSwitch.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::ks;

unsigned mlir::ks::getIntegerBitWidth(Type type) {
  if (type.isIndex())
    return 64;
  if (auto i = dyn_cast<IntegerType>(type))
    return i.getWidth();
  return 0;
}

int64_t mlir::ks::normalizeInteger(int64_t x, unsigned width) {
  if (width == 0 || width >= 64)
    return x;
  if (width == 1)
    return (x & 1) ? -1 : 0;
  uint64_t m = (uint64_t(1) << width) - 1;
  uint64_t u = uint64_t(x) & m;
  if (u >> (width - 1))
    u |= ~m;
  return int64_t(u);
}

uint64_t mlir::ks::asUnsignedInteger(int64_t x, unsigned width) {
  if (width == 0 || width >= 64)
    return uint64_t(x);
  return uint64_t(x) & ((uint64_t(1) << width) - 1);
}

namespace {
using R = std::optional<int64_t>;
using Operands = ArrayRef<std::optional<int64_t>>;

/// Whether a / b is defined: b is not 0 and the quotient does not overflow.
bool divisible(int64_t a, int64_t b) { return b != 0 && !(a == INT64_MIN && b == -1); }

/// A one-operand op: f(value, operand width), normalized to `width`.
template <typename F> IntegerSemantics unary(unsigned inWidth, unsigned width, F f) {
  return [=](Operands in) -> R {
    if (in.size() != 1 || !in[0])
      return std::nullopt;
    return normalizeInteger(f(*in[0], inWidth), width);
  };
}

/// A two-operand op: f(a, b, operand width) or nullopt, normalized.
template <typename F> IntegerSemantics binary(unsigned inWidth, unsigned width, F f) {
  return [=](Operands in) -> R {
    if (in.size() != 2 || !in[0] || !in[1])
      return std::nullopt;
    R r = f(*in[0], *in[1], inWidth);
    return r ? R(normalizeInteger(*r, width)) : R();
  };
}
} // namespace

IntegerSemantics mlir::ks::getIntegerSemantics(Operation *op) {
  if (op->getNumResults() != 1)
    return {};
  unsigned width = getIntegerBitWidth(op->getResult(0).getType());
  if (width == 0)
    return {};
  unsigned in = op->getNumOperands() ? getIntegerBitWidth(op->getOperand(0).getType()) : 0;
  using U = uint64_t;
  return llvm::TypeSwitch<Operation *, IntegerSemantics>(op)
      .Case<arith::ConstantOp>([&](arith::ConstantOp c) -> IntegerSemantics {
        auto i = dyn_cast<IntegerAttr>(c.getValue());
        if (!i)
          return {};
        int64_t value = normalizeInteger(i.getValue().getSExtValue(), width);
        return [value](Operands) -> R { return value; };
      })
      .Case<arith::IndexCastOp, arith::ExtSIOp, arith::TruncIOp>(
          [&](Operation *) { return unary(in, width, [](int64_t a, unsigned) { return a; }); })
      .Case<arith::IndexCastUIOp, arith::ExtUIOp>([&](Operation *) {
        return unary(in, width,
                     [](int64_t a, unsigned w) { return int64_t(asUnsignedInteger(a, w)); });
      })
      // Two's-complement wrap-around, as the hardware does (and no C++
      // signed-overflow undefined behaviour here).
      .Case<arith::AddIOp>([&](auto) {
        return binary(in, width, [](int64_t a, int64_t b, unsigned) -> R { return int64_t(U(a) + U(b)); });
      })
      .Case<arith::SubIOp>([&](auto) {
        return binary(in, width, [](int64_t a, int64_t b, unsigned) -> R { return int64_t(U(a) - U(b)); });
      })
      .Case<arith::MulIOp>([&](auto) {
        return binary(in, width, [](int64_t a, int64_t b, unsigned) -> R { return int64_t(U(a) * U(b)); });
      })
      .Case<arith::DivSIOp>([&](auto) {
        return binary(in, width,
                      [](int64_t a, int64_t b, unsigned) -> R { return divisible(a, b) ? R(a / b) : R(); });
      })
      .Case<arith::DivUIOp>([&](auto) {
        return binary(in, width, [](int64_t a, int64_t b, unsigned w) -> R {
          U ub = asUnsignedInteger(b, w);
          return ub ? R(int64_t(asUnsignedInteger(a, w) / ub)) : R();
        });
      })
      .Case<arith::CeilDivSIOp>([&](auto) {
        return binary(in, width, [](int64_t a, int64_t b, unsigned) -> R {
          if (!divisible(a, b))
            return R();
          int64_t q = a / b;
          return (a % b != 0 && ((a < 0) == (b < 0))) ? q + 1 : q;
        });
      })
      .Case<arith::CeilDivUIOp>([&](auto) {
        return binary(in, width, [](int64_t a, int64_t b, unsigned w) -> R {
          U ua = asUnsignedInteger(a, w), ub = asUnsignedInteger(b, w);
          return ub ? R(int64_t((ua + ub - 1) / ub)) : R();
        });
      })
      .Case<arith::FloorDivSIOp>([&](auto) {
        return binary(in, width, [](int64_t a, int64_t b, unsigned) -> R {
          if (!divisible(a, b))
            return R();
          int64_t q = a / b;
          return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
        });
      })
      .Case<arith::RemSIOp>([&](auto) {
        return binary(in, width,
                      [](int64_t a, int64_t b, unsigned) -> R { return divisible(a, b) ? R(a % b) : R(); });
      })
      .Case<arith::RemUIOp>([&](auto) {
        return binary(in, width, [](int64_t a, int64_t b, unsigned w) -> R {
          U ub = asUnsignedInteger(b, w);
          return ub ? R(int64_t(asUnsignedInteger(a, w) % ub)) : R();
        });
      })
      .Case<arith::AndIOp>([&](auto) {
        return binary(in, width, [](int64_t a, int64_t b, unsigned) -> R { return a & b; });
      })
      .Case<arith::OrIOp>([&](auto) {
        return binary(in, width, [](int64_t a, int64_t b, unsigned) -> R { return a | b; });
      })
      .Case<arith::XOrIOp>([&](auto) {
        return binary(in, width, [](int64_t a, int64_t b, unsigned) -> R { return a ^ b; });
      })
      .Case<arith::ShLIOp>([&](auto) {
        return binary(in, width, [](int64_t a, int64_t b, unsigned w) -> R {
          return (b >= 0 && b < w) ? R(int64_t(U(a) << b)) : R();
        });
      })
      .Case<arith::ShRSIOp>([&](auto) {
        return binary(in, width, [](int64_t a, int64_t b, unsigned w) -> R {
          return (b >= 0 && b < w) ? R(a >> b) : R();
        });
      })
      .Case<arith::ShRUIOp>([&](auto) {
        return binary(in, width, [](int64_t a, int64_t b, unsigned w) -> R {
          return (b >= 0 && b < w) ? R(int64_t(asUnsignedInteger(a, w) >> b)) : R();
        });
      })
      .Case<arith::MinSIOp>([&](auto) {
        return binary(in, width, [](int64_t a, int64_t b, unsigned) -> R { return std::min(a, b); });
      })
      .Case<arith::MaxSIOp>([&](auto) {
        return binary(in, width, [](int64_t a, int64_t b, unsigned) -> R { return std::max(a, b); });
      })
      .Case<arith::MinUIOp>([&](auto) {
        return binary(in, width, [](int64_t a, int64_t b, unsigned w) -> R {
          return asUnsignedInteger(a, w) < asUnsignedInteger(b, w) ? a : b;
        });
      })
      .Case<arith::MaxUIOp>([&](auto) {
        return binary(in, width, [](int64_t a, int64_t b, unsigned w) -> R {
          return asUnsignedInteger(a, w) > asUnsignedInteger(b, w) ? a : b;
        });
      })
      .Case<arith::CmpIOp>([&](arith::CmpIOp cmp) {
        auto pred = cmp.getPredicate();
        return binary(in, width, [pred](int64_t a, int64_t b, unsigned w) -> R {
          U ua = asUnsignedInteger(a, w), ub = asUnsignedInteger(b, w);
          switch (pred) {
          case arith::CmpIPredicate::eq: return a == b;
          case arith::CmpIPredicate::ne: return a != b;
          case arith::CmpIPredicate::slt: return a < b;
          case arith::CmpIPredicate::sle: return a <= b;
          case arith::CmpIPredicate::sgt: return a > b;
          case arith::CmpIPredicate::sge: return a >= b;
          case arith::CmpIPredicate::ult: return ua < ub;
          case arith::CmpIPredicate::ule: return ua <= ub;
          case arith::CmpIPredicate::ugt: return ua > ub;
          case arith::CmpIPredicate::uge: return ua >= ub;
          }
          return R();
        });
      })
      .Case<arith::SelectOp>([&](auto) -> IntegerSemantics {
        // Only the chosen side needs to be known.
        return [](Operands v) -> R {
          if (v.size() != 3 || !v[0])
            return std::nullopt;
          return *v[0] ? v[1] : v[2];
        };
      })
      .Default([](Operation *) { return IntegerSemantics(); });
}
