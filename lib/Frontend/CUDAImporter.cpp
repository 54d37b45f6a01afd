//===- CUDAImporter.cpp - CUDA C++ to lifted MLIR -------------------------===//
//
// Builds gpu.func kernels from clang's AST, like the Toy tutorial's MLIRGen.
//
// Design: every function is first emitted as an unstructured control-flow
// graph (cf.br/cf.cond_br) with one memref.alloca slot per C variable, the way
// clang emits LLVM IR. That handles break, continue, early return, && / ||
// and ?: uniformly. Upstream mem2reg then turns the slots into SSA values,
// and ks-lift-kernel-cfg (upstream's CFG-to-SCF lifting, applied to gpu.func)
// recovers scf.if / scf.while / scf.for. CUDA pointers are (memref, offset)
// pairs during import: the IR only ever sees base[offset + i] accesses.
//
//===----------------------------------------------------------------------===//

#include "kernelskill/Frontend/CUDAImporter.h"
#include "CUDAParser.h"
#include "kernelskill/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Conversion/ControlFlowToSCF/ControlFlowToSCF.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/Stmt.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace mlir::ks;

namespace {

/// A CUDA pointer during import: a memref and an element offset into it.
/// A float4 pointer made from a float pointer (reinterpret_cast) reads
/// `width` consecutive elements as one vector; its offset stays in elements.
struct Pointer {
  Value base;   ///< memref<?xT> (a parameter) or a local/shared array
  Value offset; ///< index
  int64_t width = 1;
};

/// Where a C variable lives.
struct Slot {
  enum Kind { Scalar, PointerVar, Array } kind = Scalar;
  Value storage;    ///< Scalar: memref<T>; Array: memref<NxT>
  Value base;       ///< PointerVar: the memref it points into
  Value offsetSlot; ///< PointerVar: memref<index> holding the offset
  int64_t width = 1; ///< PointerVar: elements per pointee (4 for a float4 view)
};

/// An assignable place: a memref and its indices; `width` > 1 reads a vector
/// of consecutive elements; `lane` selects one component (v.x) of a vector.
struct LValue {
  Value memref;
  SmallVector<Value, 2> indices;
  int64_t width = 1;
  std::optional<int64_t> lane;
  const clang::VarDecl *var = nullptr; ///< the scalar variable, for names
};

std::optional<std::pair<clang::QualType, int64_t>> vectorRecord(clang::QualType t);
bool isHalfClass(clang::QualType t);
/// Types the importer treats as values although C++ sees classes.
bool isValueClass(clang::QualType t) { return isHalfClass(t) || vectorRecord(t).has_value(); }

/// The builtin variables: threadIdx, blockIdx, blockDim, gridDim.
std::optional<std::pair<StringRef, gpu::Dimension>> builtinIndex(const clang::Expr *e) {
  auto *pseudo = dyn_cast<clang::PseudoObjectExpr>(e);
  if (!pseudo)
    return std::nullopt;
  auto *call = dyn_cast<clang::CallExpr>(pseudo->getResultExpr());
  if (!call)
    return std::nullopt;
  auto *member = dyn_cast<clang::MemberExpr>(call->getCallee()->IgnoreImpCasts());
  if (!member)
    return std::nullopt;
  auto *base = dyn_cast<clang::DeclRefExpr>(member->getBase()->IgnoreImpCasts());
  if (auto *opaque = dyn_cast<clang::OpaqueValueExpr>(member->getBase()))
    base = dyn_cast<clang::DeclRefExpr>(opaque->getSourceExpr()->IgnoreImpCasts());
  if (!base)
    return std::nullopt;
  StringRef field = member->getMemberDecl()->getName();
  std::optional<gpu::Dimension> dim = llvm::StringSwitch<std::optional<gpu::Dimension>>(field)
                                          .Case("__fetch_builtin_x", gpu::Dimension::x)
                                          .Case("__fetch_builtin_y", gpu::Dimension::y)
                                          .Case("__fetch_builtin_z", gpu::Dimension::z)
                                          .Default(std::nullopt);
  if (!dim)
    return std::nullopt;
  return std::make_pair(base->getDecl()->getName(), *dim);
}

/// Emits one kernel.
class KernelEmitter {
public:
  KernelEmitter(MLIRContext *ctx, clang::ASTContext &ast, llvm::raw_ostream &diagnostics)
      : ctx(ctx), ast(ast), sm(ast.getSourceManager()), b(ctx), diagnostics(diagnostics) {}

  /// Emits `fn` into `module` as a gpu.func kernel; false after an error.
  bool emitKernel(const clang::FunctionDecl *fn, gpu::GPUModuleOp module, StringRef name);
  /// Emits host function `fn`, which launches kernels of `kernels`, as a
  /// func.func launcher at the end of `module`; false after an error.
  bool emitLauncher(const clang::FunctionDecl *fn, ModuleOp module, gpu::GPUModuleOp kernels);

private:
  MLIRContext *ctx;
  clang::ASTContext &ast;
  clang::SourceManager &sm;
  OpBuilder b;
  llvm::raw_ostream &diagnostics;
  bool hadError = false;

  gpu::GPUFuncOp func;        ///< the kernel being emitted (null for a launcher)
  gpu::GPUModuleOp kernels;   ///< a launcher's kernels
  Region *body = nullptr;     ///< the body of the function being emitted
  Block *entry = nullptr;
  /// dim3 variables of a launcher: one i32 slot per component.
  llvm::DenseMap<const clang::VarDecl *, std::array<Value, 3>> dims;
  llvm::DenseMap<const clang::VarDecl *, Slot> vars;
  struct LoopTargets {
    Block *continueDest, *breakDest;
  };
  SmallVector<LoopTargets> loops;
  /// Inlined __device__ calls in progress: where `return` goes, and the slot
  /// holding the returned value.
  struct InlineFrame {
    const clang::FunctionDecl *fn;
    Block *exit;
    Value resultSlot;
  };
  SmallVector<InlineFrame> inlineStack;
  Block *returnBlock = nullptr;

  //===--- diagnostics and locations ------------------------------------===//

  Location loc(clang::SourceLocation l) {
    clang::PresumedLoc p = sm.getPresumedLoc(sm.getExpansionLoc(l));
    if (p.isInvalid())
      return UnknownLoc::get(ctx);
    return FileLineColLoc::get(ctx, p.getFilename(), p.getLine(), p.getColumn());
  }
  Location loc(const clang::Stmt *s) { return loc(s->getBeginLoc()); }

  /// Reports an error at `l` once; the emitter then unwinds.
  std::nullptr_t error(clang::SourceLocation l, const Twine &message) {
    if (!hadError) {
      clang::PresumedLoc p = sm.getPresumedLoc(sm.getExpansionLoc(l));
      if (p.isValid())
        diagnostics << p.getFilename() << ":" << p.getLine() << ":" << p.getColumn() << ": ";
      diagnostics << "error: " << message << "\n";
    }
    hadError = true;
    return nullptr;
  }
  std::nullptr_t error(const clang::Stmt *s, const Twine &message) {
    return error(s->getBeginLoc(), message);
  }

  /// Reports an error at `where` when `elem` cannot be the element of a
  /// buffer shared with CUDA code: the lowering pads vector<3xT> to four
  /// elements (float3: 16 bytes, 12 in CUDA), so every element after the
  /// first would be read from the wrong address.
  bool isBufferElement(clang::QualType elem, clang::SourceLocation where) {
    std::optional<std::pair<clang::QualType, int64_t>> vec = vectorRecord(elem);
    if (!vec || vec->second != 3)
      return true;
    error(where, "buffers of '" + elem.getUnqualifiedType().getAsString() +
                     "' are not supported yet: three-component vector types are padded to "
                     "four components when lowered, which is not CUDA's layout");
    return false;
  }

  //===--- types --------------------------------------------------------===//

  Type scalarType(clang::QualType t, clang::SourceLocation where) {
    t = t.getCanonicalType().getUnqualifiedType();
    if (const auto *bt = dyn_cast<clang::BuiltinType>(t.getTypePtr())) {
      switch (bt->getKind()) {
      case clang::BuiltinType::Bool:
        return b.getI1Type();
      case clang::BuiltinType::Half:
      case clang::BuiltinType::Float16:
        return b.getF16Type();
      case clang::BuiltinType::BFloat16:
        return b.getBF16Type();
      case clang::BuiltinType::Float:
        return b.getF32Type();
      case clang::BuiltinType::Double:
        return b.getF64Type();
      default:
        if (bt->isInteger())
          return b.getIntegerType(ast.getTypeSize(t));
      }
    }
    if (t->isEnumeralType())
      return b.getIntegerType(ast.getTypeSize(t));
    // CUDA's vector types (float4, int2, ...) are vectors here.
    if (std::optional<std::pair<clang::QualType, int64_t>> vec = vectorRecord(t)) {
      Type elem = scalarType(vec->first, where);
      return VectorType::get({vec->second}, elem);
    }
    // CUDA's half-precision classes hold one 16-bit float.
    if (const clang::CXXRecordDecl *record = t->getAsCXXRecordDecl()) {
      if (record->getName() == "__half")
        return b.getF16Type();
      if (record->getName() == "__nv_bfloat16")
        return b.getBF16Type();
    }
    error(where, "type '" + t.getAsString() + "' is outside the supported subset");
    return b.getI32Type();
  }
  bool isUnsigned(clang::QualType t) { return t->isUnsignedIntegerOrEnumerationType(); }
  /// The overflow flags C gives an add, sub or mul computed in `t`: signed
  /// overflow of int and wider is undefined behaviour, so nsw (as clang's own
  /// code generator writes); unsigned arithmetic wraps; narrower types are
  /// promoted to int before the operation and converted back after it, which
  /// is not undefined, so they get no flag. nsw lets LLVM widen and
  /// strength-reduce 32-bit index arithmetic, and lets the raising passes
  /// read `row * K + p` as a 64-bit offset (docs/Raising.md).
  arith::IntegerOverflowFlags overflowFlags(clang::QualType t) {
    if (t->isSignedIntegerType() && !t->isBooleanType() && ast.getTypeSize(t) >= 32)
      return arith::IntegerOverflowFlags::nsw;
    return arith::IntegerOverflowFlags::none;
  }
  /// Floating-point adds, subs and muls may be contracted into FMAs, as nvcc
  /// (--fmad=true) and clang (-ffp-contract=fast for CUDA) do by default.
  static arith::FastMathFlags contractable() { return arith::FastMathFlags::contract; }

  //===--- slots --------------------------------------------------------===//

  Value allocaAtEntry(MemRefType type, Location l) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(entry);
    return memref::AllocaOp::create(b, l, type);
  }
  Value indexConst(int64_t v, Location l) { return arith::ConstantIndexOp::create(b, l, v); }
  Value load(Value slot, Location l) { return memref::LoadOp::create(b, l, slot, ValueRange{}); }
  void store(Value v, Value slot, Location l) {
    memref::StoreOp::create(b, l, v, slot, ValueRange{});
  }
  /// CUDA's vector types are aligned to their size (float4: 16 bytes), so a
  /// reinterpreted access may use one wide load or store.
  void setVectorAlignment(Operation *op, const LValue &lv) {
    Type elem = cast<MemRefType>(lv.memref.getType()).getElementType();
    op->setAttr("alignment", b.getI64IntegerAttr(lv.width * elem.getIntOrFloatBitWidth() / 8));
  }
  Value loadLValue(const LValue &lv, Location l) {
    Value v;
    if (lv.width > 1) {
      auto load = vector::LoadOp::create(
          b, l, VectorType::get({lv.width}, cast<MemRefType>(lv.memref.getType()).getElementType()),
          lv.memref, lv.indices);
      setVectorAlignment(load, lv);
      v = load;
    } else {
      v = memref::LoadOp::create(b, l, lv.memref, lv.indices);
    }
    if (lv.lane)
      return vector::ExtractOp::create(b, l, v, ArrayRef<int64_t>{*lv.lane});
    return v;
  }
  /// Records that `v` is a value of C variable `var`: a NameLoc on the op
  /// that computes it. mem2reg and the CFG lifting keep op locations, so the
  /// exporter can name the value (and the loop variables it feeds) after
  /// the variable.
  void nameAfter(Value v, const clang::VarDecl *var) {
    Operation *def = v ? v.getDefiningOp() : nullptr;
    if (!def || !var || var->getName().empty() || isa<NameLoc>(def->getLoc()) ||
        isa<arith::ConstantOp>(def))
      return;
    def->setLoc(NameLoc::get(b.getStringAttr(var->getName()), def->getLoc()));
  }
  void storeLValue(Value v, const LValue &lv, Location l) {
    nameAfter(v, lv.var);
    if (lv.lane) {
      LValue whole = lv;
      whole.lane.reset();
      v = vector::InsertOp::create(b, l, v, loadLValue(whole, l), ArrayRef<int64_t>{*lv.lane});
    }
    if (lv.width > 1)
      setVectorAlignment(vector::StoreOp::create(b, l, v, lv.memref, lv.indices), lv);
    else
      memref::StoreOp::create(b, l, v, lv.memref, lv.indices);
  }

  /// Starts a block after a terminator, so code after break/return has a home.
  void startBlock(Block *block) {
    body->push_back(block);
    b.setInsertionPointToEnd(block);
  }
  Block *newBlock() { return new Block(); }
  void branchTo(Block *dest, Location l) { cf::BranchOp::create(b, l, dest); }

  //===--- statements ---------------------------------------------------===//

  void emitStmt(const clang::Stmt *s);
  void emitDecl(const clang::VarDecl *var);
  void emitIf(const clang::IfStmt *s);
  void emitFor(const clang::ForStmt *s);
  void emitWhile(const clang::WhileStmt *s);
  void emitDo(const clang::DoStmt *s);
  void emitReturn(const clang::ReturnStmt *s);

  //===--- expressions --------------------------------------------------===//

  Value rvalue(const clang::Expr *e);
  std::optional<Pointer> pointer(const clang::Expr *e);
  std::optional<LValue> lvalue(const clang::Expr *e);
  Value condition(const clang::Expr *e); ///< as i1
  Value convert(Value v, clang::QualType from, clang::QualType to, const clang::Expr *at);
  Value toBool(Value v, const clang::Expr *at);
  Value binary(clang::BinaryOperatorKind op, Value lhs, Value rhs, clang::QualType type,
               const clang::Expr *at);
  Value compare(clang::BinaryOperatorKind op, Value lhs, Value rhs, clang::QualType operand,
                const clang::Expr *at);
  Value emitAssign(const clang::BinaryOperator *e);
  Value emitIncDec(const clang::UnaryOperator *e);
  Value emitLogical(const clang::BinaryOperator *e);
  Value emitConditional(const clang::ConditionalOperator *e);
  Value emitCall(const clang::CallExpr *e);
  Value emitOperatorCall(const clang::CXXOperatorCallExpr *e);
  Value emitInlineCall(const clang::CallExpr *e, const clang::FunctionDecl *callee);
  Value emitAtomic(StringRef name, const clang::CallExpr *e);
  Value emitShuffle(StringRef name, const clang::CallExpr *e);

  /// Emits `fn`'s body into `region` (parameters bound to `args`), ending
  /// in one exit block closed by `createReturn`.
  bool emitBody(const clang::FunctionDecl *fn, Region &region, Block *entryBlock, ValueRange args,
                function_ref<void(Location)> createReturn);

  // Launchers.
  FailureOr<SmallVector<Type>> parameterTypes(const clang::FunctionDecl *fn);
  void bindParameters(const clang::FunctionDecl *fn, ValueRange args);
  std::optional<std::array<Value, 3>> dim3Value(const clang::Expr *e);
  void emitLaunch(const clang::CUDAKernelCallExpr *e);
};

std::string kernelName(const clang::FunctionDecl *fn);

/// CUDA's vector types (float4, int2, uchar4, ...): structs of 1-4 scalar
/// fields x, y, z, w. Returns the element type and count.
std::optional<std::pair<clang::QualType, int64_t>> vectorRecord(clang::QualType t) {
  const clang::CXXRecordDecl *record = t->getAsCXXRecordDecl();
  if (!record || !record->getDefinition())
    return std::nullopt;
  StringRef name = record->getName();
  if (name.empty() || name.back() < '1' || name.back() > '4')
    return std::nullopt;
  static const StringRef bases[] = {"char", "uchar", "short", "ushort", "int", "uint", "long",
                                    "ulong", "longlong", "ulonglong", "float", "double"};
  if (!llvm::is_contained(bases, name.drop_back()))
    return std::nullopt;
  SmallVector<const clang::FieldDecl *> fields(record->fields());
  if (fields.empty() || int64_t(fields.size()) != name.back() - '0')
    return std::nullopt;
  return std::make_pair(fields.front()->getType(), int64_t(fields.size()));
}

/// __half and __nv_bfloat16: classes in CUDA's headers, f16/bf16 here.
bool isHalfClass(clang::QualType t) {
  const clang::CXXRecordDecl *record = t->getAsCXXRecordDecl();
  return record && (record->getName() == "__half" || record->getName() == "__nv_bfloat16");
}

bool isDim3(clang::QualType t) {
  const clang::CXXRecordDecl *record = t->getAsCXXRecordDecl();
  return record && record->getName() == "dim3";
}

//===----------------------------------------------------------------------===//
// Kernels
//===----------------------------------------------------------------------===//

bool KernelEmitter::emitKernel(const clang::FunctionDecl *fn, gpu::GPUModuleOp module,
                               StringRef name) {
  Location l = loc(fn->getBeginLoc());
  FailureOr<SmallVector<Type>> argTypes = parameterTypes(fn);
  if (failed(argTypes))
    return false;
  b.setInsertionPointToEnd(module.getBody());
  func = gpu::GPUFuncOp::create(b, l, name, b.getFunctionType(*argTypes, {}));
  func->setAttr(gpu::GPUDialect::getKernelFuncAttrName(), b.getUnitAttr());
  // Keep what later passes and the exporter need: names, const, __restrict__.
  for (auto [i, p] : llvm::enumerate(fn->parameters())) {
    func.setArgAttr(i, "ks.name", b.getStringAttr(p->getName()));
    clang::QualType t = p->getType();
    if (t->isPointerType() && t->getPointeeType().isConstQualified())
      func.setArgAttr(i, "ks.const", b.getUnitAttr());
    if (t.isRestrictQualified())
      func.setArgAttr(i, "ks.restrict", b.getUnitAttr());
  }
  return emitBody(fn, func.getBody(), &func.getBody().front(), func.getArguments(),
                  [&](Location end) { gpu::ReturnOp::create(b, end); });
}

bool KernelEmitter::emitBody(const clang::FunctionDecl *fn, Region &region, Block *entryBlock,
                             ValueRange args, function_ref<void(Location)> createReturn) {
  body = &region;
  entry = entryBlock;
  b.setInsertionPointToEnd(entry);
  bindParameters(fn, args);
  // Every `return` branches to one exit block.
  returnBlock = newBlock();
  emitStmt(fn->getBody());
  if (hadError)
    return false;
  Location end = loc(fn->getEndLoc());
  branchTo(returnBlock, end);
  startBlock(returnBlock);
  createReturn(end);
  return true;
}

FailureOr<SmallVector<Type>> KernelEmitter::parameterTypes(const clang::FunctionDecl *fn) {
  // Pointers become dynamically sized 1-D memrefs, scalars keep their type.
  SmallVector<Type> types;
  for (const clang::ParmVarDecl *p : fn->parameters()) {
    clang::QualType t = p->getType();
    if (t->isPointerType()) {
      if (t->getPointeeType()->isPointerType() ||
          (t->getPointeeType()->isRecordType() && !isValueClass(t->getPointeeType())))
        return error(p->getLocation(), "parameter '" + p->getName() + "' of type '" +
                                           t.getAsString() + "' is outside the supported subset"),
               failure();
      if (!isBufferElement(t->getPointeeType(), p->getLocation()))
        return failure();
      types.push_back(MemRefType::get({ShapedType::kDynamic},
                                      scalarType(t->getPointeeType(), p->getLocation())));
    } else if (t->isReferenceType() || (t->isRecordType() && !isValueClass(t))) {
      return error(p->getLocation(), "parameter '" + p->getName() + "' of type '" +
                                         t.getAsString() + "' is outside the supported subset"),
             failure();
    } else {
      types.push_back(scalarType(t, p->getLocation()));
    }
  }
  if (hadError)
    return failure();
  return types;
}

void KernelEmitter::bindParameters(const clang::FunctionDecl *fn, ValueRange args) {
  // Each parameter gets a slot so the body may assign to it (mem2reg removes
  // the slots again).
  for (auto [p, arg] : llvm::zip(fn->parameters(), args)) {
    Location pl = loc(p->getLocation());
    Slot slot;
    if (isa<MemRefType>(arg.getType())) {
      slot.kind = Slot::PointerVar;
      slot.base = arg;
      // A launcher passes its pointers on as they are: no offset slot.
      if (func) {
        slot.offsetSlot = allocaAtEntry(MemRefType::get({}, b.getIndexType()), pl);
        store(indexConst(0, pl), slot.offsetSlot, pl);
      }
    } else {
      slot.storage = allocaAtEntry(MemRefType::get({}, arg.getType()), pl);
      store(arg, slot.storage, pl);
    }
    vars[p] = slot;
  }
}

//===----------------------------------------------------------------------===//
// Launchers
//===----------------------------------------------------------------------===//

bool KernelEmitter::emitLauncher(const clang::FunctionDecl *fn, ModuleOp module,
                                 gpu::GPUModuleOp kernelModule) {
  kernels = kernelModule;
  Location l = loc(fn->getBeginLoc());
  if (!fn->getReturnType()->isVoidType())
    return error(fn->getBeginLoc(), "a launcher ('" + fn->getName() + "') must return void"), false;
  FailureOr<SmallVector<Type>> argTypes = parameterTypes(fn);
  if (failed(argTypes))
    return false;
  b.setInsertionPointToEnd(module.getBody());
  auto launcher = func::FuncOp::create(b, l, fn->getName(), b.getFunctionType(*argTypes, {}));
  for (auto [i, p] : llvm::enumerate(fn->parameters())) {
    launcher.setArgAttr(i, "ks.name", b.getStringAttr(p->getName()));
    // A __restrict__ pointer of the launcher: the buffers its kernels reach
    // through it overlap no other parameter's (ks-fuse-launches relies on it).
    if (p->getType().isRestrictQualified())
      launcher.setArgAttr(i, "ks.restrict", b.getUnitAttr());
  }
  Block *entryBlock = launcher.addEntryBlock();
  return emitBody(fn, launcher.getBody(), entryBlock, launcher.getArguments(),
                  [&](Location end) { func::ReturnOp::create(b, end); });
}

std::optional<std::array<Value, 3>> KernelEmitter::dim3Value(const clang::Expr *e) {
  e = e->IgnoreImplicit()->IgnoreParens();
  if (auto *temp = dyn_cast<clang::MaterializeTemporaryExpr>(e))
    return dim3Value(temp->getSubExpr());
  if (auto *cast = dyn_cast<clang::CXXFunctionalCastExpr>(e))
    return dim3Value(cast->getSubExpr());
  Location l = loc(e);
  auto one = [&] { return Value(arith::ConstantOp::create(b, l, b.getI32IntegerAttr(1))); };
  if (!isDim3(e->getType())) {
    Value v = rvalue(e);
    if (!v)
      return std::nullopt;
    return std::array<Value, 3>{convert(v, e->getType(), ast.UnsignedIntTy, e), one(), one()};
  }
  if (auto *ref = dyn_cast<clang::DeclRefExpr>(e)) {
    auto it = dims.find(dyn_cast<clang::VarDecl>(ref->getDecl()));
    if (it == dims.end())
      return error(e, "unknown dim3 '" + ref->getDecl()->getName() + "'"), std::nullopt;
    return std::array<Value, 3>{load(it->second[0], l), load(it->second[1], l), load(it->second[2], l)};
  }
  if (auto *construct = dyn_cast<clang::CXXConstructExpr>(e)) {
    if (construct->getNumArgs() == 1 && isDim3(construct->getArg(0)->getType()))
      return dim3Value(construct->getArg(0)); // copy
    std::array<Value, 3> result = {one(), one(), one()};
    for (unsigned i = 0; i < construct->getNumArgs() && i < 3; ++i) {
      const clang::Expr *arg = construct->getArg(i);
      if (isa<clang::CXXDefaultArgExpr>(arg))
        continue;
      Value v = rvalue(arg);
      if (!v)
        return std::nullopt;
      result[i] = convert(v, arg->getType(), ast.UnsignedIntTy, arg);
    }
    return result;
  }
  if (auto *list = dyn_cast<clang::InitListExpr>(e)) {
    std::array<Value, 3> result = {one(), one(), one()};
    for (unsigned i = 0; i < list->getNumInits() && i < 3; ++i) {
      Value v = rvalue(list->getInit(i));
      if (!v)
        return std::nullopt;
      result[i] = convert(v, list->getInit(i)->getType(), ast.UnsignedIntTy, list->getInit(i));
    }
    return result;
  }
  return error(e, std::string("unsupported dim3 expression ('") + e->getStmtClassName() + "')"),
         std::nullopt;
}

void KernelEmitter::emitLaunch(const clang::CUDAKernelCallExpr *e) {
  Location l = loc(e);
  if (func)
    return (void)error(e, "dynamic parallelism (a launch inside a kernel) is outside the supported subset");
  const clang::FunctionDecl *callee = e->getDirectCallee();
  if (!callee)
    return (void)error(e, "launches through function pointers are outside the supported subset");
  auto kernel = kernels.lookupSymbol<gpu::GPUFuncOp>(kernelName(callee));
  if (!kernel)
    return (void)error(e, "the launched kernel '" + callee->getName() + "' was not imported");
  const clang::CallExpr *config = e->getConfig();
  std::optional<std::array<Value, 3>> grid = dim3Value(config->getArg(0));
  std::optional<std::array<Value, 3>> block = grid ? dim3Value(config->getArg(1)) : std::nullopt;
  if (!block)
    return;
  Value smem;
  if (config->getNumArgs() > 2 && !isa<clang::CXXDefaultArgExpr>(config->getArg(2))) {
    Value v = rvalue(config->getArg(2));
    if (!v)
      return;
    smem = convert(v, config->getArg(2)->getType(), ast.UnsignedIntTy, config->getArg(2));
  }
  SmallVector<Value> operands;
  for (auto [i, arg] : llvm::enumerate(e->arguments())) {
    Type expected = kernel.getArgumentTypes()[i];
    if (isa<MemRefType>(expected)) {
      std::optional<Pointer> p = pointer(arg);
      if (!p)
        return;
      auto constant = getConstantIntValue(p->offset);
      if (!constant || *constant != 0)
        return (void)error(arg, "pass kernels a pointer parameter of the launcher as it is (offset pointers are not supported yet)");
      operands.push_back(p->base);
    } else {
      Value v = rvalue(arg);
      if (!v)
        return;
      operands.push_back(convert(v, arg->getType(), callee->getParamDecl(i)->getType(), arg));
    }
  }
  auto toIndex = [&](Value v) { return Value(arith::IndexCastUIOp::create(b, l, b.getIndexType(), v)); };
  gpu::KernelDim3 g{toIndex((*grid)[0]), toIndex((*grid)[1]), toIndex((*grid)[2])};
  gpu::KernelDim3 t{toIndex((*block)[0]), toIndex((*block)[1]), toIndex((*block)[2])};
  gpu::LaunchFuncOp::create(b, l, kernel, g, t, smem, operands);
}

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

void KernelEmitter::emitStmt(const clang::Stmt *s) {
  if (hadError || !s)
    return;
  if (auto *compound = dyn_cast<clang::CompoundStmt>(s)) {
    for (const clang::Stmt *child : compound->body())
      emitStmt(child);
    return;
  }
  if (auto *attributed = dyn_cast<clang::AttributedStmt>(s))
    return emitStmt(attributed->getSubStmt()); // #pragma unroll: a hint only
  if (auto *decl = dyn_cast<clang::DeclStmt>(s)) {
    for (const clang::Decl *d : decl->decls()) {
      if (auto *var = dyn_cast<clang::VarDecl>(d))
        emitDecl(var);
      else if (!isa<clang::TypedefNameDecl, clang::UsingDecl>(d))
        error(d->getBeginLoc(), "this declaration is outside the supported subset");
    }
    return;
  }
  if (auto *e = dyn_cast<clang::Expr>(s)) {
    rvalue(e);
    return;
  }
  if (auto *i = dyn_cast<clang::IfStmt>(s))
    return emitIf(i);
  if (auto *f = dyn_cast<clang::ForStmt>(s))
    return emitFor(f);
  if (auto *w = dyn_cast<clang::WhileStmt>(s))
    return emitWhile(w);
  if (auto *d = dyn_cast<clang::DoStmt>(s))
    return emitDo(d);
  if (auto *r = dyn_cast<clang::ReturnStmt>(s))
    return emitReturn(r);
  if (isa<clang::NullStmt>(s))
    return;
  if (isa<clang::BreakStmt, clang::ContinueStmt>(s)) {
    if (loops.empty()) {
      error(s, "'break'/'continue' outside a loop");
      return;
    }
    branchTo(isa<clang::BreakStmt>(s) ? loops.back().breakDest : loops.back().continueDest, loc(s));
    startBlock(newBlock());
    return;
  }
  if (isa<clang::GotoStmt, clang::IndirectGotoStmt, clang::LabelStmt>(s))
    return (void)error(s, "'goto' is outside the supported subset");
  if (isa<clang::GCCAsmStmt, clang::MSAsmStmt>(s))
    return (void)error(s, "inline 'asm' is outside the supported subset");
  if (isa<clang::SwitchStmt>(s))
    return (void)error(s, "'switch' is not supported yet");
  error(s, std::string("statement '") + s->getStmtClassName() + "' is outside the supported subset");
}

void KernelEmitter::emitDecl(const clang::VarDecl *var) {
  Location l = loc(var->getLocation());
  clang::QualType t = var->getType();
  if (var->isStaticLocal() && !var->hasAttr<clang::CUDASharedAttr>())
    return (void)error(var->getLocation(), "static local variables are outside the supported subset");
  if (ast.getAsIncompleteArrayType(t) && var->hasAttr<clang::CUDASharedAttr>()) {
    // extern __shared__ T s[]: the launch's dynamic shared memory, viewed as
    // T elements. The view's size is the largest a block can have; loads and
    // stores never read it.
    if (!func)
      return (void)error(var->getLocation(), "__shared__ outside a kernel");
    if (!isBufferElement(ast.getAsIncompleteArrayType(t)->getElementType(), var->getLocation()))
      return;
    Type elem = scalarType(ast.getAsIncompleteArrayType(t)->getElementType(), var->getLocation());
    if (hadError)
      return;
    auto space = gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(entry);
    Value bytes = gpu::DynamicSharedMemoryOp::create(
        b, l, MemRefType::get({ShapedType::kDynamic}, b.getI8Type(), nullptr, space));
    clang::QualType elemType = ast.getAsIncompleteArrayType(t)->getElementType();
    int64_t elemBytes = std::max<int64_t>(1, ast.getTypeSizeInChars(elemType).getQuantity());
    int64_t maxElems = 227 * 1024 / elemBytes;
    Slot slot;
    slot.kind = Slot::Array;
    slot.storage = memref::ViewOp::create(
        b, l, MemRefType::get({ShapedType::kDynamic}, elem, nullptr, space), bytes,
        indexConst(0, l), ValueRange{indexConst(maxElems, l)});
    vars[var] = slot;
    return;
  }
  if (const auto *array = ast.getAsConstantArrayType(t)) {
    // __shared__ arrays become workgroup memory; other local arrays private.
    SmallVector<int64_t> shape;
    clang::QualType elem = t;
    while (const auto *a = ast.getAsConstantArrayType(elem)) {
      shape.push_back(a->getSize().getSExtValue());
      elem = a->getElementType();
    }
    Type elemType = scalarType(elem, var->getLocation());
    Slot slot;
    slot.kind = Slot::Array;
    if (var->hasAttr<clang::CUDASharedAttr>()) {
      if (!func)
        return (void)error(var->getLocation(), "__shared__ outside a kernel");
      auto space = gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
      slot.storage = func.addWorkgroupAttribution(MemRefType::get(shape, elemType, nullptr, space), l);
    } else {
      slot.storage = allocaAtEntry(MemRefType::get(shape, elemType), l);
    }
    if (var->hasInit())
      return (void)error(var->getLocation(), "array initializers are not supported yet");
    vars[var] = slot;
    (void)array;
    return;
  }
  if (var->hasAttr<clang::CUDASharedAttr>())
    return (void)error(var->getLocation(), "only __shared__ arrays are supported (make it a 1-element array)");
  if (isDim3(t)) {
    if (func)
      return (void)error(var->getLocation(), "dim3 variables belong in host code");
    std::array<Value, 3> slots;
    for (Value &slot : slots)
      slot = allocaAtEntry(MemRefType::get({}, b.getI32Type()), l);
    std::optional<std::array<Value, 3>> init;
    if (var->hasInit())
      init = dim3Value(var->getInit());
    for (int i = 0; i < 3; ++i)
      store(init ? (*init)[i] : Value(arith::ConstantOp::create(b, l, b.getI32IntegerAttr(1))), slots[i], l);
    dims[var] = slots;
    return;
  }
  Slot slot;
  if (t->isPointerType()) {
    if (!var->hasInit())
      return (void)error(var->getLocation(), "a pointer variable needs an initializer");
    std::optional<Pointer> init = pointer(var->getInit());
    if (!init)
      return;
    slot.kind = Slot::PointerVar;
    slot.base = init->base;
    slot.width = init->width;
    slot.offsetSlot = allocaAtEntry(MemRefType::get({}, b.getIndexType()), l);
    store(init->offset, slot.offsetSlot, l);
    vars[var] = slot;
    return;
  }
  Type type = scalarType(t, var->getLocation());
  if (hadError)
    return;
  slot.storage = allocaAtEntry(MemRefType::get({}, type), l);
  vars[var] = slot;
  if (var->hasInit()) {
    const clang::Expr *init = var->getInit();
    if (isa<clang::InitListExpr, clang::CXXConstructExpr>(init) && !isValueClass(t))
      return (void)error(init, "this initializer is outside the supported subset");
    Value v = rvalue(init);
    if (!v)
      return;
    Value converted = convert(v, init->getType(), t, init);
    nameAfter(converted, var);
    store(converted, slot.storage, l);
  }
}

void KernelEmitter::emitIf(const clang::IfStmt *s) {
  if (s->getInit() || s->getConditionVariable())
    return (void)error(s, "declarations in an 'if' condition are not supported yet");
  Value c = condition(s->getCond());
  if (!c)
    return;
  Block *thenBlock = newBlock(), *merge = newBlock();
  Block *elseBlock = s->getElse() ? newBlock() : merge;
  cf::CondBranchOp::create(b, loc(s), c, thenBlock, elseBlock);
  startBlock(thenBlock);
  emitStmt(s->getThen());
  branchTo(merge, loc(s->getThen()->getEndLoc()));
  if (s->getElse()) {
    startBlock(elseBlock);
    emitStmt(s->getElse());
    branchTo(merge, loc(s->getElse()->getEndLoc()));
  }
  startBlock(merge);
}

void KernelEmitter::emitFor(const clang::ForStmt *s) {
  emitStmt(s->getInit());
  Block *header = newBlock(), *body = newBlock(), *latch = newBlock(), *exit = newBlock();
  branchTo(header, loc(s));
  startBlock(header);
  if (s->getCond()) {
    Value c = condition(s->getCond());
    if (!c)
      return;
    cf::CondBranchOp::create(b, loc(s->getCond()), c, body, exit);
  } else {
    branchTo(body, loc(s));
  }
  startBlock(body);
  loops.push_back({latch, exit});
  emitStmt(s->getBody());
  loops.pop_back();
  branchTo(latch, loc(s->getEndLoc()));
  startBlock(latch);
  if (s->getInc())
    rvalue(s->getInc());
  branchTo(header, loc(s->getEndLoc()));
  startBlock(exit);
}

void KernelEmitter::emitWhile(const clang::WhileStmt *s) {
  Block *header = newBlock(), *body = newBlock(), *exit = newBlock();
  branchTo(header, loc(s));
  startBlock(header);
  Value c = condition(s->getCond());
  if (!c)
    return;
  cf::CondBranchOp::create(b, loc(s->getCond()), c, body, exit);
  startBlock(body);
  loops.push_back({header, exit});
  emitStmt(s->getBody());
  loops.pop_back();
  branchTo(header, loc(s->getEndLoc()));
  startBlock(exit);
}

void KernelEmitter::emitDo(const clang::DoStmt *s) {
  Block *body = newBlock(), *latch = newBlock(), *exit = newBlock();
  branchTo(body, loc(s));
  startBlock(body);
  loops.push_back({latch, exit});
  emitStmt(s->getBody());
  loops.pop_back();
  branchTo(latch, loc(s->getCond()));
  startBlock(latch);
  Value c = condition(s->getCond());
  if (!c)
    return;
  cf::CondBranchOp::create(b, loc(s->getCond()), c, body, exit);
  startBlock(exit);
}

void KernelEmitter::emitReturn(const clang::ReturnStmt *s) {
  if (!inlineStack.empty()) {
    InlineFrame &frame = inlineStack.back();
    if (const clang::Expr *value = s->getRetValue()) {
      Value v = rvalue(value); // also for `return voidCall();`
      if (hadError)
        return;
      if (v && frame.resultSlot)
        store(convert(v, value->getType(), frame.fn->getReturnType(), value), frame.resultSlot,
              loc(s));
    }
    branchTo(frame.exit, loc(s));
  } else {
    if (const clang::Expr *value = s->getRetValue())
      rvalue(value); // `return voidCall();` in a kernel
    if (hadError)
      return;
    branchTo(returnBlock, loc(s));
  }
  startBlock(newBlock());
}

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

Value KernelEmitter::toBool(Value v, const clang::Expr *at) {
  Location l = loc(at);
  if (v.getType().isInteger(1))
    return v;
  if (isa<FloatType>(v.getType()))
    return arith::CmpFOp::create(b, l, arith::CmpFPredicate::UNE, v,
                                 arith::ConstantOp::create(b, l, b.getFloatAttr(v.getType(), 0)));
  return arith::CmpIOp::create(b, l, arith::CmpIPredicate::ne, v,
                               arith::ConstantOp::create(b, l, b.getIntegerAttr(v.getType(), 0)));
}

Value KernelEmitter::condition(const clang::Expr *e) {
  Value v = rvalue(e);
  return v ? toBool(v, e) : nullptr;
}

Value KernelEmitter::convert(Value v, clang::QualType from, clang::QualType to,
                             const clang::Expr *at) {
  if (!v)
    return nullptr;
  Type target = scalarType(to, at->getBeginLoc());
  Type source = v.getType();
  if (source == target)
    return v;
  Location l = loc(at);
  if (to->isBooleanType())
    return toBool(v, at);
  bool srcFloat = isa<FloatType>(source), dstFloat = isa<FloatType>(target);
  if (srcFloat && dstFloat)
    return source.getIntOrFloatBitWidth() < target.getIntOrFloatBitWidth()
               ? Value(arith::ExtFOp::create(b, l, target, v))
               : Value(arith::TruncFOp::create(b, l, target, v));
  if (!srcFloat && dstFloat)
    return isUnsigned(from) || from->isBooleanType()
               ? Value(arith::UIToFPOp::create(b, l, target, v))
               : Value(arith::SIToFPOp::create(b, l, target, v));
  if (srcFloat && !dstFloat)
    return isUnsigned(to) ? Value(arith::FPToUIOp::create(b, l, target, v))
                          : Value(arith::FPToSIOp::create(b, l, target, v));
  unsigned sw = source.getIntOrFloatBitWidth(), dw = target.getIntOrFloatBitWidth();
  if (sw > dw)
    return arith::TruncIOp::create(b, l, target, v);
  return isUnsigned(from) || from->isBooleanType() ? Value(arith::ExtUIOp::create(b, l, target, v))
                                                   : Value(arith::ExtSIOp::create(b, l, target, v));
}

Value KernelEmitter::compare(clang::BinaryOperatorKind op, Value lhs, Value rhs,
                             clang::QualType operand, const clang::Expr *at) {
  Location l = loc(at);
  if (isa<FloatType>(lhs.getType())) {
    // Ordered comparisons, except != which is true for NaN (as in C).
    arith::CmpFPredicate p;
    switch (op) {
    case clang::BO_LT: p = arith::CmpFPredicate::OLT; break;
    case clang::BO_LE: p = arith::CmpFPredicate::OLE; break;
    case clang::BO_GT: p = arith::CmpFPredicate::OGT; break;
    case clang::BO_GE: p = arith::CmpFPredicate::OGE; break;
    case clang::BO_EQ: p = arith::CmpFPredicate::OEQ; break;
    default: p = arith::CmpFPredicate::UNE; break;
    }
    return arith::CmpFOp::create(b, l, p, lhs, rhs);
  }
  bool u = isUnsigned(operand) || operand->isPointerType();
  arith::CmpIPredicate p;
  switch (op) {
  case clang::BO_LT: p = u ? arith::CmpIPredicate::ult : arith::CmpIPredicate::slt; break;
  case clang::BO_LE: p = u ? arith::CmpIPredicate::ule : arith::CmpIPredicate::sle; break;
  case clang::BO_GT: p = u ? arith::CmpIPredicate::ugt : arith::CmpIPredicate::sgt; break;
  case clang::BO_GE: p = u ? arith::CmpIPredicate::uge : arith::CmpIPredicate::sge; break;
  case clang::BO_EQ: p = arith::CmpIPredicate::eq; break;
  default: p = arith::CmpIPredicate::ne; break;
  }
  return arith::CmpIOp::create(b, l, p, lhs, rhs);
}

Value KernelEmitter::binary(clang::BinaryOperatorKind op, Value lhs, Value rhs,
                            clang::QualType type, const clang::Expr *at) {
  Location l = loc(at);
  if (isa<FloatType>(lhs.getType())) {
    switch (op) {
    case clang::BO_Add: case clang::BO_AddAssign: return arith::AddFOp::create(b, l, lhs, rhs, contractable());
    case clang::BO_Sub: case clang::BO_SubAssign: return arith::SubFOp::create(b, l, lhs, rhs, contractable());
    case clang::BO_Mul: case clang::BO_MulAssign: return arith::MulFOp::create(b, l, lhs, rhs, contractable());
    case clang::BO_Div: case clang::BO_DivAssign: return arith::DivFOp::create(b, l, lhs, rhs);
    case clang::BO_Rem: case clang::BO_RemAssign: return arith::RemFOp::create(b, l, lhs, rhs);
    default: return error(at, "this operator is not defined on floating-point values");
    }
  }
  bool u = isUnsigned(type);
  arith::IntegerOverflowFlags flags = overflowFlags(type);
  switch (op) {
  case clang::BO_Add: case clang::BO_AddAssign: return arith::AddIOp::create(b, l, lhs, rhs, flags);
  case clang::BO_Sub: case clang::BO_SubAssign: return arith::SubIOp::create(b, l, lhs, rhs, flags);
  case clang::BO_Mul: case clang::BO_MulAssign: return arith::MulIOp::create(b, l, lhs, rhs, flags);
  case clang::BO_Div: case clang::BO_DivAssign:
    return u ? Value(arith::DivUIOp::create(b, l, lhs, rhs)) : Value(arith::DivSIOp::create(b, l, lhs, rhs));
  case clang::BO_Rem: case clang::BO_RemAssign:
    return u ? Value(arith::RemUIOp::create(b, l, lhs, rhs)) : Value(arith::RemSIOp::create(b, l, lhs, rhs));
  case clang::BO_Shl: case clang::BO_ShlAssign: return arith::ShLIOp::create(b, l, lhs, rhs);
  case clang::BO_Shr: case clang::BO_ShrAssign:
    return u ? Value(arith::ShRUIOp::create(b, l, lhs, rhs)) : Value(arith::ShRSIOp::create(b, l, lhs, rhs));
  case clang::BO_And: case clang::BO_AndAssign: return arith::AndIOp::create(b, l, lhs, rhs);
  case clang::BO_Or: case clang::BO_OrAssign: return arith::OrIOp::create(b, l, lhs, rhs);
  case clang::BO_Xor: case clang::BO_XorAssign: return arith::XOrIOp::create(b, l, lhs, rhs);
  default: return error(at, "operator outside the supported subset");
  }
}

std::optional<LValue> KernelEmitter::lvalue(const clang::Expr *e) {
  e = e->IgnoreParens();
  if (auto *cast = dyn_cast<clang::ImplicitCastExpr>(e); cast && cast->getCastKind() == clang::CK_NoOp)
    return lvalue(cast->getSubExpr());
  if (auto *ref = dyn_cast<clang::DeclRefExpr>(e)) {
    auto *var = dyn_cast<clang::VarDecl>(ref->getDecl());
    auto it = var ? vars.find(var) : vars.end();
    if (it == vars.end()) {
      error(e, "'" + ref->getDecl()->getName() + "' is not a local variable or parameter of the kernel "
                 "(globals and __constant__ memory are not supported yet)");
      return std::nullopt;
    }
    if (it->second.kind != Slot::Scalar) {
      error(e, "assigning a whole pointer or array here is not supported");
      return std::nullopt;
    }
    return LValue{it->second.storage, {}, 1, std::nullopt, var};
  }
  if (auto *member = dyn_cast<clang::MemberExpr>(e); member && vectorRecord(member->getBase()->getType())) {
    // v.x of a float4 place: one lane of the vector stored there.
    std::optional<LValue> whole = lvalue(member->getBase());
    if (!whole)
      return std::nullopt;
    whole->lane = llvm::StringSwitch<int64_t>(member->getMemberDecl()->getName())
                      .Case("x", 0).Case("y", 1).Case("z", 2).Default(3);
    return whole;
  }
  if (auto *member = dyn_cast<clang::MemberExpr>(e)) {
    // grid.x on a launcher's dim3 variable.
    auto *ref = dyn_cast<clang::DeclRefExpr>(member->getBase()->IgnoreParenImpCasts());
    auto it = ref ? dims.find(dyn_cast<clang::VarDecl>(ref->getDecl())) : dims.end();
    if (it == dims.end()) {
      error(e, "struct and vector members (float4.x, ...) are not supported yet");
      return std::nullopt;
    }
    unsigned field = llvm::StringSwitch<unsigned>(member->getMemberDecl()->getName())
                         .Case("x", 0).Case("y", 1).Default(2);
    return LValue{it->second[field], {}};
  }
  if (auto *sub = dyn_cast<clang::ArraySubscriptExpr>(e)) {
    // a[i][j] on a 2-D array indexes the memref directly.
    SmallVector<const clang::Expr *> subscripts;
    const clang::Expr *baseExpr = e;
    while (auto *s = dyn_cast<clang::ArraySubscriptExpr>(baseExpr->IgnoreParens())) {
      subscripts.insert(subscripts.begin(), s->getIdx());
      baseExpr = s->getBase()->IgnoreParenImpCasts();
    }
    if (subscripts.size() > 1) {
      auto *ref = dyn_cast<clang::DeclRefExpr>(baseExpr);
      auto *var = ref ? dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr;
      auto it = var ? vars.find(var) : vars.end();
      if (it == vars.end() || it->second.kind != Slot::Array ||
          cast<MemRefType>(it->second.storage.getType()).getRank() != int64_t(subscripts.size())) {
        error(e, "multi-dimensional subscripts are supported on local and __shared__ arrays only");
        return std::nullopt;
      }
      LValue lv{it->second.storage, {}};
      for (const clang::Expr *idx : subscripts) {
        Value i = rvalue(idx);
        if (!i)
          return std::nullopt;
        lv.indices.push_back(arith::IndexCastOp::create(b, loc(idx), b.getIndexType(), i));
      }
      return lv;
    }
    std::optional<Pointer> p = pointer(sub->getBase());
    Value i = p ? rvalue(sub->getIdx()) : nullptr;
    if (!i)
      return std::nullopt;
    Location l = loc(e);
    Value idx = isUnsigned(sub->getIdx()->getType())
                    ? Value(arith::IndexCastUIOp::create(b, l, b.getIndexType(), i))
                    : Value(arith::IndexCastOp::create(b, l, b.getIndexType(), i));
    if (p->width > 1)
      idx = arith::MulIOp::create(b, l, idx, indexConst(p->width, l));
    return LValue{p->base, {arith::AddIOp::create(b, l, p->offset, idx)}, p->width, std::nullopt};
  }
  if (auto *unary = dyn_cast<clang::UnaryOperator>(e); unary && unary->getOpcode() == clang::UO_Deref) {
    std::optional<Pointer> p = pointer(unary->getSubExpr());
    if (!p)
      return std::nullopt;
    return LValue{p->base, {p->offset}, p->width, std::nullopt};
  }
  error(e, std::string("cannot assign to this expression ('") + e->getStmtClassName() + "')");
  return std::nullopt;
}

std::optional<Pointer> KernelEmitter::pointer(const clang::Expr *e) {
  e = e->IgnoreParens();
  if (auto *cast = dyn_cast<clang::CastExpr>(e)) {
    switch (cast->getCastKind()) {
    case clang::CK_LValueToRValue:
    case clang::CK_NoOp:
    case clang::CK_ArrayToPointerDecay:
      return pointer(cast->getSubExpr());
    case clang::CK_BitCast: {
      clang::QualType to = cast->getType()->getPointeeType(),
                      from = cast->getSubExpr()->getType()->getPointeeType();
      if (ast.hasSameUnqualifiedType(to, from))
        return pointer(cast->getSubExpr());
      // reinterpret_cast<const float4 *>(x) of a float pointer: vector reads.
      std::optional<std::pair<clang::QualType, int64_t>> vec = vectorRecord(to);
      if (vec && ast.hasSameUnqualifiedType(vec->first, from)) {
        std::optional<Pointer> p = pointer(cast->getSubExpr());
        if (!p)
          return std::nullopt;
        if (p->width != 1) {
          error(e, "reinterpreting a vector pointer again is not supported");
          return std::nullopt;
        }
        p->width = vec->second;
        return p;
      }
      error(e, "reinterpreting a pointer as another type is outside the supported subset (except T* as T4*)");
      return std::nullopt;
    }
    default:
      break;
    }
  }
  Location l = loc(e);
  if (auto *ref = dyn_cast<clang::DeclRefExpr>(e)) {
    auto *var = dyn_cast<clang::VarDecl>(ref->getDecl());
    auto it = var ? vars.find(var) : vars.end();
    if (it == vars.end()) {
      error(e, "unknown pointer '" + ref->getDecl()->getName() + "'");
      return std::nullopt;
    }
    if (it->second.kind == Slot::Array) {
      if (cast<MemRefType>(it->second.storage.getType()).getRank() != 1) {
        error(e, "pointers into multi-dimensional arrays are not supported yet");
        return std::nullopt;
      }
      return Pointer{it->second.storage, indexConst(0, l)};
    }
    if (it->second.kind == Slot::PointerVar)
      return Pointer{it->second.base,
                     it->second.offsetSlot ? load(it->second.offsetSlot, l) : indexConst(0, l),
                     it->second.width};
  }
  if (auto *bin = dyn_cast<clang::BinaryOperator>(e)) {
    if (bin->getOpcode() == clang::BO_Add || bin->getOpcode() == clang::BO_Sub) {
      bool lhsIsPtr = bin->getLHS()->getType()->isPointerType();
      const clang::Expr *ptrExpr = lhsIsPtr ? bin->getLHS() : bin->getRHS();
      const clang::Expr *intExpr = lhsIsPtr ? bin->getRHS() : bin->getLHS();
      std::optional<Pointer> p = pointer(ptrExpr);
      Value i = p ? rvalue(intExpr) : nullptr;
      if (!i)
        return std::nullopt;
      Value idx = isUnsigned(intExpr->getType())
                      ? Value(arith::IndexCastUIOp::create(b, l, b.getIndexType(), i))
                      : Value(arith::IndexCastOp::create(b, l, b.getIndexType(), i));
      if (p->width > 1)
        idx = arith::MulIOp::create(b, l, idx, indexConst(p->width, l));
      if (bin->getOpcode() == clang::BO_Sub)
        return Pointer{p->base, arith::SubIOp::create(b, l, p->offset, idx), p->width};
      return Pointer{p->base, arith::AddIOp::create(b, l, p->offset, idx), p->width};
    }
  }
  if (auto *unary = dyn_cast<clang::UnaryOperator>(e); unary && unary->getOpcode() == clang::UO_AddrOf) {
    std::optional<LValue> lv = lvalue(unary->getSubExpr());
    if (!lv)
      return std::nullopt;
    if (lv->indices.size() != 1) {
      error(e, "taking the address of a scalar variable is not supported");
      return std::nullopt;
    }
    if (lv->lane) {
      error(e, "the address of a vector component is not supported");
      return std::nullopt;
    }
    return Pointer{lv->memref, lv->indices[0], lv->width};
  }
  error(e, std::string("unsupported pointer expression ('") + e->getStmtClassName() + "')");
  return std::nullopt;
}

Value KernelEmitter::rvalue(const clang::Expr *e) {
  if (hadError)
    return nullptr;
  e = e->IgnoreParens();
  Location l = loc(e);
  clang::QualType type = e->getType();

  if (auto builtin = builtinIndex(e)) {
    if (!func)
      return error(e, "'" + builtin->first + "' is only defined in kernels");
    Value v;
    if (builtin->first == "threadIdx")
      v = gpu::ThreadIdOp::create(b, l, builtin->second);
    else if (builtin->first == "blockIdx")
      v = gpu::BlockIdOp::create(b, l, builtin->second);
    else if (builtin->first == "blockDim")
      v = gpu::BlockDimOp::create(b, l, builtin->second);
    else if (builtin->first == "gridDim")
      v = gpu::GridDimOp::create(b, l, builtin->second);
    else
      return error(e, "unknown builtin variable '" + builtin->first + "'");
    return arith::IndexCastUIOp::create(b, l, b.getI32Type(), v);
  }
  if (auto *lit = dyn_cast<clang::IntegerLiteral>(e))
    return arith::ConstantOp::create(
        b, l, b.getIntegerAttr(scalarType(type, e->getBeginLoc()), lit->getValue()));
  if (auto *lit = dyn_cast<clang::CXXBoolLiteralExpr>(e))
    return arith::ConstantOp::create(b, l, b.getBoolAttr(lit->getValue()));
  if (auto *lit = dyn_cast<clang::FloatingLiteral>(e))
    return arith::ConstantOp::create(
        b, l, b.getFloatAttr(scalarType(type, e->getBeginLoc()), lit->getValueAsApproximateDouble()));
  if (auto *lit = dyn_cast<clang::CharacterLiteral>(e))
    return arith::ConstantOp::create(
        b, l, b.getIntegerAttr(scalarType(type, e->getBeginLoc()), lit->getValue()));
  if (e->isIntegerConstantExpr(ast) && type->isIntegerType() && !isa<clang::CallExpr>(e)) {
    // sizeof, enumerators, constexpr values.
    std::optional<llvm::APSInt> value = e->getIntegerConstantExpr(ast);
    return arith::ConstantOp::create(
        b, l, b.getIntegerAttr(scalarType(type, e->getBeginLoc()), value->getSExtValue()));
  }
  if (type->isRealFloatingType() && !isa<clang::FloatingLiteral>(e)) {
    // INFINITY, -1.0f / 0, constexpr floats: folded by clang.
    llvm::APFloat value(0.0);
    if (e->EvaluateAsFloat(value, ast))
      return arith::ConstantOp::create(b, l, b.getFloatAttr(scalarType(type, e->getBeginLoc()), value));
  }
  if (auto *cast = dyn_cast<clang::CastExpr>(e)) {
    const clang::Expr *sub = cast->getSubExpr();
    switch (cast->getCastKind()) {
    case clang::CK_LValueToRValue: {
      // c ? a : b of two lvalues is an lvalue in C++; its value is all we need.
      if (auto *cond = dyn_cast<clang::ConditionalOperator>(sub->IgnoreParens()))
        return emitConditional(cond);
      std::optional<LValue> lv = lvalue(sub);
      if (!lv)
        return nullptr;
      return loadLValue(*lv, l);
    }
    case clang::CK_NoOp:
    case clang::CK_ToVoid:
      return rvalue(sub);
    case clang::CK_IntegralCast:
    case clang::CK_IntegralToFloating:
    case clang::CK_FloatingToIntegral:
    case clang::CK_FloatingCast:
    case clang::CK_IntegralToBoolean:
    case clang::CK_FloatingToBoolean:
    case clang::CK_BooleanToSignedIntegral:
      return convert(rvalue(sub), sub->getType(), type, e);
    default:
      return error(e, std::string("conversion '") + cast->getCastKindName() +
                          "' is outside the supported subset");
    }
  }
  if (auto *bin = dyn_cast<clang::BinaryOperator>(e)) {
    clang::BinaryOperatorKind op = bin->getOpcode();
    if (op == clang::BO_LAnd || op == clang::BO_LOr)
      return emitLogical(bin);
    if (bin->isAssignmentOp())
      return emitAssign(bin);
    if (op == clang::BO_Comma) {
      rvalue(bin->getLHS());
      return rvalue(bin->getRHS());
    }
    if (bin->getLHS()->getType()->isPointerType() || bin->getRHS()->getType()->isPointerType())
      return error(e, "pointer comparisons and differences are not supported yet");
    Value lhs = rvalue(bin->getLHS());
    Value rhs = lhs ? rvalue(bin->getRHS()) : nullptr;
    if (!rhs)
      return nullptr;
    if (bin->isComparisonOp())
      return compare(op, lhs, rhs, bin->getLHS()->getType(), e);
    if (bin->isShiftOp()) // operands are promoted separately: a << b has a's type
      rhs = convert(rhs, bin->getRHS()->getType(), bin->getLHS()->getType(), e);
    return binary(op, lhs, rhs, type, e);
  }
  if (auto *unary = dyn_cast<clang::UnaryOperator>(e)) {
    switch (unary->getOpcode()) {
    case clang::UO_PreInc: case clang::UO_PreDec: case clang::UO_PostInc: case clang::UO_PostDec:
      return emitIncDec(unary);
    case clang::UO_Plus:
      return rvalue(unary->getSubExpr());
    case clang::UO_Minus: {
      Value v = rvalue(unary->getSubExpr());
      if (!v)
        return nullptr;
      if (isa<FloatType>(v.getType()))
        return arith::NegFOp::create(b, l, v);
      return arith::SubIOp::create(b, l, arith::ConstantOp::create(b, l, b.getIntegerAttr(v.getType(), 0)), v,
                                   overflowFlags(unary->getType()));
    }
    case clang::UO_LNot: {
      Value c = condition(unary->getSubExpr());
      if (!c)
        return nullptr;
      Value t = arith::ConstantOp::create(b, l, b.getBoolAttr(true));
      Value notC = arith::XOrIOp::create(b, l, c, t);
      return convert(notC, ast.BoolTy, type, e);
    }
    case clang::UO_Not: {
      Value v = rvalue(unary->getSubExpr());
      if (!v)
        return nullptr;
      return arith::XOrIOp::create(b, l, v, arith::ConstantOp::create(b, l, b.getIntegerAttr(v.getType(), -1)));
    }
    case clang::UO_Deref: {
      std::optional<LValue> lv = lvalue(e);
      return lv ? Value(loadLValue(*lv, l)) : nullptr;
    }
    default:
      return error(e, "unary operator outside the supported subset");
    }
  }
  if (auto *cond = dyn_cast<clang::ConditionalOperator>(e))
    return emitConditional(cond);
  if (auto *list = dyn_cast<clang::InitListExpr>(e); list && vectorRecord(type)) {
    // float4 v = {a, b, c, d};
    auto vecType = cast<VectorType>(scalarType(type, e->getBeginLoc()));
    if (list->getNumInits() != unsigned(vecType.getNumElements()))
      return error(e, "initialize every component of a vector type");
    SmallVector<Value> elems;
    for (const clang::Expr *init : list->inits()) {
      Value v = convert(rvalue(init), init->getType(), vectorRecord(type)->first, init);
      if (!v)
        return nullptr;
      elems.push_back(v);
    }
    return vector::FromElementsOp::create(b, l, vecType, elems);
  }
  if (isValueClass(type)) {
    // Copies and conversions of __half/__nv_bfloat16 and of float4 & co. are
    // plain values here.
    if (auto *construct = dyn_cast<clang::CXXConstructExpr>(e)) {
      if (construct->getNumArgs() != 1)
        return error(e, "this constructor of '" + type.getAsString() + "' is outside the supported subset");
      const clang::Expr *arg = construct->getArg(0);
      return convert(rvalue(arg), arg->getType(), type, e);
    }
    if (auto *bind = dyn_cast<clang::CXXBindTemporaryExpr>(e))
      return rvalue(bind->getSubExpr());
  }
  if (auto *op = dyn_cast<clang::CXXOperatorCallExpr>(e))
    return emitOperatorCall(op);
  if (auto *launch = dyn_cast<clang::CUDAKernelCallExpr>(e)) {
    emitLaunch(launch);
    return nullptr;
  }
  if (auto *call = dyn_cast<clang::CallExpr>(e))
    return emitCall(call);
  if (auto *temp = dyn_cast<clang::MaterializeTemporaryExpr>(e))
    return rvalue(temp->getSubExpr());
  if (auto *defaultArg = dyn_cast<clang::CXXDefaultArgExpr>(e))
    return rvalue(defaultArg->getExpr());
  if (isa<clang::DeclRefExpr, clang::ArraySubscriptExpr>(e)) {
    std::optional<LValue> lv = lvalue(e);
    return lv ? Value(loadLValue(*lv, l)) : nullptr;
  }
  if (auto *member = dyn_cast<clang::MemberExpr>(e);
      member && member->getBase()->isPRValue() && vectorRecord(member->getBase()->getType())) {
    Value whole = rvalue(member->getBase());
    if (!whole)
      return nullptr;
    int64_t lane = llvm::StringSwitch<int64_t>(member->getMemberDecl()->getName())
                       .Case("x", 0).Case("y", 1).Case("z", 2).Default(3);
    return vector::ExtractOp::create(b, l, whole, ArrayRef<int64_t>{lane});
  }
  if (isa<clang::MemberExpr>(e)) {
    std::optional<LValue> lv = lvalue(e);
    return lv ? Value(loadLValue(*lv, l)) : nullptr;
  }
  if (isa<clang::ExprWithCleanups>(e))
    return rvalue(cast<clang::ExprWithCleanups>(e)->getSubExpr());
  return error(e, std::string("expression '") + e->getStmtClassName() + "' is outside the supported subset");
}

Value KernelEmitter::emitAssign(const clang::BinaryOperator *e) {
  Location l = loc(e);
  const clang::Expr *lhsExpr = e->getLHS();
  if (lhsExpr->getType()->isPointerType()) {
    // p = q; p += n; p -= n on a pointer variable.
    auto *ref = dyn_cast<clang::DeclRefExpr>(lhsExpr->IgnoreParens());
    auto *var = ref ? dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr;
    auto it = var ? vars.find(var) : vars.end();
    if (it == vars.end() || it->second.kind != Slot::PointerVar || !it->second.offsetSlot)
      return error(e, "only pointer variables of kernels can be assigned");
    Slot &slot = it->second;
    if (e->getOpcode() == clang::BO_Assign) {
      std::optional<Pointer> p = pointer(e->getRHS());
      if (!p)
        return nullptr;
      if (p->base != slot.base || p->width != slot.width)
        return error(e, "pointer '" + var->getName() +
                            "' would point into another buffer, which is not supported");
      store(p->offset, slot.offsetSlot, l);
      return nullptr;
    }
    Value n = rvalue(e->getRHS());
    if (!n)
      return nullptr;
    Value idx = isUnsigned(e->getRHS()->getType())
                    ? Value(arith::IndexCastUIOp::create(b, l, b.getIndexType(), n))
                    : Value(arith::IndexCastOp::create(b, l, b.getIndexType(), n));
    if (slot.width > 1)
      idx = arith::MulIOp::create(b, l, idx, indexConst(slot.width, l));
    Value off = load(slot.offsetSlot, l);
    off = e->getOpcode() == clang::BO_SubAssign ? Value(arith::SubIOp::create(b, l, off, idx))
                                                : Value(arith::AddIOp::create(b, l, off, idx));
    store(off, slot.offsetSlot, l);
    return nullptr;
  }
  std::optional<LValue> lv = lvalue(lhsExpr);
  if (!lv)
    return nullptr;
  Value result;
  if (e->getOpcode() == clang::BO_Assign) {
    Value v = rvalue(e->getRHS());
    result = convert(v, e->getRHS()->getType(), lhsExpr->getType(), e);
  } else {
    // a op= b computes in the computation type, then converts back.
    auto *compound = cast<clang::CompoundAssignOperator>(e);
    clang::QualType computeType = compound->getComputationResultType();
    Value old = loadLValue(*lv, l);
    Value rhs = rvalue(e->getRHS());
    if (!rhs)
      return nullptr;
    Value lhsC = convert(old, lhsExpr->getType(), computeType, e);
    Value rhsC = convert(rhs, e->getRHS()->getType(), computeType, e);
    Value r = binary(e->getOpcode(), lhsC, rhsC, computeType, e);
    result = convert(r, computeType, lhsExpr->getType(), e);
  }
  if (!result)
    return nullptr;
  storeLValue(result, *lv, l);
  return result;
}

Value KernelEmitter::emitIncDec(const clang::UnaryOperator *e) {
  Location l = loc(e);
  bool inc = e->isIncrementOp();
  clang::QualType t = e->getSubExpr()->getType();
  if (t->isPointerType()) {
    auto *ref = dyn_cast<clang::DeclRefExpr>(e->getSubExpr()->IgnoreParens());
    auto *var = ref ? dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr;
    auto it = var ? vars.find(var) : vars.end();
    if (it == vars.end() || it->second.kind != Slot::PointerVar || !it->second.offsetSlot)
      return error(e, "only pointer variables of kernels can be incremented");
    Value off = load(it->second.offsetSlot, l);
    Value one = indexConst(it->second.width, l);
    store(inc ? Value(arith::AddIOp::create(b, l, off, one)) : Value(arith::SubIOp::create(b, l, off, one)),
          it->second.offsetSlot, l);
    return nullptr;
  }
  std::optional<LValue> lv = lvalue(e->getSubExpr());
  if (!lv)
    return nullptr;
  Value old = loadLValue(*lv, l);
  Value updated;
  if (isa<FloatType>(old.getType())) {
    Value one = arith::ConstantOp::create(b, l, b.getFloatAttr(old.getType(), 1.0));
    updated = inc ? Value(arith::AddFOp::create(b, l, old, one)) : Value(arith::SubFOp::create(b, l, old, one));
  } else {
    Value one = arith::ConstantOp::create(b, l, b.getIntegerAttr(old.getType(), 1));
    arith::IntegerOverflowFlags flags = overflowFlags(t);
    updated = inc ? Value(arith::AddIOp::create(b, l, old, one, flags))
                  : Value(arith::SubIOp::create(b, l, old, one, flags));
  }
  storeLValue(updated, *lv, l);
  return e->isPrefix() ? updated : old;
}

Value KernelEmitter::emitLogical(const clang::BinaryOperator *e) {
  // Short-circuit: the right operand runs only when it decides the result
  // (it may index out of bounds otherwise: i < n && a[i] > 0).
  Location l = loc(e);
  Value lhs = condition(e->getLHS());
  if (!lhs)
    return nullptr;
  Block *rhsBlock = newBlock(), *merge = newBlock();
  merge->addArgument(b.getI1Type(), l);
  bool isAnd = e->getOpcode() == clang::BO_LAnd;
  if (isAnd)
    cf::CondBranchOp::create(b, l, lhs, rhsBlock, ValueRange{}, merge, ValueRange{lhs});
  else
    cf::CondBranchOp::create(b, l, lhs, merge, ValueRange{lhs}, rhsBlock, ValueRange{});
  startBlock(rhsBlock);
  Value rhs = condition(e->getRHS());
  if (!rhs)
    return nullptr;
  cf::BranchOp::create(b, l, merge, ValueRange{rhs});
  startBlock(merge);
  return convert(merge->getArgument(0), ast.BoolTy, e->getType(), e);
}

Value KernelEmitter::emitConditional(const clang::ConditionalOperator *e) {
  Location l = loc(e);
  Value c = condition(e->getCond());
  if (!c)
    return nullptr;
  Type resultType = scalarType(e->getType(), e->getBeginLoc());
  Block *thenBlock = newBlock(), *elseBlock = newBlock(), *merge = newBlock();
  merge->addArgument(resultType, l);
  cf::CondBranchOp::create(b, l, c, thenBlock, elseBlock);
  for (auto [block, arm] : {std::pair{thenBlock, e->getTrueExpr()}, {elseBlock, e->getFalseExpr()}}) {
    startBlock(block);
    Value v = convert(rvalue(arm), arm->getType(), e->getType(), arm);
    if (!v)
      return nullptr;
    cf::BranchOp::create(b, l, merge, ValueRange{v});
  }
  startBlock(merge);
  return merge->getArgument(0);
}

Value KernelEmitter::emitCall(const clang::CallExpr *e) {
  Location l = loc(e);
  const clang::FunctionDecl *callee = e->getDirectCallee();
  if (!callee)
    return error(e, "calls through function pointers are outside the supported subset");
  StringRef name = callee->getName();
  if (!func)
    return error(e, "host code may only compute launch sizes and launch kernels; the call to '" +
                        name + "' is outside the launcher subset");
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
  SmallVector<Value> args;
  for (const clang::Expr *arg : e->arguments()) {
    Value v = rvalue(arg);
    if (!v)
      return nullptr;
    // Math operates in the call's result type.
    args.push_back(convert(v, arg->getType(), e->getType(), arg));
  }
  using Builder = Value (*)(OpBuilder &, Location, ValueRange);
  // Names are a fixed array: an initializer_list member would dangle.
  struct MathFunction {
    StringRef names[3];
    Builder build;
  };
  static const MathFunction table[] = {
      {{"sqrtf", "sqrt", "__fsqrt_rn"}, [](OpBuilder &b, Location l, ValueRange a) -> Value { return math::SqrtOp::create(b, l, a[0]); }},
      {{"rsqrtf", "rsqrt"}, [](OpBuilder &b, Location l, ValueRange a) -> Value { return math::RsqrtOp::create(b, l, a[0]); }},
      {{"expf", "exp", "__expf"}, [](OpBuilder &b, Location l, ValueRange a) -> Value { return math::ExpOp::create(b, l, a[0]); }},
      {{"exp2f", "exp2", "__exp2f"}, [](OpBuilder &b, Location l, ValueRange a) -> Value { return math::Exp2Op::create(b, l, a[0]); }},
      {{"logf", "log", "__logf"}, [](OpBuilder &b, Location l, ValueRange a) -> Value { return math::LogOp::create(b, l, a[0]); }},
      {{"log2f", "log2", "__log2f"}, [](OpBuilder &b, Location l, ValueRange a) -> Value { return math::Log2Op::create(b, l, a[0]); }},
      {{"sinf", "sin", "__sinf"}, [](OpBuilder &b, Location l, ValueRange a) -> Value { return math::SinOp::create(b, l, a[0]); }},
      {{"cosf", "cos", "__cosf"}, [](OpBuilder &b, Location l, ValueRange a) -> Value { return math::CosOp::create(b, l, a[0]); }},
      {{"tanhf", "tanh"}, [](OpBuilder &b, Location l, ValueRange a) -> Value { return math::TanhOp::create(b, l, a[0]); }},
      {{"erff", "erf"}, [](OpBuilder &b, Location l, ValueRange a) -> Value { return math::ErfOp::create(b, l, a[0]); }},
      {{"fabsf", "fabs"}, [](OpBuilder &b, Location l, ValueRange a) -> Value { return math::AbsFOp::create(b, l, a[0]); }},
      {{"floorf", "floor"}, [](OpBuilder &b, Location l, ValueRange a) -> Value { return math::FloorOp::create(b, l, a[0]); }},
      {{"ceilf", "ceil"}, [](OpBuilder &b, Location l, ValueRange a) -> Value { return math::CeilOp::create(b, l, a[0]); }},
      {{"powf", "pow", "__powf"}, [](OpBuilder &b, Location l, ValueRange a) -> Value { return math::PowFOp::create(b, l, a[0], a[1]); }},
      // C's fmax/fmin return the other operand for a NaN: maxnumf/minnumf.
      {{"fmaxf", "fmax"}, [](OpBuilder &b, Location l, ValueRange a) -> Value { return arith::MaxNumFOp::create(b, l, a[0], a[1]); }},
      {{"fminf", "fmin"}, [](OpBuilder &b, Location l, ValueRange a) -> Value { return arith::MinNumFOp::create(b, l, a[0], a[1]); }},
      {{"__fdividef", "fdividef"}, [](OpBuilder &b, Location l, ValueRange a) -> Value { return arith::DivFOp::create(b, l, a[0], a[1]); }},
      {{"fmaf", "fma", "__fmaf_rn"}, [](OpBuilder &b, Location l, ValueRange a) -> Value { return math::FmaOp::create(b, l, a[0], a[1], a[2]); }},
  };
  for (const auto &[names, build] : table)
    if (llvm::is_contained(names, name) && !name.empty()) {
      if (!isa<FloatType>(args.empty() ? Type() : args[0].getType()))
        break;
      return build(b, l, args);
    }
  // Precision conversions: the argument was already converted to the
  // result's type above (round to nearest even).
  static const StringRef conversions[] = {
      "__half2float",     "__float2half",  "__float2half_rn",    "__bfloat162float",
      "__float2bfloat16", "__float2bfloat16_rn", "__int2float_rn", "__float2int_rz"};
  if (llvm::is_contained(conversions, name) && args.size() == 1)
    return args[0];
  static const std::pair<StringRef, clang::BinaryOperatorKind> halfArith[] = {
      {"__hadd", clang::BO_Add}, {"__hsub", clang::BO_Sub}, {"__hmul", clang::BO_Mul},
      {"__hdiv", clang::BO_Div}};
  for (auto [fn, op] : halfArith)
    if (name == fn && args.size() == 2)
      return binary(op, args[0], args[1], e->getType(), e);
  if ((name == "__hmax" || name == "__hmin") && args.size() == 2)
    return name == "__hmax" ? Value(arith::MaxNumFOp::create(b, l, args[0], args[1]))
                            : Value(arith::MinNumFOp::create(b, l, args[0], args[1]));
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

Value KernelEmitter::emitOperatorCall(const clang::CXXOperatorCallExpr *e) {
  // Only the operators of CUDA's half-precision classes: they compute in
  // f16/bf16 like the builtin operators do in their types.
  clang::BinaryOperatorKind op = clang::BinaryOperator::getOverloadedOpcode(e->getOperator());
  bool vectorAssign = e->getNumArgs() == 2 && vectorRecord(e->getArg(0)->getType()) &&
                      op == clang::BO_Assign;
  if (e->getNumArgs() != 2 || !(isHalfClass(e->getArg(0)->getType()) || vectorAssign))
    return error(e, "overloaded operators are outside the supported subset (except on __half and __nv_bfloat16)");
  Location l = loc(e);
  const clang::Expr *lhsExpr = e->getArg(0), *rhsExpr = e->getArg(1);
  clang::QualType halfType = lhsExpr->getType();
  if (op == clang::BO_Assign || clang::BinaryOperator::isCompoundAssignmentOp(op)) {
    std::optional<LValue> lv = lvalue(lhsExpr);
    Value rhs = lv ? convert(rvalue(rhsExpr), rhsExpr->getType(), halfType, rhsExpr) : nullptr;
    if (!rhs)
      return nullptr;
    Value result = rhs;
    if (op != clang::BO_Assign) {
      Value old = loadLValue(*lv, l);
      result = binary(op, old, rhs, halfType, e);
    }
    storeLValue(result, *lv, l);
    return result;
  }
  Value lhs = rvalue(lhsExpr);
  Value rhs = lhs ? convert(rvalue(rhsExpr), rhsExpr->getType(), halfType, rhsExpr) : nullptr;
  if (!rhs)
    return nullptr;
  if (clang::BinaryOperator::isComparisonOp(op))
    return compare(op, lhs, rhs, halfType, e);
  return binary(op, lhs, rhs, halfType, e);
}

Value KernelEmitter::emitInlineCall(const clang::CallExpr *e, const clang::FunctionDecl *callee) {
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
    } else if (param->getType()->isReferenceType()) {
      return error(arg, "reference parameters of __device__ functions are not supported yet");
    } else {
      Value v = convert(rvalue(arg), arg->getType(), param->getType(), arg);
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
  auto restore = llvm::make_scope_exit([&] {
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
  clang::QualType elem = e->getArg(0)->getType()->getPointeeType();
  v = convert(v, e->getArg(1)->getType(), elem, e->getArg(1));
  bool isFloat = isa<FloatType>(v.getType()), u = isUnsigned(elem);
  std::optional<arith::AtomicRMWKind> kind;
  if (name == "atomicAdd")
    kind = isFloat ? arith::AtomicRMWKind::addf : arith::AtomicRMWKind::addi;
  else if (name == "atomicMax")
    kind = isFloat ? arith::AtomicRMWKind::maximumf : u ? arith::AtomicRMWKind::maxu : arith::AtomicRMWKind::maxs;
  else if (name == "atomicMin")
    kind = isFloat ? arith::AtomicRMWKind::minimumf : u ? arith::AtomicRMWKind::minu : arith::AtomicRMWKind::mins;
  else if (name == "atomicExch")
    kind = arith::AtomicRMWKind::assign;
  else if (name == "atomicOr")
    kind = arith::AtomicRMWKind::ori;
  else if (name == "atomicAnd")
    kind = arith::AtomicRMWKind::andi;
  if (kind)
    return memref::AtomicRMWOp::create(b, l, *kind, v, p->base, ValueRange{p->offset});
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
  std::optional<gpu::ShuffleMode> mode = llvm::StringSwitch<std::optional<gpu::ShuffleMode>>(name)
                                             .Case("__shfl_sync", gpu::ShuffleMode::IDX)
                                             .Case("__shfl_xor_sync", gpu::ShuffleMode::XOR)
                                             .Case("__shfl_down_sync", gpu::ShuffleMode::DOWN)
                                             .Case("__shfl_up_sync", gpu::ShuffleMode::UP)
                                             .Default(std::nullopt);
  if (!mode || e->getNumArgs() < 3)
    return error(e, "'" + name + "' is outside the supported subset (use the *_sync forms)");
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
  return gpu::ShuffleOp::create(b, l, value, offset, width, *mode).getShuffleResult();
}

/// Finds the kernels to import: every __global__ function with a body, and
/// every instantiation of a __global__ template.
class KernelCollector : public clang::RecursiveASTVisitor<KernelCollector> {
public:
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool VisitFunctionDecl(clang::FunctionDecl *fn) {
    if (fn->hasAttr<clang::CUDAGlobalAttr>() && fn->doesThisDeclarationHaveABody() &&
        !fn->isDependentContext() && !fn->getDescribedFunctionTemplate())
      kernels.push_back(fn);
    return true;
  }
  std::vector<clang::FunctionDecl *> kernels;
};

/// Finds host functions (in the main file) that launch kernels.
class LauncherCollector : public clang::RecursiveASTVisitor<LauncherCollector> {
public:
  explicit LauncherCollector(clang::SourceManager &sm) : sm(sm) {}
  bool VisitFunctionDecl(clang::FunctionDecl *fn) {
    if (fn->hasAttr<clang::CUDAGlobalAttr>() || fn->hasAttr<clang::CUDADeviceAttr>() ||
        !fn->doesThisDeclarationHaveABody() || fn->isDependentContext() ||
        !sm.isInMainFile(sm.getExpansionLoc(fn->getLocation())))
      return true;
    struct Finder : clang::RecursiveASTVisitor<Finder> {
      bool found = false;
      bool VisitCUDAKernelCallExpr(clang::CUDAKernelCallExpr *) {
        found = true;
        return false;
      }
    } finder;
    finder.TraverseStmt(fn->getBody());
    if (finder.found)
      launchers.push_back(fn);
    return true;
  }
  clang::SourceManager &sm;
  std::vector<clang::FunctionDecl *> launchers;
};

/// "axpy" or, for template instantiations, "axpy<float, 4>" made an identifier.
std::string kernelName(const clang::FunctionDecl *fn) {
  std::string name = fn->getNameAsString();
  if (const clang::TemplateArgumentList *args = fn->getTemplateSpecializationArgs()) {
    clang::PrintingPolicy policy(fn->getASTContext().getLangOpts());
    for (const clang::TemplateArgument &arg : args->asArray()) {
      std::string text;
      llvm::raw_string_ostream os(text);
      arg.print(policy, os, /*IncludeType=*/false);
      name += "_";
      for (char c : text)
        name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
    }
  }
  return name;
}
} // namespace

OwningOpRef<ModuleOp> mlir::ks::importCUDA(MLIRContext &context, StringRef path,
                                           const CUDAImportOptions &options,
                                           llvm::raw_ostream &diagnostics) {
  std::unique_ptr<clang::ASTUnit> unit =
      parseCUDA(path.str(), options.gpuArch, options.extraArgs, options.pchDir, diagnostics);
  if (!unit)
    return nullptr;
  context.loadDialect<arith::ArithDialect, cf::ControlFlowDialect, func::FuncDialect, gpu::GPUDialect,
                      math::MathDialect, memref::MemRefDialect, scf::SCFDialect, ub::UBDialect,
                      vector::VectorDialect>();
  clang::ASTContext &ast = unit->getASTContext();
  OpBuilder b(&context);
  Location fileLoc = FileLineColLoc::get(&context, path, 1, 1);
  OwningOpRef<ModuleOp> module = ModuleOp::create(fileLoc);
  (*module)->setAttr(gpu::GPUDialect::getContainerModuleAttrName(), b.getUnitAttr());
  (*module)->setAttr("ks.source", b.getStringAttr(path));
  b.setInsertionPointToEnd(module->getBody());
  auto gpuModule = gpu::GPUModuleOp::create(b, fileLoc, "kernels");

  KernelCollector collector;
  collector.TraverseDecl(ast.getTranslationUnitDecl());
  if (collector.kernels.empty()) {
    diagnostics << path << ": error: no __global__ kernel with a body\n";
    return nullptr;
  }
  for (clang::FunctionDecl *fn : collector.kernels) {
    KernelEmitter emitter(&context, ast, diagnostics);
    if (!emitter.emitKernel(fn, gpuModule, kernelName(fn)))
      return nullptr;
  }
  LauncherCollector launchers(ast.getSourceManager());
  launchers.TraverseDecl(ast.getTranslationUnitDecl());
  for (clang::FunctionDecl *fn : launchers.launchers) {
    KernelEmitter emitter(&context, ast, diagnostics);
    if (!emitter.emitLauncher(fn, *module, gpuModule))
      return nullptr;
  }
  if (failed(verify(*module))) {
    diagnostics << path << ": error: internal: the imported IR does not verify\n";
    return nullptr;
  }
  if (options.structure) {
    PassManager pm(&context);
    pm.addNestedPass<gpu::GPUModuleOp>(createMem2Reg());
    pm.addNestedPass<func::FuncOp>(createMem2Reg());
    pm.addNestedPass<func::FuncOp>(createLiftControlFlowToSCFPass());
    pm.addPass(createCanonicalizerPass());
    pm.addPass(createKSLiftKernelCFG());
    pm.addPass(createCanonicalizerPass());
    pm.addPass(createCSEPass());
    if (failed(pm.run(*module))) {
      // The pass itself has said at which op; this line names the step.
      diagnostics << path
                  << ": error: internal: the imported kernels' control flow could not be "
                     "structured (--no-structure imports the raw control-flow graph)\n";
      return nullptr;
    }
  }
  return module;
}
