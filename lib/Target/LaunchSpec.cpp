//===- LaunchSpec.cpp - Write the launch spec of a kernel -----------------===//
//
// Turns a host launcher into the JSON launch spec ks-bench reads
// (docs/Runtime.md), so a kernel in the IR can be measured without writing its
// launch by hand. The launch sizes are written as formulas that compute what
// the launcher's arith ops compute, bit for bit (Support/Formula.h), so
// ks-bench launches the grid the profiler analyzed.
//
//===----------------------------------------------------------------------===//

#include "kernelskill/Dialect/KS/IR/KSAttrs.h"
#include "kernelskill/Dialect/KS/IR/KSDialect.h"
#include "kernelskill/Dialect/KS/IR/SourceNames.h"
#include "kernelskill/Support/LaunchSpecSchema.h"
#include "kernelskill/Target/LaunchSpec.h"
#include "kernelskill/Target/Passes.h"
#include "kernelskill/Transforms/KernelLaunch.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/ToolOutputFile.h"

namespace mlir::ks {
#define GEN_PASS_DEF_KSEMITLAUNCHSPEC
#include "kernelskill/Target/Passes.h.inc"
} // namespace mlir::ks

using namespace mlir;
using namespace mlir::ks;
namespace keys = mlir::ks::launch_spec;

namespace {
/// The spec's name for a scalar or element type, if ks-bench supports it.
std::optional<StringRef> typeName(Type type) {
  if (type.isF16())
    return "f16";
  if (type.isBF16())
    return "bf16";
  if (type.isF32())
    return "f32";
  if (type.isF64())
    return "f64";
  if (type.isIndex())
    return "i64";
  if (auto integer = dyn_cast<IntegerType>(type)) {
    switch (integer.getWidth()) {
    case 8:
      return integer.isUnsigned() ? "u8" : "i8";
    case 32:
      return integer.isUnsigned() ? "u32" : "i32";
    case 64:
      return integer.isUnsigned() ? "u64" : "i64";
    }
  }
  return std::nullopt;
}

/// A buffer's element as ks-bench sees it: a scalar type and how many of
/// them one element holds. A 1-D vector (`__half2`, `float2`, `float4`
/// lifted) is its lanes: ks-bench fills, poisons and compares each lane,
/// and the buffer's bytes are the same.
struct BufferElement {
  StringRef type;
  int64_t lanes = 1;
};
std::optional<BufferElement> bufferElementOf(Type type) {
  int64_t lanes = 1;
  if (auto vector = dyn_cast<VectorType>(type)) {
    // (A vector of 3 lanes is padded to 4 in memory: not its lanes' bytes.)
    if (vector.getRank() != 1 || vector.isScalable() ||
        !llvm::isPowerOf2_64(vector.getNumElements()))
      return std::nullopt;
    lanes = vector.getNumElements();
    type = vector.getElementType();
  }
  std::optional<StringRef> name = typeName(type);
  if (!name)
    return std::nullopt;
  return BufferElement{*name, lanes};
}

/// `extent` (a formula) elements of `lanes` lanes each, in lanes.
std::string inLanes(const std::string &extent, int64_t lanes) {
  int64_t count;
  if (lanes == 1)
    return extent;
  if (!StringRef(extent).getAsInteger(10, count))
    return std::to_string(count * lanes);
  return std::to_string(lanes) + " * (" + extent + ")";
}

/// Bits of an integer or index type (index: 64, as the analyses assume).
unsigned widthOf(Type type) { return type.isIntOrFloat() ? type.getIntOrFloatBitWidth() : 64; }

/// A launch-size formula for a `width`-bit value. Formulas compute in 64 bits
/// (Support/Formula.h), so after a narrower add, sub or mul only the low
/// `width` bits are right: `canonical` is false until a trunc(x, W) puts
/// the value in canonical form, which is added only where an op reads more
/// than the low bits. Binary results are parenthesized; the caller strips
/// the outermost pair.
struct Formula {
  std::string text;
  unsigned width = 64;
  bool canonical = true;
};

std::string stripParens(std::string formula) {
  if (formula.size() < 2 || formula.front() != '(' || formula.back() != ')')
    return formula;
  int depth = 0;
  for (size_t i = 0; i + 1 < formula.size(); ++i) {
    depth += formula[i] == '(' ? 1 : formula[i] == ')' ? -1 : 0;
    if (depth == 0)
      return formula; // "(a) + (b)": the outer pair does not enclose everything
  }
  return formula.substr(1, formula.size() - 2);
}

/// The value itself, for ops that read every bit (signed division,
/// comparison, extension, the launch).
std::string canonical(const Formula &f) {
  if (f.canonical)
    return f.text;
  return "trunc(" + stripParens(f.text) + ", " + std::to_string(f.width) + ")";
}

/// Rebuilds the integer formula that computes `value` from the launcher's
/// named arguments and constants, with the launcher's integer semantics:
/// wrap-around at the type's width, signed and unsigned division,
/// truncation and extension, as the analyses execute them.
FailureOr<Formula> formulaOf(Value value, const DenseMap<Value, std::string> &names,
                             Location useLoc) {
  if (auto it = names.find(value); it != names.end())
    return Formula{it->second, widthOf(value.getType())};
  Operation *op = value.getDefiningOp();
  if (!op)
    return emitError(useLoc) << "ks-emit-launch-spec: a launch size depends on a block argument "
                                "that is not one of the launcher's arguments";
  unsigned width = widthOf(value.getType());
  auto operands = [&]() -> FailureOr<std::pair<Formula, Formula>> {
    FailureOr<Formula> lhs = formulaOf(op->getOperand(0), names, useLoc);
    if (failed(lhs))
      return failure();
    FailureOr<Formula> rhs = formulaOf(op->getOperand(1), names, useLoc);
    if (failed(rhs))
      return failure();
    return std::make_pair(*lhs, *rhs);
  };
  // + - *: only the operands' low bits matter, and only the result's low
  // `width` bits are right (64-bit results are: formulas wrap at 64).
  auto ring = [&](StringRef infix) -> FailureOr<Formula> {
    auto ab = operands();
    if (failed(ab))
      return failure();
    return Formula{("(" + ab->first.text + " " + infix + " " + ab->second.text + ")").str(), width,
                   width == 64};
  };
  // Signed: the operands' values; the result is canonical.
  auto signedOp = [&](StringRef infix, StringRef fn = {}) -> FailureOr<Formula> {
    auto ab = operands();
    if (failed(ab))
      return failure();
    std::string a = canonical(ab->first), b = canonical(ab->second);
    if (!fn.empty())
      return Formula{(fn + "(" + stripParens(a) + ", " + stripParens(b) + ")").str(), width};
    return Formula{("(" + a + " " + infix + " " + b + ")").str(), width};
  };
  // Unsigned: the function reads the operands' low `width` bits.
  auto unsignedOp = [&](StringRef fn) -> FailureOr<Formula> {
    auto ab = operands();
    if (failed(ab))
      return failure();
    std::string text = (fn + "(" + stripParens(ab->first.text) + ", " +
                        stripParens(ab->second.text))
                           .str();
    if (width != 64)
      text += ", " + std::to_string(width);
    return Formula{text + ")", width};
  };
  auto conversion = [&](bool isUnsigned) -> FailureOr<Formula> {
    FailureOr<Formula> from = formulaOf(op->getOperand(0), names, useLoc);
    if (failed(from))
      return failure();
    if (width <= from->width) // a truncation keeps the low bits
      return Formula{from->text, width, from->canonical && width == from->width};
    if (isUnsigned)
      return Formula{"zext(" + stripParens(from->text) + ", " + std::to_string(from->width) + ")",
                     width};
    return Formula{canonical(*from), width}; // sign extension: the same value
  };
  return llvm::TypeSwitch<Operation *, FailureOr<Formula>>(op)
      .Case<arith::ConstantOp>([&](arith::ConstantOp c) -> FailureOr<Formula> {
        if (auto integer = dyn_cast<IntegerAttr>(c.getValue()))
          return Formula{std::to_string(integer.getValue().getSExtValue()), width};
        return c.emitError("ks-emit-launch-spec: a launch size uses a non-integer constant");
      })
      .Case<arith::IndexCastOp, arith::ExtSIOp, arith::TruncIOp>([&](auto) { return conversion(false); })
      .Case<arith::IndexCastUIOp, arith::ExtUIOp>([&](auto) { return conversion(true); })
      .Case<arith::AddIOp>([&](auto) { return ring("+"); })
      .Case<arith::SubIOp>([&](auto) { return ring("-"); })
      .Case<arith::MulIOp>([&](auto) { return ring("*"); })
      .Case<arith::DivSIOp>([&](auto) { return signedOp("/"); })
      .Case<arith::RemSIOp>([&](auto) { return signedOp("%"); })
      .Case<arith::CeilDivSIOp>([&](auto) { return signedOp("", "ceildiv"); })
      .Case<arith::FloorDivSIOp>([&](auto) { return signedOp("", "floordiv"); })
      .Case<arith::MinSIOp>([&](auto) { return signedOp("", "min"); })
      .Case<arith::MaxSIOp>([&](auto) { return signedOp("", "max"); })
      .Case<arith::DivUIOp>([&](auto) { return unsignedOp("udiv"); })
      .Case<arith::RemUIOp>([&](auto) { return unsignedOp("urem"); })
      .Case<arith::CeilDivUIOp>([&](auto) { return unsignedOp("ceildivu"); })
      .Case<arith::MinUIOp>([&](auto) { return unsignedOp("minu"); })
      .Case<arith::MaxUIOp>([&](auto) { return unsignedOp("maxu"); })
      .Default([&](Operation *other) -> FailureOr<Formula> {
        return other->emitError("ks-emit-launch-spec: cannot express the launch size computed "
                                "by '")
               << other->getName() << "' as a formula of the launcher's arguments";
      });
}

/// The formula of a launch operand, as the launch reads it.
FailureOr<std::string> launchFormula(Value value, const DenseMap<Value, std::string> &names,
                                     Location useLoc) {
  FailureOr<Formula> formula = formulaOf(value, names, useLoc);
  if (failed(formula))
    return failure();
  return stripParens(canonical(*formula));
}

/// How a kernel uses a buffer argument: read, written or both. Follows
/// view-like ops; an op whose effects are unknown counts as both.
std::pair<bool, bool> accessesOf(Value buffer) {
  bool reads = false, writes = false;
  SmallVector<Value> worklist = {buffer};
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    for (OpOperand &use : v.getUses()) {
      Operation *user = use.getOwner();
      if (auto view = dyn_cast<ViewLikeOpInterface>(user)) {
        worklist.push_back(view->getResult(0));
        continue;
      }
      auto effects = dyn_cast<MemoryEffectOpInterface>(user);
      if (!effects) {
        reads = writes = true;
        continue;
      }
      SmallVector<MemoryEffects::EffectInstance> instances;
      effects.getEffectsOnValue(v, instances);
      for (const MemoryEffects::EffectInstance &e : instances) {
        reads |= isa<MemoryEffects::Read>(e.getEffect());
        writes |= isa<MemoryEffects::Write>(e.getEffect());
      }
    }
  }
  return {reads, writes};
}

/// Bounds of an index's value wherever its access runs: the greatest as a
/// formula of the launcher's arguments, the least as a constant when known
/// (a product needs both factors non-negative; a clamp takes the bound of
/// either side).
struct IndexBound {
  std::string max;
  std::optional<int64_t> min;
  bool nonNegative() const { return min && *min >= 0; }
};

/// `v` without the casts that keep its value (index casts, sign extensions).
Value withoutCasts(Value v) {
  while (Operation *op = v.getDefiningOp()) {
    if (!isa<arith::IndexCastOp, arith::ExtSIOp>(op))
      break;
    v = op->getOperand(0);
  }
  return v;
}

/// MLIR's getConstantIntValue, through the casts withoutCasts strips.
std::optional<int64_t> constantOf(OpFoldResult r) {
  if (auto value = dyn_cast<Value>(r))
    return getConstantIntValue(withoutCasts(value));
  return getConstantIntValue(r);
}

bool isIdentifierChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

/// Whether module variable `global` holds its initializer whenever a kernel
/// runs, as far as the module shows: `const`, or initialized in the source
/// (`ks.initialized`: not C's zero, which the host fills), only ever loaded
/// and copied into by no launcher's host code (`ks.host_symbol_copies`): a
/// `__device__ int bucket_of[4][4] = {...}` table. Measured, it holds the
/// initializer, since ks-bench leaves such a variable alone.
bool holdsInitializer(memref::GlobalOp global) {
  if (!global || global.isExternal() || global.isUninitialized())
    return false;
  if (global.getConstant())
    return true;
  if (!global->hasAttr(kInitializedAttrName))
    return false;
  auto copiedInto = [&](ModuleOp module) {
    std::string call = ("cudaMemcpyToSymbol(" + global.getSymName()).str();
    WalkResult found = module.walk([&](func::FuncOp fn) {
      if (auto copies = fn->getAttrOfType<ArrayAttr>(kHostSymbolCopiesAttrName))
        for (Attribute copy : copies)
          if (auto text = dyn_cast<StringAttr>(copy)) {
            StringRef rest = text.getValue();
            if (rest.consume_front(call) && (rest.empty() || !isIdentifierChar(rest.front())))
              return WalkResult::interrupt();
          }
      return WalkResult::advance();
    });
    return found.wasInterrupted();
  };
  if (auto module = global->getParentOfType<ModuleOp>(); module && copiedInto(module))
    return false;
  Operation *scope = SymbolTable::getNearestSymbolTable(global);
  WalkResult written = scope->walk([&](memref::GetGlobalOp get) {
    if (get.getName() != global.getSymName())
      return WalkResult::advance();
    for (Operation *user : get->getUsers())
      if (!isa<memref::LoadOp, vector::LoadOp>(user))
        return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return !written.wasInterrupted();
}

/// The least and greatest element of the integer table `load` reads, when
/// the table holds its initializer (holdsInitializer).
std::optional<std::pair<int64_t, int64_t>> tableRange(memref::LoadOp load) {
  auto get = load.getMemRef().getDefiningOp<memref::GetGlobalOp>();
  if (!get)
    return std::nullopt;
  auto global = SymbolTable::lookupNearestSymbolFrom<memref::GlobalOp>(get, get.getNameAttr());
  if (!holdsInitializer(global))
    return std::nullopt;
  auto values = dyn_cast_or_null<DenseIntElementsAttr>(global.getInitialValueAttr());
  if (!values || values.empty())
    return std::nullopt;
  int64_t least = std::numeric_limits<int64_t>::max(), most = std::numeric_limits<int64_t>::min();
  for (const APInt &v : values) {
    least = std::min(least, v.getSExtValue());
    most = std::max(most, v.getSExtValue());
  }
  return std::make_pair(least, most);
}

std::optional<IndexBound> boundOf(Value v, Operation *access,
                                  const DenseMap<Value, std::string> &names, int depth = 0);

/// `a pred b` as `b pred' a`.
arith::CmpIPredicate swapped(arith::CmpIPredicate pred) {
  using P = arith::CmpIPredicate;
  switch (pred) {
  case P::slt: return P::sgt;
  case P::sgt: return P::slt;
  case P::sle: return P::sge;
  case P::sge: return P::sle;
  case P::ult: return P::ugt;
  case P::ugt: return P::ult;
  case P::ule: return P::uge;
  case P::uge: return P::ule;
  default: return pred; // eq, ne
  }
}

/// One comparison that holds wherever an access runs: `lhs pred rhs`.
struct Fact {
  arith::CmpIPredicate pred;
  Value lhs, rhs;
};

/// The comparisons `cond` (negated: its negation) implies, as the lifter
/// writes conditions: a comparison, `!c` (xor with true), `a & b`, and the
/// short-circuit forms `a && b` (if a {b} else {false}) and `a || b`
/// (if a {true} else {b}); a disjunction implies nothing here.
void collectFacts(Value cond, bool negated, SmallVectorImpl<Fact> &facts, int depth = 0) {
  if (depth > 8)
    return;
  Operation *def = cond.getDefiningOp();
  if (!def)
    return;
  if (auto cmp = dyn_cast<arith::CmpIOp>(def)) {
    arith::CmpIPredicate pred = cmp.getPredicate();
    facts.push_back({negated ? arith::invertPredicate(pred) : pred, cmp.getLhs(), cmp.getRhs()});
    return;
  }
  if (auto x = dyn_cast<arith::XOrIOp>(def)) {
    for (int k : {0, 1})
      if (std::optional<int64_t> c = getConstantIntValue(x->getOperand(k)); c && *c != 0)
        return collectFacts(x->getOperand(1 - k), !negated, facts, depth + 1);
    return;
  }
  if (isa<arith::AndIOp>(def) && !negated) {
    collectFacts(def->getOperand(0), false, facts, depth + 1);
    collectFacts(def->getOperand(1), false, facts, depth + 1);
    return;
  }
  if (isa<arith::OrIOp>(def) && negated) {
    collectFacts(def->getOperand(0), true, facts, depth + 1);
    collectFacts(def->getOperand(1), true, facts, depth + 1);
    return;
  }
  auto ifOp = dyn_cast<scf::IfOp>(def);
  if (!ifOp || ifOp.getNumResults() != 1 || ifOp.getElseRegion().empty())
    return;
  unsigned index = cast<OpResult>(cond).getResultNumber();
  Value thenValue = ifOp.thenYield()->getOperand(index),
        elseValue = ifOp.elseYield()->getOperand(index);
  std::optional<int64_t> thenConst = getConstantIntValue(thenValue),
                         elseConst = getConstantIntValue(elseValue);
  if (!negated && elseConst && *elseConst == 0) { // a && b holds: a, b
    collectFacts(ifOp.getCondition(), false, facts, depth + 1);
    collectFacts(thenValue, false, facts, depth + 1);
  } else if (negated && thenConst && *thenConst != 0) { // a || b fails: !a, !b
    collectFacts(ifOp.getCondition(), true, facts, depth + 1);
    collectFacts(elseValue, true, facts, depth + 1);
  }
}

/// The comparisons the `if`s around `access` imply where it runs: each
/// enclosing condition, negated for an access in its else-region.
SmallVector<Fact> guardFacts(Operation *access) {
  SmallVector<Fact> facts;
  for (Operation *child = access, *parent = access->getParentOp(); parent;
       child = parent, parent = parent->getParentOp()) {
    auto ifOp = dyn_cast<scf::IfOp>(parent);
    if (!ifOp)
      continue;
    bool inThen = ifOp.getThenRegion().isAncestor(child->getParentRegion());
    collectFacts(ifOp.getCondition(), /*negated=*/!inThen, facts);
  }
  return facts;
}

/// `side` as v + offset: v itself (offset 0), or v plus or minus a constant
/// without wrapping (index, or nsw), as guards write `n - 1`.
std::optional<int64_t> offsetFrom(Value side, Value v) {
  side = withoutCasts(side);
  if (side == v)
    return 0;
  Operation *def = side.getDefiningOp();
  auto flags = dyn_cast_or_null<arith::ArithIntegerOverflowFlagsInterface>(def);
  if (!def || !isa<arith::AddIOp, arith::SubIOp>(def) ||
      !(side.getType().isIndex() || (flags && flags.hasNoSignedWrap())))
    return std::nullopt;
  if (withoutCasts(def->getOperand(0)) == v)
    if (std::optional<int64_t> c = constantOf(def->getOperand(1)))
      return isa<arith::SubIOp>(def) ? -*c : *c;
  if (isa<arith::AddIOp>(def) && withoutCasts(def->getOperand(1)) == v)
    return constantOf(def->getOperand(0));
  return std::nullopt;
}

/// Whether `x` is a thread's global index or another value built from thread
/// and block ids and sizes and non-negative constants by additions and
/// products: never negative.
bool isThreadIndex(Value x, int depth = 0) {
  if (depth > 8)
    return false;
  x = withoutCasts(x);
  Operation *def = x.getDefiningOp();
  if (!def)
    return false;
  if (isa<gpu::ThreadIdOp, gpu::BlockIdOp, gpu::BlockDimOp, gpu::GridDimOp>(def))
    return true;
  if (isa<arith::IndexCastUIOp, arith::ExtUIOp>(def))
    return isThreadIndex(def->getOperand(0), depth + 1);
  if (std::optional<int64_t> c = getConstantIntValue(x))
    return *c >= 0;
  if (isa<arith::AddIOp, arith::MulIOp>(def))
    return isThreadIndex(def->getOperand(0), depth + 1) &&
           isThreadIndex(def->getOperand(1), depth + 1);
  return false;
}

/// The bounds of `v` that the guards around `access` state: `v < b` (or
/// `b > v`, `v <= b`, unsigned alike) in the condition of an enclosing
/// `if` whose then-region holds the access, or the negation of one whose
/// else-region does (`if (i >= n) return;` lifts to that), one less where a
/// guard also excludes b - 1. The least is a constant `v >= c`; without one,
/// 0 for a thread's global index (thread and block ids and sizes combined by
/// additions and products), past the constants the guards exclude.
std::optional<IndexBound> guardedBound(Value v, Operation *access,
                                       const DenseMap<Value, std::string> &names, int depth) {
  SmallVector<Fact> facts = guardFacts(access);
  std::optional<IndexBound> best;
  std::optional<int64_t> least;
  SmallVector<Value> excluded; // `v != x`
  Value strictBound;           // b of the `v < b` that gave `best`
  using P = arith::CmpIPredicate;
  for (const Fact &f : facts) {
    bool left = withoutCasts(f.lhs) == v, right = withoutCasts(f.rhs) == v;
    if (!left && !right)
      continue;
    // As `v pred other`.
    P pred = left ? f.pred : swapped(f.pred);
    Value other = left ? f.rhs : f.lhs;
    if (pred == P::ne)
      excluded.push_back(other);
    if (std::optional<int64_t> c = constantOf(other)) {
      if (pred == P::sge || pred == P::uge)
        least = std::max(least.value_or(*c), *c);
      else if (pred == P::sgt || pred == P::ugt)
        least = std::max(least.value_or(*c + 1), *c + 1);
    }
    int64_t below = pred == P::slt || pred == P::ult ? 1 : pred == P::sle || pred == P::ule ? 0 : -1;
    if (below < 0 || best)
      continue;
    if (std::optional<IndexBound> b = boundOf(other, access, names, depth + 1)) {
      best = IndexBound{below ? "(" + b->max + " - 1)" : b->max, std::nullopt};
      if (below)
        strictBound = withoutCasts(other);
    }
  }
  if (!best)
    return std::nullopt;
  // `v < b` and `v != b - 1` (`if (i >= n || ... || i == n - 1) return;`,
  // a border copied apart): v <= b - 2.
  auto isBoundLessOne = [&](Value x) { return offsetFrom(x, strictBound) == -1; };
  if (strictBound && llvm::any_of(excluded, isBoundLessOne))
    best->max = "(" + best->max + " - 1)";
  best->min = least ? least : isThreadIndex(v) ? std::optional<int64_t>(0) : std::nullopt;
  // A least the guards exclude is not reached (`if (i == 0 || ...) return;`
  // leaves i >= 1 for a thread index).
  auto isExcluded = [&](int64_t c) {
    return llvm::any_of(excluded, [&](Value x) { return constantOf(x) == c; });
  };
  while (best->min && isExcluded(*best->min))
    ++*best->min;
  return best;
}

/// The least value of scalar `v` that the guards around `access` imply from
/// a non-negative other side: `i < v` with `i` a thread's global index means
/// v >= 1 where the access runs, `i <= v` v >= 0, `v > c` v >= c + 1, and
/// `i < v - 1` v >= 2 (v plus or minus a constant, as guards write it). A
/// scalar otherwise might be negative, and a product with it has no bound.
std::optional<int64_t> guardedLeast(Value v, Operation *access) {
  SmallVector<Fact> facts = guardFacts(access);
  using P = arith::CmpIPredicate;
  std::optional<int64_t> least;
  auto atLeast = [&](int64_t c) { least = std::max(least.value_or(c), c); };
  for (const Fact &f : facts) {
    std::optional<int64_t> left = offsetFrom(f.lhs, v), right = offsetFrom(f.rhs, v);
    if (left.has_value() == right.has_value())
      continue;
    // As `v + offset pred other`.
    P pred = left ? f.pred : swapped(f.pred);
    Value other = left ? f.rhs : f.lhs;
    int64_t offset = left ? *left : *right;
    // Unsigned comparisons say nothing about a signed least.
    if (pred != P::sgt && pred != P::sge)
      continue;
    int64_t strict = pred == P::sgt ? 1 : 0;
    if (std::optional<int64_t> c = constantOf(other))
      atLeast(*c + strict - offset);
    else if (isThreadIndex(other))
      atLeast(strict - offset);
  }
  return least;
}

/// The bounds of a counter of a lifted `for (i = c; i < n; i += s)`, an
/// `scf.while` whose condition forwards the counter compared with `<`
/// (after region argument `arg`), started at a constant and advanced by a
/// positive constant: [c, bound of n - 1].
std::optional<IndexBound> whileCounterBound(BlockArgument arg, Operation *access,
                                            const DenseMap<Value, std::string> &names,
                                            int depth) {
  auto loop = dyn_cast<scf::WhileOp>(arg.getOwner()->getParentOp());
  if (!loop || arg.getOwner() != &loop.getAfter().front())
    return std::nullopt;
  scf::ConditionOp condition = loop.getConditionOp();
  auto forwarded = dyn_cast<BlockArgument>(condition.getArgs()[arg.getArgNumber()]);
  if (!forwarded || forwarded.getOwner() != &loop.getBefore().front())
    return std::nullopt;
  unsigned j = forwarded.getArgNumber();
  auto cmp = condition.getCondition().getDefiningOp<arith::CmpIOp>();
  if (!cmp)
    return std::nullopt;
  using P = arith::CmpIPredicate;
  Value ub;
  if (cmp.getLhs() == forwarded && cmp.getPredicate() == P::slt)
    ub = cmp.getRhs();
  else if (cmp.getRhs() == forwarded && cmp.getPredicate() == P::sgt)
    ub = cmp.getLhs();
  if (!ub)
    return std::nullopt;
  std::optional<int64_t> start = constantOf(loop.getInits()[j]);
  auto next = loop.getYieldOp()->getOperand(j).getDefiningOp<arith::AddIOp>();
  if (!start || !next)
    return std::nullopt;
  std::optional<int64_t> step;
  for (int k : {0, 1})
    if (next->getOperand(k) == arg)
      step = constantOf(next->getOperand(1 - k));
  if (!step || *step <= 0)
    return std::nullopt;
  std::optional<IndexBound> b = boundOf(ub, access, names, depth + 1);
  if (!b)
    return std::nullopt;
  return IndexBound{"(" + b->max + " - 1)", start};
}

/// The bounds of an index built from loop induction variables (positive
/// constant steps; the least known when the start is a constant), launcher scalars and
/// constants by additions, products, constant subtractions and clamps
/// (min/max) that cannot wrap (index, or nsw), and from unsigned values of at
/// most 16 bits: an induction variable lies in [start, upper bound - 1] (the
/// upper bound itself bounded the same way, for a triangular loop); a scalar
/// is itself, above c where it bounds an enclosing loop from a constant c
/// (the access runs only when that loop has an iteration). Anything else has
/// no bound here.
std::optional<IndexBound> boundOf(Value v, Operation *access,
                                  const DenseMap<Value, std::string> &names, int depth) {
  if (depth > 16)
    return std::nullopt;
  v = withoutCasts(v);
  // A constant is itself (before the guards: in `if (i >= 1)` the 1 is not
  // bounded by i).
  if (std::optional<int64_t> c = constantOf(v))
    return IndexBound{std::to_string(*c), *c};
  // The guard around the access bounds what it compares (`if (i < n)`).
  if (std::optional<IndexBound> guarded = guardedBound(v, access, names, depth))
    return guarded;
  auto arg = dyn_cast<BlockArgument>(v);
  if (arg)
    if (std::optional<IndexBound> counter = whileCounterBound(arg, access, names, depth))
      return counter;
  if (auto loop = arg ? dyn_cast<LoopLikeOpInterface>(arg.getOwner()->getParentOp())
                      : LoopLikeOpInterface()) {
    std::optional<SmallVector<Value>> ivs = loop.getLoopInductionVars();
    std::optional<SmallVector<OpFoldResult>> lbs = loop.getLoopLowerBounds(),
                                             ubs = loop.getLoopUpperBounds(),
                                             steps = loop.getLoopSteps();
    // Bounds compared unsigned (RaiseCountedLoops' `ult` loops) may exceed
    // the signed range the formulas assume.
    auto counted = dyn_cast<scf::ForOp>(loop.getOperation());
    if (!ivs || !lbs || !ubs || !steps || (counted && counted.getUnsignedCmp()))
      return std::nullopt;
    for (auto [i, iv] : llvm::enumerate(*ivs)) {
      if (iv != arg)
        continue;
      std::optional<int64_t> lb = constantOf((*lbs)[i]), step = constantOf((*steps)[i]);
      if (!step || *step <= 0)
        return std::nullopt;
      std::optional<IndexBound> ub;
      if (std::optional<int64_t> c = constantOf((*ubs)[i]))
        ub = IndexBound{std::to_string(*c), *c};
      else
        ub = boundOf(cast<Value>((*ubs)[i]), access, names, depth + 1);
      if (!ub)
        return std::nullopt;
      return IndexBound{"(" + ub->max + " - 1)", lb};
    }
    return std::nullopt;
  }
  Operation *op = v.getDefiningOp();
  // An element of a table that holds its initializer (a bucket's number).
  if (auto load = dyn_cast_or_null<memref::LoadOp>(op))
    if (std::optional<std::pair<int64_t, int64_t>> range = tableRange(load))
      return IndexBound{std::to_string(range->second), range->first};
  // An unsigned value of a few bits (a byte read as a bin's index).
  if (op && isa<arith::ExtUIOp, arith::IndexCastUIOp>(op))
    if (auto narrow = dyn_cast<IntegerType>(op->getOperand(0).getType());
        narrow && narrow.getWidth() <= 16)
      return IndexBound{std::to_string((int64_t(1) << narrow.getWidth()) - 1), 0};
  auto exact = [&](Operation *o) {
    auto flags = dyn_cast<arith::ArithIntegerOverflowFlagsInterface>(o);
    return o->getResult(0).getType().isIndex() || (flags && flags.hasNoSignedWrap());
  };
  bool ring = op && isa<arith::AddIOp, arith::SubIOp, arith::MulIOp>(op) && exact(op);
  if (ring || (op && isa<arith::MinSIOp, arith::MaxSIOp>(op))) {
    std::optional<IndexBound> a = boundOf(op->getOperand(0), access, names, depth + 1);
    if (!a)
      return std::nullopt;
    // a - c: the least known only for a constant c.
    if (isa<arith::SubIOp>(op)) {
      std::optional<int64_t> c = constantOf(op->getOperand(1));
      if (!c)
        return std::nullopt;
      return IndexBound{"(" + a->max + " - " + std::to_string(*c) + ")",
                        a->min ? std::optional<int64_t>(*a->min - *c) : std::nullopt};
    }
    std::optional<IndexBound> b = boundOf(op->getOperand(1), access, names, depth + 1);
    if (!b)
      return std::nullopt;
    auto both = [&](auto f) -> std::optional<int64_t> {
      if (a->min && b->min)
        return f(*a->min, *b->min);
      return std::nullopt;
    };
    if (isa<arith::AddIOp>(op))
      return IndexBound{"(" + a->max + " + " + b->max + ")",
                        both([](int64_t x, int64_t y) { return x + y; })};
    if (isa<arith::MaxSIOp>(op)) {
      std::optional<int64_t> least = a->min;
      if (b->min && (!least || *b->min > *least))
        least = b->min;
      return IndexBound{"max(" + a->max + ", " + b->max + ")", least};
    }
    if (isa<arith::MinSIOp>(op))
      return IndexBound{"min(" + a->max + ", " + b->max + ")",
                        both([](int64_t x, int64_t y) { return std::min(x, y); })};
    if (!a->nonNegative() || !b->nonNegative())
      return std::nullopt;
    return IndexBound{"(" + a->max + " * " + b->max + ")", *a->min * *b->min};
  }
  // A block id is named by its greatest value (the grid size - 1), a
  // thread id likewise (the block size - 1), a block size by itself: leaves,
  // combined only by the rules above, which never decrease.
  Value id = v;
  if (auto cast = id.getDefiningOp<arith::IndexCastUIOp>())
    id = cast.getIn();
  if (isa_and_nonnull<gpu::BlockIdOp, gpu::ThreadIdOp, gpu::BlockDimOp>(id.getDefiningOp())) {
    auto it = names.find(id);
    if (it == names.end())
      return std::nullopt;
    return IndexBound{it->second, 0};
  }
  // A scalar (or a formula of scalars): itself, exactly, so no block id may
  // hide inside (its name is a bound, not its value).
  SmallVector<Value> pending = {v};
  while (!pending.empty())
    if (Operation *def = pending.pop_back_val().getDefiningOp()) {
      if (isa<gpu::BlockIdOp, gpu::ThreadIdOp>(def))
        return std::nullopt;
      llvm::append_range(pending, def->getOperands());
    }
  FailureOr<std::string> formula = launchFormula(v, names, access->getLoc());
  if (failed(formula))
    return std::nullopt;
  // The access runs only where its guards hold and inside an iteration: a
  // scalar that bounds a loop from a constant start c is above c there.
  std::optional<int64_t> least = guardedLeast(v, access);
  for (Operation *parent = access->getParentOp(); parent; parent = parent->getParentOp()) {
    auto loop = dyn_cast<LoopLikeOpInterface>(parent);
    if (!loop)
      continue;
    std::optional<SmallVector<OpFoldResult>> lbs = loop.getLoopLowerBounds(),
                                             ubs = loop.getLoopUpperBounds();
    if (!lbs || !ubs)
      continue;
    for (auto [lb, ub] : llvm::zip(*lbs, *ubs)) {
      auto value = dyn_cast<Value>(ub);
      std::optional<int64_t> start = constantOf(lb);
      if (value && withoutCasts(value) == v && start && (!least || *start + 1 > *least))
        least = *start + 1;
    }
  }
  return IndexBound{"(" + *formula + ")", least};
}

/// An access to the 1-D `buffer` (identity layout) in place: its index and
/// how many elements from it the access touches. One for a load, store or
/// atomic; the lanes for a 1-D vector load or store of the buffer's element
/// type (a float4 read through a float pointer). Nothing for other users.
std::optional<std::pair<Value, int64_t>> inPlaceAccess(Operation *user, Value buffer) {
  auto type = cast<MemRefType>(buffer.getType());
  if (type.getRank() != 1 || !type.getLayout().isIdentity())
    return std::nullopt;
  return TypeSwitch<Operation *, std::optional<std::pair<Value, int64_t>>>(user)
      .Case<memref::LoadOp, memref::StoreOp, memref::AtomicRMWOp, memref::GenericAtomicRMWOp>(
          [&](auto access) -> std::optional<std::pair<Value, int64_t>> {
            if (access.getMemref() != buffer)
              return std::nullopt;
            return std::make_pair(access.getIndices().front(), int64_t(1));
          })
      .Case<vector::LoadOp, vector::StoreOp>(
          [&](auto access) -> std::optional<std::pair<Value, int64_t>> {
            VectorType vector = access.getVectorType();
            if (access.getBase() != buffer || vector.getRank() != 1 || vector.isScalable() ||
                vector.getElementType() != type.getElementType())
              return std::nullopt;
            return std::make_pair(access.getIndices().front(), vector.getNumElements());
          })
      .Default([](Operation *) { return std::nullopt; });
}

} // namespace

llvm::StringMap<std::string> mlir::ks::inferBufferExtents(gpu::LaunchFuncOp launch,
                                                          func::FuncOp fn) {
  llvm::StringMap<std::string> extents;
  auto kernel = SymbolTable::lookupNearestSymbolFrom<gpu::GPUFuncOp>(launch, launch.getKernel());
  if (!kernel || kernel.isExternal())
    return extents;
  // Kernel arguments named as the launch passes them.
  DenseMap<Value, std::string> launcherNames, names;
  for (auto [i, arg] : llvm::enumerate(fn.getArguments()))
    launcherNames[arg] = getArgumentName(fn, i);
  // Failed formulas are not errors here: the extent is simply not inferred.
  ScopedDiagnosticHandler quiet(kernel->getContext(), [](Diagnostic &) { return success(); });
  for (auto [i, operand] : llvm::enumerate(launch.getKernelOperands())) {
    if (auto it = launcherNames.find(operand); it != launcherNames.end()) {
      names[kernel.getArgument(i)] = it->second;
      continue;
    }
    // A scalar the launcher computes (`n4 = n / 4`): its formula.
    if (operand.getType().isIntOrIndex())
      if (FailureOr<std::string> f = launchFormula(operand, launcherNames, launch.getLoc());
          succeeded(f))
        names[kernel.getArgument(i)] = "(" + *f + ")";
  }
  // A view offset by the block id (a batch on blockIdx.z) spans the most at
  // the last block: the block id is at most the launch's grid size - 1.
  gpu::KernelDim3 grid = launch.getGridSizeOperandValues();
  kernel.walk([&](Operation *op) {
    auto dimension = [&](gpu::Dimension d) {
      return d == gpu::Dimension::x ? grid.x : d == gpu::Dimension::y ? grid.y : grid.z;
    };
    if (auto id = dyn_cast<gpu::BlockIdOp>(op)) {
      FailureOr<std::string> size =
          launchFormula(dimension(id.getDimension()), launcherNames, launch.getLoc());
      if (succeeded(size))
        names[id] = "(" + *size + " - 1)";
    } else if (auto dim = dyn_cast<gpu::GridDimOp>(op)) {
      FailureOr<std::string> size =
          launchFormula(dimension(dim.getDimension()), launcherNames, launch.getLoc());
      if (succeeded(size))
        names[dim] = "(" + *size + ")";
    } else if (isa<gpu::ThreadIdOp, gpu::BlockDimOp>(op)) {
      // A thread id is at most the block size - 1; the block size itself.
      gpu::Dimension d = isa<gpu::ThreadIdOp>(op) ? cast<gpu::ThreadIdOp>(op).getDimension()
                                                 : cast<gpu::BlockDimOp>(op).getDimension();
      gpu::KernelDim3 block = launch.getBlockSizeOperandValues();
      Value size = d == gpu::Dimension::x ? block.x : d == gpu::Dimension::y ? block.y : block.z;
      FailureOr<std::string> f = launchFormula(size, launcherNames, launch.getLoc());
      if (succeeded(f))
        names[op->getResult(0)] = isa<gpu::ThreadIdOp>(op) ? "(" + *f + " - 1)" : "(" + *f + ")";
    }
  });
  auto formula = [&](OpFoldResult r) -> std::optional<std::string> {
    if (auto attr = dyn_cast<Attribute>(r))
      return std::to_string(cast<IntegerAttr>(attr).getInt());
    FailureOr<std::string> f = launchFormula(cast<Value>(r), names, kernel.getLoc());
    return succeeded(f) ? std::optional<std::string>(*f) : std::nullopt;
  };
  for (auto [i, arg] : llvm::enumerate(kernel.getArguments())) {
    if (!isa<MemRefType>(arg.getType()) || !names.count(arg) || arg.use_empty())
      continue;
    std::vector<std::string> spans;
    bool known = true;
    for (Operation *user : arg.getUsers()) {
      // An alignment check reads the pointer, no element (the schedules'
      // 128-bit accesses test it).
      if (isa<memref::ExtractAlignedPointerAsIndexOp>(user))
        continue;
      // Elements read or written in place (a 1-D buffer indexed by
      // arithmetic the raising left alone, e.g. a triangular loop's rows).
      if (std::optional<std::pair<Value, int64_t>> access = inPlaceAccess(user, arg)) {
        std::optional<IndexBound> bound = boundOf(access->first, user, names);
        if (!bound) {
          known = false;
          break;
        }
        spans.push_back(bound->max + " + " + std::to_string(access->second));
        continue;
      }
      auto view = dyn_cast<memref::ReinterpretCastOp>(user);
      if (!view || view.getSource() != arg) {
        known = false;
        break;
      }
      std::optional<std::string> offset = formula(view.getMixedOffsets().front());
      std::string span = offset ? "(" + *offset + ")" : "";
      for (auto [size, stride] : llvm::zip(view.getMixedSizes(), view.getMixedStrides())) {
        std::optional<std::string> s = formula(size), t = formula(stride);
        if (!s || !t) {
          known = false;
          break;
        }
        span += " + (" + *s + " - 1) * (" + *t + ")";
      }
      if (!offset || !known) {
        known = false;
        break;
      }
      spans.push_back(span + " + 1");
    }
    if (!known || spans.empty())
      continue;
    // At least one element: an empty view needs no memory, ks-bench some.
    std::string extent = "1";
    for (const std::string &span : spans)
      extent = "max(" + extent + ", " + span + ")";
    extents[names[arg]] = extent;
  }
  // What the launcher recorded of the lifted kernel (ks.extents, written by
  // the driver) for the buffers this kernel's accesses do not bound.
  if (auto recorded = fn->getAttrOfType<DictionaryAttr>(kExtentsAttrName))
    for (Value operand : launch.getKernelOperands())
      if (auto it = launcherNames.find(operand);
          it != launcherNames.end() && isa<MemRefType>(operand.getType()))
        if (auto formula = recorded.getAs<StringAttr>(it->second))
          extents.try_emplace(it->second, formula.str());
  return extents;
}

void mlir::ks::recordLiftedExtents(ModuleOp module, ModuleOp lifted, StringRef kernel) {
  auto launchOf = [&](func::FuncOp fn) {
    gpu::LaunchFuncOp found;
    fn.walk([&](gpu::LaunchFuncOp launch) {
      if (!found && launch.getKernelName() == kernel)
        found = launch;
    });
    return found;
  };
  module.walk([&](func::FuncOp launcher) {
    gpu::LaunchFuncOp launch = launchOf(launcher);
    auto before = lifted.lookupSymbol<func::FuncOp>(launcher.getSymName());
    gpu::LaunchFuncOp beforeLaunch = before ? launchOf(before) : gpu::LaunchFuncOp();
    if (!launch || !beforeLaunch)
      return;
    llvm::StringMap<std::string> now = inferBufferExtents(launch, launcher);
    NamedAttrList recorded;
    if (auto old = launcher->getAttrOfType<DictionaryAttr>(kExtentsAttrName))
      recorded.append(old.getValue());
    bool added = false;
    Builder b(launcher.getContext());
    for (auto &[name, extent] : inferBufferExtents(beforeLaunch, before))
      if (!now.count(name)) { // `now` holds what was recorded already
        recorded.set(name, b.getStringAttr(extent));
        added = true;
      }
    if (added)
      launcher->setAttr(kExtentsAttrName, recorded.getDictionary(launcher.getContext()));
  });
}

FailureOr<std::string> mlir::ks::buildLauncherParams(func::FuncOp fn,
                                                     const llvm::StringMap<std::string> &extents,
                                                     std::string &why) {
  // Per launcher buffer: the extents its launches need, how they use it.
  llvm::StringMap<std::vector<std::string>> spans;
  DenseMap<Value, std::pair<bool, bool>> uses; // launcher argument -> (reads, writes)
  std::vector<std::pair<std::string, std::pair<memref::GlobalOp, std::pair<bool, bool>>>> globals;
  fn.walk([&](gpu::LaunchFuncOp launch) {
    auto kernel = SymbolTable::lookupNearestSymbolFrom<gpu::GPUFuncOp>(launch, launch.getKernel());
    if (!kernel || kernel.isExternal())
      return;
    for (auto &[name, extent] : inferBufferExtents(launch, fn))
      spans[name].push_back(extent);
    for (auto [i, operand] : llvm::enumerate(launch.getKernelOperands())) {
      if (!isa<MemRefType>(operand.getType()))
        continue;
      auto [reads, writes] = accessesOf(kernel.getArgument(i));
      auto &u = uses[operand];
      u.first |= reads;
      u.second |= writes;
    }
    kernel.walk([&](memref::GetGlobalOp get) {
      auto global =
          SymbolTable::lookupNearestSymbolFrom<memref::GlobalOp>(get, get.getNameAttr());
      if (!global || global.getConstant() || holdsInitializer(global))
        return;
      auto [reads, writes] = accessesOf(get.getResult());
      auto it = llvm::find_if(globals, [&](auto &g) { return g.first == get.getName(); });
      if (it == globals.end())
        globals.push_back({get.getName().str(), {global, {reads, writes}}});
      else
        it->second.second = {it->second.second.first || reads, it->second.second.second || writes};
    });
  });
  auto roleOf = [](bool reads, bool writes) {
    return reads && writes ? keys::kRoleInOut : writes ? keys::kRoleOut : keys::kRoleIn;
  };
  llvm::json::Array params;
  for (auto [i, arg] : llvm::enumerate(fn.getArguments())) {
    std::string name = getArgumentName(fn, i);
    llvm::json::Object param{{keys::kName, name}};
    if (auto memref = dyn_cast<MemRefType>(arg.getType())) {
      std::optional<BufferElement> elem = bufferElementOf(memref.getElementType());
      if (!elem) {
        why = "buffer '" + name + "' has an element type the emulator does not take";
        return failure();
      }
      param[keys::kType] = elem->type;
      std::string extent;
      if (extents.count(name)) {
        extent = extents.lookup(name);
      } else if (auto it = spans.find(name); it != spans.end()) {
        extent = "1";
        for (const std::string &span : it->second)
          extent = "max(" + extent + ", " + span + ")";
      } else if (memref.hasStaticShape()) {
        extent = std::to_string(memref.getNumElements());
      } else {
        why = "the extent of buffer '" + name + "' is unknown";
        return failure();
      }
      param[keys::kExtent] = inLanes(extent, elem->lanes);
      auto [reads, writes] = uses.lookup(arg);
      param[keys::kRole] = !reads && !writes && fn.getArgAttr(i, "ks.scratch")
                               ? keys::kRoleScratch
                               : roleOf(reads || (!reads && !writes), writes);
    } else {
      std::optional<StringRef> type = typeName(arg.getType());
      if (!type) {
        why = "scalar '" + name + "' has a type the emulator does not take";
        return failure();
      }
      param[keys::kType] = *type;
    }
    params.push_back(std::move(param));
  }
  for (auto &[name, g] : globals) {
    auto &[global, rw] = g;
    std::optional<BufferElement> elem = bufferElementOf(global.getType().getElementType());
    if (!elem) {
      why = "module variable '" + name + "' has an element type the emulator does not take";
      return failure();
    }
    params.push_back(llvm::json::Object{
        {keys::kName, "@" + name},
        {keys::kType, elem->type},
        {keys::kExtent, std::to_string(global.getType().getNumElements() * elem->lanes)},
        {keys::kRole, roleOf(rw.first, rw.second)}});
  }
  llvm::json::Object doc{{keys::kParams, std::move(params)}};
  return llvm::formatv("{0}", llvm::json::Value(std::move(doc))).str();
}

FailureOr<std::string> mlir::ks::buildLaunchSpec(gpu::LaunchFuncOp launch, func::FuncOp fn,
                                                 bool requireExtents,
                                                 const llvm::StringMap<std::string> *extents) {
  auto kernel = SymbolTable::lookupNearestSymbolFrom<gpu::GPUFuncOp>(launch, launch.getKernel());
  if (!kernel)
    return launch.emitError("ks-emit-launch-spec: cannot find the launched kernel");
  auto workload = fn->getAttrOfType<WorkloadAttr>("ks.workload");

  // Names of the launcher's arguments.
  DenseMap<Value, std::string> names;
  for (auto [i, arg] : llvm::enumerate(fn.getArguments()))
    names[arg] = getArgumentName(fn, i);

  llvm::json::Array params;
  llvm::json::Object scalars;
  for (auto [i, operand] : llvm::enumerate(launch.getKernelOperands())) {
    auto it = names.find(operand);
    if (it == names.end()) {
      // A scalar the launcher computes (`n4 = n / 4`, a clamped block
      // count): the spec gives it as a formula of the launcher's scalars.
      FailureOr<std::string> value = failure();
      if (operand.getType().isIntOrIndex()) {
        ScopedDiagnosticHandler quiet(launch.getContext(),
                                      [](Diagnostic &) { return success(); });
        value = launchFormula(operand, names, launch.getLoc());
      }
      std::optional<StringRef> type = typeName(operand.getType());
      if (failed(value) || !type)
        return launch.emitError("ks-emit-launch-spec: kernel operand #")
               << i << " is neither an argument of the launcher nor computed from its "
               << "scalars; pass it through one";
      std::string name = getArgumentName(kernel, i);
      if (llvm::any_of(fn.getArguments(), [&](BlockArgument a) {
            return getArgumentName(fn, a.getArgNumber()) == name;
          }))
        name += "_" + std::to_string(i);
      params.push_back(llvm::json::Object{
          {keys::kName, name}, {keys::kType, *type}, {keys::kValue, stripParens(*value)}});
      continue;
    }
    const std::string &name = it->second;
    llvm::json::Object param{{keys::kName, name}};
    if (auto memref = dyn_cast<MemRefType>(operand.getType())) {
      std::optional<BufferElement> elem = bufferElementOf(memref.getElementType());
      if (!elem)
        return launch.emitError("ks-emit-launch-spec: buffer '")
               << name << "' has element type " << memref.getElementType()
               << ", which ks-bench does not support";
      param[keys::kType] = elem->type;
      std::optional<std::string> extent;
      if (memref.hasStaticShape())
        extent = std::to_string(memref.getNumElements());
      else if (std::optional<int64_t> given =
                   workload ? workload.getBufferExtent(name) : std::nullopt)
        extent = std::to_string(*given);
      else if (extents && extents->count(name))
        extent = extents->lookup(name);
      if (!extent && !requireExtents) {
        // A manifest without sizes: ks-bench asks for the extent.
      } else if (!extent)
        return launch.emitError("ks-emit-launch-spec: the extent of buffer '")
               << name << "' is unknown: give it (in elements) in the launcher's "
               << "ks.workload = #ks.workload<..., buffers = {" << name << " = N}>";
      if (extent)
        param[keys::kExtent] = inLanes(*extent, elem->lanes);
      auto [reads, writes] = accessesOf(kernel.getArgument(i));
      // The launcher's own intermediate (the importer's ks.scratch) that
      // this kernel no longer touches (a fused kernel's dropped buffer): no
      // result and no input. One this launch writes is its output and one
      // it reads its input (another launch of the launcher fills it): the
      // spec describes this launch alone, so they keep those roles.
      bool scratch = !reads && !writes && isLauncherParamWith(operand, "ks.scratch");
      param[keys::kRole] = scratch            ? keys::kRoleScratch
                           : reads && writes ? keys::kRoleInOut
                           : writes          ? keys::kRoleOut
                                             : keys::kRoleIn;
    } else {
      std::optional<StringRef> type = typeName(operand.getType());
      if (!type || *type == "f16" || *type == "bf16")
        return launch.emitError("ks-emit-launch-spec: scalar '")
               << name << "' has type " << operand.getType()
               << ", which ks-bench does not pass (integers, f32, f64)";
      param[keys::kType] = *type;
      Attribute value = workload ? workload.getScalars().get(name) : Attribute();
      if (auto integer = dyn_cast_or_null<IntegerAttr>(value)) {
        scalars[name] = integer.getInt();
      } else if (auto real = dyn_cast_or_null<FloatAttr>(value)) {
        double d = real.getValueAsDouble();
        if (d != std::floor(d))
          return launch.emitError("ks-emit-launch-spec: scalar '")
                 << name << "' = " << d << ": ks-bench takes integral workload values";
        scalars[name] = int64_t(d);
      }
    }
    params.push_back(std::move(param));
  }
  // The module variables the kernel reads and writes (`__constant__ float
  // taps[5]` that the host fills): ks-bench fills them by name. Constants
  // (`const`, with their initializer) and initialized variables no kernel
  // writes (holdsInitializer: a lookup table) keep their initializer.
  llvm::StringSet<> seen;
  WalkResult walked = kernel.walk([&](memref::GetGlobalOp get) {
    auto global = SymbolTable::lookupNearestSymbolFrom<memref::GlobalOp>(get, get.getNameAttr());
    if (!global || global.getConstant() || holdsInitializer(global) ||
        !seen.insert(get.getName()).second)
      return WalkResult::advance();
    std::optional<BufferElement> elem = bufferElementOf(global.getType().getElementType());
    if (!elem) {
      get.emitError("ks-emit-launch-spec: module variable '")
          << get.getName() << "' has element type " << global.getType().getElementType()
          << ", which ks-bench does not support";
      return WalkResult::interrupt();
    }
    auto [reads, writes] = accessesOf(get.getResult());
    params.push_back(llvm::json::Object{
        {keys::kName, get.getName().str()},
        {keys::kType, elem->type},
        {keys::kExtent, std::to_string(global.getType().getNumElements() * elem->lanes)},
        {keys::kRole, reads && writes ? keys::kRoleInOut : writes ? keys::kRoleOut : keys::kRoleIn},
        {keys::kGlobal, true}});
    return WalkResult::advance();
  });
  if (walked.wasInterrupted())
    return failure();

  auto dims = [&](gpu::KernelDim3 dim) -> FailureOr<llvm::json::Array> {
    llvm::json::Array out;
    for (Value v : {dim.x, dim.y, dim.z}) {
      FailureOr<std::string> formula = launchFormula(v, names, launch.getLoc());
      if (failed(formula))
        return failure();
      out.push_back(*formula);
    }
    return out;
  };
  FailureOr<llvm::json::Array> grid = dims(launch.getGridSizeOperandValues());
  FailureOr<llvm::json::Array> block = dims(launch.getBlockSizeOperandValues());
  if (failed(grid) || failed(block))
    return failure();
  std::string smem = "0";
  if (Value dynamic = launch.getDynamicSharedMemorySize()) {
    FailureOr<std::string> formula = launchFormula(dynamic, names, launch.getLoc());
    if (failed(formula))
      return failure();
    smem = *formula;
  }

  llvm::json::Object spec{{keys::kKernel, kernel.getName().str()},
                          {keys::kParams, std::move(params)},
                          {keys::kGrid, std::move(*grid)},
                          {keys::kBlock, std::move(*block)},
                          {keys::kSmem, smem},
                          {keys::kScalars, std::move(scalars)}};
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::formatv("{0:2}", llvm::json::Value(std::move(spec)));
  return text;
}

namespace {
struct EmitLaunchSpecPass : public ks::impl::KSEmitLaunchSpecBase<EmitLaunchSpecPass> {
  using KSEmitLaunchSpecBase::KSEmitLaunchSpecBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    gpu::LaunchFuncOp launch;
    func::FuncOp launcherFn;
    unsigned launches = 0;
    module.walk([&](gpu::LaunchFuncOp op) {
      auto fn = op->getParentOfType<func::FuncOp>();
      if (!fn || (!launcher.empty() && fn.getSymName() != launcher))
        return;
      ++launches;
      launch = op;
      launcherFn = fn;
    });
    if (launches != 1) {
      module.emitError() << "ks-emit-launch-spec: expected one gpu.launch_func"
                         << (launcher.empty() ? std::string("") : " in @" + launcher)
                         << ", found " << launches
                         << (launches ? "; pick the launcher with launcher=NAME" : "");
      return signalPassFailure();
    }
    if (failed(emit(launch, launcherFn)))
      signalPassFailure();
  }

  LogicalResult emit(gpu::LaunchFuncOp launch, func::FuncOp fn) {
    // Extents the launcher's #ks.workload does not give are inferred from a
    // raised kernel's views where it has them.
    llvm::StringMap<std::string> inferred = inferBufferExtents(launch, fn);
    FailureOr<std::string> spec =
        buildLaunchSpec(launch, fn, /*requireExtents=*/true, &inferred);
    if (failed(spec))
      return failure();
    std::string message;
    std::unique_ptr<llvm::ToolOutputFile> file = openOutputFile(path, &message);
    if (!file)
      return launch.emitError("ks-emit-launch-spec: cannot write '") << path << "': " << message;
    file->os() << *spec << "\n";
    file->keep();
    return success();
  }
};
} // namespace
