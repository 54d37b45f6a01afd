//===- ImportBuiltins.cpp - Calls in device code ----------------------------===//
//
// What a call in a kernel becomes: a __device__ function of the user's is
// inlined; CUDA's builtins (math, atomics, shuffles) become the ops the
// shared table of kernelskill/Support/CUDABuiltins.h names, the one the
// exporter writes back from; a few (barriers, vector constructors, __ldg,
// precision conversions, half arithmetic, min/max) are spelled here.
//
//===----------------------------------------------------------------------===//

#include "FunctionEmitter.h"
#include "kernelskill/Support/CUDABuiltins.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include "llvm/ADT/ScopeExit.h"

using namespace mlir;
using namespace mlir::ks::frontend;

Value KernelEmitter::emitCall(const clang::CallExpr *e) {
  Location l = loc(e);
  const clang::FunctionDecl *callee = e->getDirectCallee();
  if (!callee)
    return error(e, "calls through function pointers are outside the supported subset");
  StringRef name = callee->getName();
  if (std::optional<Value> group = emitGroupCall(e))
    return *group;
  if (callee->getBuiltinID() == 0 && callee->hasBody() && callee->hasAttr<clang::CUDADeviceAttr>() &&
      !callee->getSourceRange().isInvalid() && !sm.isInSystemHeader(callee->getLocation()))
    return emitInlineCall(e, callee);
  if (name == "__syncthreads") {
    gpu::BarrierOp::create(b, l);
    return nullptr;
  }
  if (name.starts_with("atomic"))
    return emitAtomic(name, e);
  if (name.starts_with("__shfl"))
    return emitShuffle(name, e);
  if (name == "__ballot_sync" || name == "__any_sync" || name == "__all_sync")
    return emitWarpVote(name, e);
  if (llvm::is_contained({"__popc", "__popcll", "__clz", "__clzll", "__ffs", "__ffsll"}, name))
    return emitBitCount(name, e);
  if (name.starts_with("make_") && vectorRecord(e->getType())) {
    auto vecType = cast<VectorType>(scalarType(e->getType(), e->getBeginLoc()));
    SmallVector<Value> elems;
    for (const clang::Expr *arg : e->arguments()) {
      Value v = convert(rvalue(arg), arg->getType(), vectorRecord(e->getType())->first, arg);
      if (!v)
        return nullptr;
      elems.push_back(v);
    }
    if (int64_t(elems.size()) != vecType.getNumElements())
      return error(e, "'" + name + "' needs one value per component");
    return vector::FromElementsOp::create(b, l, vecType, elems);
  }
  if (name == "__ldg") {
    std::optional<Pointer> p = pointer(e->getArg(0));
    if (!p)
      return nullptr;
    LValue lv{p->base, {p->offset}, p->width, std::nullopt};
    return loadLValue(lv, l);
  }
  if (std::optional<Value> pair = emitHalfPairCall(name, e))
    return *pair;
  if (std::optional<Value> predicate = emitHalfPredicateCall(name, e))
    return *predicate;
  return emitMathCall(name, e);
}

std::optional<Value> KernelEmitter::emitHalfPredicateCall(StringRef name, const clang::CallExpr *e) {
  using P = arith::CmpFPredicate;
  // __heq..__hge are ordered (false with a NaN), __hequ..__hgeu unordered;
  // the __hb...2 forms hold when the comparison holds on both lanes.
  static const std::pair<StringRef, P> comparisons[] = {
      {"eq", P::OEQ}, {"ne", P::ONE}, {"lt", P::OLT}, {"le", P::OLE}, {"gt", P::OGT}, {"ge", P::OGE},
      {"equ", P::UEQ}, {"neu", P::UNE}, {"ltu", P::ULT}, {"leu", P::ULE}, {"gtu", P::UGT},
      {"geu", P::UGE}};
  // The comparison's suffix: __hlt -> lt, __hblt2 -> lt (both lanes).
  StringRef suffix = name;
  bool bothLanes = suffix.consume_front("__hb") && suffix.consume_back("2");
  if (!bothLanes && !(suffix = name).consume_front("__h"))
    suffix = "";
  std::optional<P> predicate;
  for (auto [s, p] : comparisons)
    if (suffix == s)
      predicate = p;
  bool negation = name == "__hneg" || name == "__hneg2";
  bool isNaN = name == "__hisnan";
  if (!predicate && !negation && !isNaN)
    return std::nullopt;
  Location l = loc(e);
  size_t arity = predicate ? 2 : 1;
  if (e->getNumArgs() != arity)
    return error(e, "'" + name + "' takes " + Twine(arity) + " argument" + (arity == 1 ? "" : "s"));
  SmallVector<Value> args;
  for (const clang::Expr *arg : e->arguments()) {
    Value v = rvalue(arg);
    if (!v)
      return Value();
    Type elem = getElementTypeOrSelf(v.getType());
    if (!elem.isF16() && !elem.isBF16())
      return error(arg, "'" + name + "' takes __half or __nv_bfloat16 values (or pairs of them)");
    args.push_back(v);
  }
  if (negation)
    return Value(arith::NegFOp::create(b, l, args[0]));
  if (isNaN)
    return Value(arith::CmpFOp::create(b, l, P::UNO, args[0], args[0]));
  if (!bothLanes) {
    if (isa<VectorType>(args[0].getType()))
      return error(e, "'" + name + "' compares two halves; for pairs use '__hb" +
                          name.drop_front(3) + "2'");
    return Value(arith::CmpFOp::create(b, l, *predicate, args[0], args[1]));
  }
  // Lane by lane, so that the result is scalar compares the exporter spells
  // with the halves' own operators.
  Value all;
  for (int64_t lane : {0, 1}) {
    Value x = vector::ExtractOp::create(b, l, args[0], ArrayRef<int64_t>{lane});
    Value y = vector::ExtractOp::create(b, l, args[1], ArrayRef<int64_t>{lane});
    Value c = arith::CmpFOp::create(b, l, *predicate, x, y);
    all = all ? Value(arith::AndIOp::create(b, l, all, c)) : c;
  }
  return all;
}

/// __half2 and __nv_bfloat162 (vector<2xf16>, vector<2xbf16>): the paired
/// arithmetic and the conversions of cuda_fp16.h and cuda_bf16.h; nullopt
/// for other calls (__hfma2, __hmax2, h2sqrt, ... are in the math table:
/// emitMathCall).
std::optional<Value> KernelEmitter::emitHalfPairCall(StringRef name, const clang::CallExpr *e) {
  static const StringRef names[] = {
      "__hadd2", "__hsub2", "__hmul2", "__h2div",
      "__halves2half2", "__halves2bfloat162", "__floats2half2_rn", "__floats2bfloat162_rn",
      "__float2half2_rn", "__float2bfloat162_rn", "__half22float2", "__bfloat1622float2",
      "__float22half2_rn", "__float22bfloat162_rn", "__low2half", "__high2half", "__low2bfloat16",
      "__high2bfloat16", "__low2float", "__high2float"};
  if (!llvm::is_contained(names, name))
    return std::nullopt;
  Location l = loc(e);
  SmallVector<Value> args;
  for (const clang::Expr *arg : e->arguments()) {
    Value v = rvalue(arg);
    if (!v)
      return Value();
    args.push_back(v);
  }
  Type result = scalarType(e->getType(), e->getBeginLoc());
  if (hadError)
    return Value();
  auto arity = [&](size_t n) {
    if (args.size() == n)
      return true;
    error(e, "'" + name + "' takes " + Twine(n) + " arguments");
    return false;
  };
  static const std::pair<StringRef, clang::BinaryOperatorKind> arithmetic[] = {
      {"__hadd2", clang::BO_Add}, {"__hsub2", clang::BO_Sub}, {"__hmul2", clang::BO_Mul},
      {"__h2div", clang::BO_Div}};
  for (auto [fn, op] : arithmetic)
    if (name == fn)
      return arity(2) ? binary(op, args[0], args[1], e->getType(), e) : Value();
  auto vec = dyn_cast<VectorType>(result);
  Type half = vec ? vec.getElementType() : result;
  auto toHalf = [&](Value v) -> Value {
    return v.getType() == half ? v : Value(arith::TruncFOp::create(b, l, half, v));
  };
  if (name.starts_with("__halves2") || name.starts_with("__floats2")) {
    if (!arity(2))
      return Value();
    return vector::FromElementsOp::create(b, l, vec, ValueRange{toHalf(args[0]), toHalf(args[1])});
  }
  if (name == "__float2half2_rn" || name == "__float2bfloat162_rn")
    return arity(1) ? Value(vector::BroadcastOp::create(b, l, vec, toHalf(args[0]))) : Value();
  if (!arity(1))
    return Value();
  if (name == "__half22float2" || name == "__bfloat1622float2")
    return arith::ExtFOp::create(b, l, result, args[0]);
  if (name == "__float22half2_rn" || name == "__float22bfloat162_rn")
    return arith::TruncFOp::create(b, l, result, args[0]);
  // __low2half, __high2bfloat16, __low2float, ...: one lane.
  Value lane = vector::ExtractOp::create(b, l, args[0], ArrayRef<int64_t>{name.starts_with("__low") ? 0 : 1});
  return lane.getType() == result ? lane : Value(arith::ExtFOp::create(b, l, result, lane));
}

Value KernelEmitter::emitMathCall(StringRef name, const clang::CallExpr *e) {
  Location l = loc(e);
  // What the call is, before any argument is evaluated: the arguments are
  // converted to the call's result type below, which is only right for
  // these (a comparison of pairs returns bool).
  static const StringRef conversions[] = {
      "__half2float",     "__float2half",  "__float2half_rn",    "__bfloat162float",
      "__float2bfloat16", "__float2bfloat16_rn", "__int2float_rn", "__float2int_rz"};
  static const std::pair<StringRef, clang::BinaryOperatorKind> halfArith[] = {
      {"__hadd", clang::BO_Add}, {"__hsub", clang::BO_Sub}, {"__hmul", clang::BO_Mul},
      {"__hdiv", clang::BO_Div}};
  const cuda::MathBuiltin *math = cuda::lookupMathByName(name);
  if (!math && !llvm::is_contained(conversions, name) &&
      !llvm::is_contained(llvm::make_first_range(halfArith), name) &&
      !llvm::is_contained({"min", "max", "umin", "umax"}, name))
    return error(e, "call to '" + name + "' is outside the supported subset");
  SmallVector<Value> args;
  for (const clang::Expr *arg : e->arguments()) {
    Value v = rvalue(arg);
    if (!v)
      return nullptr;
    // Math operates in the call's result type.
    args.push_back(convert(v, arg->getType(), e->getType(), arg));
  }
  if (math && args.size() == math->arity && isa<FloatType>(getElementTypeOrSelf(args[0].getType()))) {
    OperationState state(l, math->op);
    state.addOperands(args);
    state.addTypes(args[0].getType());
    return b.create(state)->getResult(0);
  }
  // Precision conversions: the argument was already converted to the
  // result's type above (round to nearest even).
  if (llvm::is_contained(conversions, name) && args.size() == 1)
    return args[0];
  for (auto [fn, op] : halfArith)
    if (name == fn && args.size() == 2)
      return binary(op, args[0], args[1], e->getType(), e);
  if ((name == "min" || name == "max" || name == "umin" || name == "umax") && args.size() == 2) {
    if (isa<FloatType>(args[0].getType()))
      return name.ends_with("min") ? Value(arith::MinNumFOp::create(b, l, args[0], args[1]))
                                   : Value(arith::MaxNumFOp::create(b, l, args[0], args[1]));
    bool u = isUnsigned(e->getType());
    if (name.ends_with("min"))
      return u ? Value(arith::MinUIOp::create(b, l, args[0], args[1])) : Value(arith::MinSIOp::create(b, l, args[0], args[1]));
    return u ? Value(arith::MaxUIOp::create(b, l, args[0], args[1])) : Value(arith::MaxSIOp::create(b, l, args[0], args[1]));
  }
  return error(e, "call to '" + name + "' is outside the supported subset");
}

Value FunctionEmitter::emitInlineCall(const clang::CallExpr *e, const clang::FunctionDecl *callee) {
  // The body is the definition's (a forward declaration has other parameters).
  if (const clang::FunctionDecl *definition = callee->getDefinition())
    callee = definition;
  for (const InlineFrame &frame : inlineStack)
    if (frame.fn == callee)
      return error(e, "recursion ('" + callee->getName() + "') is outside the supported subset");
  Location l = loc(e);
  // Evaluate every argument before binding any parameter: an argument may
  // inline this same function (f(a, f(b, c))), which binds them too.
  SmallVector<std::pair<const clang::VarDecl *, Slot>> bindings;
  for (auto [param, arg] : llvm::zip(callee->parameters(), e->arguments())) {
    Slot slot;
    if (param->getType()->isPointerType()) {
      std::optional<Pointer> p = pointer(arg);
      if (!p)
        return nullptr;
      slot.kind = Slot::PointerVar;
      slot.base = p->base;
      slot.width = p->width;
      slot.offsetSlot = allocaAtEntry(MemRefType::get({}, b.getIndexType()), l);
      store(p->offset, slot.offsetSlot, l);
    } else if (param->getType()->isReferenceType() &&
               !param->getType()->getPointeeType().isConstQualified()) {
      // T &x: the parameter names the argument's place (a variable, an
      // array or buffer element, a vector component).
      clang::QualType pointee = param->getType()->getPointeeType();
      if (pointee->isPointerType() || ast.getAsArrayType(pointee))
        return error(arg, "references to pointers and arrays are outside the supported subset");
      std::optional<LValue> place = lvalue(arg);
      if (!place)
        return nullptr;
      place->var = nullptr; // values stored through it are not the argument's own name
      slot.kind = Slot::Reference;
      slot.place = place;
    } else {
      // By value, and const T & (read only, so a copy means the same).
      Value v = convert(rvalue(arg), arg->getType(), param->getType().getNonReferenceType(), arg);
      if (!v)
        return nullptr;
      slot.storage = allocaAtEntry(MemRefType::get({}, v.getType()), l);
      store(v, slot.storage, l);
    }
    bindings.push_back({param, slot});
  }
  // Bind, remembering outer bindings of the same parameters to restore.
  SmallVector<std::pair<const clang::VarDecl *, std::optional<Slot>>> outer;
  for (auto &[param, slot] : bindings) {
    auto it = vars.find(param);
    outer.push_back({param, it == vars.end() ? std::nullopt : std::optional<Slot>(it->second)});
    vars[param] = slot;
  }
  llvm::scope_exit restore([&] {
    for (auto &[param, slot] : outer) {
      if (slot)
        vars[param] = *slot;
      else
        vars.erase(param);
    }
  });
  InlineFrame frame{callee, newBlock(), nullptr};
  if (!callee->getReturnType()->isVoidType())
    frame.resultSlot =
        allocaAtEntry(MemRefType::get({}, scalarType(callee->getReturnType(), e->getBeginLoc())), l);
  inlineStack.push_back(frame);
  emitStmt(callee->getBody());
  inlineStack.pop_back();
  if (hadError)
    return nullptr;
  branchTo(frame.exit, l);
  startBlock(frame.exit);
  return frame.resultSlot ? load(frame.resultSlot, l) : nullptr;
}

Value KernelEmitter::emitAtomic(StringRef name, const clang::CallExpr *e) {
  Location l = loc(e);
  if (e->getNumArgs() < 2)
    return error(e, "'" + name + "' needs a pointer and a value");
  std::optional<Pointer> p = pointer(e->getArg(0));
  Value v = p ? rvalue(e->getArg(1)) : nullptr;
  if (!v)
    return nullptr;
  if (isConstantMemory(p->base))
    return error(e->getArg(0), "atomics cannot change __constant__ memory");
  clang::QualType elem = e->getArg(0)->getType()->getPointeeType();
  v = convert(v, e->getArg(1)->getType(), elem, e->getArg(1));
  bool isFloat = isa<FloatType>(v.getType()), u = isUnsigned(elem);
  // atomicSub(p, v) is atomicAdd(p, -v) (CUDA has it for integers only).
  if (name == "atomicSub" && !isFloat) {
    v = arith::SubIOp::create(b, l, arith::ConstantOp::create(b, l, b.getIntegerAttr(v.getType(), 0)), v);
    name = "atomicAdd";
  }
  if (const cuda::AtomicBuiltin *atomic = cuda::lookupAtomic(name, isFloat, u))
    return memref::AtomicRMWOp::create(b, l, *arith::symbolizeAtomicRMWKind(atomic->kind), v,
                                       p->base, ValueRange{p->offset});
  if ((name == "atomicInc" || name == "atomicDec") && !isFloat) {
    // CUDA's wrapping counters, on unsigned ints: inc: old >= v ? 0 : old + 1;
    // dec: old == 0 || old > v ? v : old - 1. Both return the old value.
    auto rmw = memref::GenericAtomicRMWOp::create(b, l, p->base, ValueRange{p->offset});
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(rmw.getBody());
    Value old = rmw.getCurrentValue();
    Type t = old.getType();
    Value zero = arith::ConstantOp::create(b, l, b.getIntegerAttr(t, 0));
    Value one = arith::ConstantOp::create(b, l, b.getIntegerAttr(t, 1));
    Value next;
    if (name == "atomicInc") {
      Value wrap = arith::CmpIOp::create(b, l, arith::CmpIPredicate::uge, old, v);
      next = arith::SelectOp::create(b, l, wrap, zero, arith::AddIOp::create(b, l, old, one));
    } else {
      Value wrap = arith::OrIOp::create(
          b, l, arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq, old, zero),
          arith::CmpIOp::create(b, l, arith::CmpIPredicate::ugt, old, v));
      next = arith::SelectOp::create(b, l, wrap, v, arith::SubIOp::create(b, l, old, one));
    }
    memref::AtomicYieldOp::create(b, l, next);
    return rmw.getResult();
  }
  if (name == "atomicCAS" && e->getNumArgs() == 3) {
    // old = *p; *p = (old == compare) ? value : old; return old.
    Value desired = convert(rvalue(e->getArg(2)), e->getArg(2)->getType(), elem, e->getArg(2));
    if (!desired)
      return nullptr;
    auto rmw = memref::GenericAtomicRMWOp::create(b, l, p->base, ValueRange{p->offset});
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(rmw.getBody());
    Value current = rmw.getCurrentValue();
    Value equal = isFloat ? Value(arith::CmpFOp::create(b, l, arith::CmpFPredicate::OEQ, current, v))
                          : Value(arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq, current, v));
    Value next = arith::SelectOp::create(b, l, equal, desired, current);
    memref::AtomicYieldOp::create(b, l, next);
    // generic_atomic_rmw returns the old value, as atomicCAS does.
    return rmw.getResult();
  }
  return error(e, "'" + name + "' is outside the supported subset");
}

Value KernelEmitter::emitShuffle(StringRef name, const clang::CallExpr *e) {
  Location l = loc(e);
  const cuda::ShuffleBuiltin *shuffle = cuda::lookupShuffle(name);
  if (!shuffle || e->getNumArgs() < 3)
    return error(e, "'" + name + "' is outside the supported subset (use the *_sync forms)");
  gpu::ShuffleMode mode = *gpu::symbolizeShuffleMode(shuffle->mode);
  // The mask (argument 0) names the participating lanes; gpu.shuffle is
  // warp-wide, which is what the full masks these kernels use mean.
  Value value = rvalue(e->getArg(1));
  Value offset = value ? rvalue(e->getArg(2)) : nullptr;
  if (!offset)
    return nullptr;
  Value width = e->getNumArgs() > 3 ? rvalue(e->getArg(3))
                                    : arith::ConstantOp::create(b, l, b.getI32IntegerAttr(32));
  if (!width)
    return nullptr;
  offset = arith::TruncIOp::create(b, l, b.getI32Type(), arith::ExtSIOp::create(b, l, b.getI64Type(), offset));
  width = arith::TruncIOp::create(b, l, b.getI32Type(), arith::ExtSIOp::create(b, l, b.getI64Type(), width));
  return gpu::ShuffleOp::create(b, l, value, offset, width, mode).getShuffleResult();
}

Value KernelEmitter::emitWarpVote(StringRef name, const clang::CallExpr *e) {
  Location l = loc(e);
  if (e->getNumArgs() != 2)
    return error(e, "'" + name + "' takes a mask and a predicate");
  Value mask = rvalue(e->getArg(0));
  mask = mask ? convert(mask, e->getArg(0)->getType(), ast.UnsignedIntTy, e->getArg(0)) : nullptr;
  Value pred = mask ? toBool(rvalue(e->getArg(1)), e->getArg(1)) : nullptr;
  if (!pred)
    return nullptr;
  if (name == "__ballot_sync")
    return NVVM::VoteSyncOp::create(b, l, b.getI32Type(), mask, pred, NVVM::VoteSyncKind::ballot);
  Value vote = NVVM::VoteSyncOp::create(
      b, l, b.getI1Type(), mask, pred,
      name == "__any_sync" ? NVVM::VoteSyncKind::any : NVVM::VoteSyncKind::all);
  return arith::ExtUIOp::create(b, l, b.getI32Type(), vote); // int, 0 or 1
}

Value KernelEmitter::emitBitCount(StringRef name, const clang::CallExpr *e) {
  Location l = loc(e);
  if (e->getNumArgs() != 1)
    return error(e, "'" + name + "' takes one integer");
  bool wide = name.ends_with("ll");
  clang::QualType operand = wide ? ast.UnsignedLongLongTy : ast.UnsignedIntTy;
  Value x = rvalue(e->getArg(0));
  x = x ? convert(x, e->getArg(0)->getType(), operand, e->getArg(0)) : nullptr;
  if (!x)
    return nullptr;
  auto asInt = [&](Value v) -> Value {
    return wide ? Value(arith::TruncIOp::create(b, l, b.getI32Type(), v)) : v;
  };
  if (name.starts_with("__popc"))
    return asInt(math::CtPopOp::create(b, l, x));
  if (name.starts_with("__clz"))
    return asInt(math::CountLeadingZerosOp::create(b, l, x));
  // __ffs: the 1-based position of the lowest set bit, 0 for none.
  Value zero = arith::ConstantOp::create(b, l, b.getIntegerAttr(x.getType(), 0));
  Value one = arith::ConstantOp::create(b, l, b.getI32IntegerAttr(1));
  Value position = arith::AddIOp::create(b, l, asInt(math::CountTrailingZerosOp::create(b, l, x)), one);
  Value none = arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq, x, zero);
  return arith::SelectOp::create(b, l, none,
                                 arith::ConstantOp::create(b, l, b.getI32IntegerAttr(0)), position);
}
