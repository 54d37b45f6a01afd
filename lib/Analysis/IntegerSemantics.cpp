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

namespace {
using R = std::optional<int64_t>;
using Operands = ArrayRef<std::optional<int64_t>>;

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
      // The arithmetic is IntegerArith's, at the operands' width, so that
      // launch-size formulas evaluate the same way in ks-bench.
      .Case<arith::AddIOp>([&](auto) {
        return binary(in, width, [](int64_t a, int64_t b, unsigned w) -> R { return addWrap(a, b, w); });
      })
      .Case<arith::SubIOp>([&](auto) {
        return binary(in, width, [](int64_t a, int64_t b, unsigned w) -> R { return subWrap(a, b, w); });
      })
      .Case<arith::MulIOp>([&](auto) {
        return binary(in, width, [](int64_t a, int64_t b, unsigned w) -> R { return mulWrap(a, b, w); });
      })
      .Case<arith::DivSIOp>([&](auto) { return binary(in, width, divS); })
      .Case<arith::DivUIOp>([&](auto) { return binary(in, width, divU); })
      .Case<arith::CeilDivSIOp>([&](auto) { return binary(in, width, ceilDivS); })
      .Case<arith::CeilDivUIOp>([&](auto) { return binary(in, width, ceilDivU); })
      .Case<arith::FloorDivSIOp>([&](auto) { return binary(in, width, floorDivS); })
      .Case<arith::RemSIOp>([&](auto) { return binary(in, width, remS); })
      .Case<arith::RemUIOp>([&](auto) { return binary(in, width, remU); })
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
        return binary(in, width, [](int64_t a, int64_t b, unsigned w) -> R { return minU(a, b, w); });
      })
      .Case<arith::MaxUIOp>([&](auto) {
        return binary(in, width, [](int64_t a, int64_t b, unsigned w) -> R { return maxU(a, b, w); });
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
