//===- IndexExpr.cpp - Memory indices as polynomials of thread ids --------===//

#include "kernelskill/Analysis/IndexExpr.h"
#include "kernelskill/Analysis/SourceText.h"
#include "kernelskill/Dialect/KS/IR/SourceNames.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::ks;

//===----------------------------------------------------------------------===//
// IndexExpr
//===----------------------------------------------------------------------===//

IndexExpr IndexExpr::constant(int64_t c) {
  IndexExpr e;
  e.add({}, c);
  return e;
}

IndexExpr IndexExpr::atom(unsigned id) {
  IndexExpr e;
  e.add({id}, 1);
  return e;
}

void IndexExpr::add(const Monomial &m, int64_t c) {
  if (c == 0)
    return;
  int64_t &slot = termMap[m];
  slot += c;
  if (slot == 0)
    termMap.erase(m);
}

IndexExpr IndexExpr::operator+(const IndexExpr &o) const {
  IndexExpr r = *this;
  for (const auto &[m, c] : o.termMap)
    r.add(m, c);
  return r;
}

IndexExpr IndexExpr::operator-(const IndexExpr &o) const { return *this + o.scaled(-1); }

IndexExpr IndexExpr::scaled(int64_t factor) const {
  IndexExpr r;
  for (const auto &[m, c] : termMap)
    r.add(m, c * factor);
  return r;
}

IndexExpr IndexExpr::operator*(const IndexExpr &o) const {
  IndexExpr r;
  for (const auto &[m1, c1] : termMap)
    for (const auto &[m2, c2] : o.termMap) {
      Monomial m = m1;
      m.insert(m.end(), m2.begin(), m2.end());
      llvm::sort(m);
      r.add(m, c1 * c2);
    }
  return r;
}

bool IndexExpr::isConstant() const {
  return termMap.empty() || (termMap.size() == 1 && termMap.begin()->first.empty());
}

std::optional<int64_t> IndexExpr::getConstant() const {
  if (!isConstant())
    return std::nullopt;
  return termMap.empty() ? 0 : termMap.begin()->second;
}

std::optional<IndexExpr> IndexExpr::exactDiv(int64_t divisor) const {
  if (divisor == 0)
    return std::nullopt;
  IndexExpr r;
  for (const auto &[m, c] : termMap) {
    if (c % divisor != 0)
      return std::nullopt;
    r.add(m, c / divisor);
  }
  return r;
}

std::optional<IndexExpr> IndexExpr::coefficientOf(unsigned atom) const {
  IndexExpr r;
  for (const auto &[m, c] : termMap) {
    auto count = llvm::count(m, atom);
    if (count > 1)
      return std::nullopt;
    if (count == 0)
      continue;
    Monomial rest = m;
    rest.erase(llvm::find(rest, atom));
    r.add(rest, c);
  }
  return r;
}

bool IndexExpr::uses(unsigned atom) const {
  return llvm::any_of(termMap, [&](const auto &t) { return llvm::is_contained(t.first, atom); });
}

//===----------------------------------------------------------------------===//
// IndexAnalysis
//===----------------------------------------------------------------------===//

IndexAnalysis::IndexAnalysis(gpu::GPUFuncOp kernel) : kernel(kernel) {}

unsigned IndexAnalysis::getAtom(IndexAtom::Kind kind, unsigned dim, Value value,
                                std::string name, bool laneVarying) {
  for (unsigned i = 0; i < atoms.size(); ++i)
    if (atoms[i].kind == kind && atoms[i].dim == dim && atoms[i].value == value)
      return i;
  atoms.push_back(IndexAtom{kind, dim, value, std::move(name), laneVarying});
  return atoms.size() - 1;
}

IndexExpr IndexAnalysis::opaque(Value value, std::string name, bool laneVarying) {
  if (name.empty())
    name = "?";
  return IndexExpr::atom(getAtom(IndexAtom::Kind::Opaque, 0, value, std::move(name), laneVarying));
}

std::optional<int64_t> IndexAnalysis::constantStrideWithin(const IndexExpr &expr,
                                                          Operation *loop) const {
  for (unsigned i = 0; i < atoms.size(); ++i) {
    const IndexAtom &atom = atoms[i];
    Value value = atom.value;
    if (atom.kind != IndexAtom::Kind::InductionVar || !expr.uses(i) ||
        value.getParentBlock()->getParentOp() != loop)
      continue;
    std::optional<IndexExpr> c = expr.coefficientOf(i);
    std::optional<int64_t> perUnit = c ? c->getConstant() : std::nullopt;
    if (!perUnit || !atom.step)
      return std::nullopt;
    return *perUnit * *atom.step;
  }
  return std::nullopt;
}

std::optional<unsigned> IndexAnalysis::threadIdXAtom() const {
  for (unsigned i = 0; i < atoms.size(); ++i)
    if (atoms[i].isThreadIdX())
      return i;
  return std::nullopt;
}

bool IndexAnalysis::isLaneVarying(const IndexExpr &expr) const {
  for (const auto &[m, c] : expr.terms())
    for (unsigned a : m)
      if (atoms[a].laneVarying)
        return true;
  return false;
}

bool IndexAnalysis::variesWithin(const IndexExpr &expr, Operation *loop) const {
  for (const auto &[m, c] : expr.terms())
    for (unsigned a : m) {
      const IndexAtom &atom = atoms[a];
      Value value = atom.value;
      if (atom.kind == IndexAtom::Kind::InductionVar &&
          value.getParentBlock()->getParentOp() == loop)
        return true;
      if (atom.kind == IndexAtom::Kind::Opaque && value &&
          loop->isAncestor(value.getParentBlock()->getParentOp()))
        return true;
    }
  return false;
}

IndexExpr IndexAnalysis::get(Value value) {
  if (auto it = cache.find(value); it != cache.end())
    return it->second;
  IndexExpr e = compute(value);
  cache[value] = e;
  return e;
}

namespace {
/// The C variable a value belongs to, or "".
std::string variableName(Value v) { return getSourceVariableName(v).value_or("").str(); }

const char *dimName(unsigned dim) { return dim == 0 ? "x" : dim == 1 ? "y" : "z"; }

} // namespace

std::optional<IndexExpr> IndexAnalysis::uniformStep(Value yielded, Value iv, Operation *loop) {
  // Look through casts for `iv + x` / `x + iv` / `iv - x` with x defined
  // outside the loop (or constant) and lane-uniform.
  auto strip = [](Value v) {
    while (Operation *def = v.getDefiningOp()) {
      if (!isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp, arith::ExtUIOp,
               arith::TruncIOp>(def))
        break;
      v = def->getOperand(0);
    }
    return v;
  };
  Operation *def = strip(yielded).getDefiningOp();
  if (!def || !isa<arith::AddIOp, arith::SubIOp>(def))
    return std::nullopt;
  auto isIV = [&](Value v) {
    v = strip(v);
    if (v == iv)
      return true;
    // The after region's copy of the variable.
    if (auto arg = dyn_cast<BlockArgument>(v))
      if (auto w = dyn_cast<scf::WhileOp>(loop); w && arg.getOwner() == &w.getAfter().front())
        return strip(w.getConditionOp().getArgs()[arg.getArgNumber()]) == iv;
    return false;
  };
  Value other;
  bool negate = false;
  if (isIV(def->getOperand(0)))
    other = def->getOperand(1), negate = isa<arith::SubIOp>(def);
  else if (isa<arith::AddIOp>(def) && isIV(def->getOperand(1)))
    other = def->getOperand(0);
  else
    return std::nullopt;
  if (isIV(other))
    return std::nullopt;
  IndexExpr step = get(other);
  if (isLaneVarying(step) || variesWithin(step, loop))
    return std::nullopt;
  return negate ? step.scaled(-1) : step;
}

IndexExpr IndexAnalysis::compute(Value value) {
  using Kind = IndexAtom::Kind;
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    Block *owner = arg.getOwner();
    Operation *parent = owner->getParentOp();
    if (parent == kernel.getOperation() && owner == &kernel.getBody().front() &&
        arg.getArgNumber() < kernel.getNumArguments()) {
      return IndexExpr::atom(getAtom(Kind::Argument, 0, value,
                                     getArgumentName(kernel, arg.getArgNumber()), false));
    }
    if (auto loop = dyn_cast<scf::WhileOp>(parent)) {
      unsigned i = arg.getArgNumber();
      if (owner == &loop.getAfter().front()) // forwarded by scf.condition
        return get(loop.getConditionOp().getArgs()[i]);
      // A loop-carried value of the before region: an induction variable,
      // named after the C variable its update or initial value defines, or
      // the identifier the loop condition starts with.
      Value yielded = loop.getYieldOp().getOperand(i);
      std::string name = variableName(yielded);
      if (name.empty())
        name = variableName(loop.getInits()[i]);
      if (name.empty())
        if (Operation *cond = loop.getConditionOp().getCondition().getDefiningOp())
          name = getSourceAccess(cond->getLoc(), /*requireSubscript=*/false);
      if (name.empty())
        name = "iv" + std::to_string(atoms.size());
      IndexExpr init = get(loop.getInits()[i]);
      unsigned id = getAtom(Kind::InductionVar, 0, value, name, false);
      cache[value] = IndexExpr::atom(id); // the update refers to the variable itself
      std::optional<IndexExpr> step = uniformStep(yielded, value, loop);
      if (step)
        atoms[id].step = step->getConstant();
      if (step && isLaneVarying(init)) {
        // `for (k = threadIdx.x; ...; k += blockDim.x)`: the variable is its
        // lane-varying start plus a lane-uniform offset, so accesses through
        // it keep their stride along threadIdx.x.
        atoms[id].name = "(" + name + " - " + name + "0)";
        return init + IndexExpr::atom(id);
      }
      if (!step)
        atoms[id].laneVarying = isLaneVarying(init) || isLaneVarying(get(yielded));
      return IndexExpr::atom(id);
    }
    if (auto loop = dyn_cast<scf::ForOp>(parent)) {
      bool varying = isLaneVarying(get(loop.getLowerBound())) ||
                     isLaneVarying(get(loop.getUpperBound())) ||
                     isLaneVarying(get(loop.getStep()));
      if (value == loop.getInductionVar()) {
        std::string name = "iv" + std::to_string(atoms.size());
        unsigned id = getAtom(Kind::InductionVar, 0, value, name, varying);
        atoms[id].step = get(loop.getStep()).getConstant();
        return IndexExpr::atom(id);
      }
      return opaque(value, "", true);
    }
    return opaque(value, "", true);
  }

  Operation *op = value.getDefiningOp();
  auto operand = [&](unsigned i) { return get(op->getOperand(i)); };
  auto varyingOperands = [&] {
    for (Value v : op->getOperands())
      if (v.getType().isIntOrIndex() && isLaneVarying(get(v)))
        return true;
    return false;
  };
  auto named = [&](std::string text) {
    std::string name = variableName(value);
    return opaque(value, name.empty() ? text : name, varyingOperands());
  };
  auto wrap = [&](const IndexExpr &e) {
    std::string text = print(e);
    bool simple = e.isConstant() ||
                  (e.terms().size() == 1 && e.terms().begin()->second == 1 &&
                   e.terms().begin()->first.size() == 1);
    return simple ? text : "(" + text + ")";
  };
  auto divide = [&](int64_t divisor, bool isShift) -> IndexExpr {
    IndexExpr lhs = operand(0);
    if (std::optional<IndexExpr> q = lhs.exactDiv(divisor))
      return *q;
    return named("(" + wrap(lhs) + (isShift ? " >> " : " / ") +
                 std::to_string(isShift ? llvm::Log2_64(divisor) : divisor) + ")");
  };

  return llvm::TypeSwitch<Operation *, IndexExpr>(op)
      .Case<arith::ConstantOp>([&](arith::ConstantOp c) {
        if (auto i = dyn_cast<IntegerAttr>(c.getValue()))
          return IndexExpr::constant(i.getValue().getSExtValue());
        return named("?");
      })
      .Case<gpu::ThreadIdOp>([&](gpu::ThreadIdOp t) {
        unsigned d = static_cast<unsigned>(t.getDimension());
        return IndexExpr::atom(getAtom(Kind::ThreadId, d, {}, std::string("threadIdx.") + dimName(d),
                                       /*laneVarying=*/true));
      })
      .Case<gpu::LaneIdOp>([&](auto) {
        return IndexExpr::atom(getAtom(Kind::LaneId, 0, {}, "laneid", true));
      })
      .Case<gpu::BlockIdOp>([&](gpu::BlockIdOp b) {
        unsigned d = static_cast<unsigned>(b.getDimension());
        return IndexExpr::atom(
            getAtom(Kind::BlockId, d, {}, std::string("blockIdx.") + dimName(d), false));
      })
      .Case<gpu::BlockDimOp>([&](gpu::BlockDimOp b) {
        unsigned d = static_cast<unsigned>(b.getDimension());
        return IndexExpr::atom(
            getAtom(Kind::BlockDim, d, {}, std::string("blockDim.") + dimName(d), false));
      })
      .Case<gpu::GridDimOp>([&](gpu::GridDimOp g) {
        unsigned d = static_cast<unsigned>(g.getDimension());
        return IndexExpr::atom(
            getAtom(Kind::GridDim, d, {}, std::string("gridDim.") + dimName(d), false));
      })
      .Case<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp, arith::ExtUIOp,
            arith::TruncIOp>([&](Operation *) { return operand(0); })
      .Case<arith::AddIOp>([&](auto) { return operand(0) + operand(1); })
      .Case<arith::SubIOp>([&](auto) { return operand(0) - operand(1); })
      .Case<arith::MulIOp>([&](auto) { return operand(0) * operand(1); })
      .Case<arith::ShLIOp>([&](auto) {
        if (std::optional<int64_t> c = operand(1).getConstant(); c && *c >= 0 && *c < 62)
          return operand(0).scaled(int64_t(1) << *c);
        return named("?");
      })
      .Case<arith::DivUIOp, arith::DivSIOp, arith::FloorDivSIOp>([&](Operation *) {
        if (std::optional<int64_t> c = operand(1).getConstant(); c && *c > 0)
          return divide(*c, false);
        return named("(" + wrap(operand(0)) + " / " + wrap(operand(1)) + ")");
      })
      .Case<arith::ShRUIOp, arith::ShRSIOp>([&](Operation *) {
        if (std::optional<int64_t> c = operand(1).getConstant(); c && *c >= 0 && *c < 62)
          return divide(int64_t(1) << *c, true);
        return named("?");
      })
      .Case<arith::RemUIOp, arith::RemSIOp>([&](Operation *) {
        return named("(" + wrap(operand(0)) + " % " + wrap(operand(1)) + ")");
      })
      .Case<arith::AndIOp>([&](Operation *) {
        if (std::optional<int64_t> c = operand(1).getConstant();
            c && *c > 0 && llvm::isPowerOf2_64(uint64_t(*c) + 1))
          return named("(" + wrap(operand(0)) + " % " + std::to_string(*c + 1) + ")");
        return named("(" + wrap(operand(0)) + " & " + wrap(operand(1)) + ")");
      })
      .Case<memref::LoadOp>([&](memref::LoadOp load) {
        std::string base = "?";
        if (auto arg = dyn_cast<BlockArgument>(load.getMemRef()))
          if (arg.getOwner()->getParentOp() == kernel.getOperation() &&
              arg.getArgNumber() < kernel.getNumArguments())
            base = getArgumentName(kernel, arg.getArgNumber());
        std::string text = base + "[";
        for (auto [i, idx] : llvm::enumerate(load.getIndices()))
          text += (i ? "][" : "") + print(get(idx));
        return named(text + "]");
      })
      .Case<scf::IfOp>([&](scf::IfOp ifOp) {
        bool varying = isLaneVarying(get(ifOp.getCondition()));
        unsigned n = cast<OpResult>(value).getResultNumber();
        for (Region *r : {&ifOp.getThenRegion(), &ifOp.getElseRegion()})
          if (!r->empty())
            varying |= isLaneVarying(get(r->front().getTerminator()->getOperand(n)));
        std::string name = variableName(value);
        return opaque(value, name.empty() ? "?" : name, varying);
      })
      .Case<scf::WhileOp>([&](scf::WhileOp loop) {
        // A loop's result differs between lanes when what it forwards does,
        // or when lanes leave at different iterations.
        unsigned n = cast<OpResult>(value).getResultNumber();
        auto condition = loop.getConditionOp();
        bool varying = isLaneVarying(get(condition.getCondition())) ||
                       isLaneVarying(get(condition.getArgs()[n]));
        std::string name = variableName(value);
        return opaque(value, name.empty() ? "?" : name, varying);
      })
      .Case<scf::ForOp, scf::IndexSwitchOp>([&](Operation *) {
        // Conservatively lane-varying: the trip count or case may be.
        std::string name = variableName(value);
        return opaque(value, name.empty() ? "?" : name, true);
      })
      .Default([&](Operation *) { return named("?"); });
}

std::optional<IndexExpr> IndexAnalysis::linearIndex(Value memref, ValueRange indices) {
  auto type = dyn_cast<MemRefType>(memref.getType());
  if (!type)
    return std::nullopt;
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)))
    return std::nullopt;
  IndexExpr linear = IndexExpr::constant(0);
  for (auto [stride, index] : llvm::zip(strides, indices)) {
    if (ShapedType::isDynamic(stride))
      return std::nullopt;
    linear = linear + get(index).scaled(stride);
  }
  return linear;
}

std::string IndexAnalysis::print(const IndexExpr &expr) const {
  if (expr.terms().empty())
    return "0";
  std::string out;
  std::optional<int64_t> constantTerm;
  for (const auto &[m, c] : expr.terms()) {
    if (m.empty()) {
      constantTerm = c;
      continue;
    }
    std::string term;
    int64_t coeff = c;
    if (!out.empty()) {
      out += coeff < 0 ? " - " : " + ";
      coeff = std::abs(coeff);
    } else if (coeff < 0) {
      out += "-";
      coeff = -coeff;
    }
    if (coeff != 1)
      term = std::to_string(coeff);
    for (unsigned a : m)
      term += (term.empty() ? "" : "*") + atoms[a].name;
    out += term;
  }
  if (constantTerm) {
    if (out.empty())
      return std::to_string(*constantTerm);
    out += (*constantTerm < 0 ? " - " : " + ") + std::to_string(std::abs(*constantTerm));
  }
  return out;
}
