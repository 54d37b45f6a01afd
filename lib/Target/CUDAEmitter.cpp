//===- CUDAEmitter.cpp - MLIR back to readable CUDA C++ -------------------===//
//
// Every SSA value becomes a named local (`const int v3 = ...;`), every
// structured op a C statement: scf.for/while become loops whose carried
// values are mutable locals, scf.if an if/else. Arguments keep their source
// names (ks.name). Expressions are table-driven: an op name maps to a C
// operator or function, so later issues add their ops in one place.
//
//===----------------------------------------------------------------------===//

#include "kernelskill/Target/CUDAEmitter.h"
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
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/Format.h"

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
    if (auto vec = dyn_cast<VectorType>(t)) {
      // float4, int2, ...: CUDA's vector types.
      Type elem = vec.getElementType();
      // Every element type the importer accepts (char .. double) must be
      // writable here, or an imported kernel cannot be exported.
      const char *base = elem.isF32() ? "float" : elem.isF64() ? "double"
                         : elem.isInteger(32) ? (isUnsigned ? "uint" : "int")
                         : elem.isInteger(64) ? (isUnsigned ? "ulonglong" : "longlong")
                         : elem.isInteger(16) ? (isUnsigned ? "ushort" : "short")
                         : elem.isInteger(8) ? (isUnsigned ? "uchar" : "char") : nullptr;
      if (base && vec.getRank() == 1 && vec.getNumElements() <= 4)
        return std::string(base) + std::to_string(vec.getNumElements());
    }
    if (t.isF32()) return std::string("float");
    if (t.isF64()) return std::string("double");
    if (t.isF16()) return std::string("__half");
    if (t.isBF16()) return std::string("__nv_bfloat16");
    at->emitError("export-cuda: type ") << t << " has no CUDA C++ spelling here";
    return failure();
  }

  std::string literal(Attribute attr) {
    if (auto b = dyn_cast<BoolAttr>(attr))
      return b.getValue() ? "true" : "false";
    if (auto i = dyn_cast<IntegerAttr>(attr)) {
      if (i.getType().isInteger(1))
        return i.getValue().isZero() ? "false" : "true";
      std::string s = std::to_string(i.getValue().getSExtValue());
      return i.getType().isIndex() || i.getType().getIntOrFloatBitWidth() == 64 ? s + "LL" : s;
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
  LogicalResult declareCarried(ValueRange values, Operation *at, StringRef base,
                               ArrayRef<ValueRange> sources = {}) {
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
      line() << *type << " " << n << ";\n";
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

  LogicalResult emitKernel(gpu::GPUFuncOp func);
  LogicalResult emitLauncher(func::FuncOp func);
  LogicalResult emitParams(FunctionOpInterface func, bool kernel);
  LogicalResult emitBlock(Block &block);
  LogicalResult emitOp(Operation *op);
  FailureOr<std::string> expression(Operation *op);
  std::string subscript(Value memref, ValueRange indices);
};

std::string Emitter::subscript(Value memref, ValueRange indices) {
  auto view = views.find(memref);
  if (view != views.end()) {
    std::string offset;
    for (auto [index, stride] : llvm::zip(indices, view->second.strides)) {
      std::string term = stride == "1LL" ? name(index) : "(" + name(index) + ") * " + stride;
      offset += (offset.empty() ? "" : " + ") + term;
    }
    return view->second.pointer + "[" + (offset.empty() ? "0" : offset) + "]";
  }
  std::string s = name(memref);
  for (Value i : indices)
    s += "[" + name(i) + "]";
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

LogicalResult Emitter::emitKernel(gpu::GPUFuncOp func) {
  names.clear();
  views.clear();
  used.clear();
  taken.clear();
  os << "extern \"C\" __global__ void ";
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
    std::string n = fresh("shared");
    names[shared] = n;
    line() << "__shared__ ";
    if (auto align = func.getWorkgroupAttributionAttr(shared.getArgNumber() -
                                                          func.getFunctionType().getNumInputs(),
                                                      "llvm.align"))
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
  names.clear();
  used.clear();
  taken.clear();
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
    if (failed(emitOp(&op)))
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
        std::string n = fresh("dynamic_shared");
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
          return name(llvm::cast<Value>(v));
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
          zfill = std::to_string(bytes) + " - " + name(valid) + " * " +
                  std::to_string(copy.getDst().getType().getElementTypeBitWidth() / 8);
        line() << "__pipeline_memcpy_async(" << dst << ", " << src << ", " << bytes << ", "
               << zfill << ");\n";
        names[copy.getAsyncToken()] = "0";
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
        std::string n = fresh("local");
        names[alloca] = n;
        line() << *elem << " " << n;
        for (int64_t d : type.getShape())
          os << "[" << d << "]";
        os << ";\n";
        return success();
      })
      .Case<scf::IfOp>([&](scf::IfOp ifOp) -> LogicalResult {
        SmallVector<ValueRange> ifSources = {ifOp.thenYield().getOperands()};
        if (ifOp.elseBlock())
          ifSources.push_back(ifOp.elseYield().getOperands());
        if (failed(declareCarried(ifOp.getResults(), op, "r", ifSources)))
          return failure();
        line() << "if (" << name(ifOp.getCondition()) << ") {\n";
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
                                   forOp.getInitArgs()})))
          return failure();
        assign(forOp.getRegionIterArgs(), forOp.getInitArgs());
        FailureOr<std::string> ivType = cType(forOp.getInductionVar().getType(), op);
        if (failed(ivType))
          return failure();
        std::string iv = fresh("i");
        names[forOp.getInductionVar()] = iv;
        if (Attribute unroll = op->getAttr("ks.unroll")) {
          // The lowering unrolls these loops; nvcc is asked to do the same.
          if (auto factor = dyn_cast<IntegerAttr>(unroll))
            line() << "#pragma unroll " << factor.getInt() << "\n";
          else
            line() << "#pragma unroll\n";
        }
        line() << "for (" << *ivType << " " << iv << " = " << name(forOp.getLowerBound()) << "; "
               << iv << " < " << name(forOp.getUpperBound()) << "; " << iv
               << " += " << name(forOp.getStep()) << ") {\n";
        ++indent;
        if (failed(emitBlock(*forOp.getBody())))
          return failure();
        assign(forOp.getRegionIterArgs(),
               forOp.getBody()->getTerminator()->getOperands());
        --indent;
        line() << "}\n";
        for (auto [result, carried] : llvm::zip(forOp.getResults(), forOp.getRegionIterArgs()))
          names[result] = name(carried);
        return success();
      })
      .Case<scf::WhileOp>([&](scf::WhileOp whileOp) -> LogicalResult {
        // while (true) { before; if (!cond) break; after }: carried values
        // are mutable locals; the results are the condition's arguments.
        Block &before = whileOp.getBefore().front(), &after = whileOp.getAfter().front();
        ValueRange yielded = after.getTerminator()->getOperands();
        if (failed(declareCarried(before.getArguments(), op, "x", {yielded, whileOp.getInits()})))
          return failure();
        // A result that is a loop variable at the exit is that variable;
        // only computed results need locals of their own.
        scf::ConditionOp exitCond = whileOp.getConditionOp();
        SmallVector<Value> computed;
        for (auto [result, arg] : llvm::zip(whileOp.getResults(), exitCond.getArgs())) {
          auto blockArg = dyn_cast<BlockArgument>(arg);
          if (blockArg && blockArg.getOwner() == &before)
            names[result] = name(arg);
          else
            computed.push_back(result);
        }
        if (failed(declareCarried(computed, op, "out")))
          return failure();
        assign(before.getArguments(), whileOp.getInits());
        line() << "while (true) {\n";
        ++indent;
        if (failed(emitBlock(before)))
          return failure();
        scf::ConditionOp cond = whileOp.getConditionOp();
        assign(computed, [&] {
          SmallVector<Value> args;
          for (auto [result, arg] : llvm::zip(whileOp.getResults(), cond.getArgs()))
            if (llvm::is_contained(computed, result))
              args.push_back(arg);
          return args;
        }());
        line() << "if (!" << name(cond.getCondition()) << ")\n";
        line() << "  break;\n";
        for (auto [arg, value] : llvm::zip(after.getArguments(), cond.getArgs()))
          names[arg] = name(value);
        if (failed(emitBlock(after)))
          return failure();
        assign(before.getArguments(), after.getTerminator()->getOperands());
        --indent;
        line() << "}\n";
        return success();
      })
      .Case<scf::IndexSwitchOp>([&](scf::IndexSwitchOp sw) -> LogicalResult {
        if (failed(declareCarried(sw.getResults(), op, "r")))
          return failure();
        line() << "switch (" << name(sw.getArg()) << ") {\n";
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
        return define(rmw.getResult(), atomic->name.str() + "(&" +
                                           subscript(rmw.getMemref(), rmw.getIndices()) + ", " +
                                           name(rmw.getValue()) + ")",
                      op, "old");
      })
      .Case<memref::GenericAtomicRMWOp>([&](memref::GenericAtomicRMWOp rmw) -> LogicalResult {
        // A compare-and-swap loop around the body.
        Type t = rmw.getResult().getType();
        if (!t.isInteger(32))
          return rmw.emitError("export-cuda: generic atomics are exported for 32-bit integers only");
        std::string place = "&" + subscript(rmw.getMemref(), rmw.getIndices());
        std::string old = fresh("old"), assumed = fresh("assumed");
        names[rmw.getResult()] = old;
        line() << "int " << old << " = *(" << place << "), " << assumed << ";\n";
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
          names[c.getResult()] = literal(c.getValue());
          return success();
        }
        if (isa<gpu::ThreadIdOp, gpu::BlockIdOp, gpu::BlockDimOp, gpu::GridDimOp>(op)) {
          FailureOr<std::string> expr = expression(op);
          if (failed(expr))
            return failure();
          // Kept as 64-bit values: index arithmetic on them must not wrap
          // at 32 bits as unsigned threadIdx.x - blockDim.x would.
          names[op->getResult(0)] = "(" + *expr + ")";
          return success();
        }
        if (isa<ub::PoisonOp>(op)) {
          // A value on a path that never reads it: any initial value will do.
          return define(op->getResult(0), "{}", op);
        }
        FailureOr<std::string> expr = expression(op);
        if (failed(expr))
          return failure();
        // A side-effect-free value used once, later in the same block and
        // not by a terminator, is written into its user's expression. (Not
        // into terminators: they become assignments to carried locals, which
        // later assignments of the same group could change under it.)
        Value result = op->getResult(0);
        if (isMemoryEffectFree(op) && result.hasOneUse()) {
          Operation *user = *result.getUsers().begin();
          if (user->getBlock() == op->getBlock() && !user->hasTrait<OpTrait::IsTerminator>()) {
            names[result] = "(" + *expr + ")";
            return success();
          }
        }
        return define(result, *expr, op);
      });
}

FailureOr<std::string> Emitter::expression(Operation *op) {
  auto operand = [&](unsigned i) { return name(op->getOperand(i)); };
  auto bin = [&](StringRef c) { return (operand(0) + " " + c + " " + operand(1)).str(); };
  auto asUnsigned = [&](unsigned i) -> FailureOr<std::string> {
    FailureOr<std::string> t = cType(op->getOperand(i).getType(), op, /*isUnsigned=*/true);
    if (failed(t))
      return failure();
    return "(" + *t + ")" + operand(i);
  };
  auto ubin = [&](StringRef c) -> FailureOr<std::string> {
    FailureOr<std::string> a = asUnsigned(0), b = asUnsigned(1);
    if (failed(a) || failed(b))
      return failure();
    return *a + " " + c.str() + " " + *b;
  };
  auto cast = [&](bool fromUnsigned) -> FailureOr<std::string> {
    FailureOr<std::string> to = cType(op->getResult(0).getType(), op);
    if (failed(to))
      return failure();
    // threadIdx.x (an unsigned int under 2^31) converted to a 32-bit or
    // wider integer: one cast of the builtin, as the source wrote it, not
    // the chain through the index type's long long.
    if (Operation *def = op->getOperand(0).getDefiningOp();
        def && isa<gpu::ThreadIdOp, gpu::BlockIdOp, gpu::BlockDimOp, gpu::GridDimOp>(def) &&
        isa<IntegerType>(op->getResult(0).getType()) &&
        op->getResult(0).getType().getIntOrFloatBitWidth() >= 32) {
      StringRef var = isa<gpu::ThreadIdOp>(def)   ? "threadIdx"
                      : isa<gpu::BlockIdOp>(def)  ? "blockIdx"
                      : isa<gpu::BlockDimOp>(def) ? "blockDim"
                                                  : "gridDim";
      gpu::Dimension dim = llvm::cast<gpu::DimensionAttr>(*def->getInherentAttr("dimension"))
                               .getValue();
      return "(" + *to + ")" + var.str() + "." + gpu::stringifyDimension(dim).str();
    }
    if (fromUnsigned) {
      FailureOr<std::string> from = asUnsigned(0);
      if (failed(from))
        return failure();
      return "(" + *to + ")" + *from;
    }
    return "(" + *to + ")" + operand(0);
  };
  auto call = [&](StringRef f32, StringRef f64) -> std::string {
    std::string args;
    for (unsigned i = 0; i < op->getNumOperands(); ++i)
      args += (i ? ", " : "") + operand(i);
    return ((op->getResult(0).getType().isF64() ? f64 : f32) + "(" + args + ")").str();
  };
  if (auto c = dyn_cast<arith::ConstantOp>(op))
    return literal(c.getValue());
  if (auto g = dyn_cast<gpu::ThreadIdOp>(op))
    return "(long long)threadIdx." + stringifyDimension(g.getDimension()).str();
  if (auto g = dyn_cast<gpu::BlockIdOp>(op))
    return "(long long)blockIdx." + stringifyDimension(g.getDimension()).str();
  if (auto g = dyn_cast<gpu::BlockDimOp>(op))
    return "(long long)blockDim." + stringifyDimension(g.getDimension()).str();
  if (auto g = dyn_cast<gpu::GridDimOp>(op))
    return "(long long)gridDim." + stringifyDimension(g.getDimension()).str();
  if (auto load = dyn_cast<memref::LoadOp>(op))
    return subscript(load.getMemRef(), load.getIndices());
  if (auto load = dyn_cast<vector::LoadOp>(op)) {
    FailureOr<std::string> type = cType(load.getVectorType(), op);
    if (failed(type))
      return failure();
    return "*reinterpret_cast<const " + *type + " *>(&" + subscript(load.getBase(), load.getIndices()) + ")";
  }
  if (auto extract = dyn_cast<vector::ExtractOp>(op)) {
    auto position = extract.getStaticPosition();
    if (position.size() == 1 && position[0] >= 0 && position[0] < 4)
      return name(extract.getSource()) + "." + std::string(1, "xyzw"[position[0]]);
  }
  if (auto fromElements = dyn_cast<vector::FromElementsOp>(op)) {
    FailureOr<std::string> type = cType(fromElements.getType(), op);
    if (failed(type))
      return failure();
    std::string args;
    for (Value v : fromElements.getElements())
      args += (args.empty() ? "" : ", ") + name(v);
    return "make_" + *type + "(" + args + ")";
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
    return "make_" + *type + "(" + args + ")";
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
    case P::ULT: return "!(" + bin(">=") + ")";
    case P::ULE: return "!(" + bin(">") + ")";
    case P::UGT: return "!(" + bin("<=") + ")";
    case P::UGE: return "!(" + bin("<") + ")";
    case P::UEQ: return "!((" + bin("<") + ") || (" + bin(">") + "))";
    case P::ONE: return "(" + bin("<") + ") || (" + bin(">") + ")";
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
        return "(" + *a + " + " + *b + " - 1) / " + *b;
      })
      .Case<arith::RemUIOp>([&](auto) { return ubin("%"); })
      .Case<arith::AndIOp>([&](auto) { return bin("&"); })
      .Case<arith::OrIOp>([&](auto) { return bin("|"); })
      .Case<arith::XOrIOp>([&](auto) { return bin("^"); })
      .Case<arith::ShLIOp>([&](auto) { return bin("<<"); })
      .Case<arith::ShRSIOp>([&](auto) { return bin(">>"); })
      .Case<arith::ShRUIOp>([&](auto) { return ubin(">>"); })
      .Case<arith::NegFOp>([&](auto) { return "-" + operand(0); })
      .Case<arith::MinSIOp>([&](auto) { return "min(" + operand(0) + ", " + operand(1) + ")"; })
      .Case<arith::MaxSIOp>([&](auto) { return "max(" + operand(0) + ", " + operand(1) + ")"; })
      .Case<arith::MinUIOp, arith::MaxUIOp>([&](Operation *m) -> FailureOr<std::string> {
        FailureOr<std::string> a = asUnsigned(0), b = asUnsigned(1);
        if (failed(a) || failed(b))
          return failure();
        return std::string(isa<arith::MinUIOp>(m) ? "min(" : "max(") + *a + ", " + *b + ")";
      })
      // fmaxf/fminf return the other operand of a NaN: they are maxnumf and
      // minnumf. maximumf/minimumf propagate NaN and order -0 below +0, which
      // the helpers of kNaNPropagatingMinMax do.
      .Case<arith::MaximumFOp>([&](auto) { return call("ks_maximum<float>", "ks_maximum<double>"); })
      .Case<arith::MinimumFOp>([&](auto) { return call("ks_minimum<float>", "ks_minimum<double>"); })
      .Case<arith::SelectOp>([&](auto) { return operand(0) + " ? " + operand(1) + " : " + operand(2); })
      .Case<arith::ExtSIOp, arith::TruncIOp, arith::SIToFPOp, arith::FPToSIOp, arith::ExtFOp,
            arith::TruncFOp, arith::IndexCastOp>([&](auto) { return cast(false); })
      .Case<arith::ExtUIOp, arith::UIToFPOp, arith::IndexCastUIOp>([&](auto) { return cast(true); })
      .Case<arith::FPToUIOp>([&](Operation *o) -> FailureOr<std::string> {
        FailureOr<std::string> to = cType(o->getResult(0).getType(), o, /*isUnsigned=*/true);
        if (failed(to))
          return failure();
        return "(" + *to + ")" + operand(0);
      })
      .Default([&](Operation *other) -> FailureOr<std::string> {
        // Math functions (and fmaxf/fminf: maxnumf/minnumf), by the table the
        // importer lifts them with (kernelskill/Support/CUDABuiltins.h).
        if (const cuda::MathBuiltin *math = cuda::lookupMathByOp(other->getName().getStringRef()))
          return call(math->f32, math->f64);
        return other->emitError("export-cuda: '") << other->getName()
                                                  << "' has no CUDA C++ spelling here";
      });
}

/// arith.maximumf/minimumf as CUDA has no function for them (fmaxf is
/// maxnumf): NaN if either operand is NaN, and max(-0, +0) = +0,
/// min(-0, +0) = -0. Written into the file only when a kernel uses them.
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

LogicalResult Emitter::emitModule(ModuleOp module) {
  os << "// Generated by KernelSkill (ks-translate --export-cuda)";
  if (auto source = module->getAttrOfType<StringAttr>("ks.source"))
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
  bool any = false;
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
