//===- CUDAEmitter.cpp - MLIR back to readable CUDA C++ -------------------===//
//
// Every structured op becomes a C statement: scf.for/while become loops whose
// carried values are mutable locals (a counted scf.while a `for`), scf.if an
// if/else (or `a && b` / `a || b` where it computes one condition). A value
// used once later in its block is written into its user's expression, with
// only the parentheses C's precedence needs; other values become named
// locals (`const int row = ...;`). Arguments and locals keep their source
// names (ks.name, NameLoc). Expressions are table-driven: an op name maps to
// a C operator or function, so later issues add their ops in one place.
//
//===----------------------------------------------------------------------===//

#include "kernelskill/Target/CUDAEmitter.h"
#include "kernelskill/Dialect/KS/IR/KSDialect.h"
#include "kernelskill/Dialect/KS/IR/SourceNames.h"
#include "kernelskill/Support/CUDABuiltins.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/ADT/DenseSet.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::ks;

namespace {
class Emitter {
public:
  explicit Emitter(raw_ostream &os) : os(os) {}
  LogicalResult emitModule(ModuleOp module);

private:
  raw_ostream &os;
  int indent = 0;
  llvm::DenseMap<Value, std::string> names;
  /// C's precedence levels, tightest first. An inlined value records the
  /// level of its outermost operator so that its user adds parentheses only
  /// where C needs them (or where readers expect them: `(a & b) == c`).
  enum Prec : int {
    Primary = 0, // names, literals, calls
    Postfix = 1, // a[i], v.x
    Unary = 3,   // -x, !x, (T)x, *p
    Mul = 5,
    Add = 6,
    Shift = 7,
    Rel = 9,
    Eq = 10,
    BitAnd = 11,
    BitXor = 12,
    BitOr = 13,
    LogAnd = 14,
    LogOr = 15,
    Cond = 16,
  };
  llvm::DenseMap<Value, int> precedences; ///< of inlined values; names are Primary
  int exprPrec = Primary;                 ///< of the last expression()
  /// Ops that print nothing: a counted loop's increment (in its header).
  llvm::DenseSet<Operation *> skipped;
  llvm::StringMap<int> used;
  llvm::StringSet<> taken; ///< every name given out in the current function
  /// A strided view (memref.reinterpret_cast): its pointer and strides, so
  /// that view[i, j] is written pointer[i * s0 + j * s1].
  struct View {
    std::string pointer;
    SmallVector<std::string> strides;
  };
  llvm::DenseMap<Value, View> views;
  bool usesAsyncCopies = false;
  /// File-scope device variables (memref.global): their names are taken in
  /// every function; a ks.scalar one is a scalar (`hits`, not `hits[0]`).
  llvm::StringSet<> globalNames, scalarGlobals;
  /// The element type of each extern __shared__ name written so far.
  llvm::StringMap<std::string> externSharedTypes;

  raw_ostream &line() { return os.indent(indent * 2); }

  /// A name no other local or parameter of the function has: `base`, else
  /// base1, base2, ... (a C variable may itself be called `acc1`).
  std::string fresh(StringRef base) {
    for (;;) {
      int n = used[base]++;
      std::string candidate = n == 0 && base != "v" ? base.str() : (base + std::to_string(n)).str();
      if (taken.insert(candidate).second)
        return candidate;
    }
  }
  std::string name(Value v) { return names.lookup(v); }

  /// `  // gemm.cu:21`: where the source had `op` (its file's name and
  /// line), for the headers of functions, loops, ifs and switches; nothing
  /// when the IR has no source location (--no-locations, built IR).
  static std::string sourceComment(Operation *op) {
    auto file = op->getLoc()->findInstanceOf<FileLineColLoc>();
    if (!file)
      return "";
    return ("  // " + llvm::sys::path::filename(file.getFilename().getValue()) + ":" +
            Twine(file.getLine()))
        .str();
  }

  static bool needsParens(int child, int parent, bool right) {
    if (child <= Postfix)
      return false;
    if (child == Unary)
      return parent < Unary;
    auto bitwise = [](int p) { return p == Shift || (p >= BitAnd && p <= BitOr); };
    auto comparison = [](int p) { return p == Rel || p == Eq; };
    if (comparison(child) && comparison(parent))
      return true;
    if (child == parent)
      return right; // left-associative: a - b - c, a - (b - c)
    if (bitwise(child) || bitwise(parent) || (child == LogAnd && parent == LogOr))
      return true;
    return child > parent;
  }
  /// `v` as an operand of an operator of level `parent`.
  std::string use(Value v, int parent, bool right = false) {
    std::string s = name(v);
    return needsParens(precedences.lookup(v), parent, right) ? "(" + s + ")" : s;
  }
  /// `to` is written as `from` is (a block argument or result standing for
  /// another value), at its precedence level.
  void alias(Value to, Value from) {
    names[to] = name(from);
    precedences[to] = precedences.lookup(from);
  }
  /// Records `v` as the expression `expr` of level `prec`, written where it is used.
  void inlineAs(Value v, std::string expr, int prec) {
    names[v] = std::move(expr);
    precedences[v] = prec;
  }

  FailureOr<std::string> cType(Type t, Operation *at, bool isUnsigned = false) {
    if (t.isIndex())
      return std::string(isUnsigned ? "unsigned long long" : "long long");
    if (t.isInteger(1))
      return std::string("bool");
    if (auto i = dyn_cast<IntegerType>(t)) {
      switch (i.getWidth()) {
      case 8: return std::string(isUnsigned ? "unsigned char" : "signed char");
      case 16: return std::string(isUnsigned ? "unsigned short" : "short");
      case 32: return std::string(isUnsigned ? "unsigned" : "int");
      case 64: return std::string(isUnsigned ? "unsigned long long" : "long long");
      }
    }
    if (auto vec = dyn_cast<VectorType>(t))
      if (std::optional<std::string> name = vectorTypeName(vec, isUnsigned))
        return *name;
    if (t.isF32()) return std::string("float");
    if (t.isF64()) return std::string("double");
    if (t.isF16()) return std::string("__half");
    if (t.isBF16()) return std::string("__nv_bfloat16");
    at->emitError("export-cuda: type ") << t << " has no CUDA C++ spelling here";
    return failure();
  }

  /// float4, int2, ...: CUDA's vector types; __half2 and __nv_bfloat162 for
  /// pairs of halves.
  static std::optional<std::string> vectorTypeName(VectorType vec, bool isUnsigned) {
    Type elem = vec.getElementType();
    if (vec.getRank() != 1)
      return std::nullopt;
    // Every element type the importer accepts (char .. double) must be
    // writable here, or an imported kernel cannot be exported.
    const char *base = elem.isF32() ? "float" : elem.isF64() ? "double"
                       : elem.isInteger(32) ? (isUnsigned ? "uint" : "int")
                       : elem.isInteger(64) ? (isUnsigned ? "ulonglong" : "longlong")
                       : elem.isInteger(16) ? (isUnsigned ? "ushort" : "short")
                       : elem.isInteger(8) ? (isUnsigned ? "uchar" : "char") : nullptr;
    if (base && vec.getNumElements() <= 4)
      return std::string(base) + std::to_string(vec.getNumElements());
    // Pairs of halves: cuda_fp16.h's and cuda_bf16.h's own types.
    if (vec.getNumElements() == 2 && (elem.isF16() || elem.isBF16()))
      return std::string(elem.isF16() ? "__half2" : "__nv_bfloat162");
    // Four halves (8-byte loads): CUDA has no such type; kFourHalves defines
    // them with float4's lane names, so extract, insert and make_ work alike.
    if (vec.getNumElements() == 4 && (elem.isF16() || elem.isBF16()))
      return std::string(elem.isF16() ? "ks_half4" : "ks_bfloat164");
    return std::nullopt;
  }

  /// make_float4, make_half2, make_bfloat162: the constructor function of
  /// vector type `type` (as cType spells it).
  static std::string makeFunction(StringRef type) {
    if (type == "__half2")
      return "make_half2";
    if (type == "__nv_bfloat162")
      return "make_bfloat162";
    return ("make_" + type).str();
  }

  std::string literal(Attribute attr) {
    if (auto dense = dyn_cast<DenseElementsAttr>(attr); dense && isa<VectorType>(dense.getType())) {
      // A vector constant: its constructor with each lane's literal.
      std::optional<std::string> type =
          vectorTypeName(cast<VectorType>(dense.getType()), /*isUnsigned=*/false);
      if (!type)
        return "/*?*/0";
      std::string args;
      for (Attribute lane : dense.getValues<Attribute>())
        args += (args.empty() ? "" : ", ") + literal(lane);
      return makeFunction(*type) + "(" + args + ")";
    }
    if (auto b = dyn_cast<BoolAttr>(attr))
      return b.getValue() ? "true" : "false";
    if (auto i = dyn_cast<IntegerAttr>(attr)) {
      if (i.getType().isInteger(1))
        return i.getValue().isZero() ? "false" : "true";
      bool wide = i.getType().isIndex() || i.getType().getIntOrFloatBitWidth() == 64;
      int64_t value = i.getValue().getSExtValue();
      // C has no negative literals: -9223372036854775808LL negates a literal
      // too large for long long (unsigned, then), -2147483648 one too large
      // for int (long, then).
      if (wide && value == std::numeric_limits<int64_t>::min())
        return "(-9223372036854775807LL - 1)";
      if (!wide && value == std::numeric_limits<int32_t>::min())
        return "(-2147483647 - 1)";
      std::string s = std::to_string(value);
      return wide ? s + "LL" : s;
    }
    if (auto f = dyn_cast<FloatAttr>(attr)) {
      double d = f.getValueAsDouble();
      bool isF32 = f.getType().isF32();
      if (std::isinf(d))
        return (d < 0 ? "-" : "") + std::string(isF32 ? "__int_as_float(0x7f800000)" : "__longlong_as_double(0x7ff0000000000000LL)");
      if (std::isnan(d))
        return isF32 ? "__int_as_float(0x7fffffff)" : "__longlong_as_double(0x7fffffffffffffffLL)";
      std::string s;
      llvm::raw_string_ostream out(s);
      out << llvm::format(isF32 || f.getType().isF16() || f.getType().isBF16() ? "%.9g" : "%.17g", d);
      if (s.find_first_of(".e") == std::string::npos)
        s += ".0";
      // Half constants must stay half: a double literal would turn the
      // arithmetic around it into float or double arithmetic.
      if (f.getType().isF16())
        return "__float2half(" + s + "f)";
      if (f.getType().isBF16())
        return "__float2bfloat16(" + s + "f)";
      return isF32 ? s + "f" : s;
    }
    return "/*?*/0";
  }

  /// The C variable a value computes, when the importer recorded one (a
  /// NameLoc on its op, possibly fused by canonicalization).
  static std::optional<StringRef> sourceName(Value v) {
    std::optional<StringRef> found = getSourceVariableName(v);
    // Names of the functions the exporter calls would shadow them.
    static const StringRef reserved[] = {"min",        "max",        "fmaxf",       "fminf",
                                         "ks_maximum", "ks_minimum", "make_float4", "atomicAdd"};
    if (found && llvm::is_contained(reserved, *found))
      return std::nullopt;
    return found;
  }
  /// The first recorded variable name among `candidates`.
  static StringRef nameFrom(ValueRange candidates, StringRef otherwise) {
    for (Value v : candidates)
      if (std::optional<StringRef> n = sourceName(v))
        return *n;
    return otherwise;
  }

  /// Declares `v` as a new local initialized with `expr`.
  LogicalResult define(Value v, const std::string &expr, Operation *at, StringRef base = "v") {
    FailureOr<std::string> type = cType(v.getType(), at);
    if (failed(type))
      return failure();
    std::string n = fresh(base == "v" ? sourceName(v).value_or(base) : base);
    names[v] = n;
    line() << "const " << *type << " " << n << " = " << expr << ";\n";
    return success();
  }
  /// Declares mutable locals for values carried by a structured op, named
  /// after the variable the values flowing into them belong to.
  /// With `inits`, each is declared with its initial value (`float acc = 0.0f;`).
  LogicalResult declareCarried(ValueRange values, Operation *at, StringRef base,
                               ArrayRef<ValueRange> sources = {}, ValueRange inits = {}) {
    for (auto [i, v] : llvm::enumerate(values)) {
      FailureOr<std::string> type = cType(v.getType(), at);
      if (failed(type))
        return failure();
      SmallVector<Value> candidates;
      for (ValueRange source : sources)
        if (i < source.size())
          candidates.push_back(source[i]);
      std::string n = fresh(nameFrom(candidates, base));
      names[v] = n;
      line() << *type << " " << n;
      if (i < inits.size())
        os << " = " << name(inits[i]);
      os << ";\n";
    }
    return success();
  }
  /// targets = sources, all at once: when a source is another target (a
  /// loop that rotates its variables), through temporaries.
  void assign(ValueRange targets, ValueRange sources) {
    bool overlap = false;
    for (auto [i, t] : llvm::enumerate(targets))
      for (auto [j, src] : llvm::enumerate(sources))
        overlap |= i != j && name(t) == name(src);
    if (!overlap) {
      for (auto [t, src] : llvm::zip(targets, sources))
        if (name(t) != name(src))
          line() << name(t) << " = " << name(src) << ";\n";
      return;
    }
    SmallVector<std::string> temps;
    for (Value src : sources) {
      temps.push_back(fresh("tmp"));
      line() << "const auto " << temps.back() << " = " << name(src) << ";\n";
    }
    for (auto [t, temp] : llvm::zip(targets, temps))
      line() << name(t) << " = " << temp << ";\n";
  }

  bool printsNothing(Operation *op, Operation *acceptedTerminator = nullptr);
  bool inlinedIntoUser(Operation *op, Operation *acceptedTerminator = nullptr);
  bool usedOnceInBlock(Operation *op, Operation *acceptedTerminator);
  bool takesExpression(Operation *terminator, Value v);
  bool readsBeforeAnyWrite(Operation *load);
  enum class Logical { None, And, Or, Select };
  Logical logicalKind(scf::IfOp ifOp);
  bool hasHeaderCondition(scf::WhileOp loop);
  struct CountedLoop {
    unsigned iv;          ///< the position of the induction variable
    Operation *increment; ///< iv + step, written in the loop's header
    Value step;           ///< loop-invariant
    /// The body's ops that compute the step (blockDim.x * gridDim.x), all
    /// inlined, written in the header instead.
    SmallVector<Operation *> stepOps;
  };
  std::optional<CountedLoop> countedLoop(scf::WhileOp loop);
  void reset() {
    names.clear();
    precedences.clear();
    skipped.clear();
    views.clear();
    used.clear();
    taken.clear();
    for (const auto &global : globalNames)
      taken.insert(global.getKey());
  }

  LogicalResult emitGlobal(memref::GlobalOp global);
  /// `{{1, 2}, {3, 4}}`: the elements of `init` from `flat` on, for the
  /// dimensions of `shape` from `dim` on.
  void emitInitializer(ArrayRef<Attribute> elements, ArrayRef<int64_t> shape, size_t dim,
                       size_t &flat);

  LogicalResult emitHeaderLoop(scf::WhileOp loop, std::optional<CountedLoop> counted);
  LogicalResult emitKernel(gpu::GPUFuncOp func);
  LogicalResult emitLauncher(func::FuncOp func);
  LogicalResult emitParams(FunctionOpInterface func, bool kernel);
  LogicalResult emitBlock(Block &block);
  LogicalResult emitOp(Operation *op);
  FailureOr<std::string> expression(Operation *op);
  /// threadIdx.x and co. for gpu.thread_id x and co.
  static std::string builtinVariable(Operation *def) {
    StringRef var = isa<gpu::ThreadIdOp>(def)   ? "threadIdx"
                    : isa<gpu::BlockIdOp>(def)  ? "blockIdx"
                    : isa<gpu::BlockDimOp>(def) ? "blockDim"
                                                : "gridDim";
    gpu::Dimension dim =
        llvm::cast<gpu::DimensionAttr>(*def->getInherentAttr("dimension")).getValue();
    return var.str() + "." + gpu::stringifyDimension(dim).str();
  }
  bool isPlainSubscript(Value v);
  std::string subscript(Value memref, ValueRange indices);
};

std::string Emitter::subscript(Value memref, ValueRange indices) {
  auto view = views.find(memref);
  if (view != views.end()) {
    std::string offset;
    for (auto [index, stride] : llvm::zip(indices, view->second.strides)) {
      std::string term =
          stride == "1LL" ? use(index, Add, /*right=*/!offset.empty()) : use(index, Mul) + " * " + stride;
      offset += (offset.empty() ? "" : " + ") + term;
    }
    return view->second.pointer + "[" + (offset.empty() ? "0" : offset) + "]";
  }
  std::string s = name(memref);
  if (auto global = memref.getDefiningOp<memref::GetGlobalOp>();
      global && scalarGlobals.contains(global.getName()))
    return s;
  for (Value i : indices) {
    // A constant subscript needs no 64-bit suffix: o[0], not o[0LL].
    // Nor do the unsigned thread and block indices: shared[threadIdx.x].
    IntegerAttr c;
    Operation *def = i.getDefiningOp();
    if (matchPattern(i, m_Constant(&c)))
      s += "[" + std::to_string(c.getInt()) + "]";
    else if (def && isa<gpu::ThreadIdOp, gpu::BlockIdOp, gpu::BlockDimOp, gpu::GridDimOp>(def))
      s += "[" + builtinVariable(def) + "]";
    else
      s += "[" + name(i) + "]";
  }
  return s;
}

LogicalResult Emitter::emitParams(FunctionOpInterface func, bool kernel) {
  // Not getArguments(): a gpu.func's entry block also holds its workgroup
  // attributions.
  ArrayRef<Type> types = func.getArgumentTypes();
  for (unsigned i = 0; i < types.size(); ++i) {
    Value arg = func.getArgument(i);
    std::string n = fresh(getArgumentName(func, i));
    names[arg] = n;
    if (i)
      os << ", ";
    if (auto memref = dyn_cast<MemRefType>(types[i])) {
      if (memref.getRank() != 1)
        return func->emitError("export-cuda: only 1-D buffer parameters have a CUDA spelling");
      FailureOr<std::string> elem = cType(memref.getElementType(), func);
      if (failed(elem))
        return failure();
      bool isConst = func.getArgAttr(i, "ks.const") != nullptr;
      bool restrict_ = func.getArgAttr(i, "ks.restrict") != nullptr;
      // A launcher parameter the source casts at its launches ((float4 *)in
      // of `const float *in`): the prototype is the source's, every use
      // the cast (the importer's ks.cxx_type).
      if (auto source = func.getArgAttrOfType<StringAttr>(i, "ks.cxx_type"); source && !kernel) {
        std::string spelled = source.getValue().str();
        os << spelled << (StringRef(spelled).ends_with("*") ? "" : " ") << n;
        names[arg] = "((" + std::string(isConst ? "const " : "") + *elem + " *)" + n + ")";
        continue;
      }
      os << (isConst ? "const " : "") << *elem << " *" << (restrict_ ? "__restrict__ " : "") << n;
    } else {
      FailureOr<std::string> type = cType(types[i], func);
      if (failed(type))
        return failure();
      os << *type << " " << n;
    }
  }
  return success();
}

/// What `op` computes is a name or an expression written into its user.
bool Emitter::printsNothing(Operation *op, Operation *acceptedTerminator) {
  return isa<arith::ConstantOp, gpu::ThreadIdOp, gpu::BlockIdOp, gpu::BlockDimOp, gpu::GridDimOp,
             memref::GetGlobalOp>(op) ||
         inlinedIntoUser(op, acceptedTerminator);
}

/// One result, used once, by a later op of the same block that can take an
/// expression (not a terminator, unless `acceptedTerminator` or one that
/// takesExpression()).
bool Emitter::usedOnceInBlock(Operation *op, Operation *acceptedTerminator) {
  if (op->getNumResults() != 1 || !op->getResult(0).hasOneUse())
    return false;
  Operation *user = *op->getResult(0).getUsers().begin();
  if (user->getBlock() != op->getBlock())
    return false;
  return !user->hasTrait<OpTrait::IsTerminator>() || user == acceptedTerminator ||
         takesExpression(user, op->getResult(0));
}

/// Whether `op`'s value is written into its user's expression instead of a
/// local of its own: side-effect-free ops, loads that no write can come
/// between, and conditions computed by an scf.if (`a && b`).
bool Emitter::inlinedIntoUser(Operation *op, Operation *acceptedTerminator) {
  if (!usedOnceInBlock(op, acceptedTerminator) || skipped.contains(op))
    return false;
  if (auto ifOp = dyn_cast<scf::IfOp>(op))
    return logicalKind(ifOp) != Logical::None;
  if (isa<memref::LoadOp, vector::LoadOp>(op))
    return readsBeforeAnyWrite(op);
  // Shuffles and other multi-result or effecting ops stay statements.
  return op->getNumRegions() == 0 && isMemoryEffectFree(op);
}

/// Terminators whose operand can be an expression: a yield into results of
/// an scf.if or switch (they cannot appear in the expression), a loop's yield
/// when the expression reads no loop variable assigned before it (the
/// assignments are written in order: `sum = sum + in[i]; i = i + step;`), and
/// the condition of a while loop written as `while (cond)`.
bool Emitter::takesExpression(Operation *terminator, Value v) {
  Operation *parent = terminator->getParentOp();
  if (auto cond = dyn_cast<scf::ConditionOp>(terminator))
    return cond.getCondition() == v && hasHeaderCondition(cast<scf::WhileOp>(parent));
  if (!isa<scf::YieldOp>(terminator))
    return false;
  if (isa<scf::IfOp, scf::IndexSwitchOp>(parent))
    return true;
  Block *body = terminator->getBlock();
  std::optional<unsigned> counter;
  if (auto loop = dyn_cast<scf::WhileOp>(parent)) {
    if (body != loop.getAfterBody() || !hasHeaderCondition(loop))
      return false;
    if (std::optional<CountedLoop> counted = countedLoop(loop))
      counter = counted->iv;
  } else if (!isa<scf::ForOp>(parent)) {
    return false;
  }
  // Loop variables, in the order of the yield's operands.
  ValueRange carried = isa<scf::ForOp>(parent)
                           ? ValueRange(cast<scf::ForOp>(parent).getRegionIterArgs())
                           : ValueRange(body->getArguments());
  SmallVector<Value> assignedBefore;
  for (auto [i, operand] : llvm::enumerate(terminator->getOperands())) {
    if (operand == v)
      break;
    if (operand != carried[i] && !(counter && i == *counter))
      assignedBefore.push_back(carried[i]);
  }
  // Whether the expression of `x` reads one of them: through the values
  // written into it (used once, in this body), nested regions included.
  std::function<bool(Value)> reads = [&](Value x) -> bool {
    if (llvm::is_contained(assignedBefore, x))
      return true;
    Operation *def = x.getDefiningOp();
    if (!def || def->getBlock() != body || !x.hasOneUse())
      return false;
    return def
        ->walk([&](Operation *nested) {
          return llvm::any_of(nested->getOperands(), reads) ? WalkResult::interrupt()
                                                             : WalkResult::advance();
        })
        .wasInterrupted();
  };
  return assignedBefore.empty() || !reads(v);
}

/// No op between `load` and the point where its expression is evaluated
/// writes memory (or might: unknown effects count as writes). The point is
/// found by following the single users the value is inlined into; stopping
/// early is conservative, since it only checks more ops.
bool Emitter::readsBeforeAnyWrite(Operation *load) {
  auto mayWrite = [](Operation *op) {
    if (isa<memref::LoadOp, vector::LoadOp>(op))
      return false;
    std::optional<SmallVector<MemoryEffects::EffectInstance>> effects = getEffectsRecursively(op);
    if (!effects)
      return true;
    return llvm::any_of(*effects, [](const MemoryEffects::EffectInstance &e) {
      return !isa<MemoryEffects::Read>(e.getEffect());
    });
  };
  Operation *current = load;
  for (;;) {
    Operation *user = *current->getResult(0).getUsers().begin();
    for (Operation *between = current->getNextNode(); between && between != user;
         between = between->getNextNode())
      if (mayWrite(between))
        return false;
    if (isa<scf::YieldOp>(user) && isa<scf::IfOp>(user->getParentOp())) {
      // `a && b`: evaluated where the scf.if's value is.
      Operation *ifOp = user->getParentOp();
      if (ifOp->getNumResults() != 1 || !ifOp->getResult(0).hasOneUse() ||
          (*ifOp->getResult(0).getUsers().begin())->getBlock() != ifOp->getBlock())
        return true;
      current = ifOp;
      continue;
    }
    // C evaluates a for loop's bound and step before every iteration, the
    // scf.for once: the body must not write what they read.
    if (auto loop = dyn_cast<scf::ForOp>(user))
      if ((loop.getUpperBound() == current->getResult(0) ||
           loop.getStep() == current->getResult(0)) &&
          mayWrite(loop))
        return false;
    if (user->hasTrait<OpTrait::IsTerminator>() || user->getNumResults() != 1 ||
        !user->getResult(0).hasOneUse() ||
        (*user->getResult(0).getUsers().begin())->getBlock() != user->getBlock())
      return true; // evaluated at `user`
    current = user;
  }
}

/// An i1 scf.if that computes `cond && b` (else yields false) or `cond || b`
/// (then yields true) with a branch whose ops are all inlined; any scf.if of
/// one value whose branches' ops are all inlined is `cond ? a : b` (C
/// evaluates only the branch taken, so a load there stays guarded).
Emitter::Logical Emitter::logicalKind(scf::IfOp ifOp) {
  if (ifOp.getNumResults() != 1 || !ifOp.elseBlock())
    return Logical::None;
  auto yieldsConstant = [](Block *block) -> std::optional<bool> {
    if (!block->without_terminator().empty())
      return std::nullopt;
    auto c = block->getTerminator()->getOperand(0).getDefiningOp<arith::ConstantOp>();
    if (!c)
      return std::nullopt;
    return !cast<IntegerAttr>(c.getValue()).getValue().isZero();
  };
  auto computesInline = [&](Block *block) {
    return llvm::all_of(block->without_terminator(), [&](Operation &op) {
      return printsNothing(&op, block->getTerminator());
    });
  };
  bool isBool = ifOp.getResult(0).getType().isInteger(1);
  if (isBool && yieldsConstant(ifOp.elseBlock()) == false && computesInline(ifOp.thenBlock()))
    return Logical::And;
  if (isBool && yieldsConstant(ifOp.thenBlock()) == true && computesInline(ifOp.elseBlock()))
    return Logical::Or;
  if (computesInline(ifOp.thenBlock()) && computesInline(ifOp.elseBlock()))
    return Logical::Select;
  return Logical::None;
}

/// A while loop whose condition is computed by inlined ops from its loop
/// variables alone: `while (cond) { ... }`.
bool Emitter::hasHeaderCondition(scf::WhileOp loop) {
  Block &before = loop.getBefore().front();
  scf::ConditionOp cond = loop.getConditionOp();
  if (cond.getArgs().size() != before.getNumArguments())
    return false;
  for (auto [arg, carried] : llvm::zip(cond.getArgs(), before.getArguments()))
    if (arg != carried)
      return false;
  return llvm::all_of(before.without_terminator(),
                      [&](Operation &op) { return printsNothing(&op, cond); });
}

/// `while (i < n) { ...; i = i + s; }` as the source's `for (...; i < n; i += s)`:
/// the condition reads the loop variable, and the body's last value of it is
/// it plus a loop-invariant step that nothing else reads. (The `for` is the
/// same loop: the other variables' assignments come first and do not
/// change i, and the step does not depend on them.)
std::optional<Emitter::CountedLoop> Emitter::countedLoop(scf::WhileOp loop) {
  if (!hasHeaderCondition(loop))
    return std::nullopt;
  Block &before = loop.getBefore().front();
  Block *after = loop.getAfterBody();
  Value condition = loop.getConditionOp().getCondition();
  Operation *cmp = condition.getDefiningOp();
  if (!cmp || cmp->getBlock() != &before)
    return std::nullopt;
  for (Value operand : cmp->getOperands()) {
    auto iv = dyn_cast<BlockArgument>(operand);
    if (!iv || iv.getOwner() != &before)
      continue;
    Value next = after->getTerminator()->getOperand(iv.getArgNumber());
    auto add = next.getDefiningOp<arith::AddIOp>();
    if (!add || add->getBlock() != after || !next.hasOneUse())
      continue;
    Value counter = after->getArgument(iv.getArgNumber());
    Value step = add.getLhs() == counter   ? add.getRhs()
                 : add.getRhs() == counter ? add.getLhs()
                                           : Value();
    CountedLoop counted{iv.getArgNumber(), add, step, {}};
    // The step's ops in the body: pure, used once, from values of outside
    // the loop (or constants and thread indices).
    std::function<bool(Value)> invariant = [&](Value v) -> bool {
      Operation *def = v.getDefiningOp();
      if (!def)
        return !loop->isAncestor(v.getParentBlock()->getParentOp());
      if (!loop->isAncestor(def))
        return true;
      if (def->getBlock() != after || def->getNumRegions() || !isMemoryEffectFree(def))
        return false;
      if (!isa<arith::ConstantOp, gpu::ThreadIdOp, gpu::BlockIdOp, gpu::BlockDimOp,
               gpu::GridDimOp>(def) &&
          !v.hasOneUse())
        return false;
      counted.stepOps.push_back(def);
      return llvm::all_of(def->getOperands(), invariant);
    };
    if (!step || !invariant(step))
      continue;
    llvm::sort(counted.stepOps, [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
    counted.stepOps.erase(std::unique(counted.stepOps.begin(), counted.stepOps.end()),
                          counted.stepOps.end());
    return counted;
  }
  return std::nullopt;
}

/// `while (cond) { body }`, or `for (int i = init; cond; ++i) { body }`
/// when the loop counts: the condition's ops print nothing (hasHeaderCondition).
LogicalResult Emitter::emitHeaderLoop(scf::WhileOp loop, std::optional<CountedLoop> counted) {
  // The loop's line is its condition's (lifting the CFG may give the loop
  // op its body's location).
  Operation *header = loop.getConditionOp().getCondition().getDefiningOp();
  if (!header || header->getParentOp() != loop)
    header = loop;
  Block &before = loop.getBefore().front(), &after = loop.getAfter().front();
  ValueRange yielded = after.getTerminator()->getOperands();
  // A counter not read after the loop is declared in the for header.
  bool counterInHeader = counted && loop.getResult(counted->iv).use_empty();
  for (auto [i, arg] : llvm::enumerate(before.getArguments())) {
    if (counterInHeader && i == counted->iv)
      continue;
    SmallVector<Value> candidates = {yielded[i], loop.getInits()[i]};
    if (failed(declareCarried(ValueRange(arg), loop, "x", {ValueRange(candidates)},
                              ValueRange(loop.getInits()[i]))))
      return failure();
  }
  // `int p = 0`, the for header's declaration of the counter.
  std::string counterDecl;
  if (counterInHeader) {
    BlockArgument iv = before.getArgument(counted->iv);
    FailureOr<std::string> type = cType(iv.getType(), loop);
    if (failed(type))
      return failure();
    names[iv] = fresh(nameFrom({yielded[counted->iv], loop.getInits()[counted->iv]}, "i"));
    counterDecl = *type + " " + names[iv] + " = " + name(loop.getInits()[counted->iv]);
  }
  if (failed(emitBlock(before)))
    return failure();
  std::string condition = name(loop.getConditionOp().getCondition());
  for (auto [arg, carried] : llvm::zip(after.getArguments(), before.getArguments()))
    alias(arg, carried);
  for (auto [result, carried] : llvm::zip(loop.getResults(), before.getArguments()))
    alias(result, carried);
  if (counted) {
    skipped.insert(counted->increment);
    // The step's ops print nothing (they are inlined): their expression goes
    // into the header.
    for (Operation *stepOp : counted->stepOps) {
      if (failed(emitOp(stepOp)))
        return failure();
      skipped.insert(stepOp);
    }
    IntegerAttr constantStep;
    std::string step = name(counted->step);
    if (matchPattern(counted->step, m_Constant(&constantStep)))
      step = std::to_string(constantStep.getInt());
    std::string iv = name(before.getArgument(counted->iv));
    line() << "for (" << counterDecl << "; " << condition << "; "
           << (step == "1" ? "++" + iv : iv + " += " + step)
           << ") {" << sourceComment(header) << "\n";
  } else {
    line() << "while (" << condition << ") {" << sourceComment(header) << "\n";
  }
  ++indent;
  if (failed(emitBlock(after)))
    return failure();
  SmallVector<Value> targets, sourcesAtEnd;
  for (auto [i, arg] : llvm::enumerate(before.getArguments()))
    if (!counted || i != counted->iv) {
      targets.push_back(arg);
      sourcesAtEnd.push_back(yielded[i]);
    }
  assign(targets, sourcesAtEnd);
  --indent;
  line() << "}\n";
  return success();
}

LogicalResult Emitter::emitKernel(gpu::GPUFuncOp func) {
  reset();
  if (std::string at = sourceComment(func); !at.empty())
    os << StringRef(at).ltrim() << "\n";
  // The source's linkage (the importer's ks.extern_c): a caller compiled
  // against the original prototype links against the export.
  os << (func->hasAttr(kExternCAttrName) ? "extern \"C\" " : "") << "__global__ void ";
  if (auto bounds = func.getKnownBlockSizeAttr())
    os << "__launch_bounds__(" << bounds[0] * bounds[1] * bounds[2] << ") ";
  os << func.getName() << "(";
  if (failed(emitParams(func, /*kernel=*/true)))
    return failure();
  os << ") {\n";
  indent = 1;
  for (BlockArgument shared : func.getWorkgroupAttributions()) {
    auto type = cast<MemRefType>(shared.getType());
    FailureOr<std::string> elem = cType(type.getElementType(), func);
    if (failed(elem))
      return failure();
    unsigned index = shared.getArgNumber() - func.getFunctionType().getNumInputs();
    auto named =
        dyn_cast_or_null<StringAttr>(func.getWorkgroupAttributionAttr(index, kNameAttrName));
    std::string n = fresh(named ? named.getValue() : "shared");
    names[shared] = n;
    line() << "__shared__ ";
    if (auto align = func.getWorkgroupAttributionAttr(index, "llvm.align"))
      os << "__align__(" << cast<IntegerAttr>(align).getInt() << ") ";
    os << *elem << " " << n;
    for (int64_t d : type.getShape())
      os << "[" << d << "]";
    os << ";\n";
  }
  if (!func.getBody().hasOneBlock())
    return func.emitError("export-cuda: the kernel still has unstructured control flow; run "
                          "ks-lift-kernel-cfg first");
  if (failed(emitBlock(func.getBody().front())))
    return failure();
  indent = 0;
  os << "}\n\n";
  return success();
}

LogicalResult Emitter::emitLauncher(func::FuncOp func) {
  reset();
  if (std::string at = sourceComment(func); !at.empty())
    os << StringRef(at).ltrim() << "\n";
  if (func->hasAttr(kSynthesizedAttrName))
    os << "// Written by ks-synthesize-launchers: the source launches this kernel nowhere.\n"
          "// One thread per index below the kernel's bounds; an optimized kernel needs\n"
          "// exactly this launch: call this function.\n";
  if (auto copies = func->getAttrOfType<ArrayAttr>(kHostSymbolCopiesAttrName)) {
    // The importer's launch slice skipped them (LauncherEmitter.cpp).
    std::string calls;
    int count = 0;
    for (Attribute copy : copies)
      if (auto text = dyn_cast<StringAttr>(copy)) {
        calls += (calls.empty() ? "" : "; ") + text.getValue().str();
        ++count;
      }
    if (!calls.empty()) {
      os << "// The source's host code also ran, outside the launches this function holds\n"
            "// (call them around it as the source does: copies to a symbol before, copies\n"
            "// from one after):\n";
      for (Attribute copy : copies)
        if (auto text = dyn_cast<StringAttr>(copy)) {
          SmallVector<StringRef> lines;
          text.getValue().split(lines, '\n');
          for (auto [i, l] : llvm::enumerate(lines))
            os << "//   " << l.rtrim() << (i + 1 == lines.size() ? ";" : "") << "\n";
        }
      // At the launcher's location only: the op itself says nothing more.
      mlir::emitWarning(func.getLoc())
          << "export-cuda: the launcher @" << func.getName() << " does not run the source's "
          << calls << ": call " << (count > 1 ? "them" : "it")
          << " around the launcher, as the source does";
    }
  }
  os << "void " << func.getName() << "(";
  if (failed(emitParams(func, /*kernel=*/false)))
    return failure();
  os << ") {\n";
  indent = 1;
  if (!func.getBody().hasOneBlock())
    return func.emitError("export-cuda: the launcher has unstructured control flow");
  if (failed(emitBlock(func.getBody().front())))
    return failure();
  indent = 0;
  os << "}\n\n";
  return success();
}

LogicalResult Emitter::emitBlock(Block &block) {
  for (Operation &op : block)
    if (!skipped.contains(&op) && failed(emitOp(&op)))
      return failure();
  return success();
}

LogicalResult Emitter::emitOp(Operation *op) {
  return llvm::TypeSwitch<Operation *, LogicalResult>(op)
      .Case<gpu::ReturnOp, func::ReturnOp>([&](Operation *) {
        // The last op of a body returns anyway; only mid-body returns need one.
        if (op->getNextNode())
          line() << "return;\n";
        return success();
      })
      .Case<scf::YieldOp, scf::ConditionOp>([&](Operation *) { return success(); })
      .Case<gpu::BarrierOp>([&](auto) {
        line() << "__syncthreads();\n";
        return success();
      })
      .Case<memref::StoreOp>([&](memref::StoreOp store) {
        line() << subscript(store.getMemRef(), store.getIndices()) << " = "
               << name(store.getValueToStore()) << ";\n";
        return success();
      })
      .Case<gpu::DynamicSharedMemoryOp>([&](auto) { return success(); })
      .Case<memref::GetGlobalOp>([&](memref::GetGlobalOp get) {
        names[get.getResult()] = get.getName().str();
        return success();
      })
      .Case<vector::StoreOp>([&](vector::StoreOp store) -> LogicalResult {
        FailureOr<std::string> type = cType(store.getVectorType(), op);
        if (failed(type))
          return failure();
        line() << "*reinterpret_cast<" << *type << " *>(&"
               << subscript(store.getBase(), store.getIndices()) << ") = "
               << name(store.getValueToStore()) << ";\n";
        return success();
      })
      .Case<vector::InsertOp>([&](vector::InsertOp insert) -> LogicalResult {
        // A copy with one lane replaced.
        FailureOr<std::string> type = cType(insert.getType(), op);
        auto position = insert.getStaticPosition();
        if (failed(type) || position.size() != 1)
          return failure();
        std::string n = fresh("vec");
        names[insert.getResult()] = n;
        line() << *type << " " << n << " = " << name(insert.getDest()) << ";\n";
        line() << n << "." << "xyzw"[position[0]] << " = " << name(insert.getValueToStore()) << ";\n";
        return success();
      })
      .Case<memref::ViewOp>([&](memref::ViewOp view) -> LogicalResult {
        // The importer's view of the dynamic shared memory: extern __shared__.
        if (!view.getSource().getDefiningOp<gpu::DynamicSharedMemoryOp>())
          return view.emitError("export-cuda: only views of the dynamic shared memory are exported");
        FailureOr<std::string> elem = cType(view.getType().getElementType(), op);
        if (failed(elem))
          return failure();
        // extern __shared__ arrays are one symbol per name across the file:
        // a name another kernel declared with another type takes the type's.
        std::string base = "dynamic_shared";
        auto [it, inserted] = externSharedTypes.try_emplace(base, *elem);
        if (!inserted && it->second != *elem) {
          base += "_" + *elem;
          std::replace(base.begin(), base.end(), ' ', '_');
        }
        std::string n = fresh(base);
        names[view.getResult()] = n;
        line() << "extern __shared__ " << *elem << " " << n << "[];\n";
        return success();
      })
      .Case<memref::ReinterpretCastOp>([&](memref::ReinterpretCastOp rc) -> LogicalResult {
        // A strided view of a buffer: a pointer at its offset; subscripts
        // multiply by the strides.
        FailureOr<std::string> elem = cType(rc.getType().getElementType(), op);
        if (failed(elem))
          return failure();
        auto constant = [&](OpFoldResult v) -> std::string {
          if (auto attr = dyn_cast<Attribute>(v))
            return std::to_string(llvm::cast<IntegerAttr>(attr).getInt()) + "LL";
          // Operands of * and +: an expression keeps its parentheses.
          return use(llvm::cast<Value>(v), Primary);
        };
        View view;
        for (OpFoldResult stride : rc.getMixedStrides())
          view.strides.push_back(constant(stride));
        std::string offset = constant(rc.getMixedOffsets()[0]);
        std::string source = name(rc.getSource());
        if (offset == "0LL") {
          view.pointer = source;
        } else {
          // The const-ness of the buffer carries over (auto deduces it).
          std::string n = fresh(source + "_view");
          line() << "auto *const " << n << " = " << source << " + " << offset << ";\n";
          view.pointer = n;
        }
        views[rc.getResult()] = view;
        return success();
      })
      .Case<memref::ExtractAlignedPointerAsIndexOp>([&](memref::ExtractAlignedPointerAsIndexOp x) {
        return define(x.getResult(),
                      "(long long)reinterpret_cast<unsigned long long>(" + name(x.getSource()) + ")",
                      op, "address");
      })
      .Case<nvgpu::DeviceAsyncCopyOp>([&](nvgpu::DeviceAsyncCopyOp copy) -> LogicalResult {
        // cuda_pipeline.h's cp.async: copy the valid bytes, zero-fill the rest.
        usesAsyncCopies = true;
        int64_t bytes = copy.getDstElements().getZExtValue() *
                        (copy.getDst().getType().getElementTypeBitWidth() / 8);
        std::string dst = "&" + subscript(copy.getDst(), copy.getDstIndices());
        std::string src = "&" + subscript(copy.getSrc(), copy.getSrcIndices());
        std::string zfill = "0";
        if (Value valid = copy.getSrcElements())
          zfill = std::to_string(bytes) + " - " + use(valid, Mul) + " * " +
                  std::to_string(copy.getDst().getType().getElementTypeBitWidth() / 8);
        line() << "__pipeline_memcpy_async(" << dst << ", " << src << ", " << bytes << ", "
               << zfill << ");\n";
        names[copy.getAsyncToken()] = "0";
        return success();
      })
      .Case<NVVM::SyncWarpOp>([&](NVVM::SyncWarpOp sync) {
        // A cooperative-groups tile's sync.
        line() << "__syncwarp(" << name(sync.getMask()) << ");\n";
        return success();
      })
      .Case<NVVM::CpAsyncCommitGroupOp>([&](auto) {
        line() << "__pipeline_commit();\n";
        return success();
      })
      .Case<NVVM::CpAsyncWaitGroupOp>([&](NVVM::CpAsyncWaitGroupOp wait) {
        line() << "__pipeline_wait_prior(" << wait.getN() << ");\n";
        return success();
      })
      .Case<memref::AllocaOp>([&](memref::AllocaOp alloca) -> LogicalResult {
        MemRefType type = alloca.getType();
        FailureOr<std::string> elem = cType(type.getElementType(), op);
        if (failed(elem) || !type.hasStaticShape())
          return failure();
        auto named = dyn_cast<NameLoc>(alloca.getLoc());
        std::string n = fresh(named ? named.getName().getValue() : "local");
        names[alloca] = n;
        line() << *elem << " " << n;
        for (int64_t d : type.getShape())
          os << "[" << d << "]";
        os << ";\n";
        return success();
      })
      .Case<scf::IfOp>([&](scf::IfOp ifOp) -> LogicalResult {
        if (Logical kind = logicalKind(ifOp); kind == Logical::Select) {
          if (failed(emitBlock(*ifOp.thenBlock())) || failed(emitBlock(*ifOp.elseBlock())))
            return failure();
          std::string expr = use(ifOp.getCondition(), LogOr) + " ? " +
                             use(ifOp.thenYield().getOperand(0), LogOr) + " : " +
                             use(ifOp.elseYield().getOperand(0), LogOr);
          if (inlinedIntoUser(op)) {
            inlineAs(ifOp.getResult(0), expr, Cond);
            return success();
          }
          return define(ifOp.getResult(0), expr, op);
        } else if (kind != Logical::None) {
          // `cond && b` / `cond || b`: the branch that computes b prints nothing.
          Block *computing = kind == Logical::And ? ifOp.thenBlock() : ifOp.elseBlock();
          if (failed(emitBlock(*computing)))
            return failure();
          int prec = kind == Logical::And ? LogAnd : LogOr;
          std::string expr = use(ifOp.getCondition(), prec) +
                             (kind == Logical::And ? " && " : " || ") +
                             use(computing->getTerminator()->getOperand(0), prec, true);
          if (inlinedIntoUser(op)) {
            inlineAs(ifOp.getResult(0), expr, prec);
            return success();
          }
          return define(ifOp.getResult(0), expr, op);
        }
        SmallVector<ValueRange> ifSources = {ifOp.thenYield().getOperands()};
        if (ifOp.elseBlock())
          ifSources.push_back(ifOp.elseYield().getOperands());
        if (failed(declareCarried(ifOp.getResults(), op, "r", ifSources)))
          return failure();
        // `if (c) {} else { ... }` reads better as `if (!c) { ... }`.
        if (ifOp.getNumResults() == 0 && ifOp.elseBlock() &&
            ifOp.thenBlock()->without_terminator().empty()) {
          line() << "if (!" << use(ifOp.getCondition(), Unary) << ") {" << sourceComment(ifOp)
                 << "\n";
          ++indent;
          if (failed(emitBlock(*ifOp.elseBlock())))
            return failure();
          --indent;
          line() << "}\n";
          return success();
        }
        line() << "if (" << name(ifOp.getCondition()) << ") {" << sourceComment(ifOp) << "\n";
        ++indent;
        if (failed(emitBlock(*ifOp.thenBlock())))
          return failure();
        assign(ifOp.getResults(), ifOp.thenYield().getOperands());
        --indent;
        if (ifOp.elseBlock() && (!ifOp.elseBlock()->without_terminator().empty() ||
                                 ifOp.getNumResults())) {
          line() << "} else {\n";
          ++indent;
          if (failed(emitBlock(*ifOp.elseBlock())))
            return failure();
          assign(ifOp.getResults(), ifOp.elseYield().getOperands());
          --indent;
        }
        line() << "}\n";
        return success();
      })
      .Case<scf::ForOp>([&](scf::ForOp forOp) -> LogicalResult {
        if (failed(declareCarried(forOp.getRegionIterArgs(), op, "acc",
                                  {forOp.getBody()->getTerminator()->getOperands(),
                                   forOp.getInitArgs()},
                                  forOp.getInitArgs())))
          return failure();
        FailureOr<std::string> ivType = cType(forOp.getInductionVar().getType(), op);
        if (failed(ivType))
          return failure();
        std::string iv = fresh("i");
        names[forOp.getInductionVar()] = iv;
        if (Attribute unroll = op->getAttr(kUnrollAttrName)) {
          // The lowering unrolls these loops; nvcc is asked to do the same.
          if (auto factor = dyn_cast<IntegerAttr>(unroll))
            line() << "#pragma unroll " << factor.getInt() << "\n";
          else
            line() << "#pragma unroll\n";
        }
        std::string step = name(forOp.getStep());
        line() << "for (" << *ivType << " " << iv << " = " << name(forOp.getLowerBound()) << "; "
               << iv << " < " << use(forOp.getUpperBound(), Rel, /*right=*/true) << "; "
               << (step == "1" || step == "1LL" ? "++" + iv : iv + " += " + step) << ") {"
               << sourceComment(forOp) << "\n";
        ++indent;
        if (failed(emitBlock(*forOp.getBody())))
          return failure();
        assign(forOp.getRegionIterArgs(),
               forOp.getBody()->getTerminator()->getOperands());
        --indent;
        line() << "}\n";
        for (auto [result, carried] : llvm::zip(forOp.getResults(), forOp.getRegionIterArgs()))
          alias(result, carried);
        return success();
      })
      .Case<scf::WhileOp>([&](scf::WhileOp whileOp) -> LogicalResult {
        Block &before = whileOp.getBefore().front(), &after = whileOp.getAfter().front();
        ValueRange yielded = after.getTerminator()->getOperands();
        scf::ConditionOp cond = whileOp.getConditionOp();
        if (hasHeaderCondition(whileOp))
          return emitHeaderLoop(whileOp, countedLoop(whileOp));
        // while (true) { before; if (!cond) break; after }: carried values
        // are mutable locals; the results are the condition's arguments.
        if (failed(declareCarried(before.getArguments(), op, "x", {yielded, whileOp.getInits()},
                                  whileOp.getInits())))
          return failure();
        // A result that is a loop variable at the exit is that variable;
        // only computed results need locals of their own.
        SmallVector<Value> computed;
        for (auto [result, arg] : llvm::zip(whileOp.getResults(), cond.getArgs())) {
          auto blockArg = dyn_cast<BlockArgument>(arg);
          if (blockArg && blockArg.getOwner() == &before)
            alias(result, arg);
          else
            computed.push_back(result);
        }
        if (failed(declareCarried(computed, op, "out")))
          return failure();
        line() << "while (true) {" << sourceComment(op) << "\n";
        ++indent;
        if (failed(emitBlock(before)))
          return failure();
        assign(computed, [&] {
          SmallVector<Value> args;
          for (auto [result, arg] : llvm::zip(whileOp.getResults(), cond.getArgs()))
            if (llvm::is_contained(computed, result))
              args.push_back(arg);
          return args;
        }());
        line() << "if (!" << use(cond.getCondition(), Unary) << ")\n";
        line() << "  break;\n";
        for (auto [arg, value] : llvm::zip(after.getArguments(), cond.getArgs()))
          alias(arg, value);
        if (failed(emitBlock(after)))
          return failure();
        assign(before.getArguments(), yielded);
        --indent;
        line() << "}\n";
        return success();
      })
      .Case<scf::IndexSwitchOp>([&](scf::IndexSwitchOp sw) -> LogicalResult {
        if (failed(declareCarried(sw.getResults(), op, "r")))
          return failure();
        line() << "switch (" << name(sw.getArg()) << ") {" << sourceComment(sw) << "\n";
        for (auto [value, region] : llvm::zip(sw.getCases(), sw.getCaseRegions())) {
          line() << "case " << value << ": {\n";
          ++indent;
          if (failed(emitBlock(region.front())))
            return failure();
          assign(sw.getResults(), region.front().getTerminator()->getOperands());
          line() << "break;\n";
          --indent;
          line() << "}\n";
        }
        line() << "default: {\n";
        ++indent;
        if (failed(emitBlock(sw.getDefaultBlock())))
          return failure();
        assign(sw.getResults(), sw.getDefaultBlock().getTerminator()->getOperands());
        --indent;
        line() << "}\n";
        line() << "}\n";
        return success();
      })
      .Case<memref::AtomicRMWOp>([&](memref::AtomicRMWOp rmw) -> LogicalResult {
        // The importer's table, read backwards (kernelskill/Support/CUDABuiltins.h).
        const cuda::AtomicBuiltin *atomic =
            cuda::lookupAtomicByKind(arith::stringifyAtomicRMWKind(rmw.getKind()));
        if (!atomic)
          return rmw.emitError("export-cuda: this atomic kind has no CUDA intrinsic here");
        std::string call = atomic->name.str() + "(&" +
                           subscript(rmw.getMemref(), rmw.getIndices()) + ", " +
                           name(rmw.getValue()) + ")";
        if (rmw.getResult().use_empty()) {
          line() << call << ";\n";
          return success();
        }
        return define(rmw.getResult(), call, op, "old");
      })
      .Case<memref::GenericAtomicRMWOp>([&](memref::GenericAtomicRMWOp rmw) -> LogicalResult {
        // A compare-and-swap loop around the body.
        Type t = rmw.getResult().getType();
        if (!t.isInteger(32))
          return rmw.emitError("export-cuda: generic atomics are exported for 32-bit integers only");
        std::string place = "&" + subscript(rmw.getMemref(), rmw.getIndices());
        std::string old = fresh("old"), assumed = fresh("assumed");
        names[rmw.getResult()] = old;
        line() << "int " << old << " = " << subscript(rmw.getMemref(), rmw.getIndices()) << ", "
               << assumed << ";\n";
        line() << "do {\n";
        ++indent;
        line() << assumed << " = " << old << ";\n";
        names[rmw.getCurrentValue()] = assumed;
        if (failed(emitBlock(*rmw.getBody())))
          return failure();
        Value next = rmw.getBody()->getTerminator()->getOperand(0);
        line() << old << " = atomicCAS(" << place << ", " << assumed << ", " << name(next) << ");\n";
        --indent;
        line() << "} while (" << assumed << " != " << old << ");\n";
        return success();
      })
      .Case<memref::AtomicYieldOp>([&](auto) { return success(); })
      .Case<gpu::LaunchFuncOp>([&](gpu::LaunchFuncOp launch) {
        gpu::KernelDim3 g = launch.getGridSizeOperandValues(),
                        b = launch.getBlockSizeOperandValues();
        std::string grid = fresh("grid"), block = fresh("block");
        line() << "dim3 " << grid << "(" << name(g.x) << ", " << name(g.y) << ", " << name(g.z) << ");\n";
        line() << "dim3 " << block << "(" << name(b.x) << ", " << name(b.y) << ", " << name(b.z) << ");\n";
        line() << launch.getKernelName().getValue() << "<<<" << grid << ", " << block;
        if (Value smem = launch.getDynamicSharedMemorySize())
          os << ", " << name(smem);
        os << ">>>(";
        llvm::interleaveComma(launch.getKernelOperands(), os, [&](Value v) { os << name(v); });
        os << ");\n";
        return success();
      })
      .Default([&](Operation *) -> LogicalResult {
        if (op->getNumResults() == 2 && isa<gpu::ShuffleOp>(op)) {
          auto shuffle = cast<gpu::ShuffleOp>(op);
          StringRef fn = cuda::lookupShuffleByMode(gpu::stringifyShuffleMode(shuffle.getMode()))->name;
          // The valid flag is true for full warps, the only kind the importer makes.
          names[shuffle.getValid()] = "true";
          return define(shuffle.getShuffleResult(),
                        fn.str() + "(0xffffffffu, " + name(shuffle.getValue()) + ", " +
                            name(shuffle.getOffset()) + ", " + name(shuffle.getWidth()) + ")",
                        op);
        }
        if (op->getNumResults() != 1)
          return op->emitError("export-cuda: '") << op->getName() << "' has no CUDA C++ spelling here";
        // Constants and the builtin indices read best in place.
        if (auto c = dyn_cast<arith::ConstantOp>(op)) {
          std::string text = literal(c.getValue());
          inlineAs(c.getResult(), text, text[0] == '-' ? Unary : Primary);
          return success();
        }
        if (isa<gpu::ThreadIdOp, gpu::BlockIdOp, gpu::BlockDimOp, gpu::GridDimOp>(op)) {
          FailureOr<std::string> expr = expression(op);
          if (failed(expr))
            return failure();
          // Kept as 64-bit values: index arithmetic on them must not wrap
          // at 32 bits as unsigned threadIdx.x - blockDim.x would.
          inlineAs(op->getResult(0), *expr, exprPrec);
          return success();
        }
        if (isa<ub::PoisonOp>(op)) {
          // A value on a path that never reads it: any initial value will do.
          return define(op->getResult(0), "{}", op);
        }
        FailureOr<std::string> expr = expression(op);
        if (failed(expr))
          return failure();
        // A value used once later in the same block is written into its
        // user's expression (inlinedIntoUser says when that is safe).
        Value result = op->getResult(0);
        // A name converted for subscripts only is that name, however often
        // it is used (buf[x][t], not buf[v3][v1]): the conversion is the
        // subscript's own. (A variable is reassigned only at the end of
        // its loop's body, after every use of such a conversion.)
        if (isa<arith::IndexCastOp>(op) && isa<IntegerType>(op->getOperand(0).getType()) &&
            precedences.lookup(op->getOperand(0)) <= Postfix && isPlainSubscript(result)) {
          inlineAs(result, name(op->getOperand(0)), precedences.lookup(op->getOperand(0)));
          return success();
        }
        if (inlinedIntoUser(op)) {
          inlineAs(result, *expr, exprPrec);
          return success();
        }
        return define(result, *expr, op);
      });
}

/// Every use of `v` is a subscript of a buffer or array written `x[v]` (not
/// through a strided view, whose offset arithmetic is 64-bit).
bool Emitter::isPlainSubscript(Value v) {
  auto subscriptUse = [&](OpOperand &use) {
    auto indexOf = [&](Value memref, ValueRange indices) {
      return !views.contains(memref) && llvm::is_contained(indices, use.get()) &&
             memref != use.get();
    };
    return llvm::TypeSwitch<Operation *, bool>(use.getOwner())
        .Case<memref::LoadOp, memref::StoreOp, memref::AtomicRMWOp, memref::GenericAtomicRMWOp>(
            [&](auto access) { return indexOf(access.getMemref(), access.getIndices()); })
        .Case<vector::LoadOp, vector::StoreOp>(
            [&](auto access) { return indexOf(access.getBase(), access.getIndices()); })
        .Default([](Operation *) { return false; });
  };
  return !v.use_empty() && llvm::all_of(v.getUses(), subscriptUse);
}

/// The precedence level of a binary C operator.
static int binaryPrecedence(StringRef c) {
  return llvm::StringSwitch<int>(c)
      .Cases({"*", "/", "%"}, 5)
      .Cases({"+", "-"}, 6)
      .Cases({"<<", ">>"}, 7)
      .Cases({"<", "<=", ">", ">="}, 9)
      .Cases({"==", "!="}, 10)
      .Case("&", 11)
      .Case("^", 12)
      .Case("|", 13)
      .Case("&&", 14)
      .Default(15);
}

FailureOr<std::string> Emitter::expression(Operation *op) {
  exprPrec = Primary;
  auto operand = [&](unsigned i) { return name(op->getOperand(i)); };
  // A warp op's lane mask: a constant one reads as one (0xffffffffu, not -1).
  auto laneMask = [&](unsigned i) {
    IntegerAttr lanes;
    if (matchPattern(op->getOperand(i), m_Constant(&lanes)))
      return llvm::formatv("{0:x8}u", uint32_t(lanes.getInt())).str();
    return operand(i);
  };
  // An operand that C converts anyway, as the cast did: a signed integer
  // beside a wider one, a float beside a double, an int beside a float
  // (`batch * M`, not `batch * (long long)M`). Only the cast of an inlined
  // value (a named local is kept) and never a bool's or an unsigned's (C
  // would widen an int-typed value with its sign).
  auto implicitlyConverted = [&](unsigned i) -> Value {
    Value v = op->getOperand(i);
    Operation *def = v.getDefiningOp();
    if (!def || precedences.lookup(v) != Unary ||
        !isa<arith::ExtSIOp, arith::IndexCastOp, arith::ExtFOp, arith::SIToFPOp>(def))
      return {};
    Type from = def->getOperand(0).getType(), to = v.getType();
    // (__half and __nv_bfloat16 are classes: their mixed operators are ambiguous.)
    if (from.isInteger(1) || from.isIndex() || (isa<arith::SIToFPOp>(def) && from.isInteger(64)) ||
        from.isF16() || from.isBF16() || to.isF16() || to.isBF16())
      return {};
    return def->getOperand(0);
  };
  auto bin = [&](StringRef c) -> std::string {
    exprPrec = binaryPrecedence(c);
    // One side only: two converted operands would meet in their narrow type.
    Value lhs = op->getOperand(0), rhs = op->getOperand(1);
    if (Value narrow = implicitlyConverted(1))
      rhs = narrow;
    else if (Value narrow = implicitlyConverted(0))
      lhs = narrow;
    return use(lhs, exprPrec) + " " + c.str() + " " + use(rhs, exprPrec, /*right=*/true);
  };
  auto asUnsigned = [&](unsigned i) -> FailureOr<std::string> {
    FailureOr<std::string> t = cType(op->getOperand(i).getType(), op, /*isUnsigned=*/true);
    if (failed(t))
      return failure();
    // An unsigned literal where it is one: 16u, not (unsigned)16.
    IntegerAttr c;
    if (matchPattern(op->getOperand(i), m_Constant(&c)) && !c.getValue().isNegative() &&
        (*t == "unsigned" || *t == "unsigned long long"))
      return std::to_string(c.getValue().getZExtValue()) + (*t == "unsigned" ? "u" : "ull");
    return "(" + *t + ")" + use(op->getOperand(i), Unary);
  };
  auto ubin = [&](StringRef c) -> FailureOr<std::string> {
    FailureOr<std::string> a = asUnsigned(0), b = asUnsigned(1);
    if (failed(a) || failed(b))
      return failure();
    exprPrec = binaryPrecedence(c);
    return *a + " " + c.str() + " " + *b;
  };
  auto cast = [&](bool fromUnsigned) -> FailureOr<std::string> {
    exprPrec = Unary;
    // Pairs of halves widen and narrow through their own functions.
    if (auto to = dyn_cast<VectorType>(op->getResult(0).getType());
        to && isa<arith::ExtFOp, arith::TruncFOp>(op)) {
      Type half = isa<arith::ExtFOp>(op)
                      ? llvm::cast<VectorType>(op->getOperand(0).getType()).getElementType()
                      : to.getElementType();
      if (!to.getElementType().isF32() && isa<arith::ExtFOp>(op))
        return op->emitError("export-cuda: pairs of halves widen to float2 only");
      if (to.getNumElements() != 2)
        return op->emitError("export-cuda: only pairs of halves widen and narrow as vectors");
      exprPrec = Primary;
      StringRef fn = isa<arith::ExtFOp>(op) ? (half.isF16() ? "__half22float2" : "__bfloat1622float2")
                                            : (half.isF16() ? "__float22half2_rn" : "__float22bfloat162_rn");
      return (fn + "(" + operand(0) + ")").str();
    }
    // A subscript converts a signed integer to the pointer's difference type
    // as index_cast does (sign extension): A[row * K + p], not A[(long long)(...)].
    if (isa<arith::IndexCastOp>(op) && isa<IntegerType>(op->getOperand(0).getType()) &&
        isPlainSubscript(op->getResult(0))) {
      exprPrec = precedences.lookup(op->getOperand(0));
      return operand(0);
    }
    // And an unsigned one zero-extends: partial[(unsigned)(tid + s)].
    if (isa<arith::IndexCastUIOp>(op) && isa<IntegerType>(op->getOperand(0).getType()) &&
        op->getOperand(0).getType().getIntOrFloatBitWidth() < 64 &&
        isPlainSubscript(op->getResult(0)))
      return asUnsigned(0);
    // i64 <-> index: both are long long here.
    auto wide = [](Type t) { return t.isIndex() || t.isInteger(64); };
    if (isa<arith::IndexCastOp, arith::IndexCastUIOp>(op) && wide(op->getOperand(0).getType()) &&
        wide(op->getResult(0).getType())) {
      exprPrec = precedences.lookup(op->getOperand(0));
      return operand(0);
    }
    FailureOr<std::string> to = cType(op->getResult(0).getType(), op);
    if (failed(to))
      return failure();
    // threadIdx.x (an unsigned int under 2^31) converted to a 32-bit or
    // wider integer: one cast of the builtin, as the source wrote it, not
    // the chain through the index type's long long.
    Operation *def = op->getOperand(0).getDefiningOp();
    // (size_t)blockIdx.z: zero-extended from the unsigned it was converted to.
    if (isa_and_nonnull<arith::ExtUIOp>(op) && isa_and_nonnull<arith::IndexCastUIOp>(def) &&
        precedences.lookup(op->getOperand(0)) == Unary)
      def = def->getOperand(0).getDefiningOp();
    if (def && isa<gpu::ThreadIdOp, gpu::BlockIdOp, gpu::BlockDimOp, gpu::GridDimOp>(def) &&
        isa<IntegerType>(op->getResult(0).getType()) &&
        op->getResult(0).getType().getIntOrFloatBitWidth() >= 32) {
      return "(" + *to + ")" + builtinVariable(def);
    }
    // A bool converts to 0 or 1: zero extension needs no unsigned view.
    if (fromUnsigned && !op->getOperand(0).getType().isInteger(1)) {
      FailureOr<std::string> from = asUnsigned(0);
      if (failed(from))
        return failure();
      return "(" + *to + ")" + *from;
    }
    return "(" + *to + ")" + use(op->getOperand(0), Unary);
  };
  auto call = [&](StringRef f32, StringRef f64) -> std::string {
    std::string args;
    for (unsigned i = 0; i < op->getNumOperands(); ++i)
      args += (i ? ", " : "") + operand(i);
    return ((op->getResult(0).getType().isF64() ? f64 : f32) + "(" + args + ")").str();
  };
  if (auto c = dyn_cast<arith::ConstantOp>(op))
    return literal(c.getValue());
  if (isa<gpu::ThreadIdOp, gpu::BlockIdOp, gpu::BlockDimOp, gpu::GridDimOp>(op))
    exprPrec = Unary;
  if (auto g = dyn_cast<gpu::ThreadIdOp>(op))
    return "(long long)threadIdx." + stringifyDimension(g.getDimension()).str();
  if (auto g = dyn_cast<gpu::BlockIdOp>(op))
    return "(long long)blockIdx." + stringifyDimension(g.getDimension()).str();
  if (auto g = dyn_cast<gpu::BlockDimOp>(op))
    return "(long long)blockDim." + stringifyDimension(g.getDimension()).str();
  if (auto g = dyn_cast<gpu::GridDimOp>(op))
    return "(long long)gridDim." + stringifyDimension(g.getDimension()).str();
  if (auto load = dyn_cast<memref::LoadOp>(op)) {
    exprPrec = Postfix;
    return subscript(load.getMemRef(), load.getIndices());
  }
  if (auto load = dyn_cast<vector::LoadOp>(op)) {
    FailureOr<std::string> type = cType(load.getVectorType(), op);
    if (failed(type))
      return failure();
    exprPrec = Unary;
    return "*reinterpret_cast<const " + *type + " *>(&" + subscript(load.getBase(), load.getIndices()) + ")";
  }
  if (auto extract = dyn_cast<vector::ExtractOp>(op)) {
    auto position = extract.getStaticPosition();
    exprPrec = Postfix;
    if (position.size() == 1 && position[0] >= 0 && position[0] < 4)
      return use(extract.getSource(), Postfix) + "." + std::string(1, "xyzw"[position[0]]);
  }
  if (auto fromElements = dyn_cast<vector::FromElementsOp>(op)) {
    FailureOr<std::string> type = cType(fromElements.getType(), op);
    if (failed(type))
      return failure();
    std::string args;
    for (Value v : fromElements.getElements())
      args += (args.empty() ? "" : ", ") + name(v);
    return makeFunction(*type) + "(" + args + ")";
  }
  if (auto broadcast = dyn_cast<vector::BroadcastOp>(op);
      broadcast && !isa<VectorType>(broadcast.getSourceType())) {
    // make_short1(x) and make_float4(x, x, x, x) canonicalize to this.
    FailureOr<std::string> type = cType(broadcast.getResultVectorType(), op);
    if (failed(type))
      return failure();
    std::string args;
    for (int64_t i = 0, e = broadcast.getResultVectorType().getNumElements(); i < e; ++i)
      args += (i ? ", " : "") + name(broadcast.getSource());
    return makeFunction(*type) + "(" + args + ")";
  }
  if (auto cmp = dyn_cast<arith::CmpIOp>(op)) {
    using P = arith::CmpIPredicate;
    switch (cmp.getPredicate()) {
    case P::eq: return bin("==");
    case P::ne: return bin("!=");
    case P::slt: return bin("<");
    case P::sle: return bin("<=");
    case P::sgt: return bin(">");
    case P::sge: return bin(">=");
    case P::ult: return ubin("<");
    case P::ule: return ubin("<=");
    case P::ugt: return ubin(">");
    case P::uge: return ubin(">=");
    }
  }
  auto negated = [&](const std::string &e) {
    exprPrec = Unary;
    return "!(" + e + ")";
  };
  if (auto cmp = dyn_cast<arith::CmpFOp>(op)) {
    using P = arith::CmpFPredicate;
    // C comparisons are ordered (false with a NaN) except !=.
    switch (cmp.getPredicate()) {
    case P::OEQ: return bin("==");
    case P::OLT: return bin("<");
    case P::OLE: return bin("<=");
    case P::OGT: return bin(">");
    case P::OGE: return bin(">=");
    case P::UNE: return bin("!=");
    case P::ULT: return negated(bin(">="));
    case P::ULE: return negated(bin(">"));
    case P::UGT: return negated(bin("<="));
    case P::UGE: return negated(bin("<"));
    case P::UEQ: return negated(bin("<") + " || " + bin(">"));
    case P::ONE: {
      std::string e = bin("<") + " || " + bin(">");
      exprPrec = LogOr;
      return e;
    }
    case P::UNO:
    case P::ORD: {
      // isnan(x) (cuda_fp16.h's __hisnan on halves); NaN unless both are not.
      Type elem = cmp.getLhs().getType();
      StringRef isnan = elem.isF16() || elem.isBF16() ? "__hisnan" : "isnan";
      bool unordered = cmp.getPredicate() == P::UNO;
      auto test = [&](unsigned i) {
        return (unordered ? "" : "!") + isnan.str() + "(" + operand(i) + ")";
      };
      bool one = cmp.getRhs() == cmp.getLhs();
      std::string e = one ? test(0) : test(0) + (unordered ? " || " : " && ") + test(1);
      exprPrec = one ? Unary : unordered ? LogOr : LogAnd;
      return e;
    }
    default: break;
    }
  }
  return llvm::TypeSwitch<Operation *, FailureOr<std::string>>(op)
      .Case<arith::AddIOp, arith::AddFOp>([&](auto) { return bin("+"); })
      .Case<arith::SubIOp, arith::SubFOp>([&](auto) { return bin("-"); })
      .Case<arith::MulIOp, arith::MulFOp>([&](auto) { return bin("*"); })
      .Case<arith::DivSIOp, arith::DivFOp>([&](auto) { return bin("/"); })
      .Case<arith::RemSIOp>([&](auto) { return bin("%"); })
      .Case<arith::RemFOp>([&](auto) { return call("fmodf", "fmod"); })
      .Case<arith::DivUIOp>([&](auto) { return ubin("/"); })
      .Case<arith::CeilDivUIOp>([&](Operation *) -> FailureOr<std::string> {
        FailureOr<std::string> a = asUnsigned(0), b = asUnsigned(1);
        if (failed(a) || failed(b))
          return failure();
        exprPrec = Mul;
        return "(" + *a + " + " + *b + " - 1) / " + *b;
      })
      .Case<arith::RemUIOp>([&](auto) { return ubin("%"); })
      .Case<arith::AndIOp>([&](auto) { return bin("&"); })
      .Case<arith::OrIOp>([&](auto) { return bin("|"); })
      .Case<arith::XOrIOp>([&](auto) { return bin("^"); })
      .Case<arith::ShLIOp>([&](Operation *o) -> FailureOr<std::string> {
        // A signed left shift that overflows is undefined before C++20:
        // shift the unsigned bits (65535u << 16), as shli does.
        FailureOr<std::string> type = cType(o->getResult(0).getType(), o);
        if (failed(type))
          return failure();
        FailureOr<std::string> shifted = ubin("<<");
        if (failed(shifted))
          return failure();
        exprPrec = Unary;
        return "(" + *type + ")(" + *shifted + ")";
      })
      .Case<arith::ShRSIOp>([&](auto) { return bin(">>"); })
      .Case<arith::ShRUIOp>([&](auto) { return ubin(">>"); })
      .Case<arith::NegFOp>([&](auto) {
        exprPrec = Unary;
        // Not `--x`: a negated negative literal or negation keeps its parentheses.
        std::string x = name(op->getOperand(0));
        return "-" + (precedences.lookup(op->getOperand(0)) >= Unary ? "(" + x + ")" : x);
      })
      .Case<arith::MinSIOp>([&](auto) { return "min(" + operand(0) + ", " + operand(1) + ")"; })
      .Case<arith::MaxSIOp>([&](auto) { return "max(" + operand(0) + ", " + operand(1) + ")"; })
      .Case<arith::MinUIOp, arith::MaxUIOp>([&](Operation *m) -> FailureOr<std::string> {
        FailureOr<std::string> a = asUnsigned(0), b = asUnsigned(1);
        if (failed(a) || failed(b))
          return failure();
        return std::string(isa<arith::MinUIOp>(m) ? "min(" : "max(") + *a + ", " + *b + ")";
      })
      // Warp votes and bit counts (__ffs(x) comes back as its select around
      // cttz, which has no CUDA function of its own: the leading zeros of x
      // reversed).
      .Case<NVVM::VoteSyncOp>([&](NVVM::VoteSyncOp vote) -> FailureOr<std::string> {
        StringRef fn;
        switch (vote.getKind()) {
        case NVVM::VoteSyncKind::any: fn = "__any_sync"; break;
        case NVVM::VoteSyncKind::all: fn = "__all_sync"; break;
        case NVVM::VoteSyncKind::ballot: fn = "__ballot_sync"; break;
        case NVVM::VoteSyncKind::uni: fn = "__uni_sync"; break;
        }
        return fn.str() + "(" + laneMask(0) + ", " + operand(1) + ")";
      })
      // The lanes with the same value (match.any; match.all returns a
      // predicate too, which CUDA gives through a pointer: not exported).
      .Case<NVVM::MatchSyncOp>([&](NVVM::MatchSyncOp match) -> FailureOr<std::string> {
        if (match.getKind() != NVVM::MatchSyncKind::any)
          return match.emitError("export-cuda: only nvvm.match.sync any has a CUDA spelling here "
                                 "(__match_any_sync)");
        return "__match_any_sync(" + laneMask(0) + ", " + operand(1) + ")";
      })
      .Case<math::CtPopOp, math::CountLeadingZerosOp, math::CountTrailingZerosOp>(
          [&](Operation *count) -> FailureOr<std::string> {
            bool wide = count->getOperand(0).getType().isInteger(64);
            if (!wide && !count->getOperand(0).getType().isInteger(32))
              return count->emitError("export-cuda: CUDA counts bits of 32- and 64-bit integers only");
            std::string fn = isa<math::CtPopOp>(count) ? "__popc" : "__clz";
            std::string x = operand(0);
            if (isa<math::CountTrailingZerosOp>(count))
              x = (wide ? "__brevll(" : "__brev(") + x + ")";
            return fn + (wide ? "ll(" : "(") + x + ")";
          })
      // fmaxf/fminf return the other operand of a NaN: they are maxnumf and
      // minnumf. maximumf/minimumf propagate NaN and order -0 below +0, which
      // the helpers of kNaNPropagatingMinMax do.
      .Case<arith::MaximumFOp>([&](auto) { return call("ks_maximum<float>", "ks_maximum<double>"); })
      .Case<arith::MinimumFOp>([&](auto) { return call("ks_minimum<float>", "ks_minimum<double>"); })
      .Case<arith::SelectOp>([&](auto) {
        exprPrec = Cond;
        return use(op->getOperand(0), LogOr) + " ? " + use(op->getOperand(1), LogOr) + " : " +
               use(op->getOperand(2), LogOr);
      })
      .Case<arith::ExtSIOp, arith::TruncIOp, arith::SIToFPOp, arith::FPToSIOp, arith::ExtFOp,
            arith::TruncFOp, arith::IndexCastOp>([&](auto) { return cast(false); })
      .Case<arith::ExtUIOp, arith::UIToFPOp, arith::IndexCastUIOp>([&](auto) { return cast(true); })
      .Case<arith::FPToUIOp>([&](Operation *o) -> FailureOr<std::string> {
        FailureOr<std::string> to = cType(o->getResult(0).getType(), o, /*isUnsigned=*/true);
        if (failed(to))
          return failure();
        exprPrec = Unary;
        return "(" + *to + ")" + use(o->getOperand(0), Unary);
      })
      .Default([&](Operation *other) -> FailureOr<std::string> {
        // Math functions (and fmaxf/fminf: maxnumf/minnumf), by the table the
        // importer lifts them with (kernelskill/Support/CUDABuiltins.h).
        // On halves and pairs of them: cuda_fp16.h's own functions.
        const cuda::MathBuiltin *math = cuda::lookupMathByOp(other->getName().getStringRef());
        if (Type t = other->getResult(0).getType(), elem = getElementTypeOrSelf(t);
            math && (elem.isF16() || elem.isBF16())) {
          StringRef fn = isa<VectorType>(t) ? math->halfPair : math->half;
          if (fn.empty())
            return other->emitError("export-cuda: '")
                   << other->getName() << "' has no CUDA C++ spelling on " << t;
          return call(fn, fn);
        }
        if (math)
          return call(math->f32, math->f64);
        return other->emitError("export-cuda: '") << other->getName()
                                                  << "' has no CUDA C++ spelling here";
      });
}

/// arith.maximumf/minimumf as CUDA has no function for them (fmaxf is
/// maxnumf): NaN if either operand is NaN, and max(-0, +0) = +0,
/// min(-0, +0) = -0. Written into the file only when a kernel uses them.
/// vector<4xf16> and vector<4xbf16>: 8 bytes of halves, aligned for one
/// 64-bit access, with the lane names of float4.
constexpr const char *kFourHalves = R"(// Four halves in 8 bytes (one 64-bit access): CUDA has no half4.
struct __align__(8) ks_half4 { __half x, y, z, w; };
struct __align__(8) ks_bfloat164 { __nv_bfloat16 x, y, z, w; };
static __device__ __forceinline__ ks_half4 make_ks_half4(__half x, __half y, __half z, __half w) {
  return {x, y, z, w};
}
static __device__ __forceinline__ ks_bfloat164 make_ks_bfloat164(__nv_bfloat16 x, __nv_bfloat16 y,
                                                                 __nv_bfloat16 z, __nv_bfloat16 w) {
  return {x, y, z, w};
}

)";

constexpr const char *kNaNPropagatingMinMax = R"(// arith.maximumf/minimumf: NaN if either operand is NaN (fmaxf/fminf return the other one).
template <typename T> static __host__ __device__ __forceinline__ T ks_maximum(T a, T b) {
  if (isnan(a) || isnan(b))
    return a + b;
  if (a == b) // -0 == +0, and the maximum is +0
    return signbit(a) ? b : a;
  return a > b ? a : b;
}
template <typename T> static __host__ __device__ __forceinline__ T ks_minimum(T a, T b) {
  if (isnan(a) || isnan(b))
    return a + b;
  if (a == b)
    return signbit(a) ? a : b;
  return a < b ? a : b;
}

)";

/// __constant__ (memory space 4) and __device__ (global) variables, with
/// their initializers unless they are all zero (as C's are without one).
LogicalResult Emitter::emitGlobal(memref::GlobalOp global) {
  MemRefType type = global.getType();
  auto number = dyn_cast_or_null<IntegerAttr>(type.getMemorySpace());
  auto space = dyn_cast_or_null<gpu::AddressSpaceAttr>(type.getMemorySpace());
  bool constant = number && number.getInt() == cuda::kConstantMemorySpace;
  if (!constant && !(space && space.getValue() == gpu::AddressSpace::Global))
    return global.emitError("export-cuda: only __constant__ (memory space 4) and global device "
                            "variables are exported");
  FailureOr<std::string> elem = cType(type.getElementType(), global);
  auto init = dyn_cast_or_null<DenseElementsAttr>(global.getInitialValueAttr());
  if (failed(elem) || !type.hasStaticShape())
    return failure();
  bool scalar = global->hasAttr(kScalarAttrName);
  os << (constant ? "__constant__ " : "__device__ ") << (global.getConstant() ? "const " : "")
     << *elem << " " << global.getSymName();
  if (!scalar)
    for (int64_t d : type.getShape())
      os << "[" << d << "]";
  auto isZero = [](Attribute a) {
    if (auto i = dyn_cast<IntegerAttr>(a))
      return i.getValue().isZero();
    auto f = dyn_cast<FloatAttr>(a);
    return f && f.getValue().isPosZero();
  };
  if (init && !(init.isSplat() && isZero(init.getSplatValue<Attribute>()))) {
    SmallVector<Attribute> elements(init.getValues<Attribute>());
    size_t flat = 0;
    os << " = ";
    if (scalar)
      os << literal(elements.front());
    else
      emitInitializer(elements, type.getShape(), 0, flat);
  }
  os << ";\n";
  globalNames.insert(global.getSymName());
  if (scalar)
    scalarGlobals.insert(global.getSymName());
  return success();
}

void Emitter::emitInitializer(ArrayRef<Attribute> elements, ArrayRef<int64_t> shape, size_t dim,
                              size_t &flat) {
  os << "{";
  for (int64_t i = 0; i < shape[dim]; ++i) {
    if (i)
      os << ", ";
    if (dim + 1 < shape.size())
      emitInitializer(elements, shape, dim + 1, flat);
    else
      os << literal(elements[flat++]);
  }
  os << "}";
}

LogicalResult Emitter::emitModule(ModuleOp module) {
  os << "// Generated by KernelSkill (ks-translate --export-cuda)";
  if (auto source = module->getAttrOfType<StringAttr>(kSourceAttrName))
    os << " from " << source.getValue();
  os << ".\n#include <cuda_runtime.h>\n#include <cuda_fp16.h>\n#include <cuda_bf16.h>\n";
  // cp.async through cuda_pipeline.h's intrinsics.
  if (module.walk([](nvgpu::DeviceAsyncCopyOp) { return WalkResult::interrupt(); }).wasInterrupted())
    os << "#include <cuda_pipeline.h>\n";
  os << "\n";
  if (module
          .walk([](Operation *op) {
            return isa<arith::MaximumFOp, arith::MinimumFOp>(op) ? WalkResult::interrupt()
                                                                 : WalkResult::advance();
          })
          .wasInterrupted())
    os << kNaNPropagatingMinMax;
  auto isFourHalves = [](Type t) {
    auto vec = dyn_cast<VectorType>(t);
    return vec && vec.getRank() == 1 && vec.getNumElements() == 4 &&
           (vec.getElementType().isF16() || vec.getElementType().isBF16());
  };
  if (module
          .walk([&](Operation *op) {
            return llvm::any_of(op->getResultTypes(), isFourHalves) ? WalkResult::interrupt()
                                                                    : WalkResult::advance();
          })
          .wasInterrupted())
    os << kFourHalves;
  bool any = false;
  bool anyGlobal = false;
  for (auto gpuModule : module.getOps<gpu::GPUModuleOp>())
    for (auto global : gpuModule.getOps<memref::GlobalOp>()) {
      if (failed(emitGlobal(global)))
        return failure();
      anyGlobal = true;
    }
  if (anyGlobal)
    os << "\n";
  for (auto gpuModule : module.getOps<gpu::GPUModuleOp>())
    for (auto func : gpuModule.getOps<gpu::GPUFuncOp>()) {
      if (!func.isKernel())
        continue;
      any = true;
      if (failed(emitKernel(func)))
        return failure();
    }
  for (auto func : module.getOps<func::FuncOp>())
    if (!func.isExternal() && failed(emitLauncher(func)))
      return failure();
  if (!any)
    return module.emitError("export-cuda: the module has no gpu.func kernel");
  return success();
}
} // namespace

LogicalResult mlir::ks::emitCUDA(ModuleOp module, raw_ostream &os) {
  std::string text;
  llvm::raw_string_ostream buffer(text);
  Emitter emitter(buffer);
  if (failed(emitter.emitModule(module)))
    return failure();
  os << text;
  return success();
}
